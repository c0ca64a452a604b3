/**
 * The fault matrix: every scenario × every program (examples/quickstart, examples/oncall), applied
 * through the harness (real provider host) against one emulator that injects the faults. Each case
 * runs three phases, each with the scenario's faults armed for it:
 *   create  `pulumi up` (POSTs, the create-with-unknown-outcome path: resources/*.ts `findCreated`);
 *   update  objects edited outside the stack + the program's changed config, `pulumi up --refresh`
 *           (PUTs of every family);
 *   delete  `pulumi destroy` (DELETEs).
 * Each phase either succeeds or fails cleanly (an error message, nothing lost) and then the same
 * command run again converges; where the provider is expected to absorb the fault (client retries,
 * `findCreated` lookups) the first run must succeed. After create and update the account holds
 * exactly the declared objects (live objects counted per family through the API: no duplicates, no
 * orphans), the state's ids are the live ids, outputs only a create answers (tokens) are kept, and a
 * further run shows no changes and makes no provider API calls; after delete every family is empty.
 * Every armed fault must really have fired. `FAULTS_SUMMARY=1` prints how each first run ended.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type FaultRule, type RunningEmulator, startEmulator } from "../emulator";
import { API_KEYS, type StoredApiKey } from "../emulator/auth";
import { ALERT_ATTRIBUTES } from "../emulator/families/alertAttributes";
import { ALERT_SOURCES } from "../emulator/families/alertSources";
import { CUSTOM_FIELD_OPTIONS } from "../emulator/families/customFieldOptions";
import { CUSTOM_FIELDS } from "../emulator/families/customFields";
import { UNREADABLE_BODIES } from "../emulator/faults";
import type * as harness from "../tools/harness";
import { driver, driverLabel, scenarioTimeoutMs } from "./support/driver";

const examples = path.join(__dirname, "..", "examples");
let emulator: RunningEmulator;
/** Ids that exist before any program runs (the bootstrap API key): never the programs' objects. */
const baseline = new Set<string>();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  for (const key of await list("/v1/api_keys", "api_keys")) baseline.add(key.id);
});
afterAll(async () => {
  await emulator.close();
  // FAULTS_SUMMARY=1: how each phase's first run ended (ok, or the clean failure's messages).
  if (process.env.FAULTS_SUMMARY) console.log(outcomes.map((o) => `${o.label}: ${o.first}`).join("\n"));
});

const outcomes: { label: string; first: string }[] = [];

async function api(pathname: string): Promise<any> {
  const res = await fetch(`${emulator.url}${pathname}`, {
    headers: { authorization: `Bearer ${emulator.apiKey}` },
  });
  expect(res.status).toBe(200);
  return res.json();
}

interface Live {
  id: string;
  name: string;
}

/** Every record of a collection (all pages), as id + name, without the baseline's. */
async function list(pathname: string, key: string, query: Record<string, string> = {}): Promise<Live[]> {
  const all: Live[] = [];
  let after: string | undefined;
  do {
    const params = new URLSearchParams({ ...query, page_size: "100", ...(after ? { after } : {}) });
    const body = await api(`${pathname}?${params}`);
    all.push(...(body[key] as Live[]));
    after = body.pagination_meta?.after;
  } while (after);
  return all.filter((r) => !baseline.has(r.id));
}

/** Directly in the store: an edit made in the dashboard, outside the stack. */
async function editOutside<T extends { id: string }>(
  collection: string,
  find: (r: T) => boolean,
  edit: (r: T) => T,
): Promise<void> {
  await emulator.store.transaction(() => {
    const records = emulator.store.collection<T>(collection);
    const record = records.find(find);
    if (!record) throw new Error(`nothing to edit in ${collection}`);
    records.set(edit(record));
  });
}

