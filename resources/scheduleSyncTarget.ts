/**
 * ScheduleSyncTarget: the link to one Slack user group whose membership follows who is on call
 * (`GET/POST /v2/schedule_sync_targets`, `GET/PUT/DELETE /v2/schedule_sync_targets/{id}`). The
 * create body is wrapped (`{"schedule_sync_target": …}`), the update body is flat.
 *
 * The user group is chosen at creation (an existing group's id, or a new group to make) and cannot
 * change: changing it replaces the target. Only `addBotToGroup` updates in place, and that change
 * reaches every schedule syncing to the target: the API refuses it (403) when this key cannot
 * edit one of them. Deleting archives the target; the API refuses while sync rules use it.
 *
 * A create whose answer is lost (provider/journal.ts) is found again, never made twice: an existing
 * group's target by the group's id; a new group's by what existed before, since the API answers
 * neither its name nor its handle (only the Slack id it was given): the targets are listed before
 * such a create is sent (one more GET), and the target made since is the one. Should several have
 * been made meanwhile, which one is this one's cannot be told: the create fails naming them, to
 * adopt the right one (`adoptId`).
 */
import { z } from "zod";
import { warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { ApiError, IncidentError } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { defineLookup, LookupError } from "../provider/functions";
import { freeText, idText, nameText } from "../provider/inputs";
import { writeOnly } from "../provider/normalise";
import { walkList } from "../provider/pagedReads";
import type { Props, ResourceSpec } from "../provider/spec";

const newSlackUserGroup = z.strictObject({
  /** Name of the new user group. */
  name: nameText(),
  /** Handle of the new user group (what people type after `@`), e.g. `platform-oncall`. */
  handle: nameText(),
  /** Description of the new user group. */
  description: freeText(),
  /** Slack workspace to make it in; needed for Enterprise Grid organisations with several workspaces. */
  slackTeamId: idText().optional(),
});

/** Inputs of a schedule sync target (API v2). */
export const scheduleSyncTargetInputs = z.strictObject({
  /**
   * The Slack id of an existing user group to sync (starts with `S`; not its @-handle). Set this or
   * `newSlackUserGroup`. Changing it replaces the target.
   */
  slackUserGroupId: z
    .string()
    .superRefine(
      warnUnless(
        (v: string) => /^S[A-Z0-9]+$/.test(v),
        "does not look like a Slack user group id (S0123ABCD): not its @-handle",
      ),
    )
    .optional(),
  /** A user group for the service to make in Slack. Set this or `slackUserGroupId`. Changing it replaces the target. */
  newSlackUserGroup: newSlackUserGroup.optional(),
  /** Whether the service's bot is added to the group (some Slack setups need it to manage the group). */
  addBotToGroup: z.boolean().default(false),
  /** Id of an existing sync target to take over (its user group must be the declared one). */
  adoptId: z.string().min(1).optional(),
});

export type ScheduleSyncTargetInputs = z.infer<typeof scheduleSyncTargetInputs>;
export interface ScheduleSyncTargetComputed {
  /** The Slack id of the synced user group (also when the service made it). */
  userGroupId: string;
  /** The Slack workspace the group lives in. */
  slackTeamId: string;
}

/** ScheduleSyncTargetResourceV2. */
export interface ApiScheduleSyncTarget {
  id: string;
  slack_user_group_id: string;
  slack_team_id: string;
  add_bot_to_group: boolean;
  linked_schedules: { id: string; name: string; team_ids: string[] }[];
  created_at: string;
  updated_at: string;
}

const path = (id: string) => `/v2/schedule_sync_targets/${encodeURIComponent(id)}`;

/** ScheduleSyncTargetsCreatePayloadV2: wrapped. */
export function scheduleSyncTargetCreatePayload(args: ScheduleSyncTargetInputs): Props {
  const group = args.newSlackUserGroup;
  return {
    schedule_sync_target: {
      add_bot_to_group: args.addBotToGroup,
      ...(args.slackUserGroupId !== undefined ? { slack_user_group_id: args.slackUserGroupId } : {}),
      ...(group !== undefined
        ? {
            new_slack_user_group: {
              name: group.name,
              handle: group.handle,
              description: group.description,
              ...(group.slackTeamId !== undefined ? { slack_team_id: group.slackTeamId } : {}),
            },
          }
        : {}),
    },
  };
}

/** ScheduleSyncTargetsUpdatePayloadV2: flat, only the bot flag. */
export const scheduleSyncTargetUpdatePayload = (args: ScheduleSyncTargetInputs): Props => ({
  add_bot_to_group: args.addBotToGroup,
});

export function scheduleSyncTargetFromApi(
  live: ApiScheduleSyncTarget,
  declared: ScheduleSyncTargetInputs | undefined,
): ScheduleSyncTargetInputs {
  const madeByService = declared?.newSlackUserGroup !== undefined;
  return {
    // A group the service made is known by its own id only as an output (`userGroupId`).
    slackUserGroupId: madeByService ? undefined : live.slack_user_group_id,
    // Rule "write-only value": the API never answers the new group's details.
    newSlackUserGroup: writeOnly(declared?.newSlackUserGroup),
    addBotToGroup: live.add_bot_to_group,
  };
}

/**
 * A schedule sync target (API v2): a Slack user group kept in step with who is on call, fed by
 * `ScheduleSyncRule`s. Give an existing group's id (`slackUserGroupId`) or have the service make
 * one (`newSlackUserGroup`). Changing `addBotToGroup` affects every schedule syncing to it.
 * Adopt an existing target with `adoptId`.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const group = new incident.ScheduleSyncTarget("platform-oncall", {
 *   newSlackUserGroup: { name: "Platform on-call", handle: "platform-oncall", description: "Who is on call" },
 *   // or slackUserGroupId: "S0123ABCD" for an existing group
 * });
 * export const userGroupId = group.userGroupId;
 * ```
 */
export const scheduleSyncTargetSpec: ResourceSpec<ScheduleSyncTargetInputs, ApiScheduleSyncTarget> = {
  kind: "ScheduleSyncTarget",
  title: "schedule sync target",
  // 2: `linkedScheduleIds` is no longer stored (server-computed, it changes whenever a sync rule of
  // another resource links a schedule: every refresh after that rewrote the state). The lookup
  // `getScheduleSyncTarget` still answers it.
  schemaVersion: 2,
  migrate: ({ linkedScheduleIds: _linked, ...olds }) => olds,
  claimAs: "schedule_sync_target",
  inputs: scheduleSyncTargetInputs,
  // reference: ScheduleSyncTargetCreatePayloadV2 (SUMMARY: "Exactly one of slack_user_group_id /
  // new_slack_user_group on create")
  validate(args) {
    if ((args.slackUserGroupId === undefined) !== (args.newSlackUserGroup === undefined)) return [];
    return [
      {
        path: ["slackUserGroupId"],
        message:
          "set exactly one of slackUserGroupId (an existing group) and newSlackUserGroup (a group to make)",
        dependsOn: [["newSlackUserGroup"]],
      },
    ];
  },
  replaceOnChanges: ["slackUserGroupId", "newSlackUserGroup"],
  // One target per user group: the old target must go before its replacement takes the group.
  deleteBeforeReplace: true,
  secretOutputs: [],
  writeOnlyInputs: ["newSlackUserGroup"],
  computedOutputs: ["userGroupId", "slackTeamId"],
  // The create body's wrapper is no input: `schedule_sync_target.add_bot_to_group` is `addBotToGroup`.
  fieldRenames: { schedule_sync_target: "" },
  idOf: (live) => live.id,
  // ScheduleSyncTargetsV2List answers ScheduleSyncTargetResourceV2, as show does (paginated).
  list: {
    path: "/v2/schedule_sync_targets",
    itemsKey: "schedule_sync_targets",
    operation: "list schedule sync targets",
    pageSize: 250,
  },
  // For `pulumi-incident export`: every sync target.
  listAll: async (ctx) =>
    await walkList(ctx.client, {
      path: "/v2/schedule_sync_targets",
      itemsKey: "schedule_sync_targets",
      operation: "list schedule sync targets",
      pageSize: 25,
    }),
  toInputs: scheduleSyncTargetFromApi,
  computed: (live) => ({
    userGroupId: live.slack_user_group_id,
    slackTeamId: live.slack_team_id,
  }),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ schedule_sync_target: ApiScheduleSyncTarget }>(
        "/v2/schedule_sync_targets",
        "create schedule sync target",
        scheduleSyncTargetCreatePayload(args),
      );
      return { live: body.schedule_sync_target };
    },
    read: async (ctx, id) =>
      (
        await ctx.client.get<{ schedule_sync_target: ApiScheduleSyncTarget }>(
          path(id),
          "show schedule sync target",
        )
      ).schedule_sync_target,
    async update(ctx, id, args, olds) {
      // Only reachable with another group when adopting (a group change is a replacement).
      if (
        args.slackUserGroupId !== undefined &&
        typeof olds.slackUserGroupId === "string" &&
        olds.slackUserGroupId !== args.slackUserGroupId
      ) {
        throw new Error(
          `ScheduleSyncTarget: adoptId ${JSON.stringify(id)} syncs user group ${olds.slackUserGroupId}, not ${args.slackUserGroupId}: the group of a target cannot change`,
        );
      }
      const body = await ctx.client.put<{ schedule_sync_target: ApiScheduleSyncTarget }>(
        path(id),
        "update schedule sync target",
        scheduleSyncTargetUpdatePayload(args),
      );
      return { live: body.schedule_sync_target };
    },
    async delete(ctx, id) {
      try {
        await ctx.client.delete(path(id), "delete schedule sync target");
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          throw new ApiError({
            ...error.init,
            hint: "sync rules still use this target: delete them first (a ScheduleSyncRule that refers to this target's id is deleted before it by Pulumi)",
          });
        }
        throw error;
      }
    },
    recoveryKey: (args) => args.slackUserGroupId ?? `new:${args.newSlackUserGroup?.handle}`,
    // The API answers neither a new group's name nor its handle: the targets that exist before such
    // a create is sent are listed first, and a lost one is the target made since.
    existingIds: async (ctx, args) =>
      args.newSlackUserGroup === undefined ? undefined : (await listTargets(ctx.client)).map((t) => t.id),
    async findCreated(ctx, args, existedBefore) {
      const all = await listTargets(ctx.client);
      if (args.slackUserGroupId !== undefined)
        return all.find((t) => t.slack_user_group_id === args.slackUserGroupId);
      // A record of a release that did not list them first: the new group cannot be told apart.
      if (existedBefore === undefined) return undefined;
      const before = new Set(existedBefore);
      const team = args.newSlackUserGroup?.slackTeamId;
      const made = all.filter(
        (t) =>
          !before.has(t.id) &&
          t.add_bot_to_group === args.addBotToGroup &&
          (team === undefined || t.slack_team_id === team),
      );
      if (made.length > 1) throw new LostNewGroupError(args, made);
      return made[0];
    },
  },
};

