import * as path from "node:path";
import { ALERT_ROUTES, type StoredAlertRoute } from "../../emulator/families/alertRoutes";
import { dashboardHttpSource } from "../support/alertEmulator";
import { dashboardEscalationPath } from "../support/dashboard";
import { describeLifecycle, type LifecycleApi } from "../support/lifecycle";

/** What the program refers to, created through the API in `setup`. */
const refs = { alertSourceA: "", alertSourceB: "", escalationPathId: "" };

/** Every route, in full (the list answers slim items: each is shown). */
async function allRoutes({ call }: LifecycleApi): Promise<any[]> {
  const out: any[] = [];
  let after: string | undefined;
  do {
    const page = await call("GET", `/v3/alert_routes?page_size=25${after ? `&after=${after}` : ""}`);
    for (const slim of page.alert_routes)
      out.push((await call("GET", `/v3/alert_routes/${slim.id}`)).alert_route);
    after = page.pagination_meta.after;
  } while (after);
  return out;
}

/** The program's declared (base) route. */
function expectDeclared(route: any, name: string): void {
  expect(route.name).toBe(name);
  expect(route.enabled).toBe(true);
  expect(route.alert_sources.map((s: any) => s.alert_source_id).sort()).toEqual(
    [refs.alertSourceA, refs.alertSourceB].sort(),
  );
  expect(route.escalation_config.escalation_targets).toEqual([
    // The API echoes the escalation-paths binding into `users` (TF #390/#401; rule "echoed users").
    {
      escalation_paths: { array_value: [{ literal: refs.escalationPathId }] },
      users: { array_value: [{ literal: refs.escalationPathId }] },
    },
  ]);
  expect(route.grouping_config.default).toMatchObject({ enabled: true, window_seconds: 900 });
  expect(route.incident_config.enabled).toBe(true);
}

describeLifecycle("AlertRoute", {
  program: path.join(__dirname, "../fixtures/alertRoute/program"),
  setup: async ({ call }) => {
    const source = async (name: string) =>
      (await call("POST", "/v2/alert_sources", dashboardHttpSource(name))).alert_source.id as string;
    refs.alertSourceA = await source("Payments webhook");
    refs.alertSourceB = await source("Checkout webhook");
    const [user] = (await call("GET", "/v2/users?email=ada%40example.com")).users;
    refs.escalationPathId = (
      await call(
        "POST",
        "/v2/escalation_paths",
        dashboardEscalationPath("Payments urgent", { userId: user.id }),
      )
    ).escalation_path.id;
    return { ...refs };
  },
  live: allRoutes,
  // The dashboard sends the whole route back (as it holds it), disabled, with version = latest + 1.
  editOutOfBand: async ({ call, emu }, id) => {
    const { alert_route: live } = await call("GET", `/v3/alert_routes/${id}`);
    const stored = emu.store.collection<StoredAlertRoute>(ALERT_ROUTES).get(id);
    await call("PUT", `/v3/alert_routes/${id}`, {
      ...structuredClone(stored!.payload),
      enabled: false,
      version: live.version + 1,
    });
  },
  expectRestored: (route) => expectDeclared(route, "Lifecycle route"),
  expectUpdated: (route) => {
    expectDeclared(route, "Lifecycle route (updated)");
    expect(route.version).toBeGreaterThan(1);
  },
  createExisting: async ({ call }) =>
    (
      await call("POST", "/v3/alert_routes", {
        name: "Made by hand",
        enabled: true,
        is_private: false,
        alert_sources: [{ alert_source_id: refs.alertSourceA, condition_groups: [] }],
        condition_groups: [],
        expressions: [],
        escalation_config: { auto_cancel_escalations: false, escalation_targets: [] },
        grouping_config: { default: { enabled: false } },
        incident_config: { enabled: false },
        message_config: { destinations: [] },
      })
    ).alert_route.id,
});
