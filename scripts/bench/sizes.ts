/**
 * `npm run bench -- --sizes 250,500,1000,2000`: how a stack's cost grows with its size (issue 30
 * item 4). For each size N, one stack of N bench objects (bench/program.ts) runs create, a
 * no-change preview (`pulumi preview`, as a pull request's pipeline runs it), refresh and destroy twice through the engine: as users run it (the engine writes a checkpoint
 * after every step) and with `PULUMI_SKIP_CHECKPOINTS=true` (the state written once, at the end).
 * The difference is the engine's checkpoint time; the rest of the skipped run is the provider
 * (its requests, paced by the bucket: the bound, and the span of its requests) and the engine's
 * other work (the program, check and diff of every resource, start-up). Each run has an emulator
 * of its own and every phase starts with a full bucket (the emulator's request log tells when).
 */
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../../emulator";
import type { ApiCall } from "../../tools/harness";
import type { CliOptions } from "../../tools/pulumi/cli";
import { rateBound, untilFull } from "./bucket";
import type { BenchEngine, Measured } from "./engine";

export interface SizesSettings {
  sizes: number[];
  burst: number;
  refill: number;
  kinds: string;
}

const PHASES = ["create", "preview", "refresh", "destroy"] as const;
type Phase = (typeof PHASES)[number];
const MODES = ["checkpoints", "skipped"] as const;
type Mode = (typeof MODES)[number];

interface Row {
  wall: number;
  requests: number;
  throttled: number;
  bound: number;
  failures: number;
  stateWrites?: number;
  firstRequest?: number;
  requestSpan?: number;
  /** Seconds during which at least one of the provider's requests was in flight (its trace). */
  apiBusy: number;
}

