/**
 * ScheduleOverride: a cover shift as code: someone on call in place of the rotation for a window
 * (`POST /v2/schedule_overrides`, `GET /v2/schedule_overrides?schedule_id=…` in reference.json;
 * `GET/PUT/DELETE /v2/schedule_overrides/{id}` from newer clients: reference-newer.json, shared/api/
 * NEWER.md "schedule_overrides — additions"). Flat bodies; answers hold the object under `override`.
 * API v2 is the only version.
 *
 * The user cannot be reassigned ("send the user it already has, and delete and recreate it to put
 * someone else on call"): changing `user` replaces the override, and so does `scheduleId` (the update
 * payload has no `schedule_id`). The replacement is made before the old override is deleted: the new
 * one, on the same layer and window, takes the old one's time over (the API deletes it), and the
 * delete that follows finds it already gone, which succeeds ("safe to retry"). The layer is covered
 * throughout, and a create that fails leaves the old override as it was.
 *
 * Overlaps: overrides on one layer cannot overlap. A write whose window overlaps a neighbour takes
 * it over: the API deletes the neighbour and makes the neighbour's time left outside the new window
 * into new overrides, with new ids. A neighbour this stack manages then reads as gone (`pulumi
 * refresh` shows it deleted; it is not shown by the API any more) and `pulumi up --refresh` makes it
 * again, with its declared window, which takes that window back from whatever holds it. The
 * leftover pieces the API made are not managed by any stack. Declare the overrides of one layer with
 * windows that do not overlap, or each `up` takes time from the other. So two overrides of one
 * program whose windows overlap on one layer are an error naming both (the resource class sees the
 * program's resources, provider/programRules.ts), in a preview once their values are known: the
 * published rule is that they cannot overlap, so such a program can never hold what it declares. And an
 * override that reads as gone is said to be (a warning), naming the overrides that now hold its
 * window on its layer, if any: which one took it over, and the pieces of it the API kept.
 *
 * Normalisation: timestamps compare by instant, to the second (rule "timestamps by instant": the
 * API answers them in UTC); the user compares by meaning (rule "user reference by any key"): a
 * reference by id, e-mail address (any case) or Slack user id that names the user the API answers
 * reads back as declared. Changing how the user is named (id → e-mail) is a change of `user`, so it
 * replaces the override (the provider cannot tell offline that both name the same person).
 *
 * Check: `endAt` after `startAt`. An override wholly in the past is not refused here: the reference
 * says nothing of the API refusing one.
 */
import { z } from "zod";
import { ApiError, isNotFound } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { idText, timestamp } from "../provider/inputs";
import { instantText } from "../provider/normalise";
import { walkList } from "../provider/pagedReads";
import { itemPath, newestMatching } from "../provider/restApi";
import type { ApiContext, Props, ResourceSpec } from "../provider/spec";
import { keepDeclaredInstant, scheduleSpec } from "./schedule";
import { endsAfterStart } from "./shared/timeWindow";
import {
  type ApiUserRef,
  canonicalUserReference,
  userReference,
  userReferenceFromApi,
  userReferencePayload,
} from "./shared/userReference";

const COLLECTION = "/v2/schedule_overrides";

/** Inputs of a schedule override (API v2). */
export const scheduleOverrideInputs = z.strictObject({
  /** The schedule the override applies to. Changing it replaces the override. */
  scheduleId: idText(),
  /** The rotation of the schedule the override applies to (its id in the schedule, e.g. `primary`). */
  rotationId: idText(),
  /** The layer of that rotation the override applies to (the layer's id, as the schedule answers it). */
  layerId: idText(),
  /**
   * Who is on call for the window: a user by `id`, `email` or `slackUserId` (exactly one). An
   * override cannot be reassigned: changing it replaces the override.
   */
  user: userReference,
  /** When the cover starts (RFC 3339, e.g. `2031-03-02T09:00:00Z`). */
  startAt: timestamp(),
  /** When the cover ends (RFC 3339); must be after `startAt`. */
  endAt: timestamp(),
  /** Id of an existing override to take over instead of creating one (its user must be the declared one). */
  adoptId: z.string().min(1).optional(),
});

export type ScheduleOverrideInputs = z.infer<typeof scheduleOverrideInputs>;
export interface ScheduleOverrideComputed {
  /** The id of the user on call (whichever way `user` names them). */
  userId: string;
}

/** ScheduleOverrideV2. */
export interface ApiScheduleOverride {
  id: string;
  schedule_id: string;
  rotation_id: string;
  layer_id: string;
  user?: ApiUserRef & { name?: string };
  start_at: string;
  end_at: string;
  created_at: string;
  updated_at: string;
}

/** SchedulesUpdateOverridePayloadV2: every field required; the user it already has. */
export function scheduleOverrideUpdatePayload(args: ScheduleOverrideInputs): Props {
  return {
    rotation_id: args.rotationId,
    layer_id: args.layerId,
    user: userReferencePayload(args.user),
    start_at: args.startAt,
    end_at: args.endAt,
  };
}

