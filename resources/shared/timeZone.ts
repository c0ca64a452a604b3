import { z } from "zod";

/** True when `tz` is an IANA time zone this runtime knows (`Europe/London`, `UTC`). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * An input holding an IANA time zone (schedules, escalation path working hours, pay configurations):
 * reference ScheduleCreatePayloadV3.timezone ("as an IANA name"); reference-newer / the Terraform
 * pay_config docs: "IANA timezone".
 */
export const timeZone = () =>
  z.string().refine(isTimeZone, "must be an IANA time zone such as Europe/London");
