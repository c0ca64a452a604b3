/**
 * On-call families served by the real emulator (in process): schedules, escalation paths and
 * workflows. CRUD through HTTP with the bootstrap key, 422 with `source.field` on bad payloads, every
 * response checked against its reference type.
 */
import { expectErrorBody, expectShape, startTestEmulator, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  expect(emu.responseProblems).toEqual([]);
  await emu.dispose();
});

const rotation = (extra: Record<string, unknown> = {}) => ({
  id: "rota-1",
  name: "Primary",
  handover_start_at: "2026-01-01T09:00:00+01:00",
  handovers: [{ interval: 1, interval_type: "weekly" }],
  layers: [{ name: "Layer 1" }],
  users: [{ id: "01USERADA" }, { email: "bob@example.com" }],
  ...extra,
});

function fieldsOf(body: any): string[] {
  return (body.errors ?? []).map((e: any) => e.source?.field);
}

/**
 * The tail of a CRUD test: `GET /v2/<family>` answers exactly the one object `id` (`listType`), which
 * then deletes (204), reads 404, and leaves the list empty.
 */
async function expectListedThenDeleted(family: string, listType: string, id: string): Promise<void> {
  const list = await emu.call("GET", `/v2/${family}`);
  expect(list.status).toBe(200);
  expectShape(listType, list.body);
  expect(list.body[family].map((x: any) => x.id)).toEqual([id]);

  const del = await emu.call("DELETE", `/v2/${family}/${id}`);
  expect(del.status).toBe(204);
  expect((await emu.call("GET", `/v2/${family}/${id}`)).status).toBe(404);
  expect((await emu.call("GET", `/v2/${family}`)).body[family]).toEqual([]);
}

describe("schedules v2", () => {
  test("create / show / update / list / delete", async () => {
    const created = await emu.call("POST", "/v2/schedules", {
      body: {
        schedule: { name: "Primary on-call", timezone: "Europe/London", config: { rotations: [rotation()] } },
      },
    });
    expect(created.status).toBe(201);
    expectShape("SchedulesCreateResultV2", created.body);
    const s = created.body.schedule;
    expect(s.name).toBe("Primary on-call");
    expect(s.timezone).toBe("Europe/London");
    const r = s.config.rotations[0];
    expect(r.handover_start_at).toBe("2026-01-01T08:00:00Z");
    expect(r.users.map((u: any) => u.id)).toEqual(["01USERADA", "01USERBOB"]);
    expect(r.scheduling_mode).toBe("sequential");
    expect(r.layers[0].id).toEqual(expect.any(String));

    const shown = await emu.call("GET", `/v2/schedules/${s.id}`);
    expect(shown.status).toBe(200);
    expectShape("SchedulesShowResultV2", shown.body);
    expect(shown.body.schedule.id).toBe(s.id);

    const updated = await emu.call("PUT", `/v2/schedules/${s.id}`, {
      body: {
        schedule: { name: "Renamed", config: { rotations: [rotation({ users: [{ id: "01USEREVE" }] })] } },
      },
    });
    expect(updated.status).toBe(200);
    expectShape("SchedulesUpdateResultV2", updated.body);
    expect(updated.body.schedule.name).toBe("Renamed");
    expect(updated.body.schedule.timezone).toBe("Europe/London");
    expect(updated.body.schedule.config.rotations[0].users.map((u: any) => u.id)).toEqual(["01USEREVE"]);

    await expectListedThenDeleted("schedules", "SchedulesListResultV2", s.id);
  });

  test("422 with source.field: bad time zone, time zone change, unknown user", async () => {
    const bad = await emu.call("POST", "/v2/schedules", {
      body: { schedule: { name: "X", timezone: "Mars/Olympus", config: { rotations: [] } } },
    });
    expect(bad.status).toBe(422);
    expect(fieldsOf(bad.body)).toContain("schedule.timezone");

    const unknownUser = await emu.call("POST", "/v2/schedules", {
      body: {
        schedule: {
          name: "X",
          timezone: "UTC",
          config: { rotations: [rotation({ users: [{ id: "01NOBODY" }] })] },
        },
      },
    });
    expect(unknownUser.status).toBe(422);
    expect(fieldsOf(unknownUser.body)).toContain("schedule.config.rotations.0.users.0");

    const ok = await emu.call("POST", "/v2/schedules", {
      body: { schedule: { name: "Y", timezone: "UTC", config: { rotations: [rotation()] } } },
    });
    expect(ok.status).toBe(201);
    const change = await emu.call("PUT", `/v2/schedules/${ok.body.schedule.id}`, {
      body: { schedule: { timezone: "Europe/Paris" } },
    });
    expect(change.status).toBe(422);
    expect(fieldsOf(change.body)).toContain("schedule.timezone");
    await emu.call("DELETE", `/v2/schedules/${ok.body.schedule.id}`);
  });
});