export const scheduleSyncTargetProvider = makeProvider(scheduleSyncTargetSpec);

/** Every sync target of the account (archived ones are not listed). */
const listTargets = (client: ApiClient) =>
  walkList<ApiScheduleSyncTarget>(client, {
    path: "/v2/schedule_sync_targets",
    itemsKey: "schedule_sync_targets",
    operation: "list schedule sync targets",
    pageSize: 250,
  });

/**
 * A create of a new group whose answer was lost while other targets were made too: the API answers
 * no group's name or handle, so which of them is this one's cannot be told. Nothing is made again.
 */
class LostNewGroupError extends IncidentError {
  constructor(args: ScheduleSyncTargetInputs, made: ApiScheduleSyncTarget[]) {
    super(
      `ScheduleSyncTarget (new Slack user group @${args.newSlackUserGroup?.handle}): the answer to its create was lost ` +
        `and ${made.length} sync targets were made meanwhile (${made.map((t) => `${t.id}, user group ${t.slack_user_group_id}`).join("; ")}); ` +
        "the API answers no group's name or handle, so which one is this one cannot be told: set `adoptId` to its id " +
        "(find the group's id in Slack) and delete the others if no one else made them",
    );
    this.name = "LostNewGroupError";
  }
}

// ---------- getScheduleSyncTarget ----------

