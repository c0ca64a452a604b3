/**
 * Which engine runs the Pulumi programs of the shared scenarios (lifecycles, examples): the harness
 * (tools/harness, the fast lane, default) or the real Pulumi CLI (tools/pulumi/cli.ts, the engine lane:
 * `npm run test:engine` sets PULUMI_DRIVER=cli). Both take the same options and answer the same
 * results, so a scenario is written once.
 */
import * as fs from "node:fs";
import * as harness from "../../tools/harness";
import * as cli from "../../tools/pulumi/cli";

export interface Driver {
  readonly name: "harness" | "cli";
  up: typeof harness.up;
  preview: typeof harness.preview;
  refresh: typeof harness.refresh;
  destroy: typeof harness.destroy;
  readState(stateFile: string): harness.HarnessState;
  /** Removes what a stack left behind (state file, or the CLI's workspace). */
  dispose(stateFile: string): void;
}

export const harnessDriver: Driver = {
  name: "harness",
  up: harness.up,
  preview: harness.preview,
  refresh: harness.refresh,
  destroy: harness.destroy,
  readState: (f) => harness.readState(f),
  dispose: (f) => fs.rmSync(f, { force: true }),
};

export const cliDriver: Driver = {
  name: "cli",
  up: cli.up,
  preview: cli.preview,
  refresh: cli.refresh,
  destroy: cli.destroy,
  readState: cli.readState,
  dispose: cli.dispose,
};

export const driver: Driver = process.env.PULUMI_DRIVER === "cli" ? cliDriver : harnessDriver;

/** Jest timeout for one scenario test: the real CLI type-checks and previews before every `up`. */
export const scenarioTimeoutMs = driver.name === "cli" ? 20 * 60_000 : 120_000;

/** "harness" or "real CLI", for test titles. */
export const driverLabel = driver.name === "cli" ? "real CLI" : "harness";
