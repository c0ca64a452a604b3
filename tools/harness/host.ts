/**
 * The real dynamic-provider host (`pulumi-resource-pulumi-nodejs`), started as the engine starts it,
 * and a promise-based gRPC client for it built from the SDK's own @grpc/grpc-js and proto stubs
 * (resolved from the program's @pulumi/pulumi, so the messages are the same classes).
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { structSafe, type WireMap } from "./wire";

/** The SDK modules, resolved from the program's directory. */
export interface Sdk {
  dir: string;
  grpc: any;
  provrpc: any;
  provproto: any;
  resproto: any;
  statusproto: any;
  structproto: any;
  emptyproto: any;
  settings: any;
  stack: any;
  state: any;
  version: string;
}

export function loadSdk(fromDir: string): Sdk {
  const pkgJson = require.resolve("@pulumi/pulumi/package.json", { paths: [fromDir] });
  const dir = path.dirname(pkgJson);
  const dep = (name: string) => require(require.resolve(name, { paths: [dir] }));
  const own = (rel: string) => require(path.join(dir, rel));
  return {
    dir,
    grpc: dep("@grpc/grpc-js"),
    provrpc: own("proto/provider_grpc_pb.js"),
    provproto: own("proto/provider_pb.js"),
    resproto: own("proto/resource_pb.js"),
    statusproto: own("proto/status_pb.js"),
    structproto: dep("google-protobuf/google/protobuf/struct_pb"),
    emptyproto: dep("google-protobuf/google/protobuf/empty_pb"),
    settings: own("runtime/settings.js"),
    stack: own("runtime/stack.js"),
    state: own("runtime/state.js"),
    version: require(pkgJson).version,
  };
}

/** A failed provider RPC, with the half-created object when the host sent ErrorResourceInitFailed. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly initFailed?: { id: string; properties: WireMap; reasons: string[] },
  ) {
    super(message);
  }
}

export interface DiffResult {
  changes: "none" | "some" | "unknown";
  replaces: string[];
  diffs: string[];
  deleteBeforeReplace: boolean;
}

export interface SpawnedHost {
  child: ChildProcess;
  port: Promise<number>;
  /** ms from spawn to the port line. */
  startMs: () => number;
  log: string[];
}

/**
 * exec `<@pulumi/pulumi>/pulumi-resource-pulumi-nodejs <engine>` as the engine does: its own process
 * group, cwd = the project directory; the port is the first line of stdout. Needs only the SDK's
 * directory, so it can start before the SDK itself is loaded.
 */
