/**
 * MaintenanceWindow through the harness (the real dynamic-provider host) against the real emulator,
 * with the shared lifecycle (test/support/lifecycle.ts) and test/fixtures/maintenanceWindow/program.
 * Destroy archives: archived windows are not in the list, so `live` is the list.
 */
import * as path from "node:path";
import { describeLifecycle } from "../support/lifecycle";

const condition = {
  subject: "alert.title",
  operation: "one_of",
  param_bindings: [{ array_value: [{ literal: "database" }] }],
};
const base = {
  name: "Lifecycle DB migration",
  start_at: "2099-01-01T21:00:00Z",
  end_at: "2099-01-01T23:00:00Z",
  lead: { id: "01USERBOB" },
  show_in_sidebar: true,
  alert_condition_groups: [{ conditions: [condition] }],
  notification_message: "Planned downtime",
};

describeLifecycle("MaintenanceWindow", {
  program: path.join(__dirname, "../fixtures/maintenanceWindow/program"),
  live: async ({ call }) => (await call("GET", "/v1/maintenance_windows")).maintenance_windows,
  // Another lead, and alerts resolved at the end.
  editOutOfBand: async ({ call }, id) => {
    await call("PUT", `/v1/maintenance_windows/${id}`, { ...base, resolve_on_end: true });
  },
  expectRestored: (w) =>
    expect(w).toMatchObject({
      name: base.name,
      start_at: base.start_at,
      end_at: base.end_at,
      lead: { user: { id: "01USERADA" } },
      notification_message: "Planned downtime",
      resolve_on_end: false,
    }),
  expectUpdated: (w) =>
    expect(w).toMatchObject({
      end_at: "2099-01-02T01:00:00Z",
      notification_message: "Taking longer",
      resolve_on_end: true,
    }),
  createExisting: async ({ call }) =>
    (await call("POST", "/v1/maintenance_windows", { ...base, name: "Made by hand" })).maintenance_window.id,
});
