/**
 * PagerDuty's rendered schedule: each layer's entries and the final schedule, computed from the
 * layers, their restrictions and the schedule's overrides, as PagerDuty documents them. A pure
 * function (no store, no clock): the schedules family answers `GET /schedules/{id}?since&until`
 * with it. It is written from PagerDuty's rules alone, not from this project's own schedule
 * evaluator (emulator/families/shared/scheduleEntries.ts), so that `migrate --verify` compares two
 * independent computations.
 *
 * Rules, and where each comes from (documents named in ../shapes.json and ../../README.md):
 * - Turns. `ScheduleLayer.rotation_virtual_start`: "The effective start time of the layer. This can
 *   be before the start time of the schedule"; `rotation_turn_length_seconds`: "The duration of
 *   each on-call shift in seconds"; `users`: "The ordered list of users on this layer. The position
 *   of the user on the list determines their order in the layer." Turn k starts k turn lengths after
 *   the virtual start and belongs to user k mod n (k < 0 before it).
 *   **Assumed**: a turn length that is a whole number of days keeps the handoff's local time of day
 *   in the schedule's time zone across daylight-saving changes (the web app's daily and weekly
 *   rotation types set a "handoff time"); any other length counts elapsed seconds.
 * - Start and end. `start`: "The start time of this layer"; `end`: "The end time of this layer. If
 *   `null`, the layer does not end." Nobody is on call on a layer outside them.
 * - Restrictions. `restrictions`: "A restriction is a limit on which period of the day or week the
 *   schedule layer can accept assignments. Restrictions respect the `time_zone` parameter";
 *   `daily_restriction`: every day from `start_time_of_day` for `duration_seconds`;
 *   `weekly_restriction`: from `start_day_of_week` ("ISO 8601 day (1 is Monday, etc.)") at
 *   `start_time_of_day` for `duration_seconds`. A restricted layer's entries are its turns cut to
 *   the restrictions (the knowledge base, "Setting up Restrictions for On-Call Shifts": "Restricting
 *   on-call duty to specific dates and times creates gaps in schedule coverage"). **Assumed**: a
 *   restriction's duration runs on the local clock of the schedule's time zone (09:00 for 8 hours
 *   ends at 17:00 local on a day clocks change).
 * - Layers. The knowledge base ("Schedule Basics"): "In a schedule with multiple layers, the lowest
 *   layer always takes precedence. If a user on Layer 1 and Layer 2 overlap, the user on Layer 2
 *   will be the one on-call ... The last layer, then, essentially acts as an override for all layers
 *   that it overlaps", and "Only one user per schedule can be on-call at a time". The REST API
 *   answers `schedule_layers` highest layer first (Layer 3, Layer 2, Layer 1: PagerDuty's
 *   public-support-scripts PR #60, "a GET request and a POST or PUT request for a schedule will have
 *   schedule layers in opposite order"; Grafana OnCall's PagerDuty migrator reads them reversed), so
 *   the first layer in the list that has someone on call wins.
 * - Overrides. `overrides_subschedule` and `Override`: an override puts its user on call for its
 *   interval over every layer.
 * - Entries. `final_schedule.rendered_schedule_entries`: "a list of entries on the computed layer
 *   for the current time range"; `overflow`: "Any on-call schedule entries that pass the date range
 *   bounds will be truncated at the bounds, unless the parameter `overflow=true` is passed".
 *   **Assumed**: consecutive entries of one user are one entry.
 */
import { instantOf, localDayAndTime } from "../../../families/shared/zonedTime";
import { mergeRanges } from "../../shared/ranges";

const DAY_MS = 86_400_000;
const WEEK_DAYS = 7;

/** A layer as the fixtures hold it (users by id). */
export interface PagerDutyLayer {
  id: string;
  name: string;
  start: string;
  end?: string | null;
  rotation_virtual_start: string;
  rotation_turn_length_seconds: number;
  users: readonly string[];
  restrictions?: readonly PagerDutyRestriction[];
}

export interface PagerDutyRestriction {
  type: "daily_restriction" | "weekly_restriction";
  start_time_of_day: string;
  duration_seconds: number;
  start_day_of_week?: number;
}

export interface PagerDutyOverride {
  id: string;
  start: string;
  end: string;
  user: string;
}

/** `[start, end)` in ms, and whose. */
export interface RenderedEntry {
  start: number;
  end: number;
  user: string;
}

export interface Window {
  start: number;
  end: number;
}

/** `HH:MM:SS` (or `HH:MM`) as ms since midnight. */
function timeOfDayMs(text: string): number {
  const [h = 0, m = 0, s = 0] = text.split(":").map(Number);
  return ((h * 60 + m) * 60 + s) * 1000;
}

const mod = (k: number, n: number) => ((k % n) + n) % n;

/** The start of turn k of a layer. */
function turnStart(layer: PagerDutyLayer, k: number, timeZone: string): number {
  const anchor = Date.parse(layer.rotation_virtual_start);
  const lengthMs = layer.rotation_turn_length_seconds * 1000;
  if (lengthMs % DAY_MS !== 0) return anchor + k * lengthMs;
  const local = localDayAndTime(anchor, timeZone);
  return instantOf(local.days + k * (lengthMs / DAY_MS), local.msOfDay, timeZone);
}

