/**
 * `npm run bench -- --stacks K`: K stacks over one account, applied at the same time (issue 30 item
 * 3). One emulator, one API key, so one rate-limit bucket on the server (the service's limit is per
 * key: a pipeline applying several stacks with its one key), and K provider processes, each with
 * its own client-side bucket calibrated from the server's headers. Each stack is the bench program
 * (bench/program.ts) with `--objects` objects of its own (its own name prefix); create runs the K
 * `up`s at once, destroy the K `destroy`s at once, each phase starting with a full bucket.
 *
 * Per stack: wall time of its run, requests (its provider host's and program's trace files), 429s,
 * the most attempts one request took, failures; in total: the wall time from the first run's
 * start to the last one's end, all requests, 429s, the bound of all requests together
 * (max(0, (requests − 429s − burst) ÷ refill) + one round trip: what the one bucket allows; a 429
 * takes no token) and
 * total/bound against the target of 1.15, failures.
 */
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import type { ApiCall } from "../../tools/harness";
import type { CliOptions } from "../../tools/pulumi/cli";
import { rateBound, untilFull } from "./bucket";
import type { BenchEngine, Measured } from "./engine";

export const STACKS_TARGET_RATIO = 1.15;

export interface StacksSettings {
  stacks: number;
  objects: number;
  burst: number;
  refill: number;
  kinds: string;
}

/** A phase's figures for one stack. */
export interface StackFigures {
  stack: string;
  startedAt: number;
  endedAt: number;
  requests: number;
  throttled: number;
  maxAttempts: number;
  failures: number;
  firstError?: string;
  /** Epoch ms of its first and last request (the trace's `at`). */
  firstRequestAt?: number;
  lastRequestAt?: number;
}

export function figuresOf(stack: string, m: Measured): StackFigures {
  const calls: ApiCall[] = m.result.apiCalls;
  return {
    stack,
    startedAt: m.startedAt,
    endedAt: m.startedAt + m.wallMs,
    requests: calls.length,
    throttled: calls.filter((c) => c.status === 429).length,
    maxAttempts: Math.max(0, ...calls.map((c) => Number(c.attempt ?? 0) + 1)),
    failures: m.result.errors.length,
    firstError: m.result.errors[0]?.message,
    ...requestSpan(calls),
  };
}

/** When the first and the last of these requests started (the trace's `at`, epoch ms). */
function requestSpan(calls: ApiCall[]): { firstRequestAt?: number; lastRequestAt?: number } {
  const at = calls.map((c) => (typeof c.at === "number" ? c.at : undefined));
  return { firstRequestAt: least(at), lastRequestAt: most(at) };
}

/** Runs `run` for every stack at once: one call per stack, started together. */
async function together(
  stacks: CliOptions[],
  run: (o: CliOptions) => Promise<Measured>,
): Promise<StackFigures[]> {
  const measured = await Promise.all(stacks.map((o) => run(o)));
  return measured.map((m, i) => figuresOf(stacks[i]!.stack!, m));
}