interface Family {
  label: string;
  /** State type (`…:<Kind>`) of the resources of this family; absent when managed inline by another. */
  type?: string;
  /** The API collection: POST here, PUT and DELETE on `<collection>/<id>`. */
  collection: string;
  /** Names the program declares. */
  declared: string[];
  /** The live objects of this family in the account (what the program may have made). */
  live(): Promise<Live[]>;
  /** Outputs every resource of the family must have in the state (what only a create may answer). */
  requiredOutputs?: string[];
  /** Non-idempotent writes a recovered create makes after finding the object (a token rotation). */
  recoveryWrites?: string[];
}

interface Program {
  name: string;
  dir: string;
  families: Family[];
  /** Config of the update phase (on top of the base config). */
  updateConfig: Record<string, string>;
  /** Edits outside the stack, made before the update phase (so every family gets a PUT). */
  driftOutside(): Promise<void>;
  /** The update phase's values are live. */
  expectUpdated(): Promise<void>;
  /** A family with one object and dependents: the target of the "keeps failing" scenario. */
  keepsFailing: string;
  /** A family whose names are not unique (a second create would duplicate): where the host is killed. */
  killedCreate: string;
}

const optionsOf = async (fieldName: string): Promise<Live[]> => {
  const field = (await list("/v2/custom_fields", "custom_fields")).find((f) => f.name === fieldName);
  if (!field) return [];
  const options = await list("/v1/custom_field_options", "custom_field_options", {
    custom_field_id: field.id,
  });
  return options.map((o: any) => ({ id: o.id, name: o.value }));
};

const quickstart: Program = {
  name: "quickstart",
  dir: path.join(examples, "quickstart"),
  families: [
    {
      label: "custom fields",
      type: "CustomField",
      collection: "/v2/custom_fields",
      declared: ["Affected team", "Region"],
      live: () => list("/v2/custom_fields", "custom_fields"),
      requiredOutputs: ["createdAt"],
    },
    {
      label: "options of Region",
      type: "CustomFieldOption",
      collection: "/v1/custom_field_options",
      declared: ["ap-south", "eu-west", "us-east"],
      live: () => optionsOf("Region"),
    },
    {
      label: "inline options of Affected team",
      collection: "/v1/custom_field_options",
      declared: ["Identity", "Payments", "Search"],
      live: () => optionsOf("Affected team"),
    },
    {
      label: "API keys",
      type: "ApiKey",
      collection: "/v1/api_keys",
      declared: ["CI: read-only"],
      live: () => list("/v1/api_keys", "api_keys"),
      // The token is answered only by the create: a key whose create response was lost is rotated.
      requiredOutputs: ["token"],
      recoveryWrites: ["^/v1/api_keys/[^/]+/actions/rotate$"],
    },
  ],
  updateConfig: {},
  async driftOutside() {
    await editOutside<{ id: string; name: string; description: string }>(
      CUSTOM_FIELDS,
      (f) => f.name === "Region",
      (f) => ({ ...f, description: "edited in the dashboard" }),
    );
    await editOutside<{ id: string; value: string; sort_key: number }>(
      CUSTOM_FIELD_OPTIONS,
      (o) => o.value === "eu-west",
      (o) => ({ ...o, sort_key: 999 }),
    );
    await editOutside<StoredApiKey>(
      API_KEYS,
      (k) => k.name === "CI: read-only",
      (k) => ({ ...k, name: "CI: renamed in the dashboard" }),
    );
  },
  async expectUpdated() {
    const region = (await api("/v2/custom_fields")).custom_fields.find((f: any) => f.name === "Region");
    expect(region.description).toBe("Where customers are affected");
    const options = (await api(`/v1/custom_field_options?custom_field_id=${region.id}`)).custom_field_options;
    expect(options.find((o: any) => o.value === "eu-west").sort_key).toBe(10);
  },
  keepsFailing: "/v1/api_keys",
  killedCreate: "/v1/api_keys",
};

