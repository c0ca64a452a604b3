/**
 * One bad input: the resource kind, the inputs, and the property (and optionally reason) check must
 * name. What check does with it (issue 28: never stricter than the service):
 * - by default it refuses it: a published rule forbids it (the rule names its source in the code);
 * - `outcome: "warning"`: no published rule forbids it, so check passes it with a warning naming the
 *   input path `warns` (`reason` matches the warning) and the API decides;
 * - `outcome: "accepted"`: the service gives it a meaning (e.g. a pay rule past midnight): check
 *   passes it without a word.
 */
export interface BadInputCase {
  kind: string;
  title: string;
  inputs: Record<string, unknown>;
  property: string;
  reason?: RegExp;
  outcome?: "warning" | "accepted";
  /** The input path a warning names (`outcome: "warning"`), e.g. `weeklyRules[0].weekdays[0]`. */
  warns?: string;
}
