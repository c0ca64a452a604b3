/**
 * The whole-account program (test/fixtures/wholeAccount/program: every resource kind, wired by
 * references as a real account is) through the real Pulumi CLI, one scenario class after another on
 * one stack and one account:
 *
 *   up → preview --expect-no-changes (no provider API call) → refresh --expect-no-changes
 *   → one object of every kind edited in the dashboard → `preview --refresh` shows exactly those
 *   → `up --refresh` puts them back → `preview --refresh --expect-no-changes`
 *   → one object of every kind deleted in the dashboard → `up --refresh` makes each again
 *   → variant "updated": every kind updated in place, nothing replaced → no changes, no drift
 *   → variant "replaced": create-before-delete (a schedule's time zone, a workflow's trigger, checked
 *     on the wire), delete-before-replace with dependents (a custom field and its options), and a
 *     replace of a resource whose `protect` the same `up` drops → no changes
 *   → `pulumi-incident export` of the account, adopted by a second stack with zero writes (the
 *     account's singletons too: that stack adopts the IP allowlist as the first one left it, so
 *     neither takes it over from the other; it is discarded, never destroyed)
 *   → destroy: every object the stack held is gone (each kind's own read says so; a call route and
 *     the IP allowlist, which the API cannot delete, are put back as they were); the objects made in
 *     the dashboard (and the allowlist they set) stay.
 *
 * Secrets (the API key's token, the alert source's secret token, a Secret's value, the provider's
 * key) are checked where the engine keeps them: encrypted in the state, absent from the CLI's output.
 * A new kind joins the program and gets one entry in KINDS (the edit the dashboard makes to it);
 * the test fails for a kind in `providers` that is missing from either. The account is this file's
 * own emulator: a singleton of the account (the IP allowlist) has no other stack to share it with
 * but the export's, which adopts it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ALERT_ROUTES } from "../../emulator/families/alertRoutes";
import { ALERT_SOURCES } from "../../emulator/families/alertSources";
import { ESCALATION_PATH_TEMPLATES, ESCALATION_PATHS } from "../../emulator/families/escalationPaths";
import { WORKFLOWS } from "../../emulator/families/workflows";
import { closeAllConnections } from "../../provider/client";
import { providers } from "../../resources";
import { templateToRichText } from "../../resources/shared/richText";
import type { RunResult, StateResource } from "../../tools/harness";
import { exportedState } from "../../tools/pulumi/cli";
import { dashboardEscalationPath, dashboardSchedule } from "../support/dashboard";
import { cliDriver } from "../support/driver";
import type { TestEmulator } from "../support/emulator";
import { accountObjects, adoptExport } from "../support/exportRoundTrip";
import { harnessFixture } from "../support/harnessFixture";

const program = path.join(__dirname, "..", "fixtures", "wholeAccount", "program");

/** What a dashboard edit gets: the emulator, and calls with a second key (as a person would make them). */
interface Dashboard {
  emu: TestEmulator;
  call(method: string, urlPath: string, body?: unknown): Promise<any>;
}

/** One kind's entry: which of the program's resources is edited in the dashboard, and how. */
interface KindEntry {
  /** The resource's name in the program. */
  resource: string;
  /**
   * Changes the object behind the stack's back. Absent for a kind the API cannot change in place
   * (no update: every input replaces): neither the dashboard nor the "updated" variant edits it; the
   * dashboard deletion below still covers it.
   */
  edit?(d: Dashboard, id: string, outputs: Record<string, any>): Promise<void>;
  /**
   * The API cannot delete the object (a call route, the account's IP allowlist: taken over, never
   * made): the resource's delete puts back what it held, so after a delete a read still finds it,
   * holding these outputs as its `previous` output has them, and `up --refresh` updates it instead
   * of making it again.
   */
  outlivesDelete?: readonly string[];
}

/** The kinds the program declares: every kind of `providers`. */
const programKinds = (): string[] => Object.keys(providers).sort();

/** The kinds changed in place (by the dashboard, and by the "updated" variant): those with an edit. */
const inPlaceKinds = (): string[] => Object.keys(KINDS).filter((kind) => KINDS[kind]!.edit !== undefined);

/** The whole stored payload of an object, as the dashboard sends it back with one change. */
const stored = (d: Dashboard, collection: string, id: string): any =>
  structuredClone((d.emu.store.collection<any>(collection).get(id) as any).payload);

