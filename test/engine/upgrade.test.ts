/**
 * Upgrades never surprise (test/upgrade/README.md): the state every recorded release wrote
 * (test/upgrade/baselines/<release>/<program>/pulumi-export.json, `pulumi stack export` of the real
 * CLI) is imported into a stack (`pulumi stack import`) next to an emulator holding the same objects,
 * and the current code must preview, refresh and preview it again with no change, no replacement,
 * every recorded output written back (migrated to the current schema version) and no write to the
 * account. Through the real Pulumi CLI; test/upgrade/upgrade.test.ts runs the same check through
 * the harness.
 */

import * as cli from "../pulumiCli";
import { cliDriver } from "../support/driver";
import { expectUpgradeClean, listBaselines, readRepointed, startBaselineEmulator } from "../upgrade/support";

const baselines = listBaselines();

test("baselines are recorded", () => {
  expect(baselines.length).toBeGreaterThan(0);
});

describe.each(baselines.map((b) => [`${b.release}/${b.name}`, b] as const))("%s", (_title, b) => {
  let stack: Awaited<ReturnType<typeof startBaselineEmulator>>;
  beforeAll(async () => {
    stack = await startBaselineEmulator(b);
  });
  afterAll(async () => {
    cli.dispose(stack.options().stateFile);
    await stack.dispose();
  });

  test("previews and refreshes clean under the current code (real CLI)", async () => {
    const options = stack.options();
    cli.importState(options, JSON.parse(readRepointed(b, "pulumi-export.json", stack.emu.url)));
    const before = cli.readState(options.stateFile);
    await expectUpgradeClean(cliDriver, options, before, stack.emu);
  });
});
