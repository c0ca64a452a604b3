import { ApiClient } from "../../provider/client";
import { setCredentials } from "../../provider/credentials";
import { escalationPathPayload, escalationPathProvider } from "../../resources/escalationPath";
import {
  type ApiEscalationPathTemplate,
  type EscalationPathTemplateInputs,
  escalationPathTemplateFromApi,
  escalationPathTemplateInputs,
  escalationPathTemplatePayload,
  escalationPathTemplateProvider,
  escalationPathTemplateSpec,
  findEscalationPathTemplate,
  getEscalationPathTemplate,
} from "../../resources/escalationPathTemplate";
import { checkWarned, expectWarned } from "../support/checkWarnings";
import { dashboardEscalationPath } from "../support/dashboard";
import { expectShape, startTestEmulator, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;
let dashboardKey: string;
/** An escalation path made in the dashboard: what reassignment nodes hand over to. */
let otherPathId: string;

const dashboard = (method: string, urlPath: string, body?: unknown) =>
  emu.ok(method, urlPath, { token: dashboardKey, body });
const shown = async (id: string) =>
  (await dashboard("GET", `/v2/escalation_path_templates/${id}`)).escalation_path_template;
const canonical = escalationPathTemplateProvider.spec.canonical!;

const parse = (raw: Record<string, unknown>): EscalationPathTemplateInputs =>
  escalationPathTemplateInputs.parse(raw);

let names = 0;
/** A template with a parameter-bound level, a concrete one, a branch and a reassignment. */
const template = (extra: Record<string, unknown> = {}) =>
  parse({
    name: `Standard on-call ${++names}`,
    description: "Page the rota, then the lead",
    params: [
      { name: "lead", label: "Team lead", type: "User", allowedValueTypes: ["reference", "literal"] },
      { name: "channel", label: "Channel", type: "SlackChannel", optional: true },
    ],
    path: [
      {
        id: "start",
        level: {
          targets: [
            { type: "user", binding: { value: { reference: "lead" } }, urgency: "high" },
            { type: "user", id: "01USERADA", urgency: "low" },
          ],
          timeToAckSeconds: 300,
        },
      },
      {
        ifElse: {
          conditions: [
            {
              subject: "escalation.priority",
              operation: "one_of",
              paramBindings: [{ arrayValue: [{ literal: "P1" }] }],
            },
          ],
          thenPath: [{ escalationPath: { escalationPathId: otherPathId } }],
          elsePath: [
            {
              notifyChannel: {
                targets: [
                  { type: "slack_channel", binding: { value: { reference: "channel" } }, urgency: "low" },
                ],
              },
            },
          ],
        },
      },
      { repeat: { repeatTimes: 2, toNode: "start" } },
    ],
    ...extra,
  });

beforeAll(async () => {
  emu = await startTestEmulator({ now: Date.now });
  dashboardKey = await emu.createApiKey("dashboard", ["global_access"]);
  setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url });
  otherPathId = (
    await dashboard(
      "POST",
      "/v2/escalation_paths",
      dashboardEscalationPath("Payments", { userId: "01USERBOB" }),
    )
  ).escalation_path.id;
});
afterAll(async () => {
  await emu.dispose();
});
afterEach(() => expect(emu.responseProblems).toEqual([]));

describe("mapping", () => {
  test("the payload has the reference shape (create and update): bindings or ids as targets, derived node ids, reassignment", () => {
    const payload = escalationPathTemplatePayload(template());
    expectShape("EscalationPathTemplatesCreatePayloadV2", payload);
    expectShape("EscalationPathTemplatesUpdatePayloadV2", payload);
    const path = payload.path as any[];
    expect(path[0].level.targets).toEqual([
      { binding: { value: { reference: "lead" } }, type: "user", urgency: "high" },
      { id: "01USERADA", type: "user", urgency: "low" },
    ]);
    expect(path[1].if_else.then_path[0]).toEqual({
      id: "node-1-then-0",
      type: "escalation_path",
      escalation_path: { escalation_path_id: otherPathId },
    });
    expect(payload.params).toEqual([
      {
        name: "lead",
        label: "Team lead",
        description: "",
        type: "User",
        array: false,
        optional: false,
        allowed_value_types: ["reference", "literal"],
      },
      {
        name: "channel",
        label: "Channel",
        description: "",
        type: "SlackChannel",
        array: false,
        optional: true,
      },
    ]);
    expect(payload.expressions).toEqual([]);
  });
});

