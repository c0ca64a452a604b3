/**
 * CallRoute: what a call to one of the account's phone numbers does (`GET /v2/call_routes`,
 * `GET/PUT /v2/call_routes/{id}`), who may call it (`…/{call_route_id}/allowed_callers[/{id}]`) and
 * its phone-tree menu (`…/{call_route_id}/options[/{id}]`). API v2 is the only version. Shapes from
 * the newer clients (emulator/reference-newer.json "call_routes": sdk-python openapi.json @
 * a8b5b232, its api modules @ e8fe98ff): `CallRouteV2` answers the route's allowed callers and menu
 * options inline, so one read sees everything the resource manages.
 *
 * No create or delete of call routes in the API ("Create and delete them in the dashboard"): a call
 * route comes with a number bought in the dashboard. The resource takes an existing route over
 * (`callRouteId`): its create reads the route, keeps what it held (settings, path, allowed callers,
 * menu) in the `previous` output and writes the declared settings (nothing when the route already
 * holds them); its delete writes `previous` back and warns that the route itself is not deleted.
 * `previous` is written back, not left, because what a stack declared usually pages through what
 * the same stack made (its escalation paths, its schedules), which its destroy deletes: a route left
 * pointing at them would page nobody.
 *
 * Managed: `name`, `customLanguage`, `responderCallerId`, `useCallerAllowlist` and, when declared,
 * `path` (level nodes paging users and schedules, voicemail nodes with a greeting), `allowedCallers`
 * (the numbers allowed to call: the whole list, by number; unset = not managed) and `options` (the
 * phone-tree menu: the whole list, by digit; unset = not managed). A route routes by its path or by
 * its menu, never both (the API: a non-empty path "retires any phone-tree menu", the first option
 * "clears that path"): a declared `path` with a non-empty `options` is refused at check. Leaving
 * `path` out keeps the route's routing as it is (the update sends the empty path that means so),
 * unless `options` says otherwise.
 *
 * Allowed callers and options are reconciled by id, in an order the API accepts: callers are added
 * (or renumbered in place) before the route's settings are written (`useCallerAllowlist: true`
 * "needs at least one allowed caller") and removed after (the last one cannot go while the
 * allowlist is on); options are matched by digit and changed in place, an option whose digit is
 * gone is moved to a new digit rather than deleted and made again, and removals come last (so the
 * menu never holds more options than before or after: "every plan allows a single option"). A
 * create of a caller or option whose answer is lost is looked for on the route (by number, by
 * digit) before it is sent again. Their ids are outputs (`allowedCallerIds` by number, `optionIds`
 * by digit). A failure half-way through a create still records the route and what it held
 * (the engine keeps it half-created), so nothing the route held is forgotten.
 *
 * The delete writes `previous` back whole, as it does the settings: the path, the allowed callers
 * and the menu as they were (options and callers the stack removed are made again, with new ids;
 * an option's path keeps its node ids), so nothing the route held is lost, even what an update
 * that failed half-way changed.
 *
 * Check: everything the provider can know offline, each from the reference: `useCallerAllowlist:
 * true` with `allowedCallers: []` ("needs at least one allowed caller"); two options on one digit
 * ("two live options can't share a digit"); a path and a menu together; `prompt` and `greetingText`
 * longer than 250 characters (maxLength 250); a voicemail node without `greetingText` (required).
 * Not refused, the API answers (its 422 named by input path): a phone number's format
 * ("international format"; no pattern published), a digit outside 1-9 (the enum may grow), a
 * language outside the known list (`en-US`, `en-GB`, `fr-FR`, `es-ES`, `pt-PT`, `pt-BR`, `de-DE`,
 * `nl-NL`), a menu of two or more options on a plan that allows one, the last option of a route
 * without a path.
 *
 * Concurrency: the update payloads carry no version: a dashboard edit between a read and a write
 * is overwritten (the last write wins), and a refresh shows it as drift before that.
 *
 * Export: every route is exported, adopted by id (`adoptId` and `callRouteId`) with its allowed
 * callers and menu; its first `up` writes nothing, and `previous` is then the route as exported, so
 * destroying the exported stack leaves every route as it is.
 *
 * Normalisation: a node sent without an id carries one derived from its position (`node-0`; in an
 * option's path `node-option-<digit>-0`), which reads back as no id (rule "generated node ids", as
 * escalation paths); repeated targets of a level collapse (rule "duplicated target users"); an
 * empty `schedule_mode` reads as unset; allowed callers compare as a set (by number), options by
 * digit (the order they are declared in is not the API's).
 */
