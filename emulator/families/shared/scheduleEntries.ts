/**
 * Schedule entries: who is on call when, computed from a schedule's configuration (its rotations,
 * their versions, layers, handovers, users and working intervals, in the schedule's time zone) and
 * its overrides, for a window of time. A pure function of its inputs (no store, no clock, no I/O):
 * the emulator's `preview_entries` and `schedule_entries` endpoints answer with it
 * (families/scheduleEntries.ts), and other code may import it to compute entries locally.
 *
 * ```ts
 * import { scheduleEntries } from "pulumi-incident/emulator"; // in this repo: "../emulator"
 * const { scheduled, overrides, final } = scheduleEntries(
 *   { timezone: "Europe/London", rotations },       // ScheduleConfigV2 rotations (API shape, snake_case)
 *   storedOverrides,                                 // ScheduleOverrideV2-like: rotation_id, layer_id, user, start_at, end_at
 *   { start: Date.parse("2026-03-23T00:00:00Z"), end: Date.parse("2026-04-06T00:00:00Z") },
 *   { userKey: (u) => u.id },
 * );
 * ```
 *
 * Each rule below names the reference text it follows (shared/api/reference.json, the field's or
 * the operation's `doc`, read whole in the public SDKs generated from the same OpenAPI document).
 * Where the reference is silent, the rule is marked **Assumed** and listed, with the endpoints'
 * own assumptions, in the "Assumed" list of families/scheduleEntries.ts.
 *
 * Rules:
 * - Versions. `ScheduleRotationV2.effective_from`: "each version applies from its `effective_from`
 *   until the next version's. A rotation's first version has no `effective_from`." Versions of one
 *   rotation `id` are ordered by `effective_from` (none = from the beginning of time); a version's
 *   shifts are cut at the next version's start.
 * - Handovers. `handover_start_at`: "the first user in `users` comes on shift at this time, handing
 *   over to the next user after each `handovers` interval, cycling through the list — for example,
 *   weekly handovers from a Monday 09:00 give week-long shifts that change hands on Mondays at
 *   09:00." `handovers`: "With more than one entry, the intervals apply in turn — for example, one
 *   day then three days produces alternating one-day and three-day shifts." `interval_type` ("How
 *   often a handover occurs": hourly, daily, weekly) counted `interval` times.
 * - Time zone. `ScheduleV2.timezone`: "Timezone of the schedule, as interpreted at the point of
 *   generating the report": daily and weekly handovers keep their local time of day in it across
 *   daylight-saving changes (a 09:00 handover stays 09:00 local, the shift around the change is an
 *   hour shorter or longer). **Assumed**: an hourly handover counts elapsed hours; a local time the
 *   change skips moves forward by the gap, one it repeats is the earlier (zonedTime.ts).
 * - Users. `users`: "The people in the rotation, in the order they take shifts."
 *   `scheduling_mode`: "'sequential' uses simple round-robin rotation through users" — shift k goes
 *   to user k mod n. "'fair' balances workload by considering handover duration ... Only applies
 *   when you have asymmetric handovers": **Assumed** — each shift goes to the user with the least
 *   on-call time so far (nominal shift lengths), ties to the first after the previous shift's user.
 *   **Assumed**: before `handover_start_at` the cycle runs backwards (the shift before it is the last
 *   user's), in list order whatever the mode.
 * - Layers. `layers`: "Controls how many people are on-call concurrently." **Assumed**: at shift k,
 *   layer j (in the version's order) is the user j places after the shift's user in the list; a
 *   layer past the number of users has nobody (no one is on two layers of a rotation at once).
 * - Working intervals. `working_intervals`: "Optional restrictions that define when to schedule
 *   people for this rota" (v3: "If set, restricts on-call to these weekday intervals"): a shift
 *   yields entries only inside the intervals, in the schedule's time zone; none (or an empty list)
 *   means around the clock. `end_time` `24:00` is midnight at the end of the day. **Assumed**: an
 *   interval whose end is not after its start runs into the next day (22:00–06:00).
 * - Entries. `ScheduleEntryV2`: "A single shift on a schedule, representing who is on-call between a
 *   start and end time" — one entry per shift and layer, split only where working intervals cut it:
 *   no entry crosses a handover or a version change. "entries are returned for every rotation and
 *   layer on the schedule". `layer_id`: "If present, the layer this entry applies to" — a layer
 *   without an id (a preview of a layer not saved yet) gives entries without one.
 * - Overrides. `ScheduleEntriesListPayloadV2`: "`overrides` are the one-off changes that apply within
 *   the window. `final` is the effective schedule after overrides have been merged in"; the entry:
 *   "an override (a one-off change that replaces the normal rotation for a period of time)". An
 *   override replaces exactly its interval on its rotation's layer: the scheduled entries of that
 *   layer lose that time (a shift it cuts in two gives two entries), the override's user is on call
 *   for all of it, working intervals or not. **Assumed**: of two overrides on one layer that overlap
 *   (the API does not store such), the later in the list wins.
 * - Window. The operations: "The endpoint returns all entries that overlap with the given window":
 *   entries are whole, not cut at the window's edges.
 * - `entry_id`: "only populated for entries that correspond to a stored record. Scheduled entries are
 *   projections ... and don't have a persisted ID" — override entries carry the override's id.
 *   `fingerprint`: "a stable identifier to deduplicate or diff a shift across requests": **Assumed**
 *   a digest of rotation, layer, user, start and end.
 */
