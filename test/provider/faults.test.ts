/**
 * The fault matrix at the provider level: every kind of `providers` (resources/index.ts) × every
 * scenario × the phases create, update and delete. Each kind's provider is called the way the
 * engine calls it (check → create / diff / update / delete / read) against the in-process emulator,
 * whose FaultController injects the faults: lost answers, connection resets, unreadable bodies,
 * 5xx, 429 storms, latency and a hang past the client's request timeout. These are properties of the
 * provider's HTTP client (provider/client.ts) and of the factory's create recovery (`findCreated`,
 * PartialCreateError, the pending-creates journal), not of the engine: no child process, no engine.
 *
 * Per phase, the engine is emulated: each run is a fresh provider process (`configure`, no cached
 * pages, no token bucket, no pooled connection; the journal entries of the run before are left by a
 * process that has exited). The first run either succeeds or fails cleanly (an Error with a message,
 * no TypeError, no "undefined"); then the next run is what the engine does next: a create that
 * reported its half-created object (an error carrying `id` and `properties`) is kept and updated,
 * any other failed create is simply created again (the journal finds a create whose answer was
 * lost), a failed update or delete is done again. Where the provider is expected to absorb the
 * fault (client retries, `findCreated`), the first run must succeed. After create and update the
 * account holds exactly the live objects the declaration stands for (no duplicates, no orphans),
 * the kept id is the live id, outputs only a create answers are kept (and are the live ones), a
 * diff shows no change and a read answers the id; after delete nothing of the kind is left and a
 * read answers an empty id (or, for a kind whose id is its parent's, the parent with nothing left).
 * Every armed fault fired, and every failed run met one.
 *
 * The faults of "every write" are derived from a clean run of the kind (its writes per phase, with
 * the emulator's route templates as paths), so a new kind needs only its sample
 * (test/support/kindSamples.ts). `FAULTS_SUMMARY=1` prints how each phase's runs ended.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { FaultRule } from "../../emulator";
import { UNREADABLE_BODIES } from "../../emulator/faults";
import { type ClientOptions, closeAllConnections, resetRateLimitState } from "../../provider/client";
import { clientFor, resolveCredentials } from "../../provider/credentials";
import type { IncidentProvider } from "../../provider/factory";
import { enablePagedReads } from "../../provider/pagedReads";
import { providers } from "../../resources";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import { KIND_SAMPLES, type KindSample, type SampleApi } from "../support/kindSamples";

type Phase = "create" | "update" | "delete";
type Props = Record<string, any>;

/**
 * The client's backoff between retries of a 5xx, a reset or an unreadable answer (ClientOptions,
 * given to the provider's client through `clientFor`, credentials.ts): 1 ms instead of 250 ms
 * doubling, so hundreds of retried requests cost milliseconds. Retry counts are the defaults.
 */
const FAST_BACKOFF: Partial<ClientOptions> = { backoffBaseMs: 1, backoffCapMs: 4 };
/** `incident:requestTimeout` of the hang scenario: the smallest the setting takes (0.1 s). */
const SHORT_TIMEOUT = "0.1";
/** How many attempts the client makes of a retryable request (ClientOptions.maxRetries 6, + 1). */
const CLIENT_ATTEMPTS = 7;
/** Runs (provider processes) a phase may take; each failed run must have met an armed fault. */
const MAX_RUNS = 6;

// ---------- the emulator and the emulated engine ----------

let emu: TestEmulator;
let api: SampleApi;
const journalRoot = process.env.INCIDENT_JOURNAL_DIR!;

beforeAll(async () => {
  // The fake clock never refills the rate-limit bucket: one large enough for the whole file, and
  // advertised (X-RateLimit-Limit) as refilling at once, so the client's own bucket, emptied by a
  // 429, waits only the Retry-After (otherwise 50 ms a request at its default 20/s).
  emu = await startTestEmulator({ burst: 10_000_000, refillPerSecond: 10_000_000 });
});
afterAll(async () => {
  process.env.INCIDENT_JOURNAL_DIR = journalRoot;
  await closeAllConnections();
  await emu.dispose();
  if (process.env.FAULTS_SUMMARY) console.log(outcomes.join("\n"));
});

