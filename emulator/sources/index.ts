/**
 * Emulators of the source APIs `pulumi-incident migrate` reads (README.md): PagerDuty REST v2 and
 * Opsgenie REST v2, read side only, over an account given as data.
 *
 * ```ts
 * import { startSourceEmulator } from "pulumi-incident/emulator"; // in this repo: "../emulator"
 * const og = await startSourceEmulator({ vendor: "opsgenie", account, apiKey: "og-read-only" });
 * await og.close();
 * ```
 */
import { OPSGENIE, OPSGENIE_SHAPES, type OpsgenieAccount } from "./opsgenie";
import { PAGERDUTY, PAGERDUTY_SHAPES, type PagerDutyAccount } from "./pagerduty";
import { type RunningSourceEmulator, serveSource } from "./server";

export type { OpsgenieAccount } from "./opsgenie";
export type { PagerDutyAccount } from "./pagerduty";
export type { RunningSourceEmulator } from "./server";
export { OPSGENIE, OPSGENIE_SHAPES, PAGERDUTY, PAGERDUTY_SHAPES };

interface Common {
  apiKey?: string;
  port?: number;
  host?: string;
  now?: () => number;
}

export type SourceEmulatorOptions =
  | (Common & { vendor: "pagerduty"; account: PagerDutyAccount })
  | (Common & { vendor: "opsgenie"; account: OpsgenieAccount });

/** Serves a PagerDuty or Opsgenie account (read-only) on a local port. */
export function startSourceEmulator(options: SourceEmulatorOptions): Promise<RunningSourceEmulator> {
  const { vendor, ...rest } = options;
  return vendor === "pagerduty"
    ? serveSource({
        ...rest,
        account: options.account as PagerDutyAccount,
        vendor: PAGERDUTY,
        shapes: PAGERDUTY_SHAPES,
      })
    : serveSource({
        ...rest,
        account: options.account as OpsgenieAccount,
        vendor: OPSGENIE,
        shapes: OPSGENIE_SHAPES,
      });
}