describe("normalisation vectors (read-back in another form is no diff)", () => {
  const live = (over: Partial<ApiEscalationPathTemplate>): ApiEscalationPathTemplate => ({
    id: "01T",
    name: "T",
    params: [],
    path: [
      {
        id: "node-0",
        type: "level",
        level: { targets: [{ id: "01USERADA", type: "user", urgency: "high" }] },
      },
    ],
    expressions: [],
    has_historical_escalation_path_versions: false,
    working_hours: [],
    ...over,
  });
  const declared = (over: Record<string, unknown>) =>
    parse({
      name: "T",
      path: [{ level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }] } }],
      ...over,
    });
  /** Read back against the declaration, both in canonical form (what the diff compares). */
  const sides = (d: EscalationPathTemplateInputs, answered: ApiEscalationPathTemplate) => [
    canonical(escalationPathTemplateFromApi(answered, d)),
    canonical(d),
  ];

  test.each([
    [
      "labelled binding, user target answered twice, empty schedule mode",
      declared({
        path: [
          {
            level: {
              targets: [{ type: "user", binding: { value: { reference: "lead" } }, urgency: "high" }],
            },
          },
        ],
      }),
      live({
        path: [
          {
            id: "node-0",
            type: "level",
            level: {
              targets: [
                {
                  binding: { value: { reference: "lead", label: "Lead" } } as any,
                  type: "user",
                  urgency: "high",
                  schedule_mode: "",
                },
              ],
            },
          },
        ],
      }),
    ],
    [
      "user targets answered twice",
      declared({}),
      live({
        path: [
          {
            id: "node-0",
            type: "level",
            level: {
              targets: [
                { id: "01USERADA", type: "user", urgency: "high", schedule_mode: "" },
                { id: "01USERADA", type: "user", urgency: "high", schedule_mode: "" },
              ],
            },
          },
        ],
      }),
    ],
    [
      "allowed value types in another order; description omitted answered as nothing",
      declared({
        params: [{ name: "p", label: "P", type: "User", allowedValueTypes: ["literal", "reference"] }],
      }),
      live({
        params: [
          {
            name: "p",
            label: "P",
            description: "",
            type: "User",
            array: false,
            optional: false,
            allowed_value_types: ["reference", "literal"],
          },
        ],
      }),
    ],
    [
      "a reassignment node read back",
      declared({ path: [{ escalationPath: { escalationPathId: "01EP" } }] }),
      live({
        path: [{ id: "node-0", type: "escalation_path", escalation_path: { escalation_path_id: "01EP" } }],
      }),
    ],
  ])("%s", (_rule, d, answered) => {
    const [back, declaredForm] = sides(d, answered);
    expect(back).toEqual(declaredForm);
  });

  test.each([
    [
      "another binding",
      declared({
        path: [
          {
            level: {
              targets: [{ type: "user", binding: { value: { reference: "lead" } }, urgency: "high" }],
            },
          },
        ],
      }),
      live({
        path: [
          {
            id: "node-0",
            type: "level",
            level: {
              targets: [
                { binding: { value: { reference: "deputy" } } as any, type: "user", urgency: "high" },
              ],
            },
          },
        ],
      }),
    ],
    [
      "another reassignment target",
      declared({ path: [{ escalationPath: { escalationPathId: "01EP" } }] }),
      live({
        path: [{ id: "node-0", type: "escalation_path", escalation_path: { escalation_path_id: "01OTHER" } }],
      }),
    ],
    ["a parameter removed", declared({ params: [{ name: "p", label: "P", type: "User" }] }), live({})],
  ])("a real change shows: %s", (_what, d, answered) => {
    const [back, declaredForm] = sides(d, answered);
    expect(back).not.toEqual(declaredForm);
  });
});