import { createHash } from "node:crypto";
import { dateOfDay, instantOf, localDayAndTime } from "./zonedTime";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type IntervalType = "hourly" | "daily" | "weekly";

/** `ScheduleRotationHandoverV2`. */
export interface Handover {
  interval: number;
  interval_type: IntervalType | string;
}

/** `ScheduleRotationWorkingIntervalV2`: a weekday and `HH:MM` times (`24:00` as an end). */
export interface WorkingInterval {
  weekday: string;
  start_time: string;
  end_time: string;
}

/** One version of a rotation, as `ScheduleConfigV2.rotations[]` or the update payload's holds it. */
export interface RotationVersion<U> {
  id: string;
  name?: string;
  effective_from?: string;
  handover_start_at: string;
  handovers: readonly Handover[];
  layers: readonly { id?: string; name?: string }[];
  users: readonly U[];
  working_intervals?: readonly WorkingInterval[];
  scheduling_mode?: string;
}

/** What the evaluator reads of a schedule: its time zone and its rotations' versions. */
export interface ScheduleEntriesConfig<U> {
  timezone: string;
  rotations: readonly RotationVersion<U>[];
}

/** An override as `ScheduleOverrideV2` holds it. */
export interface OverrideInput<U> {
  id?: string;
  rotation_id: string;
  layer_id: string;
  user: U;
  start_at: string;
  end_at: string;
}

/** `[start, end)`, ms since the epoch. */
export interface EntryWindow {
  start: number;
  end: number;
}

/** `ScheduleEntryV2`, with the user as the caller gave it. */
export interface ScheduleEntry<U> {
  start_at: string;
  end_at: string;
  rotation_id: string;
  layer_id?: string;
  user: U;
  fingerprint: string;
  /** Override entries only: the override's id. */
  entry_id?: string;
}

/** `ScheduleEntriesListPayloadV2`. */
export interface ScheduleEntries<U> {
  scheduled: ScheduleEntry<U>[];
  overrides: ScheduleEntry<U>[];
  final: ScheduleEntry<U>[];
}

export interface EvaluateOptions<U> {
  /** What identifies a user (fingerprints, fair scheduling ties): default, the user as JSON. */
  userKey?: (user: U) => string;
}

/** An RFC 3339 instant in UTC: to the second, with milliseconds only when it has some. */
export function isoInstant(ms: number): string {
  const iso = new Date(ms).toISOString();
  return ms % 1000 === 0 ? iso.replace(/\.\d{3}Z$/, "Z") : iso;
}

/**
 * The entries of a schedule that overlap `window`: `scheduled` (from the rotations), `overrides`
 * (those that overlap the window) and `final` (scheduled with the overrides merged in), each sorted
 * by start, then rotation and layer in the configuration's order.
 */
