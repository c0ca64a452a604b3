/**
 * Engine-faithful harness (tests and scripts): runs a Pulumi program with the engine's semantics, without the CLI.
 * The program runs under the SDK runtime (mock monitor machinery) in a fresh child process; its
 * dynamic resources are driven through @pulumi/pulumi's real dynamic-provider host over gRPC.
 * See README.md for what is reproduced and what is not.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunnerOptions } from "./runner";
import { DEFAULT_PASSPHRASE } from "./state";
import type { HarnessOptions, Operation, RunResult } from "./types";

export { DEFAULT_PASSPHRASE, readState } from "./state";
export type * from "./types";
export { UNKNOWN } from "./wire";

/**
 * `pulumi up` (`refresh: true` = `pulumi up --refresh`): a preview first, as the CLI runs it (check,
 * diff and the program's lookups happen twice), then the update, unless `skipPreview`. A preview
 * that fails stops the run there.
 */
export async function up(o: HarnessOptions & { refresh?: boolean }): Promise<RunResult> {
  if (o.skipPreview) return run("up", o, o.refresh === true);
  const previewed = await run("preview", o, o.refresh === true);
  if (!previewed.ok) return { ...previewed, operation: "up" };
  return afterPreview(previewed, await run("up", o, o.refresh === true));
}

/** `pulumi preview` (`refresh: true` = `pulumi preview --refresh`): Check and Diff only, state untouched. */
export function preview(o: HarnessOptions & { refresh?: boolean }): Promise<RunResult> {
  return run("preview", o, o.refresh === true);
}

/**
 * `pulumi refresh`: Read (and Diff) every resource of the state; the program does not run. Like
 * `up`, the CLI previews the refresh first unless `skipPreview`.
 */
export async function refresh(o: HarnessOptions): Promise<RunResult> {
  if (o.skipPreview) return run("refresh", o, false);
  const previewed = await run("refresh", o, false, true);
  if (!previewed.ok) return previewed;
  return afterPreview(previewed, await run("refresh", o, false));
}

/** The run's result with the preview's API calls and time added (the CLI reports them as one run). */
function afterPreview(previewed: RunResult, result: RunResult): RunResult {
  return {
    ...result,
    apiCalls: [...previewed.apiCalls, ...result.apiCalls],
    durationMs: previewed.durationMs + result.durationMs,
    log: [previewed.log, result.log].filter(Boolean).join("\n"),
  };
}

/** `pulumi destroy`: delete everything in the state, dependents first (the program does not run). */
export function destroy(o: HarnessOptions): Promise<RunResult> {
  return run("destroy", o, false);
}

interface ResolvedProgram {
  dir: string;
  file?: string;
  project?: string;
}

function pulumiYaml(dir: string): { name?: string; main?: string } {
  const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!file) return {};
  const out: { name?: string; main?: string } = {};
  for (const line of fs.readFileSync(file, "utf8").split(/\r?\n/)) {
    const m = /^(name|main):\s*(.+?)\s*$/.exec(line);
    if (m) out[m[1] as "name" | "main"] = m[2]!.replace(/^["']|["']$/g, "");
  }
  return out;
}

function entryIn(dir: string): string | undefined {
  const pkg = path.join(dir, "package.json");
  if (fs.existsSync(pkg)) {
    const main = JSON.parse(fs.readFileSync(pkg, "utf8")).main;
    if (typeof main === "string" && fs.existsSync(path.join(dir, main))) return path.join(dir, main);
  }
  return ["index.ts", "index.js"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
}

/** A file, or a directory as the CLI reads it: Pulumi.yaml `main`, package.json `main`, index.ts/js. */
export function resolveProgram(program: string): ResolvedProgram {
  const abs = path.resolve(program);
  if (!fs.existsSync(abs)) throw new Error(`program not found: ${abs}`);
  if (!fs.statSync(abs).isDirectory()) {
    return { dir: path.dirname(abs), file: abs, project: pulumiYaml(path.dirname(abs)).name };
  }
  const yaml = pulumiYaml(abs);
  let file: string | undefined;
  if (yaml.main) {
    const main = path.resolve(abs, yaml.main);
    file = fs.existsSync(main) && fs.statSync(main).isDirectory() ? entryIn(main) : main;
  } else {
    file = entryIn(abs);
  }
  return { dir: abs, file, project: yaml.name };
}

/**
 * ts-node for a TypeScript program, as the CLI's language host registers it: the program directory's
 * tsconfig.json when there is one, otherwise no project and the CLI's default compiler options.
 * Always transpile-only (the CLI type-checks unless `noCheck`; type checking is `npm run typecheck`'s job).
 */
function tsNodeFor(program: ResolvedProgram): RunnerOptions["tsNode"] {
  const tsconfig = path.join(program.dir, "tsconfig.json");
  const hasTsconfig = fs.existsSync(tsconfig);
  if (program.file && /\.[cm]?js$/.test(program.file) && !hasTsconfig) return undefined;
  const options: Record<string, unknown> = hasTsconfig
    ? { transpileOnly: true, project: tsconfig }
    : {
        transpileOnly: true,
        skipProject: true,
        compilerOptions: { target: "ES2020", module: "commonjs", moduleResolution: "node", sourceMap: true },
      };
  return { path: require.resolve("ts-node", { paths: [program.dir, __dirname] }), options };
}

/**
 * The runner and its modules transpiled once to plain JS (cached in the temp directory by content
 * hash), so a run does not pay for ts-node before the host can start.
 */
let runnerCache: string | undefined;
function compiledRunner(): string {
  if (runnerCache && fs.existsSync(runnerCache)) return runnerCache;
  const sources = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && f !== "index.ts")
    .sort();
  const hash = createHash("sha256");
  for (const f of sources) hash.update(f).update(fs.readFileSync(path.join(__dirname, f)));
  const dir = path.join(os.tmpdir(), `pulumi-harness-runner-${hash.digest("hex").slice(0, 16)}`);
  const entry = path.join(dir, "runner.js");
  if (!fs.existsSync(entry)) {
    const ts = require("typescript");
    const tmp = fs.mkdtempSync(`${dir}-tmp-`);
    for (const f of sources) {
      const out = ts.transpileModule(fs.readFileSync(path.join(__dirname, f), "utf8"), {
        fileName: f,
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2020,
          inlineSourceMap: true,
          inlineSources: true,
        },
      });
      fs.writeFileSync(path.join(tmp, f.replace(/\.ts$/, ".js")), out.outputText);
    }
    try {
      fs.renameSync(tmp, dir);
    } catch {
      fs.rmSync(tmp, { recursive: true, force: true }); // another process won the race
    }
  }
  runnerCache = entry;
  return entry;
}