describe("check (zero API calls)", () => {
  const ok = () => ({
    name: "T",
    path: [{ level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }] } }],
  });
  const level = (target: Record<string, unknown>) => ({
    ...ok(),
    path: [{ level: { targets: [{ type: "user", urgency: "high", ...target }] } }],
  });
  test.each([
    [
      { ...ok(), path: [{ voicemail: true }] },
      "path",
      /path\[0\]\.voicemail: voicemail is only valid inside a call route's path/,
    ],
    [level({}), "path", /targets\[0\]\.id: set exactly one of id .* or binding/],
    [
      level({ id: "01USERADA", binding: { value: { reference: "lead" } } }),
      "path",
      /targets\[0\]\.binding: set exactly one of id/,
    ],
    [
      {
        ...ok(),
        params: [
          { name: "p", label: "P", type: "User" },
          { name: "p", label: "Q", type: "User" },
        ],
      },
      "params",
      /params\[1\]\.name: duplicate parameter name "p"/,
    ],
    [{ ...ok(), params: [{ name: "p", type: "User" }] }, "params", /params\[0\]\.label/],
    [{ ...ok(), hasHistoricalEscalationPathVersions: true }, "hasHistoricalEscalationPathVersions", /./],
  ])("%j fails at %s", async (inputs, property, reason) => {
    const mark = emu.requests.length;
    const result = await escalationPathTemplateProvider.check!({}, { ...inputs, __provider: "shim" });
    const failures = result.failures ?? [];
    expect(failures.map((f) => f.property)).toContain(property);
    expect(failures.map((f) => `${f.reason}`).join("\n")).toMatch(new RegExp(reason.source, "m"));
    expect(emu.requests.length).toBe(mark);
  });

  // No published rule forbids these: passed on with a warning naming the input path (issue 28).
  test.each([
    [{ ...ok(), name: " " }, "name", /is only whitespace/],
    [{ ...ok(), path: [] }, "path", /a template has no node/],
    [
      { ...ok(), path: [{ escalationPath: { escalationPathId: "" } }] },
      "path[0].escalationPath.escalationPathId",
      /is empty/,
    ],
    [
      { ...ok(), path: [{ id: "a", repeat: { repeatTimes: 1, toNode: "nowhere" } }] },
      "path[0].repeat.toNode",
      /no node has id "nowhere"/,
    ],
    [
      level({ binding: { value: { literal: "a", reference: "b" } } }),
      "path[0].level.targets[0].binding.value",
      /sets none or both of literal and reference/,
    ],
    [
      { ...ok(), params: [{ name: "p", label: "P", type: "User", allowedValueTypes: ["literals"] }] },
      "params[0].allowedValueTypes[0]",
      /did you mean "literal"/,
    ],
  ])("%j is passed on with a warning at %s", async (inputs, path, reason) => {
    const mark = emu.requests.length;
    await expectWarned(escalationPathTemplateProvider, inputs, path, reason);
    expect(emu.requests.length).toBe(mark);
  });

  test("a templated path without its template, or with nodes of its own, fails check naming the field", async () => {
    const check = (inputs: Record<string, unknown>) =>
      escalationPathProvider.check!({}, { name: "T", ...inputs, __provider: "shim" });
    const noTemplate = await check({ kind: "templated" });
    expect(noTemplate.failures).toEqual([
      expect.objectContaining({
        property: "templateId",
        reason: expect.stringMatching(/required when kind is templated/),
      }),
    ]);
    // What else each kind of path holds is not a published rule: warned, passed on.
    await expectWarned(
      escalationPathProvider,
      {
        name: "T",
        kind: "templated",
        templateId: "01TPL",
        path: [{ level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }] } }],
      },
      "path",
      /a templated path takes its nodes from its template/,
    );
    const standaloneWithTemplate = await checkWarned(escalationPathProvider, {
      name: "T",
      templateId: "01TPL",
      paramBindings: { lead: { value: { literal: "01USERADA" } } },
      path: [{ level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }] } }],
    });
    expect(standaloneWithTemplate.failures).toEqual([]);
    expect(standaloneWithTemplate.warnings).toEqual([
      expect.stringMatching(/: templateId: only a templated path takes a template/),
      expect.stringMatching(/: paramBindings: only a templated path binds template parameters/),
    ]);
    // An escalation path's targets take no binding (only a template's do).
    const bound = await check({
      path: [
        { level: { targets: [{ type: "user", binding: { value: { reference: "x" } }, urgency: "high" }] } },
      ],
    });
    expect(bound.failures?.map((f) => f.reason).join("\n")).toMatch(/binding/);
  });
});