export async function stacksBench(
  engine: BenchEngine,
  emulator: RunningEmulator,
  s: StacksSettings,
  rttMs: number,
  dir: string,
): Promise<void> {
  const stacks: CliOptions[] = Array.from({ length: s.stacks }, (_, i) => ({
    program: path.join(__dirname, "program.ts"),
    stateFile: path.join(dir, `stack-${i + 1}`, "state.json"),
    project: "incident-bench",
    stack: `stack-${i + 1}`,
    config: { "incident:baseUrl": emulator.url, "incident:apiKey": emulator.apiKey },
    secretConfig: ["incident:apiKey"],
    env: { BENCH_OBJECTS: String(s.objects), BENCH_KINDS: s.kinds, BENCH_PREFIX: `s${i + 1}` },
    timeoutMs: 60 * 60 * 1000,
    skipPreview: true,
    skipEveryPreview: true,
  }));
  console.log(
    `stacks=${s.stacks} × ${s.objects} objects (${s.kinds}), one API key (one bucket: burst=${s.burst} refill=${s.refill}/s), applied at the same time`,
  );
  console.log(
    `phase     stack      wall_s  requests  429s  max_attempts  failures | bound_s  wall/bound  ≤${STACKS_TARGET_RATIO.toFixed(2)} | start_s  first_req_s  last_req_s  span/bound`,
  );
  const phases: [string, (o: CliOptions) => Promise<Measured>][] = [
    ["create", (o) => engine.up(o)],
    ["destroy", (o) => engine.destroy(o)],
  ];
  // Made before the first timed run, so the K runs start close together (each still sets its
  // stack's config before it starts: `start_s` shows how far apart they started).
  for (const o of stacks) engine.prepare(o);
  for (const [name, run] of phases) {
    await untilFull(emulator, s.burst, s.refill);
    const figures = await together(stacks, run);
    const total = totalOf(figures);
    for (const f of figures) printRow(name, f.stack, f, undefined, total.startedAt);
    // A 429 took no token: the bound is of the requests the server counted.
    const bound = rateBound(total.requests - total.throttled, s.burst, s.refill, rttMs);
    printRow(name, "total", total, bound, total.startedAt);
    for (const f of figures) if (f.firstError) console.log(`  ${f.stack} first error: ${f.firstError}`);
  }
}

/** All stacks of a phase as one: from the first start to the last end; sums; the deepest retry. */
export function totalOf(figures: StackFigures[]): StackFigures {
  return {
    stack: "total",
    startedAt: Math.min(...figures.map((f) => f.startedAt)),
    endedAt: Math.max(...figures.map((f) => f.endedAt)),
    requests: figures.reduce((n, f) => n + f.requests, 0),
    throttled: figures.reduce((n, f) => n + f.throttled, 0),
    maxAttempts: Math.max(0, ...figures.map((f) => f.maxAttempts)),
    failures: figures.reduce((n, f) => n + f.failures, 0),
    firstRequestAt: least(figures.map((f) => f.firstRequestAt)),
    lastRequestAt: most(figures.map((f) => f.lastRequestAt)),
  };
}

/** The span of the requests against the bound: the bucket's own part, without start-up and the engine's tail. */
function spanRatio(f: StackFigures, bound: number | undefined): string {
  if (!bound || f.firstRequestAt === undefined || f.lastRequestAt === undefined) return "";
  return ((f.lastRequestAt - f.firstRequestAt) / 1000 / bound).toFixed(3);
}

/** The least and the greatest of the values given, if any. */
function least(values: (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length ? Math.min(...defined) : undefined;
}
function most(values: (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length ? Math.max(...defined) : undefined;
}

function printRow(
  phase: string,
  stack: string,
  f: StackFigures,
  bound: number | undefined,
  phaseStart: number,
): void {
  const at = (ms: number | undefined) => (ms === undefined ? "–" : ((ms - phaseStart) / 1000).toFixed(1));
  const wall = (f.endedAt - f.startedAt) / 1000;
  const ratio = bound === undefined || bound === 0 ? undefined : wall / bound;
  const met = ratio === undefined ? "–" : ratio <= STACKS_TARGET_RATIO ? "yes" : "NO";
  console.log(
    [
      phase.padEnd(8),
      stack.padEnd(9),
      wall.toFixed(1).padStart(6),
      String(f.requests).padStart(8),
      String(f.throttled).padStart(4),
      String(f.maxAttempts).padStart(12),
      String(f.failures).padStart(8),
      "|",
      (bound === undefined ? "" : bound.toFixed(1)).padStart(7),
      (ratio === undefined ? "" : ratio.toFixed(3)).padStart(10),
      (bound === undefined ? "" : met).padStart(5),
      "|",
      at(f.startedAt).padStart(7),
      at(f.firstRequestAt).padStart(11),
      at(f.lastRequestAt).padStart(10),
      spanRatio(f, bound).padStart(10),
    ].join("  "),
  );
}
