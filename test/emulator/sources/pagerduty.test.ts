/**
 * The PagerDuty source emulator (emulator/sources/pagerduty/): authentication, errors, offset
 * paging, and the rendered schedule computed from the layers by PagerDuty's documented rules
 * (shared/renderedSchedule.ts), on the fixture account (test/fixtures/migrate/pagerduty.json).
 * Every answer is checked against the shapes derived from PagerDuty's OpenAPI document.
 *
 * Times in the assertions are read with `toLocaleString` in the schedule's zone.
 */

import { PAGERDUTY_SHAPES } from "../../../emulator/sources";
import {
  finalSchedule,
  layerEntries,
  type PagerDutyLayer,
} from "../../../emulator/sources/pagerduty/shared/renderedSchedule";
import { shapeProblems } from "../../../emulator/sources/shapes";
import { ACCOUNT_NOW, SOURCE_KEYS, startSource, type TestSource } from "../../support/sourceAccounts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const local = (ms: number | string, tz: string) =>
  new Date(typeof ms === "string" ? Date.parse(ms) : ms)
    .toLocaleString("sv-SE", { timeZone: tz, hourCycle: "h23" })
    .replace(/:00$/, "");

describe("PagerDuty source emulator", () => {
  let pd: TestSource;
  beforeAll(async () => {
    pd = await startSource("pagerduty");
  });
  afterAll(async () => {
    expect(pd.responseProblems).toEqual([]);
    await pd.close();
  });

  test("needs `Authorization: Token token=<key>`; answers PagerDuty's error body", async () => {
    expect((await pd.get("/users", null)).status).toBe(401);
    const bearer = await pd.get("/users", `Bearer ${SOURCE_KEYS.pagerduty}`);
    expect(bearer).toEqual({ status: 401, body: { error: { message: "Unauthorized" } } });
    expect((await pd.get("/users")).status).toBe(200);
    expect(await pd.get("/schedules/PNOPE00")).toEqual({
      status: 404,
      body: { error: { message: "Not Found", code: 2100 } },
    });
  });

  test("serves the read side only: any other method is a 405", async () => {
    for (const method of ["POST", "PUT", "DELETE"])
      expect((await pd.call(method, "/schedules")).status).toBe(405);
  });

  test("pages lists by limit and offset, with more; total only when asked", async () => {
    const first = (await pd.get("/users?limit=2")).body;
    expect(first).toMatchObject({ limit: 2, offset: 0, more: true, total: null });
    expect(first.users.map((u: any) => u.email)).toEqual(["ada@example.com", "bob@example.com"]);
    const last = (await pd.get("/users?limit=2&offset=4&total=true")).body;
    expect(last).toMatchObject({ limit: 2, offset: 4, more: false, total: 5 });
    expect(last.users.map((u: any) => u.id)).toEqual(["PDAN005"]);
    expect((await pd.get("/users?limit=0")).status).toBe(400);
    expect((await pd.get("/teams?query=pay")).body.teams.map((t: any) => t.name)).toEqual(["Payments"]);
  });

  test("lists schedules without layers unless include[]=schedule_layers", async () => {
    const plain = (await pd.get("/schedules")).body.schedules;
    expect(plain[0].schedule_layers).toBeUndefined();
    const full = (await pd.get("/schedules?include[]=schedule_layers")).body.schedules;
    expect(full[0].schedule_layers.map((l: any) => l.name)).toEqual(["Business hours", "Weekends", "Weekly"]);
  });

  test("a schedule without since/until renders nothing; with them, the final schedule follows the layers", async () => {
    const bare = (await pd.get("/schedules/PSPAY01")).body.schedule;
    expect(bare.final_schedule).toEqual({ name: "Final Schedule", rendered_coverage_percentage: null });
    const since = "2027-03-15T00:00:00Z";
    const until = "2027-04-12T00:00:00Z";
    const s = (await pd.get(`/schedules/PSPAY01?since=${since}&until=${until}`)).body.schedule;
    const tz = s.time_zone;
    const who = (at: string) =>
      s.final_schedule.rendered_schedule_entries.find(
        (e: any) => Date.parse(e.start) <= Date.parse(at) && Date.parse(at) < Date.parse(e.end),
      )?.user.summary;
    // Weekly turns from Monday 1 March 09:00 local (Ada, Bob, Cat), the handoff kept at 09:00 EDT.
    expect(who("2027-03-17T16:00:00Z")).toBe("Cat Stevens");
    expect(who("2027-03-22T12:00:00Z")).toBe("Cat Stevens"); // 08:00 EDT, before Monday's handoff
    expect(who("2027-03-22T14:00:00Z")).toBe("Ada Lovelace");
    // The weekend layer (Sat 00:00 for 48 h, daily turns from Sat 6 March: Eve, Bob) hides the weekly one.
    expect(who("2027-03-20T16:00:00Z")).toBe("Eve Online");
    expect(who("2027-03-21T16:00:00Z")).toBe("Bob Builder");
    // From Monday 5 April 09:00, business hours (09:00 for 8 h, Cat then Ada by week) over the rest.
    expect(who("2027-04-05T12:00:00Z")).toBe("Bob Builder"); // 08:00 local: the weekly layer (turn 4)
    expect(who("2027-04-05T14:00:00Z")).toBe("Cat Stevens");
    expect(who("2027-04-05T21:30:00Z")).toBe("Cat Stevens"); // 17:30: the weekly layer's turn 5 is Cat's
    expect(who("2027-04-10T14:00:00Z")).toBe("Cat Stevens"); // Saturday 10:00: business hours win
    expect(who("2027-04-10T22:00:00Z")).toBe("Bob Builder"); // Saturday 18:00: the weekend layer
    // Entries are cut at the range, written in the schedule's zone, one per stretch of a user.
    const entries = s.final_schedule.rendered_schedule_entries;
    expect(entries[0].start).toBe("2027-03-14T20:00:00-04:00");
    expect(entries[entries.length - 1].end).toBe("2027-04-11T20:00:00-04:00");
    for (let i = 1; i < entries.length; i++) expect(entries[i].user.id).not.toBe(entries[i - 1].user.id);
    expect(s.final_schedule.rendered_coverage_percentage).toBe(100);
    // Each layer's own entries are answered too.
    const biz = s.schedule_layers.find((l: any) => l.name === "Business hours");
    expect(local(biz.rendered_schedule_entries[0].start, tz)).toBe("2027-04-05 09:00");
    expect(local(biz.rendered_schedule_entries[0].end, tz)).toBe("2027-04-05 17:00");
    expect(biz.rendered_coverage_percentage).toBeGreaterThan(0);
  });

  test("overflow=true answers entries whole; time_zone writes them in another zone", async () => {
    const q = "since=2027-03-16T12:00:00Z&until=2027-03-16T13:00:00Z";
    const cut = (await pd.get(`/schedules/PSPLAT1?${q}`)).body.schedule.final_schedule
      .rendered_schedule_entries;
    expect(cut).toHaveLength(1);
    expect(cut[0].start).toBe("2027-03-16T12:00:00Z");
    const whole = (await pd.get(`/schedules/PSPLAT1?${q}&overflow=true&time_zone=Asia/Kolkata`)).body.schedule
      .final_schedule.rendered_schedule_entries;
    expect(whole[0].start).toBe("2027-03-16T13:30:00+05:30");
    expect(whole[0].end).toBe("2027-03-17T13:30:00+05:30");
  });

  test("daily turns keep their local handoff across a daylight-saving change", () => {
    const layer: PagerDutyLayer = {
      id: "L",
      name: "L",
      start: "2027-03-20T08:00:00Z",
      rotation_virtual_start: "2027-03-20T08:00:00Z",
      rotation_turn_length_seconds: 86400,
      users: ["a", "b"],
    };
    const tz = "Europe/London";
    const entries = layerEntries(layer, tz, {
      start: Date.parse("2027-03-26T00:00:00Z"),
      end: Date.parse("2027-03-31T00:00:00Z"),
    });
    expect(entries.map((e) => `${local(e.start, tz)} ${e.user}`)).toEqual([
      "2027-03-25 08:00 b",
      "2027-03-26 08:00 a",
      "2027-03-27 08:00 b",
      "2027-03-28 08:00 a",
      "2027-03-29 08:00 b",
      "2027-03-30 08:00 a",
    ]);
    // The night of the change is an hour shorter; a 12-hour turn counts elapsed hours instead.
    expect((entries[2]!.end - entries[2]!.start) / HOUR).toBe(23);
    const hours = layerEntries({ ...layer, rotation_turn_length_seconds: 43200 }, tz, {
      start: Date.parse("2027-03-28T00:00:00Z"),
      end: Date.parse("2027-03-29T00:00:00Z"),
    });
    expect(hours.map((e) => local(e.start, tz))).toEqual([
      "2027-03-27 20:00",
      "2027-03-28 09:00",
      "2027-03-28 21:00",
    ]);
  });

  test("a restriction that runs past midnight, and one of a whole week, cut turns as documented", () => {
    const tz = "America/New_York";
    const base: PagerDutyLayer = {
      id: "N",
      name: "Nights",
      start: "2027-03-15T00:00:00-04:00",
      rotation_virtual_start: "2027-03-15T00:00:00-04:00",
      rotation_turn_length_seconds: 7 * 86400,
      users: ["a"],
      restrictions: [
        { type: "daily_restriction", start_time_of_day: "22:00:00", duration_seconds: 8 * 3600 },
      ],
    };
    const window = {
      start: Date.parse("2027-03-16T00:00:00-04:00"),
      end: Date.parse("2027-03-17T00:00:00-04:00"),
    };
    expect(layerEntries(base, tz, window).map((e) => `${local(e.start, tz)}–${local(e.end, tz)}`)).toEqual([
      "2027-03-15 22:00–2027-03-16 06:00",
      "2027-03-16 22:00–2027-03-17 06:00",
    ]);
    const weekly = layerEntries(
      {
        ...base,
        restrictions: [
          {
            type: "weekly_restriction",
            start_day_of_week: 5,
            start_time_of_day: "17:00:00",
            duration_seconds: 2.5 * 86400,
          },
        ],
      },
      tz,
      { start: Date.parse("2027-03-15T00:00:00-04:00"), end: Date.parse("2027-03-22T00:00:00-04:00") },
    );
    // Friday 17:00 for 60 hours: the previous week's ends on Monday 05:00; this week's runs past the turn.
    expect(weekly.map((e) => `${local(e.start, tz)}–${local(e.end, tz)}`)).toEqual([
      "2027-03-15 00:00–2027-03-15 05:00",
      "2027-03-19 17:00–2027-03-22 00:00",
    ]);
  });

  test("the first layer listed that has someone on call wins; an override wins over every layer", () => {
    const tz = "UTC";
    const w = { start: Date.parse("2027-03-15T00:00:00Z"), end: Date.parse("2027-03-16T00:00:00Z") };
    const all: PagerDutyLayer = {
      id: "A",
      name: "All day",
      start: "2027-03-01T00:00:00Z",
      rotation_virtual_start: "2027-03-01T00:00:00Z",
      rotation_turn_length_seconds: 86400,
      users: ["low"],
    };
    const noon: PagerDutyLayer = {
      ...all,
      id: "N",
      users: ["high"],
      restrictions: [{ type: "daily_restriction", start_time_of_day: "12:00:00", duration_seconds: 3600 }],
    };
    const text = (o: { start: number; end: number; user: string }[]) =>
      o.map((e) => `${new Date(e.start).toISOString().slice(11, 16)} ${e.user}`);
    expect(text(finalSchedule([noon, all], [], tz, w))).toEqual(["00:00 low", "12:00 high", "13:00 low"]);
    expect(text(finalSchedule([all, noon], [], tz, w))).toEqual(["00:00 low"]);
    const override = { id: "O", start: "2027-03-15T12:30:00Z", end: "2027-03-15T14:00:00Z", user: "cover" };
    expect(text(finalSchedule([noon, all], [override], tz, w))).toEqual([
      "00:00 low",
      "12:00 high",
      "12:30 cover",
      "14:00 low",
    ]);
  });

  test("escalation policies, services and overrides answer their references", async () => {
    const ep = (await pd.get("/escalation_policies/PEPAY01")).body.escalation_policy;
    expect(ep.num_loops).toBe(2);
    expect(ep.escalation_rules[0].targets[0]).toMatchObject({
      id: "PSPAY01",
      type: "schedule_reference",
      summary: "Payments primary",
    });
    expect(ep.services.map((s: any) => s.id)).toEqual(["PSVCHK1"]);
    const svc = (await pd.get("/services?include[]=integrations")).body.services;
    expect(svc[0].integrations.map((i: any) => i.type)).toEqual([
      "events_api_v2_inbound_integration_reference",
      "generic_email_inbound_integration_reference",
    ]);
    expect((await pd.get("/schedules/PSPAY01/overrides")).status).toBe(400);
    const since = new Date(ACCOUNT_NOW).toISOString();
    const until = new Date(ACCOUNT_NOW + 28 * DAY).toISOString();
    expect((await pd.get(`/schedules/PSPAY01/overrides?since=${since}&until=${until}`)).body).toEqual({
      overrides: [],
    });
  });

  test("answers are checked against the document's shapes: an unknown field, a missing one, a bad enum", () => {
    const user = { id: "P1", type: "user", name: "A", email: "a@example.com" };
    expect(shapeProblems(PAGERDUTY_SHAPES, "User", user)).toEqual([]);
    expect(shapeProblems(PAGERDUTY_SHAPES, "User", { ...user, nickname: "x" })).toEqual([
      { path: "User.nickname", message: "is not a field of User" },
    ]);
    expect(
      shapeProblems(PAGERDUTY_SHAPES, "User", { ...user, email: undefined, role: "boss" }).map((p) => p.path),
    ).toEqual(["User.email", "User.role"]);
    expect(PAGERDUTY_SHAPES.source.commit).toMatch(/^[0-9a-f]{40}$/);
  });
});
