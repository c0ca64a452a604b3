/**
 * The examples are real programs users copy: each runs through the real Pulumi CLI against the
 * emulator and is checked for what it promises. examples/oncall: source → route → escalation path →
 * schedules with responders found by e-mail, plus a workflow; examples/catalog: a catalog an alert
 * route reads; examples/settings: account settings. Each: `up`, `preview --expect-no-changes` with
 * no provider call, `variant=updated` updating exactly what it says in place, destroy leaving the
 * account as it was. examples/quickstart runs as `npm run demo -- quickstart` (create, no change,
 * drift detected and restored, destroy), which is also the demo's test. examples/fleet: an
 * account-wide stack and two team stacks over one account, each with a key of its own (the teams'
 * write only through team roles), the team stacks applied at the same time, a change in one that
 * touches nothing of the other's, destroyed in reverse order. What every kind does through the
 * engine is test/engine/wholeAccount.test.ts.
 */
import { spawnSync } from "node:child_process";
import * as os from "node:os";
import * as path from "node:path";
import type { RunResult } from "../../tools/harness";
import { scenarioTimeoutMs } from "../support/driver";
import { harnessFixture } from "../support/harnessFixture";

const root = path.join(__dirname, "..", "..");

function expectOk(r: RunResult): RunResult {
  expect(r.errors).toEqual([]);
  expect(r.ok).toBe(true);
  return r;
}

describe("examples/oncall", () => {
  const h = harnessFixture(path.join(root, "examples", "oncall"));
  const { destroy, up } = h.driver;
  const options = (variant = "base") => h.options({ variant });
  const get = async (apiPath: string) => {
    const reply = await h.emu.call("GET", apiPath);
    expect(reply.status).toBe(200);
    return reply.body;
  };

  test(
    "wires source → route → escalation path → schedules (users by e-mail) and a workflow",
    async () => {
      const first = expectOk(await up(options()));
      expect(first.counts.create).toBe(8);
      const out = first.outputs as Record<string, any>;

      const ada = (await get("/v2/users?email=ada%40example.com")).users[0];
      const [primaryId, secondaryId] = out.scheduleIds as string[];
      const primary = (await get(`/v2/schedules/${primaryId}`)).schedule;
      expect(primary.config.rotations[0].users.map((u: any) => u.email)).toEqual([
        "ada@example.com",
        "bob@example.com",
        "cat@example.com",
      ]);
      const secondary = (await get(`/v2/schedules/${secondaryId}`)).schedule;
      expect(secondary.timezone).toBe("America/New_York");

      const escalation = (await get(`/v2/escalation_paths/${out.escalationPathId}`)).escalation_path;
      const targets = JSON.stringify(escalation.path);
      expect(targets).toContain(primaryId);
      expect(targets).toContain(secondaryId);
      expect(targets).toContain(ada.id);

      const route = (await get(`/v3/alert_routes/${out.alertRouteId}`)).alert_route;
      const sources = await h.list("/v2/alert_sources");
      expect(sources).toHaveLength(1);
      expect(route.alert_sources.map((s: any) => s.alert_source_id)).toEqual([sources[0].id]);
      expect(JSON.stringify(route.escalation_config)).toContain(out.escalationPathId);
      expect(out.alertEventsUrl).toContain(sources[0].id);
      expect(out.alertSourceToken).toBe("[secret]");

      const workflow = (await get(`/v2/workflows/${out.workflowId}`)).workflow;
      expect(JSON.stringify(workflow.trigger)).toContain("incident.created");

      const second = expectOk(await h.driver.preview({ ...options(), expectNoChanges: true }));
      expect(second.apiCalls.filter((c) => c.from === "provider")).toEqual([]);

      const updated = expectOk(await up(options("updated")));
      expect(
        updated.steps
          .filter((s) => s.op !== "same")
          .map((s) => `${s.op} ${s.name}`)
          .sort(),
      ).toEqual([
        "update announce-critical",
        "update payments",
        "update payments",
        "update payments-primary",
      ]);
      const updatedRoute = (await get(`/v3/alert_routes/${out.alertRouteId}`)).alert_route;
      expect(updatedRoute.grouping_config.default.window_seconds).toBe(1800);

      expectOk(await destroy(options("updated")));
      for (const listPath of [
        "/v2/alert_sources",
        "/v3/alert_routes",
        "/v2/escalation_paths",
        "/v2/schedules",
        "/v2/workflows",
        "/v2/alert_attributes",
      ]) {
        expect({ [listPath]: await h.list(listPath) }).toEqual({ [listPath]: [] });
      }
      expect(h.emu.responseProblems).toEqual([]);
    },
    scenarioTimeoutMs,
  );
});

