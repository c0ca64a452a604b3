import { z } from "zod";

/** A day of the week (schedule working intervals, escalation path working hours). */
export const weekday = z.enum(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]);
export type Weekday = z.infer<typeof weekday>;
