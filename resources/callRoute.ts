/**
 * CallRoute: what a call to one of the account's phone numbers does (`GET /v2/call_routes`,
 * `GET/PUT /v2/call_routes/{id}`; answers hold the route under `call_route`). API v2 is the only
 * version. A partial family (shared/api/NEWER.md "call_routes"): the newer clients give the update
 * payload only (`CallRoutesUpdatePayloadV2`); the answers are taken to hold the same fields and the
 * route's id, wrapped as every other v2 answer.
 *
 * No create or delete in the API: a call route comes with a number bought in the dashboard. The
 * resource takes an existing route over (`callRouteId`): its create reads the route, keeps what it
 * held in the `previous` output and writes the declared settings (no write when they are already
 * the route's); its delete writes `previous` back and warns that the route itself is not deleted.
 * `previous` is written back, not left, because what a stack declared usually pages through what
 * the same stack made (its escalation paths, its schedules), which its destroy deletes: a route left
 * pointing at them would page nobody.
 *
 * Managed: `name`, `customLanguage`, `responderCallerId`, `useCallerAllowlist` and, when declared,
 * `path` (level nodes paging targets as an escalation path's levels do, voicemail nodes with a
 * greeting). Not managed: the route's allowed callers and its phone-tree menu options, whose
 * payloads the shapes do not give. A declared `path` retires the route's phone-tree menu (the
 * API's rule); that menu cannot be put back through the API, so a delete that restores a route
 * that had a menu leaves the stack's path in place and says so. Leaving `path` out keeps the
 * route's routing (its menu or its path) as it is: the update sends the empty path that means so.
 *
 * Check: everything the provider can know offline. `useCallerAllowlist: true` needs at least one
 * allowed caller on the route, which the provider cannot see: the API's refusal names
 * `useCallerAllowlist`. `customLanguage`'s values were not read from the API: any non-empty tag is
 * sent (e.g. `en-US`) and the API's refusal names the input.
 *
 * Concurrency: the update payload carries no version: a dashboard edit between a read and a write
 * is overwritten (the last write wins), and a refresh shows it as drift before that.
 *
 * Export: every route is exported, adopted by id (`adoptId` and `callRouteId`); its first `up`
 * writes nothing, and `previous` is then the route as exported, so destroying the exported stack
 * leaves every route as it is.
 *
 * Normalisation: a node sent without an id carries one derived from its position (`node-0`), which
 * reads back as no id (rule "generated node ids", as escalation paths); repeated targets of a level
 * collapse (rule "duplicated target users"); an empty `schedule_mode` reads as unset.
 */
import { z } from "zod";
import { knownValues, passedOn, warnIn, warnUnless } from "../provider/checkWarnings";
import { ApiError } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { freeText, idText, nameText } from "../provider/inputs";
import { itemPath } from "../provider/restApi";
import type { ApiContext, Created, Problem, Props, ResourceSpec } from "../provider/spec";
import { type EscalationTarget, targetsFromApi } from "./escalationPath";
import {
  type ApiTarget,
  canonicalTargets,
  escalationTarget,
  generatedNodeId,
  noDuplicateTargets,
  targetPayload,
} from "./shared/escalationNodes";

const COLLECTION = "/v2/call_routes";
export const RESPONDER_CALLER_IDS = ["route_number", "oncall_number"] as const;
/** Node kinds: each node sets exactly one of these (the API's node `type`). */
const NODE_KINDS = ["level", "voicemail"] as const;

/** One step of a call route's path: page targets (`level`) or take a voicemail. */
export interface CallRouteNode {
  /** Id of the node; when omitted, one derived from its position (`node-0`, …) is sent. */
  id?: string;
  /** Page these targets, as an escalation path's level does. */
  level?: {
    /** Users, schedules and channels to page (at least one). */
    targets: EscalationTarget[];
  };
  /** Take a voicemail. */
  voicemail?: {
    /** What the caller hears before the tone. */
    greetingText?: string;
  };
}

const callRouteNode = z
  .strictObject({
    id: idText().optional(),
    level: z
      .strictObject({
        targets: z
          .array(escalationTarget)
          .superRefine(warnUnless((v: unknown[]) => v.length > 0, "has no target")),
      })
      .superRefine((l, ctx) => noDuplicateTargets(l.targets, ctx))
      .optional(),
    voicemail: z.strictObject({ greetingText: freeText().optional() }).optional(),
  })
  .superRefine((n, ctx) => {
    // Our input model: a node's `type` is the one property it sets (none or two cannot be sent).
    const set = NODE_KINDS.filter((k) => n[k] !== undefined);
    if (set.length !== 1)
      ctx.addIssue({
        code: "custom",
        path: [],
        message:
          set.length === 0
            ? "a node needs one of level, voicemail"
            : "a node takes exactly one of level, voicemail (got both)",
      });
  });