/** How each phase's runs ended (FAULTS_SUMMARY=1). */
const outcomes: string[] = [];

/** A clean account (seeded users and teams), a dashboard key, its own journal, no faults. */
async function freshAccount(label: string): Promise<void> {
  emu.faults.clear();
  await emu.reset();
  const dashboardKey = await emu.createApiKey("dashboard", ["global_access"]);
  api = { emu, call: (method, urlPath, body) => emu.ok(method, urlPath, { token: dashboardKey, body }) };
  process.env.INCIDENT_JOURNAL_DIR = fs.mkdtempSync(path.join(journalRoot, `${label.replace(/\W+/g, "-")}-`));
}

/** The pid of no process (above the kernel's largest): what a provider process that exited leaves. */
const EXITED_PID = (() => {
  try {
    return Number(fs.readFileSync("/proc/sys/kernel/pid_max", "utf8").trim()) + 1;
  } catch {
    return 2 ** 22 + 1;
  }
})();

/**
 * A new provider process, as the engine starts one per run: the journal entries this process wrote
 * are now those of a process that has exited (provider/journal.ts takes them over), and nothing of
 * the last run is kept in memory (cached pages, token buckets, pooled connections). Then the
 * engine's `configure` with the stack's settings.
 */
async function startRun(provider: IncidentProvider, requestTimeout: string): Promise<void> {
  const root = process.env.INCIDENT_JOURNAL_DIR!;
  for (const account of fs.readdirSync(root)) {
    for (const name of fs.readdirSync(path.join(root, account))) {
      const file = path.join(root, account, name);
      if (!name.endsWith(".json")) continue;
      let entry: { pid?: number };
      try {
        entry = JSON.parse(fs.readFileSync(file, "utf8"));
      } catch {
        continue; // removed meanwhile (an answered entry's time is up)
      }
      if (entry.pid === process.pid) fs.writeFileSync(file, JSON.stringify({ ...entry, pid: EXITED_PID }));
    }
  }
  enablePagedReads(false);
  resetRateLimitState();
  await closeAllConnections();
  const config: Record<string, string> = {
    "incident:apiKey": emu.apiKey,
    "incident:baseUrl": emu.url,
    "incident:requestTimeout": requestTimeout,
  };
  await provider.configure({ config: { get: (key: string) => config[key] } } as any);
  // The provider's client for these settings, made first with the fast backoff (one per settings).
  clientFor(resolveCredentials(), FAST_BACKOFF);
}

/** A failure the engine can report: an Error with a message, not a programming error. */
function expectClean(error: unknown): void {
  expect(error).toBeInstanceOf(Error);
  const e = error as Error & { id?: unknown };
  expect(e).not.toBeInstanceOf(TypeError);
  expect(e).not.toBeInstanceOf(ReferenceError);
  expect(e.message.trim()).not.toBe("");
  expect(e.message).not.toMatch(/\bundefined\b|\[object Object\]/);
  if (e.id !== undefined) expect(typeof e.id === "string" && e.id !== "").toBe(true);
}

// ---------- the writes of a clean run, per phase ----------

interface Write {
  method: string;
  /** The route template as a pattern: `^/v2/custom_fields/[^/]+$`. */
  path: string;
  /** How many of these a clean run of the phase makes. */
  count: number;
}
type Writes = Record<Phase, Write[]>;

/** The provider's writes in the request log since `mark`, grouped by method and route (first seen first). */
function writesSince(mark: number): Write[] {
  const out: Write[] = [];
  for (const r of emu.requests.slice(mark)) {
    if (r.method === "GET") continue;
    const template = r.route ?? r.path;
    const pattern = `^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`;
    const seen = out.find((w) => w.method === r.method && w.path === pattern);
    if (seen) seen.count++;
    else out.push({ method: r.method, path: pattern, count: 1 });
  }
  return out;
}

const checked = async (provider: IncidentProvider, raw: Props): Promise<Props> => {
  const result = await provider.check!({}, { ...raw, __provider: "shim" });
  expect(result.failures ?? []).toEqual([]);
  return result.inputs;
};

