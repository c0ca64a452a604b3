/**
 * MaintenanceWindow: a time span in which matching alerts are held back, escalated elsewhere or
 * attached to an incident (`GET/POST /v1/maintenance_windows`, `GET/PUT/DELETE
 * /v1/maintenance_windows/{id}`; flat bodies). API v1 is the only version.
 *
 * Deleting archives the window, and the API "cannot archive active windows": destroying a window
 * while it is active fails with an error saying so (and when it ends); the window stays in the
 * stack. An archived window reads as gone.
 */
import { z } from "zod";
import { warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { ApiError } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { defineLookup, pickByName } from "../provider/functions";
import { freeText, idText, lookupName, nameText, timestamp } from "../provider/inputs";
import { instantText } from "../provider/normalise";
import { walkList } from "../provider/pagedReads";
import { newestMatching, restApi } from "../provider/restApi";
import type { Props, ResourceSpec } from "../provider/spec";
import { keepDeclaredInstant } from "./schedule";
import {
  bindingFromApi,
  bindingPayload,
  type ConditionGroup,
  canonicalBinding,
  canonicalConditionGroups,
  conditionGroup,
  conditionGroupsFromApi,
  conditionGroupsPayload,
  type ParamBinding,
  paramBinding,
} from "./shared/engine";
import { endsAfterStart } from "./shared/timeWindow";
import {
  type ApiUserRef,
  canonicalUserReference,
  userReference,
  userReferenceFromApi,
  userReferencePayload,
} from "./shared/userReference";

const escalationTarget = z
  .strictObject({
    /** Escalation paths to escalate matching alerts to (a binding of escalation path ids). */
    escalationPaths: paramBinding.optional(),
    /** Users to escalate matching alerts to (a binding of user ids). */
    users: paramBinding.optional(),
  })
  .superRefine(
    warnUnless(
      (t: { escalationPaths?: unknown; users?: unknown }) =>
        t.escalationPaths !== undefined || t.users !== undefined,
      "sets neither escalationPaths nor users",
    ),
  );

const notifyChannel = z.strictObject({
  /** The channel's id in the chat product, e.g. a Slack channel id `C0123ABCD`. */
  channelId: idText(),
  /** The type of channel, e.g. `public` or `private`. */
  channelType: idText(),
  /** Human-readable name of the channel. */
  channelName: z.string().optional(),
});

// reference: integer; a negative count of minutes is our model (warned)
const minutes = z
  .number()
  .int("must be a whole number")
  .superRefine(warnUnless((v: number) => v >= 0, "is negative"));

/** Inputs of a maintenance window (API v1). */
export const maintenanceWindowInputs = z.strictObject({
  /** Human-readable name, e.g. `Database migration`. */
  name: nameText(),
  /** When the window starts (RFC 3339, e.g. `2026-03-01T22:00:00Z`). */
  startAt: timestamp(),
  /** When the window ends (RFC 3339); must be after `startAt`. */
  endAt: timestamp(),
  /** Who leads the maintenance: a user by `id`, `email` or `slackUserId` (exactly one). */
  lead: userReference,
  /** Whether the window shows in the dashboard sidebar while active. */
  showInSidebar: z.boolean().default(true),
  /** Which alerts the window applies to: any one group whose conditions all hold. */
  alertConditionGroups: z.array(conditionGroup),
  /** Where matching alerts are escalated instead, if anywhere. */
  escalationTargets: z.array(escalationTarget).optional(),
  /** Id of an incident matching alerts are attached to, if any. */
  incidentId: idText().optional(),
  /** Custom message included in the notifications about the window. */
  notificationMessage: freeText().optional(),
  /** Channels told when the window starts and ends. */
  notifyChannels: z.array(notifyChannel).optional(),
  /** Minutes before the start to notify the channels. */
  notifyStartMinutesBefore: minutes.optional(),
  /** Minutes before the end to notify the channels. */
  notifyEndMinutesBefore: minutes.optional(),
  /** Retrigger firing alerts through alert routing when the window ends. */
  rerouteOnEnd: z.boolean().default(false),
  /** Resolve the firing alerts that matched the window when it ends. */
  resolveOnEnd: z.boolean().default(false),
  /** Id of an existing (not archived) maintenance window to take over instead of creating one. */
  adoptId: z.string().min(1).optional(),
});

export type MaintenanceWindowInputs = z.infer<typeof maintenanceWindowInputs>;
export interface MaintenanceWindowComputed {
  /** The id of the lead (whichever way `lead` names them). */
  leadId: string;
}

/** MaintenanceWindowV1 (the parts mapped). */
export interface ApiMaintenanceWindow {
  id: string;
  name: string;
  start_at: string;
  end_at: string;
  lead: { user?: ApiUserRef };
  show_in_sidebar: boolean;
  alert_condition_groups: any[];
  escalation_targets?: { escalation_paths?: any; users?: any }[];
  incident_id?: string;
  notification_message?: string;
  notify_channels?: {
    channel_id: string;
    channel_type: string;
    channel_name?: string;
    is_private?: boolean;
  }[];
  notify_start_minutes_before?: number;
  notify_end_minutes_before?: number;
  reroute_on_end: boolean;
  resolve_on_end: boolean;
  archived_at?: string;
  created_at: string;
  updated_at: string;
}

const windows = restApi<MaintenanceWindowInputs, ApiMaintenanceWindow>({
  collection: "/v1/maintenance_windows",
  key: "maintenance_window",
  noun: "maintenance window",
  payload: maintenanceWindowPayload,
});

/** MaintenanceWindowsCreatePayloadV1 / MaintenanceWindowsUpdatePayloadV1 (same shape). */
export function maintenanceWindowPayload(args: MaintenanceWindowInputs): Props {
  const lead = args.lead;
  return {
    name: args.name,
    start_at: args.startAt,
    end_at: args.endAt,
    lead: userReferencePayload(lead),
    show_in_sidebar: args.showInSidebar,
    alert_condition_groups: conditionGroupsPayload(args.alertConditionGroups),
    ...(args.escalationTargets !== undefined
      ? {
          escalation_targets: args.escalationTargets.map((t) => ({
            ...(t.escalationPaths ? { escalation_paths: bindingPayload(t.escalationPaths) } : {}),
            ...(t.users ? { users: bindingPayload(t.users) } : {}),
          })),
        }
      : {}),
    ...(args.incidentId !== undefined ? { incident_id: args.incidentId } : {}),
    ...(args.notificationMessage !== undefined ? { notification_message: args.notificationMessage } : {}),
    ...(args.notifyChannels !== undefined
      ? {
          notify_channels: args.notifyChannels.map((c) => ({
            channel_id: c.channelId,
            channel_type: c.channelType,
            ...(c.channelName !== undefined ? { channel_name: c.channelName } : {}),
          })),
        }
      : {}),
    ...(args.notifyStartMinutesBefore !== undefined
      ? { notify_start_minutes_before: args.notifyStartMinutesBefore }
      : {}),
    ...(args.notifyEndMinutesBefore !== undefined
      ? { notify_end_minutes_before: args.notifyEndMinutesBefore }
      : {}),
    reroute_on_end: args.rerouteOnEnd,
    resolve_on_end: args.resolveOnEnd,
  };
}

const bindingOrUndefined = (live: any, declared: ParamBinding | undefined) =>
  live ? bindingFromApi(live, declared) : undefined;

export function maintenanceWindowFromApi(
  live: ApiMaintenanceWindow,
  declared: MaintenanceWindowInputs | undefined,
): MaintenanceWindowInputs {
  const targets = live.escalation_targets;
  const channels = live.notify_channels;
  return {
    name: live.name,
    startAt: keepDeclaredInstant(live.start_at, declared?.startAt) ?? live.start_at,
    endAt: keepDeclaredInstant(live.end_at, declared?.endAt) ?? live.end_at,
    lead: userReferenceFromApi(live.lead?.user, declared?.lead),
    showInSidebar: live.show_in_sidebar,
    alertConditionGroups: conditionGroupsFromApi(live.alert_condition_groups, declared?.alertConditionGroups),
    // Omitted and empty mean the same: an unset list reads back unset.
    escalationTargets:
      targets === undefined || (targets.length === 0 && declared?.escalationTargets === undefined)
        ? declared?.escalationTargets === undefined
          ? undefined
          : []
        : targets.map((t, i) => {
            const mine = declared?.escalationTargets?.[i];
            return {
              escalationPaths: bindingOrUndefined(t.escalation_paths, mine?.escalationPaths),
              users: bindingOrUndefined(t.users, mine?.users),
            };
          }),
    incidentId: live.incident_id,
    notificationMessage: live.notification_message,
    notifyChannels:
      channels === undefined || (channels.length === 0 && declared?.notifyChannels === undefined)
        ? declared?.notifyChannels === undefined
          ? undefined
          : []
        : channels.map((c) => ({
            channelId: c.channel_id,
            channelType: c.channel_type,
            channelName: c.channel_name,
          })),
    notifyStartMinutesBefore: live.notify_start_minutes_before,
    notifyEndMinutesBefore: live.notify_end_minutes_before,
    rerouteOnEnd: live.reroute_on_end,
    resolveOnEnd: live.resolve_on_end,
  };
}

/** Canonical form for diffs: timestamps by instant, engine blocks by meaning, e-mail addresses in any case. */
function canonicalMaintenanceWindow(args: MaintenanceWindowInputs): Props {
  return {
    ...args,
    startAt: instantText(args.startAt),
    endAt: instantText(args.endAt),
    lead: canonicalUserReference(args.lead),
    alertConditionGroups: canonicalConditionGroups(args.alertConditionGroups as ConditionGroup[]),
    escalationTargets:
      args.escalationTargets?.length === 0
        ? undefined
        : args.escalationTargets?.map((t) => ({
            escalationPaths: t.escalationPaths && canonicalBinding(t.escalationPaths),
            users: t.users && canonicalBinding(t.users),
          })),
    notifyChannels: args.notifyChannels?.length === 0 ? undefined : args.notifyChannels,
  };
}

/**
 * A maintenance window (API v1): while it is active, alerts matching `alertConditionGroups` are
 * held back, escalated to `escalationTargets` or attached to `incidentId`. The `lead` is a user by
 * id, e-mail address or Slack user id.
 *
 * Deleting archives it; an active window cannot be archived, so destroy it once it has ended (or
 * move `endAt` into the past first). Adopt an existing window with `adoptId`.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const migration = new incident.MaintenanceWindow("db-migration", {
 *   name: "Database migration",
 *   startAt: "2099-04-01T22:00:00Z",
 *   endAt: "2099-04-02T02:00:00Z",
 *   lead: { email: "ada@example.com" }, // or { id } or { slackUserId }
 *   alertConditionGroups: [
 *     { conditions: [{ subject: "alert.title", operation: "one_of", paramBindings: [{ arrayValue: [{ literal: "database" }] }] }] },
 *   ],
 *   resolveOnEnd: true,
 * });
 * ```
 */
export const maintenanceWindowSpec: ResourceSpec<MaintenanceWindowInputs, ApiMaintenanceWindow> = {
  kind: "MaintenanceWindow",
  title: "maintenance window",
  schemaVersion: 1,
  inputs: maintenanceWindowInputs,
  validate: endsAfterStart,
  replaceOnChanges: [],
  secretOutputs: [],
  computedOutputs: ["leadId"],
  canonical: canonicalMaintenanceWindow,
  idOf: (live) => live.id,
  // MaintenanceWindowsV1List answers MaintenanceWindowV1, as show does (paginated; no `status`:
  // every window). An archived window is gone for the stack, as on read: never served from the pages
  // (the list leaves archived windows out; were one listed, the read's GET would say it is gone).
  list: {
    path: "/v1/maintenance_windows",
    itemsKey: "maintenance_windows",
    operation: "list maintenance windows",
    pageSize: 250,
    find: (items: ApiMaintenanceWindow[], id) =>
      items.find((w) => w.id === id && w.archived_at === undefined),
  },
  // For `pulumi-incident export`: archived windows are gone for a stack, as on read.
  listAll: async (ctx) =>
    (
      await walkList(ctx.client, {
        path: "/v1/maintenance_windows",
        itemsKey: "maintenance_windows",
        operation: "list maintenance windows",
        pageSize: 25,
      })
    ).filter((w) => w.archived_at === undefined),
  toInputs: maintenanceWindowFromApi,
  computed: (live) => ({ leadId: live.lead?.user?.id }),
  api: {
    ...windows,
    async read(ctx, id, prior) {
      const live = await windows.read(ctx, id, prior);
      // Archived (deleted) windows are still shown by the API: for the stack they are gone.
      return live?.archived_at === undefined ? live : undefined;
    },
    async delete(ctx, id, olds) {
      try {
        await windows.delete(ctx, id, olds);
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          throw new ApiError({
            ...error.init,
            hint: `an active maintenance window cannot be archived: it is active until ${String(olds.endAt)}; destroy it after that, or first set endAt to a time already past and run \`pulumi up\``,
          });
        }
        throw error;
      }
    },
    async findCreated(ctx, args) {
      const all = await ctx.client.listAll<ApiMaintenanceWindow>(
        "/v1/maintenance_windows",
        "maintenance_windows",
        "list maintenance windows",
      );
      const start = Date.parse(args.startAt);
      return newestMatching(
        all,
        (w) => w.name === args.name && Date.parse(w.start_at) === Math.floor(start / 1000) * 1000,
      );
    },
    recoveryKey: (args) => `${args.name}@${args.startAt}`,
  },
};

