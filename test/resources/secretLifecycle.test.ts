/**
 * Secret through the harness (the real dynamic-provider host) against the real emulator, with the
 * shared lifecycle (test/support/lifecycle.ts) and test/fixtures/secret/program: a rotation made in
 * the dashboard is drift that `up` rotates back. Then: the value (a plain string in the program) is
 * in no state file, output or request trace in plaintext.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { harnessFixture } from "../support/harnessFixture";
import { describeLifecycle } from "../support/lifecycle";

const program = path.join(__dirname, "../fixtures/secret/program");

describeLifecycle("Secret", {
  program,
  live: async ({ call }) => (await call("GET", "/v2/secrets")).secrets,
  editOutOfBand: async ({ call }, id) => {
    await call("POST", `/v2/secrets/${id}/actions/rotate`, { value: "rotated-in-the-dashboard-9999" });
  },
  expectRestored: (s) =>
    expect(s).toMatchObject({
      name: "Lifecycle webhook token",
      description: "Outgoing webhook",
      last_four_chars: "1111",
      owning_team_ids: ["01TEAMPLATFORM"],
    }),
  expectUpdated: (s) => expect(s).toMatchObject({ description: "Rotated", last_four_chars: "2222" }),
  createExisting: async ({ call }) =>
    (await call("POST", "/v2/secrets", { name: "Lifecycle webhook token", value: "made-by-hand-0000" }))
      .secret.id,
});

describe("Secret: the value stays out of plaintext", () => {
  const h = harnessFixture(program);
  test("stored as a secret input and output; not in the outputs, the request trace or the state file", async () => {
    const options = h.options();
    const up = await h.driver.up(options);
    expect(up.errors).toEqual([]);
    const secret = h.driver.readState(options.stateFile).resources.find((r) => r.type.endsWith(":Secret"))!;
    expect(secret.secretInputs).toContain("value");
    expect(secret.secretOutputs).toContain("value");
    expect(JSON.stringify(up.outputs)).not.toContain("lifecycle-token-first");
    expect(JSON.stringify(up.apiCalls)).not.toContain("lifecycle-token-first");
    // The harness keeps the state in this file (the CLI in its own backend: checked above by key).
    if (h.driver.name === "harness") {
      const state = fs.readFileSync(options.stateFile, "utf8");
      expect(state).toContain("Lifecycle webhook token");
      expect(state).not.toContain("lifecycle-token-first-1111");
    }
    expect((await h.driver.destroy(options)).errors).toEqual([]);
  });
});