/** A clean create → update → delete of the sample: the writes each phase makes. */
async function cleanRun(kind: string, provider: IncidentProvider, sample: KindSample): Promise<Writes> {
  await freshAccount(`${kind}-clean`);
  const prepared = await sample.prepare(api);
  const inputs = await checked(provider, prepared.inputs);
  const updated = prepared.updated && (await checked(provider, prepared.updated));
  await startRun(provider, "30");
  let mark = emu.requests.length;
  const created = await provider.create!(inputs);
  const create = writesSince(mark);
  mark = emu.requests.length;
  // A kind with no update (every input replaces): no update phase.
  const { outs } = updated
    ? await provider.update!(created.id, created.outs, updated)
    : { outs: created.outs };
  const update = writesSince(mark);
  mark = emu.requests.length;
  await provider.delete!(created.id, outs!);
  const del = writesSince(mark);
  for (const [phase, writes] of Object.entries({ create, update, delete: del })) {
    if (writes.length === 0 && (phase !== "update" || updated))
      throw new Error(`${kind}: a clean ${phase} made no write`);
  }
  return { create, update, delete: del };
}

// ---------- the scenarios ----------

type FirstRun = "ok" | "fails";

interface Scenario {
  /** Short name (KNOWN_DEFECTS keys). */
  key: string;
  /** The test's title. */
  name: string;
  /** The faults of one phase, from the writes a clean run of it makes. */
  rules(phase: Phase, writes: Write[], sample: KindSample, kind: string): FaultRule[];
  /** The kinds the scenario runs for (every kind when absent). */
  kinds?: readonly string[];
  /** How the first run of a phase must end (absent: either, the next runs converge). */
  firstRun: Partial<Record<Phase, FirstRun>>;
  /** `incident:requestTimeout` (default 30 s). */
  requestTimeout?: string;
  /** The faults hit the first run only (every attempt it makes, however many): cleared after it. */
  firstRunOnly?: boolean;
}

const ABSORBED = { create: "ok", update: "ok", delete: "ok" } as const;

/** One fault per write of the phase (as many as a clean run makes of each). */
const onEveryWrite =
  (fault: Omit<FaultRule, "path" | "method" | "count">) =>
  (_phase: Phase, writes: Write[]): FaultRule[] =>
    writes.map((w) => ({ ...fault, method: w.method, path: w.path, count: w.count }));

/**
 * Where the hang scenario holds a write. A held request costs 0.5-1 s whatever
 * `incident:requestTimeout` says: undici checks header and body timeouts on a ~500 ms tick
 * (FastTimer, node_modules/undici/lib/util/timers.js), so the smallest setting, 0.1 s, fires after
 * 0.5-1 s. Holding the create of all 21 kinds alone costs ~15 s of the file's 25. So the hang holds
 * the create of the kinds whose recovery after an unknown outcome differs (by name; by name and
 * start, newest; by name and time zone, paged; by name and trigger, list then show; an upsert found
 * by external id; a version on the converging update; a token rotated; a secret token answered
 * again; no rotation of a secret; inline options; an attribute inside its type's schema; a rule
 * under its schedule), and the update and delete of one kind (the client's timeout handling of PUT
 * and DELETE, the same for every kind). The lookup after a lost answer itself runs for every kind
 * in the reset-after and unreadable scenarios.
 */
const HANG_PHASES: Record<string, readonly Phase[]> = {
  AlertAttribute: ["create", "update", "delete"],
  AlertRoute: ["create"],
  AlertSource: ["create"],
  ApiKey: ["create"],
  CatalogEntry: ["create"],
  CatalogTypeAttribute: ["create"],
  CustomField: ["create"],
  MaintenanceWindow: ["create"],
  Schedule: ["create"],
  ScheduleSyncRule: ["create"],
  Secret: ["create"],
  Workflow: ["create"],
};

/** The first write of the phase (the create's POST, the update's PUT, the delete). */
const first = (writes: Write[]): Write => writes[0]!;

