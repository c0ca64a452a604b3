// Command pulumi-language-nodejs is a minimal Node.js language host for the Pulumi CLI built by
// tools/pulumi/build.sh.
//
// Why it exists: the official host is its own Go module
// (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) with no release tags, and the
// Go module proxy reachable from our machines refuses its release pseudo-versions, while the CLI
// (pkg/v3) and the SDK (sdk/v3) are served. A language host is a thin launcher: the engine, the
// step generator, the state and every provider call stay in the real CLI, and the program itself
// runs in @pulumi/pulumi's own `cmd/run` entry point exactly as the official host starts it
// (same arguments, same PULUMI_CONFIG / PULUMI_CONFIG_SECRET_KEYS environment, same exit-code 32
// convention). What it leaves out: `pulumi new`/`convert`/`package` support (templates,
// code generation, packing, linking), dependency installation (`pulumi install`), the synchronous
// invoke pipes (only used by deprecated sync invokes) and plugin discovery from package.json
// (the only plugin our programs use, pulumi-nodejs, is bundled with the engine and found on PATH).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

// The SDK's run script exits with this code once it has printed a message the user can act on.
const exitAfterUserActionableMessage = 32

type languageHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
}

func main() {
	showVersion := flag.Bool("version", false, "print the version and exit")
	flag.String("tracing", "", "ignored (accepted for compatibility with the engine's arguments)")
	flag.String("runtime", "nodejs", "ignored: only nodejs is supported")
	flag.Parse()
	if *showVersion {
		fmt.Println(version.Version)
		return
	}
	host := &languageHost{}
	if flag.NArg() > 0 {
		host.engineAddress = flag.Arg(0)
	}
	cancel := make(chan bool)
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancel,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "could not start the language host: %v\n", err)
		os.Exit(1)
	}
	// The engine reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "language host stopped serving: %v\n", err)
		os.Exit(1)
	}
}

func (h *languageHost) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.engineAddress = req.GetEngineAddress()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *languageHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// No plugins to pre-install: dynamic resources use the pulumi-nodejs provider, which the engine
// treats as bundled and finds on PATH.
func (h *languageHost) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *languageHost) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *languageHost) GetProgramDependencies(
	context.Context, *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (h *languageHost) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.Command("node", "--version").Output()
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{Executable: "node", Version: strings.TrimSpace(string(node))}, nil
}

func (h *languageHost) InstallDependencies(
	*pulumirpc.InstallDependenciesRequest, grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	return status.Error(codes.Unimplemented, "this language host does not install dependencies: run npm install")
}

func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	if info == nil {
		return nil, errors.New("the engine sent no program info")
	}
	runScript, err := resolveModule(info.GetProgramDirectory(), "@pulumi/pulumi/cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	configJSON, err := programConfig(req.GetConfig())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	secretKeys, err := json.Marshal(nonNil(req.GetConfigSecretKeys()))
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	args := []string{runScript}
	flagIfSet := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flagIfSet("monitor", req.GetMonitorAddress())
	flagIfSet("engine", h.engineAddress)
	flagIfSet("organization", req.GetOrganization())
	flagIfSet("project", req.GetProject())
	flagIfSet("root-directory", info.GetRootDirectory())
	flagIfSet("stack", req.GetStack())
	flagIfSet("pwd", info.GetProgramDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	flagIfSet("parallel", strconv.Itoa(int(req.GetParallel())))
	args = append(args, info.GetEntryPoint())
	args = append(args, req.GetArgs()...)

	env := append(os.Environ(), "PULUMI_CONFIG="+configJSON, "PULUMI_CONFIG_SECRET_KEYS="+string(secretKeys))
	options := info.GetOptions().AsMap()
	if ts, ok := options["typescript"].(bool); !ok || ts {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if tsconfig, ok := options["tsconfig"].(string); ok && tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}
	nodeArgs := []string{}
	if extra, ok := options["nodeargs"].(string); ok && extra != "" {
		nodeArgs = strings.Fields(extra)
	}

	cmd := exec.CommandContext(ctx, "node", append(nodeArgs, args...)...)
	cmd.Dir = info.GetProgramDirectory()
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if exit.ExitCode() == exitAfterUserActionableMessage {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exit.ExitCode())}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not run node: %v", err)}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// programConfig renders the stack config the way the SDK reads it: keys as `<namespace>:config:<name>`.
func programConfig(cfg map[string]string) (string, error) {
	out := make(map[string]string, len(cfg))
	for k, v := range cfg {
		key, err := config.ParseKey(k)
		if err != nil {
			return "", err
		}
		out[key.Namespace()+":config:"+key.Name()] = v
	}
	b, err := json.Marshal(out)
	return string(b), err
}

func resolveModule(dir, module string) (string, error) {
	script := fmt.Sprintf(`try { console.log(require.resolve(%q)) } catch (e) { console.error(e.code === "MODULE_NOT_FOUND" ? "@pulumi/pulumi is not installed here: run npm install" : e.message); process.exit(1) }`, module)
	cmd := exec.Command("node", "-e", script)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return "", errors.New(strings.TrimSpace(string(exit.Stderr)))
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

func nonNil(keys []string) []string {
	if keys == nil {
		return []string{}
	}
	return keys
}
