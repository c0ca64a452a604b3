/**
 * A provider's check with the warnings it says (provider/checkWarnings.ts) caught: the failures,
 * the checked inputs and each warning line (`Kind "name": path: message`).
 */
import { checkWarningLog, resetCheckWarnings } from "../../provider/checkWarnings";
import type { Props } from "../../provider/spec";

interface Checks {
  check?(
    olds: Props,
    news: Props,
  ): Promise<{ inputs?: Props; failures?: { property: string; reason: string }[] }>;
}

export interface Checked {
  failures: { property: string; reason: string }[];
  warnings: string[];
  inputs: Props;
}

/** Runs `provider.check` on `inputs` (a new resource unless `olds`), catching its warnings. */
export async function checkWarned(provider: Checks, inputs: Props, olds: Props = {}): Promise<Checked> {
  const said: string[] = [];
  const warn = checkWarningLog.warn;
  checkWarningLog.warn = (message) => said.push(message);
  resetCheckWarnings();
  try {
    const result = await provider.check!(olds, { ...inputs, __provider: "shim" });
    return { failures: result.failures ?? [], warnings: said, inputs: result.inputs ?? {} };
  } finally {
    checkWarningLog.warn = warn;
  }
}

/**
 * Check passes `inputs` (no failure) and warns at `path` (an input path, e.g. `weeklyRules[0].endTime`)
 * with a message matching `reason`.
 */
export async function expectWarned(provider: Checks, inputs: Props, path: string, reason: RegExp = /./) {
  const { failures, warnings } = await checkWarned(provider, inputs);
  expect(failures).toEqual([]);
  const at = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  expect(warnings.join("\n")).toMatch(new RegExp(`: ${at}: .*(${reason.source})`, reason.flags));
  return warnings;
}
