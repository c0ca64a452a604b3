/**
 * ScheduleReplica: a schedule mirrored into an external on-call provider (PagerDuty, Opsgenie, Jira
 * Service Management) (`GET/POST /v2/schedules/{schedule_id}/replicas`, `GET/DELETE
 * /v2/schedules/{schedule_id}/replicas/{id}`). The create body is wrapped (`{"schedule_replica": …}`).
 *
 * The API has no update: every input is fixed at creation, and changing one replaces the replica.
 * The replacement is made before the old replica is deleted: the API allows several replicas of one
 * schedule, even onto the same external schedule ("overrides are only removed when the last replica
 * pointing to that schedule is deleted"), so the external schedule keeps its overrides throughout.
 * A v2 schedule cannot be deleted while it has replicas: the engine deletes a stack's replicas
 * before their schedule (they depend on it); a replica made in the dashboard blocks the delete.
 *
 * Normalisation: `sources` is a set (order and repeats carry no meaning; rule "set with repeats");
 * an unset `mirrorWindowDays` is the API's default, 14 days (rule "server default": an unset input
 * and 14 compare equal, and a read-back of 14 leaves it unset). The sync status (`userStatuses`,
 * `lastSyncedAt`, `lastSyncError`) changes as the service syncs: it is not stored, so neither a
 * refresh nor a diff shows it.
 */
import { z } from "zod";
import { knownValues, warnUnless } from "../provider/checkWarnings";
import { makeProvider } from "../provider/factory";
import { idText } from "../provider/inputs";
import { keepDeclaredSet, uniqueSet } from "../provider/normalise";
import { walkList } from "../provider/pagedReads";
import type { Problem, Props, ResourceSpec } from "../provider/spec";
import { scheduleSpec } from "./schedule";

export const REPLICA_PROVIDERS = ["jsm", "native", "opsgenie", "pagerduty"] as const;
/** The API's `mirror_window_days` when a create leaves it out, and its largest value. */
export const DEFAULT_MIRROR_WINDOW_DAYS = 14;
export const MAX_MIRROR_WINDOW_DAYS = 90;

/** An id in the external provider: one token, not a URL. */
const externalId = (what: string) =>
  z
    .string()
    .superRefine(warnUnless((v: string) => v !== "", "is empty"))
    .superRefine(
      warnUnless((v: string) => /^[^\s/]*$/.test(v), `does not look like ${what} (spaces, or a URL)`),
    );

const sourceInputs = z.strictObject({
  /** The rotation of the schedule to replicate (its id in the schedule, e.g. a Schedule rotation's `id`). */
  rotationId: idText(),
  /** The layer of that rotation to replicate (the layer's id, as the schedule answers it). */
  layerId: idText(),
});

/** Inputs of a schedule replica (API v2). Every input replaces the replica when it changes. */
export const scheduleReplicaInputs = z.strictObject({
  /** The incident.io schedule to mirror. */
  // Our URL's path parameter (`/v2/schedules/{schedule_id}/replicas`): an empty one names no schedule.
  scheduleId: z.string().min(1, "must not be empty"),
  /** The external provider the schedule is mirrored into: `pagerduty`, `opsgenie`, `jsm` (Jira Service Management) or `native`. */
  // reference: ScheduleReplicaCreatePayloadV2.replica_provider enum
  replicaProvider: knownValues(REPLICA_PROVIDERS),
  /** The schedule's id in the external provider that the replica writes to (for PagerDuty, e.g. `PO8107X`). */
  replicaProviderId: externalId("the external schedule's id"),
  /**
   * The external provider's user put on call whenever nobody is on call in the incident.io schedule
   * (external providers need someone on call at all times): that user's id there, e.g. `PA7AXXN`.
   */
  replicaFallbackUserId: externalId("the external user's id"),
  /**
   * The rotation layers of the schedule to mirror, at least one; order does not matter and a
   * repeated entry counts once.
   */
  sources: z
    .array(sourceInputs)
    .superRefine(warnUnless((v: unknown[]) => v.length > 0, "names no rotation layer")),
  /** How many days ahead to mirror, 1 to 90. Unset: the API's default, 14. */
  // reference: ScheduleReplicaCreatePayloadV2.mirror_window_days ("maximum 90"); below 1 is our model
  mirrorWindowDays: z
    .number()
    .int("must be a whole number of days")
    .superRefine(warnUnless((v: number) => v >= 1, "is less than 1 day"))
    .max(MAX_MIRROR_WINDOW_DAYS, `must be at most ${MAX_MIRROR_WINDOW_DAYS} days (the API's maximum)`)
    .optional(),
  /** An existing replica to take over, as `<scheduleId>/<replicaId>` (the API's replica id after its schedule's). */
  adoptId: z
    .string()
    .regex(/^[^/]+\/[^/]+$/, "must be <scheduleId>/<replicaId>: a replica is found under its schedule")
    .optional(),
});