export const maintenanceWindowProvider = makeProvider(maintenanceWindowSpec);

// ---------- getMaintenanceWindow ----------

/** Arguments of `getMaintenanceWindow`. */
export const getMaintenanceWindowArgs = z.strictObject({
  /** Exact name of the maintenance window (archived windows are not searched). */
  name: lookupName(),
});
export type GetMaintenanceWindowArgs = z.input<typeof getMaintenanceWindowArgs>;

/** A maintenance window of the account (not archived). */
export interface GetMaintenanceWindowResult {
  /** The window's id: use it as an `adoptId`. */
  id: string;
  name: string;
  /** When the window starts (RFC 3339). */
  startAt: string;
  /** When the window ends (RFC 3339). */
  endAt: string;
  /** Id of the window's lead. */
  leadId: string | undefined;
  /** Whether the window is shown in the dashboard's sidebar. */
  showInSidebar: boolean;
}

/**
 * Finds a maintenance window by exact name: `GET /v1/maintenance_windows` (API v1, paginated, every
 * page read), archived windows left out (for a stack they are gone).
 */
export async function findMaintenanceWindowByName(
  client: ApiClient,
  name: string,
): Promise<GetMaintenanceWindowResult> {
  const all = await client.listAll<ApiMaintenanceWindow>(
    "/v1/maintenance_windows",
    "maintenance_windows",
    "list maintenance windows",
    {},
    25,
  );
  const live = all.filter((w) => w.archived_at === undefined);
  const w = pickByName(live, name, "getMaintenanceWindow", "maintenance window");
  return {
    id: w.id,
    name: w.name,
    startAt: w.start_at,
    endAt: w.end_at,
    leadId: w.lead?.user?.id,
    showInSidebar: w.show_in_sidebar,
  };
}

const maintenanceWindowLookup = defineLookup({
  name: "getMaintenanceWindow",
  args: getMaintenanceWindowArgs,
  run: (client, args) => findMaintenanceWindowByName(client, args.name),
});

/** Finds a maintenance window by name; fails when there is none (or several share it). */
export const getMaintenanceWindow = maintenanceWindowLookup.get;
/** `getMaintenanceWindow` taking Inputs and answering an Output. */
export const getMaintenanceWindowOutput = maintenanceWindowLookup.getOutput;