describe("examples/catalog", () => {
  const h = harnessFixture(path.join(root, "examples", "catalog"));
  const { destroy, up } = h.driver;

  test(
    "a catalog type, its attributes and entries, used by an alert route; updates in place; destroy archives them",
    async () => {
      const first = expectOk(await up(h.options()));
      expect(first.counts.create).toBe(7);
      const out = first.outputs as Record<string, any>;
      const ids = out.serviceEntryIds as Record<string, string>;
      expect(Object.keys(ids).sort()).toEqual(["checkout", "ledger", "search"]);
      const entries = (
        await h.emu.ok("GET", `/v3/catalog_entries?catalog_type_id=${out.serviceTypeId}&page_size=250`)
      ).catalog_entries;
      expect(entries.map((e: any) => e.external_id).sort()).toEqual(["checkout", "ledger", "search"]);
      const [attribute] = await h.list("/v2/alert_attributes");
      expect(attribute.type).toBe(`CatalogEntry["${out.serviceTypeId}"]`);
      const [slim] = await h.list("/v3/alert_routes?page_size=25");
      const route = (await h.emu.ok("GET", `/v3/alert_routes/${slim.id}`)).alert_route;
      // The route's condition names the tier-1 services' catalog entries.
      const literals = JSON.stringify(route.alert_sources[0].condition_groups);
      expect(literals).toContain(ids.checkout);
      expect(literals).toContain(ids.ledger);
      expect(literals).not.toContain(ids.search);

      const second = expectOk(await h.driver.preview({ ...h.options(), expectNoChanges: true }));
      expect(second.apiCalls.filter((c) => c.from === "provider")).toEqual([]);

      const updated = expectOk(await up(h.options({ variant: "updated" })));
      expect(
        updated.steps
          .filter((s) => s.op === "update")
          .map((s) => s.name)
          .sort(),
      ).toEqual(["services", "tier-one"]);
      const after = updated.outputs as Record<string, any>;
      expect(after.serviceEntryIds.search).toBe(ids.search); // updated in place, same entry
      expect(Object.keys(after.serviceEntryIds)).toHaveLength(4);

      expectOk(await destroy(h.options({ variant: "updated" })));
      expect(await h.list("/v3/catalog_types")).toEqual([]);
      expect(h.emu.responseProblems).toEqual([]);
    },
    scenarioTimeoutMs,
  );
});

describe("examples/settings", () => {
  const h = harnessFixture(path.join(root, "examples", "settings"));
  const { destroy, up } = h.driver;
  const options = (variant = "base") => h.options({ variant });

  test(
    "severities, a status, a role, a secret, a maintenance window and a synced Slack group; updates in place; destroy removes them",
    async () => {
      const first = expectOk(await up(options()));
      expect(first.counts.create).toBe(10);
      const out = first.outputs as Record<string, any>;
      expect((await h.list("/v1/severities")).map((s) => [s.name, s.rank])).toEqual([
        ["Minor", 1],
        ["Major", 2],
        ["Critical", 3],
      ]);
      const secret = (await h.emu.ok("GET", "/v2/secrets")).secrets[0];
      expect(secret).toMatchObject({ owning_team_ids: ["01TEAMPLATFORM"], version: 1 });
      expect(JSON.stringify(first.outputs)).not.toContain("example-token-change-me");
      const window = (await h.emu.ok("GET", `/v1/maintenance_windows/${out.maintenanceWindowId}`))
        .maintenance_window;
      expect(window.lead.user.email).toBe("ada@example.com");
      const [scheduleId, ruleId] = String(out.syncRuleId).split("/");
      const rule = (await h.emu.ok("GET", `/v2/schedules/${scheduleId}/sync_rules/${ruleId}`))
        .schedule_sync_rule;
      expect(rule).toMatchObject({ sync_type: "on_call", permanent_member_user_ids: ["01USEREVE"] });
      expect(rule.schedule_sync_target.slack_user_group_id).toBe(out.slackUserGroupId);

      const second = expectOk(await h.driver.preview({ ...options(), expectNoChanges: true }));
      expect(second.apiCalls.filter((c) => c.from === "provider")).toEqual([]);

      const updated = expectOk(await up(options("updated")));
      expect(
        updated.steps
          .filter((s) => s.op !== "same")
          .map((s) => s.op)
          .sort(),
      ).toEqual(["update", "update"]);

      expectOk(await destroy(options("updated")));
      expect(await h.list("/v1/severities")).toEqual([]);
      expect(await h.list("/v2/secrets")).toEqual([]);
      expect(await h.list("/v1/maintenance_windows")).toEqual([]);
      expect(await h.list("/v2/schedule_sync_targets")).toEqual([]);
      expect(h.emu.responseProblems).toEqual([]);
    },
    scenarioTimeoutMs,
  );
});