export function scheduleEntries<U>(
  config: ScheduleEntriesConfig<U>,
  overrides: readonly OverrideInput<U>[],
  window: EntryWindow,
  options: EvaluateOptions<U> = {},
): ScheduleEntries<U> {
  const order = laneOrder(config.rotations);
  return merged(scheduledEntries(config, window), overrides, window, order, options.userKey);
}

/**
 * `scheduled` entries (as a `scheduleEntries` answer or the API holds them) with `overrides` merged
 * in by the same rule: what `final` would be with another set of overrides (one the API does not
 * hold yet). Entries keep the order they come in, rotation by rotation and layer by layer.
 */
export function mergeOverrides<U>(
  scheduled: readonly ScheduleEntry<U>[],
  overrides: readonly OverrideInput<U>[],
  window: EntryWindow,
  options: EvaluateOptions<U> = {},
): ScheduleEntries<U> {
  const order = new Map<string, number>();
  for (const e of scheduled) {
    if (!order.has(e.rotation_id)) order.set(e.rotation_id, order.size);
    const lane = `${e.rotation_id}/${e.layer_id}`;
    if (e.layer_id !== undefined && !order.has(lane)) order.set(lane, order.size);
  }
  const raw = scheduled.map(
    (e): Raw<U> => ({
      start: Date.parse(e.start_at),
      end: Date.parse(e.end_at),
      rotation_id: e.rotation_id,
      ...(e.layer_id !== undefined ? { layer_id: e.layer_id } : {}),
      user: e.user,
    }),
  );
  return merged(raw, overrides, window, order, options.userKey);
}

function merged<U>(
  scheduledRaw: Raw<U>[],
  overrides: readonly OverrideInput<U>[],
  window: EntryWindow,
  order: Map<string, number>,
  userKey: ((u: U) => string) | undefined,
): ScheduleEntries<U> {
  const key = userKey ?? ((u: U) => JSON.stringify(u));
  const scheduled = sortEntries(scheduledRaw, order);
  const overrideEntries = overrides
    .map((o) => ({
      start: Date.parse(o.start_at),
      end: Date.parse(o.end_at),
      rotation_id: o.rotation_id,
      layer_id: o.layer_id,
      user: o.user,
      entry_id: o.id,
    }))
    .filter((o) => o.end > o.start);
  // The later of two overlapping overrides on one layer wins (Assumed).
  const effective = overrideEntries.map((o, i) => ({
    ...o,
    pieces: subtract(
      [[o.start, o.end]],
      overrideEntries
        .slice(i + 1)
        .filter((p) => p.rotation_id === o.rotation_id && p.layer_id === o.layer_id)
        .map((p) => [p.start, p.end] as const),
    ),
  }));
  const final: Raw<U>[] = [];
  for (const e of scheduled) {
    const cuts = effective
      .filter((o) => o.rotation_id === e.rotation_id && e.layer_id !== undefined && o.layer_id === e.layer_id)
      .map((o) => [o.start, o.end] as const);
    for (const [start, end] of subtract([[e.start, e.end]], cuts)) final.push({ ...e, start, end });
  }
  for (const o of effective)
    for (const [start, end] of o.pieces)
      final.push({
        start,
        end,
        rotation_id: o.rotation_id,
        layer_id: o.layer_id,
        user: o.user,
        entry_id: o.entry_id,
      });
  const overlapping = (e: { start: number; end: number }) => e.start < window.end && e.end > window.start;
  const render = (e: Raw<U>): ScheduleEntry<U> => ({
    start_at: isoInstant(e.start),
    end_at: isoInstant(e.end),
    rotation_id: e.rotation_id,
    ...(e.layer_id !== undefined ? { layer_id: e.layer_id } : {}),
    user: e.user,
    fingerprint: fingerprint(e, key),
    ...(e.entry_id !== undefined ? { entry_id: e.entry_id } : {}),
  });
  return {
    scheduled: scheduled.filter(overlapping).map(render),
    overrides: sortEntries(overrideEntries.filter(overlapping), order).map(render),
    final: sortEntries(final.filter(overlapping), order).map(render),
  };
}

/**
 * The parts of `window` that no entry covers, as `[start, end)` pairs in time order: where nobody
 * is on call (pass `final`), or where one layer has nobody (pass that layer's entries).
 */
