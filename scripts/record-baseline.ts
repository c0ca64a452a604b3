/**
 * Records the upgrade baselines of a release (test/upgrade/README.md): for each program of
 * `BASELINE_PROGRAMS`, the state that release's own code leaves after `pulumi up`, so that
 * test/engine/upgrade.test.ts can replay it under the current code.
 *
 *   npm run baseline:record -- v0.2.0 [program ...]
 *
 * The release's tag is checked out in a temporary git worktree, installed (`npm ci`) and built there;
 * each program runs from that checkout (so it loads that release's package and SDK, and so does the
 * dynamic-provider host, which resolves both from the program directory) through the real Pulumi CLI
 * built by tools/pulumi/build.sh, against that release's emulator with a state file. Written to
 * test/upgrade/baselines/<tag>/<program>/:
 *   program/             the program as it ran (sources, Pulumi.yaml, package.json)
 *   stack.json           project, stack, the stack config besides the credentials, the emulator's URL
 *   pulumi-export.json   `pulumi stack export` (secrets encrypted with the passphrase in stack.json)
 *   emulator-state.json  the emulator's `--state-file`: the objects the state refers to
 * and test/upgrade/baselines/<tag>/release.json (tag, commit, CLI version, when).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fixtureProject } from "../test/support/harnessFixture";
import { BASELINE_PROGRAMS, BASELINES_DIR, type BaselineProgram } from "../test/support/upgradeBaselines";
import { DEFAULT_PASSPHRASE } from "../tools/harness/state";
import * as cli from "../tools/pulumi/cli";

const ROOT = path.resolve(__dirname, "..");

function sh(cmd: string, args: string[], cwd: string): void {
  console.log(`$ ${cmd} ${args.join(" ")}   (in ${cwd})`);
  execFileSync(cmd, args, { cwd, stdio: "inherit" });
}

/** An API call to the recording emulator with its bootstrap key (setup of what a program refers to). */
type Api = (method: string, apiPath: string, body?: unknown) => Promise<any>;

function apiFor(url: string, apiKey: string): Api {
  return async (method, apiPath, body) => {
    const res = await fetch(`${url}${apiPath}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${apiPath}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/**
 * What each program needs in the account before its first `up` (as its lifecycle test makes it),
 * answered as the program's stack config. Programs not listed need nothing.
 */
const SETUPS: Record<string, (api: Api) => Promise<Record<string, string>>> = {};

/**
 * Makes a release's program runnable by the real CLI, as later releases fixed it: a package.json
 * (without one the CLI's Node run script walks up to the repository's package.json and runs its
 * `main`), and no project `config:` entry of another namespace without a value (the CLI refuses
 * those; 0.1.0's examples declared `incident:baseUrl` that way). The program's code is untouched.
 */
function makeRunnable(programDir: string, project: string): void {
  const pkg = path.join(programDir, "package.json");
  if (!fs.existsSync(pkg)) {
    fs.writeFileSync(pkg, `${JSON.stringify({ name: project, private: true, main: "index.ts" }, null, 2)}\n`);
  }
  const yamlFile = path.join(programDir, "Pulumi.yaml");
  // A lifecycle fixture is only its index.ts: the recorded program gets the project file it ran with.
  if (!fs.existsSync(yamlFile)) {
    fs.writeFileSync(
      yamlFile,
      `name: ${project}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
    );
  }
  const lines = fs.readFileSync(yamlFile, "utf8").split("\n");
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const key = /^ {2}([\w-]+):([\w-]+):\s*$/.exec(lines[i]!);
    if (key && key[1] !== project) {
      const body: string[] = [];
      while (i + 1 < lines.length && /^ {4}/.test(lines[i + 1]!)) body.push(lines[++i]!);
      if (body.some((l) => /^ {4}(value|default):/.test(l))) kept.push(lines[i - body.length]!, ...body);
      continue;
    }
    kept.push(lines[i]!);
  }
  const text = kept.join("\n").replace(/^config:\n(?! )/m, "");
  fs.writeFileSync(yamlFile, text);
}