const oncall: Program = {
  name: "oncall",
  dir: path.join(examples, "oncall"),
  families: [
    {
      label: "alert attributes",
      type: "AlertAttribute",
      collection: "/v2/alert_attributes",
      declared: ["Environment", "Service"],
      live: () => list("/v2/alert_attributes", "alert_attributes"),
    },
    {
      label: "alert sources",
      type: "AlertSource",
      collection: "/v2/alert_sources",
      declared: ["Payments monitoring"],
      live: () => list("/v2/alert_sources", "alert_sources"),
      requiredOutputs: ["secretToken", "alertEventsUrl"],
    },
    {
      label: "alert routes",
      type: "AlertRoute",
      collection: "/v3/alert_routes",
      declared: ["Payments production alerts"],
      live: () => list("/v3/alert_routes", "alert_routes"),
    },
    {
      label: "escalation paths",
      type: "EscalationPath",
      collection: "/v2/escalation_paths",
      declared: ["Payments"],
      live: () => list("/v2/escalation_paths", "escalation_paths"),
    },
    {
      label: "schedules",
      type: "Schedule",
      collection: "/v2/schedules",
      declared: ["Payments primary", "Payments secondary"],
      live: () => list("/v2/schedules", "schedules"),
    },
    {
      label: "workflows",
      type: "Workflow",
      collection: "/v2/workflows",
      declared: ["Announce critical payments incidents"],
      live: () => list("/v2/workflows", "workflows"),
    },
  ],
  // Changes the route, the escalation path, the primary schedule and the workflow in place.
  updateConfig: { "incident-oncall:variant": "updated" },
  async driftOutside() {
    // The variant leaves the attributes and the source alone: edit them outside the stack.
    await editOutside<{ id: string; name: string }>(
      ALERT_ATTRIBUTES,
      (a) => a.name === "Service",
      (a) => ({ ...a, name: "Service (renamed in the dashboard)" }),
    );
    await editOutside<{ id: string; payload: any }>(
      ALERT_SOURCES,
      (s) => s.payload.name === "Payments monitoring",
      (s) => ({ ...s, payload: { ...s.payload, name: "Payments monitoring (renamed)" } }),
    );
  },
  async expectUpdated() {
    const [route] = (await api("/v3/alert_routes")).alert_routes;
    const shown = (await api(`/v3/alert_routes/${route.id}`)).alert_route;
    expect(shown.grouping_config.default.window_seconds).toBe(1800);
    const [workflow] = (await api("/v2/workflows")).workflows;
    expect(JSON.stringify((await api(`/v2/workflows/${workflow.id}`)).workflow)).toContain(
      "A critical incident was declared",
    );
    const [escalation] = (await api("/v2/escalation_paths")).escalation_paths;
    expect(JSON.stringify(escalation.path)).toContain('"time_to_ack_seconds":600');
  },
  keepsFailing: "/v2/alert_sources",
  killedCreate: "/v2/escalation_paths",
};

const programs = [quickstart, oncall];

type Phase = "create" | "update" | "delete";
const METHOD: Record<Phase, string> = { create: "POST", update: "PUT", delete: "DELETE" };

/**
 * The writes of one family in a phase, and how many requests get the fault: every object's create
 * (the provider looks for each, findCreated), one update and one delete per family (the client
 * retries those itself, with backoff: one fault each keeps the run quick).
 */
interface Target {
  method: string;
  path: string;
  collection: string;
  count: number;
}

function targets(program: Program, phase: Phase): Target[] {
  const objects = new Map<string, number>();
  for (const f of program.families) {
    objects.set(f.collection, (objects.get(f.collection) ?? 0) + f.declared.length);
  }
  return [...objects].map(([collection, count]) => ({
    method: METHOD[phase],
    path: phase === "create" ? `^${collection}$` : `^${collection}/[^/]+$`,
    collection,
    count: phase === "create" ? count : 1,
  }));
}

/** How many times the provider tries a create whose outcome is unknown (provider/factory.ts). */
const CREATE_ATTEMPTS = 4;