const KINDS: Record<string, KindEntry> = {
  AlertAttribute: {
    resource: "service",
    edit: async ({ call }, id) => {
      const { alert_attribute: a } = await call("GET", `/v2/alert_attributes/${id}`);
      await call("PUT", `/v2/alert_attributes/${id}`, {
        name: a.name,
        type: a.type,
        array: false,
        emoji: "fire",
      });
    },
  },
  AlertRoute: {
    resource: "payments",
    edit: async (d, id) => {
      const { alert_route: live } = await d.call("GET", `/v3/alert_routes/${id}`);
      await d.call("PUT", `/v3/alert_routes/${id}`, {
        ...stored(d, ALERT_ROUTES, id),
        enabled: false,
        version: live.version + 1,
      });
    },
  },
  AlertSource: {
    resource: "payments-http",
    edit: async (d, id) => {
      const { source_type: _type, ...payload } = stored(d, ALERT_SOURCES, id);
      payload.template.title = { literal: templateToRichText("Edited {{ alert.title }}") };
      await d.call("PUT", `/v2/alert_sources/${id}`, payload);
    },
  },
  AnnouncementRule: {
    resource: "major",
    edit: async ({ call }, id) => {
      const { announcement_rule: r } = await call("GET", `/v2/announcement_rules/${id}`);
      await call("PUT", `/v2/announcement_rules/${id}`, {
        name: r.name,
        mode: "include_all",
        update_sharing_mode: r.update_sharing_mode,
        condition_groups: [],
        slack_channel_ids: ["C0ANNOUNCE1"],
      });
    },
  },
  AnnouncementTemplate: {
    resource: "major-posts",
    // An action dropped and an emoji changed, the rest sent back as read.
    edit: async ({ call }, id) => {
      const { announcement_template: t } = await call("GET", `/v2/announcement_templates/${id}`);
      const item = ({ title: _title, ...rest }: any) => rest;
      await call("PUT", `/v2/announcement_templates/${id}`, {
        name: t.name,
        fields: t.fields.map((f: any) => ({ ...item(f), emoji: f.emoji === undefined ? undefined : "fire" })),
        actions: t.actions.slice(1).map(item),
      });
    },
  },
  CallRoute: {
    resource: "main-line",
    outlivesDelete: ["name", "useCallerAllowlist", "allowedCallers"],
    // Renamed, and voicemail only.
    edit: async ({ call }, id) => {
      const { call_route: r } = await call("GET", `/v2/call_routes/${id}`);
      await call("PUT", `/v2/call_routes/${id}`, {
        name: "Main line (edited)",
        custom_language: r.custom_language,
        responder_caller_id: r.responder_caller_id,
        use_caller_allowlist: r.use_caller_allowlist,
        path: [{ id: "vm", type: "voicemail", voicemail: { greeting_text: "Edited in the dashboard" } }],
      });
    },
  },
  ApiKey: {
    resource: "ci-key",
    // Keys are managed with `api_keys_manage`, which only the account's bootstrap key holds here.
    edit: async ({ emu }, id) => {
      const { api_key: k } = await emu.ok("GET", `/v1/api_keys/${id}`);
      await emu.ok("PUT", `/v1/api_keys/${id}`, {
        body: {
          name: "CI: renamed in the dashboard",
          role_names: k.roles.map((r: { name: string }) => r.name),
          team_role_names: (k.team_roles ?? []).map((r: { name: string }) => r.name),
          team_ids: k.team_ids ?? [],
          comments: k.comments,
        },
      });
    },
  },
  CatalogEntries: {
    resource: "services",
    // One entry renamed, one added that the program does not declare.
    edit: async ({ call }, typeId) => {
      const [first] = (await call("GET", `/v3/catalog_entries?catalog_type_id=${typeId}&page_size=1`))
        .catalog_entries;
      await call("PUT", `/v3/catalog_entries/${first.id}`, {
        name: "hand edit",
        attribute_values: {},
        update_attributes: [],
      });
      await call("POST", "/v3/catalog_entries", {
        catalog_type_id: typeId,
        name: "stray",
        attribute_values: {},
      });
    },
  },
  CatalogEntry: {
    resource: "team-payments",
    edit: async ({ call }, id) => {
      await call("PUT", `/v3/catalog_entries/${id}`, {
        name: "Payments (renamed)",
        external_id: "payments",
        attribute_values: {},
      });
    },
  },
  CatalogType: {
    resource: "team",
    edit: async ({ call }, id) => {
      const { catalog_type: t } = await call("GET", `/v3/catalog_types/${id}`);
      await call("PUT", `/v3/catalog_types/${id}`, { name: t.name, description: "hand edit", color: "pink" });
    },
  },
  CatalogTypeAttribute: {
    resource: "tags",
    // The schema edited in the dashboard: the attribute is no longer a list.
    edit: async ({ call }, id, outputs) => {
      const { catalog_type: t } = await call("GET", `/v3/catalog_types/${outputs.catalogTypeId}`);
      await call("POST", `/v3/catalog_types/${t.id}/actions/update_schema`, {
        version: t.schema.version,
        attributes: t.schema.attributes.map((a: any) => (a.id === id ? { ...a, array: false } : a)),
      });
    },
  },
  CustomField: {
    resource: "impact",
    edit: async ({ call }, id) => {
      const { custom_field: f } = await call("GET", `/v2/custom_fields/${id}`);
      await call("PUT", `/v2/custom_fields/${id}`, { name: f.name, description: "edited in the dashboard" });
    },
  },
  CustomFieldOption: {
    resource: "impact-some",
    edit: async ({ call }, id) => {
      const { custom_field_option: o } = await call("GET", `/v1/custom_field_options/${id}`);
      await call("PUT", `/v1/custom_field_options/${id}`, { value: o.value, sort_key: 999 });
    },
  },
  EscalationPath: {
    resource: "payments",
    edit: async (d, id) => {
      const payload = stored(d, ESCALATION_PATHS, id);
      payload.path[0].level.time_to_ack_seconds = 42;
      await d.call("PUT", `/v2/escalation_paths/${id}`, payload);
    },
  },
  EscalationPathTemplate: {
    resource: "standard",
    // The first level's time to ack shortened, the rest sent back as the store holds it.
    edit: async (d, id) => {
      const {
        id: _id,
        archived: _archived,
        ...payload
      } = structuredClone(d.emu.store.collection<any>(ESCALATION_PATH_TEMPLATES).get(id));
      payload.path[0].level.time_to_ack_seconds = 42;
      await d.call("PUT", `/v2/escalation_path_templates/${id}`, payload);
    },
  },
  IncidentRole: {
    resource: "comms",
    edit: async ({ call }, id) => {
      const { incident_role: r } = await call("GET", `/v2/incident_roles/${id}`);
      await call("PUT", `/v2/incident_roles/${id}`, {
        name: r.name,
        description: r.description,
        instructions: r.instructions,
        shortform: "pr",
      });
    },
  },
  IncidentStatus: {
    resource: "monitoring",
    edit: async ({ call }, id) => {
      const { incident_status: s } = await call("GET", `/v1/incident_statuses/${id}`);
      await call("PUT", `/v1/incident_statuses/${id}`, {
        name: s.name,
        description: "Edited in the dashboard",
      });
    },
  },
  IncidentTemplate: {
    resource: "payments-incidents",
    // The summary removed and triage turned off, the rest sent back as read.
    edit: async ({ call }, id) => {
      const { incident_template: t } = await call("GET", `/v1/incident_templates/${id}`);
      const { summary: _summary, ...template } = t.template;
      await call("PUT", `/v1/incident_templates/${id}`, {
        name: t.name,
        template: { ...template, start_in_triage: { binding: { value: { literal: "false" } } } },
        expressions: t.expressions,
      });
    },
  },
  IpAllowlist: {
    resource: "allowlist",
    outlivesDelete: ["allowlist", "enabled"],
    // An entry dropped and another added, the rest sent back as read (with the version read).
    edit: async ({ call }) => {
      const { ip_allowlist: l } = await call("GET", "/v1/ip_allowlists");
      await call("PUT", "/v1/ip_allowlists", {
        allowlist: [...l.allowlist.slice(1), { value: "192.0.2.99", label: "Added in the dashboard" }],
        enabled: l.enabled,
        version: l.version,
      });
    },
  },
  MaintenanceWindow: {
    resource: "db-migration",
    edit: async ({ call }, id) => {
      const { maintenance_window: w } = await call("GET", `/v1/maintenance_windows/${id}`);
      await call("PUT", `/v1/maintenance_windows/${id}`, {
        name: w.name,
        start_at: w.start_at,
        end_at: w.end_at,
        lead: { id: "01USERBOB" },
        show_in_sidebar: w.show_in_sidebar,
        alert_condition_groups: [],
        notification_message: w.notification_message,
        resolve_on_end: true,
      });
    },
  },
  PayConfig: {
    resource: "uk-on-call",
    // The weekly rules' evaluation order swapped, the rest sent back as read (without rule ids).
    edit: async ({ call }, id) => {
      const { pay_config: p } = await call("GET", `/v2/pay_configs/${id}`);
      const { id: _id, created_at: _c, updated_at: _u, ...payload } = p;
      await call("PUT", `/v2/pay_configs/${id}`, {
        ...payload,
        one_off_rules: p.one_off_rules.map(({ id: _r, ...r }: any) => r),
        weekly_rules: p.weekly_rules.map(({ id: _r, ...r }: any) => r).reverse(),
      });
    },
  },
  Policy: {
    resource: "major-follow-ups",
    // The conditions dropped and the per-type block changed, the rest as the program wrote it.
    edit: async ({ call }, id) => {
      const { policy: p } = await call("GET", `/v2/policies/${id}`);
      await call("PUT", `/v2/policies/${id}`, {
        name: p.name,
        description: p.description,
        policy_type: p.policy_type,
        conditions: [],
        follow_up: { run_on_private_incidents: !p.follow_up?.run_on_private_incidents },
      });
    },
  },
  Schedule: {
    resource: "payments-primary",
    // Another handover interval, the rest sent back as read (users by id, no empty lists).
    edit: async ({ call }, id) => {
      const { schedule } = await call("GET", `/v2/schedules/${id}`);
      const rotations = schedule.config.rotations.map((r: any) => {
        const out = { ...r, users: r.users.map((u: any) => ({ id: u.id })) };
        if (out.working_intervals?.length === 0) delete out.working_intervals;
        return out;
      });
      rotations[0].handovers = [{ interval: 5, interval_type: "daily" }];
      await call("PUT", `/v2/schedules/${id}`, { schedule: { name: schedule.name, config: { rotations } } });
    },
  },
  ScheduleOverride: {
    resource: "payments-primary-cover",
    // The cover starts a day later (the user, which cannot be reassigned, sent back as it is).
    edit: async ({ call }, id) => {
      const { override: o } = await call("GET", `/v2/schedule_overrides/${id}`);
      await call("PUT", `/v2/schedule_overrides/${id}`, {
        rotation_id: o.rotation_id,
        layer_id: o.layer_id,
        user: { id: o.user.id },
        start_at: "2031-03-02T09:00:00Z",
        end_at: o.end_at,
      });
    },
  },
  // No update in the API: nothing to edit in place.
  ScheduleReplica: { resource: "payments-primary-to-pagerduty" },
  ScheduleSyncRule: {
    resource: "payments-primary-to-group",
    edit: async ({ call }, id) => {
      await call("PUT", `/v2/schedules/${id.replace("/", "/sync_rules/")}`, {
        sync_type: "all_users",
        permanent_member_user_ids: [],
      });
    },
  },
  ScheduleSyncTarget: {
    resource: "payments-oncall",
    edit: async ({ call }, id) => {
      await call("PUT", `/v2/schedule_sync_targets/${id}`, { add_bot_to_group: true });
    },
  },
  Secret: {
    resource: "webhook-token",
    // Rotated in the dashboard: the stack's value must be put back.
    edit: async ({ call }, id) => {
      await call("POST", `/v2/secrets/${id}/actions/rotate`, { value: "rotated-in-the-dashboard-9999" });
    },
  },
  Severity: {
    resource: "major",
    edit: async ({ call }, id) => {
      const { severity: s } = await call("GET", `/v1/severities/${id}`);
      await call("PUT", `/v1/severities/${id}`, {
        name: s.name,
        description: "Edited in the dashboard",
        rank: 3,
      });
    },
  },
  Workflow: {
    resource: "escalate-widespread",
    // Disabled, with a delay, in the dashboard, which sends the whole workflow back.
    edit: async (d, id) => {
      const payload = stored(d, WORKFLOWS, id);
      payload.state = "disabled";
      payload.delay = { for_seconds: 5, conditions_apply_over_delay: false };
      await d.call("PUT", `/v2/workflows/${id}`, payload);
    },
  },
};