describe("provider against the emulator", () => {
  test("create → read: no diff → a dashboard edit is drift → update restores → delete archives (then gone)", async () => {
    const inputs = template();
    const created = await escalationPathTemplateProvider.create!(inputs);
    expect(created.outs).toMatchObject({ name: inputs.name });
    expect(created.outs).not.toHaveProperty("hasHistoricalEscalationPathVersions");
    const live = await shown(created.id);
    expectShape("EscalationPathTemplateV2", live);
    expect(live.path[0].level.targets[0].binding.value).toMatchObject({
      reference: "lead",
      label: expect.any(String),
    });
    const read = await escalationPathTemplateProvider.read!(created.id, created.outs);
    expect((await escalationPathTemplateProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);

    // The dashboard shortens the first level's time to ack: drift.
    const payload = escalationPathTemplatePayload(inputs) as any;
    payload.path[0].level.time_to_ack_seconds = 42;
    await dashboard("PUT", `/v2/escalation_path_templates/${created.id}`, payload);
    const drifted = await escalationPathTemplateProvider.read!(created.id, read.props!);
    expect((drifted.props as any).path[0].level.timeToAckSeconds).toBe(42);
    expect((await escalationPathTemplateProvider.diff!(created.id, drifted.props!, inputs)).changes).toBe(
      true,
    );
    await escalationPathTemplateProvider.update!(created.id, drifted.props!, inputs);
    expect((await shown(created.id)).path[0].level.time_to_ack_seconds).toBe(300);

    await escalationPathTemplateProvider.delete!(created.id, drifted.props!);
    // Archived: no longer shown or listed, read as gone.
    expect((await emu.call("GET", `/v2/escalation_path_templates/${created.id}`)).status).toBe(404);
    const listed = (await dashboard("GET", "/v2/escalation_path_templates")).escalation_path_templates;
    expect(listed.map((t: any) => t.id)).not.toContain(created.id);
    expect((await escalationPathTemplateProvider.read!(created.id, drifted.props!)).id).toBe("");
  });

  test("a 422 deep in the tree names the input path; a voicemail node written directly is refused", async () => {
    const inputs = template({
      path: [{ level: { targets: [{ type: "user", id: "01USERNOBODY", urgency: "high" }] } }],
    });
    const error = await escalationPathTemplateProvider.create!(inputs).catch((e) => e);
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/path\[0\]\.level\.targets\[0\]\.id: no user with id "01USERNOBODY"/);
    const reassign = await escalationPathTemplateProvider.create!(
      template({ path: [{ escalationPath: { escalationPathId: "01EPMISSING" } }] }),
    ).catch((e) => e);
    expect(reassign.message).toMatch(
      /path\[0\]\.escalationPath\.escalationPathId: no escalation path with id "01EPMISSING"/,
    );
    const voicemail = await emu.call("POST", "/v2/escalation_path_templates", {
      body: { name: "VM", path: [{ id: "a", type: "voicemail" }] },
    });
    expect(voicemail.status).toBe(422);
    expect(voicemail.body.errors).toEqual([
      expect.objectContaining({
        message: "voicemail is only valid inside a call route's path",
        source: { field: "path.0.type" },
      }),
    ]);
  });

  test("adoption by id: an equal declaration makes no write", async () => {
    const declared = template({ name: "Made by hand" });
    const existing = (
      await dashboard("POST", "/v2/escalation_path_templates", escalationPathTemplatePayload(declared))
    ).escalation_path_template;
    const mark = emu.requests.length;
    const adopted = await escalationPathTemplateProvider.create!({ ...declared, adoptId: existing.id });
    expect(adopted.id).toBe(existing.id);
    expect(emu.requests.slice(mark).filter((r) => r.method !== "GET")).toEqual([]);
  });

  test("a templated path: built from the template, its bindings checked; archiving the template keeps the path but no write can use it", async () => {
    const t = await escalationPathTemplateProvider.create!(template());
    const pathInputs = (extra: Record<string, unknown> = {}) => ({
      name: `Templated ${++names}`,
      kind: "templated" as const,
      templateId: t.id,
      paramBindings: { lead: { value: { literal: "01USERBOB" } } },
      path: [],
      teamIds: [],
      ...extra,
    });
    const path = await escalationPathProvider.create!(pathInputs());
    const live = (await dashboard("GET", `/v2/escalation_paths/${path.id}`)).escalation_path;
    expectShape("EscalationPathV2", live);
    expect(live).toMatchObject({ kind: "templated", template_id: t.id, path: [] });
    expect(live).not.toHaveProperty("working_hours");
    const read = await escalationPathProvider.read!(path.id, path.outs);
    expect(read.props).toMatchObject({
      kind: "templated",
      templateId: t.id,
      paramBindings: pathInputs().paramBindings,
    });
    expect(
      (await escalationPathProvider.diff!(path.id, read.props!, pathInputs({ name: read.props!.name })))
        .changes,
    ).toBe(false);
    expect((await shown(t.id)).has_historical_escalation_path_versions).toBe(true);

    // An unknown template, an unknown parameter and a required parameter left unbound: 422s naming the inputs.
    const unknown = await escalationPathProvider.create!(pathInputs({ templateId: "01TPLMISSING" })).catch(
      (e) => e,
    );
    expect(unknown.status).toBe(422);
    expect(unknown.message).toMatch(/templateId: no escalation path template with id "01TPLMISSING"/);
    const badParam = await escalationPathProvider.create!(
      pathInputs({
        paramBindings: { lead: { value: { literal: "01USERBOB" } }, nope: { value: { literal: "x" } } },
      }),
    ).catch((e) => e);
    expect(badParam.message).toMatch(/paramBindings\.nope: the template declares no such parameter/);
    const unbound = await escalationPathProvider.create!(pathInputs({ paramBindings: {} })).catch((e) => e);
    expect(unbound.message).toMatch(/paramBindings\.lead: is required/);

    // Archived while a path uses it: the path keeps it, but no path can be written to use it.
    await escalationPathTemplateProvider.delete!(t.id, t.outs);
    expect((await escalationPathTemplateProvider.read!(t.id, t.outs)).id).toBe("");
    const kept = await escalationPathProvider.read!(path.id, read.props!);
    expect(kept.props).toMatchObject({ templateId: t.id });
    const archived = await escalationPathProvider.update!(
      path.id,
      kept.props!,
      pathInputs({ name: read.props!.name, teamIds: ["01TEAMPLATFORM"] }),
    ).catch((e) => e);
    expect(archived.message).toMatch(/templateId: no escalation path template with id/);
    await escalationPathProvider.delete!(path.id, kept.props!);
  });

  test("a reassignment node in an escalation path: the target must exist, and a path cannot reassign to itself", async () => {
    const inputs = {
      name: `Reassigns ${++names}`,
      path: [
        { level: { targets: [{ type: "user" as const, id: "01USERADA", urgency: "high" as const }] } },
        { escalationPath: { escalationPathId: otherPathId } },
      ],
      teamIds: [],
    };
    const made = await escalationPathProvider.create!(inputs);
    const live = (await dashboard("GET", `/v2/escalation_paths/${made.id}`)).escalation_path;
    expect(live.path[1]).toEqual({
      id: "node-1",
      type: "escalation_path",
      escalation_path: { escalation_path_id: otherPathId },
    });
    const read = await escalationPathProvider.read!(made.id, made.outs);
    expect((await escalationPathProvider.diff!(made.id, read.props!, inputs)).changes).toBe(false);
    const self = await escalationPathProvider.update!(made.id, read.props!, {
      ...inputs,
      path: [{ escalationPath: { escalationPathId: made.id } }],
    }).catch((e) => e);
    expect(self.message).toMatch(
      /path\[0\]\.escalationPath\.escalationPathId: a path cannot reassign to itself/,
    );
    const missing = await emu.call("POST", "/v2/escalation_paths", {
      body: escalationPathPayload({
        ...inputs,
        path: [{ escalationPath: { escalationPathId: "01EPMISSING" } }],
      } as never),
    });
    expect(missing.status).toBe(422);
    expect(missing.text).toMatch(/path\.0\.escalation_path\.escalation_path_id/);
  });

  test("export lists the active templates, every page", async () => {
    for (let i = 0; i < 3; i++)
      await dashboard("POST", "/v2/escalation_path_templates", escalationPathTemplatePayload(template()));
    const listed = await emu.ok("GET", "/v2/escalation_path_templates?page_size=2");
    expect(listed.pagination_meta.after).toBeDefined();
    const all = (await dashboard("GET", "/v2/escalation_path_templates?page_size=1000"))
      .escalation_path_templates;
    expect(escalationPathTemplateSpec.list?.pageSize).toBe(25);
    expect(all.length).toBeGreaterThanOrEqual(3);
  });
});