/** SchedulesCreateOverridePayloadV2: the update payload and the schedule. */
export function scheduleOverrideCreatePayload(args: ScheduleOverrideInputs): Props {
  return { schedule_id: args.scheduleId, ...scheduleOverrideUpdatePayload(args) };
}

export function scheduleOverrideFromApi(
  live: ApiScheduleOverride,
  declared: ScheduleOverrideInputs | undefined,
): ScheduleOverrideInputs {
  return {
    scheduleId: live.schedule_id,
    rotationId: live.rotation_id,
    layerId: live.layer_id,
    user: userReferenceFromApi(live.user, declared?.user),
    // Rule "timestamps by instant".
    startAt: keepDeclaredInstant(live.start_at, declared?.startAt) ?? live.start_at,
    endAt: keepDeclaredInstant(live.end_at, declared?.endAt) ?? live.end_at,
  };
}

/** Canonical form for diffs: timestamps by instant, an e-mail address in any case. */
function canonicalScheduleOverride(args: ScheduleOverrideInputs): Props {
  return {
    ...args,
    startAt: instantText(args.startAt),
    endAt: instantText(args.endAt),
    user: canonicalUserReference(args.user),
  };
}

/** The overrides of one schedule (one layer when given), every page. */
function listOverrides(
  ctx: ApiContext,
  scheduleId: string,
  layer?: { rotationId: string; layerId: string },
): Promise<ApiScheduleOverride[]> {
  return walkList<ApiScheduleOverride>(
    ctx.client,
    { path: COLLECTION, itemsKey: "overrides", operation: "list schedule overrides", pageSize: 100 },
    {
      schedule_id: scheduleId,
      ...(layer ? { rotation_id: layer.rotationId, layer_id: layer.layerId } : {}),
    },
  );
}

const sameInstant = (a: string, b: string) => instantText(a) === instantText(b);

/** Whether two windows share a moment (unparsable times share none). */
const overlapping = (a: { start: unknown; end: unknown }, b: { start: unknown; end: unknown }) =>
  Date.parse(String(a.start)) < Date.parse(String(b.end)) &&
  Date.parse(String(b.start)) < Date.parse(String(a.end));

/**
 * An override that reads as gone is said to be (a warning), with the overrides that now hold its
 * window on its layer: the API deletes an override another one is written over, and makes its time
 * left outside the new window into new overrides, so a gone override of two that overlap is not a
 * silent back and forth. Best effort: a list that fails says nothing more.
 */
async function sayWhyGone(ctx: ApiContext, id: string, prior: Props): Promise<void> {
  const { scheduleId, rotationId, layerId, startAt, endAt } = prior;
  if (typeof scheduleId !== "string" || typeof rotationId !== "string" || typeof layerId !== "string") return;
  const window = { start: startAt, end: endAt };
  const now = await listOverrides(ctx, scheduleId, { rotationId, layerId })
    .then((all) =>
      all.filter((o) => o.id !== id && overlapping({ start: o.start_at, end: o.end_at }, window)),
    )
    .catch(() => undefined);
  if (now === undefined) return;
  const what = `incident: ScheduleOverride ${id} (${startAt} to ${endAt}, layer ${layerId} of rotation ${rotationId} of schedule ${scheduleId}) is gone`;
  ctx.client.warn(
    now.length === 0
      ? `${what}: deleted, or removed by an overlapping override written over its time`
      : `${what}: removed by an overlapping override written over its time (the API deletes it, and keeps its time left outside the new window as new overrides); its window is now held by ${now
          .map((o) => `override ${o.id} (user ${o.user?.id ?? "?"}, ${o.start_at} to ${o.end_at})`)
          .join(
            ", ",
          )}. If both overrides are this stack's, their windows overlap: each \`pulumi up --refresh\` makes one again, which takes the other's time; keep the windows of one layer apart`,
  );
}

/**
 * A schedule override (API v2): `user` is on call on one layer of one rotation of a schedule from
 * `startAt` to `endAt`, in place of whoever the rotation puts there.
 *
 * The user cannot be reassigned: changing `user` (or `scheduleId`) makes a new override on the same
 * window, which takes the old one's time over, then deletes the old one. The window, rotation and
 * layer change in place.
 *
 * Overrides on one layer cannot overlap: an override written over a neighbour's time takes it over
 * (the API deletes the neighbour and makes the neighbour's remaining time into new overrides, with
 * new ids). A neighbour this stack manages then shows as deleted on `pulumi refresh` (with a warning
 * naming the override that now holds its window), and `pulumi up --refresh` makes it again. Keep the
 * windows of one layer's overrides apart: two of one program that overlap fail the preview, naming
 * both.
 *
 * Adopt an existing override with `adoptId`, declaring the user it has.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const schedule = incident.getScheduleOutput({ name: "Payments primary" });
 * // Ada covers the primary rotation's first layer over a bank holiday weekend.
 * new incident.ScheduleOverride("ada-covers-easter", {
 *   scheduleId: schedule.id,
 *   rotationId: "primary",
 *   layerId: "01G0J1EXE7AXZ2C93K61WBPYNH",
 *   user: { email: "ada@example.com" }, // or { id } or { slackUserId }
 *   startAt: "2031-04-11T17:00:00+01:00",
 *   endAt: "2031-04-14T09:00:00+01:00",
 * });
 * ```
 */
