/**
 * IncidentRole through the harness (the real dynamic-provider host) against the real emulator, with
 * the shared lifecycle (test/support/lifecycle.ts) and test/fixtures/incidentRole/program. The
 * service's own (seeded) roles are not the program's: `live` leaves them out.
 */
import * as path from "node:path";
import { describeLifecycle } from "../support/lifecycle";

const base = {
  name: "Lifecycle comms",
  description: "Keeps everyone informed",
  instructions: "Post an update every 30 minutes",
  shortform: "comms",
};

describeLifecycle("IncidentRole", {
  program: path.join(__dirname, "../fixtures/incidentRole/program"),
  live: async ({ call }) =>
    (await call("GET", "/v2/incident_roles")).incident_roles.filter(
      (r: { id: string }) => !r.id.startsWith("01ROLE"),
    ),
  editOutOfBand: async ({ call }, id) => {
    await call("PUT", `/v2/incident_roles/${id}`, { ...base, shortform: "pr" });
  },
  expectRestored: (r) => expect(r).toMatchObject({ ...base, role_type: "custom" }),
  expectUpdated: (r) =>
    expect(r).toMatchObject({
      name: "Lifecycle comms (updated)",
      instructions: "Post an update every 15 minutes",
      shortform: "comms",
    }),
  createExisting: async ({ call }) =>
    (
      await call("POST", "/v2/incident_roles", {
        name: "Made by hand",
        description: "",
        instructions: "",
        shortform: "hand",
      })
    ).incident_role.id,
});