describe("examples/fleet", () => {
  const h = harnessFixture(path.join(root, "examples", "fleet", "account"));
  const { destroy, up } = h.driver;
  const teamProgram = path.join(root, "examples", "fleet", "team");
  const TEAMS = {
    Payments: { id: "01TEAMPAYMENTS", responders: "cat@example.com" },
    Identity: { id: "01TEAMIDENTITY", responders: "eve@example.com,ada@example.com" },
  };
  type Team = keyof typeof TEAMS;
  const keys: Record<string, { token: string; id: string }> = {};
  const stateFile = (team: Team) => path.join(os.tmpdir(), `harness-fleet-${team}-${process.pid}.json`);
  afterAll(() => {
    for (const team of Object.keys(TEAMS) as Team[]) h.driver.dispose(stateFile(team));
  });
  const account = () => ({
    ...h.options(),
    config: { "incident:apiKey": keys.account!.token, "incident:baseUrl": h.emu.url },
  });
  const teamStack = (team: Team, variant = "base") => ({
    program: teamProgram,
    project: "incident-fleet-team",
    stack: team.toLowerCase(),
    stateFile: stateFile(team),
    secretConfig: ["incident:apiKey"],
    config: {
      "incident:apiKey": keys[team]!.token,
      "incident:baseUrl": h.emu.url,
      "incident-fleet-team:team": team,
      "incident-fleet-team:responders": TEAMS[team].responders,
      "incident-fleet-team:variant": variant,
    },
  });
  /** The objects of the kinds the fleet manages, as the API lists them. */
  const accountLists = async () => {
    const lists: Record<string, unknown> = {};
    for (const p of [
      "/v1/severities",
      "/v2/custom_fields",
      "/v2/schedules",
      "/v2/escalation_paths",
      "/v2/workflows",
      "/v2/secrets",
    ])
      lists[p] = await h.list(p);
    return lists;
  };

  test(
    "an account-wide stack, then two team stacks at once with team-scoped keys; a change in one touches nothing of the other's; destroyed in reverse order, the account is as it was",
    async () => {
      // The keys, made in the dashboard: the account stack's settings role; each team stack reads
      // the account (viewer) and writes only through team roles of its team.
      const make = async (name: string, roles: string[], teamRoles: string[] = [], teams: string[] = []) => {
        const token = await h.emu.createApiKey(name, roles, teamRoles, teams);
        const listed = (await h.list("/v1/api_keys?page_size=250")).find((k: any) => k.name === name);
        return { token, id: listed.id as string };
      };
      keys.account = await make("fleet account stack", ["manage_settings"]);
      for (const [team, { id }] of Object.entries(TEAMS))
        keys[team] = await make(
          `fleet ${team} stack`,
          ["viewer"],
          ["on_call_editor", "workflows_editor", "secrets_manage"],
          [id],
        );
      const before = await accountLists();

      const shared = expectOk(await up(account()));
      expect(shared.counts.create).toBe(3);

      const [payments, identity] = await Promise.all([up(teamStack("Payments")), up(teamStack("Identity"))]);
      for (const run of [payments, identity]) expect(expectOk(run).counts.create).toBe(4);
      const outputs = {
        Payments: payments.outputs as Record<string, string>,
        Identity: identity.outputs as Record<string, string>,
      };
      for (const team of Object.keys(TEAMS) as Team[]) {
        const o = outputs[team];
        expect(o.teamId).toBe(TEAMS[team].id);
        expect((await h.emu.ok("GET", `/v2/schedules/${o.scheduleId}`)).schedule.team_ids).toEqual([
          o.teamId,
        ]);
        expect(
          (await h.emu.ok("GET", `/v2/escalation_paths/${o.escalationPathId}`)).escalation_path.team_ids,
        ).toEqual([o.teamId]);
        expect((await h.emu.ok("GET", `/v2/secrets/${o.deployTokenId}`)).secret.owning_team_ids).toEqual([
          o.teamId,
        ]);
        const workflow = (await h.emu.ok("GET", `/v2/workflows/${o.workflowId}`)).workflow;
        expect(workflow.owning_team_ids).toEqual([o.teamId]);
        // The shared objects, read through lookups: the account stack's ids.
        expect(JSON.stringify(workflow.condition_groups)).toContain(
          (shared.outputs as any).customerImpactFieldId,
        );
        expect(JSON.stringify(workflow.condition_groups)).toContain((shared.outputs as any).severityIds[1]);
      }

      // A change in the Payments stack reads and writes nothing of Identity's: every request is the
      // Payments key's (the emulator's log), none names an Identity object, every write is to a
      // Payments object.
      const identityIds = Object.entries(outputs.Identity)
        .filter(([k]) => k !== "teamId")
        .map(([, v]) => v);
      const mark = h.emu.requests.length;
      const changed = expectOk(await up(teamStack("Payments", "updated")));
      expect(
        changed.steps
          .filter((s) => s.op !== "same")
          .map((s) => `${s.op} ${s.name}`)
          .sort(),
      ).toEqual(["update payments-critical", "update payments-urgent"]);
      const requests = h.emu.requests.slice(mark);
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.filter((r) => r.apiKeyId !== keys.Payments!.id)).toEqual([]);
      expect(requests.filter((r) => identityIds.some((id) => `${r.path}?${r.query}`.includes(id)))).toEqual(
        [],
      );
      // Nor a list of a kind the teams own: it would answer the other team's objects too.
      expect(
        requests.filter((r) => /^\/v\d\/(schedules|escalation_paths|workflows|secrets)$/.test(r.path)),
      ).toEqual([]);
      const paymentsIds = Object.values(outputs.Payments);
      expect(
        requests
          .filter((r) => r.method !== "GET")
          .filter((r) => !paymentsIds.some((id) => r.path.endsWith(`/${id}`))),
      ).toEqual([]);

      // Destroyed in reverse order: the team stacks (at once), then the account-wide one.
      for (const run of await Promise.all([
        destroy(teamStack("Payments", "updated")),
        destroy(teamStack("Identity")),
      ]))
        expectOk(run);
      expectOk(await destroy(account()));
      expect(await accountLists()).toEqual(before);
      expect(h.emu.responseProblems).toEqual([]);
    },
    scenarioTimeoutMs,
  );
});

describe("examples/quickstart, as `npm run demo -- quickstart` runs it", () => {
  test(
    "create, no change, drift detected and restored, destroy, through the real CLI",
    () => {
      const demo = spawnSync(
        process.execPath,
        ["-r", "ts-node/register/transpile-only", path.join(root, "scripts", "demo.ts"), "quickstart"],
        {
          cwd: root,
          encoding: "utf8",
          env: { ...process.env, PATH: path.dirname(process.execPath), DEMO_ENGINE: "cli" },
        },
      );
      expect(demo.stderr).toBe("");
      expect(demo.status).toBe(0);
      expect(demo.stdout).toMatch(/Pulumi CLI v3\.\d+\.\d+ \(built by npm run pulumi:build\): using it/);
      const section = demo.stdout.split("examples/quickstart")[1]!;
      // Two custom fields, three options of one of them, an API key, and the stack.
      expect(section).toMatch(/\+ 7 created/);
      expect(section).toMatch(/pulumi preview --refresh \(drift detected\)[\s\S]*~ /);
      expect(section).toMatch(/pulumi destroy[\s\S]*- 7 deleted/);
      expect(demo.stdout).not.toContain("examples/oncall");
    },
    scenarioTimeoutMs,
  );
});