const kindOf = (type: string) => type.split(":").pop()!;
const pick = (o: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, o[k]]));
/** The account's IP allowlist as the dashboard sets it before the program runs (not enforced). */
const DASHBOARD_ALLOWLIST = {
  allowlist: [{ value: "192.0.2.10", label: "Set in the dashboard" }],
  enabled: false,
};
const ours = (r: { type: string }) => r.type.startsWith("pulumi-nodejs:dynamic/incident:");
const changed = (r: RunResult) => r.steps.filter((s) => s.op !== "same");
const byOp = (r: RunResult, op: string) =>
  r.steps
    .filter((s) => s.op === op && ours(s))
    .map((s) => `${kindOf(s.type)} ${s.name}`)
    .sort();

function expectOk(r: RunResult): RunResult {
  expect(r.errors).toEqual([]);
  expect(r.ok).toBe(true);
  return r;
}

describe("the whole account through the real CLI", () => {
  const h = harnessFixture(program, cliDriver);
  const { up, preview, refresh, destroy } = cliDriver;
  const options = (variant = "base", extra: Record<string, unknown> = {}) => ({
    ...h.options({ variant }),
    ...extra,
  });
  let dashboard: Dashboard;
  /** Objects made in the dashboard before the program ran: never the stack's. */
  let dashboardObjects: string[] = [];
  /** The state after the first `up`: resources of this package, by `Kind name`. */
  const resources = () =>
    new Map(
      cliDriver
        .readState(h.options().stateFile)
        .resources.filter(ours)
        .map((r): [string, StateResource] => [`${kindOf(r.type)} ${r.name}`, r]),
    );

  beforeAll(async () => {
    const key = await h.emu.createApiKey("dashboard", ["global_access"]);
    dashboard = {
      emu: h.emu,
      call: (method, urlPath, body) => h.emu.ok(method, urlPath, { token: key, body }),
    };
    const schedule = (
      await dashboard.call(
        "POST",
        "/v2/schedules",
        dashboardSchedule({
          name: "Dashboard rota",
          timezone: "Europe/Paris",
          handoverStartAt: "2026-02-02T08:00:00Z",
          users: ["01USERBOB"],
        }),
      )
    ).schedule;
    const escalation = (
      await dashboard.call(
        "POST",
        "/v2/escalation_paths",
        dashboardEscalationPath("Dashboard path", { userId: "01USERBOB" }),
      )
    ).escalation_path;
    dashboardObjects = [`EscalationPath ${escalation.id}`, `Schedule ${schedule.id}`];
    // The account's allowlist as set in the dashboard: the stack takes it over, its destroy puts it back.
    const { ip_allowlist: list } = await dashboard.call("GET", "/v1/ip_allowlists");
    await dashboard.call("PUT", "/v1/ip_allowlists", { ...DASHBOARD_ALLOWLIST, version: list.version });
    // The provider, called in process to read what the stack held (after destroy).
    process.env.INCIDENT_API_KEY = h.emu.apiKey;
    process.env.INCIDENT_BASE_URL = h.emu.url;
  });
  afterAll(async () => {
    await closeAllConnections();
  });

  test("every kind has an entry here and a resource in the program", () => {
    expect(Object.keys(KINDS).sort()).toEqual(programKinds());
    const text = fs.readFileSync(path.join(program, "index.ts"), "utf8");
    for (const kind of programKinds())
      expect({ kind, declared: text.includes(`new incident.${kind}(`) }).toEqual({ kind, declared: true });
  });

  test("up creates every kind; preview and refresh then show no change, with no provider call", async () => {
    const first = expectOk(await up(options()));
    expect(new Set(first.steps.filter(ours).map((s) => s.op))).toEqual(new Set(["create"]));
    const kinds = new Set([...resources().keys()].map((k) => k.split(" ")[0]));
    expect([...kinds].sort()).toEqual(programKinds());
    for (const [kind, entry] of Object.entries(KINDS))
      expect(resources().has(`${kind} ${entry.resource}`)).toBe(true);

    const again = expectOk(await preview({ ...options(), expectNoChanges: true }));
    expect(again.apiCalls.filter((c) => c.from === "provider")).toEqual([]);
    expect(again.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    expectOk(await refresh({ ...options(), expectNoChanges: true }));
    expect(h.emu.responseProblems).toEqual([]);
  });

  test("secrets: encrypted in the state, masked in the outputs, absent from the CLI's output", async () => {
    const state = resources();
    const plaintexts: string[] = [
      String(state.get("ApiKey ci-key")!.outputs.token),
      String(state.get("AlertSource payments-http")!.outputs.secretToken),
      "whole-account-token-first-1111",
      h.emu.apiKey,
    ];
    for (const p of plaintexts) expect(typeof p === "string" && p.length >= 8).toBe(true);
    expect(state.get("Secret webhook-token")!.secretInputs).toContain("value");
    expect(state.get("ApiKey ci-key")!.secretOutputs).toContain("token");
    expect(state.get("AlertSource payments-http")!.secretOutputs).toContain("secretToken");
    const encrypted = JSON.stringify(exportedState(h.options(), { showSecrets: false }));
    const run = await preview(options());
    for (const p of plaintexts) {
      expect({ secret: p.slice(0, 4), inState: encrypted.includes(p) }).toEqual({
        secret: p.slice(0, 4),
        inState: false,
      });
      expect({ secret: p.slice(0, 4), inLog: run.log.includes(p) }).toEqual({
        secret: p.slice(0, 4),
        inLog: false,
      });
    }
    expect(run.outputs).toMatchObject({ ciKeyToken: "[secret]", alertSourceToken: "[secret]" });
  });

  test("an edit in the dashboard to one object of every kind: preview --refresh shows exactly those, up --refresh puts them back", async () => {
    const state = resources();
    for (const kind of inPlaceKinds()) {
      const entry = KINDS[kind]!;
      const r = state.get(`${kind} ${entry.resource}`)!;
      await entry.edit!(dashboard, r.id!, r.outputs);
    }
    const edited: string[] = inPlaceKinds().map((kind) => `${kind} ${KINDS[kind]!.resource}`);
    // A preview cannot know the outputs of an update: what reads them shows as changed too.
    const urns = new Set(edited.map((k) => state.get(k)!.urn));
    const dependents = [...state].filter(([, r]) => r.dependencies.some((d) => urns.has(d))).map(([k]) => k);
    const seen = expectOk(await preview({ ...options(), refresh: true }));
    const planned = byOp(seen, "update");
    expect(planned).toEqual(expect.arrayContaining(edited));
    expect(planned.filter((k) => !edited.includes(k) && !dependents.includes(k))).toEqual([]);

    expectOk(await up({ ...options(), refresh: true }));
    expectOk(await preview({ ...options(), refresh: true, expectNoChanges: true }));
  });

  test("an object of every kind deleted in the dashboard: up --refresh makes each again (no record of an earlier create gets in the way)", async () => {
    // The engine ended the provider's process after every run so far: whatever a create left
    // behind in the pending-creates journal must not break these creates, for any kind.
    const state = resources();
    const order = [...state.values()];
    const deleted = Object.entries(KINDS)
      .map(([kind, e]) => state.get(`${kind} ${e.resource}`)!)
      .sort((a, b) => order.indexOf(a) - order.indexOf(b));
    // Dependents first (the state lists what a resource refers to before it).
    for (const r of [...deleted].reverse()) {
      await providers[kindOf(r.type)]!.delete!(r.id!, r.outputs);
    }
    const remade = expectOk(await up({ ...options(), refresh: true }));
    // Made again; CatalogEntries, whose id is its catalog type's (still there), is filled again.
    const restored = [...byOp(remade, "create"), ...byOp(remade, "update")];
    const gone = deleted.map((r) => `${kindOf(r.type)} ${r.name}`);
    expect(gone.filter((k) => !restored.includes(k))).toEqual([]);
    // A kind whose delete puts back what it held (the object stays) is updated again too.
    const outlive = Object.entries(KINDS)
      .filter(([, e]) => e.outlivesDelete)
      .map(([kind, e]) => `${kind} ${e.resource}`);
    expect(
      byOp(remade, "update")
        .filter((k) => gone.includes(k))
        .sort(),
    ).toEqual(["CatalogEntries services", ...outlive].sort());
    expectOk(await preview({ ...options(), refresh: true, expectNoChanges: true }));
  });

  test('variant "updated": every kind updated in place, nothing replaced; then no change and no drift', async () => {
    const updated = expectOk(await up(options("updated")));
    expect(changed(updated).filter((s) => s.op !== "update")).toEqual([]);
    const kinds = new Set(byOp(updated, "update").map((k) => k.split(" ")[0]));
    expect([...kinds].sort()).toEqual(inPlaceKinds().sort());
    expectOk(await preview({ ...options("updated"), expectNoChanges: true }));
    expectOk(await refresh({ ...options("updated"), expectNoChanges: true }));
  });

  test('variant "replaced": create-before-delete, delete-before-replace with dependents, protect dropped with a replace', async () => {
    const before = resources();
    const mark = h.emu.requests.length;
    const replaced = expectOk(await up(options("replaced")));
    const replaces = replaced.steps.filter((s) => s.op === "replace");
    expect(
      replaces
        .map((s) => `${kindOf(s.type)} ${s.name} ${s.deleteBeforeReplace ? "delete-first" : "create-first"}`)
        .sort(),
    ).toEqual([
      "CustomField region delete-first",
      "CustomFieldOption region-ap-south delete-first",
      "CustomFieldOption region-eu-west delete-first",
      "CustomFieldOption region-us-east delete-first",
      "IncidentStatus monitoring delete-first",
      "Schedule payments-secondary create-first",
      "Workflow notify create-first",
    ]);
    // What pages the replaced schedule moves to the new one.
    expect(byOp(replaced, "update")).toEqual(["EscalationPath payments"]);

    const writes = h.writesSince(mark);
    const at = (pattern: RegExp) => writes.findIndex((w) => pattern.test(w));
    const oldSchedule = before.get("Schedule payments-secondary")!.id!;
    const oldWorkflow = before.get("Workflow notify")!.id!;
    const oldField = before.get("CustomField region")!.id!;
    // Create-before-delete: the new object exists before the old one goes.
    expect(at(/^POST \/v2\/schedules 201$/)).toBeLessThan(
      at(new RegExp(`^DELETE /v2/schedules/${oldSchedule} `)),
    );
    expect(at(/^POST \/v2\/workflows 201$/)).toBeLessThan(
      at(new RegExp(`^DELETE /v2/workflows/${oldWorkflow} `)),
    );
    // Delete-before-replace: the options go, then the field, before the new field is made.
    const optionDeletes = writes.filter((w) => w.startsWith("DELETE /v1/custom_field_options/"));
    expect(optionDeletes.length).toBeGreaterThanOrEqual(3);
    const fieldDelete = at(new RegExp(`^DELETE /v2/custom_fields/${oldField} `));
    expect(Math.max(...optionDeletes.map((w) => writes.indexOf(w)))).toBeLessThan(fieldDelete);
    expect(fieldDelete).toBeLessThan(at(/^POST \/v2\/custom_fields 201$/));

    expectOk(await preview({ ...options("replaced"), expectNoChanges: true }));
    expect(cliDriver.readState(h.options().stateFile).resources.filter((r) => r.protect)).toEqual([]);
  });

  test("the account exported and adopted by a second stack: zero writes, then no change", async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "whole-account-export-"));
    try {
      await adoptExport(h.emu, work, {
        atLeast: resources().size,
        kinds: Object.keys(providers).filter((k) => !providers[k]!.spec.notExported),
        secretValues: { "Deploy webhook token": "whole-account-token-second-2222" },
      });
    } finally {
      cliDriver.dispose(path.join(work, "state.json"));
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  test("destroy: every object the stack held is gone, as each kind's read says; the dashboard's stay", async () => {
    const held: StateResource[] = [...resources().values()];
    expectOk(await destroy(options("replaced")));
    for (const r of held) {
      const read = await providers[kindOf(r.type)]!.read!(r.id!, r.outputs);
      const resource = `${kindOf(r.type)} ${r.name}`;
      // An object the API cannot delete (a call route, the IP allowlist) stays, put back as it was
      // before the stack.
      const kept = KINDS[kindOf(r.type)]?.outlivesDelete;
      if (kept) {
        const previous = r.outputs.previous as Record<string, unknown>;
        expect(kept.every((k) => previous?.[k] !== undefined)).toBe(true);
        expect({ resource, id: read.id, ...pick(read.props ?? {}, kept) }).toEqual({
          resource,
          id: r.id,
          ...pick(previous, kept),
        });
      } else expect({ resource, id: read.id }).toEqual({ resource, id: "" });
    }
    // What the stack found is what the dashboard had set: the export's stack, which adopted the
    // allowlist beside this one, took nothing over from it.
    expect(held.find((r) => kindOf(r.type) === "IpAllowlist")!.outputs.previous).toEqual(DASHBOARD_ALLOWLIST);
    expect(await accountObjects(h.emu)).toEqual(expect.arrayContaining(dashboardObjects));
    expect(h.emu.responseProblems).toEqual([]);
  });
});
