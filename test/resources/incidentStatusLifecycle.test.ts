/**
 * IncidentStatus through the harness (the real dynamic-provider host) against the real emulator,
 * with the shared lifecycle (test/support/lifecycle.ts) and test/fixtures/incidentStatus/program.
 * The service's own (seeded) statuses are not the program's: `live` leaves them out.
 */
import * as path from "node:path";
import { describeLifecycle } from "../support/lifecycle";

const base = { name: "Lifecycle monitoring", description: "Watching the graphs", category: "live" };

describeLifecycle("IncidentStatus", {
  program: path.join(__dirname, "../fixtures/incidentStatus/program"),
  live: async ({ call }) =>
    (await call("GET", "/v1/incident_statuses")).incident_statuses.filter(
      (s: { id: string }) => !s.id.startsWith("01STATUS"),
    ),
  editOutOfBand: async ({ call }, id) => {
    await call("PUT", `/v1/incident_statuses/${id}`, {
      name: base.name,
      description: "Edited in the dashboard",
    });
  },
  expectRestored: (s) => expect(s).toMatchObject(base),
  expectUpdated: (s) =>
    expect(s).toMatchObject({
      name: "Lifecycle monitoring (updated)",
      description: "Fixed; watching the graphs",
      category: "live",
    }),
  createExisting: async ({ call }) =>
    (await call("POST", "/v1/incident_statuses", { name: "Made by hand", description: "", category: "live" }))
      .incident_status.id,
});