const scenarios: Scenario[] = [
  {
    // The client retries 5xx on reads, updates and deletes; on a create a 5xx leaves the outcome
    // unknown: the provider looks for the object (findCreated) before trying again.
    key: "5xx",
    name: "5xx: 503 on the first two requests, then 502 on every write (not committed)",
    rules: (phase, writes) => [
      { path: "^/v", kind: "status", status: 503, count: 2 },
      ...onEveryWrite({ kind: "status", status: 502 })(phase, writes),
    ],
    firstRun: { update: "ok", delete: "ok" },
  },
  {
    // Nothing was committed: a create is looked for, then tried again.
    key: "reset-before",
    name: "connection reset before every write (not committed)",
    rules: onEveryWrite({ kind: "reset-before" }),
    firstRun: { update: "ok", delete: "ok" },
  },
  {
    key: "reset-after",
    name: "connection reset after every write committed (response lost)",
    rules: onEveryWrite({ kind: "reset-after" }),
    firstRun: ABSORBED,
  },
  {
    // A lost create whose lookup fails too (every attempt of the client's GET answers 503): the run
    // fails, and the next one finds the object through the journal. A recovered create's follow-up
    // write (a token rotation) fails too: the object is kept half-created and finished next run. A
    // lost update or delete: the client's retry, answered 503 once, then retried again.
    key: "lost-then-lookup-fails",
    name: "response lost, then the recovery fails too",
    rules: (phase, writes, sample) =>
      phase === "create" && !sample.repeatableCreate
        ? [
            ...writes.map(
              (w): FaultRule => ({ method: w.method, path: w.path, kind: "reset-after", count: 1 }),
            ),
            { method: "GET", path: "^/v", kind: "status", status: 503, count: CLIENT_ATTEMPTS },
            ...(sample.recoveryWrites ?? []).map(
              (p): FaultRule => ({ method: "POST", path: p, kind: "status", status: 502 }),
            ),
          ]
        : writes.flatMap((w): FaultRule[] => [
            { method: w.method, path: w.path, kind: "reset-after", count: 1 },
            // The client's retry of a PUT, a DELETE or a repeatable POST; another POST is not
            // retried (the next run is its recovery).
            ...(w.method === "POST" && !(phase === "create" && sample.repeatableCreate)
              ? []
              : [{ method: w.method, path: w.path, kind: "status", status: 503, count: 1 } as FaultRule]),
          ]),
    firstRun: { update: "ok", delete: "ok" },
  },
  {
    // Every attempt of the create is cut off before the API acts: the run stops cleanly, with
    // nothing created or the half-created object reported with its id; the next run makes it.
    key: "create-keeps-failing",
    name: "a create that keeps failing (the run stops cleanly)",
    // As many as the run makes (the faults are cleared after it).
    rules: (phase, writes) =>
      phase === "create" ? [{ ...first(writes), kind: "reset-before", count: 1000 }] : [],
    firstRun: { create: "fails", update: "ok", delete: "ok" },
    firstRunOnly: true,
  },
  {
    // The answer is a 2xx the client cannot read: half the JSON, a proxy's HTML page, nothing.
    key: "unreadable",
    name: "2xx with an unreadable body (truncated JSON, HTML, empty) on every write",
    rules: (_phase, writes) =>
      writes.map((w, i) => ({
        method: w.method,
        path: w.path,
        kind: "unreadable",
        body: UNREADABLE_BODIES[i % UNREADABLE_BODIES.length],
        count: w.count,
      })),
    firstRun: ABSORBED,
  },
  {
    // The API commits the write and holds the answer past the client's request timeout: the
    // outcome of a create is unknown, so it must be found again, not made twice; a timed-out PUT is
    // tried once more, a timed-out DELETE that had deleted answers 404 (gone: done).
    key: "hang",
    name: "a write held past the request timeout after the API committed it",
    rules: (phase, writes, _sample, kind) =>
      HANG_PHASES[kind]?.includes(phase) ? [{ ...first(writes), kind: "hang-after", count: 1 }] : [],
    kinds: Object.keys(HANG_PHASES),
    firstRun: ABSORBED,
    requestTimeout: SHORT_TIMEOUT,
  },
  {
    // Retry-After 0, the smallest the emulator answers: the storm is about the retries, not the wait.
    key: "429",
    name: "429 storm (Retry-After)",
    rules: () => [{ path: "^/v", kind: "rate-limit", count: 6, retryAfterSeconds: 0 }],
    firstRun: ABSORBED,
  },
  {
    key: "latency",
    name: "latency",
    rules: () => [{ path: "^/v", kind: "latency", latencyMs: 10, count: 2 }],
    firstRun: ABSORBED,
  },
];