import { z } from "zod";
import { knownValues, passedOn, warnIn } from "../provider/checkWarnings";
import { ApiError } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { freeText, idText, nameText } from "../provider/inputs";
import { itemPath } from "../provider/restApi";
import {
  type ApiContext,
  type Created,
  PartialCreateError,
  type Problem,
  type Props,
  type ResourceSpec,
} from "../provider/spec";
import { type EscalationTarget, targetsFromApi } from "./escalationPath";
import {
  type ApiTarget,
  canonicalTargets,
  escalationTarget,
  generatedNodeId,
  noDuplicateTargets,
  oneNodeKind,
  targetList,
  targetPayload,
} from "./shared/escalationNodes";

const COLLECTION = "/v2/call_routes";
export const RESPONDER_CALLER_IDS = ["route_number", "oncall_number"] as const;
/** Node kinds: each node sets exactly one of these (the API's node `type`). */
const NODE_KINDS = ["level", "voicemail"] as const;
/** `prompt` and `greeting_text`: maxLength 250 (CallRouteOptionV2, CallRoutePathNodeVoicemailV2). */
export const SPOKEN_TEXT_MAX = 250;

/** One step of a call route's path: page targets (`level`) or take a voicemail. */
export interface CallRouteNode {
  /** Id of the node; when omitted, one derived from its position (`node-0`, …) is sent. */
  id?: string;
  /** Page these targets, as an escalation path's level does. */
  level?: {
    /** Users and schedules to page (at least one). */
    targets: EscalationTarget[];
  };
  /** Take a voicemail. */
  voicemail?: {
    /** What the caller hears before the tone (at most 250 characters). */
    greetingText: string;
  };
}

/** The languages the route speaks (reference-newer: CallRoutesUpdatePayloadV2.custom_language enum). */
export const CUSTOM_LANGUAGES = [
  "en-US",
  "en-GB",
  "fr-FR",
  "es-ES",
  "pt-PT",
  "pt-BR",
  "de-DE",
  "nl-NL",
] as const;

/** What is read out: the API reads it "exactly as written", at most 250 characters. */
// reference-newer: CallRouteOptionV2.prompt, CallRoutePathNodeVoicemailV2.greeting_text (maxLength 250)
const spokenText = () =>
  freeText().max(SPOKEN_TEXT_MAX, `must be at most ${SPOKEN_TEXT_MAX} characters (the API's limit)`);

const callRouteNode = z
  .strictObject({
    /** Id of the node; when omitted, one derived from its position (`node-0`, …) is sent. */
    id: idText().optional(),
    /** Page these targets, as an escalation path's level does. */
    level: z
      .strictObject({
        /** Users and schedules to page (at least one). */
        targets: targetList(escalationTarget, "target"),
      })
      .superRefine((l, ctx) => noDuplicateTargets(l.targets, ctx))
      .optional(),
    /** Take a voicemail. */
    voicemail: z
      .strictObject({
        /** What the caller hears before the tone (required by the API, at most 250 characters). */
        greetingText: spokenText(),
      })
      .optional(),
  })
  .superRefine((n, ctx) => oneNodeKind(NODE_KINDS, n, ctx));

/** A number allowed to call the route (CallRouteAllowedCallerV2). */
const allowedCaller = z.strictObject({
  /** The number, in international format, e.g. `+15551234567` (the API checks the format). */
  phoneNumber: idText(),
  /** Whose number this is, e.g. `Regulator duty desk`. */
  name: freeText().optional(),
});

export type CallRouteAllowedCaller = z.output<typeof allowedCaller>;

/** One entry of the route's phone-tree menu (CallRouteOptionV2). */
const menuOption = z.strictObject({
  /** The keypad digit a caller presses to choose it: `1` to `9` (no two options share one). */
  // reference-newer: CallRoutesCreateOptionPayloadV2.digit enum
  digit: knownValues(["1", "2", "3", "4", "5", "6", "7", "8", "9"]),
  /** What is read out to offer it, in the route's language (at most 250 characters), e.g. `For an urgent outage, press 1`. */
  prompt: spokenText(),
  /** Who is paged when a caller chooses it: levels and voicemail, as the route's own path. */
  path: z.array(callRouteNode),
});