export function uncovered(
  entries: readonly { start_at: string; end_at: string }[],
  window: EntryWindow,
): [number, number][] {
  return subtract(
    [[window.start, window.end]],
    entries.map((e) => [Date.parse(e.start_at), Date.parse(e.end_at)] as const),
  );
}

// ---------------------------------------------------------------------------------- internals

interface Raw<U> {
  start: number;
  end: number;
  rotation_id: string;
  layer_id?: string;
  user: U;
  entry_id?: string;
}

/** Rotation and layer order as the configuration lists them (for sorting). */
function laneOrder<U>(rotations: readonly RotationVersion<U>[]): Map<string, number> {
  const order = new Map<string, number>();
  for (const r of rotations) {
    if (!order.has(r.id)) order.set(r.id, order.size);
    for (const l of r.layers)
      if (l.id !== undefined && !order.has(`${r.id}/${l.id}`)) order.set(`${r.id}/${l.id}`, order.size);
  }
  return order;
}

function sortEntries<T extends { start: number; end: number; rotation_id: string; layer_id?: string }>(
  entries: T[],
  order: Map<string, number>,
): T[] {
  const rank = (e: T) => order.get(e.rotation_id) ?? Number.MAX_SAFE_INTEGER;
  const layerRank = (e: T) => order.get(`${e.rotation_id}/${e.layer_id}`) ?? Number.MAX_SAFE_INTEGER;
  return [...entries].sort(
    (a, b) => a.start - b.start || rank(a) - rank(b) || layerRank(a) - layerRank(b) || a.end - b.end,
  );
}

function fingerprint<U>(e: Raw<U>, key: (u: U) => string): string {
  return createHash("sha256")
    .update([e.rotation_id, e.layer_id ?? "", key(e.user), e.start, e.end].join("\u0000"))
    .digest("hex")
    .slice(0, 26)
    .toUpperCase();
}

/** `[start, end)` pairs minus the cuts, in time order (adjacent or overlapping pairs merged). */
function subtract(
  pieces: readonly (readonly [number, number])[],
  cuts: readonly (readonly [number, number])[],
): [number, number][] {
  let out: [number, number][] = pieces.map(([s, e]) => [s, e]);
  for (const [cs, ce] of cuts) {
    if (ce <= cs) continue;
    out = out.flatMap(([s, e]): [number, number][] => {
      if (ce <= s || cs >= e) return [[s, e]];
      return [
        ...(cs > s ? [[s, cs] as [number, number]] : []),
        ...(ce < e ? [[ce, e] as [number, number]] : []),
      ];
    });
  }
  return out.filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
}

const mod = (k: number, n: number) => ((k % n) + n) % n;

/** A handover as a step: elapsed ms (hourly) or local calendar days (daily, weekly). */
type Step = { ms: number; days?: undefined } | { days: number; ms?: undefined };

function stepsOf(handovers: readonly Handover[]): Step[] {
  return handovers.flatMap((h): Step[] => {
    if (!Number.isInteger(h.interval) || h.interval < 1) return [];
    if (h.interval_type === "hourly") return [{ ms: h.interval * HOUR_MS }];
    if (h.interval_type === "daily") return [{ days: h.interval }];
    if (h.interval_type === "weekly") return [{ days: 7 * h.interval }];
    return [];
  });
}

const nominalMs = (s: Step) => (s.ms !== undefined ? s.ms : s.days * DAY_MS);

/**
 * The handover instants of a rotation version: `at(k)` is when shift k starts (shift 0 at
 * `handover_start_at`, negative k before it).
 */
class Handovers {
  private readonly anchor: number;
  private readonly anchorDay: number;
  private readonly anchorTime: number;
  private readonly cycleMs: number;
  private readonly pureDays: boolean;
  private readonly pureHours: boolean;
  private readonly prefix: number[];
  private readonly cycle: number;
  /** Mixed hourly and daily steps: instants walked from the anchor, with the local day and time. */
  private readonly walked = new Map<number, { t: number; days: number; time: number }>();

