/**
 * The Opsgenie source emulator (emulator/sources/opsgenie/): authentication, errors, the users
 * list's paging, identifiers, and the schedule timeline computed from the rotations by Opsgenie's
 * documented rules (shared/timeline.ts), on the fixture account (test/fixtures/migrate/opsgenie.json).
 * Every answer is checked against the shapes derived from Opsgenie's OpenAPI document.
 */
import { type OpsgenieRotation, rotationPeriods } from "../../../emulator/sources/opsgenie/shared/timeline";
import { SOURCE_KEYS, startSource, type TestSource } from "../../support/sourceAccounts";

const local = (ms: number | string, tz: string) =>
  new Date(typeof ms === "string" ? Date.parse(ms) : ms)
    .toLocaleString("sv-SE", { timeZone: tz, hourCycle: "h23" })
    .replace(/:00$/, "");

const PAYMENTS = "3f2e1d0c-0001-4b00-8000-000000000501";

describe("Opsgenie source emulator", () => {
  let og: TestSource;
  beforeAll(async () => {
    og = await startSource("opsgenie");
  });
  afterAll(async () => {
    expect(og.responseProblems).toEqual([]);
    await og.close();
  });

  test("needs `Authorization: GenieKey <key>`; answers Opsgenie's error body", async () => {
    const denied = await og.get("/v2/users", `Token token=${SOURCE_KEYS.opsgenie}`);
    expect(denied.status).toBe(401);
    expect(denied.body).toMatchObject({ message: "Unauthorized", took: 0 });
    expect(typeof denied.body.requestId).toBe("string");
    expect((await og.get("/v2/users")).status).toBe(200);
    expect((await og.call("DELETE", `/v2/schedules/${PAYMENTS}`)).status).toBe(405);
    const missing = await og.get("/v2/schedules/nope");
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Schedule with identifier [nope] does not exist");
  });

  test("pages users by limit and offset (paging.next until the last page); finds by id or name", async () => {
    const first = (await og.get("/v2/users?limit=2")).body;
    expect(first.data.map((u: any) => u.username)).toEqual(["ada@example.com", "bob@example.com"]);
    expect(first.totalCount).toBe(5);
    expect(first.paging.next).toMatch(/\/v2\/users\?limit=2&offset=2$/);
    const last = (await og.get("/v2/users?limit=2&offset=4")).body;
    expect(last.paging.next).toBeUndefined();
    expect(last.data.map((u: any) => u.username)).toEqual(["dan@example.com"]);
    const byName = (await og.get("/v2/schedules/payments_schedule?identifierType=name")).body.data;
    expect(byName.id).toBe(PAYMENTS);
    expect((await og.get("/v2/schedules")).body.data[0].rotations).toBeUndefined();
    expect((await og.get("/v2/schedules?expand=rotation")).body.data[0].rotations).toHaveLength(3);
    const rules = (await og.get("/v2/teams/SRE/routing-rules?teamIdentifierType=name")).body.data;
    expect(rules.map((r: any) => [r.name, r.isDefault, r.notify.type])).toEqual([
      ["Default", true, "escalation"],
      ["Critical", false, "schedule"],
    ]);
  });

  test("the timeline: every rotation on call at once, cut to its restrictions, from date for the interval", async () => {
    const tl = (
      await og.get(
        `/v2/schedules/${PAYMENTS}/timeline?date=2027-03-15T00:00:00Z&interval=4&intervalUnit=weeks`,
      )
    ).body.data;
    expect(tl.startDate).toBe("2027-03-15T00:00:00Z");
    expect(tl.endDate).toBe("2027-04-12T00:00:00Z");
    const tz = "Europe/London";
    const at = (rotation: string, when: string) =>
      tl.finalTimeline.rotations
        .find((r: any) => r.name === rotation)
        .periods.find(
          (p: any) => Date.parse(p.startDate) <= Date.parse(when) && Date.parse(when) < Date.parse(p.endDate),
        )?.recipient.name;
    // Weekdays: weekly from Monday 8 March 09:00 (Ada, Bob, Cat), Monday 09:00 to Friday 18:00 only.
    expect(at("Weekdays", "2027-03-17T12:00:00Z")).toBe("bob@example.com");
    expect(at("Weekdays", "2027-03-19T19:00:00Z")).toBeUndefined(); // Friday 19:00
    expect(at("Weekdays", "2027-03-22T08:30:00Z")).toBeUndefined(); // Monday 08:30
    expect(at("Weekdays", "2027-03-22T09:30:00Z")).toBe("cat@example.com");
    // Nights: daily at 18:00 local (Eve, Ada), 18:00 to 09:00, across the change to summer time.
    const nights = tl.finalTimeline.rotations.find((r: any) => r.name === "Nights").periods;
    const n = nights.find((p: any) => local(p.startDate, tz) === "2027-03-27 18:00");
    expect(local(n.endDate, tz)).toBe("2027-03-28 09:00");
    expect((Date.parse(n.endDate) - Date.parse(n.startDate)) / 3_600_000).toBe(14);
    const after = nights.find((p: any) => local(p.startDate, tz) === "2027-03-28 18:00");
    expect(after.startDate).toBe("2027-03-28T17:00:00Z");
    // Weekend: starts Saturday 3 April (next month), Saturday 00:00 to Monday 00:00.
    expect(at("Weekend", "2027-03-27T12:00:00Z")).toBeUndefined();
    expect(at("Weekend", "2027-04-03T12:00:00Z")).toBe("bob@example.com");
    expect(at("Weekend", "2027-04-05T12:00:00Z")).toBeUndefined();
    expect(at("Weekend", "2027-04-10T12:00:00Z")).toBe("cat@example.com");
    expect(tl.finalTimeline.rotations.map((r: any) => r.order)).toEqual([1, 2, 3]);
    expect(tl.baseTimeline).toBeUndefined();
  });

  test("a `none` participant's turn has nobody; hourly turns count elapsed hours", async () => {
    const tl = (
      await og.get(
        "/v2/schedules/sre_schedule/timeline?identifierType=name&date=2027-03-15T00:00:00Z&interval=2&intervalUnit=days",
      )
    ).body.data;
    const periods = tl.finalTimeline.rotations[0].periods.map(
      (p: any) => `${p.startDate} ${p.recipient.name}`,
    );
    // Turns of 12 hours from 1 March 00:00: Bob, Dan, nobody; 15 March 00:00 is turn 28 (28 mod 3 = 1).
    // 15 March 12:00 is turn 29: nobody's.
    expect(periods).toEqual([
      "2027-03-15T00:00:00Z dan@example.com",
      "2027-03-16T00:00:00Z bob@example.com",
      "2027-03-16T12:00:00Z dan@example.com",
    ]);
  });

  test("a time-of-day restriction ending when it starts is a whole day; weekday ones wrap the week", () => {
    const rotation: OpsgenieRotation = {
      id: "r",
      name: "r",
      startDate: "2027-03-15T00:00:00Z",
      type: "weekly",
      participants: [{ type: "user", id: "u" }],
      timeRestriction: {
        type: "time-of-day",
        restriction: { startHour: 6, startMin: 0, endHour: 6, endMin: 0 },
      },
    };
    const w = { start: Date.parse("2027-03-15T00:00:00Z"), end: Date.parse("2027-03-17T00:00:00Z") };
    expect(rotationPeriods(rotation, "UTC", w).map((p) => [p.start, p.end])).toEqual([[w.start, w.end]]);
    const wrap = rotationPeriods(
      {
        ...rotation,
        timeRestriction: {
          type: "weekday-and-time-of-day",
          restrictions: [
            { startDay: "sunday", startHour: 22, startMin: 0, endDay: "monday", endHour: 2, endMin: 0 },
          ],
        },
      },
      "UTC",
      { start: Date.parse("2027-03-15T00:00:00Z"), end: Date.parse("2027-03-29T00:00:00Z") },
    );
    expect(wrap.map((p) => `${new Date(p.start).toISOString()}–${new Date(p.end).toISOString()}`)).toEqual([
      "2027-03-15T00:00:00.000Z–2027-03-15T02:00:00.000Z",
      "2027-03-21T22:00:00.000Z–2027-03-22T00:00:00.000Z",
      "2027-03-22T00:00:00.000Z–2027-03-22T02:00:00.000Z",
      "2027-03-28T22:00:00.000Z–2027-03-29T00:00:00.000Z",
    ]);
  });

  test("escalations and integrations", async () => {
    const esc = (await og.get("/v2/escalations/payments_escalation?identifierType=name")).body.data;
    expect(
      esc.rules.map((r: any) => [
        r.delay.timeAmount,
        r.recipient.type,
        r.recipient.name ?? r.recipient.username,
      ]),
    ).toEqual([
      [0, "schedule", "payments_schedule"],
      [10, "user", "eve@example.com"],
      [10, "user", "bob@example.com"],
      [25, "user", "ada@example.com"],
    ]);
    expect(esc.repeat).toEqual({
      waitInterval: 5,
      count: 2,
      resetRecipientStates: false,
      closeAlertAfterAll: false,
    });
    const integrations = (await og.get("/v2/integrations")).body.data;
    expect(integrations.map((i: any) => i.type)).toEqual(["API", "Prometheus"]);
  });
});
