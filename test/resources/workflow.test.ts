import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  createWorkflow,
  listWorkflows,
  type StoredWorkflow,
  showWorkflow,
  updateWorkflow,
  workflowProblems,
} from "../../emulator/families/workflows";
import { currentClient, setCredentials } from "../../provider/credentials";
import {
  canonicalWorkflow,
  type LiveWorkflow,
  type WorkflowInputs,
  workflowFromApi,
  workflowInputs,
  workflowPayload,
  workflowProvider,
  workflowSpec,
} from "../../resources/workflow";

/** A declared workflow using every feature (as check would return it). */
const declared: WorkflowInputs = workflowInputs.parse({
  name: "Notify on critical",
  trigger: "incident.updated",
  steps: [
    {
      id: "post",
      name: "slack.post_message",
      paramBindings: [
        { value: { reference: "incident.slack_channel" } },
        { value: { literal: '{"content": [{"text": "a > b"}], "type": "doc"}' } },
      ],
    },
    {
      id: "page",
      name: "pagerduty.escalate",
      paramBindings: [{ arrayValue: [{ literal: "svc-1" }, { literal: "svc-2" }] }],
      forEach: "teams",
    },
  ],
  conditionGroups: [
    {
      conditions: [
        {
          subject: "incident.severity",
          operation: "one_of",
          paramBindings: [{ arrayValue: [{ literal: "sev_1" }] }],
        },
      ],
    },
  ],
  expressions: [
    {
      label: "Teams",
      reference: "teams",
      rootReference: 'incident.custom_field["cf_1"]',
      operations: [{ operationType: "navigate", navigate: { reference: 'catalog_attribute["a1"]' } }],
    },
  ],
  onceFor: ["incident.url", "incident.severity"],
  runsOnIncidentModes: ["standard", "test"],
  delay: { forSeconds: 60 },
  folder: "Paging",
  owningTeamIds: ["team-b", "team-a"],
  privateIncidentScope: "owning_teams",
});

/** What the API answers for `declared`, with every read-back quirk of the real API. */
function liveFor(args: WorkflowInputs, id = "wf_1"): LiveWorkflow {
  const label = (v: { literal?: string; reference?: string }) => ({ ...v, label: v.literal ?? v.reference });
  return {
    workflow: {
      id,
      name: args.name,
      trigger: { name: args.trigger, label: "Incident updated" },
      steps: args.steps.map((s) => ({
        id: s.id,
        name: s.name,
        label: s.name,
        for_each: s.forEach,
        // Rule "padded param bindings": trailing empty bindings.
        param_bindings: [
          ...s.paramBindings.map((b) => ({
            ...(b.value
              ? {
                  value: label(
                    b.value.literal !== undefined
                      ? // Rule "canonical JSON literals": re-encoded (sorted keys, no spaces, \u003e).
                        { literal: reencode(b.value.literal) }
                      : b.value,
                  ),
                }
              : {}),
            ...(b.arrayValue ? { array_value: b.arrayValue.map(label) } : {}),
          })),
          {},
          { array_value: [] },
        ],
      })),
      condition_groups: args.conditionGroups.map((g) => ({
        conditions: g.conditions.map((c) => ({
          subject: { reference: c.subject, label: "Severity" },
          // Rule "operation aliases".
          operation: {
            value: c.operation === "one_of" ? "contains_one_of" : c.operation,
            label: "is one of",
          },
          param_bindings: c.paramBindings.map((b) => ({
            ...(b.arrayValue ? { array_value: b.arrayValue.map(label) } : {}),
          })),
        })),
      })),
      expressions: [...args.expressions].reverse().map((e) => ({
        label: e.label,
        reference: e.reference,
        root_reference: e.rootReference,
        returns: { array: true, type: "CatalogEntry" },
        operations: e.operations.map((o) => ({
          operation_type: o.operationType,
          returns: { array: true, type: "CatalogEntry" },
          ...(o.navigate ? { navigate: { reference: o.navigate.reference, reference_label: "Team" } } : {}),
        })),
      })),
      once_for: [...args.onceFor].reverse().map((k) => ({ key: k, label: k, type: "String", array: false })),
      runs_on_incidents: args.runsOnIncidents,
      runs_on_incident_modes: [...args.runsOnIncidentModes].reverse(),
      continue_on_step_error: args.continueOnStepError,
      delay: args.delay && {
        for_seconds: args.delay.forSeconds,
        conditions_apply_over_delay: args.delay.conditionsApplyOverDelay,
      },
      state: args.state,
      folder: args.folder,
      shortform: args.shortform,
      owning_team_ids: [...(args.owningTeamIds ?? [])].reverse(),
      private_incident_scope: args.privateIncidentScope ?? (args.includePrivateIncidents ? "all" : "none"),
      include_private_incidents:
        (args.privateIncidentScope ?? (args.includePrivateIncidents ? "all" : "none")) !== "none",
      include_private_escalations: args.includePrivateEscalations ?? false,
      version: 1,
    },
    managementMeta: { managed_by: "external", annotations: {} },
  };
}

