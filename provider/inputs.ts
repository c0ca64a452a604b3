/**
 * Input schemas shared by every resource kind: names, free text, single-line values, timestamps
 * and clock times. A check refuses only what a published rule forbids (provider/checkWarnings.ts):
 * the formats of timestamps (the seed's Conventions: RFC 3339) and clock times (the reference's
 * WeekdayIntervalV2: "in 24hr format", e.g. `09:00`) are published and refused; the rest is our
 * model and only warned about.
 *
 * Limits: the reference (shared/api) states no length limit for any of these fields, and no rule
 * against an empty or blank name. The numbers below are guesses, kept in one place, chosen so that
 * a value within them cannot make a request larger than the API's body limit (1 MiB: a larger body
 * is answered 413 `payload_too_large`); the emulator enforces the same numbers
 * (emulator/http/limits.ts). A value past them is warned about and sent: the API decides.
 */
import { z } from "zod";
import { warnUnless } from "./checkWarnings";

export const LIMITS = {
  /** Characters in a name (guess: the reference states none). */
  name: 255,
  /** Characters in a description, comment or other free text (guess: the reference states none). */
  text: 100_000,
  /**
   * Levels of nesting in one resource's inputs: about 50 escalation-path branches inside each other.
   * The provider's own limit, not the API's (none is published): the checks walk the inputs
   * recursively, and deeper inputs could exhaust their stack. Refused, saying so.
   */
  depth: 150,
} as const;

/**
 * Where the inputs nest deeper than `LIMITS.depth` (the path of the first value past it), or
 * undefined. Iterative, so that no depth can exhaust the stack.
 */
export function tooDeep(value: unknown): (string | number)[] | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (path.length > LIMITS.depth) return path;
    if (Array.isArray(v)) for (const [i, e] of v.entries()) stack.push({ value: e, path: [...path, i] });
    else if (v && typeof v === "object")
      for (const [k, e] of Object.entries(v)) stack.push({ value: e, path: [...path, k] });
  }
  return undefined;
}

/** A name: warned about when empty, only whitespace, or longer than `LIMITS.name` characters. */
export function nameText(): z.ZodString {
  return z
    .string()
    .superRefine(warnUnless((v: string) => v !== "", "is empty"))
    .superRefine(warnUnless((v: string) => v === "" || v.trim() !== "", "is only whitespace"))
    .superRefine(
      warnUnless((v: string) => v.length <= LIMITS.name, `is longer than ${LIMITS.name} characters`),
    );
}

/**
 * A name a lookup (`getX`) searches for: not empty, not only whitespace, at most `LIMITS.name`
 * characters. A lookup's arguments are the provider's own (it reads; nothing is sent to be kept), so
 * one that can name nothing is refused before any request.
 */
export function lookupName(): z.ZodString {
  return z
    .string()
    .min(1, "must not be empty")
    .max(LIMITS.name, `must be at most ${LIMITS.name} characters`)
    .refine((v) => v.trim() !== "", "must not be only whitespace");
}

/** Free text (a description, comments): warned about past `LIMITS.text` characters. */
export function freeText(): z.ZodString {
  return z
    .string()
    .superRefine(
      warnUnless((v: string) => v.length <= LIMITS.text, `is longer than ${LIMITS.text} characters`),
    );
}

/** An id (or other reference text) the API resolves: warned about when empty. */
export function idText(): z.ZodString {
  return z.string().superRefine(warnUnless((v: string) => v !== "", "is empty"));
}

/** Tabs, line breaks and other control characters (C0 and DEL). */
export function hasControlCharacter(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * A single-line value (a select option): no surrounding whitespace, no tabs or line breaks
 * (reference: CustomFieldOptionsCreatePayloadV1.value, "Values must not start or end with
 * whitespace, or contain tabs or newlines"); other control characters are warned about.
 */
export function singleLine(): z.ZodString {
  return nameText()
    .refine((v) => v === v.trim(), "must not start or end with whitespace")
    .refine((v) => !/[\t\n\r]/.test(v), "must not contain tabs or line breaks")
    .superRefine(warnUnless((v: string) => !hasControlCharacter(v), "holds a control character"));
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * A real RFC 3339 instant: the date exists (no 2026-02-30) and the time is on the clock (no 24:00,
 * no minute 60). `Date.parse` alone moves impossible dates to another day.
 */
export function isRealTimestamp(value: string): boolean {
  const m = TIMESTAMP.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return !Number.isNaN(Date.parse(value));
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** An RFC 3339 timestamp with an offset or `Z`, on a day that exists (seed: Conventions, timestamps). */
export function timestamp(): z.ZodString {
  return z
    .string()
    .refine(
      isRealTimestamp,
      "must be an RFC 3339 timestamp with an offset, e.g. 2026-01-05T09:00:00Z, on a day that exists (hours 00-23)",
    );
}

/** A time of day, `HH:MM`, 00:00-23:59 (reference: WeekdayIntervalV2.start_time, "in 24hr format", e.g. 09:00). */
export function clockTime(): z.ZodString {
  return z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM (24-hour, 00:00-23:59)");
}

/** The end of a working interval: `HH:MM`, 00:00-23:59, or 24:00 for the end of the day. */
export function clockEnd(): z.ZodString {
  return z
    .string()
    .regex(
      /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/,
      "must be HH:MM (24-hour, 00:00-23:59, or 24:00 for midnight)",
    );
}
