// Engine lane: the shared scenarios run through the real Pulumi CLI (see test/support/driver.ts).
import { available, CLI_BIN } from "../../tools/pulumi/cli";

process.env.PULUMI_DRIVER = "cli";
if (!available()) {
  throw new Error(
    `the Pulumi CLI is not built in ${CLI_BIN}: run bash tools/pulumi/build.sh (npm run pulumi:build)`,
  );
}
