/**
 * The alert routes family (v3) over HTTP: the version counter (409 `conflict` unless version =
 * latest + 1), references to live alert sources and escalation paths (422 with `source.field`),
 * paginated slim lists, roles, and reference-shaped responses. The provider's side is in
 * test/resources/alertRoute.test.ts.
 */
import { dashboardHttpSource } from "../support/alertEmulator";
import { dashboardEscalationPath } from "../support/dashboard";
import { expectErrorBody, expectShape, startTestEmulator, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;
let sourceId = "";
let pathId = "";

/** A minimal valid create payload (`AlertRoutesCreatePayloadV3`). */
const route = (over: Record<string, unknown> = {}) => ({
  name: "Payments",
  enabled: true,
  is_private: false,
  alert_sources: [{ alert_source_id: sourceId, condition_groups: [] }],
  condition_groups: [],
  expressions: [],
  escalation_config: {
    auto_cancel_escalations: false,
    escalation_targets: [{ escalation_paths: { array_value: [{ literal: pathId }] } }],
  },
  grouping_config: { default: { enabled: false } },
  incident_config: { enabled: false },
  message_config: { destinations: [] },
  ...over,
});

const fields = (body: any): string[] => (body?.errors ?? []).map((e: any) => e.source?.field);

/** Creates with the bootstrap key (must succeed); answers the object under `key` of the reply. */
const created = async (path: string, body: unknown, key: string) =>
  (await emu.ok("POST", path, { body }))[key];

const newPath = async (name: string) =>
  (
    await created(
      "/v2/escalation_paths",
      dashboardEscalationPath(name, { userId: "01USERADA" }),
      "escalation_path",
    )
  ).id as string;

beforeAll(async () => {
  emu = await startTestEmulator();
  sourceId = (await created("/v2/alert_sources", dashboardHttpSource("Webhook"), "alert_source")).id;
  pathId = await newPath("Urgent");
});
afterAll(() => emu.dispose());
afterEach(() => expect(emu.responseProblems).toEqual([]));

test("version counter: an update must carry latest + 1; a stale or skipped version is a 409 conflict", async () => {
  const r = await created("/v3/alert_routes", route(), "alert_route");
  expect(r.version).toBe(1);
  const put = (version: number, over: Record<string, unknown> = {}) =>
    emu.call("PUT", `/v3/alert_routes/${r.id}`, { body: { ...route(over), version } });

  for (const stale of [1, 3]) {
    const reply = await put(stale, { name: "Never" });
    expectErrorBody(reply, 409, "conflict", "conflict");
    expect(reply.body.errors[0].message).toMatch(/version must be 2/);
  }
  const ok = await put(2, { name: "Renamed" });
  expect(ok.status).toBe(200);
  expectShape("AlertRoutesUpdateResultV3", ok.body);
  expect(ok.body.alert_route).toMatchObject({ name: "Renamed", version: 2 });
  // A second writer holding version 1 cannot overwrite the change.
  expectErrorBody(await put(2, { name: "Lost update" }), 409, "conflict", "conflict");
  expect((await emu.call("GET", `/v3/alert_routes/${r.id}`)).body.alert_route).toMatchObject({
    name: "Renamed",
    version: 2,
  });
  // A PUT without version fails the reference shape (422 is_required), before any conflict check.
  const missing = await emu.call("PUT", `/v3/alert_routes/${r.id}`, { body: route() });
  expectErrorBody(missing, 422, "validation_error", "is_required", "version");
  expect((await emu.call("DELETE", `/v3/alert_routes/${r.id}`)).status).toBe(204);
});

test("references: alert sources and literal escalation paths must be live (422 with source.field)", async () => {
  const bad = await emu.call("POST", "/v3/alert_routes", {
    body: route({
      alert_sources: [{ alert_source_id: "01NOSOURCE", condition_groups: [] }],
      escalation_config: {
        auto_cancel_escalations: false,
        escalation_targets: [
          { escalation_paths: { array_value: [{ literal: pathId }, { literal: "01NOPATH" }] } },
          { escalation_paths: { value: { literal: "01NOPATH" } } },
          { escalation_paths: { value: { reference: 'expressions["path"]' } } },
        ],
      },
    }),
  });
  expectErrorBody(bad, 422, "validation_error");
  expect(fields(bad.body).sort()).toEqual([
    "alert_sources.0.alert_source_id",
    "escalation_config.escalation_targets.0.escalation_paths",
    "escalation_config.escalation_targets.1.escalation_paths",
  ]);

  const archived = await newPath("Archived soon");
  expect((await emu.call("DELETE", `/v2/escalation_paths/${archived}`)).status).toBe(204);
  const toArchived = await emu.call("POST", "/v3/alert_routes", {
    body: route({
      escalation_config: {
        auto_cancel_escalations: false,
        escalation_targets: [{ escalation_paths: { value: { literal: archived } } }],
      },
    }),
  });
  expectErrorBody(
    toArchived,
    422,
    "validation_error",
    "invalid_value",
    "escalation_config.escalation_targets.0.escalation_paths",
  );
  expect((await emu.call("GET", "/v3/alert_routes")).body.alert_routes).toEqual([]);
});

test("list: slim items, paginated with page_size and after", async () => {
  const ids: string[] = [];
  for (const name of ["One", "Two", "Three"]) {
    ids.push((await created("/v3/alert_routes", route({ name }), "alert_route")).id);
  }
  const first = await emu.call("GET", "/v3/alert_routes?page_size=2");
  expect(first.status).toBe(200);
  expectShape("AlertRoutesListResultV3", first.body);
  expect(first.body.alert_routes).toEqual([
    { id: ids[0], name: "One", enabled: true },
    { id: ids[1], name: "Two", enabled: true },
  ]);
  expect(first.body.pagination_meta).toEqual({ page_size: 2, after: ids[1] });
  const second = await emu.call("GET", `/v3/alert_routes?page_size=2&after=${ids[1]}`);
  expectShape("AlertRoutesListResultV3", second.body);
  expect(second.body.alert_routes.map((r: any) => r.id)).toEqual([ids[2]]);
  expect(second.body.pagination_meta).toEqual({ page_size: 2 });
  const all = await emu.call("GET", "/v3/alert_routes");
  expect(all.body.alert_routes.map((r: any) => r.id)).toEqual(ids);
  expect(all.body.pagination_meta).toEqual({ page_size: 25 });
  for (const id of ids) expect((await emu.call("DELETE", `/v3/alert_routes/${id}`)).status).toBe(204);
});

test("roles: viewer reads, manage_settings writes; unknown ids are 404", async () => {
  const r = await created("/v3/alert_routes", route(), "alert_route");
  const viewer = await emu.createApiKey("viewer", ["viewer"]);
  const editor = await emu.createApiKey("editor", ["manage_settings"]);
  const shown = await emu.call("GET", `/v3/alert_routes/${r.id}`, { token: viewer });
  expect(shown.status).toBe(200);
  expectShape("AlertRoutesShowResultV3", shown.body);
  const denied = await emu.call("PUT", `/v3/alert_routes/${r.id}`, {
    token: viewer,
    body: { ...route(), version: 2 },
  });
  expectErrorBody(denied, 403, "resource_forbidden");
  const allowed = await emu.call("PUT", `/v3/alert_routes/${r.id}`, {
    token: editor,
    body: { ...route({ enabled: false }), version: 2 },
  });
  expect(allowed.status).toBe(200);
  expect(allowed.body.alert_route.enabled).toBe(false);
  expectErrorBody(await emu.call("GET", "/v3/alert_routes/01NOROUTE"), 404, "not_found");
  expectErrorBody(
    await emu.call("PUT", "/v3/alert_routes/01NOROUTE", { body: { ...route(), version: 2 } }),
    404,
    "not_found",
  );
  expect((await emu.call("DELETE", `/v3/alert_routes/${r.id}`, { token: editor })).status).toBe(204);
  expectErrorBody(await emu.call("DELETE", `/v3/alert_routes/${r.id}`), 404, "not_found");
});