/** Arguments of `getScheduleSyncTarget`. */
export const getScheduleSyncTargetArgs = z.strictObject({
  /**
   * The Slack id of the synced user group (starts with `S`; not its @-handle): the API keeps one
   * target per user group, and has no name for a target.
   */
  slackUserGroupId: z
    .string()
    .regex(
      /^S[A-Z0-9]+$/,
      "must be a Slack user group id starting with S (e.g. S0123ABCD), not its @-handle",
    ),
});
export type GetScheduleSyncTargetArgs = z.input<typeof getScheduleSyncTargetArgs>;

/** A schedule sync target of the account. */
export interface GetScheduleSyncTargetResult {
  /** The target's id: use it in `ScheduleSyncRule.scheduleSyncTargetId`, or as an `adoptId`. */
  id: string;
  /** The Slack id of the synced user group. */
  slackUserGroupId: string;
  /** The Slack workspace the group lives in. */
  slackTeamId: string;
  /** Whether the service's bot is added to the group. */
  addBotToGroup: boolean;
  /** Ids of the schedules with an active sync rule on this target. */
  linkedScheduleIds: string[];
}

/**
 * Finds the sync target of a Slack user group: `GET /v2/schedule_sync_targets` (API v2, paginated,
 * every page read; archived targets are not listed).
 */
