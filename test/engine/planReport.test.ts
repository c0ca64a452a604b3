/**
 * Records what the review tools read from the real engine: `pulumi preview --json` of a real-looking
 * pull request against examples/oncall (test/support/reviewPr.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as cli from "../pulumiCli";
import { cliDriver } from "../support/driver";
import { harnessFixture } from "../support/harnessFixture";
import { namedIdDigest } from "../support/previewDigest";
import { reviewPrProgram } from "../support/reviewPr";

const fixtures = path.join(__dirname, "..", "fixtures", "previewJson");
const program = reviewPrProgram();
afterAll(() => program.dispose());

describe("plan-report on the real engine's preview --json", () => {
  const h = harnessFixture(program.dir, cliDriver);

  test("a pull request against examples/oncall", async () => {
    const first = await cli.up({ ...h.options(), timeoutMs: 240_000 });
    expect(first.errors).toEqual([]);
    program.applyPr();
    const preview = await cli.preview({ ...h.options(), json: true });
    expect(preview.errors).toEqual([]);
    const digest = namedIdDigest(preview.json, h.emu.url);
    const fixture = path.join(fixtures, "oncall-pr.json");
    if (process.env.UPDATE_FIXTURES === "1" || !fs.existsSync(fixture)) {
      fs.writeFileSync(fixture, `${JSON.stringify(digest, null, 2)}\n`);
    }
    expect(digest).toEqual(JSON.parse(fs.readFileSync(fixture, "utf8")));
  });
});