export type CallRouteOption = z.output<typeof menuOption>;

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
  /**
   * The language callers hear, as a language tag: `en-US`, `en-GB`, `fr-FR`, `es-ES`, `pt-PT`,
   * `pt-BR`, `de-DE` or `nl-NL` today (the API checks the values it supports).
   */
  // reference-newer: CallRoutesUpdatePayloadV2.custom_language enum
  customLanguage: knownValues(CUSTOM_LANGUAGES),
  /** The number responders see calling: `route_number` (the route's own) or `oncall_number` (an incident.io on-call number). */
  // reference-newer: CallRoutesUpdatePayloadV2.responder_caller_id (route_number, oncall_number)
  responderCallerId: knownValues(RESPONDER_CALLER_IDS),
  /**
   * Only callers on the route's allowlist get through. The API refuses `true` while the route has
   * no allowed caller: declare `allowedCallers` (at least one), or add them in the dashboard.
   */
  useCallerAllowlist: z.boolean(),
  /**
   * What a call does, in order: levels paging targets, and voicemail. Writing it retires the route's
   * phone-tree menu, if it has one (so it cannot be declared with a non-empty `options`). Leave it
   * out to keep the route's routing (its menu or its path) as it is.
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
  /**
   * The numbers allowed to call the route (enforced when `useCallerAllowlist` is true): the whole
   * list, compared by number. Leave it out to keep the route's allowed callers as they are.
   */
  allowedCallers: z.array(allowedCaller).optional(),
  /**
   * The route's phone-tree menu: callers hear the prompts and press a digit, and each option pages
   * its own path. A menu replaces the route's path (the first option clears it): leave `path` out
   * when you declare options. `[]` removes the menu (the route then needs a `path`). Leave it out
   * to keep the route's menu as it is. A menu of two or more options is not on every plan.
   */
  options: z.array(menuOption).optional(),
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
  /** Its allowed callers (absent in a state recorded before they were managed). */
  allowedCallers?: CallRouteAllowedCaller[];
  /** Its menu (node ids explicit; absent in a state recorded before menus were managed). */
  options?: CallRouteOption[];
}

export interface CallRouteComputed {
  /** What the route held before this resource took it over: its delete writes it back. */
  previous: CallRoutePrevious;
  /** The id of each allowed caller of the route, by phone number. */
  allowedCallerIds: Record<string, string>;
  /** The id of each option of the route's menu, by digit. */
  optionIds: Record<string, string>;
}

/** A path node as the API answers it (CallRoutePathNodeV2). */
export interface ApiCallRouteNode {
  id: string;
  type: string;
  level?: { targets: ApiTarget[] };
  voicemail?: { greeting_text?: string };
}

/** CallRouteAllowedCallerV2. */
export interface ApiAllowedCaller {
  id: string;
  phone_number: string;
  name?: string;
}

/** CallRouteOptionV2. */
export interface ApiOption {
  id: string;
  digit: string;
  prompt: string;
  path: ApiCallRouteNode[];
}

/** CallRouteV2 (the fields the resource reads). */
export interface ApiCallRoute {
  id: string;
  name: string;
  custom_language: string;
  responder_caller_id: (typeof RESPONDER_CALLER_IDS)[number];
  use_caller_allowlist: boolean;
  path: ApiCallRouteNode[];
  allowed_callers?: ApiAllowedCaller[];
  options?: ApiOption[];
}

/** Where a node's generated id comes from: its position, in the route's path or an option's. */
type NodeIds = (position: number) => string;
const routeNodeIds: NodeIds = (i) => generatedNodeId([i]);
const optionNodeIds =
  (digit: string): NodeIds =>
  (i) =>
    generatedNodeId(["option", digit, i]);