  constructor(
    handoverStartAt: string,
    readonly steps: Step[],
    private readonly tz: string,
  ) {
    this.anchor = Date.parse(handoverStartAt);
    const local = localDayAndTime(this.anchor, tz);
    this.anchorDay = local.days;
    this.anchorTime = local.msOfDay;
    this.pureDays = steps.every((s) => s.days !== undefined);
    this.pureHours = steps.every((s) => s.ms !== undefined);
    this.prefix = [0];
    for (const s of steps)
      this.prefix.push(this.prefix[this.prefix.length - 1]! + (this.pureDays ? s.days! : nominalMs(s)));
    this.cycle = this.prefix[steps.length]!;
    this.cycleMs = steps.reduce((sum, s) => sum + nominalMs(s), 0);
    this.walked.set(0, { t: this.anchor, days: local.days, time: local.msOfDay });
  }

  private readonly cache = new Map<number, number>();

  at(k: number): number {
    let t = this.cache.get(k);
    if (t === undefined) {
      t = this.compute(k);
      this.cache.set(k, t);
    }
    return t;
  }

  private compute(k: number): number {
    const n = this.steps.length;
    const offset = Math.floor(k / n) * this.cycle + this.prefix[mod(k, n)]!;
    if (this.pureDays) return instantOf(this.anchorDay + offset, this.anchorTime, this.tz);
    if (this.pureHours) return this.anchor + offset;
    return this.walk(k).t;
  }

  /** The shift k with `at(k) <= t < at(k + 1)`. */
  shiftAt(t: number): number {
    const n = this.steps.length;
    let k = Math.floor(((t - this.anchor) / this.cycleMs) * n);
    while (this.at(k) > t) k--;
    while (this.at(k + 1) <= t) k++;
    return k;
  }

  /** Nominal length of shift k (what fair scheduling weighs). */
  nominal(k: number): number {
    return nominalMs(this.steps[mod(k, this.steps.length)]!);
  }

  private walk(k: number) {
    const known = this.walked.get(k);
    if (known) return known;
    const dir = k > 0 ? 1 : -1;
    let i = k - dir;
    while (!this.walked.has(i)) i -= dir;
    let state = this.walked.get(i)!;
    while (i !== k) {
      // Forward: shift i's step; backward: the step of the shift before i.
      const step = this.steps[mod(dir > 0 ? i : i - 1, this.steps.length)]!;
      if (step.ms !== undefined) {
        const t = state.t + dir * step.ms;
        const local = localDayAndTime(t, this.tz);
        state = { t, days: local.days, time: local.msOfDay };
      } else {
        const days = state.days + dir * step.days;
        state = { t: instantOf(days, state.time, this.tz), days, time: state.time };
      }
      i += dir;
      this.walked.set(i, state);
    }
    return state;
  }
}

/** Who leads shift k (the index into `users`): round robin, or fair for asymmetric handovers. */
function leaders(handovers: Handovers, users: number, fair: boolean) {
  const asymmetric = new Set(handovers.steps.map(nominalMs)).size > 1;
  if (!fair || !asymmetric) return (k: number) => mod(k, users);
  const leads: number[] = [];
  const load = new Array<number>(users).fill(0);
  // The least loaded so far; of equals, the first after the previous shift's user.
  return (k: number) => {
    if (k < 0) return mod(k, users);
    while (leads.length <= k) {
      const i = leads.length;
      let lead = 0;
      if (i > 0) {
        const previous = leads[i - 1]!;
        lead = mod(previous + 1, users);
        for (let step = 1; step <= users; step++) {
          const candidate = mod(previous + step, users);
          if (load[candidate]! < load[lead]!) lead = candidate;
        }
      }
      leads.push(lead);
      load[lead]! += handovers.nominal(i);
    }
    return leads[k]!;
  };
}

const WEEKDAY_NUMBER: Record<string, number> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};