interface Scenario {
  name: string;
  /** The faults of one phase (none: the phase runs without faults). */
  rules(phase: Phase, program: Program): FaultRule[];
  /**
   * How the first run of a phase must end: `ok` (the provider absorbs the fault: retries, lookups),
   * `fails` (cleanly; the second run converges); either, when absent.
   */
  firstRun: Partial<Record<Phase, "ok" | "fails">>;
  /**
   * Whether the update phase runs (default: when the scenario has faults for it). Rate limits and
   * latency are handled by the client the same way for every method: create and delete suffice.
   */
  runsUpdate?: boolean;
  /** The provider host is killed (SIGKILL) when a `hang-*` fault holds a request. */
  killsHost?: boolean;
}

const ABSORBED = { create: "ok", update: "ok", delete: "ok" } as const;

const onEveryWrite =
  (rule: Omit<FaultRule, "path">) =>
  (phase: Phase, program: Program): FaultRule[] =>
    targets(program, phase).map((t) => ({ ...rule, method: t.method, path: t.path, count: t.count }));

/** The write a killed-host scenario holds: a create of a family that would duplicate, the first update or delete. */
const killedWrite =
  (kind: "hang-before" | "hang-after") =>
  (phase: Phase, program: Program): FaultRule[] => [
    phase === "create"
      ? { method: "POST", path: `^${program.killedCreate}$`, kind, count: 1 }
      : { method: METHOD[phase], path: "^/v", kind, count: 1 },
  ];

const scenarios: Scenario[] = [
  {
    // The client retries 5xx on reads, updates and deletes; on a create a 5xx leaves the outcome
    // unknown: the provider looks for the object (findCreated) before trying again.
    name: "5xx: 503 on the first two requests, then 502 on every write (not committed)",
    rules: (phase, program) => [
      { path: "^/v", kind: "status", status: 503, count: 2 },
      ...onEveryWrite({ kind: "status", status: 502 })(phase, program),
    ],
    // A create whose every attempt gets a 502 (the inline options of a custom field) may give up.
    firstRun: { update: "ok", delete: "ok" },
  },
  {
    name: "connection reset before every write (not committed)",
    rules: onEveryWrite({ kind: "reset-before" }),
    // Nothing was committed, so a create is tried again and may meet the next reset: several in a
    // row on one object (a custom field's inline options) can use up its attempts.
    firstRun: { update: "ok", delete: "ok" },
  },
  {
    name: "connection reset after every write committed (response lost)",
    rules: onEveryWrite({ kind: "reset-after" }),
    firstRun: ABSORBED,
  },
  {
    // Recovering a lost create: the lookup (findCreated's GET) and a follow-up write (a token
    // rotation, which then fails the run: the object must be kept, half-created, and finished by the
    // next run). Recovering a lost update or delete: the client's retry.
    name: "response lost, then the recovery fails too",
    rules: (phase, program) => [
      ...targets(program, phase).flatMap((t): FaultRule[] => [
        { method: t.method, path: t.path, kind: "reset-after", count: 1 },
        {
          method: phase === "create" ? "GET" : t.method,
          path: `^${t.collection}`,
          kind: "status",
          status: 503,
        },
      ]),
      ...(phase === "create" ? program.families.flatMap((f) => f.recoveryWrites ?? []) : []).map(
        (path): FaultRule => ({ method: "POST", path, kind: "status", status: 502 }),
      ),
    ],
    firstRun: { update: "ok", delete: "ok" },
  },
  {
    name: "a create that keeps failing (the run stops cleanly)",
    rules: (phase, program) =>
      phase === "create"
        ? [
            {
              method: "POST",
              path: `^${program.keepsFailing}$`,
              kind: "reset-before",
              count: CREATE_ATTEMPTS,
            },
          ]
        : [],
    firstRun: { create: "fails", delete: "ok" },
  },
  {
    // The answer is a 2xx the client cannot read: half the JSON, a proxy's HTML page, nothing.
    name: "2xx with an unreadable body (truncated JSON, HTML, empty) on every write",
    rules: (phase, program) =>
      targets(program, phase).map((t, i) => ({
        method: t.method,
        path: t.path,
        kind: "unreadable",
        body: UNREADABLE_BODIES[i % UNREADABLE_BODIES.length],
        count: t.count,
      })),
    firstRun: ABSORBED,
  },
  {
    // SIGKILL of the provider host while the API has committed a write and not yet answered: the
    // engine never learns the outcome. The next run must find the object (pending creates), not
    // make a second one; an update or delete is simply done again.
    name: "provider host killed (SIGKILL) after the API committed a write",
    rules: killedWrite("hang-after"),
    firstRun: { create: "fails", update: "fails", delete: "fails" },
    killsHost: true,
  },
  {
    name: "provider host killed (SIGKILL) before the API acted on a write",
    rules: killedWrite("hang-before"),
    firstRun: { create: "fails", update: "fails", delete: "fails" },
    killsHost: true,
  },
  {
    name: "429 storm",
    rules: () => [{ path: "^/v", kind: "rate-limit", count: 6, retryAfterSeconds: 1 }],
    firstRun: ABSORBED,
    runsUpdate: false,
  },
  {
    name: "latency",
    rules: () => [{ path: "^/v", kind: "latency", latencyMs: 150, count: 10 }],
    firstRun: ABSORBED,
    runsUpdate: false,
  },
];

