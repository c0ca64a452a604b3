/**
 * ScheduleSyncRule through the harness (the real dynamic-provider host) against the real emulator,
 * with the shared lifecycle (test/support/lifecycle.ts) and test/fixtures/scheduleSyncRule/program.
 * The schedule and the sync target are made through the API first (`setup`). A rule's resource id
 * is `<scheduleId>/<ruleId>`; `live` answers the rules under those ids.
 */
import * as path from "node:path";
import { scheduleBody } from "../fixtures/settings/emulator";
import { describeLifecycle } from "../support/lifecycle";

let scheduleId = "";

describeLifecycle("ScheduleSyncRule", {
  program: path.join(__dirname, "../fixtures/scheduleSyncRule/program"),
  setup: async ({ call }) => {
    scheduleId = (await call("POST", "/v2/schedules", scheduleBody("Lifecycle primary"))).schedule.id;
    const targetId = (
      await call("POST", "/v2/schedule_sync_targets", {
        schedule_sync_target: { slack_user_group_id: "S0RULELIFE", add_bot_to_group: false },
      })
    ).schedule_sync_target.id;
    return { scheduleId, targetId };
  },
  live: async ({ call }) =>
    (await call("GET", `/v2/schedules/${scheduleId}/sync_rules`)).schedule_sync_rules.map(
      (r: { id: string; schedule_id: string }) => ({ ...r, id: `${r.schedule_id}/${r.id}` }),
    ),
  editOutOfBand: async ({ call }, id) => {
    await call("PUT", `/v2/schedules/${id.replace("/", "/sync_rules/")}`, {
      sync_type: "all_users",
      permanent_member_user_ids: [],
    });
  },
  expectRestored: (r) =>
    expect(r).toMatchObject({ sync_type: "on_call", permanent_member_user_ids: ["01USERCAT"] }),
  expectUpdated: (r) =>
    expect(r).toMatchObject({ sync_type: "next_on_call", permanent_member_user_ids: ["01USEREVE"] }),
  createExisting: async ({ call }) => {
    const targetId = (await call("GET", "/v2/schedule_sync_targets")).schedule_sync_targets[0].id;
    const rule = (
      await call("POST", `/v2/schedules/${scheduleId}/sync_rules`, {
        schedule_sync_rule: { schedule_sync_target_id: targetId, sync_type: "all_users" },
      })
    ).schedule_sync_rule;
    return `${scheduleId}/${rule.id}`;
  },
});
