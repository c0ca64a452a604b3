/**
 * ScheduleSyncTarget through the harness (the real dynamic-provider host) against the real emulator,
 * with the shared lifecycle (test/support/lifecycle.ts) and test/fixtures/scheduleSyncTarget/program.
 * Destroy archives: archived targets are not in the list.
 */
import * as path from "node:path";
import { describeLifecycle } from "../support/lifecycle";

describeLifecycle("ScheduleSyncTarget", {
  program: path.join(__dirname, "../fixtures/scheduleSyncTarget/program"),
  live: async ({ call }) => (await call("GET", "/v2/schedule_sync_targets")).schedule_sync_targets,
  editOutOfBand: async ({ call }, id) => {
    await call("PUT", `/v2/schedule_sync_targets/${id}`, { add_bot_to_group: true });
  },
  expectRestored: (t) =>
    expect(t).toMatchObject({ slack_user_group_id: "S0LIFECYCLE", add_bot_to_group: false }),
  expectUpdated: (t) =>
    expect(t).toMatchObject({ slack_user_group_id: "S0LIFECYCLE", add_bot_to_group: true }),
  createExisting: async ({ call }) =>
    (
      await call("POST", "/v2/schedule_sync_targets", {
        schedule_sync_target: { slack_user_group_id: "S0LIFECYCLE", add_bot_to_group: true },
      })
    ).schedule_sync_target.id,
});
