/**
 * Times of the week (cli/migrate/weekly.ts): what restrictions and working intervals are converted
 * through, and how a layer's hours are taken out of the layers below it.
 */
import {
  FULL_WEEK,
  isFull,
  subtract,
  union,
  WEEK_MINUTES,
  weekSpan,
  weekText,
  workingIntervals,
} from "../../../cli/migrate/weekly";

const at = (day: number, hour: number, minute = 0) => (day * 24 + hour) * 60 + minute;

describe("weekly sets", () => {
  test("a span wraps past Sunday midnight; a week or more is the whole week", () => {
    expect(weekSpan(at(6, 22), 8 * 60)).toEqual([
      [0, at(0, 6)],
      [at(6, 22), WEEK_MINUTES],
    ]);
    expect(isFull(weekSpan(at(2, 5), WEEK_MINUTES + 30))).toBe(true);
    expect(union(weekSpan(at(0, 9), 60), weekSpan(at(0, 10), 60))).toEqual([[at(0, 9), at(0, 11)]]);
  });

  test("subtracting a higher layer's hours leaves the rest", () => {
    const businessHours = union(...[0, 1, 2, 3, 4, 5, 6].map((d) => weekSpan(at(d, 9), 8 * 60)));
    const weekend = weekSpan(at(5, 0), 2 * 1440);
    expect(weekText(subtract(weekend, businessHours))).toBe(
      "Sat 00:00–09:00, Sat 17:00–Sun 09:00, Sun 17:00–24:00",
    );
    expect(subtract(FULL_WEEK, FULL_WEEK)).toEqual([]);
    expect(weekText(FULL_WEEK)).toBe("around the clock");
  });

  test("working intervals split at midnight (24:00 ends a day), in week order", () => {
    // Friday 18:00 for 60 hours: Monday's part first (the week starts on Monday).
    expect(workingIntervals(weekSpan(at(4, 18), 2.5 * 1440))).toEqual([
      { weekday: "monday", startTime: "00:00", endTime: "06:00" },
      { weekday: "friday", startTime: "18:00", endTime: "24:00" },
      { weekday: "saturday", startTime: "00:00", endTime: "24:00" },
      { weekday: "sunday", startTime: "00:00", endTime: "24:00" },
    ]);
    expect(workingIntervals(weekSpan(at(1, 9, 30), 30))).toEqual([
      { weekday: "tuesday", startTime: "09:30", endTime: "10:00" },
    ]);
  });
});