function reencode(text: string): string {
  try {
    const sort = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sort)
        : v && typeof v === "object"
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
            )
          : v;
    return JSON.stringify(sort(JSON.parse(text))).replace(/>/g, "\\u003e");
  } catch {
    return text;
  }
}

describe("Workflow mapping", () => {
  test("create payload has the reference field names; the trigger is sent on create only", () => {
    const create = workflowPayload(declared, true);
    expect(create).toMatchObject({
      name: "Notify on critical",
      trigger: "incident.updated",
      once_for: ["incident.url", "incident.severity"],
      runs_on_incidents: "newly_created",
      runs_on_incident_modes: ["standard", "test"],
      continue_on_step_error: false,
      delay: { for_seconds: 60, conditions_apply_over_delay: false },
      state: "active",
      folder: "Paging",
      owning_team_ids: ["team-b", "team-a"],
      private_incident_scope: "owning_teams",
      include_private_escalations: false,
    });
    expect(create.steps[1]).toEqual({
      id: "page",
      name: "pagerduty.escalate",
      for_each: "teams",
      param_bindings: [{ array_value: [{ literal: "svc-1" }, { literal: "svc-2" }] }],
    });
    expect(create.condition_groups[0].conditions[0]).toEqual({
      subject: "incident.severity",
      operation: "one_of",
      param_bindings: [{ array_value: [{ literal: "sev_1" }] }],
    });
    expect(create.expressions[0]).toMatchObject({ root_reference: 'incident.custom_field["cf_1"]' });
    expect(create).not.toHaveProperty("include_private_incidents");
    const update = workflowPayload(declared, false);
    expect(update).not.toHaveProperty("trigger");
  });

  test("an omitted scope is sent as `none`; the deprecated flag is sent only when written", () => {
    const minimal = workflowInputs.parse({ name: "w", trigger: "incident.created" });
    expect(workflowPayload(minimal, true)).toMatchObject({
      private_incident_scope: "none",
      steps: [],
      condition_groups: [],
      expressions: [],
      once_for: [],
    });
    const legacy = workflowInputs.parse({ name: "w", trigger: "t", includePrivateIncidents: true });
    expect(workflowPayload(legacy, true)).toMatchObject({
      private_incident_scope: "all",
      include_private_incidents: true,
    });
  });

  test("a read-back with every quirk maps back to exactly the declared inputs", () => {
    expect(workflowFromApi(liveFor(declared), declared)).toEqual(JSON.parse(JSON.stringify(declared)));
  });
});

