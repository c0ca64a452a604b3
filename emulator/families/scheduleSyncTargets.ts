/**
 * Emulator family: schedule sync targets (API v2). `GET/POST /v2/schedule_sync_targets`
 * (paginated), `GET/PUT/DELETE /v2/schedule_sync_targets/{id}`. The create body is wrapped
 * (`{"schedule_sync_target": …}`), the update body is flat (the reference's quirk).
 *
 * Behaviour from the reference: exactly one of `slack_user_group_id` (an existing group: "the
 * Slack-assigned group ID (starting with 'S'), not the @-handle") and `new_slack_user_group` on
 * create (422 on the one at fault); both are create-only. A new group gets a Slack id here
 * (`S` + the target id's tail); `slack_team_id` is the new group's `slack_team_id`, else the
 * workspace's (`T0WORKSPACE`). One target per user group (422 on `slack_user_group_id`).
 * `linked_schedules` are the schedules with an active sync rule on the target. An update (only
 * `add_bot_to_group`) "propagates to every schedule with an active sync rule pointing at this
 * target; the entire operation aborts if the caller lacks edit permission on any of those
 * schedules" (403). Destroy archives and "will fail if any active sync rules reference this
 * target" (409 `conflict`, no code of its own in the reference). Archived targets answer 404.
 * `annotations` are accepted and not answered (write-only).
 *
 * The sync rules (scheduleSyncRules.ts) live in `SCHEDULE_SYNC_RULES`, declared here so that the
 * target's rules can be read without an import cycle.
 */
import { defineFamily, operation, paginate } from "../family";
import { badRequest, conflict, forbidden, throwIfProblems } from "../http/errors";
import type { Caller } from "../roles";
import type { Store } from "../store";
import { SCHEDULE_ROLES, SCHEDULES, type StoredSchedule } from "./schedules";
import { liveRecord, liveRecords } from "./shared/settings";

export const SCHEDULE_SYNC_TARGETS = "schedule_sync_targets";
export const SCHEDULE_SYNC_RULES = "schedule_sync_rules";

/** The workspace id answered as `slack_team_id` when none is given. */
export const EMULATED_SLACK_TEAM_ID = "T0WORKSPACE";

export interface StoredSyncTarget {
  id: string;
  slack_user_group_id: string;
  slack_team_id: string;
  add_bot_to_group: boolean;
  created_at: string;
  updated_at: string;
  archived_at?: string;
}

export interface StoredSyncRule {
  id: string;
  schedule_id: string;
  schedule_sync_target_id: string;
  rotation_id?: string;
  sync_type: "all_users" | "next_on_call" | "on_call";
  permanent_member_user_ids: string[];
  created_at: string;
  updated_at: string;
  archived_at?: string;
}

export const findTarget = (store: Store, id: string) =>
  liveRecord<StoredSyncTarget>(store, SCHEDULE_SYNC_TARGETS, id, "schedule sync target");

/** The active (not archived) rules on a target. */
export const rulesOn = (store: Store, targetId: string) =>
  liveRecords<StoredSyncRule>(store, SCHEDULE_SYNC_RULES).filter(
    (r) => r.schedule_sync_target_id === targetId,
  );

const EDIT_ROLES = ["schedules_editor", "on_call_editor"];

/**
 * 403 unless the caller may edit every one of these schedules: an account-level edit role, or a
 * team-level one for a team that owns the schedule.
 */
export function requireScheduleEdit(store: Store, caller: Caller, scheduleIds: readonly string[]): void {
  if (caller.roles.has("global_access") || EDIT_ROLES.some((r) => caller.roles.has(r))) return;
  const schedules = store.collection<StoredSchedule>(SCHEDULES);
  const denied = [...new Set(scheduleIds)].filter((id) => {
    const teams: string[] = schedules.get(id)?.schedule?.team_ids ?? [];
    return !(
      EDIT_ROLES.some((r) => caller.teamRoles.has(r)) && teams.some((t) => caller.teamIds.includes(t))
    );
  });
  if (denied.length > 0) {
    throw forbidden(
      `the change propagates to schedules this key cannot edit (${denied.join(", ")}): the whole operation was aborted`,
    );
  }
}