function nodesPayload(nodes: readonly CallRouteNode[], ids: NodeIds = routeNodeIds): ApiCallRouteNode[] {
  return nodes.map((n, i) => ({
    id: n.id ?? ids(i),
    type: n.level ? "level" : "voicemail",
    ...(n.level ? { level: { targets: n.level.targets.map(targetPayload) } } : {}),
    ...(n.voicemail ? { voicemail: { greeting_text: n.voicemail.greetingText } } : {}),
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

/** CallRoutesCreateAllowedCallerPayloadV2 (= the update payload). */
const callerPayload = (c: CallRouteAllowedCaller): Props => ({
  phone_number: c.phoneNumber,
  ...(c.name !== undefined ? { name: c.name } : {}),
});

/** CallRoutesCreateOptionPayloadV2 (= the update payload). */
const optionPayload = (o: CallRouteOption): Props => ({
  digit: o.digit,
  prompt: o.prompt,
  path: nodesPayload(o.path, optionNodeIds(o.digit)),
});

/** Rule "generated node ids": a position-derived id the declaration left out reads back as none. */
function nodesFromApi(
  live: readonly ApiCallRouteNode[],
  declared: readonly CallRouteNode[] | undefined,
  ids: NodeIds = routeNodeIds,
) {
  return live.map((n, i): CallRouteNode => {
    const id =
      declared?.[i] !== undefined && declared[i]!.id === undefined && n.id === ids(i) ? undefined : n.id;
    return {
      ...(id !== undefined ? { id } : {}),
      ...(n.type === "level" ? { level: { targets: targetsFromApi(n.level?.targets ?? []) } } : {}),
      ...(n.type === "voicemail" ? { voicemail: { greetingText: n.voicemail?.greeting_text ?? "" } } : {}),
    };
  });
}

const callerFromApi = (c: ApiAllowedCaller): CallRouteAllowedCaller => ({
  phoneNumber: c.phone_number,
  ...(c.name !== undefined && c.name !== "" ? { name: c.name } : {}),
});

const optionFromApi = (o: ApiOption, declared: CallRouteOption | undefined): CallRouteOption => ({
  digit: o.digit,
  prompt: o.prompt,
  path: nodesFromApi(o.path ?? [], declared?.path, optionNodeIds(o.digit)),
});

/**
 * The live items in the declaration's order: each declared item takes the first live item with its
 * key not taken yet; the live items no declaration names follow, in the API's order.
 */
function inDeclaredOrder<L, D>(
  live: readonly L[],
  declared: readonly D[] | undefined,
  key: (x: L | D) => string,
) {
  const rest = [...live];
  const ordered: { live: L; declared?: D }[] = [];
  for (const d of declared ?? []) {
    const i = rest.findIndex((l) => key(l) === key(d));
    if (i >= 0) ordered.push({ live: rest.splice(i, 1)[0]!, declared: d });
  }
  return [...ordered, ...rest.map((l): { live: L; declared?: D } => ({ live: l }))];
}

const phoneOf = (c: ApiAllowedCaller | CallRouteAllowedCaller) =>
  "phone_number" in c ? c.phone_number : c.phoneNumber;
const digitOf = (o: ApiOption | CallRouteOption) => o.digit;

export function callRouteFromApi(live: ApiCallRoute, declared: CallRouteInputs | undefined): CallRouteInputs {
  const path = live.path ?? [];
  const callers = live.allowed_callers ?? [];
  const options = live.options ?? [];
  // Managed when declared; in an export (nothing declared) when the route has some.
  const managed = (key: "allowedCallers" | "options", count: number) =>
    declared !== undefined ? declared[key] !== undefined : count > 0;
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
    allowedCallers: managed("allowedCallers", callers.length)
      ? inDeclaredOrder(callers, declared?.allowedCallers, phoneOf).map((c) => callerFromApi(c.live))
      : undefined,
    options: managed("options", options.length)
      ? inDeclaredOrder(options, declared?.options, digitOf).map((o) => optionFromApi(o.live, o.declared))
      : undefined,
  };
}

/** Canonical nodes: explicit ids, targets in one key order, repeated targets once. */
const canonicalNodes = (nodes: readonly CallRouteNode[], ids: NodeIds = routeNodeIds) =>
  nodes.map((n, i) => ({
    ...n,
    id: n.id ?? ids(i),
    level: n.level && { targets: canonicalTargets(n.level.targets) },
  }));

const byKey = <T>(items: readonly T[], key: (x: T) => string) =>
  [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/** Canonical form for diffs: canonical nodes; callers as a set (by number), options by digit. */
function canonicalCallRoute(args: CallRouteInputs): Props {
  return {
    ...args,
    path: args.path && canonicalNodes(args.path),
    allowedCallers:
      args.allowedCallers &&
      byKey(args.allowedCallers, (c) => `${c.phoneNumber}\u0000${c.name ?? ""}`).map((c) => ({
        phoneNumber: c.phoneNumber,
        ...(c.name !== undefined ? { name: c.name } : {}),
      })),
    options:
      args.options &&
      byKey(args.options, digitOf).map((o) => ({
        digit: o.digit,
        prompt: o.prompt,
        path: canonicalNodes(o.path, optionNodeIds(o.digit)),
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
  // CallRoutesUpdatePayloadV2.use_caller_allowlist: "Needs at least one allowed caller."
  if (args.useCallerAllowlist === true && args.allowedCallers?.length === 0)
    problems.push({
      path: ["useCallerAllowlist"],
      message:
        "needs at least one allowed caller (the API's rule): declare one in allowedCallers, or set false",
      dependsOn: [["allowedCallers"]],
    });
  // CallRoutesV2UpdateOption: "Two live options can't share a digit."
  const digits = new Map<string, number>();
  (args.options ?? []).forEach((o, i) => {
    const earlier = o?.digit === undefined ? undefined : digits.get(o.digit);
    if (earlier !== undefined)
      problems.push({
        path: ["options", i, "digit"],
        message: `${JSON.stringify(o.digit)} is also options[${earlier}]'s digit: two options cannot share a digit (the API's rule)`,
        dependsOn: [["options", "*", "digit"]],
      });
    else if (o?.digit !== undefined) digits.set(o.digit, i);
  });
  // CallRouteV2.path: "Empty when this route presents a phone-tree menu"; a path retires the menu,
  // the first option clears the path: both declared would undo each other on every update.
  if ((args.path?.length ?? 0) > 0 && (args.options?.length ?? 0) > 0)
    problems.push({
      path: ["options"],
      message:
        "a route routes by its path or by its menu, not both (writing a path retires the menu; the first option clears the path): leave path out, or set options to []",
      dependsOn: [["path"]],
    });
  return problems;
}

const asPrevious = (live: ApiCallRoute): CallRoutePrevious => ({
  name: live.name,
  customLanguage: live.custom_language,
  responderCallerId: live.responder_caller_id,
  useCallerAllowlist: live.use_caller_allowlist,
  path: nodesFromApi(live.path ?? [], undefined),
  allowedCallers: (live.allowed_callers ?? []).map(callerFromApi),
  options: (live.options ?? []).map((o) => optionFromApi(o, undefined)),
});

async function showRoute(ctx: ApiContext, id: string): Promise<ApiCallRoute> {
  return (await ctx.client.get<{ call_route: ApiCallRoute }>(itemPath(COLLECTION, id), "show call route"))
    .call_route;
}

/** PUTs the settings; a refused allowlist says what to do about it. */
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
        hint: "declare the route's allowedCallers (at least one) or add one in the dashboard, or set useCallerAllowlist: false",
      });
    throw error;
  }
}

/**
 * Same settings (by meaning) as the declaration, and the same path when one is declared (an empty
 * or undeclared path keeps the route's routing)? Then no PUT is needed.
 */
const settingsHeld = (live: ApiCallRoute, args: CallRouteInputs | CallRoutePrevious) => {
  const keepsPath = args.path === undefined || args.path.length === 0;
  const settings = (a: CallRouteInputs | CallRoutePrevious) => ({
    name: a.name,
    customLanguage: a.customLanguage,
    responderCallerId: a.responderCallerId,
    useCallerAllowlist: a.useCallerAllowlist,
    path: keepsPath ? undefined : canonicalNodes(a.path ?? []),
  });
  const declared = { ...(args as CallRouteInputs), path: keepsPath ? undefined : args.path };
  const read = callRouteFromApi(live, { ...declared, allowedCallers: undefined, options: undefined });
  return JSON.stringify(settings(read)) === JSON.stringify(settings(args));
};

// ---------- allowed callers and options: the steps that bring the live lists to the declared ----------

/** One write of a sub-object: `index` is the item's position in the declared list (for errors). */
type PartStep<T> =
  | { op: "update"; id: string; item: T; index: number }
  | { op: "create"; item: T; index: number }
  | { op: "delete"; id: string; key: string };

/**
 * Plans the writes that make `live` hold `declared`, matched by `key`: a live item whose key is
 * declared is kept (updated when it `differs`); a declared key no live item has takes over a live
 * item whose key is not declared (updated in place: its id is kept, and the list never grows past
 * the larger of the two); what remains is created or deleted. Deletes come last.
 */
export function planParts<L extends { id: string }, T>(
  live: readonly L[],
  declared: readonly T[],
  key: { live(l: L): string; declared(d: T): string },
  differs: (l: L, d: T) => boolean,
): PartStep<T>[] {
  const spare = [...live];
  const steps: PartStep<T>[] = [];
  const unmatched: { item: T; index: number }[] = [];
  declared.forEach((item, index) => {
    const i = spare.findIndex((l) => key.live(l) === key.declared(item));
    if (i < 0) {
      unmatched.push({ item, index });
      return;
    }
    const [l] = spare.splice(i, 1);
    if (differs(l!, item)) steps.push({ op: "update", id: l!.id, item, index });
  });
  // Live items no declaration keeps, in the API's order, take the new keys in place.
  const free = spare.filter((l) => !declared.some((d) => key.declared(d) === key.live(l)));
  const duplicates = spare.filter((l) => !free.includes(l));
  for (const { item, index } of unmatched) {
    const reuse = free.shift();
    steps.push(reuse ? { op: "update", id: reuse.id, item, index } : { op: "create", item, index });
  }
  for (const l of [...free, ...duplicates]) steps.push({ op: "delete", id: l.id, key: key.live(l) });
  return steps;
}

const callerDiffers = (l: ApiAllowedCaller, d: CallRouteAllowedCaller) =>
  l.phone_number !== d.phoneNumber || (l.name || undefined) !== d.name;

const optionDiffers = (l: ApiOption, d: CallRouteOption) =>
  JSON.stringify(canonicalCallRoute({ options: [optionFromApi(l, d)] } as CallRouteInputs).options) !==
  JSON.stringify(canonicalCallRoute({ options: [d] } as CallRouteInputs).options);

/** How a sub-resource is written: its collection under the route, its answer's key, its payload. */
interface Part<L extends { id: string }, T> {
  /** `allowed_callers` or `options`: the collection, the key in CallRouteV2, the API field path. */
  name: "allowed_callers" | "options";
  noun: string;
  answerKey: string;
  payload(item: T): Props;
  key: { live(l: L): string; declared(d: T): string };
  differs(l: L, d: T): boolean;
  /** Why a refused delete was refused (the API's rule), when it says so. */
  refusedDelete: string;
}

const CALLERS: Part<ApiAllowedCaller, CallRouteAllowedCaller> = {
  name: "allowed_callers",
  noun: "allowed caller",
  answerKey: "allowed_caller",
  payload: callerPayload,
  key: { live: (l) => l.phone_number, declared: (d) => d.phoneNumber },
  differs: callerDiffers,
  refusedDelete: "the last allowed caller cannot be removed while useCallerAllowlist is on",
};

const OPTIONS: Part<ApiOption, CallRouteOption> = {
  name: "options",
  noun: "option",
  answerKey: "option",
  payload: optionPayload,
  key: { live: (l) => l.digit, declared: (d) => d.digit },
  differs: optionDiffers,
  refusedDelete:
    "a route has to route calls somewhere: the last option cannot be removed from a route without a path (declare a path)",
};

/** The API's field names of a sub-object's refusal, as paths into the declared list (`options.2.digit`). */
function underPart(error: unknown, at: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const details = error.details.map((d) => ({ ...d, field: d.field ? `${at}.${d.field}` : at }));
  return new ApiError({ ...error.init, details });
}

/** Tracks whether the route was changed yet (a failed create then still records the route). */
interface Progress {
  changed: boolean;
}

/** Runs one write; a write that may have reached the API counts as a change, even when it failed. */
async function write<T>(progress: Progress, run: () => Promise<T>): Promise<T> {
  try {
    const result = await run();
    progress.changed = true;
    return result;
  } catch (error) {
    const refused =
      error instanceof ApiError && error.status >= 400 && error.status < 500 && !error.outcomeUnknown;
    if (!refused) progress.changed = true;
    throw error;
  }
}

/**
 * Runs the steps of one part, `phase` `add` (updates and creates) or `remove` (deletes). A create
 * whose outcome is unknown (answer lost, 5xx) is looked for on the route (by its key) before it is
 * sent again.
 */
async function applyPart<L extends { id: string }, T>(
  ctx: ApiContext,
  routeId: string,
  part: Part<L, T>,
  steps: readonly PartStep<T>[],
  phase: "add" | "remove",
  progress: Progress,
): Promise<void> {
  const collection = `${itemPath(COLLECTION, routeId)}/${part.name}`;
  for (const step of steps) {
    if ((step.op === "delete") !== (phase === "remove")) continue;
    if (step.op === "delete") {
      await write(progress, () =>
        ctx.client.delete(itemPath(collection, step.id), `delete ${part.noun}`),
      ).catch((error) => {
        if (error instanceof ApiError && error.isNotFound) return; // gone already: the goal
        if (error instanceof ApiError && error.status === 422)
          throw new ApiError({
            ...error.init,
            details: error.details.map((d) => ({ ...d, field: d.field ?? part.name })),
            hint: part.refusedDelete,
          });
        throw error;
      });
      continue;
    }
    const at = `${part.name}.${step.index}`;
    try {
      if (step.op === "update") {
        await write(progress, () =>
          ctx.client.put(itemPath(collection, step.id), `update ${part.noun}`, part.payload(step.item)),
        );
        continue;
      }
      for (let attempt = 1; ; attempt++) {
        try {
          await write(progress, () =>
            ctx.client.post(collection, `create ${part.noun}`, part.payload(step.item)),
          );
          break;
        } catch (error) {
          if (!(error instanceof ApiError) || !error.outcomeUnknown || attempt >= 3) throw error;
          const now = await showRoute(ctx, routeId);
          const live = (now[part.name] ?? []) as unknown as L[];
          if (
            live.some((l) => part.key.live(l) === part.key.declared(step.item) && !part.differs(l, step.item))
          )
            break;
        }
      }
    } catch (error) {
      throw underPart(error, at);
    }
  }
}

/** What the route must hold after a write: its settings, and its callers and menu when managed. */
interface Target {
  settings: CallRouteInputs | CallRoutePrevious;
  allowedCallers?: readonly CallRouteAllowedCaller[];
  options?: readonly CallRouteOption[];
}

/**
 * Brings the route to `target` in an order the API accepts: callers added, the settings written
 * (skipped when `live` already holds them), callers removed, then the menu (after the settings:
 * a path written retires it, and the menu's last option may only go once there is a path).
 * Answers the route as it then is.
 */
async function converge(
  ctx: ApiContext,
  id: string,
  target: Target,
  options: { live?: ApiCallRoute; progress?: Progress; operation: string },
): Promise<ApiCallRoute> {
  const progress = options.progress ?? { changed: false };
  const parts = target.allowedCallers !== undefined || target.options !== undefined;
  let live = options.live ?? (parts ? await showRoute(ctx, id) : undefined);
  const callerSteps =
    target.allowedCallers && live
      ? planParts(live.allowed_callers ?? [], target.allowedCallers, CALLERS.key, CALLERS.differs)
      : [];
  await applyPart(ctx, id, CALLERS, callerSteps, "add", progress);
  if (!live || !settingsHeld(live, target.settings)) {
    live = await write(progress, () =>
      putRoute(ctx, id, callRoutePayload(target.settings), options.operation),
    );
  }
  await applyPart(ctx, id, CALLERS, callerSteps, "remove", progress);
  const optionSteps = target.options
    ? planParts(live.options ?? [], target.options, OPTIONS.key, OPTIONS.differs)
    : [];
  await applyPart(ctx, id, OPTIONS, optionSteps, "add", progress);
  await applyPart(ctx, id, OPTIONS, optionSteps, "remove", progress);
  // The route as it now is (a new option clears the path; callers and options carry new ids).
  return callerSteps.length + optionSteps.length > 0 ? showRoute(ctx, id) : live;
}

const declaredTarget = (args: CallRouteInputs): Target => ({
  settings: args,
  allowedCallers: args.allowedCallers,
  options: args.options,
});

const idsBy = <T extends { id: string }>(items: readonly T[] | undefined, key: (x: T) => string) =>
  Object.fromEntries((items ?? []).map((x) => [key(x), x.id]));

/**
 * A call route (API v2): what a call to one of the account's phone numbers does: its name, the
 * language callers hear, the number responders see calling, who may call it, and either its path
 * (levels paging users or schedules; voicemail) or its phone-tree menu (a prompt per digit, each
 * with its own path).
 *
 * Call routes cannot be created or deleted through the API: the resource takes an existing route
 * over by `callRouteId`. Creating the resource keeps what the route held in `previous` and writes
 * the declared settings; deleting it (`pulumi destroy`, or removing it from the program) writes
 * `previous` back (its path, allowed callers and menu too) and warns that the call route itself is
 * not deleted. Declare at most one `CallRoute` per route (two would overwrite each other).
 *
 * `allowedCallers` and `options` are whole lists (leave one out to keep it as it is): callers
 * compare by number, options by digit. A route routes by its path or its menu: declare `path` or
 * `options`, not both. `useCallerAllowlist: true` needs at least one allowed caller.
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
 *   useCallerAllowlist: true,
 *   allowedCallers: [{ phoneNumber: "+442071838750", name: "Regulator duty desk" }],
 *   path: [
 *     { level: { targets: [{ type: "schedule", id: payments.id, urgency: "high", scheduleMode: "currently_on_call" }] } },
 *     { voicemail: { greetingText: "Nobody could take your call: leave a message and we will call you back." } },
 *   ],
 * });
 *
 * // Another number, with a menu instead of a path.
 * new incident.CallRoute("support-line", {
 *   callRouteId: "01H8N5K2ZQ7V3XGJ4B6T9WCDRF",
 *   name: "Support line",
 *   customLanguage: "en-GB",
 *   responderCallerId: "oncall_number",
 *   useCallerAllowlist: false,
 *   options: [
 *     {
 *       digit: "1",
 *       prompt: "For a payments outage, press 1",
 *       path: [{ level: { targets: [{ type: "schedule", id: payments.id, urgency: "high", scheduleMode: "currently_on_call" }] } }],
 *     },
 *     { digit: "2", prompt: "To leave a message, press 2", path: [{ voicemail: { greetingText: "Leave a message after the tone." } }] },
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
  computedOutputs: ["previous", "allowedCallerIds", "optionIds"],
  canonical: (args) => canonicalCallRoute(args) as CallRouteInputs,
  idOf: (live) => live.id,
  // CallRoutesV2List answers the routes as show does (paginated, callers and menus inline): reads by
  // page, and for `pulumi-incident export` every route, adopted (export writes `adoptId` and
  // `callRouteId`; its first `up` writes nothing).
  list: { path: COLLECTION, itemsKey: "call_routes", operation: "list call routes", pageSize: 100 },
  toInputs: callRouteFromApi,
  // On an adoption (`adoptId`) nothing is stored yet: the route as read is what it held.
  computed: (live, prior) => ({
    previous: (prior?.previous as CallRoutePrevious | undefined) ?? asPrevious(live),
    allowedCallerIds: idsBy(live.allowed_callers, (c) => c.phone_number),
    optionIds: idsBy(live.options, (o) => o.digit),
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
      const progress: Progress = { changed: false };
      try {
        const live = await converge(ctx, args.callRouteId, declaredTarget(args), {
          live: before,
          progress,
          operation: "update call route",
        });
        return { live, extraOutputs: { previous } };
      } catch (error) {
        // Changed half-way: the engine records the route (and what it held) to finish next run.
        if (progress.changed) throw new PartialCreateError(before, error, { previous });
        throw error;
      }
    },
    read: (ctx, id) => showRoute(ctx, id),
    async update(ctx, id, args, olds) {
      const live = await converge(ctx, id, declaredTarget(args), { operation: "update call route" });
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
      // A state recorded before callers and menus were managed has no record of them to put back.
      const menuLost =
        previous.options === undefined &&
        previous.path.length === 0 &&
        Array.isArray(olds.path) &&
        olds.path.length > 0;
      // `previous` whole: what the stack changed (or an update that failed half-way changed) is put
      // back; a menu is made again when the route had one (the path it then holds keeps the menu's
      // place: the first option clears it).
      const restore: Target = {
        settings: previous,
        allowedCallers: previous.allowedCallers,
        options: (previous.options?.length ?? 0) > 0 ? previous.options : undefined,
      };
      await converge(ctx, id, restore, { operation: "restore call route" });
      ctx.client.warn(
        `CallRoute ${name}: call route ${id} is not deleted (the API cannot delete call routes): its settings were put back to what they were before the stack took it over (name ${JSON.stringify(previous.name)})` +
          (menuLost
            ? "; its phone-tree menu, retired when the stack wrote its path, was not recorded (a state from before menus were managed): the route keeps the stack's path until the menu is rebuilt in the dashboard"
            : ""),
      );
    },
    // One resource per route: a create whose answer was lost is found by reading the route.
    recoveryKey: (args) => args.callRouteId,
  },
};

export const callRouteProvider = makeProvider(callRouteSpec);