describe("getEscalationPathTemplate (by name or id)", () => {
  test("by exact name (searched, matched again), by id; a near miss is suggested; none found names the argument", async () => {
    const made = (
      await dashboard(
        "POST",
        "/v2/escalation_path_templates",
        escalationPathTemplatePayload(template({ name: "Lookup template" })),
      )
    ).escalation_path_template;
    await dashboard(
      "POST",
      "/v2/escalation_path_templates",
      escalationPathTemplatePayload(template({ name: "Lookup template (copy)" })),
    );
    const expected = {
      id: made.id,
      name: "Lookup template",
      description: "Page the rota, then the lead",
      paramNames: ["lead", "channel"],
      hasHistoricalEscalationPathVersions: false,
    };
    const client = { apiKey: dashboardKey, baseUrl: emu.url };
    process.env.INCIDENT_API_KEY = client.apiKey;
    process.env.INCIDENT_BASE_URL = client.baseUrl;
    const mark = emu.requests.length;
    expect(await getEscalationPathTemplate({ name: "Lookup template" })).toEqual(expected);
    expect(emu.requests.slice(mark).map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v2/escalation_path_templates",
    ]);
    expect(emu.requests[mark]?.query).toMatch(/search=Lookup/);
    expect(await getEscalationPathTemplate({ id: made.id })).toEqual(expected);
    await expect(getEscalationPathTemplate({ name: "lookup template" })).rejects.toThrow(
      'getEscalationPathTemplate: no escalation path template named "lookup template" (did you mean "Lookup template"?)',
    );
    await expect(getEscalationPathTemplate({ id: "01TPLMISSING" })).rejects.toThrow(
      'getEscalationPathTemplate: no escalation path template with id "01TPLMISSING"',
    );
    // An archived template is not found.
    await dashboard("DELETE", `/v2/escalation_path_templates/${made.id}`);
    await expect(findEscalationPathTemplate(new ApiClient(client), { id: made.id })).rejects.toThrow(
      /no escalation path template with id/,
    );
  });

  test("arguments are checked before any request", async () => {
    const mark = emu.requests.length;
    await expect(getEscalationPathTemplate({ name: "" })).rejects.toThrow(
      "getEscalationPathTemplate: name: must not be empty",
    );
    await expect(getEscalationPathTemplate({ name: "x", id: "y" })).rejects.toThrow(
      /getEscalationPathTemplate: .*exactly one of name or id/,
    );
    await expect(getEscalationPathTemplate({})).rejects.toThrow(/exactly one of name or id/);
    expect(emu.requests.length).toBe(mark);
  });
});