export const scheduleOverrideSpec: ResourceSpec<ScheduleOverrideInputs, ApiScheduleOverride> = {
  kind: "ScheduleOverride",
  title: "schedule override",
  schemaVersion: 1,
  inputs: scheduleOverrideInputs,
  validate: endsAfterStart,
  // The update payload has no schedule_id, and an override cannot be reassigned.
  replaceOnChanges: ["scheduleId", "user"],
  // Create-before-delete: the new override takes the old one's window over (the API deletes it), so
  // the layer stays covered and a failed create leaves the old override as it was.
  deleteBeforeReplace: false,
  secretOutputs: [],
  computedOutputs: ["userId"],
  canonical: canonicalScheduleOverride,
  // Two overrides of one program on one layer whose windows overlap: "overrides on a layer cannot
  // overlap" (shared/api/NEWER.md, schedule_overrides), but the API does not refuse such a write: it
  // takes the neighbour's time over (deleting it). So a warning at preview naming both, not an error.
  programRule: {
    reads: ["scheduleId", "rotationId", "layerId", "startAt", "endAt"],
    between({ name, values: a }, { name: earlierName, values: b }) {
      if (a.scheduleId !== b.scheduleId || a.rotationId !== b.rotationId || a.layerId !== b.layerId)
        return undefined;
      if (!overlapping({ start: a.startAt, end: a.endAt }, { start: b.startAt, end: b.endAt }))
        return undefined;
      // reference-newer (NEWER.md, schedule_overrides notes): "overrides on a layer cannot overlap".
      return {
        severity: "error",
        message:
          `ScheduleOverride ${JSON.stringify(name)} (${a.startAt} to ${a.endAt}) overlaps ScheduleOverride ` +
          `${JSON.stringify(earlierName)} (${b.startAt} to ${b.endAt}) on layer ${a.layerId} of rotation ` +
          `${a.rotationId} of schedule ${a.scheduleId}: overrides on a layer cannot overlap (the API takes the time ` +
          "over: the one written last deletes the other, and every `pulumi up --refresh` would make it again, which " +
          "takes the time back). Keep the windows of one layer apart",
      };
    },
  },
  idOf: (live) => live.id,
  partOf: "scheduleId",
  // No `list` for reads by page: the list needs a schedule_id. For `pulumi-incident export`: the
  // overrides of every schedule (each list paginated).
  listAll: async (ctx) => {
    const schedules = await walkList<{ id: string }>(ctx.client, scheduleSpec.list!);
    const perSchedule = await Promise.all(schedules.map((s) => listOverrides(ctx, s.id)));
    return perSchedule.flat();
  },
  toInputs: scheduleOverrideFromApi,
  computed: (live) => ({ userId: live.user?.id }),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ override: ApiScheduleOverride }>(
        COLLECTION,
        "create schedule override",
        scheduleOverrideCreatePayload(args),
      );
      return { live: body.override };
    },
    async read(ctx, id, prior) {
      try {
        return (
          await ctx.client.get<{ override: ApiScheduleOverride }>(
            itemPath(COLLECTION, id),
            "show schedule override",
          )
        ).override;
      } catch (error) {
        // Gone: said with what took its time over, if another override did (a refresh drops it).
        if (isNotFound(error) && prior) await sayWhyGone(ctx, id, prior);
        throw error;
      }
    },
    async update(ctx, id, args) {
      try {
        const body = await ctx.client.put<{ override: ApiScheduleOverride }>(
          itemPath(COLLECTION, id),
          "update schedule override",
          scheduleOverrideUpdatePayload(args),
        );
        return { live: body.override };
      } catch (error) {
        if (isNotFound(error))
          throw new ApiError({
            ...error.init,
            hint:
              "the override is gone: the API deletes an override whose window another one took over. " +
              "Run `pulumi up --refresh` to make it again",
          });
        if (
          error instanceof ApiError &&
          error.status === 422 &&
          error.fields.some((f) => f.startsWith("user"))
        )
          throw new ApiError({
            ...error.init,
            hint: "an override cannot be reassigned: declare the user it has (then change `user`: that replaces it)",
          });
        throw error;
      }
    },
    // Deleting an override already deleted succeeds (the API's note): nothing else to do.
    delete: (ctx, id) => ctx.client.delete(itemPath(COLLECTION, id), "delete schedule override"),
    recoveryKey: (args) => `${args.scheduleId}/${args.rotationId}/${args.layerId}@${args.startAt}`,
    async findCreated(ctx, args) {
      const all = await listOverrides(ctx, args.scheduleId, args);
      return newestMatching(
        all,
        (o) =>
          sameInstant(o.start_at, args.startAt) &&
          sameInstant(o.end_at, args.endAt) &&
          JSON.stringify(canonicalUserReference(userReferenceFromApi(o.user, args.user))) ===
            JSON.stringify(canonicalUserReference(args.user)),
      );
    },
  },
};

export const scheduleOverrideProvider = makeProvider(scheduleOverrideSpec);