async function record(checkout: string, program: BaselineProgram, outDir: string): Promise<void> {
  const programDir = path.join(checkout, program.dir);
  const project = fixtureProject(programDir);
  makeRunnable(programDir, project);
  // The release's own emulator, in this process, persisting to a state file.
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `baseline-${program.name}-`));
  const emulatorState = path.join(work, "emulator-state.json");
  const { startEmulator } = require(path.join(checkout, "dist/emulator"));
  const emu = await startEmulator({ port: 0, stateFile: emulatorState });
  // The stack's workspace inside the checkout, so nothing of the repository's own modules is found.
  const stateFile = path.join(checkout, ".baseline", program.name, "state.json");
  try {
    const config = (await SETUPS[program.name]?.(apiFor(emu.url, emu.apiKey))) ?? {};
    const options: cli.CliOptions = {
      program: programDir,
      stateFile,
      config: {
        "incident:apiKey": emu.apiKey,
        "incident:baseUrl": emu.url,
        ...Object.fromEntries(Object.entries(config).map(([k, v]) => [`${project}:${k}`, v])),
      },
      secretConfig: ["incident:apiKey"],
    };
    const up = await cli.up(options);
    if (!up.ok) throw new Error(`${program.name}: up failed:\n${up.log}`);
    // A baseline must be clean under its own release, or the upgrade test would blame the wrong code.
    const again = await cli.preview({ ...options, expectNoChanges: true });
    if (!again.ok) throw new Error(`${program.name}: preview after up is not clean:\n${again.log}`);
    console.log(`${program.name}: ${up.steps.length} resources created`);

    fs.rmSync(outDir, { recursive: true, force: true });
    fs.mkdirSync(outDir, { recursive: true });
    const files = execFileSync("git", ["ls-files", "--others", "--cached", "--exclude-standard", "."], {
      cwd: programDir,
      encoding: "utf8",
    })
      .split("\n")
      .filter(Boolean);
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(outDir, "program", f)), { recursive: true });
      fs.copyFileSync(path.join(programDir, f), path.join(outDir, "program", f));
    }
    const write = (name: string, value: unknown) =>
      fs.writeFileSync(path.join(outDir, name), `${JSON.stringify(value, null, 2)}\n`);
    write("stack.json", {
      project,
      stack: "dev",
      passphrase: DEFAULT_PASSPHRASE,
      config,
      emulatorUrl: emu.url,
    });
    write("pulumi-export.json", cli.exportedState(options, { showSecrets: false }));
  } finally {
    await emu.close();
    cli.dispose(stateFile);
  }
  fs.copyFileSync(emulatorState, path.join(outDir, "emulator-state.json"));
  fs.rmSync(work, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const [tag, ...only] = process.argv.slice(2);
  if (!tag) throw new Error("usage: npm run baseline:record -- <release tag> [program ...]");
  if (!cli.available()) throw new Error("the Pulumi CLI is not built: npm run pulumi:build");
  const commit = execFileSync("git", ["rev-parse", `${tag}^{commit}`], {
    cwd: ROOT,
    encoding: "utf8",
  }).trim();
  const programs = BASELINE_PROGRAMS.filter((p) => !only.length || only.includes(p.name));
  const checkout = fs.mkdtempSync(path.join(os.tmpdir(), `baseline-${tag}-`));
  sh("git", ["worktree", "add", "--detach", checkout, commit], ROOT);
  try {
    sh("npm", ["ci", "--no-audit", "--no-fund"], checkout);
    sh("npm", ["run", "build"], checkout);
    const releaseDir = path.join(BASELINES_DIR, tag);
    for (const program of programs) {
      if (!fs.existsSync(path.join(checkout, program.dir))) {
        console.log(`${program.name}: ${program.dir} does not exist at ${tag}: not recorded`);
        continue;
      }
      await record(checkout, program, path.join(releaseDir, program.name));
    }
    const version = execFileSync(path.join(cli.CLI_BIN, "pulumi"), ["version"], { encoding: "utf8" }).trim();
    fs.writeFileSync(
      path.join(releaseDir, "release.json"),
      `${JSON.stringify({ tag, commit, pulumiCli: version, node: process.version, recordedAt: new Date().toISOString() }, null, 2)}\n`,
    );
  } finally {
    sh("git", ["worktree", "remove", "--force", checkout], ROOT);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
