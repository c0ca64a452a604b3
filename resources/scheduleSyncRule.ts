/**
 * ScheduleSyncRule: which members of a schedule flow into a sync target's Slack user group
 * (`GET/POST /v2/schedules/{schedule_id}/sync_rules`, `GET/PUT/DELETE
 * /v2/schedules/{schedule_id}/sync_rules/{id}`). The create body is wrapped
 * (`{"schedule_sync_rule": …}`), the update body is flat.
 *
 * The schedule, the target and the rotation are fixed at creation (changing one replaces the
 * rule). `syncType` is shared by every rule on one target: an update of it propagates to the
 * other schedules syncing to the target (the API refuses it, 403, when this key cannot edit one of
 * them), so all rules on a target must declare the same `syncType`. Permanent members belong to
 * the rule alone. Deleting archives the rule.
 */
import { z } from "zod";
import { knownValues } from "../provider/checkWarnings";
import { makeProvider } from "../provider/factory";
import { idText } from "../provider/inputs";
import { keepDeclaredSet, uniqueSet } from "../provider/normalise";
import { walkList } from "../provider/pagedReads";
import type { Props, ResourceSpec } from "../provider/spec";
import { scheduleSpec } from "./schedule";

export const SYNC_TYPES = ["all_users", "next_on_call", "on_call"] as const;

/** Inputs of a schedule sync rule (API v2). */
export const scheduleSyncRuleInputs = z.strictObject({
  /** The schedule whose members are synced. Changing it replaces the rule. */
  // Our URL's path parameter (`/v2/schedules/{schedule_id}/sync_rules`): an empty one names no schedule.
  scheduleId: z.string().min(1, "must not be empty"),
  /** The sync target (Slack user group) to feed. Changing it replaces the rule. */
  scheduleSyncTargetId: idText(),
  /** Only this rotation of the schedule; unset: every rotation. Changing it replaces the rule. */
  rotationId: idText().optional(),
  /**
   * Who is synced: `on_call` (who is on call now), `next_on_call` (the next shift) or `all_users`
   * (everyone in the schedule). Shared by every rule on the same target: declare the same value.
   */
  // reference: ScheduleSyncRuleCreatePayloadV2.sync_type enum
  syncType: knownValues(SYNC_TYPES),
  /**
   * Users always kept in the group, whoever is on call. Order does not matter. Unset: not managed
   * (whatever the rule has is kept); `[]` removes them all.
   */
  permanentMemberUserIds: z.array(idText()).optional(),
  /** An existing sync rule to take over, as `<scheduleId>/<ruleId>` (the API's rule id after its schedule's). */
  adoptId: z
    .string()
    .regex(/^[^/]+\/[^/]+$/, "must be <scheduleId>/<ruleId>: a sync rule is found under its schedule")
    .optional(),
});

export type ScheduleSyncRuleInputs = z.infer<typeof scheduleSyncRuleInputs>;
export interface ScheduleSyncRuleComputed {
  /** The permanent members the rule has now (equals `permanentMemberUserIds` when that is set). */
  currentPermanentMemberUserIds: string[];
  /** The Slack id of the target's user group. */
  userGroupId: string;
}

/** ScheduleSyncRuleV2. */
export interface ApiScheduleSyncRule {
  id: string;
  schedule_id: string;
  schedule_sync_target_id: string;
  schedule_sync_target: { slack_user_group_id: string };
  rotation_id?: string;
  sync_type: (typeof SYNC_TYPES)[number];
  permanent_member_user_ids: string[];
  created_at: string;
  updated_at: string;
}

const rulesPath = (scheduleId: string) => `/v2/schedules/${encodeURIComponent(scheduleId)}/sync_rules`;
/** The rule's path from its resource id, `<scheduleId>/<ruleId>`. */
function path(resourceId: string): string {
  const [scheduleId, ruleId] = resourceId.split("/");
  return `${rulesPath(scheduleId ?? "")}/${encodeURIComponent(ruleId ?? "")}`;
}

/** ScheduleSyncRuleCreatePayloadV2, wrapped. */
export function scheduleSyncRuleCreatePayload(args: ScheduleSyncRuleInputs): Props {
  return {
    schedule_sync_rule: {
      schedule_sync_target_id: args.scheduleSyncTargetId,
      sync_type: args.syncType,
      ...(args.rotationId !== undefined ? { rotation_id: args.rotationId } : {}),
      ...(args.permanentMemberUserIds !== undefined
        ? { permanent_member_user_ids: uniqueSet(args.permanentMemberUserIds) }
        : {}),
    },
  };
}

/** SchedulesUpdateScheduleSyncRulePayloadV2: flat; unset permanent members are left unchanged. */
export function scheduleSyncRuleUpdatePayload(args: ScheduleSyncRuleInputs): Props {
  return {
    sync_type: args.syncType,
    ...(args.permanentMemberUserIds !== undefined
      ? { permanent_member_user_ids: uniqueSet(args.permanentMemberUserIds) }
      : {}),
  };
}

export function scheduleSyncRuleFromApi(
  live: ApiScheduleSyncRule,
  declared: ScheduleSyncRuleInputs | undefined,
): ScheduleSyncRuleInputs {
  return {
    scheduleId: live.schedule_id,
    scheduleSyncTargetId: live.schedule_sync_target_id,
    rotationId: live.rotation_id,
    syncType: live.sync_type,
    // Unset permanent members are not managed: the live ones are an output, not drift (and for a
    // `get`, nothing is declared: they read back as they are).
    permanentMemberUserIds:
      declared !== undefined && declared.permanentMemberUserIds === undefined
        ? undefined
        : keepDeclaredSet(live.permanent_member_user_ids, declared?.permanentMemberUserIds),
  };
}

