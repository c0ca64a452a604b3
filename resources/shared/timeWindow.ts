/**
 * A window of time declared as `startAt` / `endAt` (RFC 3339): maintenance windows, schedule
 * overrides.
 */
import { passedOn } from "../../provider/checkWarnings";
import type { Problem } from "../../provider/spec";

/**
 * A window that does not end after it starts: no published rule forbids it, so it is warned about
 * and passed on (the API's answer decides).
 */
export function endsAfterStart(args: { startAt: string; endAt: string }): Problem[] {
  if (Date.parse(args.endAt) > Date.parse(args.startAt)) return [];
  return [
    {
      path: ["endAt"],
      message: passedOn(`is not after startAt (${args.startAt})`),
      dependsOn: [["startAt"]],
      severity: "warning",
    },
  ];
}
