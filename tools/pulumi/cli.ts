/**
 * The real Pulumi CLI (built from Go modules by tools/pulumi/build.sh into .tools/pulumi/bin) behind
 * the harness's API: `up`, `preview`, `refresh`, `destroy` and `readState` take the same options and
 * answer the same `RunResult` / `HarnessState`, so a test written for the harness runs through the
 * real engine unchanged (test/support/driver.ts picks one). Each stack lives in a workspace of its
 * own next to `stateFile` (`<stateFile>.cli/`): a file backend, a PULUMI_HOME, and a project
 * directory holding a copy of the program's Pulumi.yaml whose `main` points back at the program,
 * so nothing is written next to the program itself. No network: the backend is local, the update
 * check is off, and the only plugin (pulumi-nodejs, the dynamic-provider host) comes from
 * @pulumi/pulumi.
 *
 * What a run reports comes from the engine's own event log (`--event-log`, the stream the CLI's
 * display and the automation API read) and from `pulumi stack export --show-secrets` (the state).
 * API calls are split by who made them: the provider host writes to one trace file (a wrapper on
 * PATH, found before the plugin next to the CLI), the program (lookups) to another.
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { maskUrl } from "../../provider/masking";
import { DEFAULT_PASSPHRASE, STATE_FLAGS } from "../harness/state";
import { readTrace } from "../harness/trace";
import type {
  ApiCall,
  HarnessError,
  HarnessOptions,
  HarnessState,
  Operation,
  RunResult,
  StateResource,
  Step,
  StepOp,
} from "../harness/types";
import { containsSecrets, masked, plain, SECRET_SIG, SIG, type Wire, type WireMap } from "../harness/wire";

const ROOT = path.resolve(__dirname, "../..");
/** Where tools/pulumi/build.sh puts the CLI, our language host and a link to the provider plugin. */
export const CLI_BIN = path.join(ROOT, ".tools/pulumi/bin");
const CLI = path.join(CLI_BIN, "pulumi");
const PROVIDER_PLUGIN = "pulumi-resource-pulumi-nodejs";
const PROVIDER_KEY = "__provider";

/** Options the harness does not have: flags of the real CLI. */
export interface CliOptions extends HarnessOptions {
  /** `--target URN` (repeatable). */
  target?: string[];
  /** `refresh --run-program` / `destroy --run-program`: configure providers from the program's config. */
  runProgram?: boolean;
  /**
   * With `skipPreview`: `refresh` and `destroy` get `--skip-preview` too, as pipelines run them
   * (`skipPreview` alone skips only `up`'s preview). The bench sets it.
   */
  skipEveryPreview?: boolean;
}

export interface CliRunResult extends RunResult {
  /** The CLI's exit code. */
  exitCode: number;
  /** `preview --json`: the PreviewDigest the CLI printed (only when `json` was asked for). */
  json?: any;
}

/** True once tools/pulumi/build.sh has built the CLI. */
export function available(): boolean {
  return fs.existsSync(CLI) && fs.existsSync(path.join(CLI_BIN, "pulumi-language-nodejs"));
}

export function up(o: CliOptions & { refresh?: boolean }): Promise<CliRunResult> {
  return run("up", o, o.refresh === true);
}

export function preview(o: CliOptions & { refresh?: boolean; json?: boolean }): Promise<CliRunResult> {
  return run("preview", o, o.refresh === true, o.json === true);
}

export function refresh(o: CliOptions): Promise<CliRunResult> {
  return run("refresh", o, false);
}

export function destroy(o: CliOptions): Promise<CliRunResult> {
  return run("destroy", o, false);
}

// ------------------------------------------------------------------------------ workspace

interface Workspace {
  dir: string;
  project: string;
  env: NodeJS.ProcessEnv;
  providerTrace: string;
  programTrace: string;
  /** Pids of the provider hosts the engine started (see the plugin wrapper). */
  providerPids: string;
}

const workspaces = new Map<string, Workspace>();

function workspaceDir(stateFile: string): string {
  return `${path.resolve(stateFile)}.cli`;
}

