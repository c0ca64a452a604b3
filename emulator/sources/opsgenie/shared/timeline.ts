/**
 * Opsgenie's schedule timeline: who is on call in each rotation, computed from the rotations, their
 * participants and time restrictions, as Opsgenie documents them. A pure function: the schedules
 * family answers `GET /v2/schedules/{identifier}/timeline` with it. Written from Opsgenie's rules
 * alone, not from this project's schedule evaluator, so `migrate --verify` compares two independent
 * computations.
 *
 * Rules, and where each comes from (opsgenie/opsgenie-oas `definitions/scheduleRotation.yaml`,
 * `definitions/common.yaml`; Atlassian's "Manage on-call schedules and rotations"):
 * - Start. `startDate`: "Starting date and time indicates when the rotation becomes active. Schedule
 *   rotations are calculated from this date and time. The time ... becomes the handover time for
 *   on-call responsibilities". Nobody is on call in a rotation before it.
 * - End. `endDate`: "indicates when the rotation ends and becomes inactive".
 * - Turns. `type` ("Type of rotation. May be one of 'daily', 'weekly' and 'hourly'") and `length`
 *   ("Length of the rotation with default value 1"): turn k starts k × length hours, days or weeks
 *   after `startDate`. **Assumed**: daily and weekly turns keep the handover's local time of day in
 *   the schedule's `timezone` across daylight-saving changes; hourly turns count elapsed hours.
 * - Participants. `participants`: "List of escalations, teams, users or the reserved word none
 *   which will be used in schedule. Each of them can be used multiple times and will be rotated in
 *   the order they given": turn k is participant k mod n's; a `none` turn has nobody on call.
 * - Restrictions. `timeRestriction`: "Used to limit schedule rotation to certain day and time of the
 *   week": `time-of-day` (`restriction`: every day from start to end hour and minute) and
 *   `weekday-and-time-of-day` (`restrictions`: from `startDay` at start to `endDay` at end), in the
 *   schedule's time zone; a turn is on call only inside them. **Assumed**: an end not after its start
 *   runs into the next day (time-of-day) or the next week (weekday), and an end equal to the start
 *   is a whole day (time-of-day).
 * - Rotations. "When an alert is escalated through the schedule, all on-call users in all the
 *   different rotations are notified (cumulative)": each rotation has its own periods, all on call.
 * - Window. `date` ("Default date is the moment of the time that request is received"), `interval`
 *   ("Default value is 1") and `intervalUnit` ('days', 'weeks', 'months'; "Default value is 'weeks'").
 *   **Assumed**: the timeline runs from `date` for `interval` units (days and weeks of 24 hours,
 *   months by the UTC calendar); periods are cut at its ends.
 */
import { instantOf, localDayAndTime } from "../../../families/shared/zonedTime";
import { mergeRanges } from "../../shared/ranges";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type Weekday = "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";

export interface OpsgenieRecipientRef {
  type: "user" | "team" | "escalation" | "none" | "schedule" | "group" | "all";
  id?: string;
}

export type TimeRestriction =
  | {
      type: "time-of-day";
      restriction: { startHour: number; startMin: number; endHour: number; endMin: number };
    }
  | {
      type: "weekday-and-time-of-day";
      restrictions: Array<{
        startDay: Weekday;
        startHour: number;
        startMin: number;
        endDay: Weekday;
        endHour: number;
        endMin: number;
      }>;
    };

/** A rotation as the fixtures hold it (participants by type and id). */
export interface OpsgenieRotation {
  id: string;
  name: string;
  startDate: string;
  endDate?: string;
  type: "daily" | "weekly" | "hourly";
  length?: number;
  participants: readonly OpsgenieRecipientRef[];
  timeRestriction?: TimeRestriction;
}

/** `[start, end)` in ms, and who (a participant that is not `none`). */
export interface Period {
  start: number;
  end: number;
  recipient: OpsgenieRecipientRef;
}

export interface Window {
  start: number;
  end: number;
}

const WEEKDAY_INDEX: Record<Weekday, number> = {
  monday: 0,
  tuesday: 1,
  wednesday: 2,
  thursday: 3,
  friday: 4,
  saturday: 5,
  sunday: 6,
};

const mod = (k: number, n: number) => ((k % n) + n) % n;

