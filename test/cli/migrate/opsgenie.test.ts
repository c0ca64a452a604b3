/**
 * `pulumi-incident migrate --from opsgenie`, in process: the fixture account
 * (test/fixtures/migrate/opsgenie.json: three rotations on call at once with a weekday-and-time
 * restriction that spans the working week, a time-of-day restriction past midnight, a rotation
 * that starts next month; an escalation whose rules share a delay, with a repeat and a schedule
 * recipient; a rotation with a `none` turn and a user this account lacks) read from the Opsgenie
 * emulator with GETs only; the plan; the program run in process against this API's emulator;
 * `--verify` over four weeks that cross the change to British Summer Time.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  type MigratedProject,
  migrateProject,
  migrationFixture,
  runMigrate,
} from "../../support/sourceAccounts";

describe("migrate --from opsgenie", () => {
  const f = migrationFixture("opsgenie");
  let project: MigratedProject;

  test("--plan names what is approximate (none turns, a missing user, if-not-closed) and what is not migrated (team recipients, routing conditions)", async () => {
    const json = path.join(f.parent, "plan.json");
    const run = await runMigrate(["--from", "opsgenie", "--plan", "--json", json], f.emu, {
      opsgenie: f.source,
    });
    expect(run.code).toBe(0);
    const plan = JSON.parse(fs.readFileSync(json, "utf8"));
    const lines = (name: string) =>
      plan.find((o: any) => o.name === name).items.map((i: any) => `${i.fidelity}: ${i.what} → ${i.how}`);
    expect(lines("payments_schedule").every((l: string) => l.startsWith("exact"))).toBe(true);
    expect(lines("payments_schedule")).toEqual(
      expect.arrayContaining([
        'exact: rotation "Weekdays": time restriction → working intervals Mon 09:00–Fri 18:00',
        expect.stringMatching(
          /^exact: rotation "Nights": time restriction → working intervals Mon 00:00–09:00, Mon 18:00–Tue 09:00, /,
        ),
        'exact: rotation "Weekend": starts later → rotation versions: now: nobody; from 2027-04-02 23:00 UTC: Sat 00:00–Mon 00:00',
      ]),
    );
    expect(lines("sre_schedule")).toContainEqual(
      expect.stringMatching(
        /^approximate: .*left out: Dan O'Brien \(dan@example\.com\) \(no user here\), a turn of nobody \(none\)/,
      ),
    );
    expect(lines("payments_escalation")).toEqual(
      expect.arrayContaining([
        "exact: rules at 0 minutes → level 1, timeToAckSeconds 600",
        "exact: rules at 10 minutes → level 2, timeToAckSeconds 900",
        "exact: rules at 25 minutes → level 3, timeToAckSeconds 300",
      ]),
    );
    expect(lines("sre_escalation")).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^unmapped: rules at 15 minutes: team SRE → a team recipient has no equivalent target here/,
        ),
        expect.stringMatching(/^approximate: rules at 15 minutes: if not closed → /),
      ]),
    );
    expect(lines("SRE Prometheus")).toContainEqual(
      expect.stringMatching(/^unmapped: team "SRE" routing rule "Critical" → /),
    );
  });

  test("writes the project: rotations side by side, restrictions as working intervals, the April rotation as a version", async () => {
    project = await migrateProject("opsgenie", f.emu, f.source, f.parent, "project");
    const made = (name: string, kind = "") =>
      project.stack.resources.find((r) => r.name === name && r.type.endsWith(kind))!;
    const [weekdays, nights, weekend] = made("payments-schedule").inputs.rotations;
    const intervals = (v: any) =>
      v.workingIntervals.map((w: any) => `${w.weekday} ${w.startTime}-${w.endTime}`);
    expect(intervals(weekdays.versions[0])).toEqual([
      "monday 09:00-24:00",
      "tuesday 00:00-24:00",
      "wednesday 00:00-24:00",
      "thursday 00:00-24:00",
      "friday 00:00-18:00",
    ]);
    expect(intervals(nights.versions[0])).toContain("sunday 18:00-24:00");
    expect(weekend.versions.map((v: any) => [v.effectiveFrom, v.users.length])).toEqual([
      [undefined, 0],
      ["2027-04-02T23:00:00Z", 2],
    ]);
    // Rules at one delay are one level, each waiting until the next delay (delays count from the
    // start); the last waits the repeat's interval, then the repeat goes back to the first node.
    expect(made("payments-escalation").inputs.path).toEqual([
      expect.objectContaining({ id: "start", level: expect.objectContaining({ timeToAckSeconds: 600 }) }),
      expect.objectContaining({
        level: expect.objectContaining({
          timeToAckSeconds: 900,
          targets: [expect.objectContaining({ type: "user" }), expect.objectContaining({ type: "user" })],
        }),
      }),
      expect.objectContaining({ level: expect.objectContaining({ timeToAckSeconds: 300 }) }),
      expect.objectContaining({ repeat: { repeatTimes: 2, toNode: "start" } }),
    ]);
    expect(made("sre-escalation").inputs.path[0].level.targets[0].scheduleMode).toBe("next_on_call");
    // The integration's route escalates as its team's default routing rule does.
    expect(
      made("payments-api", ":AlertRoute").inputs.escalationConfig.escalationTargets[0].escalationPaths
        .arrayValue[0].literal,
    ).toBe(made("payments-escalation").id);
  });

  test("--verify: the exact schedule and escalation match over four weeks; the approximate ones are named", async () => {
    const run = await runMigrate(
      ["--from", "opsgenie", "--verify", "--outputs", project.outputsFile],
      f.emu,
      {
        opsgenie: f.source,
      },
    );
    expect(run.err).toBe("");
    expect(run.out).toContain('schedule "payments_schedule" (exact): no difference');
    expect(run.out).toContain('escalation "payments_escalation" (exact): no difference');
    expect(run.out).toMatch(/schedule "sre_schedule" \(approximate\): differs in \d+ intervals/);
    expect(run.out).toContain(
      "2027-03-15 12:00 UTC – 2027-03-16 00:00 UTC: Opsgenie nobody; here bob@example.com",
    );
    expect(run.code).toBe(0);
    // Not vacuous: Opsgenie's timeline over the window has every rotation on call, across the clock change.
    const tl = (
      await f.source.get(
        "/v2/schedules/payments_schedule/timeline?identifierType=name&date=2027-03-15T00:00:00Z&interval=28&intervalUnit=days",
      )
    ).body.data.finalTimeline.rotations;
    expect(tl.map((r: any) => r.periods.length > 0)).toEqual([true, true, true]);
    // Before `pulumi up` (no --outputs): the written configuration computed here gives the same report.
    const before = await runMigrate(["--from", "opsgenie", "--verify"], f.emu, { opsgenie: f.source });
    expect(before.code).toBe(0);
    const body = (out: string) => out.split("\n").filter((l) => !l.startsWith("  (here:"));
    expect(body(before.out)).toEqual(body(run.out));
  });
});