function failed(operation: Operation, message: string, log: string, started: number): RunResult {
  return {
    operation,
    ok: false,
    steps: [],
    outputs: {},
    secretOutputs: {},
    apiCalls: [],
    errors: [{ kind: "engine", message }],
    warnings: [],
    durationMs: Date.now() - started,
    counts: {},
    timings: {},
    log,
  };
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

async function run(
  operation: Operation,
  o: HarnessOptions,
  withRefresh: boolean,
  dryRun = false,
): Promise<RunResult> {
  const started = Date.now();
  const program = resolveProgram(o.program);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-harness-"));
  const options: RunnerOptions = {
    operation,
    refresh: withRefresh,
    programFile: program.file,
    programDir: program.dir,
    project: o.project ?? program.project ?? "harness",
    stack: o.stack ?? "dev",
    config: o.config ?? {},
    secretConfig: o.secretConfig ?? [],
    stateFile: path.resolve(o.stateFile),
    passphrase: o.passphrase ?? DEFAULT_PASSPHRASE,
    continueOnError: o.continueOnError === true,
    parallel: o.parallel ?? 4 * os.cpus().length,
    dryRun,
    env: o.env ?? {},
    work,
    tsNode: tsNodeFor(program),
  };
  const optionsFile = path.join(work, "options.json");
  fs.writeFileSync(optionsFile, JSON.stringify(options));

  const child = spawn(process.execPath, ["--enable-source-maps", compiledRunner(), optionsFile], {
    cwd: program.dir,
    env: { ...process.env, ...o.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr!.on("data", (c: Buffer) => {
    output += c.toString();
  });
  let exited = false;
  o.killHostWhen?.then(() => {
    const pidFile = path.join(work, "host.pid");
    if (!exited && fs.existsSync(pidFile)) killGroup(Number(fs.readFileSync(pidFile, "utf8")));
  });
  const timeoutMs = o.timeoutMs ?? 120_000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => {
    child.on("exit", (c) => resolve(c));
    child.on("error", () => resolve(-1));
  });
  clearTimeout(timer);
  exited = true;

  // The host runs in its own process group: make sure nothing outlives the run.
  const hostPidFile = path.join(work, "host.pid");
  if (fs.existsSync(hostPidFile)) killGroup(Number(fs.readFileSync(hostPidFile, "utf8")));

  const resultFile = path.join(work, "result.json");
  let result: RunResult;
  if (fs.existsSync(resultFile)) {
    result = JSON.parse(fs.readFileSync(resultFile, "utf8"));
    result.log = [output, result.log].filter(Boolean).join("\n");
    result.durationMs = Date.now() - started;
  } else {
    const why = timedOut ? `timed out after ${timeoutMs} ms` : `exited with code ${code} without a result`;
    result = failed(operation, `harness runner ${why}`, output, started);
  }
  fs.rmSync(work, { recursive: true, force: true });
  if (o.expectNoChanges && (operation === "up" || operation === "preview")) {
    const changed = result.steps.filter((s) => s.op !== "same");
    if (changed.length) {
      result.ok = false;
      result.errors.push({
        kind: "engine",
        message: `no changes were expected but changes were proposed: ${changed.map((s) => `${s.op} ${s.name}`).join(", ")}`,
      });
    }
  }
  if (process.env.HARNESS_DEBUG) {
    process.stderr.write(
      `[harness] ${operation} ${result.durationMs} ms ${JSON.stringify(result.timings)}\n`,
    );
  }
  return result;
}