/** What the account holds of the program's objects: sorted names per family. */
async function account(program: Program): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const f of program.families) out[f.label] = (await f.live()).map((r) => r.name).sort();
  return out;
}

const declared = (program: Program) =>
  Object.fromEntries(program.families.map((f) => [f.label, [...f.declared].sort()]));

/** The state names exactly the live objects, family by family. */
async function expectStateMatchesAccount(program: Program, stateFile: string): Promise<void> {
  const state = driver.readState(stateFile);
  for (const f of program.families) {
    if (!f.type) continue;
    const inState = state.resources
      .filter((r: any) => r.type.endsWith(`:${f.type}`))
      .map((r: any) => r.id)
      .sort();
    const live = (await f.live()).map((r) => r.id).sort();
    expect({ [f.label]: inState }).toEqual({ [f.label]: live });
    for (const r of state.resources.filter((r: any) => r.type.endsWith(`:${f.type}`))) {
      for (const key of f.requiredOutputs ?? []) {
        expect({ [`${r.name}.${key}`]: typeof r.outputs[key] === "string" && r.outputs[key] !== "" }).toEqual(
          {
            [`${r.name}.${key}`]: true,
          },
        );
      }
      expect({ [r.name]: r.initErrors ?? [] }).toEqual({ [r.name]: [] });
    }
  }
}

/** Arms the phase's faults, runs the command; a failed run must fail cleanly, then the same command again. */
async function underFaults(
  label: string,
  rules: FaultRule[],
  run: (killHostWhen?: Promise<unknown>) => Promise<harness.RunResult>,
  firstRun: "ok" | "fails" | undefined,
  killsHost = false,
): Promise<harness.RunResult> {
  emulator.faults.clear();
  for (const rule of rules) emulator.faults.add(rule);
  let result = await run(killsHost ? emulator.faults.nextFire(["hang-before", "hang-after"]) : undefined);
  outcomes.push({
    label,
    first: `${Math.round(result.durationMs)} ms ${result.ok ? "ok" : result.errors.map((e) => e.message).join(" | ")}`,
  });
  if (firstRun === "ok") expect(result.errors).toEqual([]);
  if (firstRun === "fails") expect(result.ok).toBe(false);
  if (!result.ok) {
    // Reported with a message, and recorded: the next run converges.
    expect(result.errors.length).toBeGreaterThan(0);
    for (const e of result.errors) expect(e.message.length).toBeGreaterThan(0);
    result = await run();
  }
  // Every armed fault really happened.
  expect((emulator.faults.list() as { fired: number; path: string }[]).filter((r) => r.fired === 0)).toEqual(
    [],
  );
  emulator.faults.clear();
  expect(result.errors).toEqual([]);
  return result;
}

