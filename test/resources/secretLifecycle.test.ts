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
  test("state file, outputs and request trace", async () => {
    const options = h.options();
    const up = await h.driver.up(options);
    expect(up.errors).toEqual([]);
    const state = fs.readFileSync(options.stateFile, "utf8");
    expect(state).toContain("Lifecycle webhook token");
    expect(state).not.toContain("lifecycle-token-first-1111");
    expect(JSON.stringify(up.outputs)).not.toContain("lifecycle-token-first");
    expect(JSON.stringify(up.apiCalls)).not.toContain("lifecycle-token-first");
    expect((await h.driver.destroy(options)).errors).toEqual([]);
  });
});