describe("Workflow normalisation rules (vectors: live differs in form only → no diff)", () => {
  const noDiff = async (olds: WorkflowInputs, news: WorkflowInputs) =>
    (await workflowProvider.diff!("wf_1", olds, news)).changes;

  test('rule "padded param bindings" (TF #205): trailing empty bindings are dropped', async () => {
    const back = workflowFromApi(liveFor(declared), declared);
    expect(back.steps[0]!.paramBindings).toHaveLength(2);
    expect(back.steps[1]!.paramBindings).toHaveLength(1);
    // Inner empty bindings are meaning (a skipped parameter) and are kept.
    const inner = workflowInputs.parse({
      name: "w",
      trigger: "t",
      steps: [{ id: "s", name: "n", paramBindings: [{}, { value: { literal: "x" } }] }],
    });
    expect(workflowFromApi(liveFor(inner), inner).steps[0]!.paramBindings).toEqual([
      {},
      { value: { literal: "x" } },
    ]);
    // Padded state compares equal to the declared bindings.
    const padded = structuredClone(declared);
    padded.steps[0]!.paramBindings.push({}, {});
    expect(await noDiff(padded, declared)).toBe(false);
  });

  test('rule "canonical JSON literals": re-encoded JSON reads back as the declared text', async () => {
    const back = workflowFromApi(liveFor(declared), declared);
    expect(back.steps[0]!.paramBindings[1]!.value!.literal).toBe(
      '{"content": [{"text": "a > b"}], "type": "doc"}',
    );
    // Without the declared text (adoption), the live text is reported, and compares by meaning.
    const adopted = workflowFromApi(liveFor(declared), undefined);
    expect(adopted.steps[0]!.paramBindings[1]!.value!.literal).toBe(
      '{"content":[{"text":"a \\u003e b"}],"type":"doc"}',
    );
    expect(await noDiff(adopted, declared)).toBe(false);
    // A changed document is a change.
    const changed = structuredClone(declared);
    changed.steps[0]!.paramBindings[1]!.value!.literal = '{"content": [{"text": "a < b"}], "type": "doc"}';
    expect(await noDiff(declared, changed)).toBe(true);
  });

  test('rule "operation aliases" (TF #289): contains_one_of reads back as the declared one_of', () => {
    const back = workflowFromApi(liveFor(declared), declared);
    expect(back.conditionGroups[0]!.conditions[0]!.operation).toBe("one_of");
  });

  test('rule "engine labels": trigger, subjects, values and once-for come back as labelled objects', () => {
    const back = workflowFromApi(liveFor(declared), undefined);
    expect(back.trigger).toBe("incident.updated");
    expect(back.conditionGroups[0]!.conditions[0]!.subject).toBe("incident.severity");
    expect(back.steps[1]!.paramBindings[0]).toEqual({
      arrayValue: [{ literal: "svc-1" }, { literal: "svc-2" }],
    });
  });

  test('rule "unordered sets": onceFor, modes, owning teams and expressions compare as sets', async () => {
    const back = workflowFromApi(liveFor(declared), declared);
    expect(back.onceFor).toEqual(["incident.url", "incident.severity"]);
    expect(back.runsOnIncidentModes).toEqual(["standard", "test"]);
    expect(back.owningTeamIds).toEqual(["team-b", "team-a"]);
    const reordered = workflowFromApi(liveFor(declared), undefined);
    expect(reordered.onceFor).toEqual(["incident.severity", "incident.url"]);
    expect(await noDiff(reordered, declared)).toBe(false);
  });

  test('rule "omitted vs empty": unset owningTeamIds and a live [] are the same', () => {
    const noTeams = workflowInputs.parse({ name: "w", trigger: "t" });
    expect(workflowFromApi(liveFor(noTeams), noTeams).owningTeamIds).toBeUndefined();
  });

  test('rule "private incident scope": the derived deprecated flag and the default scope are not drift', async () => {
    const scoped = workflowInputs.parse({ name: "w", trigger: "t", privateIncidentScope: "all" });
    expect(workflowFromApi(liveFor(scoped), scoped)).toMatchObject({
      privateIncidentScope: "all",
      includePrivateIncidents: undefined,
    });
    const legacy = workflowInputs.parse({ name: "w", trigger: "t", includePrivateIncidents: true });
    expect(workflowFromApi(liveFor(legacy), legacy)).toMatchObject({
      privateIncidentScope: undefined,
      includePrivateIncidents: true,
    });
    const neither = workflowInputs.parse({ name: "w", trigger: "t" });
    const back = workflowFromApi(liveFor(neither), neither);
    expect(back.privateIncidentScope).toBeUndefined();
    expect(back.includePrivateIncidents).toBeUndefined();
    expect(await noDiff(back, neither)).toBe(false);
    // Out-of-band change of the scope is drift even when the user never wrote it.
    const live = liveFor(neither);
    live.workflow.private_incident_scope = "all";
    live.workflow.include_private_incidents = true;
    const drifted = workflowFromApi(live, neither);
    expect(drifted.privateIncidentScope).toBe("all");
    expect(await noDiff(drifted, neither)).toBe(true);
    // Explicit `none` and unset mean the same.
    expect(canonicalWorkflow({ ...neither, privateIncidentScope: "none" })).toEqual(
      canonicalWorkflow(neither),
    );
  });

  test('rule "defaulted booleans": includePrivateEscalations false reads back as unset', () => {
    const neither = workflowInputs.parse({ name: "w", trigger: "t" });
    expect(workflowFromApi(liveFor(neither), neither).includePrivateEscalations).toBeUndefined();
    const set = { ...neither, includePrivateEscalations: false };
    expect(workflowFromApi(liveFor(set), set).includePrivateEscalations).toBe(false);
  });

  test("changing the trigger replaces; other changes update in place", async () => {
    const result = await workflowProvider.diff!("wf_1", declared, {
      ...declared,
      trigger: "incident.created",
    });
    expect(result).toMatchObject({ changes: true, replaces: ["trigger"], deleteBeforeReplace: false });
    const renamed = await workflowProvider.diff!("wf_1", declared, { ...declared, name: "other" });
    expect(renamed).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("Workflow check (bad input fails with the input path, zero API calls)", () => {
  // Any API call would go to this closed port and fail loudly.
  beforeAll(() => setCredentials({ apiKey: "check-only", baseUrl: "http://127.0.0.1:9" }));
  const base = { name: "w", trigger: "incident.updated" };
  const reasonsFor = async (inputs: Record<string, unknown>) => {
    const result = await workflowProvider.check!({}, { ...inputs, __provider: "shim" });
    return (result.failures ?? []).map((f) => `${f.property} | ${f.reason}`);
  };

  test.each([
    ["missing trigger", { name: "w" }, "trigger | trigger:"],
    ["empty name", { ...base, name: "" }, "name | name: must not be empty"],
    [
      "negative delay (for_seconds ≥ 0)",
      { ...base, delay: { forSeconds: -1 } },
      "delay | delay.forSeconds: must be 0 or more",
    ],
    [
      "fractional delay",
      { ...base, delay: { forSeconds: 1.5 } },
      "delay | delay.forSeconds: must be a whole number",
    ],
    ["bad state", { ...base, state: "error" }, "state | state:"],
    [
      "bad mode",
      { ...base, runsOnIncidentModes: ["standard", "live"] },
      "runsOnIncidentModes | runsOnIncidentModes[1]:",
    ],
    [
      "no modes",
      { ...base, runsOnIncidentModes: [] },
      "runsOnIncidentModes | runsOnIncidentModes: must name at least one mode",
    ],
    ["bad runsOnIncidents", { ...base, runsOnIncidents: "all" }, "runsOnIncidents | runsOnIncidents:"],
    ["bad scope", { ...base, privateIncidentScope: "some" }, "privateIncidentScope | privateIncidentScope:"],
    [
      "contradictory private settings",
      { ...base, privateIncidentScope: "none", includePrivateIncidents: true },
      "includePrivateIncidents | includePrivateIncidents: contradicts privateIncidentScope",
    ],
    [
      "contradictory private settings (false vs owning_teams)",
      { ...base, privateIncidentScope: "owning_teams", includePrivateIncidents: false },
      "includePrivateIncidents | includePrivateIncidents: contradicts",
    ],
    [
      "binding with both literal and reference (deep path)",
      {
        ...base,
        steps: [{ id: "s", name: "n", paramBindings: [{}, { value: { literal: "a", reference: "b" } }] }],
      },
      "steps | steps[0].paramBindings[1].value: set exactly one of literal or reference",
    ],
    [
      "unknown key deep in a condition",
      {
        ...base,
        conditionGroups: [
          { conditions: [{ subject: "incident.severity", operation: "one_of", param_bindings: [] }] },
        ],
      },
      "conditionGroups | conditionGroups[0].conditions[0].param_bindings: unknown property for Workflow",
    ],
    [
      "empty condition group",
      { ...base, conditionGroups: [{ conditions: [] }] },
      "conditionGroups | conditionGroups[0].conditions: a condition group needs at least one condition",
    ],
    [
      "bad expression operation type",
      {
        ...base,
        expressions: [
          { label: "l", reference: "r", rootReference: "incident", operations: [{ operationType: "map" }] },
        ],
      },
      "expressions | expressions[0].operations[0].operationType:",
    ],
    [
      "deep: branch result binding in an expression",
      {
        ...base,
        expressions: [
          {
            label: "l",
            reference: "r",
            rootReference: "incident",
            operations: [
              {
                operationType: "branches",
                branches: {
                  returns: { array: false, type: "String" },
                  branches: [
                    {
                      conditionGroups: [{ conditions: [{ subject: "", operation: "is_set" }] }],
                      result: { value: { literal: "x" } },
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
      "expressions | expressions[0].operations[0].branches.branches[0].conditionGroups[0].conditions[0].subject: must not be empty",
    ],
    [
      "duplicate step ids",
      {
        ...base,
        steps: [
          { id: "s", name: "a" },
          { id: "s", name: "b" },
        ],
      },
      'steps | steps[1].id: duplicate step id "s"',
    ],
    [
      "forEach names no expression",
      { ...base, steps: [{ id: "s", name: "a", forEach: "nope" }] },
      "steps | steps[0].forEach: names no expression",
    ],
    [
      "snake_case top-level key",
      { ...base, once_for: ["incident.url"] },
      'once_for | once_for: unknown property for Workflow (did you mean "onceFor"?)',
    ],
  ])("%s", async (_title, inputs, expected) => {
    const reasons = await reasonsFor(inputs);
    expect(reasons.join("\n")).toContain(expected);
  });

  test("valid minimal input passes and gets the defaults", async () => {
    const result = await workflowProvider.check!({}, { ...base, __provider: "shim" });
    expect(result.failures).toEqual([]);
    expect(result.inputs).toMatchObject({
      steps: [],
      conditionGroups: [],
      expressions: [],
      onceFor: [],
      runsOnIncidents: "newly_created",
      runsOnIncidentModes: ["standard"],
      continueOnStepError: false,
      state: "active",
    });
  });
});

// ---------- against an emulated API ----------
// The shared emulator framework (emulator/index.ts) is not in the tree yet: these tests serve the
// workflows family (emulator/families/workflows.ts) behind a minimal HTTP stub, and validate every
// request and response against the reference types in emulator/reference.json.

const reference = JSON.parse(readFileSync(join(__dirname, "../../emulator/reference.json"), "utf8")) as {
  types: Record<string, { fields: RefField[] }>;
};
interface RefField {
  name: string;
  type: string;
  required: boolean;
  enum?: string[];
  ref?: string;
}

/** Problems of `value` against reference type `typeName` (unknown fields, missing required, types, enums). */
function shapeProblems(value: unknown, typeName: string, at = ""): string[] {
  const type = reference.types[typeName];
  if (!type) return [`${at}: unknown reference type ${typeName}`];
  if (!value || typeof value !== "object" || Array.isArray(value)) return [`${at}: not an object`];
  const obj = value as Record<string, unknown>;
  const problems: string[] = [];
  const names = new Set(type.fields.map((f) => f.name));
  for (const key of Object.keys(obj)) if (!names.has(key)) problems.push(`${at}${key}: not in ${typeName}`);
  for (const f of type.fields) {
    const v = obj[f.name];
    const path = `${at}${f.name}`;
    if (v === undefined) {
      if (f.required) problems.push(`${path}: required by ${typeName}`);
      continue;
    }
    problems.push(...valueProblems(v, f.type, f, path));
  }
  return problems;
}

function valueProblems(v: unknown, type: string, f: RefField, path: string): string[] {
  if (type.startsWith("array<")) {
    if (!Array.isArray(v)) return [`${path}: not an array`];
    const inner = type.slice(6, -1);
    return v.flatMap((item, i) => valueProblems(item, inner, f, `${path}.${i}`));
  }
  if (type.startsWith("map<")) return v && typeof v === "object" ? [] : [`${path}: not a map`];
  if (type === "object") return f.ref ? shapeProblems(v, f.ref, `${path}.`) : [];
  if (type === "string") {
    if (typeof v !== "string") return [`${path}: not a string`];
    return f.enum && !f.enum.includes(v) ? [`${path}: ${v} not in enum`] : [];
  }
  if (type === "integer") return Number.isInteger(v) ? [] : [`${path}: not an integer`];
  if (type === "number") return typeof v === "number" ? [] : [`${path}: not a number`];
  if (type === "boolean") return typeof v === "boolean" ? [] : [`${path}: not a boolean`];
  return [];
}

interface Stub {
  baseUrl: string;
  calls: string[];
  store: Map<string, StoredWorkflow>;
  shapeErrors: string[];
  close(): Promise<void>;
}

/** Serves the workflows family over HTTP, validating bodies against the reference types. */
async function startWorkflowStub(): Promise<Stub> {
  const store = new Map<string, StoredWorkflow>();
  const calls: string[] = [];
  const shapeErrors: string[] = [];
  let next = 1;
  const respond = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body === undefined ? "" : JSON.stringify(body));
  };
  const invalid = (res: ServerResponse, problems: { field: string; message: string }[]) =>
    respond(res, 422, {
      type: "validation_error",
      status: 422,
      request_id: "req-stub",
      errors: problems.map((p) => ({
        code: "invalid_value",
        message: p.message,
        source: { field: p.field },
      })),
    });
  const checkResponse = (body: unknown, typeName: string) => {
    shapeErrors.push(...shapeProblems(body, typeName));
    return body;
  };
  const server = createHttpServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stub");
      calls.push(`${req.method} ${url.pathname}`);
      const body = raw ? JSON.parse(raw) : undefined;
      const id = url.pathname.match(/^\/v2\/workflows\/([^/]+)$/)?.[1];
      const found = id ? store.get(decodeURIComponent(id)) : undefined;
      if (req.method === "GET" && url.pathname === "/v2/workflows") {
        return respond(
          res,
          200,
          checkResponse(listWorkflows(store.values()), "WorkflowsListWorkflowsResultV2"),
        );
      }
      if (req.method === "POST" && url.pathname === "/v2/workflows") {
        const shape = shapeProblems(body, "WorkflowsCreateWorkflowPayloadV2").map(toProblem);
        const problems = [...shape, ...workflowProblems(body, true)];
        if (problems.length > 0) return invalid(res, problems);
        const stored = createWorkflow(`wf_${next++}`, body, "2025-01-01T00:00:00Z");
        store.set(stored.id, stored);
        return respond(res, 201, checkResponse(showWorkflow(stored), "WorkflowsCreateWorkflowResultV2"));
      }
      if (!found || found.archived) {
        return respond(res, 404, {
          type: "not_found",
          status: 404,
          request_id: "req-stub",
          errors: [{ code: "not_found", message: "workflow not found" }],
        });
      }
      if (req.method === "GET") {
        return respond(res, 200, checkResponse(showWorkflow(found), "WorkflowsShowWorkflowResultV2"));
      }
      if (req.method === "PUT") {
        const shape = shapeProblems(body, "WorkflowsUpdateWorkflowPayloadV2").map(toProblem);
        const problems = [...shape, ...workflowProblems(body, false)];
        if (problems.length > 0) return invalid(res, problems);
        const updated = updateWorkflow(found, body);
        store.set(found.id, updated);
        return respond(res, 200, checkResponse(showWorkflow(updated), "WorkflowsUpdateWorkflowResultV2"));
      }
      if (req.method === "DELETE") {
        store.set(found.id, { ...found, archived: true });
        res.writeHead(204);
        return res.end();
      }
      return respond(res, 405, { type: "method_not_allowed", status: 405, errors: [] });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    store,
    shapeErrors,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function toProblem(text: string): { field: string; message: string } {
  const i = text.indexOf(": ");
  return { field: text.slice(0, i), message: text.slice(i + 2) };
}

describe("Workflow payloads and emulator responses have the reference shapes", () => {
  test("create and update payloads validate against the reference payload types", () => {
    expect(shapeProblems(workflowPayload(declared, true), "WorkflowsCreateWorkflowPayloadV2")).toEqual([]);
    expect(shapeProblems(workflowPayload(declared, false), "WorkflowsUpdateWorkflowPayloadV2")).toEqual([]);
    const minimal = workflowInputs.parse({ name: "w", trigger: "t", includePrivateIncidents: false });
    expect(shapeProblems(workflowPayload(minimal, true), "WorkflowsCreateWorkflowPayloadV2")).toEqual([]);
  });

  test("the emulator family's responses validate against the reference result types", () => {
    const stored = createWorkflow("wf_x", workflowPayload(declared, true), "2025-01-01T00:00:00Z");
    const problems = shapeProblems(showWorkflow(stored), "WorkflowsShowWorkflowResultV2").filter(
      // cast/concatenate are echoed by the real API but absent from the generated read type.
      (p) => !/\.(cast|concatenate): not in/.test(p),
    );
    expect(problems).toEqual([]);
    expect(shapeProblems(listWorkflows([stored]), "WorkflowsListWorkflowsResultV2")).toEqual([]);
  });

  test("the emulator reproduces the read-back quirks the provider's rules undo", () => {
    const stored = createWorkflow("wf_x", workflowPayload(declared, true), "2025-01-01T00:00:00Z");
    const w = showWorkflow(stored).workflow;
    expect(w.steps[0].param_bindings.length).toBeGreaterThan(declared.steps[0]!.paramBindings.length);
    expect(w.steps[0].param_bindings[1].value.literal).toBe(
      '{"content":[{"text":"a \\u003e b"}],"type":"doc"}',
    );
    expect(w.condition_groups[0].conditions[0].operation.value).toBe("contains_one_of");
    expect(w.once_for.map((o: { key: string }) => o.key)).toEqual(["incident.severity", "incident.url"]);
    expect(w.include_private_incidents).toBe(true);
    // And the provider maps it back to exactly what was declared.
    expect(workflowFromApi({ workflow: w }, declared)).toEqual(JSON.parse(JSON.stringify(declared)));
  });
});

describe("Workflow provider CRUD against the emulated API", () => {
  let stub: Stub;
  beforeAll(async () => {
    stub = await startWorkflowStub();
    setCredentials({ apiKey: "crud-key", baseUrl: stub.baseUrl });
  });
  afterAll(async () => {
    await stub.close();
  });
  beforeEach(() => {
    stub.calls.length = 0;
    stub.shapeErrors.length = 0;
  });
  afterEach(() => expect(stub.shapeErrors).toEqual([]));

  const checked = async (inputs: Record<string, unknown>) => {
    const result = await workflowProvider.check!({}, { ...inputs, __provider: "shim" });
    expect(result.failures).toEqual([]);
    return result.inputs;
  };

  test("create → read (no drift) → update → replace on trigger → delete archives", async () => {
    const news = await checked(JSON.parse(JSON.stringify(declared)));
    const created = await workflowProvider.create!(news);
    expect(created.id).toMatch(/^wf_/);
    expect(created.outs).toMatchObject({ version: 1, triggerLabel: "Updated", managedBy: "external" });
    expect(stub.calls).toEqual(["POST /v2/workflows"]);

    // Refresh: every read-back quirk is normalised away.
    const read = await workflowProvider.read!(created.id, created.outs);
    expect(read.id).toBe(created.id);
    expect((await workflowProvider.diff!(created.id, read.props, news)).changes).toBe(false);
    expect(read.inputs).toEqual(
      Object.fromEntries(
        Object.entries(JSON.parse(JSON.stringify(declared))).filter(([k]) => k !== "adoptId"),
      ),
    );

    // Out-of-band edit (someone disables it in the dashboard): refresh shows it, update restores it.
    stub.store.get(created.id)!.payload.state = "disabled";
    const drifted = await workflowProvider.read!(created.id, created.outs);
    expect(drifted.props!.state).toBe("disabled");
    expect((await workflowProvider.diff!(created.id, drifted.props, news)).changes).toBe(true);

    const renamed = await checked({
      ...JSON.parse(JSON.stringify(declared)),
      name: "Renamed",
      delay: { forSeconds: 0 },
    });
    const updated = await workflowProvider.update!(created.id, drifted.props, renamed);
    expect(updated.outs).toMatchObject({
      name: "Renamed",
      state: "active",
      version: 2,
      delay: { forSeconds: 0 },
    });
    expect(stub.calls.at(-1)).toBe(`PUT /v2/workflows/${created.id}`);

    const retriggered = await workflowProvider.diff!(created.id, updated.outs, {
      ...renamed,
      trigger: "incident.created",
    });
    expect(retriggered.replaces).toEqual(["trigger"]);

    await workflowProvider.delete!(created.id, updated.outs);
    expect(stub.store.get(created.id)!.archived).toBe(true);
    expect((await workflowProvider.read!(created.id, updated.outs)).id).toBe("");
    // Deleting again (already archived) succeeds: the goal is reached.
    await workflowProvider.delete!(created.id, updated.outs);
  });

  test("adoption: adoptId takes over an existing workflow and converges it", async () => {
    const existing = createWorkflow(
      "wf_dashboard",
      workflowPayload(
        workflowInputs.parse({ name: "Made in the dashboard", trigger: "incident.created" }),
        true,
      ),
      "2025-01-01T00:00:00Z",
    );
    stub.store.set(existing.id, existing);
    const news = await checked({ name: "Adopted", trigger: "incident.created", adoptId: "wf_dashboard" });
    const adopted = await workflowProvider.create!(news);
    expect(adopted.id).toBe("wf_dashboard");
    expect(adopted.outs).toMatchObject({ name: "Adopted", adoptId: "wf_dashboard" });
    expect(stub.calls).toEqual(["GET /v2/workflows/wf_dashboard", "PUT /v2/workflows/wf_dashboard"]);
    const missing = await checked({ name: "x", trigger: "t", adoptId: "wf_nope" });
    await expect(workflowProvider.create!(missing)).rejects.toThrow(
      /adoptId "wf_nope": no workflow with that id/,
    );
  });

  test("a 422 from the API names the user's input path", async () => {
    // Bypass check to reach the API with a payload it refuses (negative delay).
    const bad = {
      ...workflowInputs.parse({ name: "w", trigger: "t" }),
      delay: { forSeconds: -5, conditionsApplyOverDelay: false },
    };
    await expect(workflowProvider.create!(bad)).rejects.toThrow(
      /422 validation_error: delay\.forSeconds: must be an integer/,
    );
    const contradictory = {
      ...workflowInputs.parse({ name: "w", trigger: "t" }),
      privateIncidentScope: "none",
      includePrivateIncidents: true,
    };
    await expect(workflowProvider.create!(contradictory)).rejects.toThrow(
      /includePrivateIncidents: contradicts/,
    );
  });

  test("findCreated recovers a workflow whose create response was lost (by name and trigger)", async () => {
    const args = workflowInputs.parse({ name: "Lost response", trigger: "incident.resolved" });
    await workflowSpec.api.create({ client: currentClient() }, args);
    const found = await workflowSpec.api.findCreated!({ client: currentClient() }, args);
    expect(found?.workflow.name).toBe("Lost response");
    expect(
      await workflowSpec.api.findCreated!({ client: currentClient() }, { ...args, trigger: "x" }),
    ).toBeUndefined();
  });
});

describe("Workflow preview with unknown values", () => {
  test("unknown inputs pass check and diff as changed, with no API call", async () => {
    setCredentials({ apiKey: "preview", baseUrl: "http://127.0.0.1:9" });
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const inputs = {
      name: "w",
      trigger: "t",
      onceFor: unknown,
      owningTeamIds: [unknown],
      __provider: "shim",
    };
    const checked = await workflowProvider.check!({}, inputs);
    expect(checked.failures).toEqual([]);
    const olds = workflowInputs.parse({ name: "w", trigger: "t", onceFor: ["incident.url"] });
    const result = await workflowProvider.diff!("wf_1", olds, checked.inputs);
    expect(result.changes).toBe(true);
    expect(result.replaces).toEqual([]);
  });
});