/** A program directory holding an index.ts and no package.json (a lifecycle fixture). */
function bareProgram(target: string): boolean {
  return (
    fs.statSync(target).isDirectory() &&
    !fs.existsSync(path.join(target, "package.json")) &&
    fs.existsSync(path.join(target, "index.ts"))
  );
}

/** The program's Pulumi.yaml with `main` pointing at the program from the project copy. */
function projectFile(program: string, projectDir: string, project?: string): { text: string; name: string } {
  const abs = path.resolve(program);
  const programDir = fs.statSync(abs).isDirectory() ? abs : path.dirname(abs);
  const yamlPath = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(programDir, f)).find(fs.existsSync);
  let text = yamlPath
    ? fs.readFileSync(yamlPath, "utf8")
    : `name: ${project ?? "harness"}\nruntime: nodejs\n`;
  const declaredMain = /^main:\s*(.+?)\s*$/m.exec(text)?.[1]?.replace(/^["']|["']$/g, "");
  let target = fs.statSync(abs).isDirectory() ? path.resolve(programDir, declaredMain ?? ".") : abs;
  // A program that is only its index.ts (a lifecycle fixture): `main` names the file, since for a
  // directory without package.json the CLI's Node run script would run the repository's `main`.
  if (bareProgram(target)) target = path.join(target, "index.ts");
  const main = `main: ${JSON.stringify(path.relative(projectDir, target) || ".")}`;
  text = /^main:/m.test(text)
    ? text.replace(/^main:.*$/m, main)
    : text.replace(/^(name:.*)$/m, `$1\n${main}`);
  if (project) text = text.replace(/^name:.*$/m, `name: ${project}`);
  const name = /^name:\s*(\S+)/m.exec(text)?.[1];
  if (!name) throw new Error(`${yamlPath ?? program}: no project name`);
  return { text, name };
}

function programDirOf(program: string): string {
  const abs = path.resolve(program);
  return fs.statSync(abs).isDirectory() ? abs : path.dirname(abs);
}

function workspace(o: CliOptions): Workspace {
  const dir = workspaceDir(o.stateFile);
  const cached = workspaces.get(dir);
  if (cached && fs.existsSync(dir)) return cached;
  const projectDir = path.join(dir, "project");
  const bin = path.join(dir, "bin");
  for (const d of [path.join(dir, "backend"), path.join(dir, "home"), projectDir, bin])
    fs.mkdirSync(d, { recursive: true });
  const { text, name } = projectFile(o.program, projectDir, o.project);
  fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), text);

  // The provider host's API calls go to their own trace file: a wrapper found on PATH before the
  // plugin next to the CLI (the engine looks on PATH first).
  const providerTrace = path.join(dir, "provider-trace.jsonl");
  const programTrace = path.join(dir, "program-trace.jsonl");
  // Each provider host the engine starts appends its pid (the plugin script keeps it and starts
  // node as its child), so a test can kill the host the way a crash or an OOM kill would.
  const providerPids = path.join(dir, "provider.pids");
  const plugin = fs.realpathSync(path.join(CLI_BIN, PROVIDER_PLUGIN));
  fs.writeFileSync(
    path.join(bin, PROVIDER_PLUGIN),
    `#!/bin/sh\necho $$ >> ${JSON.stringify(providerPids)}\n` +
      `INCIDENT_TRACE_FILE=${JSON.stringify(providerTrace)} exec ${JSON.stringify(plugin)} "$@"\n`,
    { mode: 0o755 },
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: [bin, CLI_BIN, process.env.PATH].join(path.delimiter),
    PULUMI_HOME: path.join(dir, "home"),
    PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: o.passphrase ?? DEFAULT_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    PULUMI_DEBUG_COMMANDS: "true", // enables --event-log
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    NO_COLOR: "1",
    // A program without its own tsconfig.json (a lifecycle fixture) is only transpiled, as the
    // harness does: type checking is `npm run typecheck`'s job.
    ...(fs.existsSync(path.join(programDirOf(o.program), "tsconfig.json"))
      ? {}
      : { PULUMI_NODEJS_TRANSPILE_ONLY: "true" }),
  };
  delete env.PULUMI_ACCESS_TOKEN;
  const ws: Workspace = { dir: projectDir, project: name, env, providerTrace, programTrace, providerPids };
  pulumiSync(ws, ["stack", "select", "--create", o.stack ?? "dev", "--non-interactive"]);
  workspaces.set(dir, ws);
  return ws;
}