describe("schedules v2: layer ids, names, team references", () => {
  test("server layer ids are ULID-shaped and unique; names need not be unique", async () => {
    const make = () =>
      emu.call("POST", "/v2/schedules", {
        body: { schedule: { name: "Same name", timezone: "UTC", config: { rotations: [rotation()] } } },
      });
    const [a, b] = [await make(), await make()];
    expect([a.status, b.status]).toEqual([201, 201]);
    const layerA = a.body.schedule.config.rotations[0].layers[0].id;
    const layerB = b.body.schedule.config.rotations[0].layers[0].id;
    expect(layerA).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(layerB).not.toBe(layerA);
    for (const s of [a, b]) await emu.call("DELETE", `/v2/schedules/${s.body.schedule.id}`);
  });

  test("team ids must be teams (400 invalid_reference); answered sorted", async () => {
    const bad = await emu.call("POST", "/v2/schedules", {
      body: { schedule: { name: "T", timezone: "UTC", team_ids: ["01TEAMPLATFORM", "01NOTEAM"] } },
    });
    expectErrorBody(bad, 400, "invalid_request_error", "invalid_reference");
    const ok = await emu.call("POST", "/v2/schedules", {
      body: {
        schedule: {
          name: "T",
          timezone: "UTC",
          team_ids: ["01TEAMPLATFORM", "01TEAMPAYMENTS"],
          config: { rotations: [rotation()] },
        },
      },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.schedule.team_ids).toEqual(["01TEAMPAYMENTS", "01TEAMPLATFORM"]);
    const badUpdate = await emu.call("PUT", `/v2/schedules/${ok.body.schedule.id}`, {
      body: { schedule: { team_ids: ["01NOTEAM"] } },
    });
    expectErrorBody(badUpdate, 400, "invalid_request_error", "invalid_reference");
    await emu.call("DELETE", `/v2/schedules/${ok.body.schedule.id}`);
  });
});

describe("escalation paths v2", () => {
  const level = (targets: unknown[]) => ({
    id: "n1",
    type: "level",
    level: { targets, time_to_ack_seconds: 300 },
  });

  test("create / show / update / list / delete", async () => {
    const created = await emu.call("POST", "/v2/escalation_paths", {
      body: { name: "Urgent", path: [level([{ id: "01USERADA", type: "user", urgency: "high" }])] },
    });
    expect(created.status).toBe(201);
    expectShape("EscalationsCreatePathResultV2", created.body);
    const p = created.body.escalation_path;
    expect(p.name).toBe("Urgent");
    // Quirk: user targets answered twice, with an empty schedule_mode.
    expect(p.path[0].level.targets).toEqual([
      { id: "01USERADA", type: "user", urgency: "high", schedule_mode: "" },
      { id: "01USERADA", type: "user", urgency: "high", schedule_mode: "" },
    ]);
    expect(p.current_responders.map((u: any) => u.id)).toEqual(["01USERADA"]);

    const shown = await emu.call("GET", `/v2/escalation_paths/${p.id}`);
    expect(shown.status).toBe(200);
    expectShape("EscalationsShowPathResultV2", shown.body);
    expect(shown.body.escalation_path).toEqual(p);

    const updated = await emu.call("PUT", `/v2/escalation_paths/${p.id}`, {
      body: { name: "Less urgent", path: [level([{ id: "01USERBOB", type: "user", urgency: "low" }])] },
    });
    expect(updated.status).toBe(200);
    expectShape("EscalationsUpdatePathResultV2", updated.body);
    expect(updated.body.escalation_path.name).toBe("Less urgent");
    expect(updated.body.escalation_path.path[0].level.targets[0].id).toBe("01USERBOB");

    await expectListedThenDeleted("escalation_paths", "EscalationsListPathsResultV2", p.id);
  });

  test("schedule targets must exist; 422 with source.field", async () => {
    const bad = await emu.call("POST", "/v2/escalation_paths", {
      body: {
        name: "Bad",
        path: [
          level([
            { id: "01NOSCHEDULE", type: "schedule", urgency: "high", schedule_mode: "currently_on_call" },
          ]),
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(fieldsOf(bad.body)).toContain("path.0.level.targets.0.id");

    const sched = await emu.call("POST", "/v2/schedules", {
      body: { schedule: { name: "S", timezone: "UTC", config: { rotations: [rotation()] } } },
    });
    expect(sched.status).toBe(201);
    const ok = await emu.call("POST", "/v2/escalation_paths", {
      body: {
        name: "Via schedule",
        path: [
          level([
            {
              id: sched.body.schedule.id,
              type: "schedule",
              urgency: "high",
              schedule_mode: "currently_on_call",
            },
          ]),
        ],
      },
    });
    expect(ok.status).toBe(201);
    await emu.call("DELETE", `/v2/escalation_paths/${ok.body.escalation_path.id}`);
    await emu.call("DELETE", `/v2/schedules/${sched.body.schedule.id}`);
  });
});

describe("escalation paths v2: read-back and references", () => {
  const level = (extra: Record<string, unknown> = {}) => ({
    id: "n1",
    type: "level",
    level: { targets: [{ id: "01USERADA", type: "user", urgency: "high" }], ...extra },
  });

  test("no working hours are answered as []; conditions through the shared engine", async () => {
    const created = await emu.call("POST", "/v2/escalation_paths", {
      body: {
        name: "Engine",
        path: [
          {
            id: "branch",
            type: "if_else",
            if_else: {
              conditions: [
                {
                  subject: "escalation.priority",
                  operation: "one_of",
                  param_bindings: [{ value: { literal: '{"b":1,"a":">"}' } }],
                },
              ],
              then_path: [level()],
              else_path: [],
            },
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    expectShape("EscalationsCreatePathResultV2", created.body);
    const p = created.body.escalation_path;
    expect(p.working_hours).toEqual([]);
    expect(p.path[0].if_else.conditions[0]).toEqual({
      subject: { reference: "escalation.priority", label: "Priority" },
      operation: { value: "contains_one_of", label: "One of" },
      param_bindings: [
        { value: { literal: '{"a":"\\u003e","b":1}', label: '{"b":1,"a":">"}' } },
        {},
        { array_value: [] },
      ],
    });
    await emu.call("DELETE", `/v2/escalation_paths/${p.id}`);
  });

  test("422: working-hours references, empty condition subjects, bad binding values", async () => {
    const bad = await emu.call("POST", "/v2/escalation_paths", {
      body: {
        name: "Bad",
        working_hours: [
          {
            id: "office",
            name: "Office",
            timezone: "Europe/London",
            weekday_intervals: [{ weekday: "monday", start_time: "09:00", end_time: "17:00" }],
          },
        ],
        path: [
          level({ time_to_ack_interval_condition: "active", time_to_ack_weekday_interval_config_id: "nope" }),
          {
            id: "wait",
            type: "delay",
            delay: { delay_interval_condition: "active", delay_weekday_interval_config_id: "office" },
          },
          {
            id: "branch",
            type: "if_else",
            if_else: {
              conditions: [
                { subject: "", operation: "is_set", param_bindings: [] },
                {
                  subject: "escalation.priority",
                  operation: "one_of",
                  param_bindings: [{ value: { literal: "P1", reference: "x" } }],
                },
              ],
              then_path: [],
              else_path: [],
            },
          },
        ],
      },
    });
    expectErrorBody(bad, 422, "validation_error");
    expect(fieldsOf(bad.body).sort()).toEqual([
      "path.0.level.time_to_ack_weekday_interval_config_id",
      "path.2.if_else.conditions.0.subject",
      "path.2.if_else.conditions.1.param_bindings.0",
    ]);
  });

  test("team ids must be teams (400 invalid_reference); answered sorted", async () => {
    const bad = await emu.call("POST", "/v2/escalation_paths", {
      body: { name: "T", team_ids: ["01NOTEAM"], path: [level()] },
    });
    expectErrorBody(bad, 400, "invalid_request_error", "invalid_reference");
    const ok = await emu.call("POST", "/v2/escalation_paths", {
      body: { name: "T", team_ids: ["01TEAMPLATFORM", "01TEAMIDENTITY"], path: [level()] },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.escalation_path.team_ids).toEqual(["01TEAMIDENTITY", "01TEAMPLATFORM"]);
    await emu.call("DELETE", `/v2/escalation_paths/${ok.body.escalation_path.id}`);
  });
});

describe("workflows v2", () => {
  const payload = (extra: Record<string, unknown> = {}) => ({
    name: "Page on critical",
    trigger: "incident.updated",
    condition_groups: [
      {
        conditions: [
          {
            subject: "incident.severity",
            operation: "one_of",
            param_bindings: [{ array_value: [{ literal: "01SEVCRIT" }] }],
          },
        ],
      },
    ],
    steps: [
      {
        id: "step-1",
        name: "slack.post_message",
        param_bindings: [{ value: { literal: '{"b":1,"a":">"}' } }],
      },
    ],
    expressions: [],
    once_for: ["incident.url"],
    runs_on_incidents: "newly_created",
    runs_on_incident_modes: ["standard"],
    continue_on_step_error: false,
    ...extra,
  });

  test("create / show / update / list / delete", async () => {
    const created = await emu.call("POST", "/v2/workflows", { body: payload() });
    expect(created.status).toBe(201);
    expectShape("WorkflowsCreateWorkflowResultV2", created.body);
    const w = created.body.workflow;
    expect(w.name).toBe("Page on critical");
    expect(w.trigger.name).toBe("incident.updated");
    expect(w.version).toBe(1);
    // Quirks: padded param bindings, re-encoded JSON literals, operation alias.
    expect(w.steps[0].param_bindings).toEqual([
      { value: { literal: '{"a":"\\u003e","b":1}', label: '{"b":1,"a":">"}' } },
      {},
      { array_value: [] },
    ]);
    expect(w.condition_groups[0].conditions[0].operation.value).toBe("contains_one_of");

    const shown = await emu.call("GET", `/v2/workflows/${w.id}`);
    expect(shown.status).toBe(200);
    expectShape("WorkflowsShowWorkflowResultV2", shown.body);
    expect(shown.body.workflow).toEqual(w);

    const { trigger: _t, ...update } = payload({ name: "Renamed" });
    const updated = await emu.call("PUT", `/v2/workflows/${w.id}`, { body: update });
    expect(updated.status).toBe(200);
    expectShape("WorkflowsUpdateWorkflowResultV2", updated.body);
    expect(updated.body.workflow.name).toBe("Renamed");
    expect(updated.body.workflow.trigger.name).toBe("incident.updated");
    expect(updated.body.workflow.version).toBe(2);

    await expectListedThenDeleted("workflows", "WorkflowsListWorkflowsResultV2", w.id);
  });

  test("422 with source.field", async () => {
    const bad = await emu.call("POST", "/v2/workflows", {
      body: payload({ delay: { for_seconds: -5, conditions_apply_over_delay: false } }),
    });
    expect(bad.status).toBe(422);
    expect(fieldsOf(bad.body)).toContain("delay.for_seconds");

    const dupSteps = await emu.call("POST", "/v2/workflows", {
      body: payload({
        steps: [
          { id: "s", name: "a", param_bindings: [] },
          { id: "s", name: "b", param_bindings: [] },
        ],
      }),
    });
    expect(dupSteps.status).toBe(422);
    expect(fieldsOf(dupSteps.body)).toContain("steps.1.id");

    // Deep inside steps and conditions: a binding value with neither literal nor reference, an
    // empty subject.
    const deep = await emu.call("POST", "/v2/workflows", {
      body: payload({
        steps: [
          { id: "a", name: "n", param_bindings: [] },
          { id: "b", name: "n", param_bindings: [{ value: {} }] },
        ],
        condition_groups: [{ conditions: [{ subject: "", operation: "is_set", param_bindings: [] }] }],
      }),
    });
    expectErrorBody(deep, 422, "validation_error");
    expect(fieldsOf(deep.body).sort()).toEqual([
      "condition_groups.0.conditions.0.subject",
      "steps.1.param_bindings.0",
    ]);

    const contradictory = await emu.call("POST", "/v2/workflows", {
      body: payload({ private_incident_scope: "none", include_private_incidents: true }),
    });
    expectErrorBody(contradictory, 422, "validation_error", undefined, "include_private_incidents");
    expect((await emu.call("GET", "/v2/workflows")).body.workflows).toEqual([]);
  });
});

describe("workflows v2: read-back and references", () => {
  test("sets answered in another order; no owning teams answered as []; the scope derived; list is slim", async () => {
    const created = await emu.call("POST", "/v2/workflows", {
      body: {
        name: "Sets",
        trigger: "incident.created",
        condition_groups: [],
        steps: [{ id: "s", name: "slack.post_message", param_bindings: [] }],
        expressions: [
          { label: "A", reference: "a", root_reference: "incident", operations: [] },
          { label: "B", reference: "b", root_reference: "incident", operations: [] },
        ],
        once_for: ["incident.url", "incident.severity"],
        runs_on_incidents: "newly_created",
        runs_on_incident_modes: ["standard", "test"],
        continue_on_step_error: false,
        owning_team_ids: ["01TEAMPLATFORM", "01TEAMPAYMENTS"],
        include_private_incidents: true,
      },
    });
    expect(created.status).toBe(201);
    const w = created.body.workflow;
    expect(w.once_for.map((o: any) => o.key)).toEqual(["incident.severity", "incident.url"]);
    expect(w.runs_on_incident_modes).toEqual(["test", "standard"]);
    expect(w.owning_team_ids).toEqual(["01TEAMPAYMENTS", "01TEAMPLATFORM"]);
    expect(w.expressions.map((e: any) => e.reference)).toEqual(["b", "a"]);
    expect(w.steps[0].param_bindings).toEqual([{}, { array_value: [] }]);
    expect(w).toMatchObject({
      private_incident_scope: "all",
      include_private_incidents: true,
      state: "active",
    });

    const updated = await emu.call("PUT", `/v2/workflows/${w.id}`, {
      body: {
        name: "Sets",
        condition_groups: [],
        steps: [],
        expressions: [],
        once_for: [],
        runs_on_incidents: "newly_created",
        runs_on_incident_modes: ["standard"],
        continue_on_step_error: false,
      },
    });
    expect(updated.status).toBe(200);
    // A full PUT: what it leaves out is cleared.
    expect(updated.body.workflow).toMatchObject({
      owning_team_ids: [],
      private_incident_scope: "none",
      include_private_incidents: false,
      version: 2,
    });

    const list = await emu.call("GET", "/v2/workflows");
    expectShape("WorkflowsListWorkflowsResultV2", list.body);
    expect(list.body.workflows.find((x: any) => x.id === w.id).steps).toEqual([]);
    await emu.call("DELETE", `/v2/workflows/${w.id}`);
  });

  test("owning team ids must be teams (400 invalid_reference)", async () => {
    const bad = await emu.call("POST", "/v2/workflows", {
      body: {
        name: "No such team",
        trigger: "incident.created",
        condition_groups: [],
        steps: [],
        expressions: [],
        once_for: [],
        runs_on_incidents: "newly_created",
        runs_on_incident_modes: ["standard"],
        continue_on_step_error: false,
        owning_team_ids: ["01TEAMPLATFORM", "01TEAMNOBODY"],
      },
    });
    expectErrorBody(bad, 400, "invalid_request_error", "invalid_reference");
    expect((await emu.call("GET", "/v2/workflows")).body.workflows).toEqual([]);
  });
});