/**
 * Cases that show a provider defect: expected to fail (test.failing) until it is fixed. Keyed
 * `<kind> / <scenario key>`; the value names the defect. None today.
 */
const KNOWN_DEFECTS: Record<string, string> = {};

// ---------- one case ----------

/**
 * Arms the phase's faults and runs it as the engine would, run after run (`attempt` answers the
 * next run; `failed` tells it how the last one ended), until one succeeds; answers its result. A
 * first run that did not end as `expected` is added to `unexpected` (asserted once every phase has
 * run, so a case shows all its phases).
 */
async function underFaults<T>(
  label: string,
  provider: IncidentProvider,
  scenario: Scenario,
  rules: FaultRule[],
  expected: FirstRun | undefined,
  unexpected: string[],
  attempt: () => Promise<T>,
  failed: (error: unknown) => void = () => undefined,
): Promise<T> {
  emu.faults.clear();
  for (const rule of rules) emu.faults.add(rule);
  const ends: string[] = [];
  const started = Date.now();
  let result: { value: T } | undefined;
  let armed = () => emu.faults.list() as { fired: number }[];
  const fired = () => armed().reduce((n, r) => n + r.fired, 0);
  for (let run = 1; run <= MAX_RUNS && !result; run++) {
    await startRun(provider, scenario.requestTimeout ?? "30");
    const before = fired();
    try {
      result = { value: await attempt() };
      ends.push("ok");
    } catch (error) {
      expectClean(error);
      ends.push(`fails (${(error as Error).message})`);
      // A run fails only because it met a fault: a failure without one is a defect, not a fault.
      expect({ label, run, metAFault: fired() > before }).toEqual({ label, run, metAFault: true });
      failed(error);
    }
    if (run === 1 && scenario.firstRunOnly) {
      const firstRunFaults = armed();
      armed = () => firstRunFaults;
      emu.faults.clear();
    }
  }
  outcomes.push(`${label}: ${ends.join(" → ")} (${Date.now() - started} ms)`);
  const firstRun: FirstRun = ends[0] === "ok" ? "ok" : "fails";
  if (expected !== undefined && firstRun !== expected) {
    unexpected.push(
      `${label}: the first run ${expected === "ok" ? "must absorb the faults" : "must fail"}, got ${ends[0]}`,
    );
  }
  expect({ label, converged: result !== undefined, runs: ends }).toMatchObject({ label, converged: true });
  // Every armed fault really happened.
  expect({ label, unfired: armed().filter((r) => r.fired === 0) }).toEqual({
    label,
    unfired: [],
  });
  emu.faults.clear();
  return result!.value;
}