describe("never stricter than the service (issue 28)", () => {
  /** The Terraform provider's own template example: a schedule target bound to a parameter. */
  const boundRota = () => ({
    name: `Team on-call ${++names}`,
    params: [{ name: "primary_schedule", label: "Primary schedule", type: "Schedule" }],
    path: [
      {
        level: {
          targets: [
            {
              type: "schedule",
              urgency: "high",
              scheduleMode: "currently_on_call_for_rota",
              binding: { value: { reference: "primary_schedule" } },
            },
          ],
          timeToAckSeconds: 300,
        },
      },
    ],
  });

  test("a bound target with a *_for_rota mode and no selectedRotaId passes check, is created and reads back with no diff", async () => {
    const checked = await escalationPathTemplateProvider.check!({}, { ...boundRota(), __provider: "shim" });
    expect(checked.failures ?? []).toEqual([]);
    const inputs = parse(boundRota());
    const created = await escalationPathTemplateProvider.create!(inputs);
    const read = await escalationPathTemplateProvider.read!(created.id, created.outs);
    expect((await escalationPathTemplateProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);
    await escalationPathTemplateProvider.delete!(created.id, read.props!);
  });

  test("an unbound target's rota rule has no source in the template's reference: passed on, not refused", async () => {
    const unbound = {
      ...boundRota(),
      path: [
        {
          level: {
            targets: [
              { type: "schedule", id: "01SCHED", urgency: "high", scheduleMode: "next_on_call_for_rota" },
            ],
          },
        },
      ],
    };
    await expectWarned(
      escalationPathTemplateProvider,
      unbound,
      "path[0].level.targets[0].selectedRotaId",
      /required when scheduleMode is next_on_call_for_rota in an escalation path/,
    );
    // A bound one is not warned about: the binding decides who is paged.
    expect((await checkWarned(escalationPathTemplateProvider, boundRota())).warnings).toEqual([]);
  });

  test("state stored before the flag was dropped (schema 1) reads back in the current shape, with no diff", async () => {
    const inputs = template();
    const t = await escalationPathTemplateProvider.create!(inputs);
    const stored = { ...t.outs, hasHistoricalEscalationPathVersions: false, __schema: 1 };
    expect((await escalationPathTemplateProvider.diff!(t.id, stored, inputs)).changes).toBe(false);
    const read = await escalationPathTemplateProvider.read!(t.id, stored);
    expect(read.props).toEqual(t.outs);
    expect(read.props).toMatchObject({ __schema: 2 });
  });

  test("a templated path using the template flips its server flag: a refresh of the template stores no change", async () => {
    const inputs = template();
    const t = await escalationPathTemplateProvider.create!(inputs);
    const before = await escalationPathTemplateProvider.read!(t.id, t.outs);
    expect(before.props).toEqual(t.outs);
    const path = await escalationPathProvider.create!({
      name: `Templated ${++names}`,
      kind: "templated",
      templateId: t.id,
      paramBindings: {
        lead: { value: { literal: "01USERADA" } },
        channel: { value: { literal: "C0123" } },
      },
    });
    expect((await shown(t.id)).has_historical_escalation_path_versions).toBe(true);
    const after = await escalationPathTemplateProvider.read!(t.id, before.props!);
    expect(after.props).toEqual(before.props);
    expect((await escalationPathTemplateProvider.diff!(t.id, after.props!, inputs)).changes).toBe(false);
    await escalationPathProvider.delete!(path.id, path.outs);
  });
});