export type ScheduleReplicaInputs = z.infer<typeof scheduleReplicaInputs>;
export interface ScheduleReplicaComputed {
  /** The API's id of the replica (the resource id is `<scheduleId>/<replicaId>`). */
  replicaId: string;
}

/** ScheduleReplicaV2. */
export interface ApiScheduleReplica {
  id: string;
  schedule_id: string;
  replica_provider: (typeof REPLICA_PROVIDERS)[number];
  replica_provider_id: string;
  replica_fallback_user_id: string;
  mirror_window_days?: number;
  sources: { rotation_id: string; layer_id: string }[];
  user_statuses: { user_id: string; external_user_id?: string }[];
  last_synced_at?: string;
  last_sync_error?: string;
  created_at: string;
  updated_at: string;
}

const replicasPath = (scheduleId: string) => `/v2/schedules/${encodeURIComponent(scheduleId)}/replicas`;
/** The replica's path from its resource id, `<scheduleId>/<replicaId>`. */
function path(resourceId: string): string {
  const [scheduleId, replicaId] = resourceId.split("/");
  return `${replicasPath(scheduleId ?? "")}/${encodeURIComponent(replicaId ?? "")}`;
}

/** SchedulesCreateScheduleReplicaPayloadV2: wrapped; sources once each; an unset window left out. */
export function scheduleReplicaCreatePayload(args: ScheduleReplicaInputs): Props {
  return {
    schedule_replica: {
      replica_provider: args.replicaProvider,
      replica_provider_id: args.replicaProviderId,
      replica_fallback_user_id: args.replicaFallbackUserId,
      sources: uniqueSet(args.sources)!.map((s) => ({ rotation_id: s.rotationId, layer_id: s.layerId })),
      ...(args.mirrorWindowDays !== undefined ? { mirror_window_days: args.mirrorWindowDays } : {}),
    },
  };
}

export function scheduleReplicaFromApi(
  live: ApiScheduleReplica,
  declared: ScheduleReplicaInputs | undefined,
): ScheduleReplicaInputs {
  const window = live.mirror_window_days ?? DEFAULT_MIRROR_WINDOW_DAYS;
  return {
    scheduleId: live.schedule_id,
    replicaProvider: live.replica_provider,
    replicaProviderId: live.replica_provider_id,
    replicaFallbackUserId: live.replica_fallback_user_id,
    // Rule "set with repeats": the declared list when it names the same layers.
    sources: keepDeclaredSet(
      live.sources.map((s) => ({ rotationId: s.rotation_id, layerId: s.layer_id })),
      declared?.sources,
    )!,
    // Rule "server default": unset and 14 mean the same.
    mirrorWindowDays:
      declared !== undefined &&
      declared.mirrorWindowDays === undefined &&
      window === DEFAULT_MIRROR_WINDOW_DAYS
        ? undefined
        : window,
  };
}

/** Canonical form for diffs: sources as a set, an unset window as the default. */
function canonical(args: Props): Props {
  return {
    ...args,
    sources: Array.isArray(args.sources) ? uniqueSet(args.sources) : args.sources,
    mirrorWindowDays: args.mirrorWindowDays ?? DEFAULT_MIRROR_WINDOW_DAYS,
  };
}

/** Every input but `adoptId`: the API has no update, so each of them replaces. */
const REPLICA_INPUTS = [
  "scheduleId",
  "replicaProvider",
  "replicaProviderId",
  "replicaFallbackUserId",
  "sources",
  "mirrorWindowDays",
] as const;