async function expectConverged(program: Program, options: harness.HarnessOptions): Promise<void> {
  expect(await account(program)).toEqual(declared(program));
  await expectStateMatchesAccount(program, options.stateFile);
  const again = await driver.up(options);
  expect(again.errors).toEqual([]);
  expect(again.steps.filter((s) => s.op !== "same")).toEqual([]);
  expect(again.apiCalls.filter((c) => c.from !== "program")).toEqual([]);
}

/**
 * The harness runs the whole matrix. Through the real CLI (the engine lane) every run costs seconds
 * more, so the lane runs what only the real engine can show: the killed host on examples/oncall,
 * where the engine itself records the operations cut off (pending operations in the state).
 * FAULTS_ALL=1 runs the whole matrix through the CLI too.
 */
const inThisLane = (program: Program, scenario: Scenario): boolean =>
  driver.name === "harness" ||
  Boolean(process.env.FAULTS_ALL) ||
  (program.name === "oncall" && scenario.killsHost === true);

const cases = programs.flatMap((program) =>
  scenarios.filter((s) => inThisLane(program, s)).map((s) => [program.name, s.name, program, s] as const),
);

describe.each(cases)(`%s: %s (${driverLabel})`, (_programName, _scenarioName, program, scenario) => {
  beforeEach(async () => {
    // Each case starts from a clean account: one case's failure must not cascade into the next.
    await emulator.reset();
    emulator.faults.clear();
  });

  test(
    "no duplicates, no orphans, state matches, then no changes; destroy leaves nothing",
    async () => {
      const config = { "incident:baseUrl": emulator.url, "incident:apiKey": emulator.apiKey };
      const options: harness.HarnessOptions = {
        program: program.dir,
        stateFile: path.join(mkdtempSync(path.join(tmpdir(), "faults-")), "state.json"),
        stack: `${program.name}-${scenario.name}`.replace(/\W+/g, "-"),
        config,
        secretConfig: ["incident:apiKey"],
        // The faults hit the API's answers to writes, which a preview never makes: the matrix runs as
        // `pulumi up --skip-preview` (half the time); previews are covered by every other suite.
        skipPreview: true,
      };

      await underFaults(
        `${program.name} / ${scenario.name} / create`,
        scenario.rules("create", program),
        (killHostWhen) => driver.up({ ...options, killHostWhen }),
        scenario.firstRun.create,
        scenario.killsHost,
      );
      await expectConverged(program, options);

      const updateRules = scenario.rules("update", program);
      if (scenario.runsUpdate ?? updateRules.length > 0) {
        const updated = { ...options, config: { ...config, ...program.updateConfig } };
        await program.driftOutside();
        await underFaults(
          `${program.name} / ${scenario.name} / update`,
          updateRules,
          (killHostWhen) => driver.up({ ...updated, refresh: true, killHostWhen }),
          scenario.firstRun.update,
          scenario.killsHost,
        );
        await expectConverged(program, updated);
        await program.expectUpdated();
      }

      await underFaults(
        `${program.name} / ${scenario.name} / delete`,
        scenario.rules("delete", program),
        (killHostWhen) => driver.destroy({ ...options, killHostWhen }),
        scenario.firstRun.delete,
        scenario.killsHost,
      );
      for (const f of program.families) expect({ [f.label]: await f.live() }).toEqual({ [f.label]: [] });
      expect(driver.readState(options.stateFile).resources.filter((r: any) => r.custom)).toEqual([]);
    },
    Math.max(300_000, scenarioTimeoutMs),
  );
});