/**
 * A schedule sync rule (API v2): feeds a schedule's members (`syncType`) into a
 * `ScheduleSyncTarget`'s Slack user group. Every rule on one target must declare the same
 * `syncType` (the API propagates a change to all of them). Adopt an existing rule with `adoptId`
 * (and its `scheduleId`).
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const group = new incident.ScheduleSyncTarget("platform-oncall", { slackUserGroupId: "S0123ABCD" });
 * new incident.ScheduleSyncRule("primary-to-group", {
 *   scheduleId: "01HSCHEDULEID", // e.g. a Schedule's id
 *   scheduleSyncTargetId: group.id,
 *   syncType: "on_call",
 *   permanentMemberUserIds: [incident.getUserOutput({ email: "eve@example.com" }).id],
 * });
 * ```
 */
export const scheduleSyncRuleSpec: ResourceSpec<ScheduleSyncRuleInputs, ApiScheduleSyncRule> = {
  kind: "ScheduleSyncRule",
  title: "schedule sync rule",
  schemaVersion: 1,
  claimAs: "schedule_sync_rule",
  // The resource id is `<schedule id>/<rule id>`: the claim names the rule.
  claimId: (id) => id.split("/")[1] ?? id,
  inputs: scheduleSyncRuleInputs,
  replaceOnChanges: ["scheduleId", "scheduleSyncTargetId", "rotationId"],
  secretOutputs: [],
  computedOutputs: ["currentPermanentMemberUserIds", "userGroupId"],
  // The create body's wrapper is no input: `schedule_sync_rule.sync_type` is `syncType`.
  fieldRenames: { schedule_sync_rule: "" },
  // Rule "set with repeats": permanent members are a set.
  canonical: (args) => ({
    ...args,
    permanentMemberUserIds: Array.isArray(args.permanentMemberUserIds)
      ? uniqueSet(args.permanentMemberUserIds)
      : args.permanentMemberUserIds,
  }),
  idOf: (live) => `${live.schedule_id}/${live.id}`,
  partOf: "scheduleId",
  // SchedulesV2ListScheduleSyncRules answers ScheduleSyncRuleV2, as show does (paginated), one
  // schedule at a time; the resource id is `<scheduleId>/<ruleId>`.
  list: {
    path: "/v2/schedules/{schedule_id}/sync_rules",
    itemsKey: "schedule_sync_rules",
    operation: "list schedule sync rules",
    pageSize: 250,
    scope: (prior) => (typeof prior?.scheduleId === "string" ? { schedule_id: prior.scheduleId } : undefined),
    find: (items: ApiScheduleSyncRule[], id) => items.find((r) => `${r.schedule_id}/${r.id}` === id),
  },
  // A rule's writes change its target's `linked_schedules` (and a sync type change, the other rules
  // of the target, whatever their schedule: every scope of the rules' list is dropped).
  writesLists: ["/v2/schedule_sync_targets"],
  // For `pulumi-incident export`: the sync rules of every schedule, one walk per schedule.
  listAll: async (ctx) => {
    const schedules = await walkList<{ id: string }>(ctx.client, scheduleSpec.list!);
    const perSchedule = await Promise.all(
      schedules.map((s) =>
        walkList<ApiScheduleSyncRule>(ctx.client, {
          path: rulesPath(s.id),
          itemsKey: "schedule_sync_rules",
          operation: "list schedule sync rules",
          pageSize: 25,
        }),
      ),
    );
    return perSchedule.flat();
  },
  toInputs: scheduleSyncRuleFromApi,
  computed: (live) => ({
    currentPermanentMemberUserIds: live.permanent_member_user_ids,
    userGroupId: live.schedule_sync_target?.slack_user_group_id,
  }),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ schedule_sync_rule: ApiScheduleSyncRule }>(
        rulesPath(args.scheduleId),
        "create schedule sync rule",
        scheduleSyncRuleCreatePayload(args),
      );
      return { live: body.schedule_sync_rule };
    },
    read: async (ctx, id) =>
      (await ctx.client.get<{ schedule_sync_rule: ApiScheduleSyncRule }>(path(id), "show schedule sync rule"))
        .schedule_sync_rule,
    async update(ctx, id, args) {
      const body = await ctx.client.put<{ schedule_sync_rule: ApiScheduleSyncRule }>(
        path(id),
        "update schedule sync rule",
        scheduleSyncRuleUpdatePayload(args),
      );
      return { live: body.schedule_sync_rule };
    },
    delete: (ctx, id) => ctx.client.delete(path(id), "delete schedule sync rule"),
    recoveryKey: (args) => `${args.scheduleId}/${args.scheduleSyncTargetId}/${args.rotationId ?? ""}`,
    async findCreated(ctx, args) {
      const all = await ctx.client.listAll<ApiScheduleSyncRule>(
        rulesPath(args.scheduleId),
        "schedule_sync_rules",
        "list schedule sync rules",
      );
      return all.find(
        (r) => r.schedule_sync_target_id === args.scheduleSyncTargetId && r.rotation_id === args.rotationId,
      );
    },
  },
};

export const scheduleSyncRuleProvider = makeProvider(scheduleSyncRuleSpec);
