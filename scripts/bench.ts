/**
 * `npm run bench` — a benchmark, not a test: prints figures. Against the emulator with the real
 * bucket (1200 burst, 20/s by default): create N objects across kinds, a run with no changes, a
 * refresh, a destroy, through the real Pulumi CLI (`--engine cli`, the default where
 * `npm run pulumi:build` has built it: its default `--parallel`, as users run it) or the harness
 * (`--engine harness`: real provider host, engine semantics, the CLI's default `--parallel` of
 * 4 × CPUs); `--skip-preview`, as pipelines run them (a preview makes no writes; a refresh's would
 * read everything twice). Per phase: wall time of the run, API calls (the provider host's and the
 * program's trace files), 429s, the bound max(0, (requests − burst) / refill) s + one round trip,
 * wall/bound against the target of 1.10, failures; then where the wall time went: until the first
 * API request, the span of the requests, after the last one (the emulator's request log); when the
 * engine launched the first provider host (the CLI only), when the program's process started and
 * had loaded its imports, how long its declarations took (bench/program.ts); the state writes
 * (the CLI: whole snapshots renamed onto the stack's checkpoint file). After create, the state per resource (`pulumi stack export` bytes ÷ resources, target
 * ≤ 2 KB; the `__provider` bytes). Before each phase the bucket is left to refill, as the bound
 * assumes.
 *   npm run bench -- [--engine cli|harness] [--objects 2000] [--burst 1200] [--refill 20]
 *                    [--latency MS] [--kinds mixed|custom-fields|paged|catalog-attributes] [--catalog-entries 10000] [--sync]
 * The environment variables BENCH_ENGINE, BENCH_OBJECTS, BENCH_BURST, BENCH_REFILL, BENCH_LATENCY_MS,
 * BENCH_KINDS, BENCH_CATALOG_ENTRIES and BENCH_SYNC=1 set the same (an argument wins).
 * `--latency` adds that many ms to every API request (the emulator's `latency` fault, after its
 * rate limiter: a round trip to the service over the internet), e.g. 300 custom fields with 75 ms:
 *   npm run bench -- --engine cli --objects 300 --kinds custom-fields --latency 75 --burst 100
 * The refresh is also checked against issue 12's target for reads by page: per kind at most
 * ⌈objects ÷ page size⌉ + 1 requests (an unpaginated list is one page). Then the catalog part
 * (bench/catalog.ts: 10,000 entries of one CatalogEntries resource; `--catalog-entries 0` skips it).
 * The program (bench/program.ts) yields to the event loop between declarations; `--sync` declares
 * everything in one synchronous loop instead (see there why that costs ≈6 ms per resource before
 * the first request).
 * `--stacks K` (K ≥ 2) runs K stacks of `--objects` objects each over one account and one API key
 * at the same time instead (bench/stacks.ts: per stack and in total, against the bound of all their
 * requests); `--sizes 250,500,1000,2000` runs one stack of each size with and without
 * PULUMI_SKIP_CHECKPOINTS instead (bench/sizes.ts: where the time goes as a stack grows).
 * BENCH_STACKS and BENCH_SIZES set the same.
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { type RequestLogEntry, startEmulator } from "../emulator";
import { ApiClient } from "../provider/client";
import { walkList } from "../provider/pagedReads";
import { providers } from "../resources";
import type { RunResult } from "../tools/harness";
import type { CliOptions } from "../tools/pulumi/cli";
import { catalogBench } from "./bench/catalog";
import {
  type BenchEngine,
  benchEngine,
  defaultEngine,
  ENGINES,
  type EngineName,
  type Measured,
} from "./bench/engine";
import { sizesBench } from "./bench/sizes";
import { stacksBench } from "./bench/stacks";

const TARGET_RATIO = 1.1;
const TARGET_STATE_BYTES = 2048;
const KINDS = ["mixed", "custom-fields", "paged", "catalog-attributes"];
/** The kinds of each mix whose refresh reads by page (printPagedReads). */
const PAGED_KINDS: Record<string, string[]> = {
  mixed: ["CustomField", "ApiKey"],
  "custom-fields": ["CustomField"],
  paged: [
    "Severity",
    "IncidentStatus",
    "IncidentRole",
    "Secret",
    "MaintenanceWindow",
    "ScheduleSyncTarget",
    "ScheduleSyncRule",
  ],
  "catalog-attributes": [],
};

const USAGE = `npm run bench -- [--engine cli|harness] [--objects N] [--burst N] [--refill N/s] [--latency MS]
                 [--kinds mixed|custom-fields|paged|catalog-attributes] [--catalog-entries N] [--sync]
                 [--stacks K] [--sizes N,N,...]`;

