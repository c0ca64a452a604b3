/**
 * Alert attributes (v2), alert sources (v2) and alert routes (v3) served by the real emulator:
 * CRUD through HTTP with the bootstrap key, 422 with `source.field`, reference-shaped responses.
 */
import { type RunningEmulator, startEmulator } from "../../emulator";
import { ALERT_CONFIG_GATE_STAGE, installAlertConfigGate } from "../../emulator/families/alertSources";
import { alertRouteInputs, alertRoutePayload } from "../../resources/alertRoute";
import { alertSourceInputs, alertSourcePayload } from "../../resources/alertSource";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => {
  expect(emu.responseProblems).toEqual([]);
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${emu.apiKey}`,
      accept: "application/json",
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

function fields(body: any): string[] {
  return (body?.errors ?? []).map((e: any) => e.source?.field);
}

let attributeId = "";
let sourceId = "";

describe("alert attributes v2", () => {
  test("create / show / update / list / delete", async () => {
    const created = await call("POST", "/v2/alert_attributes", {
      name: "Service",
      type: "String",
      array: false,
      emoji: ":fire:",
    });
    expect(created.status).toBe(201);
    const a = created.body.alert_attribute;
    expect(a).toEqual({
      id: expect.any(String),
      name: "Service",
      type: "String",
      array: false,
      required: false,
      emoji: "fire",
    });

    expect((await call("GET", `/v2/alert_attributes/${a.id}`)).body.alert_attribute).toEqual(a);

    const updated = await call("PUT", `/v2/alert_attributes/${a.id}`, {
      name: "Team",
      type: "String",
      array: true,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.alert_attribute).toEqual({
      id: a.id,
      name: "Team",
      type: "String",
      array: true,
      required: false,
    });

    const other = await call("POST", "/v2/alert_attributes", {
      name: "Another",
      type: "String",
      array: false,
    });
    expect(other.status).toBe(201);
    const list = await call("GET", "/v2/alert_attributes");
    expect(list.body.alert_attributes.map((x: any) => x.name)).toEqual(["Another", "Team"]);

    expect((await call("DELETE", `/v2/alert_attributes/${a.id}`)).status).toBe(204);
    expect((await call("GET", `/v2/alert_attributes/${a.id}`)).status).toBe(404);
    attributeId = other.body.alert_attribute.id;
  });

  test("422 with source.field", async () => {
    const dup = await call("POST", "/v2/alert_attributes", { name: "Another", type: "String", array: false });
    expect(dup.status).toBe(422);
    expect(fields(dup.body)).toContain("name");
    const bad = await call("POST", "/v2/alert_attributes", { name: "X", type: "String" });
    expect(bad.status).toBe(422);
    expect(fields(bad.body)).toContain("array");
  });
});

describe("alert sources v2", () => {
  const source = (over: Record<string, unknown> = {}) =>
    alertSourcePayload(
      alertSourceInputs.parse({
        name: "Payments webhook",
        sourceType: "http",
        template: {
          title: "{{ alert.title }}",
          description: "Sent by {{ alert.source }}",
          attributes: [{ alertAttributeId: attributeId, binding: { value: { reference: "alert.title" } } }],
        },
        ...over,
      }),
      true,
    ) as any;

  test("create / show / update / list / delete", async () => {
    const created = await call("POST", "/v2/alert_sources", source());
    expect(created.status).toBe(200);
    const s = created.body.alert_source;
    expect(s.name).toBe("Payments webhook");
    expect(s.source_type).toBe("http");
    expect(typeof s.secret_token).toBe("string");
    // Events go to the API that serves the source: here the emulator itself.
    expect(s.alert_events_url).toBe(`${emu.url}/v2/alert_events/http/${s.id}`);
    expect(s.template.attributes).toEqual([expect.objectContaining({ alert_attribute_id: attributeId })]);

    expect((await call("GET", `/v2/alert_sources/${s.id}`)).body.alert_source).toEqual(s);

    const { source_type: _t, ...update } = source({ name: "Renamed" });
    const updated = await call("PUT", `/v2/alert_sources/${s.id}`, update);
    expect(updated.status).toBe(200);
    expect(updated.body.alert_source.name).toBe("Renamed");
    expect(updated.body.alert_source.source_type).toBe("http");

    const list = await call("GET", "/v2/alert_sources");
    expect(list.body.alert_sources.map((x: any) => x.id)).toEqual([s.id]);

    const second = await call("POST", "/v2/alert_sources", source({ name: "Second" }));
    expect(second.status).toBe(200);
    expect((await call("DELETE", `/v2/alert_sources/${s.id}`)).status).toBe(204);
    expect((await call("GET", `/v2/alert_sources/${s.id}`)).status).toBe(404);
    sourceId = second.body.alert_source.id;
  });

  test("422 with source.field", async () => {
    const body = source({ name: "Bad" });
    body.template.attributes[0].alert_attribute_id = "01NOSUCHATTRIBUTE";
    const bad = await call("POST", "/v2/alert_sources", body);
    expect(bad.status).toBe(422);
    expect(fields(bad.body)).toContain("template.attributes.0.alert_attribute_id");
  });

  test("an owning team that does not exist: 400 invalid_reference, nothing created", async () => {
    const before = (await call("GET", "/v2/alert_sources")).body.alert_sources.length;
    const bad = await call("POST", "/v2/alert_sources", {
      ...source({ name: "Teamless" }),
      owning_team_ids: ["01TEAMPLATFORM", "01NOSUCHTEAM"],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe("invalid_reference");
    expect(bad.body.errors[0].message).toContain("01NOSUCHTEAM");
    expect((await call("GET", "/v2/alert_sources")).body.alert_sources).toHaveLength(before);
    const { source_type: _t, ...update } = source({ name: "Payments webhook" });
    const badUpdate = await call("PUT", `/v2/alert_sources/${sourceId}`, {
      ...update,
      owning_team_ids: ["01NOSUCHTEAM"],
    });
    expect(badUpdate.status).toBe(400);
    expect(badUpdate.body.errors[0].code).toBe("invalid_reference");
  });

  // Before issue 11 the family had renderers of its own that skipped the shared quirks.
  test("bindings and expressions through the shared engine renderers: aliases, padding, private channels, literals, returns", async () => {
    const body = source({ name: "Engine read-back" });
    body.template.attributes[0].binding = { value: { literal: "1.50" } };
    body.template.expressions = [
      {
        label: "Channel",
        reference: "channel",
        root_reference: "alert",
        operations: [
          {
            operation_type: "branches",
            branches: {
              branches: [
                {
                  condition_groups: [
                    {
                      conditions: [
                        {
                          subject: "alert.title",
                          operation: "one_of",
                          param_bindings: [{ array_value: [{ literal: "Disk full" }] }],
                        },
                      ],
                    },
                  ],
                  result: { value: { literal: "C0PRIVATE42" } },
                },
              ],
              returns: { type: "SlackChannel", array: false },
            },
          },
        ],
      },
    ];
    const created = await call("POST", "/v2/alert_sources", body);
    expect(created.status).toBe(200);
    const template = created.body.alert_source.template;
    // A literal that is not a JSON object or array is answered as written ("canonical JSON literals").
    expect(template.attributes[0].binding.value).toEqual({ literal: "1.50", label: "1.50" });
    const [expression] = template.expressions;
    // The expression returns what its last operation returns.
    expect(expression.returns).toEqual({ type: "SlackChannel", array: false });
    const branch = expression.operations[0].branches.branches[0];
    const condition = branch.condition_groups[0].conditions[0];
    expect(condition.operation).toEqual({ value: "contains_one_of", label: "One of" }); // "operation aliases"
    expect(condition.subject).toEqual({ reference: "alert.title", label: "Title" });
    // "padded param bindings": the written binding, then the API's trailing empty ones.
    expect(condition.param_bindings).toEqual([
      { array_value: [{ literal: "Disk full", label: "Disk full" }] },
      {},
      { array_value: [] },
    ]);
    // "private channels as catalog ids": a private Slack channel comes back as its catalog entry id.
    expect(branch.result.value.label).toBe("C0PRIVATE42");
    expect(branch.result.value.literal).toMatch(/^01K[0-9A-HJKMNP-TV-Z]{23}$/);
    expect((await call("DELETE", `/v2/alert_sources/${created.body.alert_source.id}`)).status).toBe(204);
  });
});

describe("the account's one alert configuration (installAlertConfigGate)", () => {
  test("overlapping writes: whoever is second gets a 409 conflict and changes nothing; reads are not held", async () => {
    const gate = installAlertConfigGate(emu.pipeline);
    try {
      const attribute = (name: string) =>
        call("POST", "/v2/alert_attributes", { name, type: "String", array: false });
      // The first write is held inside the gate (by order, not by a timer) while the others arrive.
      const held = gate.holdNextWrite();
      const pending = attribute("Gate 1");
      await held.entered;
      const [second, read] = await Promise.all([attribute("Gate 2"), call("GET", "/v2/alert_attributes")]);
      held.release();
      const first = await pending;
      expect(first.status).toBe(201);
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({ type: "conflict", status: 409, errors: [{ code: "conflict" }] });
      expect(read.status).toBe(200);
      expect(gate.conflicts).toBe(1);
      const names = (await call("GET", "/v2/alert_attributes")).body.alert_attributes.map((a: any) => a.name);
      expect(names).toContain("Gate 1");
      expect(names).not.toContain("Gate 2");
      // One after the other: both succeed.
      expect((await attribute("Gate 2")).status).toBe(201);
      expect(gate.conflicts).toBe(1);
    } finally {
      emu.pipeline.remove(ALERT_CONFIG_GATE_STAGE);
    }
    for (const name of ["Gate 1", "Gate 2"]) {
      const { body } = await call("GET", "/v2/alert_attributes");
      const id = body.alert_attributes.find((a: any) => a.name === name).id;
      expect((await call("DELETE", `/v2/alert_attributes/${id}`)).status).toBe(204);
    }
  });
});

describe("alert routes v3", () => {
  const route = (over: Record<string, unknown> = {}, version?: number) =>
    alertRoutePayload(
      alertRouteInputs.parse({
        name: "Payments alerts",
        alertSources: [{ alertSourceId: sourceId }],
        ...over,
      }),
      version,
    ) as any;

  test("create / show / update / list / delete", async () => {
    const created = await call("POST", "/v3/alert_routes", route());
    expect(created.status).toBe(201);
    const r = created.body.alert_route;
    expect(r.name).toBe("Payments alerts");
    expect(r.version).toBe(1);

    expect((await call("GET", `/v3/alert_routes/${r.id}`)).body.alert_route).toEqual(r);

    const stale = await call("PUT", `/v3/alert_routes/${r.id}`, route({ name: "Renamed" }, 1));
    expect(stale.status).toBe(409);
    const updated = await call("PUT", `/v3/alert_routes/${r.id}`, route({ name: "Renamed" }, 2));
    expect(updated.status).toBe(200);
    expect(updated.body.alert_route.name).toBe("Renamed");
    expect(updated.body.alert_route.version).toBe(2);

    const list = await call("GET", "/v3/alert_routes");
    expect(list.body.alert_routes).toEqual([expect.objectContaining({ id: r.id, name: "Renamed" })]);

    expect((await call("DELETE", `/v3/alert_routes/${r.id}`)).status).toBe(204);
    expect((await call("GET", `/v3/alert_routes/${r.id}`)).status).toBe(404);
  });

  test("422 with source.field", async () => {
    const bad = await call(
      "POST",
      "/v3/alert_routes",
      route({ alertSources: [{ alertSourceId: "01NOSUCHSOURCE" }] }),
    );
    expect(bad.status).toBe(422);
    expect(fields(bad.body)).toContain("alert_sources.0.alert_source_id");
  });

  test("an owning team that does not exist: 400 invalid_reference", async () => {
    const bad = await call("POST", "/v3/alert_routes", route({ owningTeamIds: ["01NOSUCHTEAM"] }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe("invalid_reference");
  });
});
