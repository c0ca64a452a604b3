/**
 * Limits every request body is held to before any family sees it, so that no body can make the
 * emulator fail (500): nesting deeper than `MAX_DEPTH` is a 400, names longer than `NAME` and other
 * strings longer than `TEXT` characters are 422s naming the field, and so are times of day that do
 * not exist (`start_time` / `end_time` 24:59). The reference states none of
 * these numbers: they are the provider's (provider/inputs.ts `LIMITS`, documented there as guesses);
 * the depth allows escalation paths far deeper than the provider's own limit.
 */
import { badRequest, type FieldProblem, validationFailed } from "./errors";

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;

export const BODY_LIMITS = { MAX_DEPTH: 256, NAME: 255, TEXT: 100_000 } as const;

/** Throws the API's answer for a body past a limit. */
export function checkBodyLimits(body: unknown): void {
  const problems: FieldProblem[] = [];
  // Iterative walk: a body nested thousands of levels deep must not exhaust the stack here either.
  const stack: { value: unknown; path: string[]; depth: number }[] = [{ value: body, path: [], depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (depth > BODY_LIMITS.MAX_DEPTH) {
      throw badRequest(
        `The request body is nested more than ${BODY_LIMITS.MAX_DEPTH} levels deep (at ${path.slice(0, 12).join(".")}…)`,
      );
    }
    if (typeof value === "string") {
      const key = path[path.length - 1];
      // Working hours and working intervals: "in 24hr format" (the reference), so 00:00-23:59 (and
      // 24:00 as an end); 24:59 does not exist.
      if (
        (key === "start_time" || key === "end_time") &&
        !CLOCK.test(value) &&
        !(key === "end_time" && value === "24:00")
      )
        problems.push({
          field: path.join("."),
          message: "must be a time in 24hr format, HH:MM (00:00-23:59)",
        });
      const max = key === "name" ? BODY_LIMITS.NAME : BODY_LIMITS.TEXT;
      if (value.length > max)
        problems.push({ field: path.join("."), message: `must be at most ${max} characters` });
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value))
        stack.push({ value: v, path: [...path, k], depth: depth + 1 });
    }
  }
  if (problems.length > 0) throw validationFailed(problems);
}
