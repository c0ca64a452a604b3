/**
 * The examples are real programs users copy: each runs through the harness (the real provider host),
 * or the real Pulumi CLI in the engine lane, against the emulator. examples/oncall is checked for what it promises: source → route →
 * escalation path → schedules with responders found by e-mail, plus a workflow; a second run
 * changes nothing with zero provider calls; refresh finds no drift; `variant=updated` updates in
 * place; destroy leaves the account as it was. examples/settings: account settings (issue 12). `npm run demo` (both examples, no Pulumi CLI here)
 * is run as users run it.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import type { RunResult } from "../tools/harness";
import { driver, scenarioTimeoutMs } from "./support/driver";
import { harnessFixture } from "./support/harnessFixture";

const root = path.join(__dirname, "..");

function expectOk(r: RunResult): RunResult {
  expect(r.errors).toEqual([]);
  expect(r.ok).toBe(true);
  return r;
}

describe("examples/oncall", () => {
  const h = harnessFixture(path.join(root, "examples", "oncall"));
  const { destroy, refresh, up } = h.driver;
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

      const second = expectOk(await up(options()));
      expect(second.steps.filter((s) => s.op !== "same")).toEqual([]);
      expect(second.apiCalls.filter((c) => c.from === "provider")).toEqual([]);
      const refreshed = expectOk(await refresh(options()));
      expect(refreshed.steps.filter((s) => s.op !== "same")).toEqual([]);

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

describe("examples/quickstart", () => {
  const h = harnessFixture(path.join(root, "examples", "quickstart"));
  const { destroy, up } = h.driver;

  test(
    "creates custom fields with options and an API key; a second run changes nothing; destroy removes them",
    async () => {
      const first = expectOk(await up(h.options()));
      expect(first.counts.create).toBe(6); // two custom fields, three options of one of them, an API key
      expect(Object.keys(first.secretOutputs)).toEqual(["ciKeyToken"]);
      const second = expectOk(await up(h.options()));
      expect(second.steps.filter((s) => s.op !== "same")).toEqual([]);
      expect(second.apiCalls.filter((c) => c.from === "provider")).toEqual([]);
      expectOk(await destroy(h.options()));
      expect(await h.list("/v2/custom_fields")).toEqual([]);
      expect(h.emu.responseProblems).toEqual([]);
    },
    scenarioTimeoutMs,
  );
});

describe("examples/catalog", () => {
  const h = harnessFixture(path.join(root, "examples", "catalog"));
  const { destroy, refresh, up } = h.driver;

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

      const second = expectOk(await up(h.options()));
      expect(second.steps.filter((s) => s.op !== "same")).toEqual([]);
      expect(second.apiCalls.filter((c) => c.from === "provider")).toEqual([]);
      expect(expectOk(await refresh(h.options())).steps.filter((s) => s.op !== "same")).toEqual([]);

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

      const second = expectOk(await up(options()));
      expect(second.steps.filter((s) => s.op !== "same")).toEqual([]);
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

// The demo in each lane: the harness in the fast lane, the CLI built by npm run pulumi:build in the engine lane.
describe(`npm run demo (${driver.name === "cli" ? "real CLI" : "harness"})`, () => {
  test(
    "runs both examples through create, no-op, drift, restore and destroy",
    () => {
      const demo = spawnSync(
        process.execPath,
        ["-r", "ts-node/register/transpile-only", path.join(root, "scripts", "demo.ts")],
        {
          cwd: root,
          encoding: "utf8",
          env: {
            ...process.env,
            PATH: path.dirname(process.execPath),
            DEMO_ENGINE: driver.name === "cli" ? "cli" : "harness",
          },
        },
      );
      expect(demo.stderr).toBe("");
      expect(demo.status).toBe(0);
      if (driver.name === "cli") {
        expect(demo.stdout).toMatch(/Pulumi CLI v3\.\d+\.\d+ \(built by npm run pulumi:build\): using it/);
        for (const example of ["quickstart", "oncall"]) {
          const section = demo.stdout.split(`examples/${example}`)[1]!;
          expect(section).toMatch(/pulumi preview --refresh \(drift detected\)[\s\S]*~ /);
          expect(section).toMatch(/pulumi destroy[\s\S]*deleted/);
        }
        return;
      }
      expect(demo.stdout).toContain("DEMO_ENGINE=harness: using the project's harness");
      for (const example of ["quickstart", "oncall"]) {
        const section = demo.stdout.split(`examples/${example}`)[1]!;
        expect(section).toContain("0 provider API calls");
        expect(section).toMatch(/read-drift/);
        expect(section).toMatch(/pulumi destroy/);
      }
    },
    scenarioTimeoutMs,
  );
});
