/**
 * `pulumi-incident migrate --from pagerduty`, in process: the fixture account
 * (test/fixtures/migrate/pagerduty.json: three stacked layers with daily and weekly restrictions
 * and one that starts next month, a policy that repeats and pages a schedule, a user this account
 * lacks) read from the PagerDuty emulator with GETs only; the plan; the program (layers as
 * rotations, restrictions as working intervals, versions), run in process against this API's
 * emulator; `--verify` over four weeks: no difference for the exact objects, Dan's turns named for
 * the approximate ones, and a difference found when the schedule here is changed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseComment } from "../../support/markdownDom";
import {
  ACCOUNT_NOW,
  type MigratedProject,
  migrateProject,
  migrationFixture,
  runMigrate,
  startTargetEmulator,
} from "../../support/sourceAccounts";

const DAY = 86_400_000;

describe("migrate --from pagerduty", () => {
  const f = migrationFixture("pagerduty");
  let project: MigratedProject;

  const fidelities = (plan: any[]) =>
    Object.fromEntries(
      plan.map((o) => [
        `${o.sourceKind} ${o.name}`,
        o.written.length === 0 && o.items.some((i: any) => i.fidelity === "unmapped")
          ? "unmapped"
          : o.items.some((i: any) => i.fidelity !== "exact")
            ? "approximate"
            : "exact",
      ]),
    );

  test("--plan: per object, what maps exactly, approximately (how) and not at all (why); writes nothing", async () => {
    const json = path.join(f.parent, "plan.json");
    const marks = [f.emu.requests.length, f.source.requests.length];
    const run = await runMigrate(["--from", "pagerduty", "--plan", "--json", json], f.emu, {
      pagerduty: f.source,
    });
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    expect(
      [...f.emu.requests.slice(marks[0]), ...f.source.requests.slice(marks[1])].filter(
        (r) => r.method !== "GET",
      ),
    ).toEqual([]);
    const plan = JSON.parse(fs.readFileSync(json, "utf8"));
    expect(fidelities(plan)).toEqual({
      "schedule Payments primary": "exact",
      "schedule Platform on call": "approximate",
      "escalation policy Payments escalation": "exact",
      "escalation policy Platform escalation": "approximate",
      "service Checkout API": "approximate",
      "service Legacy monitoring": "approximate",
      'user Dan "Night Owl" O\'Brien': "unmapped",
      "team Growth": "unmapped",
    });
    const items = (name: string) => plan.find((o: any) => o.name === name).items as any[];
    expect(items("Platform on call").find((i) => i.fidelity === "approximate").how).toMatch(
      /O'Brien \(dan@example\.com\) has no user here: left out, the others take the turns in order/,
    );
    expect(items("Payments primary").map((i) => `${i.what} → ${i.how}`)).toEqual(
      expect.arrayContaining([
        'layer "Business hours": daily restriction → working intervals Mon 09:00–17:00, Tue 09:00–17:00, Wed 09:00–17:00, Thu 09:00–17:00, Fri 09:00–17:00, Sat 09:00–17:00, Sun 09:00–17:00',
        'layer "Weekends": weekly restriction → working intervals Sat 00:00–Mon 00:00',
        expect.stringMatching(
          /^layer "Business hours": starts 2027-04-05T09:00:00-04:00 → a rotation version from then/,
        ),
        expect.stringMatching(
          /^layer "Weekly": changes ahead → rotation versions: now: Mon 00:00–Sat 00:00; from 2027-04-05 13:00 UTC: /,
        ),
      ]),
    );
    expect(items("Payments escalation").map((i) => i.what)).toEqual(
      expect.arrayContaining(['rule 1: schedule "Payments primary"', "repeats 2 times (num_loops)"]),
    );
    expect(items("Legacy monitoring")).toContainEqual(
      expect.objectContaining({ fidelity: "approximate", what: 'team "Growth"' }),
    );
    // The Markdown: one heading per object, every name as text.
    const md = parseComment(run.out);
    expect(md.problems).toEqual([]);
    expect(md.headings.map((h) => h.text)).toEqual(
      expect.arrayContaining([
        "Migration plan (from PagerDuty)",
        "schedule Payments primary — exact",
        `user Dan "Night Owl" O'Brien — not migrated`,
      ]),
    );
  });

  test("docs/migrate.md's sample plan is the tool's plan of this account (UPDATE_DOCS=1 rewrites it)", async () => {
    const file = path.join(__dirname, "..", "..", "..", "docs", "migrate.md");
    const doc = fs.readFileSync(file, "utf8");
    const [start, end] = ["<!-- sample-migrate-plan:start -->\n", "<!-- sample-migrate-plan:end -->"];
    const run = await runMigrate(["--from", "pagerduty", "--plan"], f.emu, { pagerduty: f.source });
    if (process.env.UPDATE_DOCS === "1")
      fs.writeFileSync(
        file,
        doc.slice(0, doc.indexOf(start) + start.length) + run.out + doc.slice(doc.indexOf(end)),
      );
    const sample = doc.slice(doc.indexOf(start) + start.length, doc.indexOf(end));
    expect(sample).toBe(run.out);
  });

  test("writes the project: layers as rotations side by side, each less the hours of the layers above it", async () => {
    project = await migrateProject("pagerduty", f.emu, f.source, f.parent, "project");
    const made = (name: string) => project.stack.resources.find((r) => r.name === name)!;
    const schedule = made("payments-primary").inputs;
    expect(schedule.timezone).toBe("America/New_York");
    expect(schedule.rotations.map((r: any) => r.id)).toEqual(["weekly", "weekends", "business-hours"]);
    const [weekly, weekends, business] = schedule.rotations;
    const intervals = (v: any) =>
      (v.workingIntervals ?? []).map((w: any) => `${w.weekday} ${w.startTime}-${w.endTime}`);
    // Now: the weekly layer on weekdays (the weekend layer covers Saturday and Sunday)…
    expect(intervals(weekly.versions[0])).toEqual(
      ["monday", "tuesday", "wednesday", "thursday", "friday"].map((d) => `${d} 00:00-24:00`),
    );
    expect(intervals(weekends.versions[0])).toEqual(["saturday 00:00-24:00", "sunday 00:00-24:00"]);
    // …from 5 April, business hours (a layer that starts next month) over both.
    expect(business.versions[0].users).toEqual([]);
    expect(business.versions[1].effectiveFrom).toBe("2027-04-05T09:00:00-04:00");
    expect(intervals(business.versions[1])).toHaveLength(7);
    expect(weekly.versions[1].effectiveFrom).toBe("2027-04-05T09:00:00-04:00");
    expect(intervals(weekly.versions[1])).toContain("monday 17:00-24:00");
    expect(intervals(weekends.versions[1])).toEqual([
      "saturday 00:00-09:00",
      "saturday 17:00-24:00",
      "sunday 00:00-09:00",
      "sunday 17:00-24:00",
    ]);
    expect(weekly.versions[0].handovers).toEqual([{ interval: 1, intervalType: "weekly" }]);
    expect(weekends.versions[0].handovers).toEqual([{ interval: 1, intervalType: "daily" }]);
    // People by e-mail (getUser); the person this account lacks is left out and named above the resource.
    expect(project.text).toContain('const ada = incident.getUserOutput({ email: "ada@example.com" });');
    expect(project.text).not.toContain('email: "dan@example.com"');
    expect(project.text).toMatch(
      /\/\/ Approximate: layer "Layer 1": users .*O'Brien \(dan@example\.com\).* has no user here/,
    );
    // The policy: rules as levels, the schedule target, the repeat.
    const path = made("payments-escalation").inputs.path;
    expect(path).toEqual([
      expect.objectContaining({
        id: "start",
        level: expect.objectContaining({
          targets: [expect.objectContaining({ type: "schedule", scheduleMode: "currently_on_call" })],
          timeToAckSeconds: 900,
        }),
      }),
      expect.objectContaining({ level: expect.objectContaining({ timeToAckSeconds: 1800 }) }),
      expect.objectContaining({ repeat: { repeatTimes: 2, toNode: "start" } }),
    ]);
    // The service: a route escalating to the path, an alert source per integration.
    expect(made("checkout-api").inputs.escalationConfig.escalationTargets).toEqual([
      { escalationPaths: { arrayValue: [{ literal: made("payments-escalation").id }] } },
    ]);
    expect(made("legacy-monitoring").inputs.enabled).toBe(false);
    expect(
      project.stack.resources
        .filter((r) => r.type.endsWith(":AlertSource"))
        .map((r) => r.inputs.sourceType)
        .sort(),
    ).toEqual(["email", "http", "nagios"]);
    // The stack output --verify reads; the README holds the plan.
    expect(project.stack.outputs.migrated.schedules).toEqual({
      PSPAY01: made("payments-primary").id,
      PSPLAT1: made("platform-on-call").id,
    });
    const readme = fs.readFileSync(`${project.dir}/README.md`, "utf8");
    expect(readme).toContain("## Migration plan (from PagerDuty)");
    expect(parseComment(readme.slice(readme.indexOf("## Migration plan"))).problems).toEqual([]);
  });

  test("--verify: no difference over four weeks for the exact objects; the approximate ones name Dan's turns", async () => {
    // Not vacuous: the source's final schedule changes hands many times among four people, and crosses April 5.
    const window = `since=${new Date(ACCOUNT_NOW).toISOString()}&until=${new Date(ACCOUNT_NOW + 28 * DAY).toISOString()}`;
    const final = (await f.source.get(`/schedules/PSPAY01?${window}`)).body.schedule.final_schedule
      .rendered_schedule_entries;
    expect(final.length).toBeGreaterThan(15);
    expect(new Set(final.map((e: any) => e.user.id)).size).toBe(4);
    const marks = [f.emu.requests.length, f.source.requests.length];
    const run = await runMigrate(
      ["--from", "pagerduty", "--verify", "--outputs", project.outputsFile],
      f.emu,
      {
        pagerduty: f.source,
      },
    );
    expect(run.err).toBe("");
    expect(
      [...f.emu.requests.slice(marks[0]), ...f.source.requests.slice(marks[1])].filter(
        (r) => r.method !== "GET",
      ),
    ).toEqual([]);
    expect(run.out).toContain("from 2027-03-15 00:00 UTC for 28 days");
    expect(run.out).toContain('schedule "Payments primary" (exact): no difference');
    expect(run.out).toContain('escalation policy "Payments escalation" (exact): no difference');
    expect(run.out).toMatch(/schedule "Platform on call" \(approximate\): differs in \d+ intervals/);
    expect(run.out).toMatch(
      /2027-03-17 08:00 UTC – 2027-03-18 08:00 UTC: PagerDuty dan@example\.com; here bob@example\.com/,
    );
    expect(run.out).toMatch(
      /level 2 \(after 10 min\): 1 intervals differ\n.*PagerDuty bob@example\.com, dan@example\.com; here bob@example\.com/,
    );
    expect(run.out).toContain("Every exact object is on call as in the source.");
    expect(run.code).toBe(0);
  });

  test("--verify before pulumi up: the written configuration, computed here, matches the source as the service's entries do after", async () => {
    const marks = [f.emu.requests.length, f.source.requests.length];
    const before = await runMigrate(["--from", "pagerduty", "--verify"], f.emu, { pagerduty: f.source });
    expect(before.err).toBe("");
    expect(
      [...f.emu.requests.slice(marks[0]), ...f.source.requests.slice(marks[1])].filter(
        (r) => r.method !== "GET",
      ),
    ).toEqual([]);
    // No entries read here: nothing exists here yet to read.
    expect(f.emu.requests.slice(marks[0]).filter((r) => r.path.startsWith("/v2/schedule_entries"))).toEqual(
      [],
    );
    expect(before.out).toContain("(here: the written configuration, before `pulumi up`, computed by");
    expect(before.out).toContain('schedule "Payments primary" (exact): no difference');
    expect(before.out).toContain('escalation policy "Payments escalation" (exact): no difference');
    expect(before.out).toMatch(
      /2027-03-17 08:00 UTC – 2027-03-18 08:00 UTC: PagerDuty dan@example\.com; here bob@example\.com/,
    );
    expect(before.code).toBe(0);
    // The same differences as the service's entries of the created stack give, line for line.
    const after = await runMigrate(
      ["--from", "pagerduty", "--verify", "--outputs", project.outputsFile],
      f.emu,
      {
        pagerduty: f.source,
      },
    );
    const body = (out: string) => out.split("\n").filter((l) => !l.startsWith("  (here:"));
    expect(body(before.out)).toEqual(body(after.out));
  });

  test("--verify fails (exit 2) and names the instants when the schedule here no longer matches", async () => {
    const id = project.stack.outputs.migrated.schedules.PSPAY01;
    const live = (await f.emu.ok("GET", `/v2/schedules/${id}`)).schedule;
    // Someone drops the weekend layer's working intervals in the dashboard.
    const rotations = live.config.rotations.map((r: any) => ({
      ...r,
      users: r.users.map((u: any) => ({ id: u.id })),
      working_intervals:
        r.id === "weekends" || r.working_intervals.length === 0 ? undefined : r.working_intervals,
      working_interval: undefined,
    }));
    await f.emu.ok("PUT", `/v2/schedules/${id}`, { body: { schedule: { config: { rotations } } } });
    const run = await runMigrate(
      ["--from", "pagerduty", "--verify", "--outputs", project.outputsFile],
      f.emu,
      {
        pagerduty: f.source,
      },
    );
    expect(run.code).toBe(2);
    expect(run.out).toMatch(/schedule "Payments primary" \(exact\): differs in \d+ intervals/);
    // A Wednesday: the weekly layer's Cat in PagerDuty, Cat and the weekend layer's person here.
    expect(run.out).toMatch(
      /2027-03-1\d \d\d:00 UTC – .*: PagerDuty cat@example\.com; here (bob|eve)@example\.com, cat@example\.com/,
    );
    // The policy paging that schedule differs with it.
    expect(run.out).toMatch(
      /escalation policy "Payments escalation" \(exact\): differs:\n {4}level 1 \(after 0 min\): \d+ intervals differ/,
    );
    expect(run.out).toContain("2 object(s) the plan calls exact differ");
  });

  test("--modules: one module per kind, index.ts exporting the output from them; --dry-run writes nothing", async () => {
    // An account of its own: names of alert sources and escalation paths are unique in one.
    const empty = await startTargetEmulator();
    const split = await migrateProject("pagerduty", empty, f.source, f.parent, "modules", [
      "--modules",
    ]).finally(() => empty.dispose());
    const index = fs.readFileSync(path.join(split.dir, "index.ts"), "utf8");
    expect(index).toContain('import { paymentsEscalation, platformEscalation } from "./escalationPaths";');
    expect(index).toContain('import { paymentsPrimary, platformOnCall } from "./schedules";');
    expect(index).toContain('import "./alertRoutes";');
    expect(Object.keys(split.stack.outputs.migrated.schedules).sort()).toEqual(["PSPAY01", "PSPLAT1"]);
    const dry = path.join(f.parent, "dry");
    const run = await runMigrate(["--from", "pagerduty", dry, "--dry-run"], f.emu, { pagerduty: f.source });
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^Dry run: would write 5 files\n {2}Pulumi\.yaml/);
    expect(fs.existsSync(dry)).toBe(false);
  });

  test("--team and --name select objects, and bring in what they need", async () => {
    const plan = async (...args: string[]) => {
      const json = path.join(f.parent, `plan-${args.join("-").replace(/\W/g, "")}.json`);
      const run = await runMigrate(["--from", "pagerduty", "--plan", "--json", json, ...args], f.emu, {
        pagerduty: f.source,
      });
      expect(run.code).toBe(0);
      return JSON.parse(fs.readFileSync(json, "utf8")).filter(
        (o: any) => o.sourceKind !== "user" && o.sourceKind !== "team",
      );
    };
    expect((await plan("--team", "Platform")).map((o: any) => o.name)).toEqual([
      "Platform on call",
      "Platform escalation",
    ]);
    const byName = await plan("--name", "^Checkout");
    expect(byName.map((o: any) => [o.name, o.neededBy])).toEqual([
      ["Payments primary", 'escalation policy "Payments escalation"'],
      ["Payments escalation", 'service "Checkout API"'],
      ["Checkout API", undefined],
    ]);
  });

  test("an object already here under a name the migration gives: the plan names it and the id to adopt, before any write", async () => {
    // An account of its own, with a schedule made by hand under the name of a source schedule.
    const here = await startTargetEmulator();
    try {
      const someone = (await here.call("GET", "/v2/users")).body.users[0];
      const made = await here.call("POST", "/v2/schedules", {
        body: {
          schedule: {
            name: "Payments primary",
            timezone: "Europe/London",
            config: {
              rotations: [
                {
                  id: "by-hand",
                  name: "By hand",
                  handover_start_at: "2027-01-04T09:00:00Z",
                  handovers: [{ interval: 1, interval_type: "weekly" }],
                  layers: [{ name: "Layer 1" }],
                  users: [{ id: someone.id }],
                },
              ],
            },
          },
        },
      });
      expect(made.status).toBe(201);
      const id = made.body.schedule.id as string;
      const mark = here.requests.length;
      const json = path.join(f.parent, "plan-namesakes.json");
      const run = await runMigrate(["--from", "pagerduty", "--plan", "--json", json], here, {
        pagerduty: f.source,
      });
      expect(run.code).toBe(0);
      const plan = JSON.parse(fs.readFileSync(json, "utf8"));
      expect(plan.filter((o: any) => o.namesakes).map((o: any) => [o.name, o.namesakes])).toEqual([
        ["Payments primary", [{ kind: "Schedule", key: "Schedule:PSPAY01", id, name: "Payments primary" }]],
      ]);
      const md = parseComment(run.out);
      expect(md.problems).toEqual([]);
      expect(md.text).toContain("1 object of this account already has a name the migration gives");
      expect(md.text).toContain(
        `Already here: this account has a Schedule named Payments primary (${id}). pulumi up makes another beside it`,
      );
      expect(run.out).toContain(`\`adoptId: "${id}"\` on the resource \`payments-primary\``);
      // GETs only: one list read per kind the migration declares, besides the people and teams.
      const reads = here.requests.slice(mark);
      expect(reads.filter((r) => r.method !== "GET")).toEqual([]);
      expect(reads.filter((r) => r.path.startsWith("/v2/schedules")).length).toBe(1);

      // The terminal's plan (written with every run) says it too, on one line.
      const dry = await runMigrate(
        ["--from", "pagerduty", path.join(f.parent, "dry-namesakes"), "--dry-run"],
        here,
        {
          pagerduty: f.source,
        },
      );
      expect(dry.out).toContain(
        `already here: Schedule "Payments primary" (${id}): up makes another beside it; set adoptId to take it over, or rename one`,
      );
      // And above the resource in the code the pull request shows.
      const written = path.join(f.parent, "namesakes-project");
      expect((await runMigrate(["--from", "pagerduty", written], here, { pagerduty: f.source })).code).toBe(
        0,
      );
      const code = fs.readFileSync(path.join(written, "index.ts"), "utf8");
      const comment = `// Already here: a Schedule named "Payments primary" (${id}): pulumi up makes another beside it; set adoptId: "${id}" to take it over, or rename one`;
      expect(code).toContain(comment);
      expect(code.indexOf(comment)).toBeLessThan(code.indexOf('new incident.Schedule("payments-primary"'));

      // A key that may read schedules and paths but not alert sources and routes: the plan says so
      // and still names the schedule.
      const onCall = { apiKey: await here.createApiKey("on-call reader", ["on_call_viewer"]), url: here.url };
      const partial = await runMigrate(["--from", "pagerduty", "--plan"], onCall, { pagerduty: f.source });
      expect(partial.code).toBe(0);
      const partialText = parseComment(partial.out).text;
      for (const kind of ["AlertSource", "AlertRoute"])
        expect(partialText).toContain(
          `Not checked: whether this account already has a ${kind} under a name the migration gives (its list answered 403`,
        );
      expect(partialText).toContain(
        `Already here: this account has a Schedule named Payments primary (${id})`,
      );
    } finally {
      await here.dispose();
    }
  });
});
