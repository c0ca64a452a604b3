/**
 * Severity through the harness (the real dynamic-provider host) against the real emulator, with the
 * shared lifecycle (test/support/lifecycle.ts) and test/fixtures/severity/program.
 */
import * as path from "node:path";
import { describeLifecycle } from "../support/lifecycle";

const base = { name: "Lifecycle major", description: "Customers notice", rank: 10 };

describeLifecycle("Severity", {
  program: path.join(__dirname, "../fixtures/severity/program"),
  live: async ({ call }) => (await call("GET", "/v1/severities")).severities,
  editOutOfBand: async ({ call }, id) => {
    await call("PUT", `/v1/severities/${id}`, { ...base, description: "Edited in the dashboard", rank: 3 });
  },
  expectRestored: (s) => expect(s).toMatchObject(base),
  expectUpdated: (s) =>
    expect(s).toMatchObject({
      name: "Lifecycle major (updated)",
      description: "Customers notice, and it is getting worse",
      rank: 20,
    }),
  createExisting: async ({ call }) =>
    (await call("POST", "/v1/severities", { name: "Made by hand", description: "" })).severity.id,
});