/** The restriction windows that overlap `[from, to)`, merged, in time order. */
function restrictionWindows(
  restrictions: readonly PagerDutyRestriction[],
  from: number,
  to: number,
  timeZone: string,
): [number, number][] {
  const windows: [number, number][] = [];
  const firstDay = localDayAndTime(from, timeZone).days - WEEK_DAYS - 1;
  const lastDay = localDayAndTime(to, timeZone).days + 1;
  for (const r of restrictions) {
    const startMs = timeOfDayMs(r.start_time_of_day);
    const span = r.duration_seconds * 1000;
    for (let day = firstDay; day <= lastDay; day++) {
      if (r.type === "weekly_restriction") {
        // Day 0 (1970-01-01) was a Thursday: ISO weekday 4.
        const isoWeekday = mod(day + 3, 7) + 1;
        if (isoWeekday !== r.start_day_of_week) continue;
      }
      const s = instantOf(day, startMs, timeZone);
      const e = instantOf(day + Math.floor((startMs + span) / DAY_MS), (startMs + span) % DAY_MS, timeZone);
      if (e > from && s < to) windows.push([s, e]);
    }
  }
  return mergeRanges(windows);
}

/** A layer's entries that overlap the window (whole, not cut at its edges). */
export function layerEntries(layer: PagerDutyLayer, timeZone: string, window: Window): RenderedEntry[] {
  if (layer.users.length === 0) return [];
  const active: [number, number] = [
    Date.parse(layer.start),
    layer.end ? Date.parse(layer.end) : Number.POSITIVE_INFINITY,
  ];
  const from = Math.max(window.start, active[0]);
  const to = Math.min(window.end, active[1]);
  if (to <= from) return [];
  // The turn holding `from`: estimated, then walked (whole-day turns drift by DST hours only).
  const lengthMs = layer.rotation_turn_length_seconds * 1000;
  let k = Math.floor((from - Date.parse(layer.rotation_virtual_start)) / lengthMs);
  while (turnStart(layer, k, timeZone) > from) k--;
  while (turnStart(layer, k + 1, timeZone) <= from) k++;
  const out: RenderedEntry[] = [];
  for (; turnStart(layer, k, timeZone) < to; k++) {
    const s = Math.max(turnStart(layer, k, timeZone), active[0]);
    const e = Math.min(turnStart(layer, k + 1, timeZone), active[1]);
    if (e <= s) continue;
    const user = layer.users[mod(k, layer.users.length)]!;
    const pieces =
      layer.restrictions && layer.restrictions.length > 0
        ? restrictionWindows(layer.restrictions, s, e, timeZone)
            .map(([ws, we]): [number, number] => [Math.max(ws, s), Math.min(we, e)])
            .filter(([ps, pe]) => pe > ps)
        : [[s, e] as [number, number]];
    for (const [ps, pe] of pieces) out.push({ start: ps, end: pe, user });
  }
  return out.filter((x) => x.end > window.start && x.start < window.end);
}

/**
 * The final schedule over the window: at each instant the user of an override, else of the first
 * layer (highest first, as the API lists them) that has someone on call; consecutive entries of
 * one user joined; cut at the window unless `overflow`.
 */
export function finalSchedule(
  layers: readonly PagerDutyLayer[],
  overrides: readonly PagerDutyOverride[],
  timeZone: string,
  window: Window,
  overflow = false,
): RenderedEntry[] {
  const lanes: RenderedEntry[][] = [
    overrides
      .map((o) => ({ start: Date.parse(o.start), end: Date.parse(o.end), user: o.user }))
      .filter((o) => o.end > window.start && o.start < window.end),
    ...layers.map((l) => layerEntries(l, timeZone, window)),
  ];
  const cuts = new Set<number>();
  for (const lane of lanes)
    for (const e of lane) {
      cuts.add(e.start);
      cuts.add(e.end);
    }
  const points = [...cuts].sort((a, b) => a - b);
  const out: RenderedEntry[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [s, e] = [points[i]!, points[i + 1]!];
    let user: string | undefined;
    for (const lane of lanes) {
      user = lane.find((x) => x.start <= s && x.end >= e)?.user;
      if (user !== undefined) break;
    }
    if (user === undefined) continue;
    const last = out[out.length - 1];
    if (last && last.user === user && last.end === s) last.end = e;
    else out.push({ start: s, end: e, user });
  }
  const shown = out.filter((x) => x.end > window.start && x.start < window.end);
  return overflow
    ? shown
    : shown.map((x) => ({ ...x, start: Math.max(x.start, window.start), end: Math.min(x.end, window.end) }));
}

/** The share of the window the entries cover, in percent (two decimals). */
export function coveragePercentage(entries: readonly RenderedEntry[], window: Window): number {
  const covered = mergeRanges(
    entries.map((e): [number, number] => [Math.max(e.start, window.start), Math.min(e.end, window.end)]),
  )
    .filter(([s, e]) => e > s)
    .reduce((sum, [s, e]) => sum + (e - s), 0);
  return Math.round((covered / (window.end - window.start)) * 10_000) / 100;
}