export async function sizesBench(engine: BenchEngine, s: SizesSettings, dir: string): Promise<void> {
  console.log(
    `sizes=${s.sizes.join(",")} (${s.kinds}) burst=${s.burst} refill=${s.refill}/s; each size twice: checkpoints as users run it, and PULUMI_SKIP_CHECKPOINTS=true`,
  );
  console.log(
    "size   mode         phase      wall_s  ms/object  requests  429s  bound_s  failures  state_writes | first_req_s  req_span_s  api_busy_s",
  );
  const summary: string[] = [];
  for (const size of s.sizes) {
    const rows = new Map<string, Row>();
    for (const mode of MODES) {
      const emulator = await startEmulator({ port: 0, burst: s.burst, refillPerSecond: s.refill });
      try {
        const options: CliOptions = {
          program: path.join(__dirname, "program.ts"),
          stateFile: path.join(dir, `size-${size}-${mode}`, "state.json"),
          project: "incident-bench",
          config: { "incident:baseUrl": emulator.url, "incident:apiKey": emulator.apiKey },
          secretConfig: ["incident:apiKey"],
          env: {
            BENCH_OBJECTS: String(size),
            BENCH_KINDS: s.kinds,
            ...(mode === "skipped" ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
          },
          timeoutMs: 60 * 60 * 1000,
          skipPreview: true,
          skipEveryPreview: true,
        };
        for (const phase of PHASES) {
          await untilFull(emulator, s.burst, s.refill);
          const logged = emulator.requests.length;
          const measured = await runPhase(engine, phase, options);
          const row = rowOf(measured, emulator, logged, s);
          rows.set(`${mode} ${phase}`, row);
          printRow(size, mode, phase, row);
          if (measured.result.errors.length)
            console.log(`  first error: ${measured.result.errors[0]!.message}`);
          if (phase === "create") {
            const state = engine.stateSize(options);
            if (state.checkpointBytes !== undefined)
              console.log(
                `  checkpoint file ${(state.checkpointBytes / 1e6).toFixed(2)} MB (${(state.checkpointBytes / Math.max(1, state.resources)).toFixed(0)} bytes/resource)`,
              );
          }
        }
      } finally {
        await emulator.close();
      }
    }
    for (const phase of PHASES) {
      const on = rows.get(`checkpoints ${phase}`)!;
      const off = rows.get(`skipped ${phase}`)!;
      const checkpoints = on.wall - off.wall;
      summary.push(
        [
          String(size).padStart(5),
          phase.padEnd(10),
          on.wall.toFixed(1).padStart(6),
          off.wall.toFixed(1).padStart(6),
          checkpoints.toFixed(1).padStart(13),
          `${on.wall > 0 ? Math.round((100 * checkpoints) / on.wall) : 0}%`.padStart(6),
          ((1000 * on.wall) / size).toFixed(0).padStart(11),
          ((1000 * off.wall) / size).toFixed(0).padStart(11),
          off.bound.toFixed(1).padStart(7),
          off.apiBusy.toFixed(1).padStart(10),
          Math.max(0, off.wall - Math.max(off.bound, off.apiBusy))
            .toFixed(1)
            .padStart(9),
          String(on.stateWrites ?? "–").padStart(12),
        ].join("  "),
      );
    }
  }
  console.log(
    "\nwhere the time goes: checkpoints_s = wall − wall with PULUMI_SKIP_CHECKPOINTS=true (the engine's checkpoint writes); of the skipped run, the provider's part is the larger of the rate limit's bound and api_busy_s (a request of its in flight), engine_s the rest (start-up, the program, check and diff of every resource)",
  );
  console.log(
    " size  phase       wall_s  skip_s  checkpoints_s  share  ms/object  ms/obj_skip  bound_s  api_busy_s  engine_s  state_writes",
  );
  for (const line of summary) console.log(line);
}

function runPhase(engine: BenchEngine, phase: Phase, options: CliOptions): Promise<Measured> {
  if (phase === "refresh") return engine.refresh(options);
  if (phase === "destroy") return engine.destroy(options);
  if (phase === "preview") return engine.preview(options);
  return engine.up(options);
}

function rowOf(m: Measured, emulator: RunningEmulator, logged: number, s: SizesSettings): Row {
  const calls = m.result.apiCalls;
  const times = emulator.requests.slice(logged).map((r) => Date.parse(r.time));
  const first = times.length ? Math.min(...times) : undefined;
  const last = times.length ? Math.max(...times) : undefined;
  return {
    wall: m.wallMs / 1000,
    requests: calls.length,
    throttled: calls.filter((c) => c.status === 429).length,
    bound: rateBound(calls.length, s.burst, s.refill, 0),
    failures: m.result.errors.length,
    stateWrites: m.stateWrites,
    firstRequest: first === undefined ? undefined : (first - m.startedAt) / 1000,
    requestSpan: first === undefined ? undefined : (last! - first) / 1000,
    apiBusy: busySeconds(calls),
  };
}

/** The union of the requests' intervals (trace `at` … `at + ms`), in seconds. */
export function busySeconds(calls: ApiCall[]): number {
  const spans = calls
    .filter((c) => typeof c.at === "number")
    .map((c) => [c.at as number, (c.at as number) + c.ms] as const)
    .sort((a, b) => a[0] - b[0]);
  let busy = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [from, to] of spans) {
    if (to <= end) continue;
    busy += to - Math.max(from, end);
    end = to;
  }
  return busy / 1000;
}

function printRow(size: number, mode: Mode, phase: Phase, r: Row): void {
  const s = (v: number | undefined) => (v === undefined ? "–" : v.toFixed(1));
  console.log(
    [
      String(size).padEnd(5),
      mode.padEnd(11),
      phase.padEnd(9),
      r.wall.toFixed(1).padStart(6),
      ((1000 * r.wall) / size).toFixed(0).padStart(9),
      String(r.requests).padStart(8),
      String(r.throttled).padStart(4),
      r.bound.toFixed(1).padStart(7),
      String(r.failures).padStart(8),
      String(r.stateWrites ?? "–").padStart(12),
      "|",
      s(r.firstRequest).padStart(11),
      s(r.requestSpan).padStart(10),
      r.apiBusy.toFixed(1).padStart(10),
    ].join("  "),
  );
}
