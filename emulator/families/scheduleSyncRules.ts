/**
 * Emulator family: schedule sync rules (API v2). `GET/POST /v2/schedules/{schedule_id}/sync_rules`
 * (paginated), `GET/PUT/DELETE /v2/schedules/{schedule_id}/sync_rules/{id}`. The create body is
 * wrapped (`{"schedule_sync_rule": …}`), the update body is flat (the reference's quirk).
 *
 * Behaviour from the reference: the schedule (path) must exist (404); `schedule_sync_target_id`
 * must be a live target (400 `invalid_reference`); `rotation_id` and `schedule_sync_target_id` are
 * create-only; `rotation_id` must be a rotation of the schedule (422); `permanent_member_user_ids`
 * must be users of the account (422 on the entry), default none; on update, omitted = unchanged,
 * `[]` = cleared. "If the rule's sync target is shared with other schedules, a sync_type change
 * propagates to every linked schedule and the entire operation aborts if the caller lacks edit
 * permission on any of them" (403): every active rule on the target takes the new `sync_type`.
 * Permanent members never propagate. Destroy archives ("unlinking the schedule from the sync
 * target"); archived rules answer 404. The answer embeds the target (`schedule_sync_target`).
 * `annotations` are accepted and not answered (write-only).
 */
import { defineFamily, operation, paginate } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import type { Store } from "../store";
import {
  renderTarget,
  requireScheduleEdit,
  requireTarget,
  rulesOn,
  SCHEDULE_SYNC_RULES,
  type StoredSyncRule,
  type StoredSyncTarget,
} from "./scheduleSyncTargets";
import { findSchedule, SCHEDULE_ROLES } from "./schedules";
import { liveRecords } from "./shared/settings";
import { type StoredUser, USERS } from "./users";

function scheduleOf(store: Store, id: string) {
  const s = findSchedule(store, id);
  if (!s) throw notFound(`No schedule with id ${id}`);
  return s;
}

function findRule(store: Store, scheduleId: string, id: string): StoredSyncRule {
  const r = store.collection<StoredSyncRule>(SCHEDULE_SYNC_RULES).get(id);
  if (!r || r.archived_at !== undefined || r.schedule_id !== scheduleId)
    throw notFound(`No sync rule with id ${id}`);
  return r;
}

/** `ScheduleSyncRuleV2`. */
function render(store: Store, r: StoredSyncRule) {
  const target = store.collection<StoredSyncTarget>("schedule_sync_targets").get(r.schedule_sync_target_id)!;
  return {
    id: r.id,
    schedule_id: r.schedule_id,
    schedule_sync_target_id: r.schedule_sync_target_id,
    schedule_sync_target: renderTarget(store, target),
    ...(r.rotation_id !== undefined ? { rotation_id: r.rotation_id } : {}),
    sync_type: r.sync_type,
    permanent_member_user_ids: r.permanent_member_user_ids,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

function memberProblems(store: Store, ids: unknown, prefix: string) {
  const users = store.collection<StoredUser>(USERS);
  return (Array.isArray(ids) ? ids : []).flatMap((id, i) =>
    users.has(id)
      ? []
      : [{ field: `${prefix}permanent_member_user_ids.${i}`, message: `no user with id ${id}` }],
  );
}

export const scheduleSyncRules = defineFamily({
  name: "schedule_sync_rules",
  // The schedules' row of the role table (sync targets and rules are part of on-call).
  roles: SCHEDULE_ROLES,
  collections: [SCHEDULE_SYNC_RULES],
  routes: [
    operation("SchedulesV2ListScheduleSyncRules", "read", ({ store, params, query }) => {
      scheduleOf(store, params.schedule_id!);
      const rules = liveRecords<StoredSyncRule>(store, SCHEDULE_SYNC_RULES).filter(
        (r) => r.schedule_id === params.schedule_id,
      );
      const { page, pagination_meta } = paginate(rules, query);
      return { body: { schedule_sync_rules: page.map((r) => render(store, r)), pagination_meta } };
    }),
    operation("SchedulesV2CreateScheduleSyncRule", "write", ({ store, params, body, newId, nowIso }) => {
      const schedule = scheduleOf(store, params.schedule_id!);
      const p = body.schedule_sync_rule;
      requireTarget(store, p.schedule_sync_target_id);
      const rotations: string[] = (schedule.schedule?.config?.rotations ?? []).map(
        (r: { id: string }) => r.id,
      );
      throwIfProblems([
        ...(p.rotation_id !== undefined && !rotations.includes(p.rotation_id)
          ? [
              {
                field: "schedule_sync_rule.rotation_id",
                message: `no rotation ${p.rotation_id} on schedule ${schedule.id}`,
              },
            ]
          : []),
        ...memberProblems(store, p.permanent_member_user_ids, "schedule_sync_rule."),
      ]);
      const r = store.collection<StoredSyncRule>(SCHEDULE_SYNC_RULES).set({
        id: newId(),
        schedule_id: schedule.id,
        schedule_sync_target_id: p.schedule_sync_target_id,
        ...(p.rotation_id !== undefined ? { rotation_id: p.rotation_id } : {}),
        sync_type: p.sync_type,
        permanent_member_user_ids: [...new Set<string>(p.permanent_member_user_ids ?? [])],
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { body: { schedule_sync_rule: render(store, r) } };
    }),
    operation("SchedulesV2ShowScheduleSyncRule", "read", ({ store, params }) => ({
      body: { schedule_sync_rule: render(store, findRule(store, params.schedule_id!, params.id!)) },
    })),
    operation("SchedulesV2UpdateScheduleSyncRule", "write", ({ store, params, body, nowIso, caller }) => {
      const current = findRule(store, params.schedule_id!, params.id!);
      throwIfProblems(memberProblems(store, body.permanent_member_user_ids, ""));
      const col = store.collection<StoredSyncRule>(SCHEDULE_SYNC_RULES);
      if (body.sync_type !== current.sync_type) {
        const linked = rulesOn(store, current.schedule_sync_target_id);
        requireScheduleEdit(
          store,
          caller,
          linked.map((r) => r.schedule_id),
        );
        for (const other of linked) {
          if (other.id !== current.id) col.set({ ...other, sync_type: body.sync_type, updated_at: nowIso });
        }
      }
      const r = col.set({
        ...current,
        sync_type: body.sync_type,
        permanent_member_user_ids:
          body.permanent_member_user_ids === undefined
            ? current.permanent_member_user_ids
            : [...new Set<string>(body.permanent_member_user_ids)],
        updated_at: nowIso,
      });
      return { body: { schedule_sync_rule: render(store, r) } };
    }),
    operation("SchedulesV2DestroyScheduleSyncRule", "write", ({ store, params, nowIso }) => {
      const r = findRule(store, params.schedule_id!, params.id!);
      store.collection<StoredSyncRule>(SCHEDULE_SYNC_RULES).set({ ...r, archived_at: nowIso });
      return {};
    }),
  ],
});