async function runCase(kind: string, writes: Writes, scenario: Scenario): Promise<void> {
  const provider = providers[kind]!;
  const sample = KIND_SAMPLES[kind]!;
  const label = `${kind} / ${scenario.name}`;
  await freshAccount(kind);
  const unexpected: string[] = [];
  const prepared = await sample.prepare(api);
  const inputs = await checked(provider, prepared.inputs);
  const updated = prepared.updated && (await checked(provider, prepared.updated));
  // What the account holds of the kind before the stack makes anything (the keys of an ApiKey).
  const baseline = new Set((await sample.live(api, prepared.inputs)).map((o) => o.id));
  const liveIds = async () =>
    (await sample.live(api, prepared.inputs))
      .map((o) => o.id)
      .filter((id) => !baseline.has(id))
      .sort();

  const expectConverged = async (phase: Phase, id: string, outs: Props, declared: Props) => {
    const members = (sample.members?.(id, outs) ?? [id]).slice().sort();
    expect({ phase, live: await liveIds() }).toEqual({ phase, live: members });
    for (const key of sample.createdOutputs ?? []) {
      expect({ phase, [key]: typeof outs[key] === "string" && outs[key] !== "" }).toEqual({
        phase,
        [key]: true,
      });
    }
    await sample.verifyOutputs?.(api, id, outs);
    const diff = await provider.diff!(id, outs, declared);
    expect({ phase, changes: diff.changes }).toEqual({ phase, changes: false });
    const read = await provider.read!(id, outs);
    expect({ phase, readId: read.id }).toEqual({ phase, readId: id });
  };

  // create: a half-created object (an error with its id) is kept by the engine and updated next run.
  let kept: { id: string; outs: Props } | undefined;
  const created = await underFaults(
    `${label} / create`,
    provider,
    scenario,
    scenario.rules("create", writes.create, sample, kind),
    scenario.firstRun.create,
    unexpected,
    async () => {
      if (!kept) return provider.create!(inputs);
      const { outs } = await provider.update!(kept.id, kept.outs, inputs);
      return { id: kept.id, outs: outs! };
    },
    (error) => {
      const e = error as { id?: string; properties?: Props };
      if (e.id !== undefined && kept === undefined) kept = { id: e.id, outs: e.properties ?? {} };
    },
  );
  await expectConverged("create", created.id, created.outs, inputs);

  // update: in place (the sample's update replaces nothing); a failed update is done again. A kind
  // with no update (every input replaces) has no update phase.
  let outs: Props | undefined = created.outs;
  if (updated) {
    const planned = await provider.diff!(created.id, created.outs, updated);
    expect({ changes: planned.changes, replaces: planned.replaces }).toEqual({ changes: true, replaces: [] });
    ({ outs } = await underFaults(
      `${label} / update`,
      provider,
      scenario,
      scenario.rules("update", writes.update, sample, kind),
      scenario.firstRun.update,
      unexpected,
      () => provider.update!(created.id, created.outs, updated),
    ));
    await expectConverged("update", created.id, outs!, updated);
  }

  // delete: nothing of the kind is left, and a read answers an empty id.
  await underFaults(
    `${label} / delete`,
    provider,
    scenario,
    scenario.rules("delete", writes.delete, sample, kind),
    scenario.firstRun.delete,
    unexpected,
    () => provider.delete!(created.id, outs!),
  );
  expect({ phase: "delete", live: await liveIds() }).toEqual({ phase: "delete", live: [] });
  const gone = await provider.read!(created.id, outs!);
  if (sample.deletedReadsAs) {
    expect({ phase: "delete", id: gone.id, props: gone.props }).toMatchObject({
      phase: "delete",
      id: created.id,
      props: sample.deletedReadsAs,
    });
  } else {
    expect({ phase: "delete", readId: gone.id }).toEqual({ phase: "delete", readId: "" });
  }
  expect(emu.responseProblems).toEqual([]);
  expect(unexpected).toEqual([]);
}

// ---------- the matrix ----------

const kinds = Object.keys(providers);

test("every kind of `providers` has a sample (test/support/kindSamples.ts), in kind order", () => {
  expect(Object.keys(KIND_SAMPLES)).toEqual(kinds);
});

describe.each(kinds)("%s", (kind) => {
  let writes: Writes;
  beforeAll(async () => {
    const sample = KIND_SAMPLES[kind];
    if (!sample) throw new Error(`${kind} has no sample in test/support/kindSamples.ts`);
    writes = await cleanRun(kind, providers[kind]!, sample);
  });
  afterEach(async () => {
    emu.faults.clear();
    resetRateLimitState();
    await closeAllConnections();
  });

  const cases = scenarios.filter((s) => s.kinds?.includes(kind) ?? true).map((s) => [s.name, s] as const);
  const healthy = cases.filter(([, s]) => !KNOWN_DEFECTS[`${kind} / ${s.key}`]);
  const defects = cases.filter(([, s]) => KNOWN_DEFECTS[`${kind} / ${s.key}`]);
  if (healthy.length > 0) test.each(healthy)("%s", (_name, scenario) => runCase(kind, writes, scenario));
  if (defects.length > 0) {
    // Each names its defect in KNOWN_DEFECTS: it fails until the provider is fixed.
    test.failing.each(defects)("%s (known defect)", (_name, scenario) => runCase(kind, writes, scenario));
  }
});
