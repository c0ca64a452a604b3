/**
 * Schedule entries (issue 29 item 1): the evaluator (emulator/families/shared/scheduleEntries.ts)
 * by its properties and by examples in daylight-saving weeks, and the two endpoints that answer
 * with it (`POST /v2/schedules/{id}/actions/preview_entries`, `GET /v2/schedule_entries`): shapes,
 * windows, paging, roles, nothing stored by a preview.
 *
 * Times in the assertions are read with `toLocaleString` in the schedule's zone, not with the
 * evaluator's own zonedTime helpers.
 */
import fc from "fast-check";
import { ENTRIES_PAGE_SIZE } from "../../emulator/families/scheduleEntries";
import {
  mergeOverrides,
  type OverrideInput,
  type RotationVersion,
  type ScheduleEntry,
  scheduleEntries,
  uncovered,
} from "../../emulator/families/shared/scheduleEntries";
import { expectErrorBody, expectShape, startTestEmulator, type TestEmulator } from "../support/emulator";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONES = ["Europe/London", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "UTC"] as const;

const formats = new Map<string, Intl.DateTimeFormat>();
function format(tz: string, options: Intl.DateTimeFormatOptions, locale = "sv-SE"): Intl.DateTimeFormat {
  const key = `${locale} ${tz} ${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { timeZone: tz, ...options });
    formats.set(key, f);
  }
  return f;
}

/** `2026-03-29 09:00` (with `:ss` when not zero) in `tz`, read with the runtime's own formatting. */
function local(instant: number | string, tz: string): string {
  const ms = typeof instant === "string" ? Date.parse(instant) : instant;
  const text = format(tz, {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).format(ms);
  return text.replace(/:00$/, "");
}
const weekdayOf = (ms: number, tz: string) =>
  format(tz, { weekday: "long" }, "en-US").format(ms).toLowerCase();

const evaluate = <U>(
  timezone: string,
  rotations: RotationVersion<U>[],
  window: { start: number; end: number },
  overrides: OverrideInput<U>[] = [],
) => scheduleEntries({ timezone, rotations }, overrides, window);

const span = (e: ScheduleEntry<unknown>) => [Date.parse(e.start_at), Date.parse(e.end_at)] as const;
const ofLayer = <U>(entries: ScheduleEntry<U>[], layer: string) =>
  entries.filter((e) => e.layer_id === layer);

// ---------------------------------------------------------------------------------- generators

const handover = fc.record({
  interval: fc.integer({ min: 1, max: 3 }),
  interval_type: fc.constantFrom("hourly", "daily", "weekly"),
});
const dayHandover = fc.record({
  interval: fc.integer({ min: 1, max: 3 }),
  interval_type: fc.constantFrom("daily", "weekly"),
});
/** A version of one rotation, users `u0…`, layers `L0…` (no more layers than users). */
const version = (handovers = fc.array(handover, { minLength: 1, maxLength: 3 })) =>
  fc
    .record({
      users: fc.integer({ min: 1, max: 4 }),
      layers: fc.integer({ min: 1, max: 3 }),
      handovers,
      // 2026-03-01 ± 60 days, on a quarter hour from 08:00 to 20:00 UTC: never a local time these
      // zones skip in spring (London 01:00–02:00, New York 02:00–03:00; Sydney's is in October).
      anchorDay: fc.integer({ min: -60, max: 60 }),
      anchorMinutes: fc.integer({ min: 32, max: 80 }).map((q) => q * 15),
      mode: fc.constantFrom("sequential", "fair"),
    })
    .map(
      (v): RotationVersion<string> => ({
        id: "rota",
        handover_start_at: new Date(
          Date.UTC(2026, 2, 1) + v.anchorDay * DAY + v.anchorMinutes * 60_000,
        ).toISOString(),
        handovers: v.handovers,
        users: Array.from({ length: v.users }, (_, i) => `u${i}`),
        layers: Array.from({ length: Math.min(v.layers, v.users) }, (_, i) => ({
          id: `L${i}`,
          name: `Layer ${i}`,
        })),
        scheduling_mode: v.mode,
      }),
    );
/** A window of 1 to 14 days starting within 60 days of 2026-03-01 (DST changes in March and April). */
const window = fc
  .record({ start: fc.integer({ min: -60 * 24, max: 60 * 24 }), hours: fc.integer({ min: 1, max: 14 * 24 }) })
  .map(({ start, hours }) => ({
    start: Date.UTC(2026, 2, 1) + start * HOUR,
    end: Date.UTC(2026, 2, 1) + (start + hours) * HOUR,
  }));
const zone = fc.constantFrom(...ZONES);

const RUNS = { numRuns: 40 };

// ---------------------------------------------------------------------------------- properties

describe("the evaluator's properties", () => {
  test("a layer without working intervals is covered at every instant of the window", () => {
    fc.assert(
      fc.property(zone, version(), window, (tz, v, w) => {
        const { scheduled, final } = evaluate(tz, [v], w);
        for (const layer of v.layers) expect(uncovered(ofLayer(scheduled, layer.id!), w)).toEqual([]);
        expect(uncovered(final, w)).toEqual([]);
        // Entries overlap the window and are whole: none is answered that does not touch it.
        for (const e of scheduled) expect(span(e)[0] < w.end && span(e)[1] > w.start).toBe(true);
      }),
      RUNS,
    );
  });

  test("no shift crosses a handover: daily and weekly shifts start and end at the handover's local time, in the handovers' order", () => {
    fc.assert(
      fc.property(
        zone,
        version(fc.array(dayHandover, { minLength: 1, maxLength: 3 })),
        window,
        (tz, v, w) => {
          const { scheduled } = evaluate(tz, [{ ...v, scheduling_mode: "sequential" }], w);
          const clock = local(v.handover_start_at, tz).slice(11);
          const days = v.handovers.map((h) => h.interval * (h.interval_type === "weekly" ? 7 : 1));
          const entries = ofLayer(scheduled, "L0");
          for (const e of entries) {
            expect(local(e.start_at, tz).slice(11)).toBe(clock);
            expect(local(e.end_at, tz).slice(11)).toBe(clock);
          }
          // Consecutive shifts follow the handovers in turn, and the users in list order.
          const lengths = entries.map((e) =>
            Math.round(
              (Date.parse(`${local(e.end_at, tz).slice(0, 10)}T00:00Z`) -
                Date.parse(`${local(e.start_at, tz).slice(0, 10)}T00:00Z`)) /
                DAY,
            ),
          );
          const start = days.findIndex((_, i) =>
            days.every((__, j) => lengths[j] === undefined || lengths[j] === days[(i + j) % days.length]),
          );
          expect(start).toBeGreaterThanOrEqual(0);
          entries.slice(1).forEach((e, i) => {
            expect(e.start_at).toBe(entries[i]!.end_at);
            expect(v.users.indexOf(e.user)).toBe((v.users.indexOf(entries[i]!.user) + 1) % v.users.length);
          });
        },
      ),
      RUNS,
    );
  });

  test("hourly shifts last their hours of elapsed time, whatever the clocks do", () => {
    fc.assert(
      fc.property(zone, fc.integer({ min: 1, max: 5 }), window, (tz, hours, w) => {
        const v: RotationVersion<string> = {
          id: "rota",
          handover_start_at: "2026-03-01T00:00:00Z",
          handovers: [{ interval: hours, interval_type: "hourly" }],
          users: ["a", "b"],
          layers: [{ id: "L0" }],
        };
        const spans = evaluate(tz, [v], w).scheduled.map(span);
        expect(spans.filter(([s, e]) => e - s !== hours * HOUR)).toEqual([]);
        expect(spans.filter(([s]) => Math.abs((s - Date.UTC(2026, 2, 1)) % (hours * HOUR)) !== 0)).toEqual(
          [],
        );
      }),
      RUNS,
    );
  });

  test("working intervals only cut shifts: each entry is inside a shift of the same user, and on call exactly within the intervals", () => {
    const interval = fc
      .record({
        weekday: fc.constantFrom(
          "monday",
          "tuesday",
          "wednesday",
          "thursday",
          "friday",
          "saturday",
          "sunday",
        ),
        from: fc.integer({ min: 0, max: 47 }),
        length: fc.integer({ min: 1, max: 48 }),
      })
      .map(({ weekday, from, length }) => {
        const clock = (half: number) =>
          `${String(Math.floor(half / 2)).padStart(2, "0")}:${half % 2 ? "30" : "00"}`;
        return {
          weekday,
          start_time: clock(from),
          end_time: from + length >= 48 ? "24:00" : clock(from + length),
        };
      });
    fc.assert(
      fc.property(
        zone,
        version(),
        window,
        fc.array(interval, { minLength: 1, maxLength: 5 }),
        fc.integer(),
        (tz, v, w, intervals, seed) => {
          const whole = ofLayer(evaluate(tz, [v], w).scheduled, "L0");
          const cut = ofLayer(evaluate(tz, [{ ...v, working_intervals: intervals }], w).scheduled, "L0");
          for (const e of cut) {
            const [s, end] = span(e);
            expect(whole.some((x) => x.user === e.user && span(x)[0] <= s && span(x)[1] >= end)).toBe(true);
          }
          // At sampled instants (local wall clock read here): on call in a cut entry iff inside an interval.
          const inside = (t: number) => {
            const [day, clock] = [weekdayOf(t, tz), local(t, tz).slice(11, 16)];
            return intervals.some(
              (i) =>
                i.weekday === day && clock >= i.start_time && (i.end_time === "24:00" || clock < i.end_time),
            );
          };
          const rng = fc.sample(fc.integer({ min: w.start, max: w.end - 1 }), { numRuns: 40, seed });
          for (const t of rng) {
            const covered = cut.some((e) => span(e)[0] <= t && t < span(e)[1]);
            expect(covered).toBe(inside(t));
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  test("swapping two users swaps their shifts and nothing else", () => {
    fc.assert(
      fc.property(zone, version(), window, fc.nat(), fc.nat(), (tz, v0, w, i, j) => {
        const v = { ...v0, scheduling_mode: "sequential" };
        const [a, b] = [v.users[i % v.users.length]!, v.users[j % v.users.length]!];
        const swapped = v.users.map((u) => (u === a ? b : u === b ? a : u));
        const before = evaluate(tz, [v], w).final;
        const after = evaluate(tz, [{ ...v, users: swapped }], w).final;
        const swap = (u: string) => (u === a ? b : u === b ? a : u);
        expect(after.map((e) => [e.start_at, e.end_at, e.layer_id, e.user])).toEqual(
          before.map((e) => [e.start_at, e.end_at, e.layer_id, swap(e.user)]),
        );
      }),
      RUNS,
    );
  });

  test("an override replaces exactly its interval, on its layer only", () => {
    fc.assert(
      fc.property(
        zone,
        version(),
        window,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (tz, v, w, p, q) => {
          const length = w.end - w.start;
          const [from, to] = [
            w.start + Math.floor(Math.min(p, q) * length),
            w.start + Math.ceil(Math.max(p, q) * length) + HOUR,
          ];
          const override: OverrideInput<string> = {
            id: "01OVERRIDE",
            rotation_id: "rota",
            layer_id: "L0",
            user: "cover",
            start_at: new Date(from).toISOString(),
            end_at: new Date(to).toISOString(),
          };
          const plain = evaluate(tz, [v], w);
          const merged = evaluate(tz, [v], w, [override]);
          expect(merged.scheduled).toEqual(plain.scheduled);
          // The same merge over entries already computed (what a caller holding the API's answer does).
          expect(mergeOverrides(plain.scheduled, [override], w)).toEqual(merged);
          expect(merged.overrides.map((o) => [o.entry_id, o.user])).toEqual([["01OVERRIDE", "cover"]]);
          // Other layers as scheduled; on the override's layer, the cover inside its interval, the rota outside.
          for (const layer of v.layers.slice(1))
            expect(ofLayer(merged.final, layer.id!)).toEqual(ofLayer(plain.final, layer.id!));
          const who = (entries: ScheduleEntry<string>[], t: number) =>
            entries.filter((e) => span(e)[0] <= t && t < span(e)[1]).map((e) => e.user);
          // At every half hour (a few hundred moments at most), and at the override's edges.
          const [rota, covered] = [ofLayer(plain.final, "L0"), ofLayer(merged.final, "L0")];
          const step = Math.max(HOUR / 2, Math.ceil((w.end - w.start) / 200));
          const moments = [from - 1, from, to - 1, to].filter((x) => x >= w.start && x < w.end);
          for (let t = w.start; t < w.end; t += step) moments.push(t);
          expect(moments.map((t) => who(covered, t))).toEqual(
            moments.map((t) => (t >= from && t < to ? ["cover"] : who(rota, t))),
          );
        },
      ),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------- examples

describe("the evaluator in daylight-saving weeks and by the reference's examples", () => {
  const daily = (start: string, users = ["ada", "bob"]): RotationVersion<string> => ({
    id: "primary",
    handover_start_at: start,
    handovers: [{ interval: 1, interval_type: "daily" }],
    users,
    layers: [{ id: "L1", name: "Primary" }],
  });
  const shifts = (entries: ScheduleEntry<string>[], tz: string) =>
    entries.map((e) => `${local(e.start_at, tz)} → ${local(e.end_at, tz)} ${e.user}`);

  test("Europe/London, clocks forward (29 March 2026): the 09:00 handover stays 09:00, the Saturday shift is 23 hours", () => {
    const tz = "Europe/London";
    const { scheduled } = evaluate(tz, [daily("2026-03-23T09:00:00Z")], {
      start: Date.parse("2026-03-28T12:00:00Z"),
      end: Date.parse("2026-03-30T12:00:00Z"),
    });
    expect(shifts(scheduled, tz)).toEqual([
      "2026-03-28 09:00 → 2026-03-29 09:00 bob",
      "2026-03-29 09:00 → 2026-03-30 09:00 ada",
      "2026-03-30 09:00 → 2026-03-31 09:00 bob",
    ]);
    expect(scheduled.map((e) => e.start_at)).toEqual([
      "2026-03-28T09:00:00Z",
      "2026-03-29T08:00:00Z",
      "2026-03-30T08:00:00Z",
    ]);
    expect(Date.parse(scheduled[0]!.end_at) - Date.parse(scheduled[0]!.start_at)).toBe(23 * HOUR);
  });

  test("America/New_York, clocks back (1 November 2026): the Saturday shift is 25 hours; a 01:30 handover is the first 01:30", () => {
    const tz = "America/New_York";
    const { scheduled } = evaluate(tz, [daily("2026-10-26T09:00:00-04:00")], {
      start: Date.parse("2026-10-31T14:00:00Z"),
      end: Date.parse("2026-11-01T15:00:00Z"),
    });
    expect(shifts(scheduled, tz)).toEqual([
      "2026-10-31 09:00 → 2026-11-01 09:00 bob",
      "2026-11-01 09:00 → 2026-11-02 09:00 ada",
    ]);
    expect(Date.parse(scheduled[0]!.end_at) - Date.parse(scheduled[0]!.start_at)).toBe(25 * HOUR);
    // 01:30 happens twice on 1 November: the handover is at the first (EDT, -04:00).
    const night = evaluate(tz, [daily("2026-10-30T01:30:00-04:00")], {
      start: Date.parse("2026-11-01T05:00:00Z"),
      end: Date.parse("2026-11-01T05:40:00Z"),
    }).scheduled;
    // …and the next shift, 01:30 EDT to 01:30 EST the day after, is 25 hours.
    expect(night.map((e) => e.end_at)).toEqual(["2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"]);
  });

  test("America/New_York, clocks forward (8 March 2026): a 02:30 handover, a time that day skips, is at 03:30 that day and 02:30 again the next", () => {
    const tz = "America/New_York";
    const { scheduled } = evaluate(tz, [daily("2026-03-01T02:30:00-05:00")], {
      start: Date.parse("2026-03-07T12:00:00Z"),
      end: Date.parse("2026-03-09T12:00:00Z"),
    });
    expect(shifts(scheduled, tz)).toEqual([
      "2026-03-07 02:30 → 2026-03-08 03:30 ada",
      "2026-03-08 03:30 → 2026-03-09 02:30 bob",
      "2026-03-09 02:30 → 2026-03-10 02:30 ada",
    ]);
  });

  test("working hours across a change keep their local times: 09:00–17:00 in London both sides of 25 October 2026", () => {
    const tz = "Europe/London";
    const v = {
      ...daily("2026-10-19T09:00:00+01:00"),
      working_intervals: ["friday", "monday"].map((weekday) => ({
        weekday,
        start_time: "09:00",
        end_time: "17:00",
      })),
    };
    const { scheduled } = evaluate(tz, [v], {
      start: Date.parse("2026-10-23T00:00:00Z"),
      end: Date.parse("2026-10-27T00:00:00Z"),
    });
    expect(shifts(scheduled, tz)).toEqual([
      "2026-10-23 09:00 → 2026-10-23 17:00 ada",
      "2026-10-26 09:00 → 2026-10-26 17:00 bob",
    ]);
    expect(scheduled.map((e) => e.start_at)).toEqual(["2026-10-23T08:00:00Z", "2026-10-26T09:00:00Z"]);
  });

  test("the reference's example: weekly handovers from a Monday 09:00 give week-long shifts that change hands on Mondays at 09:00", () => {
    const tz = "America/New_York";
    const v = {
      ...daily("2026-02-02T09:00:00-05:00", ["ada", "bob", "cat"]),
      handovers: [{ interval: 1, interval_type: "weekly" }],
    };
    const { scheduled } = evaluate(tz, [v], {
      start: Date.parse("2026-03-01T00:00:00Z"),
      end: Date.parse("2026-03-20T00:00:00Z"),
    });
    expect(shifts(scheduled, tz)).toEqual([
      "2026-02-23 09:00 → 2026-03-02 09:00 ada",
      "2026-03-02 09:00 → 2026-03-09 09:00 bob",
      "2026-03-09 09:00 → 2026-03-16 09:00 cat",
      "2026-03-16 09:00 → 2026-03-23 09:00 ada",
    ]);
    for (const e of scheduled) expect(weekdayOf(Date.parse(e.start_at), tz)).toBe("monday");
  });

  test("one day then three days alternate; 'fair' evens them out, 'sequential' does not", () => {
    const tz = "UTC";
    const v: RotationVersion<string> = {
      ...daily("2026-01-01T00:00:00Z"),
      handovers: [
        { interval: 1, interval_type: "daily" },
        { interval: 3, interval_type: "daily" },
      ],
    };
    const w = { start: Date.parse("2026-01-01T00:00:00Z"), end: Date.parse("2026-01-17T00:00:00Z") };
    const days = (mode: string) => {
      const load: Record<string, number> = {};
      for (const e of evaluate(tz, [{ ...v, scheduling_mode: mode }], w).scheduled)
        load[e.user] = (load[e.user] ?? 0) + (span(e)[1] - span(e)[0]) / DAY;
      return load;
    };
    expect(evaluate(tz, [v], w).scheduled.map((e) => (span(e)[1] - span(e)[0]) / DAY)).toEqual([
      1, 3, 1, 3, 1, 3, 1, 3,
    ]);
    expect(days("sequential")).toEqual({ ada: 4, bob: 12 });
    // Fair: each shift to whoever has had less so far (ties to the next in the list): within a shift.
    expect(days("fair")).toEqual({ ada: 9, bob: 7 });
  });

  test("a version from a future date cuts the shift in effect then; the first version has none", () => {
    const tz = "Europe/London";
    const first = daily("2026-01-05T09:00:00Z");
    const later: RotationVersion<string> = {
      ...daily("2026-01-09T12:00:00Z", ["cat", "eve"]),
      effective_from: "2026-01-09T12:00:00Z",
      layers: [{ id: "L2", name: "Primary" }],
    };
    const { scheduled } = evaluate(tz, [later, first], {
      start: Date.parse("2026-01-08T00:00:00Z"),
      end: Date.parse("2026-01-11T00:00:00Z"),
    });
    expect(shifts(scheduled, tz)).toEqual([
      "2026-01-07 09:00 → 2026-01-08 09:00 ada",
      "2026-01-08 09:00 → 2026-01-09 09:00 bob",
      "2026-01-09 09:00 → 2026-01-09 12:00 ada",
      "2026-01-09 12:00 → 2026-01-10 12:00 cat",
      "2026-01-10 12:00 → 2026-01-11 12:00 eve",
    ]);
    expect(scheduled.map((e) => e.layer_id)).toEqual(["L1", "L1", "L1", "L2", "L2"]);
  });

  test("layers: each is the next user in the list; a layer past the number of users is empty", () => {
    const v = {
      ...daily("2026-01-01T00:00:00Z", ["ada", "bob", "cat"]),
      layers: [{ id: "A" }, { id: "B" }],
    };
    const { final } = evaluate("UTC", [v], {
      start: Date.parse("2026-01-01T00:00:00Z"),
      end: Date.parse("2026-01-02T00:00:00Z"),
    });
    expect(final.map((e) => `${e.layer_id} ${e.user}`)).toEqual(["A ada", "B bob"]);
    const alone = evaluate("UTC", [{ ...v, users: ["ada"] }], {
      start: Date.parse("2026-01-01T00:00:00Z"),
      end: Date.parse("2026-01-02T00:00:00Z"),
    });
    expect(alone.final.map((e) => `${e.layer_id} ${e.user}`)).toEqual(["A ada"]);
  });
});

// ---------------------------------------------------------------------------------- endpoints

describe("the endpoints", () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ burst: 100_000, refillPerSecond: 100_000 });
  });
  afterAll(() => emu.dispose());
  afterEach(() => expect(emu.responseProblems).toEqual([]));

  const rotation = (overrides: Record<string, unknown> = {}) => ({
    id: "primary",
    name: "Primary",
    handover_start_at: "2026-01-05T09:00:00Z",
    handovers: [{ interval: 1, interval_type: "daily" }],
    layers: [{ id: "01LAYERPRIMARY", name: "Primary" }],
    users: [{ email: "ada@example.com" }, { id: "01USERBOB" }],
    ...overrides,
  });
  const create = async (rotations = [rotation()]) =>
    (
      await emu.ok("POST", "/v2/schedules", {
        body: { schedule: { name: "Payments", timezone: "Europe/London", config: { rotations } } },
      })
    ).schedule as { id: string };
  const list = (id: string, start: string, end: string, token?: string) =>
    emu.call(
      "GET",
      `/v2/schedule_entries?schedule_id=${id}&entry_window_start=${encodeURIComponent(start)}&entry_window_end=${encodeURIComponent(end)}`,
      { token },
    );

  test("GET /v2/schedule_entries: the stored schedule's entries with overrides merged, in the reference's shape", async () => {
    const s = await create();
    await emu.ok("POST", "/v2/schedule_overrides", {
      body: {
        schedule_id: s.id,
        rotation_id: "primary",
        layer_id: "01LAYERPRIMARY",
        user: { email: "cat@example.com" },
        start_at: "2026-01-06T12:00:00Z",
        end_at: "2026-01-06T14:00:00Z",
      },
    });
    const r = await list(s.id, "2026-01-06T00:00:00Z", "2026-01-07T00:00:00Z");
    expect(r.status).toBe(200);
    expectShape("SchedulesListScheduleEntriesResultV2", r.body);
    const e = r.body.schedule_entries;
    expect(e.scheduled.map((x: any) => `${x.start_at} ${x.end_at} ${x.user.email}`)).toEqual([
      "2026-01-05T09:00:00Z 2026-01-06T09:00:00Z ada@example.com",
      "2026-01-06T09:00:00Z 2026-01-07T09:00:00Z bob@example.com",
    ]);
    expect(e.overrides).toHaveLength(1);
    expect(e.overrides[0].entry_id).toMatch(/^01/);
    expect(e.final.map((x: any) => `${x.start_at} ${x.end_at} ${x.user.email}`)).toEqual([
      "2026-01-05T09:00:00Z 2026-01-06T09:00:00Z ada@example.com",
      "2026-01-06T09:00:00Z 2026-01-06T12:00:00Z bob@example.com",
      "2026-01-06T12:00:00Z 2026-01-06T14:00:00Z cat@example.com",
      "2026-01-06T14:00:00Z 2026-01-07T09:00:00Z bob@example.com",
    ]);
    expect(e.final.every((x: any) => x.rotation_id === "primary" && x.layer_id === "01LAYERPRIMARY")).toBe(
      true,
    );
    expect(r.body.pagination_meta).toBeUndefined();
  });

  test("the list pages by the last entry's end time: following after_url gives every entry once", async () => {
    const s = await create([
      rotation({
        handovers: [{ interval: 1, interval_type: "hourly" }],
        layers: [
          { id: "01LAYERA", name: "A" },
          { id: "01LAYERB", name: "B" },
        ],
      }),
    ]);
    const whole = (await list(s.id, "2026-01-10T00:00:00Z", "2026-01-13T00:00:00Z")).body;
    const first = whole.schedule_entries.final.length;
    expect(first).toBeLessThanOrEqual(ENTRIES_PAGE_SIZE + 1);
    expect(whole.pagination_meta.after).toBe(
      whole.schedule_entries.final[whole.schedule_entries.final.length - 1].end_at,
    );
    const seen = [...whole.schedule_entries.final];
    let meta = whole.pagination_meta;
    let pages = 1;
    while (meta) {
      const next = await emu.ok("GET", meta.after_url.slice(emu.url.length));
      expectShape("SchedulesListScheduleEntriesResultV2", next);
      seen.push(...next.schedule_entries.final);
      meta = next.pagination_meta;
      pages++;
    }
    // 72 hours × 2 layers, in 2 pages; no entry twice, none missing.
    expect(pages).toBe(2);
    expect(seen).toHaveLength(144);
    expect(new Set(seen.map((x) => x.fingerprint)).size).toBe(144);
    expect(seen[0].start_at).toBe("2026-01-10T00:00:00Z");
    expect(seen[seen.length - 1].end_at).toBe("2026-01-13T00:00:00Z");
  });

  test("POST …/preview_entries: the proposed configuration's entries, nothing stored; update's checks; windows as documented", async () => {
    const s = await create();
    const before = await emu.ok("GET", `/v2/schedules/${s.id}`);
    const proposed = {
      schedule: {
        config: { rotations: [rotation({ users: [{ id: "01USERBOB" }, { email: "ada@example.com" }] })] },
      },
      entry_window_start: "2026-01-06T00:00:00Z",
      entry_window_end: "2026-01-07T00:00:00Z",
    };
    const r = await emu.call("POST", `/v2/schedules/${s.id}/actions/preview_entries`, { body: proposed });
    expect(r.status).toBe(200);
    expectShape("SchedulesPreviewScheduleEntriesResultV2", r.body);
    expect(r.body.schedule_entries.final.map((x: any) => x.user.email)).toEqual([
      "bob@example.com",
      "ada@example.com",
    ]);
    expect(await emu.ok("GET", `/v2/schedules/${s.id}`)).toEqual(before);
    // Without `config`, the stored configuration (a field left out is the stored one's).
    const same = await emu.ok("POST", `/v2/schedules/${s.id}/actions/preview_entries`, {
      body: {
        schedule: { name: "Other" },
        entry_window_start: "2026-01-06T00:00:00Z",
        entry_window_end: "2026-01-07T00:00:00Z",
      },
    });
    expect(same.schedule_entries.final.map((x: any) => x.user.email)).toEqual([
      "ada@example.com",
      "bob@example.com",
    ]);
    // A layer not saved yet: entries without layer_id.
    const fresh = await emu.ok("POST", `/v2/schedules/${s.id}/actions/preview_entries`, {
      body: { ...proposed, schedule: { config: { rotations: [rotation({ layers: [{ name: "New" }] })] } } },
    });
    expect(fresh.schedule_entries.final.every((x: any) => x.layer_id === undefined)).toBe(true);
    // The update's checks: a time zone change, an unknown user.
    const tz = await emu.call("POST", `/v2/schedules/${s.id}/actions/preview_entries`, {
      body: { schedule: { timezone: "America/Chicago" } },
    });
    expectErrorBody(tz, 422, "validation_error", undefined, "schedule.timezone");
    const nobody = await emu.call("POST", `/v2/schedules/${s.id}/actions/preview_entries`, {
      body: { schedule: { config: { rotations: [rotation({ users: [{ id: "01NOSUCH" }] })] } } },
    });
    expectErrorBody(nobody, 422, "validation_error", undefined, "schedule.config.rotations.0.users.0");
    // Defaults: from now (the emulator's clock), four weeks; more than 91 days is capped to 91.
    const defaults = await emu.ok("POST", `/v2/schedules/${s.id}/actions/preview_entries`, {
      body: { schedule: {} },
    });
    const starts = defaults.schedule_entries.final.map((x: any) => Date.parse(x.start_at));
    expect(Math.min(...starts)).toBeLessThanOrEqual(emu.time());
    expect(Math.max(...starts)).toBeLessThan(emu.time() + 28 * DAY);
    expect(Math.max(...starts)).toBeGreaterThan(emu.time() + 27 * DAY);
    const capped = await emu.ok("POST", `/v2/schedules/${s.id}/actions/preview_entries`, {
      body: {
        schedule: {},
        entry_window_start: "2026-01-06T00:00:00Z",
        entry_window_end: "2027-01-06T00:00:00Z",
      },
    });
    // 91 days from 6 January 00:00: the shifts from 5 January 09:00 to 6 April 09:00 (BST) overlap it.
    const cappedStarts = capped.schedule_entries.final.map((x: any) => x.start_at);
    expect([cappedStarts.length, cappedStarts[0], cappedStarts.at(-1)]).toEqual([
      92,
      "2026-01-05T09:00:00Z",
      "2026-04-06T08:00:00Z",
    ]);
    const backwards = await emu.call("POST", `/v2/schedules/${s.id}/actions/preview_entries`, {
      body: {
        schedule: {},
        entry_window_start: "2026-01-06T00:00:00Z",
        entry_window_end: "2026-01-05T00:00:00Z",
      },
    });
    expectErrorBody(backwards, 422, "validation_error", undefined, "entry_window_end");
  });

  test("who may call them: reading keys list entries but may not preview; unknown schedules", async () => {
    const s = await create();
    const reader = await emu.createApiKey("reader", ["viewer"]);
    const editor = await emu.createApiKey("editor", ["schedules_editor"]);
    expect((await list(s.id, "2026-01-06T00:00:00Z", "2026-01-07T00:00:00Z", reader)).status).toBe(200);
    const refused = await emu.call("POST", `/v2/schedules/${s.id}/actions/preview_entries`, {
      token: reader,
      body: { schedule: {} },
    });
    expectErrorBody(refused, 403, "resource_forbidden", "resource_forbidden");
    expect(
      (
        await emu.call("POST", `/v2/schedules/${s.id}/actions/preview_entries`, {
          token: editor,
          body: { schedule: {} },
        })
      ).status,
    ).toBe(200);
    expectErrorBody(
      await emu.call("POST", "/v2/schedules/01NOSUCH/actions/preview_entries", { body: { schedule: {} } }),
      404,
      "not_found",
    );
    expectErrorBody(
      await list("01NOSUCH", "2026-01-06T00:00:00Z", "2026-01-07T00:00:00Z"),
      400,
      "invalid_request_error",
      "invalid_reference",
    );
    const badStart = await emu.call(
      "GET",
      `/v2/schedule_entries?schedule_id=${s.id}&entry_window_start=tomorrow`,
    );
    expectErrorBody(badStart, 422, "validation_error", undefined, "entry_window_start");
    const missing = await emu.call("GET", "/v2/schedule_entries");
    expectErrorBody(missing, 422, "validation_error", "is_required", "schedule_id");
  });
});
