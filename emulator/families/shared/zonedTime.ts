/**
 * Wall-clock time in an IANA time zone, with the runtime's Intl (Node's full ICU): the local date
 * and time of an instant, an instant from a local date and time, the offset in force. What the
 * schedule-entries evaluator (scheduleEntries.ts) counts handovers and working intervals in, and
 * what the review tools write times in. No dependency: `Intl.DateTimeFormat` knows every zone's
 * rules, daylight-saving changes included.
 *
 * A local time that does not exist (the hour skipped when clocks go forward) is moved forward by
 * the gap, and one that exists twice (the hour repeated when clocks go back) is the earlier of the
 * two: the disambiguation RFC 5545 and Temporal call "compatible".
 */

const DAY_MS = 86_400_000;

/** A local date and time, months and days from 1; `weekday` 0 = Sunday … 6 = Saturday. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      weekday: "short",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** The local date and time of an instant (ms since the epoch) in `timeZone`, to the second. */
export function localTime(instant: number, timeZone: string): LocalTime {
  const out: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) {
    if (p.type === "weekday") out.weekday = WEEKDAYS[p.value] ?? 0;
    else if (p.type !== "literal" && p.type !== "era") out[p.type] = Number(p.value);
  }
  return out as unknown as LocalTime;
}

/** The offset from UTC in force at an instant, in ms (`+01:00` is 3 600 000). */
export function offsetAt(instant: number, timeZone: string): number {
  const l = localTime(instant, timeZone);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** `+01:00`, `-05:00`, `+05:30`. */
export function offsetText(instant: number, timeZone: string): string {
  const minutes = Math.round(offsetAt(instant, timeZone) / 60_000);
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** Days since 1970-01-01 of a local date (a day count, no time zone in it). */
export function dayNumber(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / DAY_MS);
}

/** The local date of a day number, and its weekday (0 = Sunday). */
export function dateOfDay(days: number): { year: number; month: number; day: number; weekday: number } {
  const d = new Date(days * DAY_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
  };
}

/**
 * The instant of a local date (a day number) and a time of day (ms since local midnight, up to
 * 24:00) in `timeZone`. A time skipped by a daylight-saving change is moved forward by the gap; a
 * time that happens twice is the first of the two.
 */
export function instantOf(days: number, msOfDay: number, timeZone: string): number {
  const wall = days * DAY_MS + msOfDay;
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const candidates = [...new Set([wall - before, wall - after])].filter(
    (t) => t + offsetAt(t, timeZone) === wall,
  );
  if (candidates.length > 0) return Math.min(...candidates);
  // In the gap: with the offset from before the change, the same wall time lands after it.
  return wall - before;
}

/** The local day number and the time of day (ms) of an instant in `timeZone`. */
export function localDayAndTime(instant: number, timeZone: string): { days: number; msOfDay: number } {
  const wall = Math.floor(instant / 1000) * 1000 + offsetAt(instant, timeZone) + (instant % 1000);
  const days = Math.floor(wall / DAY_MS);
  return { days, msOfDay: wall - days * DAY_MS };
}