/** Removes the stack's workspace (backend, state, config). */
export function dispose(stateFile: string): void {
  const dir = workspaceDir(stateFile);
  workspaces.delete(dir);
  fs.rmSync(dir, { recursive: true, force: true });
}

function pulumiSync(ws: Workspace, args: string[]): string {
  try {
    // A stack export of thousands of resources is megabytes (execFileSync's default buffer is 1 MiB).
    return execFileSync(CLI, args, {
      cwd: ws.dir,
      env: ws.env,
      encoding: "utf8",
      stdio: "pipe",
      maxBuffer: 1024 * 1024 * 1024,
    });
  } catch (e: any) {
    throw new Error(
      maskUrl(
        `pulumi ${shownArgs(args).join(" ")} failed (${e.status}): ${e.stderr || e.stdout || e.message}`,
      ),
    );
  }
}

/** The arguments as an error may show them: the value of each `--secret key=value` left out. */
function shownArgs(args: string[]): string[] {
  return args.map((a, i) => (args[i - 1] === "--secret" ? `${a.split("=")[0]}=[secret]` : a));
}

function pulumiAsync(
  ws: Workspace,
  args: string[],
  o: CliOptions,
): Promise<{ code: number; stdout: string; stderr: string }> {
  // The caller's env for this run; the program's lookups trace to their own file.
  const env = { ...ws.env, ...o.env, INCIDENT_TRACE_FILE: ws.programTrace };
  return new Promise((resolve) => {
    execFile(
      CLI,
      args,
      { cwd: ws.dir, env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, timeout: o.timeoutMs ?? 600_000 },
      (err: any, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The stack config of this run, exactly: the file is rewritten (its encryption salt kept), then set in one call. */
function setConfig(ws: Workspace, o: CliOptions): void {
  const file = path.join(ws.dir, `Pulumi.${o.stack ?? "dev"}.yaml`);
  const salt = fs.existsSync(file)
    ? /^encryptionsalt:.*$/m.exec(fs.readFileSync(file, "utf8"))?.[0]
    : undefined;
  fs.writeFileSync(file, salt ? `${salt}\n` : "");
  const secret = new Set(o.secretConfig ?? []);
  const args = ["config", "set-all"];
  for (const [k, v] of Object.entries(o.config ?? {}))
    args.push(secret.has(k) ? "--secret" : "--plaintext", `${k}=${v}`);
  if (args.length > 2) pulumiSync(ws, args);
}

// ------------------------------------------------------------------------------ a run

/** The calls traced since the last run (the file is emptied: one workspace serves many runs). */
function takeTrace(file: string, from: ApiCall["from"]): ApiCall[] {
  const calls = readTrace(file, from);
  fs.rmSync(file, { force: true });
  return calls;
}

async function run(
  operation: Operation,
  o: CliOptions,
  withRefresh: boolean,
  json = false,
): Promise<CliRunResult> {
  const started = Date.now();
  const ws = workspace(o);
  setConfig(ws, o);
  const eventLog = path.join(path.dirname(ws.dir), `events-${operation}.jsonl`);
  fs.rmSync(eventLog, { force: true });
  const args: string[] = [operation, "--non-interactive", "--event-log", eventLog, "--color", "never"];
  if (operation !== "preview") args.push("--yes");
  if (o.skipPreview && (operation === "up" || (o.skipEveryPreview && operation !== "preview")))
    args.push("--skip-preview");
  if (o.parallel) args.push("--parallel", String(o.parallel));
  if (withRefresh) args.push("--refresh");
  if (json) args.push("--json");
  if (o.continueOnError && (operation === "up" || operation === "destroy")) args.push("--continue-on-error");
  if (o.expectNoChanges) args.push("--expect-no-changes");
  if (o.runProgram) args.push("--run-program");
  for (const t of o.target ?? []) args.push("--target", t);
  fs.rmSync(ws.providerPids, { force: true });
  let finished = false;
  o.killHostWhen?.then(() => {
    if (!finished) killProviderHosts(ws.providerPids);
  });
  const cliStarted = Date.now();
  const { code, stdout, stderr } = await pulumiAsync(ws, args, o);
  const cliMs = Date.now() - cliStarted;
  finished = true;

  const events = fs.existsSync(eventLog)
    ? fs
        .readFileSync(eventLog, "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l))
    : [];
  const { steps, errors } = stepsFrom(events, operation, withRefresh);
  const result: CliRunResult = {
    operation,
    ok: code === 0 && errors.length === 0,
    exitCode: code,
    steps,
    outputs: {},
    secretOutputs: {},
    apiCalls: [...takeTrace(ws.providerTrace, "provider"), ...takeTrace(ws.programTrace, "program")],
    errors,
    warnings: events
      .filter((e) => e.diagnosticEvent?.severity === "warning")
      .map((e) => clean(e.diagnosticEvent.message)),
    durationMs: 0,
    counts: {},
    // The `pulumi` process alone (epoch ms of its start, its wall time): without the driver's
    // config set-up before it and the stack export after it.
    timings: { cliStartedAt: cliStarted, cliMs },
    log: [stdout, stderr].filter(Boolean).join("\n"),
  };
  if (json) result.json = JSON.parse(stdout);
  if (code !== 0 && !errors.length) {
    result.errors.push({
      kind: "engine",
      message: `pulumi ${operation} exited with ${code}: ${clean(stderr || stdout)}`,
    });
  }
  const stackEntry = exportedState(ws)?.resources?.find((r: any) => r.type === "pulumi:pulumi:Stack");
  const exported: WireMap = secretWire(stackEntry?.outputs ?? {});
  result.outputs = masked(exported);
  for (const [k, v] of Object.entries(exported)) if (containsSecrets(v)) result.secretOutputs[k] = plain(v);
  for (const s of result.steps) {
    const key = s.failed ? "failed" : s.replaced ? "delete-replaced" : s.op;
    result.counts[key] = (result.counts[key] ?? 0) + 1;
  }
  result.durationMs = Date.now() - started;
  return result;
}

/** SIGKILL to every provider host still running (the plugin script and the node process it started). */
function killProviderHosts(pidFile: string): void {
  if (!fs.existsSync(pidFile)) return;
  const roots = fs.readFileSync(pidFile, "utf8").split(/\s+/).filter(Boolean).map(Number);
  // Children by parent, from /proc (the script does not exec node, so node is a child, not the pid).
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const kill = (pid: number): void => {
    for (const child of children.get(pid) ?? []) kill(child);
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  for (const pid of roots) kill(pid);
}

/** Diagnostics carry the display's colour markup. */
function clean(text: string): string {
  return text.replace(/<\{%[^%]*%\}>/g, "").trim();
}

const userInputs = (state: any): WireMap => {
  const { [PROVIDER_KEY]: _p, ...rest } = (state?.inputs ?? {}) as WireMap;
  return rest;
};

function topLevelChanges(olds: WireMap, news: WireMap): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k])).sort();
}

/**
 * Steps as the harness reports them, from the engine's events: one per resource operation that
 * completed (ResourceOutputsEvent) or failed (ResourceOperationFailedEvent). A create-before-delete
 * replacement (create-replacement, replace, delete-replaced) becomes a `replace` step carrying the
 * new id plus a `delete` step marked `replaced`. Changed keys: the provider's (the Node host forwards
 * none), else the top-level input keys that differ, which is what the CLI displays.
 */
function stepsFrom(
  events: any[],
  operation: Operation,
  withRefresh: boolean,
): { steps: Step[]; errors: HarnessError[] } {
  const steps: Step[] = [];
  const errors: HarnessError[] = [];
  const t0 = events.length ? events[0].timestamp : 0;
  const replacementIds = new Map<string, string>();
  let deletesStarted = false;
  for (const e of events) {
    const ms = (e.timestamp - t0) * 1000;
    const done = e.resOutputsEvent ?? e.resOpFailedEvent;
    if (e.diagnosticEvent?.severity === "error") {
      const d = e.diagnosticEvent;
      const message = clean(d.message);
      const check = /^(\S+) resource '([^']+)': property (\S+) value .* has a problem: (.*)$/s.exec(message);
      const err: HarnessError = { kind: check ? "check" : d.urn ? "provider" : "engine", message };
      if (d.urn)
        Object.assign(err, { urn: d.urn, name: d.urn.split("::").pop(), type: d.urn.split("::")[2] });
      if (check) Object.assign(err, { op: "check", property: check[3], reason: check[4] });
      errors.push(err);
      continue;
    }
    if (!done) continue;
    const m = done.metadata;
    const type: string = m.type;
    if (type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:")) continue;
    const failed = Boolean(e.resOpFailedEvent);
    const base = { urn: m.urn, name: m.urn.split("::").pop(), type, startMs: ms, endMs: ms };
    const oldId: string | undefined = m.old?.id;
    const newId: string | undefined = m.new?.id;
    let op: StepOp;
    let phase: Step["phase"] = "update";
    const extra: Partial<Step> = {};
    switch (m.op) {
      case "same":
      case "create":
      case "update":
      case "read":
        op = m.op;
        break;
      case "replace":
        op = "replace";
        break;
      case "create-replacement":
        if (newId) replacementIds.set(m.urn, newId);
        continue;
      case "delete-replaced":
      case "delete":
        op = "delete";
        if (m.op === "delete-replaced") extra.replaced = true;
        phase = operation === "destroy" || deletesStarted || m.op === "delete" ? "delete" : "update";
        if (m.op === "delete") deletesStarted = true;
        break;
      case "refresh": {
        // A standalone refresh's event says what the refresh amounted to (the provider's Diff,
        // RefreshStep.ResultOp); inside up/preview --refresh it stays "refresh", without that
        // result. A dynamic provider's Diff there compares the refreshed state with the old
        // inputs: drift is a refreshed input that changed, and an output-only change (a
        // server-computed field) is not drift, which the engine counts as no change
        // (`--expect-no-changes` passes).
        phase = "refresh";
        if (!m.new) op = "refresh-delete";
        else {
          const inputKeys = topLevelChanges(userInputs(m.old), userInputs(m.new));
          const outputKeys = topLevelChanges(m.old?.outputs ?? {}, m.new?.outputs ?? {}).filter(
            (k) => k !== PROVIDER_KEY,
          );
          const drift = inputKeys.length > 0;
          op = drift ? "read-drift" : "same";
          if (drift) Object.assign(extra, { changedInputKeys: inputKeys, changedOutputKeys: outputKeys });
          if (drift) extra.changedKeys = [...new Set([...inputKeys, ...outputKeys])].sort();
          if (!drift && withRefresh) continue; // --refresh lists only drift
        }
        break;
      }
      default:
        continue;
    }
    if (operation === "refresh" && (m.op === "update" || m.op === "same" || m.op === "delete")) {
      // Standalone refresh: the ResultOp of the refresh step.
      phase = "refresh";
      op = m.op === "update" ? "read-drift" : m.op === "delete" ? "refresh-delete" : "same";
      if (op === "read-drift") {
        const inputKeys = topLevelChanges(userInputs(m.old), userInputs(m.new));
        const outputKeys = topLevelChanges(m.old?.outputs ?? {}, m.new?.outputs ?? {}).filter(
          (k) => k !== PROVIDER_KEY,
        );
        extra.changedKeys = [...new Set([...inputKeys, ...outputKeys])].sort();
        extra.changedInputKeys = inputKeys;
        extra.changedOutputKeys = outputKeys;
      }
      delete extra.replaced;
    }
    if (op === "update" || op === "replace") {
      extra.changedKeys = m.diffs?.length
        ? [...m.diffs].sort()
        : topLevelChanges(userInputs(m.old), userInputs(m.new));
    }
    if (op === "replace") {
      extra.replaceKeys = [...(m.keys ?? [])].sort();
      extra.deleteBeforeReplace = events.some(
        (x) =>
          x.resOutputsEvent?.metadata?.op === "delete-replaced" &&
          x.resOutputsEvent.metadata.urn === m.urn &&
          x.sequence < e.sequence,
      );
    }
    const id =
      op === "replace"
        ? (replacementIds.get(m.urn) ?? newId)
        : op === "delete" || op === "refresh-delete"
          ? oldId
          : (newId ?? oldId);
    const step: Step = { ...base, op, phase, ...extra, id };
    if (failed) {
      step.failed = true;
      step.error = errors.find((x) => x.urn === m.urn)?.message;
    }
    steps.push(step);
  }
  return { steps, errors };
}

// ------------------------------------------------------------------------------ state

/**
 * `pulumi stack export --show-secrets`: the deployment (undefined before the first run). With
 * `showSecrets: false`, the untyped deployment as the CLI writes it (`{version, deployment}`, secrets
 * encrypted by the stack's secrets provider): what `importState` takes back.
 */
export function exportedState(ws: Workspace | CliOptions, { showSecrets = true } = {}): any {
  const w = "providerTrace" in ws ? ws : workspace(ws);
  const text = pulumiSync(w, ["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])]);
  return showSecrets ? JSON.parse(text).deployment : JSON.parse(text);
}

/**
 * `pulumi stack import --file`: makes `deployment` (an untyped deployment, `{version, deployment}`,
 * as `exportedState(o, {showSecrets: false})` answers) the state of the stack of `o`, creating its
 * workspace if needed. Its secrets are decrypted with the passphrase of `o` and the salt the
 * deployment carries, and stored under the stack's own secrets provider.
 */
export function importState(o: CliOptions, deployment: unknown): void {
  const ws = workspace(o);
  const file = path.join(path.dirname(ws.dir), "import.json");
  fs.writeFileSync(file, JSON.stringify(deployment));
  try {
    pulumiSync(ws, ["stack", "import", "--file", file]);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** Secrets in an export (`{sig, plaintext}`) in the harness's wire form (`{sig, value}`). */
export function secretWire(v: Wire): Wire {
  if (Array.isArray(v)) return v.map(secretWire);
  if (v && typeof v === "object") {
    if (v[SIG] === SECRET_SIG) return { [SIG]: SECRET_SIG, value: secretWire(JSON.parse(v.plaintext)) };
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, secretWire(x)]));
  }
  return v;
}

/** One resource of an export: identity, wire inputs and outputs (secrets as `{sig, value}`), dependencies. */
export function exportedEntry(r: any) {
  return {
    urn: String(r.urn),
    type: String(r.type),
    name: String(r.urn).split("::").pop()!,
    custom: r.custom === true,
    id: (r.id as string) || undefined,
    parent: (r.parent as string) || undefined,
    inputs: secretWire(r.inputs ?? {}) as WireMap,
    outputs: secretWire(r.outputs ?? {}) as WireMap,
    dependencies: (r.dependencies ?? []) as string[],
    propertyDependencies: (r.propertyDependencies ?? {}) as Record<string, string[]>,
  };
}

const secretKeys = (m: WireMap) => Object.keys(m).filter((k) => containsSecrets(m[k]));

/** The state in the harness's decrypted view (readState), from `pulumi stack export`. */
export function readState(stateFile: string): HarnessState {
  const ws = workspaces.get(workspaceDir(stateFile));
  if (!ws) return { resources: [], bytes: 0 };
  const deployment = exportedState(ws);
  const bytes = Buffer.byteLength(JSON.stringify(deployment ?? {}));
  const resources = (deployment?.resources ?? []).map((r: any): StateResource => {
    const { inputs, outputs, ...entry } = exportedEntry(r);
    const view: StateResource = {
      ...entry,
      inputs: plain(inputs),
      outputs: plain(outputs),
      secretInputs: secretKeys(inputs),
      secretOutputs: secretKeys(outputs),
    };
    const providerText = plain(outputs)[PROVIDER_KEY] ?? plain(inputs)[PROVIDER_KEY];
    if (typeof providerText === "string") {
      view.provider = providerText;
      view.providerBytes =
        Buffer.byteLength(String(plain(inputs)[PROVIDER_KEY] ?? "")) + Buffer.byteLength(providerText);
    }
    for (const k of STATE_FLAGS) {
      if (r[k] !== undefined && r[k] !== false && !(Array.isArray(r[k]) && !r[k].length))
        (view as any)[k] = r[k];
    }
    return view;
  });
  return { project: deployment?.resources?.[0]?.urn?.split("::")[1], stack: undefined, resources, bytes };
}