/** `HH:MM` as ms since midnight; undefined for anything else. */
function clockMs(text: string): number | undefined {
  const m = /^(\d{2}):(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [h, min] = [Number(m[1]), Number(m[2])];
  if (h > 24 || min > 59 || (h === 24 && min > 0)) return undefined;
  return (h * 60 + min) * 60_000;
}

/**
 * The parts of `[start, end)` inside weekday intervals (a weekday, `HH:MM` to `HH:MM`, local to
 * `tz`), merged: when a rotation's working intervals let it schedule people, or when an escalation
 * path's working hours are active.
 */
export function workingPieces(
  intervals: readonly WorkingInterval[],
  start: number,
  end: number,
  tz: string,
): [number, number][] {
  const pieces: [number, number][] = [];
  const first = localDayAndTime(start, tz).days - 1;
  const last = localDayAndTime(end, tz).days;
  for (let day = first; day <= last; day++) {
    const weekday = dateOfDay(day).weekday;
    for (const w of intervals) {
      if (WEEKDAY_NUMBER[w.weekday] !== weekday) continue;
      const [from, to] = [clockMs(w.start_time), clockMs(w.end_time)];
      if (from === undefined || to === undefined) continue;
      const s = instantOf(day, from, tz);
      const e = to > from ? instantOf(day, to, tz) : instantOf(day + 1, to, tz);
      const [cs, ce] = [Math.max(s, start), Math.min(e, end)];
      if (ce > cs) pieces.push([cs, ce]);
    }
  }
  pieces.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const p of pieces) {
    const top = merged[merged.length - 1];
    if (top && p[0] <= top[1]) top[1] = Math.max(top[1], p[1]);
    else merged.push([p[0], p[1]]);
  }
  return merged;
}

function scheduledEntries<U>(config: ScheduleEntriesConfig<U>, window: EntryWindow): Raw<U>[] {
  const out: Raw<U>[] = [];
  const byRotation = new Map<string, RotationVersion<U>[]>();
  for (const r of config.rotations) byRotation.set(r.id, [...(byRotation.get(r.id) ?? []), r]);
  for (const [rotationId, versions] of byRotation) {
    const from = (v: RotationVersion<U>) =>
      v.effective_from === undefined ? Number.NEGATIVE_INFINITY : Date.parse(v.effective_from);
    // Versions in effect order; of two taking effect together, the later listed (Assumed).
    const ordered = versions
      .map((v, i) => ({ v, i }))
      .sort((a, b) => from(a.v) - from(b.v) || a.i - b.i)
      .map(({ v }) => v);
    ordered.forEach((version, vi) => {
      const next = ordered[vi + 1];
      const [vStart, vEnd] = [from(version), next ? from(next) : Number.POSITIVE_INFINITY];
      if (vEnd <= vStart) return;
      const [rangeStart, rangeEnd] = [Math.max(vStart, window.start), Math.min(vEnd, window.end)];
      if (rangeEnd <= rangeStart || version.users.length === 0) return;
      const steps = stepsOf(version.handovers);
      if (steps.length === 0 || Number.isNaN(Date.parse(version.handover_start_at))) return;
      const handovers = new Handovers(version.handover_start_at, steps, config.timezone);
      const users = version.users;
      const lead = leaders(handovers, users.length, version.scheduling_mode === "fair");
      const firstShift = handovers.shiftAt(rangeStart);
      const lastShift = handovers.shiftAt(rangeEnd - 1);
      const span: [number, number] = [
        Math.max(vStart, handovers.at(firstShift)),
        Math.min(vEnd, handovers.at(lastShift + 1)),
      ];
      const working = version.working_intervals?.length
        ? workingPieces(version.working_intervals, span[0], span[1], config.timezone)
        : [span];
      for (let k = firstShift; k <= lastShift; k++) {
        const [shiftStart, shiftEnd] = [
          Math.max(vStart, handovers.at(k)),
          Math.min(vEnd, handovers.at(k + 1)),
        ];
        const pieces = working
          .map(([s, e]) => [Math.max(s, shiftStart), Math.min(e, shiftEnd)] as const)
          .filter(([s, e]) => e > s);
        const leader = lead(k);
        version.layers.forEach((layer, j) => {
          if (j >= users.length) return;
          const user = users[mod(leader + j, users.length)]!;
          for (const [start, end] of pieces)
            out.push({
              start,
              end,
              rotation_id: rotationId,
              ...(layer.id !== undefined ? { layer_id: layer.id } : {}),
              user,
            });
        });
      }
    });
  }
  return out;
}