/** Inputs of a call route (API v2): an existing route, taken over. */
export const callRouteInputs = z.strictObject({
  /**
   * The id of the call route to take over (from the dashboard or `GET /v2/call_routes`): call routes
   * cannot be created through the API, only changed. Changing it takes another route over (and puts
   * this one back as it was).
   */
  // Our URL's path parameter (`/v2/call_routes/{id}`): an empty one names no route.
  callRouteId: z.string().min(1, "must not be empty"),
  /** The route's name, e.g. `Payments hotline`. */
  name: nameText(),
  /** The language callers hear, as a language tag, e.g. `en-US` (the API checks the values it supports). */
  customLanguage: idText(),
  /** The number responders see calling: `route_number` (the route's own) or `oncall_number` (an incident.io on-call number). */
  // reference-newer: CallRoutesUpdatePayloadV2.responder_caller_id (route_number, oncall_number)
  responderCallerId: knownValues(RESPONDER_CALLER_IDS),
  /**
   * Only callers on the route's allowlist get through. The allowlist itself is managed in the
   * dashboard; the API refuses `true` while it is empty.
   */
  useCallerAllowlist: z.boolean(),
  /**
   * What a call does, in order: levels paging targets, and voicemail. Writing it retires the route's
   * phone-tree menu, if it has one. Leave it out to keep the route's routing (its menu or its path)
   * as it is.
   */
  // reference-newer: CallRoutesUpdatePayloadV2.path ("send an empty list to keep the menu"): an empty
  // path is the API's, warned about (leaving it out says the same).
  path: z
    .array(callRouteNode)
    .superRefine((v, ctx) => {
      if (v.length === 0)
        warnIn(ctx, "is empty: the API keeps the route's routing as it is (leave path out to say so)");
    })
    .optional(),
  /** Same as `callRouteId` when given (the route is always taken over; it is never created). */
  adoptId: z.string().min(1).optional(),
});

export type CallRouteInputs = z.infer<typeof callRouteInputs>;

/** What the route held before this resource took it over (its delete writes it back). */
export interface CallRoutePrevious {
  name: string;
  customLanguage: string;
  responderCallerId: (typeof RESPONDER_CALLER_IDS)[number];
  useCallerAllowlist: boolean;
  /** The route's path (in the inputs' form, node ids explicit); empty when it routed by a menu. */
  path: CallRouteNode[];
}

export interface CallRouteComputed {
  /** What the route held before this resource took it over: its delete writes it back. */
  previous: CallRoutePrevious;
}

/** A path node as the API answers it. */
export interface ApiCallRouteNode {
  id: string;
  type: string;
  level?: { targets: ApiTarget[] };
  voicemail?: { greeting_text?: string };
}

/** CallRouteV2 (modelled on the update payload, with the route's id). */
export interface ApiCallRoute {
  id: string;
  name: string;
  custom_language: string;
  responder_caller_id: (typeof RESPONDER_CALLER_IDS)[number];
  use_caller_allowlist: boolean;
  path: ApiCallRouteNode[];
}

function nodesPayload(nodes: readonly CallRouteNode[]): ApiCallRouteNode[] {
  return nodes.map((n, i) => ({
    id: n.id ?? generatedNodeId([i]),
    type: n.level ? "level" : "voicemail",
    ...(n.level ? { level: { targets: n.level.targets.map(targetPayload) } } : {}),
    ...(n.voicemail
      ? {
          voicemail:
            n.voicemail.greetingText !== undefined ? { greeting_text: n.voicemail.greetingText } : {},
        }
      : {}),
  }));
}

/** CallRoutesUpdatePayloadV2: every field; an undeclared path is the empty one (keep the routing). */
export function callRoutePayload(args: Omit<CallRouteInputs, "callRouteId"> | CallRoutePrevious): Props {
  return {
    name: args.name,
    custom_language: args.customLanguage,
    responder_caller_id: args.responderCallerId,
    use_caller_allowlist: args.useCallerAllowlist,
    path: nodesPayload(args.path ?? []),
  };
}

