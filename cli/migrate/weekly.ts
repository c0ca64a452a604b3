/**
 * Sets of times of the week, as minutes since Monday 00:00 (0 to 10 080, local to a schedule's time
 * zone): what PagerDuty restrictions, Opsgenie time restrictions and this API's working intervals
 * each describe, so one can be turned into another, and a layer's hours taken out of another's.
 */
import { mergeRanges } from "../../emulator/sources/shared/ranges";
import { WEEKDAYS, type Weekday } from "../../resources/shared/weekday";

export const WEEK_MINUTES = 7 * 1440;

/** Sorted, disjoint, non-touching `[start, end)` minute ranges within one week. */
export type WeekSet = ReadonlyArray<readonly [number, number]>;

export const EMPTY_WEEK: WeekSet = [];
export const FULL_WEEK: WeekSet = [[0, WEEK_MINUTES]];

export { WEEKDAYS };

const mod = (k: number, n: number) => ((k % n) + n) % n;

const normalise = (ranges: Array<readonly [number, number]>): WeekSet => mergeRanges(ranges);

/** `length` minutes from `start` (minutes since Monday 00:00), wrapping past Sunday midnight. */
export function weekSpan(start: number, length: number): WeekSet {
  if (length >= WEEK_MINUTES) return FULL_WEEK;
  const s = mod(start, WEEK_MINUTES);
  const e = s + length;
  return e <= WEEK_MINUTES
    ? normalise([[s, e]])
    : normalise([
        [s, WEEK_MINUTES],
        [0, e - WEEK_MINUTES],
      ]);
}

export function union(...sets: WeekSet[]): WeekSet {
  return normalise(sets.flatMap((s) => [...s]));
}

/** `a` without the times of `b`. */
export function subtract(a: WeekSet, b: WeekSet): WeekSet {
  let out: Array<readonly [number, number]> = [...a];
  for (const [cs, ce] of b)
    out = out.flatMap(([s, e]): Array<readonly [number, number]> => {
      if (ce <= s || cs >= e) return [[s, e]];
      return [...(cs > s ? [[s, cs] as const] : []), ...(ce < e ? [[ce, e] as const] : [])];
    });
  return normalise(out);
}

export const isFull = (set: WeekSet) => set.length === 1 && set[0]![0] === 0 && set[0]![1] === WEEK_MINUTES;

const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/**
 * The set as this API's working intervals: one interval per day it touches (a range across midnight
 * is split there; `24:00` ends a day), in week order. The evaluator joins touching intervals again,
 * so a split makes no entry of its own.
 */
export function workingIntervals(
  set: WeekSet,
): Array<{ weekday: Weekday; startTime: string; endTime: string }> {
  const out: Array<{ weekday: Weekday; startTime: string; endTime: string }> = [];
  for (const [s, e] of set) {
    for (let day = Math.floor(s / 1440); day * 1440 < e; day++) {
      const from = Math.max(s, day * 1440) - day * 1440;
      const to = Math.min(e, (day + 1) * 1440) - day * 1440;
      if (to > from) out.push({ weekday: WEEKDAYS[day]!, startTime: clock(from), endTime: clock(to) });
    }
  }
  return out;
}

/** The set as people read it: `Mon 09:00–17:00, Sat 00:00–Mon 00:00`. */
export function weekText(set: WeekSet): string {
  if (isFull(set)) return "around the clock";
  if (set.length === 0) return "never";
  const day = (m: number) => WEEKDAYS[Math.floor(mod(m, WEEK_MINUTES) / 1440)]!;
  const at = (m: number) => `${day(m)[0]!.toUpperCase()}${day(m).slice(1, 3)} ${clock(m % 1440)}`;
  return set
    .map(([s, e]) => {
      const sameDay = Math.floor(s / 1440) === Math.floor((e - 1) / 1440);
      return sameDay ? `${at(s)}–${clock(e - Math.floor(s / 1440) * 1440)}` : `${at(s)}–${at(e)}`;
    })
    .join(", ");
}