function turnStart(rotation: OpsgenieRotation, k: number, timeZone: string): number {
  const anchor = Date.parse(rotation.startDate);
  const length = rotation.length ?? 1;
  if (rotation.type === "hourly") return anchor + k * length * HOUR_MS;
  const local = localDayAndTime(anchor, timeZone);
  const days = rotation.type === "daily" ? length : 7 * length;
  return instantOf(local.days + k * days, local.msOfDay, timeZone);
}

/** The restriction windows overlapping `[from, to)`, merged. */
function restrictionWindows(
  r: TimeRestriction,
  from: number,
  to: number,
  timeZone: string,
): [number, number][] {
  const windows: [number, number][] = [];
  const firstDay = localDayAndTime(from, timeZone).days - 8;
  const lastDay = localDayAndTime(to, timeZone).days + 1;
  // A window from a local time, `minutes` long on the local clock (an end not after the start wraps).
  const span = (day: number, startMinutes: number, minutes: number): [number, number] => [
    instantOf(day, startMinutes * 60_000, timeZone),
    instantOf(day, (startMinutes + minutes) * 60_000, timeZone),
  ];
  for (let day = firstDay; day <= lastDay; day++) {
    if (r.type === "time-of-day") {
      const { startHour, startMin, endHour, endMin } = r.restriction;
      const [s, e] = [startHour * 60 + startMin, endHour * 60 + endMin];
      windows.push(span(day, s, mod(e - s, 1440) || 1440));
      continue;
    }
    // Day 0 (1970-01-01) was a Thursday: index 3 from Monday.
    const weekday = mod(day + 3, 7);
    for (const w of r.restrictions) {
      if (WEEKDAY_INDEX[w.startDay] !== weekday) continue;
      const s = (WEEKDAY_INDEX[w.startDay] * 24 + w.startHour) * 60 + w.startMin;
      const e = (WEEKDAY_INDEX[w.endDay] * 24 + w.endHour) * 60 + w.endMin;
      windows.push(span(day, w.startHour * 60 + w.startMin, mod(e - s, 7 * 1440) || 7 * 1440));
    }
  }
  return mergeRanges(windows.filter(([s, e]) => e > from && s < to));
}

/** A rotation's periods that overlap the window, cut at its ends. */
export function rotationPeriods(rotation: OpsgenieRotation, timeZone: string, window: Window): Period[] {
  if (rotation.participants.length === 0) return [];
  const active: [number, number] = [
    Date.parse(rotation.startDate),
    rotation.endDate ? Date.parse(rotation.endDate) : Number.POSITIVE_INFINITY,
  ];
  const from = Math.max(window.start, active[0]);
  const to = Math.min(window.end, active[1]);
  if (to <= from) return [];
  const nominal =
    (rotation.length ?? 1) *
    (rotation.type === "hourly" ? HOUR_MS : rotation.type === "daily" ? DAY_MS : 7 * DAY_MS);
  let k = Math.floor((from - active[0]) / nominal);
  while (turnStart(rotation, k, timeZone) > from) k--;
  while (turnStart(rotation, k + 1, timeZone) <= from) k++;
  const out: Period[] = [];
  for (; turnStart(rotation, k, timeZone) < to; k++) {
    const recipient = rotation.participants[mod(k, rotation.participants.length)]!;
    if (recipient.type === "none") continue;
    const s = Math.max(turnStart(rotation, k, timeZone), from);
    const e = Math.min(turnStart(rotation, k + 1, timeZone), to);
    if (e <= s) continue;
    const pieces = rotation.timeRestriction
      ? restrictionWindows(rotation.timeRestriction, s, e, timeZone)
          .map(([ws, we]): [number, number] => [Math.max(ws, s), Math.min(we, e)])
          .filter(([ps, pe]) => pe > ps)
      : [[s, e] as [number, number]];
    for (const [ps, pe] of pieces) out.push({ start: ps, end: pe, recipient });
  }
  return out;
}

/** The timeline's window: from `date` for `interval` `intervalUnit`s. */
export function timelineWindow(date: number, interval: number, unit: "days" | "weeks" | "months"): Window {
  if (unit === "months") {
    const d = new Date(date);
    return {
      start: date,
      end: Date.UTC(
        d.getUTCFullYear(),
        d.getUTCMonth() + interval,
        d.getUTCDate(),
        d.getUTCHours(),
        d.getUTCMinutes(),
        d.getUTCSeconds(),
      ),
    };
  }
  return { start: date, end: date + interval * (unit === "days" ? DAY_MS : 7 * DAY_MS) };
}