export function spawnHost(sdkDir: string, cwd: string, env: NodeJS.ProcessEnv): SpawnedHost {
  const started = Date.now();
  let ready = 0;
  const script = path.join(sdkDir, "pulumi-resource-pulumi-nodejs");
  // The engine passes its own gRPC address; nothing here calls back into it.
  const child = spawn(script, ["127.0.0.1:1"], {
    cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const spawned: SpawnedHost = { child, port: Promise.resolve(0), startMs: () => ready - started, log: [] };
  spawned.port = new Promise<number>((resolve, reject) => {
    let buffer = "";
    let done = false;
    const fail = (why: string) => {
      if (done) return;
      done = true;
      reject(new Error(`dynamic-provider host did not start: ${why}\n${spawned.log.join("")}`));
    };
    child.stdout!.on("data", (chunk: Buffer) => {
      if (done) {
        spawned.log.push(chunk.toString());
        return;
      }
      buffer += chunk.toString();
      const nl = buffer.indexOf("\n");
      if (nl < 0) return;
      const first = buffer.slice(0, nl).trim();
      if (buffer.slice(nl + 1)) spawned.log.push(buffer.slice(nl + 1));
      const port = Number(first);
      if (!Number.isInteger(port) || port <= 0) return fail(`first line was "${first}"`);
      done = true;
      ready = Date.now();
      resolve(port);
    });
    child.stderr!.on("data", (chunk: Buffer) => spawned.log.push(chunk.toString()));
    child.on("error", (e) => fail(e.message));
    child.on("exit", (code, signal) => fail(`exited (${code ?? signal})`));
  });
  spawned.port.catch(() => undefined);
  return spawned;
}

/** What Diff and Update are asked about: the resource, its last inputs and outputs, the new inputs. */
type ChangeParams = [
  urn: string,
  id: string,
  oldInputs: WireMap,
  olds: WireMap,
  news: WireMap,
  ignoreChanges: string[],
];

export class ProviderHost {
  readonly log: string[] = [];
  private client: any;
  private exited = false;

  private constructor(
    private readonly sdk: Sdk,
    private readonly child: ChildProcess,
    readonly port: number,
    readonly startMs: number,
  ) {
    const options = sdk.settings.grpcChannelOptions ?? {};
    this.client = new sdk.provrpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      sdk.grpc.credentials.createInsecure(),
      options,
    );
    child.on("exit", () => {
      this.exited = true;
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Connects to a spawned host once it has printed its port. */
  static async connect(sdk: Sdk, spawned: SpawnedHost): Promise<ProviderHost> {
    const port = await spawned.port;
    const host = new ProviderHost(sdk, spawned.child, port, spawned.startMs());
    host.log.push(...spawned.log);
    spawned.log = host.log;
    return host;
  }

  /** Kill the whole process group (the sh wrapper forks node). */
  kill(): void {
    try {
      this.client.close();
    } catch {
      // already closed
    }
    if (this.child.pid) {
      try {
        process.kill(-this.child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }

  /**
   * Calls go out in chunks, one chunk per turn of the event loop: when thousands of steps become
   * ready at once (a refresh or destroy of a large stack, the registrations of a program), the first
   * requests reach the host while the rest are still being serialized, instead of after all of them.
   */
  private readonly outbox: (() => void)[] = [];
  private flushing = false;
  private static readonly CHUNK = 32;

  /** `build` makes the request when its chunk goes out (building is most of a large request's cost). */
  private call<T>(method: string, build: () => any): Promise<T> {
    return new Promise((resolve, reject) => {
      this.outbox.push(() => {
        try {
          this.client[method](build(), (err: any, resp: T) => {
            if (err) reject(this.toError(err));
            else resolve(resp);
          });
        } catch (e) {
          reject(e); // an unserializable request, or the channel closed
        }
      });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    for (const send of this.outbox.splice(0, ProviderHost.CHUNK)) send();
    if (this.outbox.length) setImmediate(() => this.flush());
    else this.flushing = false;
  }

  private toError(err: any): ProviderError {
    const message: string = err.details || err.message || String(err);
    let initFailed: ProviderError["initFailed"];
    try {
      const raw = err.metadata?.get?.("grpc-status-details-bin")?.[0];
      if (raw) {
        const status = this.sdk.statusproto.Status.deserializeBinary(new Uint8Array(raw));
        for (const any of status.getDetailsList()) {
          if (any.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
          const d = this.sdk.provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
          initFailed = {
            id: d.getId(),
            properties: d.getProperties()?.toJavaScript() ?? {},
            reasons: d.getReasonsList(),
          };
        }
      }
    } catch {
      // no details
    }
    const suffix = this.exited ? " (the provider host exited)" : "";
    return new ProviderError(message + suffix, err.code ?? 2, initFailed);
  }

  private struct(v: WireMap | undefined): any {
    return this.sdk.structproto.Struct.fromJavaScript(structSafe(v ?? {}));
  }

  async getPluginInfo(): Promise<string> {
    const resp: any = await this.call("getPluginInfo", () => new this.sdk.emptyproto.Empty());
    return resp.getVersion();
  }

  /** Configure with the whole stack config (namespaced keys, secrets decrypted, plain strings). */
  async configure(
    config: Record<string, string>,
  ): Promise<{ acceptSecrets: boolean; supportsPreview: boolean }> {
    const resp: any = await this.call("configure", () => {
      const req = new this.sdk.provproto.ConfigureRequest();
      const vars = req.getVariablesMap();
      for (const [k, v] of Object.entries(config)) vars.set(k, v);
      req.setArgs(this.struct(config));
      req.setAcceptsecrets(true);
      req.setAcceptresources(true);
      req.setSendsOldInputs(true);
      req.setSendsOldInputsToDelete(true);
      return req;
    });
    return { acceptSecrets: resp.getAcceptsecrets(), supportsPreview: resp.getSupportspreview() };
  }

  async check(
    urn: string,
    olds: WireMap,
    news: WireMap,
  ): Promise<{ inputs: WireMap; failures: { property: string; reason: string }[] }> {
    const resp: any = await this.call("check", () => {
      const req = new this.sdk.provproto.CheckRequest();
      setUrn(req, urn);
      req.setOlds(this.struct(olds));
      req.setNews(this.struct(news));
      req.setRandomseed(new Uint8Array(Buffer.from(urn).subarray(0, 32)));
      return req;
    });
    return {
      inputs: resp.getInputs()?.toJavaScript() ?? {},
      failures: resp
        .getFailuresList()
        .map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** The fields DiffRequest and UpdateRequest share (the engine fills both the same way). */
  private changeRequest(req: any, ...[urn, id, oldInputs, olds, news, ignoreChanges]: ChangeParams): any {
    setUrn(req, urn);
    req.setId(id);
    req.setOldInputs(this.struct(oldInputs));
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    req.setIgnorechangesList(ignoreChanges);
    return req;
  }

  async diff(...change: ChangeParams): Promise<DiffResult> {
    const resp: any = await this.call("diff", () =>
      this.changeRequest(new this.sdk.provproto.DiffRequest(), ...change),
    );
    const C = this.sdk.provproto.DiffResponse.DiffChanges;
    const changes = resp.getChanges();
    return {
      changes: changes === C.DIFF_SOME ? "some" : changes === C.DIFF_NONE ? "none" : "unknown",
      replaces: resp.getReplacesList(),
      diffs: resp.getDiffsList(),
      deleteBeforeReplace: resp.getDeletebeforereplace(),
    };
  }

  async create(urn: string, properties: WireMap): Promise<{ id: string; properties: WireMap }> {
    const resp: any = await this.call("create", () => {
      const req = new this.sdk.provproto.CreateRequest();
      setUrn(req, urn);
      req.setProperties(this.struct(properties));
      req.setPreview(false);
      return req;
    });
    return { id: resp.getId(), properties: resp.getProperties()?.toJavaScript() ?? {} };
  }

  async update(...change: ChangeParams): Promise<WireMap> {
    const resp: any = await this.call("update", () => {
      const req = this.changeRequest(new this.sdk.provproto.UpdateRequest(), ...change);
      req.setPreview(false);
      return req;
    });
    return resp.getProperties()?.toJavaScript() ?? {};
  }

  async delete(urn: string, id: string, oldInputs: WireMap, properties: WireMap): Promise<void> {
    await this.call("delete", () => {
      const req = new this.sdk.provproto.DeleteRequest();
      setUrn(req, urn);
      req.setId(id);
      req.setOldInputs(this.struct(oldInputs));
      req.setProperties(this.struct(properties));
      return req;
    });
  }

  async read(
    urn: string,
    id: string,
    properties: WireMap,
    inputs: WireMap,
  ): Promise<{ id: string; properties: WireMap; inputs?: WireMap }> {
    const resp: any = await this.call("read", () => {
      const req = new this.sdk.provproto.ReadRequest();
      setUrn(req, urn);
      req.setId(id);
      req.setProperties(this.struct(properties));
      req.setInputs(this.struct(inputs));
      return req;
    });
    return {
      id: resp.getId(),
      properties: resp.getProperties()?.toJavaScript() ?? {},
      inputs: resp.getInputs()?.toJavaScript(),
    };
  }
}

function setUrn(req: any, urn: string): void {
  req.setUrn(urn);
  const parts = urn.split("::");
  req.setName(parts.slice(3).join("::"));
  req.setType((parts[2] ?? "").split("$").pop() ?? "");
}
