/**
 * AlertAttribute through the harness (the real dynamic-provider host) against the real emulator, with
 * the shared lifecycle (test/support/lifecycle.ts) and test/fixtures/alertAttribute/program.
 */
import * as path from "node:path";
import { describeLifecycle } from "../support/lifecycle";

describeLifecycle("AlertAttribute", {
  program: path.join(__dirname, "../fixtures/alertAttribute/program"),
  live: async ({ call }) => (await call("GET", "/v2/alert_attributes")).alert_attributes,
  // Edited in the dashboard: no longer a list, another emoji (`required` omitted: kept).
  editOutOfBand: async ({ call }, id) => {
    const { alert_attribute: a } = await call("GET", `/v2/alert_attributes/${id}`);
    await call("PUT", `/v2/alert_attributes/${id}`, {
      name: a.name,
      type: a.type,
      array: false,
      emoji: "fire",
    });
  },
  expectRestored: (a) =>
    expect(a).toEqual({
      id: a.id,
      name: "Lifecycle team",
      type: "String",
      array: true,
      required: false,
      emoji: "busts_in_silhouette",
    }),
  expectUpdated: (a) =>
    expect(a).toEqual({
      id: a.id,
      name: "Lifecycle team (updated)",
      type: "String",
      array: true,
      required: true,
      emoji: "wrench",
    }),
  createExisting: async ({ call }) =>
    (await call("POST", "/v2/alert_attributes", { name: "Made by hand", type: "Number", array: false }))
      .alert_attribute.id,
});