/** `ScheduleSyncTargetResourceV2`. */
export function renderTarget(store: Store, t: StoredSyncTarget) {
  const schedules = store.collection<StoredSchedule>(SCHEDULES);
  const linked = [...new Set(rulesOn(store, t.id).map((r) => r.schedule_id))].flatMap((id) => {
    const s = schedules.get(id);
    return s && !s.archived
      ? [{ id: s.id, name: s.schedule?.name ?? "", team_ids: s.schedule?.team_ids ?? [] }]
      : [];
  });
  return {
    id: t.id,
    slack_user_group_id: t.slack_user_group_id,
    slack_team_id: t.slack_team_id,
    add_bot_to_group: t.add_bot_to_group,
    linked_schedules: linked,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

function createProblems(store: Store, p: any) {
  const existing = typeof p.slack_user_group_id === "string";
  const fresh = p.new_slack_user_group !== undefined;
  if (existing === fresh) {
    return [
      {
        field: "schedule_sync_target.slack_user_group_id",
        message: "set exactly one of slack_user_group_id and new_slack_user_group",
      },
    ];
  }
  if (existing && !/^S[A-Z0-9]+$/.test(p.slack_user_group_id)) {
    return [
      {
        field: "schedule_sync_target.slack_user_group_id",
        message: "must be a Slack user group id (starting with S), not a handle",
      },
    ];
  }
  if (
    existing &&
    liveRecords<StoredSyncTarget>(store, SCHEDULE_SYNC_TARGETS).some(
      (t) => t.slack_user_group_id === p.slack_user_group_id,
    )
  ) {
    return [
      {
        field: "schedule_sync_target.slack_user_group_id",
        message: `a sync target for user group ${p.slack_user_group_id} already exists`,
      },
    ];
  }
  const blank = ["name", "handle"].filter(
    (k) => fresh && String(p.new_slack_user_group?.[k] ?? "").trim() === "",
  );
  return blank.map((k) => ({
    field: `schedule_sync_target.new_slack_user_group.${k}`,
    message: "must not be empty",
  }));
}

export const scheduleSyncTargets = defineFamily({
  name: "schedule_sync_targets",
  // The schedules' row of the role table (sync targets and rules are part of on-call).
  roles: SCHEDULE_ROLES,
  collections: [SCHEDULE_SYNC_TARGETS],
  routes: [
    operation("ScheduleSyncTargetsV2List", "read", ({ store, query }) => {
      const { page, pagination_meta } = paginate(
        liveRecords<StoredSyncTarget>(store, SCHEDULE_SYNC_TARGETS),
        query,
      );
      return { body: { schedule_sync_targets: page.map((t) => renderTarget(store, t)), pagination_meta } };
    }),
    operation("ScheduleSyncTargetsV2Create", "write", ({ store, body, newId, nowIso }) => {
      const p = body.schedule_sync_target;
      throwIfProblems(createProblems(store, p));
      const id = newId();
      const t = store.collection<StoredSyncTarget>(SCHEDULE_SYNC_TARGETS).set({
        id,
        slack_user_group_id: p.slack_user_group_id ?? `S${id.slice(-9).toUpperCase()}`,
        slack_team_id: p.new_slack_user_group?.slack_team_id ?? EMULATED_SLACK_TEAM_ID,
        add_bot_to_group: p.add_bot_to_group,
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { body: { schedule_sync_target: renderTarget(store, t) } };
    }),
    operation("ScheduleSyncTargetsV2Show", "read", ({ store, params }) => ({
      body: { schedule_sync_target: renderTarget(store, findTarget(store, params.id!)) },
    })),
    operation("ScheduleSyncTargetsV2Update", "write", ({ store, params, body, nowIso, caller }) => {
      const current = findTarget(store, params.id!);
      requireScheduleEdit(
        store,
        caller,
        rulesOn(store, current.id).map((r) => r.schedule_id),
      );
      const t = store
        .collection<StoredSyncTarget>(SCHEDULE_SYNC_TARGETS)
        .set({ ...current, add_bot_to_group: body.add_bot_to_group, updated_at: nowIso });
      return { body: { schedule_sync_target: renderTarget(store, t) } };
    }),
    operation("ScheduleSyncTargetsV2Destroy", "write", ({ store, params, nowIso }) => {
      const t = findTarget(store, params.id!);
      const rules = rulesOn(store, t.id);
      if (rules.length > 0) {
        throw conflict(
          `the sync target ${t.id} (user group ${t.slack_user_group_id}) is still used by ${rules.length} active sync rule${rules.length === 1 ? "" : "s"}: ${rules.map((r) => `${r.id} on schedule ${r.schedule_id}`).join(", ")}`,
        );
      }
      store.collection<StoredSyncTarget>(SCHEDULE_SYNC_TARGETS).set({ ...t, archived_at: nowIso });
      return {};
    }),
  ],
});

/** 400 `invalid_reference` unless `id` is a live sync target. */
export function requireTarget(store: Store, id: string): StoredSyncTarget {
  const t = store.collection<StoredSyncTarget>(SCHEDULE_SYNC_TARGETS).get(id);
  if (!t || t.archived_at !== undefined)
    throw badRequest(`No schedule sync target with id ${id}`, "invalid_reference");
  return t;
}