interface Settings {
  engine: EngineName;
  objects: number;
  burst: number;
  refill: number;
  latencyMs: number;
  kinds: string;
  catalogEntries: number;
  sync: boolean;
  /** `--stacks K` (K ≥ 2): K stacks of `objects` each over one account at once (bench/stacks.ts). */
  stacks: number;
  /** `--sizes 250,500`: the cost of size, with and without checkpoints (bench/sizes.ts). */
  sizes: number[];
}

function settings(): Settings {
  try {
    return parseSettings();
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

function parseSettings(): Settings {
  const { values } = parseArgs({
    options: {
      engine: { type: "string" },
      objects: { type: "string" },
      burst: { type: "string" },
      refill: { type: "string" },
      latency: { type: "string" },
      kinds: { type: "string" },
      "catalog-entries": { type: "string" },
      sync: { type: "boolean" },
      stacks: { type: "string" },
      sizes: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const env = process.env;
  const count = (name: string, value: string | undefined, fallback: string, min = 0): number => {
    const n = Number(value ?? fallback);
    if (!Number.isInteger(n) || n < min)
      throw new Error(`${name}: expected an integer ≥ ${min}, got ${value}`);
    return n;
  };
  const engine = values.engine ?? env.BENCH_ENGINE ?? defaultEngine();
  if (!ENGINES.includes(engine as EngineName))
    throw new Error(`--engine: ${engine}: expected cli or harness`);
  const kinds = values.kinds ?? env.BENCH_KINDS ?? "mixed";
  if (!KINDS.includes(kinds)) throw new Error(`--kinds: ${kinds}: expected ${KINDS.join(" or ")}`);
  return {
    engine: engine as EngineName,
    objects: count("--objects", values.objects ?? env.BENCH_OBJECTS, "2000", 1),
    burst: count("--burst", values.burst ?? env.BENCH_BURST, "1200", 1),
    refill: count("--refill", values.refill ?? env.BENCH_REFILL, "20", 1),
    latencyMs: count("--latency", values.latency ?? env.BENCH_LATENCY_MS, "0"),
    kinds,
    catalogEntries: count(
      "--catalog-entries",
      values["catalog-entries"] ?? env.BENCH_CATALOG_ENTRIES,
      "10000",
    ),
    sync: values.sync ?? env.BENCH_SYNC === "1",
    stacks: count("--stacks", values.stacks ?? env.BENCH_STACKS, "1", 1),
    sizes: (values.sizes ?? env.BENCH_SIZES ?? "")
      .split(",")
      .filter((n) => n.trim() !== "")
      .map((n) => count("--sizes", n.trim(), "", 1)),
  };
}

const seconds = (ms: number | undefined) => (ms === undefined ? "–" : (ms / 1000).toFixed(1));

async function main(): Promise<void> {
  const s = settings();
  const engine = benchEngine(s.engine);
  if (s.sizes.length > 0) {
    const dir = mkdtempSync(path.join(tmpdir(), "incident-bench-sizes-"));
    console.log(`engine: ${engine.description}; state in ${dir}`);
    await sizesBench(engine, { sizes: s.sizes, burst: s.burst, refill: s.refill, kinds: s.kinds }, dir);
    return;
  }
  const emulator = await startEmulator({ port: 0, burst: s.burst, refillPerSecond: s.refill });
  // After the rate limiter, before the handler: every request (the probes below included) takes
  // latencyMs longer, as a round trip to the service would.
  if (s.latencyMs > 0)
    emulator.faults.add({ path: "^/v", kind: "latency", latencyMs: s.latencyMs, count: 1_000_000 });
  const dir = mkdtempSync(path.join(tmpdir(), "incident-bench-"));
  const timingsFile = path.join(dir, "program-timings.jsonl");
  const options: CliOptions = {
    program: path.join(__dirname, "bench", "program.ts"),
    stateFile: path.join(dir, "state.json"),
    project: "incident-bench",
    config: { "incident:baseUrl": emulator.url, "incident:apiKey": emulator.apiKey },
    secretConfig: ["incident:apiKey"],
    env: {
      BENCH_OBJECTS: String(s.objects),
      BENCH_KINDS: s.kinds,
      BENCH_SYNC: s.sync ? "1" : "0",
      BENCH_TIMINGS_FILE: timingsFile,
    },
    timeoutMs: 60 * 60 * 1000,
    skipPreview: true,
    skipEveryPreview: true,
  };
  const rtt = await roundTrip(emulator.url, emulator.apiKey);
  let spent = 5; // the round-trip probes
  console.log(`engine: ${engine.description}; state in ${dir}`);
  if (s.stacks > 1) {
    console.log(`round trip=${rtt.toFixed(1)} ms`);
    await stacksBench(engine, emulator, s, rtt, dir);
    await emulator.close();
    return;
  }
  console.log(
    `objects=${s.objects} (${s.kinds}) burst=${s.burst} refill=${s.refill}/s added latency=${s.latencyMs} ms round trip=${rtt.toFixed(1)} ms program: ${s.sync ? "one synchronous loop" : "yielding between declarations"}`,
  );
  console.log(
    `phase      wall_s  requests  429s  bound_s  wall/bound  ≤${TARGET_RATIO.toFixed(2)}  failures | first_req_s  req_span_s  after_s | host_start_s  program_start_s  program_loaded_s  declare_s  state_writes`,
  );
  const phases: [string, (e: BenchEngine) => Promise<Measured>][] = [
    ["create", (e) => e.up(options)],
    ["no-change", (e) => e.up(options)],
    ["refresh", (e) => e.refresh(options)],
    ["destroy", (e) => e.destroy(options)],
  ];
  for (const [name, run] of phases) {
    // Start each phase with a full bucket: wait until what the last phase spent has refilled.
    await new Promise((r) => setTimeout(r, Math.ceil((Math.min(s.burst, spent) / s.refill) * 1000) + 1000));
    rmSync(timingsFile, { force: true });
    const logged = emulator.requests.length;
    const measured = await run(engine);
    const { result, startedAt, wallMs } = measured;
    const wall = wallMs / 1000;
    const requests = result.apiCalls.length;
    spent = requests;
    const throttled = result.apiCalls.filter((c) => c.status === 429).length;
    const bound = requests === 0 ? 0 : Math.max(0, (requests - s.burst) / s.refill) + rtt / 1000;
    const ratio = bound > 0 ? wall / bound : undefined;
    const met = ratio === undefined ? "–" : ratio <= TARGET_RATIO ? "yes" : "NO";
    // The emulator's own log (answer times) shows where the wall time went.
    const times = emulator.requests.slice(logged).map((r) => Date.parse(r.time));
    const first = times.length ? Math.min(...times) - startedAt : undefined;
    const last = times.length ? Math.max(...times) - startedAt : undefined;
    const program = programTimings(timingsFile);
    keepLogs(dir, name, emulator.requests.slice(logged), options);
    console.log(
      [
        name.padEnd(10),
        wall.toFixed(1).padStart(6),
        String(requests).padStart(8),
        String(throttled).padStart(4),
        bound.toFixed(1).padStart(7),
        (ratio === undefined ? "n/a" : ratio.toFixed(3)).padStart(10),
        met.padStart(5),
        String(result.errors.length).padStart(8),
        "|",
        seconds(first).padStart(11),
        seconds(last === undefined ? undefined : last - first!).padStart(10),
        seconds(last === undefined ? undefined : wallMs - last).padStart(7),
        "|",
        seconds(measured.hostStartedAt && measured.hostStartedAt - startedAt).padStart(12),
        seconds(program && program.processStart - startedAt).padStart(15),
        seconds(program && program.loaded - startedAt).padStart(16),
        seconds(program && program.declared - program.loaded).padStart(9),
        String(measured.stateWrites ?? "–").padStart(12),
      ].join("  "),
    );
    if (result.errors.length) console.log(`  first error: ${result.errors[0]!.message}`);
    if (s.kinds === "paged" || s.kinds === "catalog-attributes") printRequestsByCollection(result);
    if (name === "refresh")
      await printPagedReads(
        result,
        new ApiClient({ apiKey: emulator.apiKey, baseUrl: emulator.url }),
        PAGED_KINDS[s.kinds]!,
      );
    if (name === "create") printStateSize(engine, options);
  }
  await catalogBench(engine, emulator, s.catalogEntries, s.burst, s.refill, rtt);
  await emulator.close();
}

/**
 * Kept in the bench's directory for a closer look: the phase's API requests as the emulator answered
 * them (requests-<phase>.jsonl) and, for the CLI, the engine's event log (events-<phase>.jsonl).
 */
function keepLogs(dir: string, phase: string, requests: RequestLogEntry[], options: CliOptions): void {
  const lines = requests.map((r) =>
    JSON.stringify({ time: r.time, method: r.method, path: r.path, status: r.status }),
  );
  writeFileSync(path.join(dir, `requests-${phase}.jsonl`), lines.map((l) => `${l}\n`).join(""));
  const workspace = `${options.stateFile}.cli`;
  if (!existsSync(workspace)) return;
  for (const file of readdirSync(workspace).filter((f) => /^events-.*\.jsonl$/.test(f)))
    renameSync(path.join(workspace, file), path.join(dir, `events-${phase}.jsonl`));
}

/** The program's own line (bench/program.ts), when it ran. */
function programTimings(
  file: string,
): { processStart: number; loaded: number; declared: number } | undefined {
  try {
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    return JSON.parse(lines[lines.length - 1]!);
  } catch {
    return undefined;
  }
}

function printStateSize(engine: BenchEngine, options: CliOptions): void {
  const size = engine.stateSize(options);
  const n = Math.max(1, size.resources);
  const perResource = size.bytes / n;
  const what = engine.name === "cli" ? "`pulumi stack export`" : "state file";
  const checkpoint =
    size.checkpointBytes === undefined
      ? ""
      : `; checkpoint file (what each snapshot write writes) ${size.checkpointBytes} bytes = ${(size.checkpointBytes / n).toFixed(0)} bytes/resource`;
  console.log(
    `  state: ${size.resources} resources (the stack and its default provider included); ${what} ${size.bytes} bytes = ${perResource.toFixed(0)} bytes/resource (target ≤ ${TARGET_STATE_BYTES}: ${perResource <= TARGET_STATE_BYTES ? "met" : "NOT met"})${checkpoint}; __provider ${size.providerBytes} bytes/resource (inputs + outputs)`,
  );
}

/**
 * Refresh requests per kind against ⌈objects ÷ page size⌉ + 1, where objects are all the account's
 * objects of the kind (what a walk lists: the bench's, plus e.g. the emulator's own bootstrap key).
 */
async function printPagedReads(result: RunResult, client: ApiClient, kinds: string[]): Promise<void> {
  for (const kind of kinds) {
    const list = providers[kind]!.spec.list!;
    if (list.path.includes("{schedule_id}")) {
      await printScopedReads(result, client, kind);
      continue;
    }
    const count = (await walkList(client, list)).length;
    const pages = list.pageSize === undefined ? 1 : Math.ceil(count / list.pageSize);
    const requests = result.apiCalls.filter((c) => c.path.startsWith(list.path)).length;
    console.log(
      `  refresh ${kind}: ${count} in the account, ${requests} requests (target ≤ ${pages + 1} = ⌈${count} ÷ ${list.pageSize ?? "all"}⌉ + 1): ${requests <= pages + 1 ? "met" : "NOT met"}`,
    );
  }
}

/**
 * The same for a kind listed per schedule (sync rules): ⌈n ÷ page size⌉ + 1 requests for each
 * schedule that holds n of them.
 */
async function printScopedReads(result: RunResult, client: ApiClient, kind: string): Promise<void> {
  const list = providers[kind]!.spec.list!;
  const schedules = await walkList<{ id: string }>(client, providers.Schedule!.spec.list!);
  let count = 0;
  let target = 0;
  for (const schedule of schedules) {
    const n = (await walkList(client, list, { schedule_id: schedule.id })).length;
    count += n;
    if (n > 0) target += Math.ceil(n / (list.pageSize ?? n)) + 1;
  }
  const pattern = new RegExp(`^${list.path.replace("{schedule_id}", "[^/]+")}`);
  const requests = result.apiCalls.filter((c) => pattern.test(c.path)).length;
  console.log(
    `  refresh ${kind}: ${count} in the account on ${schedules.length} schedules, ${requests} requests (target ≤ ${target} = Σ ⌈n ÷ ${list.pageSize ?? "all"}⌉ + 1 per schedule): ${requests <= target ? "met" : "NOT met"}`,
  );
}

/** A phase's requests by method and collection (`GET /v1/severities`), ids left out. */
function printRequestsByCollection(result: RunResult): void {
  const counts = new Map<string, number>();
  for (const call of result.apiCalls) {
    const collection = call.path.split("?")[0]!.split("/").slice(0, 3).join("/");
    const key = `${call.method} ${collection}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const rows = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`);
  console.log(`  requests by collection: ${rows.join(", ")}`);
}

async function roundTrip(url: string, key: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < 5; i++)
    await fetch(`${url}/v1/identity`, { headers: { authorization: `Bearer ${key}` } });
  return (performance.now() - started) / 5;
}

main().catch((error) => {
  console.error(error);
  process.exit(1); // the emulator is still listening
});
