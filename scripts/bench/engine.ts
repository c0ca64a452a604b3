/**
 * The engine `npm run bench` measures: the real Pulumi CLI (tools/pulumi/cli.ts, at its default
 * `--parallel`, `--skip-preview` on up, refresh and destroy) or the harness (tools/harness, the
 * CLI's default parallelism, `--skip-preview` on up and refresh; it never previews a destroy).
 * Both answer the harness's RunResult; this adds what the bench prints beyond it: the wall time of
 * the run alone, the state writes, and the state's size.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as harness from "../../tools/harness";
import * as cli from "../../tools/pulumi/cli";

export type EngineName = "harness" | "cli";
export const ENGINES: readonly EngineName[] = ["cli", "harness"];

/** The CLI where it is built (`npm run pulumi:build`), else the harness. */
export function defaultEngine(): EngineName {
  return cli.available() ? "cli" : "harness";
}

export interface Measured {
  result: harness.RunResult;
  /** Epoch ms when the engine's run started (the `pulumi` process, or the harness's runner). */
  startedAt: number;
  /** Wall time of the run alone, ms. */
  wallMs: number;
  /** Snapshots written (the harness's count; for the CLI, renames onto the checkpoint file). */
  stateWrites?: number;
  /** Epoch ms when the engine launched the first provider host of the run (the CLI only). */
  hostStartedAt?: number;
}

export interface StateSize {
  resources: number;
  /** What a user sees: `pulumi stack export` (the harness: its state file). */
  bytes: number;
  /** The CLI's checkpoint file, what each snapshot write writes (compact JSON). */
  checkpointBytes?: number;
  /** `__provider` text in one resource's inputs + outputs. */
  providerBytes: number;
}

export interface BenchEngine {
  name: EngineName;
  /** How it runs, for the table's header. */
  description: string;
  up(o: cli.CliOptions): Promise<Measured>;
  /** `pulumi preview` (what a pull request's pipeline runs). */
  preview(o: cli.CliOptions): Promise<Measured>;
  refresh(o: cli.CliOptions): Promise<Measured>;
  destroy(o: cli.CliOptions): Promise<Measured>;
  stateSize(o: cli.CliOptions): StateSize;
  /** Makes the stack's workspace before a timed run (the CLI: its backend, home and stack). */
  prepare(o: cli.CliOptions): void;
}

export function benchEngine(name: EngineName): BenchEngine {
  if (name === "cli") {
    if (!cli.available())
      throw new Error("--engine cli: no Pulumi CLI in .tools/pulumi/bin (npm run pulumi:build)");
    return cliEngine;
  }
  return harnessEngine;
}

const harnessEngine: BenchEngine = {
  name: "harness",
  description: "the harness (real provider host, engine semantics; --parallel 4 × CPUs, --skip-preview)",
  up: (o) => timed(() => harness.up(o)),
  preview: (o) => timed(() => harness.preview(o)),
  refresh: (o) => timed(() => harness.refresh(o)),
  destroy: (o) => timed(() => harness.destroy(o)),
  prepare: () => undefined,
  stateSize(o) {
    const state = harness.readState(o.stateFile, o.passphrase);
    return {
      resources: state.resources.length,
      bytes: fs.statSync(o.stateFile).size,
      providerBytes: state.resources.find((r) => r.providerBytes)?.providerBytes ?? 0,
    };
  },
};

async function timed(run: () => Promise<harness.RunResult>): Promise<Measured> {
  const startedAt = Date.now();
  const result = await run();
  return { result, startedAt, wallMs: Date.now() - startedAt, stateWrites: result.timings.stateWrites ?? 0 };
}

const cliEngine: BenchEngine = {
  name: "cli",
  description: `the real Pulumi CLI (${path.relative(process.cwd(), cli.CLI_BIN)}; default --parallel, --skip-preview)`,
  up: (o) => cliRun(o, () => cli.up(o)),
  preview: (o) => cliRun(o, () => cli.preview(o)),
  refresh: (o) => cliRun(o, () => cli.refresh(o)),
  destroy: (o) => cliRun(o, () => cli.destroy(o)),
  prepare: (o) => void cli.exportedState(o),
  stateSize(o) {
    const exported = cli.exportedState(o, { showSecrets: false });
    const resources = (exported?.deployment?.resources ?? []).length;
    // `pulumi stack export` prints the deployment indented by four spaces, one newline at the end.
    const bytes = Buffer.byteLength(`${JSON.stringify(exported, null, 4)}\n`);
    const checkpoint = checkpointFile(o);
    const state = cli.readState(o.stateFile);
    return {
      resources,
      bytes,
      checkpointBytes: fs.existsSync(checkpoint) ? fs.statSync(checkpoint).size : undefined,
      providerBytes: state.resources.find((r) => r.providerBytes)?.providerBytes ?? 0,
    };
  },
};

/** The file backend's checkpoint of the stack (tools/pulumi/cli.ts keeps the workspace next to the state file). */
function checkpointFile(o: cli.CliOptions): string {
  const stacks = path.join(`${path.resolve(o.stateFile)}.cli`, "backend", ".pulumi", "stacks");
  return path.join(stacks, o.project ?? "", `${o.stack ?? "dev"}.json`);
}

async function cliRun(o: cli.CliOptions, run: () => Promise<cli.CliRunResult>): Promise<Measured> {
  // The diy backend writes each snapshot to a temporary file it renames onto <stack>.json.
  const checkpoint = checkpointFile(o);
  fs.mkdirSync(path.dirname(checkpoint), { recursive: true });
  // Every provider host the engine launches appends its pid to this file, which the driver removes
  // before each run: its birth time is when the first host was launched.
  const pids = path.join(`${path.resolve(o.stateFile)}.cli`, "provider.pids");
  let writes = 0;
  const watcher = fs.watch(path.dirname(checkpoint), (event, file) => {
    if (event === "rename" && file === path.basename(checkpoint)) writes++;
  });
  try {
    const started = Date.now();
    const result = await run();
    await new Promise((r) => setTimeout(r, 200)); // the last rename events
    return {
      result,
      startedAt: result.timings.cliStartedAt ?? started,
      wallMs: result.timings.cliMs ?? Date.now() - started,
      stateWrites: writes,
      hostStartedAt: fs.existsSync(pids) ? Math.round(fs.statSync(pids).birthtimeMs) || undefined : undefined,
    };
  } finally {
    watcher.close();
  }
}