/** Rule "generated node ids": a position-derived id the declaration left out reads back as none. */
function nodesFromApi(live: readonly ApiCallRouteNode[], declared: readonly CallRouteNode[] | undefined) {
  return live.map((n, i): CallRouteNode => {
    const id =
      declared?.[i] !== undefined && declared[i]!.id === undefined && n.id === generatedNodeId([i])
        ? undefined
        : n.id;
    return {
      ...(id !== undefined ? { id } : {}),
      ...(n.type === "level" ? { level: { targets: targetsFromApi(n.level?.targets ?? []) } } : {}),
      ...(n.type === "voicemail"
        ? {
            voicemail:
              n.voicemail?.greeting_text !== undefined ? { greetingText: n.voicemail.greeting_text } : {},
          }
        : {}),
    };
  });
}

export function callRouteFromApi(live: ApiCallRoute, declared: CallRouteInputs | undefined): CallRouteInputs {
  const path = live.path ?? [];
  return {
    callRouteId: live.id,
    name: live.name,
    customLanguage: live.custom_language,
    responderCallerId: live.responder_caller_id,
    useCallerAllowlist: live.use_caller_allowlist,
    // An undeclared path is not managed; one routing by a menu (no path) has none to declare.
    path:
      (declared !== undefined && declared.path === undefined) || path.length === 0
        ? undefined
        : nodesFromApi(path, declared?.path),
  };
}

/** Canonical form for diffs: explicit node ids, targets in one key order, repeated targets once. */
function canonicalCallRoute(args: CallRouteInputs): Props {
  return {
    ...args,
    path: args.path?.map((n, i) => ({
      ...n,
      id: n.id ?? generatedNodeId([i]),
      level: n.level && { targets: canonicalTargets(n.level.targets) },
    })),
  };
}

export function validateCallRoute(args: CallRouteInputs): Problem[] {
  const problems: Problem[] = [];
  // Our own inputs (`adoptId` names the route `callRouteId` names).
  if (args.adoptId !== undefined && args.adoptId !== args.callRouteId)
    problems.push({
      path: ["adoptId"],
      message: `must be callRouteId (${args.callRouteId}) when given: the route taken over is callRouteId`,
      dependsOn: [["callRouteId"]],
    });
  const seen = new Map<string, number>();
  (args.path ?? []).forEach((n, i) => {
    const id = n?.id ?? generatedNodeId([i]);
    const earlier = seen.get(id);
    if (earlier !== undefined)
      problems.push({
        path: ["path", i, "id"],
        // Unique within an escalation path (EscalationPathNodeV2.id); a call route's node shape is
        // not published: warned.
        message: passedOn(`${JSON.stringify(id)} is also path[${earlier}]'s id`),
        dependsOn: [["path", "*", "id"]],
        severity: "warning",
      });
    else seen.set(id, i);
  });
  return problems;
}

const asPrevious = (live: ApiCallRoute): CallRoutePrevious => ({
  name: live.name,
  customLanguage: live.custom_language,
  responderCallerId: live.responder_caller_id,
  useCallerAllowlist: live.use_caller_allowlist,
  path: nodesFromApi(live.path ?? [], undefined),
});

async function showRoute(ctx: ApiContext, id: string): Promise<ApiCallRoute> {
  return (await ctx.client.get<{ call_route: ApiCallRoute }>(itemPath(COLLECTION, id), "show call route"))
    .call_route;
}

/** PUTs the settings; a refused allowlist says what the provider cannot do about it. */
async function putRoute(
  ctx: ApiContext,
  id: string,
  payload: Props,
  operation: string,
): Promise<ApiCallRoute> {
  try {
    return (await ctx.client.put<{ call_route: ApiCallRoute }>(itemPath(COLLECTION, id), operation, payload))
      .call_route;
  } catch (error) {
    if (error instanceof ApiError && error.fields.includes("use_caller_allowlist"))
      throw new ApiError({
        ...error.init,
        hint: "add an allowed caller to the route in the dashboard first (this provider does not manage them), or set useCallerAllowlist: false",
      });
    throw error;
  }
}

/** Same settings (by meaning) as the declaration? Then a create writes nothing. */
const holds = (live: ApiCallRoute, args: CallRouteInputs) =>
  JSON.stringify(canonicalCallRoute(callRouteFromApi(live, args))) ===
  JSON.stringify(canonicalCallRoute({ ...args, adoptId: undefined }));