/** The inputs where a live replica differs from a declaration (by meaning). */
function differences(live: ApiScheduleReplica, args: ScheduleReplicaInputs): string[] {
  const a = canonical(scheduleReplicaFromApi(live, args));
  const b = canonical(args);
  return REPLICA_INPUTS.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/**
 * A schedule replica (API v2): mirrors layers of a `Schedule`'s rotations into a schedule of an
 * external on-call provider, putting a fallback user on call where nobody is. There is no update:
 * changing any input makes a new replica, then deletes the old one. Adopt an existing replica with
 * `adoptId` (`<scheduleId>/<replicaId>`), declared exactly as it is.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const schedule = incident.getScheduleOutput({ name: "Payments primary" });
 * new incident.ScheduleReplica("payments-to-pagerduty", {
 *   scheduleId: schedule.id,
 *   replicaProvider: "pagerduty",
 *   replicaProviderId: "PO8107X",
 *   replicaFallbackUserId: "PA7AXXN",
 *   sources: [{ rotationId: "primary", layerId: "01G0J1EXE7AXZ2C93K61WBPYNH" }],
 *   mirrorWindowDays: 30,
 * });
 * ```
 */
export const scheduleReplicaSpec: ResourceSpec<ScheduleReplicaInputs, ApiScheduleReplica> = {
  kind: "ScheduleReplica",
  title: "schedule replica",
  schemaVersion: 1,
  inputs: scheduleReplicaInputs,
  validate(args): Problem[] {
    const [scheduleOfId] = (args.adoptId ?? "").split("/");
    // Our own inputs (`adoptId` names a replica under the declared schedule).
    return args.adoptId !== undefined && scheduleOfId !== args.scheduleId
      ? [
          {
            path: ["adoptId"],
            message: `names schedule ${scheduleOfId}, not scheduleId ${args.scheduleId}: adopt a replica of the declared schedule`,
            dependsOn: [["scheduleId"]],
          },
        ]
      : [];
  },
  // No update in the API: every input replaces.
  replaceOnChanges: [...REPLICA_INPUTS],
  // Create-before-delete: the API takes two replicas of one schedule (even onto the same external
  // schedule) at once, and the external schedule keeps its overrides until the last one goes.
  deleteBeforeReplace: false,
  secretOutputs: [],
  computedOutputs: ["replicaId"],
  // The create body's wrapper is no input: `schedule_replica.sources.0.layer_id` is `sources[0].layerId`.
  fieldRenames: { schedule_replica: "" },
  canonical: (args) => canonical(args) as ScheduleReplicaInputs,
  idOf: (live) => `${live.schedule_id}/${live.id}`,
  partOf: "scheduleId",
  // For `pulumi-incident export`: the replicas of every schedule, one list per schedule (unpaginated).
  listAll: async (ctx) => {
    const schedules = await walkList<{ id: string }>(ctx.client, scheduleSpec.list!);
    const perSchedule = await Promise.all(
      schedules.map((s) =>
        walkList<ApiScheduleReplica>(ctx.client, {
          path: replicasPath(s.id),
          itemsKey: "schedule_replicas",
          operation: "list schedule replicas",
        }),
      ),
    );
    return perSchedule.flat();
  },
  toInputs: scheduleReplicaFromApi,
  computed: (live) => ({ replicaId: live.id }),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ schedule_replica: ApiScheduleReplica }>(
        replicasPath(args.scheduleId),
        "create schedule replica",
        scheduleReplicaCreatePayload(args),
      );
      return { live: body.schedule_replica };
    },
    read: async (ctx, id) =>
      (await ctx.client.get<{ schedule_replica: ApiScheduleReplica }>(path(id), "show schedule replica"))
        .schedule_replica,
    // Never a change (every input replaces): reached only by a create recovered after a lost answer
    // (the replica found is the declared one) or an adoption. It writes nothing: a replica that
    // differs from the declaration cannot be brought to it in place.
    async update(ctx, id, args) {
      const live = (
        await ctx.client.get<{ schedule_replica: ApiScheduleReplica }>(path(id), "show schedule replica")
      ).schedule_replica;
      const differ = differences(live, args);
      if (differ.length > 0) {
        throw new Error(
          `schedule replica ${id} differs from the declaration in ${differ.join(", ")}, and the API cannot ` +
            "change a replica in place: declare it as it is (then change it: that replaces it), or drop adoptId",
        );
      }
      return { live };
    },
    delete: (ctx, id) => ctx.client.delete(path(id), "delete schedule replica"),
    recoveryKey: (args) => `${args.scheduleId}/${args.replicaProvider}/${args.replicaProviderId}`,
    async findCreated(ctx, args) {
      const all = await walkList<ApiScheduleReplica>(ctx.client, {
        path: replicasPath(args.scheduleId),
        itemsKey: "schedule_replicas",
        operation: "list schedule replicas",
      });
      // Several replicas may be alike: the newest is the one this create made.
      return all
        .filter((r) => differences(r, args).length === 0)
        .sort((a, b) => a.created_at.localeCompare(b.created_at))
        .at(-1);
    },
  },
};

export const scheduleReplicaProvider = makeProvider(scheduleReplicaSpec);