export async function findScheduleSyncTarget(
  client: ApiClient,
  slackUserGroupId: string,
): Promise<GetScheduleSyncTargetResult> {
  const all = await walkList<ApiScheduleSyncTarget>(client, {
    path: "/v2/schedule_sync_targets",
    itemsKey: "schedule_sync_targets",
    operation: "list schedule sync targets",
    pageSize: 25,
  });
  const matches = all.filter((t) => t.slack_user_group_id === slackUserGroupId);
  if (matches.length !== 1) {
    throw new LookupError(
      "getScheduleSyncTarget",
      matches.length === 0
        ? `no schedule sync target syncs Slack user group ${JSON.stringify(slackUserGroupId)}`
        : `${matches.length} schedule sync targets sync Slack user group ${JSON.stringify(slackUserGroupId)}: ${matches.map((t) => t.id).join(", ")}`,
    );
  }
  const t = matches[0]!;
  return {
    id: t.id,
    slackUserGroupId: t.slack_user_group_id,
    slackTeamId: t.slack_team_id,
    addBotToGroup: t.add_bot_to_group,
    linkedScheduleIds: t.linked_schedules.map((s) => s.id),
  };
}

const scheduleSyncTargetLookup = defineLookup({
  name: "getScheduleSyncTarget",
  args: getScheduleSyncTargetArgs,
  run: (client, args) => findScheduleSyncTarget(client, args.slackUserGroupId),
});

/** Finds the schedule sync target of a Slack user group; fails when there is none. */
export const getScheduleSyncTarget = scheduleSyncTargetLookup.get;
/** `getScheduleSyncTarget` taking Inputs and answering an Output. */
export const getScheduleSyncTargetOutput = scheduleSyncTargetLookup.getOutput;