/**
 * A call route (API v2): what a call to one of the account's phone numbers does: its name, the
 * language callers hear, the number responders see calling, whether only allowlisted callers get
 * through, and its path (levels paging users, schedules or channels; voicemail).
 *
 * Call routes cannot be created or deleted through the API: the resource takes an existing route
 * over by `callRouteId`. Creating the resource keeps what the route held in `previous` and writes
 * the declared settings; deleting it (`pulumi destroy`, or removing it from the program) writes
 * `previous` back and warns that the call route itself is not deleted. Declare at most one
 * `CallRoute` per route (two would overwrite each other).
 *
 * A declared `path` retires the route's phone-tree menu, which cannot be put back through the API;
 * leave `path` out to keep the route's routing. The route's allowed callers and menu options are
 * not managed (their payloads are not in the API's shapes): manage them in the dashboard.
 * `useCallerAllowlist: true` needs at least one allowed caller: the API's refusal names the input.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * declare const payments: incident.Schedule;
 * new incident.CallRoute("payments-hotline", {
 *   callRouteId: "01H8N5K2ZQ7V3XGJ4B6T9WCDRE", // from the dashboard or GET /v2/call_routes
 *   name: "Payments hotline",
 *   customLanguage: "en-GB",
 *   responderCallerId: "route_number",
 *   useCallerAllowlist: false,
 *   path: [
 *     { level: { targets: [{ type: "schedule", id: payments.id, urgency: "high", scheduleMode: "currently_on_call" }] } },
 *     { voicemail: { greetingText: "Nobody could take your call: leave a message and we will call you back." } },
 *   ],
 * });
 * ```
 */
export const callRouteSpec: ResourceSpec<CallRouteInputs, ApiCallRoute> = {
  kind: "CallRoute",
  title: "call route",
  schemaVersion: 1,
  inputs: callRouteInputs,
  validate: validateCallRoute,
  // Another id is another route: take it over, then put this one back.
  replaceOnChanges: ["callRouteId"],
  deleteBeforeReplace: false,
  secretOutputs: [],
  computedOutputs: ["previous"],
  canonical: (args) => canonicalCallRoute(args) as CallRouteInputs,
  idOf: (live) => live.id,
  // CallRoutesV2List answers the routes as show does (paginated): reads by page, and for `pulumi-incident
  // export` every route, adopted (export writes `adoptId` and `callRouteId`; its first `up` writes nothing).
  list: { path: COLLECTION, itemsKey: "call_routes", operation: "list call routes", pageSize: 100 },
  toInputs: callRouteFromApi,
  // On an adoption (`adoptId`) nothing is stored yet: the route as read is what it held.
  computed: (live, prior) => ({
    previous: (prior?.previous as CallRoutePrevious | undefined) ?? asPrevious(live),
  }),
  api: {
    async create(ctx, args): Promise<Created<ApiCallRoute>> {
      const before = await showRoute(ctx, args.callRouteId).catch((error) => {
        if (error instanceof ApiError && error.isNotFound)
          throw new ApiError({
            ...error.init,
            hint: `no call route with id ${args.callRouteId}: call routes cannot be created through the API, only taken over; find the id in the dashboard or with GET /v2/call_routes`,
          });
        throw error;
      });
      const previous = asPrevious(before);
      const live = holds(before, args)
        ? before
        : await putRoute(ctx, args.callRouteId, callRoutePayload(args), "update call route");
      return { live, extraOutputs: { previous } };
    },
    read: (ctx, id) => showRoute(ctx, id),
    async update(ctx, id, args, olds) {
      const live = await putRoute(ctx, id, callRoutePayload(args), "update call route");
      // Kept through every update (an adoption's olds hold the route as read before this write).
      return { live, extraOutputs: olds.previous !== undefined ? { previous: olds.previous } : {} };
    },
    async delete(ctx, id, olds) {
      const previous = olds.previous as CallRoutePrevious | undefined;
      const name = String(olds.name ?? id);
      if (previous === undefined) {
        ctx.client.warn(
          `CallRoute ${name}: call route ${id} is not deleted (the API cannot delete call routes), and nothing was recorded of what it held before: it keeps the stack's settings`,
        );
        return;
      }
      await putRoute(ctx, id, callRoutePayload(previous), "restore call route");
      const menuLost = previous.path.length === 0 && Array.isArray(olds.path) && olds.path.length > 0;
      ctx.client.warn(
        `CallRoute ${name}: call route ${id} is not deleted (the API cannot delete call routes): its settings were put back to what they were before the stack took it over (name ${JSON.stringify(previous.name)})` +
          (menuLost
            ? "; its phone-tree menu, retired when the stack wrote its path, cannot be put back through the API: the route keeps the stack's path until the menu is rebuilt in the dashboard"
            : ""),
      );
    },
    // One resource per route: a create whose answer was lost is found by reading the route.
    recoveryKey: (args) => args.callRouteId,
  },
};

export const callRouteProvider = makeProvider(callRouteSpec);
