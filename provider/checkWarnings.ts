/**
 * Check warnings: what a check says without refusing. The service is the authority: a check refuses
 * only what a published rule forbids (the seed, the reference in shared/api, the service's own
 * documentation), and names that source beside the rule. Where a rule is our model, not published,
 * the value is passed on (the API's 422, mapped to the input path, is the answer) and a warning at
 * preview names the input path instead.
 *
 * Two ways to warn, both reported by the factory's check as one line each in the Pulumi log (once
 * per run and message), never as a check failure:
 * - a `validate` problem with `severity: "warning"` (provider/spec.ts);
 * - `knownValues(values)` in a zod schema, for a closed list of service-defined values (roles, types,
 *   modes): the listed values autocomplete and pass silently, any other text passes with a warning
 *   naming the nearest known value (the seed's Versioning 3: new enum values may appear at any time).
 *
 * A zod refinement cannot warn without failing the parse, so the warnings of `knownValues` are
 * issues marked as warnings that are raised only inside `collectingWarnings` (the factory's check);
 * every other parse of the same schema sees none.
 */
import { closest } from "fastest-levenshtein";
import { z } from "zod";
import { logWarning } from "./client";
import type { Problem } from "./spec";

/** A warning at an input path (the factory prefixes the resource). */
export interface CheckWarning {
  path: (string | number)[];
  message: string;
}

/** Where check warnings go (the Pulumi log's warning); tests replace `warn`. */
export const checkWarningLog = { warn: (message: string) => logWarning(message) };

/** What was already said this run (reset by `configure`: one provider process per run). */
const said = new Set<string>();

/** Forgets what was said (a new run). */
export function resetCheckWarnings(): void {
  said.clear();
}

/** Says each warning once per run, naming the resource (`kind "name"`) and the input path. */
export function sayCheckWarnings(resource: string, warnings: readonly { text: string }[]): void {
  for (const w of warnings) {
    const line = `${resource}: ${w.text}`;
    if (said.has(line)) continue;
    said.add(line);
    checkWarningLog.warn(line);
  }
}

/** The parameter that marks a zod issue as a warning. */
const WARNING = "incident:warning";

let collecting = 0;

/** Runs `parse` with the schema warnings raised (as issues marked `isWarningIssue`). */
export function collectingWarnings<T>(parse: () => T): T {
  collecting++;
  try {
    return parse();
  } finally {
    collecting--;
  }
}

/** True for a zod issue that is a warning (raised inside `collectingWarnings`). */
export function isWarningIssue(issue: { code: string; params?: unknown }): boolean {
  return issue.code === "custom" && (issue.params as Record<string, unknown> | undefined)?.[WARNING] === true;
}

/** Adds a warning to a zod refinement's context (a no-op outside `collectingWarnings`). */
export function warnIn(ctx: z.RefinementCtx, message: string, path: (string | number)[] = []): void {
  if (collecting === 0) return;
  ctx.addIssue({ code: "custom", message, path, params: { [WARNING]: true } });
}

/** A known literal or any other text (the type of `knownValues`): the literals still autocomplete. */
export type OrOther<T extends string> = T | (string & {});

/** What a warning of a rule with no published source adds: the value goes to the API as written. */
export const PASSED_ON = "no published rule forbids it: it is sent as written and the API decides";

/** `message` of a rule with no published source, saying the value is passed on. */
export function passedOn(message: string): string {
  return `${message} (${PASSED_ON})`;
}

/** A `validate` problem for a rule with no published source: a warning, saying the value is passed on. */
export function warningProblem(
  path: Problem["path"],
  message: string,
  dependsOn?: Problem["dependsOn"],
): Problem {
  return { path, message: passedOn(message), severity: "warning", ...(dependsOn ? { dependsOn } : {}) };
}

/** Adds a warning for a rule with no published source (`PASSED_ON` added) to a zod refinement's context. */
export function warnPassedOn(ctx: z.RefinementCtx, message: string, path: (string | number)[] = []): void {
  warnIn(ctx, `${message} (${PASSED_ON})`, path);
}

/**
 * A zod refinement that warns (never refuses) when `holds` is false: for a rule that is our model,
 * not published. The message says what looks wrong; `PASSED_ON` is added.
 */
export function warnUnless<T>(
  holds: (value: T) => boolean,
  message: string | ((value: T) => string),
): (value: T, ctx: z.RefinementCtx) => void {
  return (value, ctx) => {
    if (!holds(value)) warnPassedOn(ctx, typeof message === "string" ? message : message(value));
  };
}

/**
 * The known value nearest to `value` (case aside), for a "did you mean" hint: one it abbreviates
 * (`sat` → `saturday`) first, else the one fewest edits away.
 */
export function nearestKnown(value: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = value.toLowerCase();
  const byLower = new Map(known.map((k) => [k.toLowerCase(), k]));
  const extending = [...byLower.keys()].filter((k) => lower !== "" && k.startsWith(lower));
  return byLower.get(closest(lower, extending.length > 0 ? extending : [...byLower.keys()]));
}

/** The warning for a value outside a closed list. */
export function unknownValueMessage(value: string, known: readonly string[]): string {
  const near = nearestKnown(value, known);
  const list = known.length <= 8 ? ` (${known.join(", ")})` : "";
  return (
    `${JSON.stringify(value)} is not a value the API is known to take${list}` +
    `${near !== undefined ? `: did you mean ${JSON.stringify(near)}?` : ""}` +
    " It is sent as written: the API decides"
  );
}

/** The schema of a closed list: its known values are `knownValues` (the generator names them, as an enum). */
export type KnownValuesSchema<T extends readonly string[]> = z.ZodType<
  OrOther<T[number]>,
  OrOther<T[number]>
> & {
  readonly knownValues: T;
};

/**
 * A closed list of service-defined values (the source belongs in a comment beside the call): its
 * TypeScript type is the known literals (which autocomplete) or any other string; a value outside
 * the list passes with a warning naming the nearest known one.
 */
export function knownValues<const T extends readonly [string, ...string[]]>(values: T): KnownValuesSchema<T> {
  const known: readonly string[] = values;
  const schema = z.string().superRefine((v, ctx) => {
    if (!known.includes(v)) warnIn(ctx, unknownValueMessage(v, known));
  });
  return Object.assign(schema, { knownValues: values }) as unknown as KnownValuesSchema<T>;
}
