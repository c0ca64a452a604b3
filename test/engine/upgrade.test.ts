/**
 * Upgrades never surprise (test/upgrade/README.md): the state every recorded release wrote
 * (test/upgrade/baselines/<release>/<program>/pulumi-export.json, `pulumi stack export` of the real
 * CLI) is imported into a stack (`pulumi stack import`) next to an emulator holding the same objects,
 * and the current code must preview, refresh and preview it again with no change, no replacement,
 * every recorded output written back (migrated to the current schema version) and no write to the
 * account. Through the real Pulumi CLI.
 */
import * as cli from "../../tools/pulumi/cli";
import { cliDriver, scenarioTimeoutMs } from "../support/driver";
import { describeBaselines, readRepointed } from "../support/upgradeBaselines";

describeBaselines(
  cliDriver,
  (b, options, url) => cli.importState(options, JSON.parse(readRepointed(b, "pulumi-export.json", url))),
  scenarioTimeoutMs,
);
