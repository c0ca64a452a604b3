/**
 * `pulumi-incident export` round trips (test/support/exportRoundTrip.ts) through the harness, and in
 * the engine lane through the real Pulumi CLI:
 * - examples/oncall's account, made by `pulumi up` of the example, plus a secret made in the dashboard;
 * - a rich account with objects of every kind: every example and the lifecycle programs, plus
 *   test/fixtures/richAccount (a three-level escalation tree, a three-version rota, a workflow whose
 *   condition and expression name a custom field and its option, catalog entries pointing at each
 *   other, colliding and non-Latin names), and objects made through the API as in the dashboard.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { providers } from "../resources";
import { resourceFiles } from "../scripts/generate/index";
import * as harness from "../tools/harness";
import { dashboardEscalationPath, dashboardSchedule } from "./support/dashboard";
import { describeExportRoundTrip } from "./support/exportRoundTrip";

const root = path.join(__dirname, "..");

describeExportRoundTrip({
  title: "examples/oncall's account",
  atLeast: 10,
  kinds: ["AlertAttribute", "AlertSource", "AlertRoute", "EscalationPath", "Schedule", "Workflow", "Secret"],
  async seed(emu) {
    const made = await harness.up({
      program: path.join(root, "examples", "oncall"),
      stateFile: path.join(os.tmpdir(), `oncall-seed-${process.pid}.json`),
      config: { "incident:apiKey": emu.apiKey, "incident:baseUrl": emu.url },
      secretConfig: ["incident:apiKey"],
    });
    if (!made.ok)
      throw new Error(`seeding examples/oncall failed: ${made.errors.map((e) => e.message).join("; ")}`);
    await emu.ok("POST", "/v2/secrets", { body: { name: "Pager webhook token", value: "tok_live_8f2a" } });
    return { secretValues: { "Pager webhook token": "tok_live_8f2a" } };
  },
});

/**
 * The lifecycle fixture programs that stand alone (a kind's test/fixtures/<kind>/program that
 * requires no stack config and looks up nothing but the account's seeded users and teams): a new
 * kind's fixture joins the rich account by itself.
 */
const standaloneLifecyclePrograms = resourceFiles(root)
  .map((file) => `test/fixtures/${path.basename(file, ".ts")}/program`)
  .filter((dir) => {
    const program = path.join(root, dir, "index.ts");
    if (!fs.existsSync(program)) return false;
    const text = fs.readFileSync(program, "utf8");
    return !text.includes("config.require(") && !/incident\.get(?!User|Team)[A-Z]/.test(text);
  });

/** Programs whose objects make up the rich account (each its own stack: the account holds them all). */
const RICH_PROGRAMS = [
  "examples/oncall",
  "examples/catalog",
  "examples/settings",
  "examples/quickstart",
  "test/fixtures/richAccount/program",
  ...standaloneLifecyclePrograms,
];

describeExportRoundTrip({
  title: "a rich account: every kind",
  atLeast: 70,
  kinds: Object.keys(providers).filter((k) => !providers[k]!.spec.notExported),
  async seed(emu) {
    for (const program of RICH_PROGRAMS) {
      const made = await harness.up({
        program: path.join(root, program),
        stateFile: path.join(os.tmpdir(), `rich-seed-${process.pid}-${program.replace(/\W/g, "-")}.json`),
        config: { "incident:apiKey": emu.apiKey, "incident:baseUrl": emu.url },
        secretConfig: ["incident:apiKey"],
      });
      if (!made.ok)
        throw new Error(`seeding ${program} failed: ${made.errors.map((e) => e.message).join("; ")}`);
    }
    // Made in the dashboard: an escalation path and a schedule, and a rule syncing that schedule.
    const users = (await emu.ok("GET", "/v2/users?page_size=25")).users as Array<{
      id: string;
      email: string;
    }>;
    const dan = users.find((u) => u.email === "dan@example.com") ?? users[0]!;
    const schedule = (
      await emu.ok("POST", "/v2/schedules", {
        body: dashboardSchedule({
          name: "Dashboard rota",
          timezone: "Europe/Paris",
          handoverStartAt: "2026-02-02T08:00:00Z",
          users: [dan.id],
        }),
      })
    ).schedule;
    await emu.ok("POST", "/v2/escalation_paths", {
      body: dashboardEscalationPath("Dashboard path", { userId: dan.id }),
    });
    const target = (await emu.ok("GET", "/v2/schedule_sync_targets?page_size=25")).schedule_sync_targets[0];
    await emu.ok("POST", `/v2/schedules/${schedule.id}/sync_rules`, {
      body: { schedule_sync_rule: { schedule_sync_target_id: target.id, sync_type: "on_call" } },
    });
    await emu.ok("POST", "/v2/secrets", { body: { name: "Dashboard token", value: "dash-token-9876" } });
    return {
      secretValues: {
        "Lifecycle webhook token": "lifecycle-token-first-1111",
        "Deploy webhook token": "example-token-change-me",
        "Dashboard token": "dash-token-9876",
      },
    };
  },
});
