/**
 * `pulumi-incident export` round trips (test/support/exportRoundTrip.ts) through the harness, and in
 * the engine lane through the real Pulumi CLI: examples/oncall's account, made by `pulumi up` of the
 * example, plus a secret made in the dashboard.
 */
import * as path from "node:path";
import * as harness from "../tools/harness";
import { describeExportRoundTrip } from "./support/exportRoundTrip";

const root = path.join(__dirname, "..");

describeExportRoundTrip({
  title: "examples/oncall's account",
  atLeast: 10,
  kinds: ["AlertAttribute", "AlertSource", "AlertRoute", "EscalationPath", "Schedule", "Workflow", "Secret"],
  async seed(emu) {
    const made = await harness.up({
      program: path.join(root, "examples", "oncall"),
      stateFile: path.join(require("node:os").tmpdir(), `oncall-seed-${process.pid}.json`),
      config: { "incident:apiKey": emu.apiKey, "incident:baseUrl": emu.url },
      secretConfig: ["incident:apiKey"],
    });
    if (!made.ok)
      throw new Error(`seeding examples/oncall failed: ${made.errors.map((e) => e.message).join("; ")}`);
    await emu.ok("POST", "/v2/secrets", { body: { name: "Pager webhook token", value: "tok_live_8f2a" } });
    return { secretValues: { "Pager webhook token": "tok_live_8f2a" } };
  },
});
