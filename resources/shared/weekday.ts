import type { z } from "zod";
import { knownValues } from "../../provider/checkWarnings";

/** The days of the week, in week order. */
export const WEEKDAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;

/** A day of the week (schedule working intervals, escalation path working hours, pay rules). */
// reference: WeekdayIntervalV2.weekday enum; the Terraform provider's pay_config docs (weekly_rules.weekdays)
export const weekday = knownValues(WEEKDAYS);
export type Weekday = z.infer<typeof weekday>;
