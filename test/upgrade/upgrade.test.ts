/**
 * Upgrades never surprise, fast lane (README.md here): the state every recorded release wrote, in
 * the harness's state format (test/upgrade/baselines/<release>/<program>/harness-state.json, made
 * from the real CLI's export when it was recorded), next to an emulator holding the same objects:
 * the current code must preview, refresh and preview it again with no change, no replacement, every
 * recorded output written back (migrated to the current schema version) and no write to the account.
 * test/engine/upgrade.test.ts runs the same check through the real Pulumi CLI from the CLI's own export.
 */
import * as fs from "node:fs";
import { harnessDriver } from "../support/driver";
import { describeBaselines, readRepointed } from "../support/upgradeBaselines";

describeBaselines(
  harnessDriver,
  (b, options, url) => fs.writeFileSync(options.stateFile, readRepointed(b, "harness-state.json", url)),
  120_000,
);
