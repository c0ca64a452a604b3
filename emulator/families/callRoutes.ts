/**
 * Emulator family: call routes (API v2): the phone numbers of the account and what a call to each
 * does. `GET /v2/call_routes` (paginated), `GET /v2/call_routes/{id}`, `PUT /v2/call_routes/{id}`.
 * There is no create or delete of call routes in the API (shared/api/NEWER.md "call_routes"): a
 * route comes with a number bought in the dashboard, which the emulator's control route
 * `POST /_emulator/call_routes` stands for (tests: test/support/dashboard.ts `dashboardCallRoute`).
 *
 * Partial shapes: the newer clients give only the update payload (`CallRoutesUpdatePayloadV2`: name,
 * custom_language, responder_caller_id, use_caller_allowlist, path, all required; a path node
 * `{id, type: level | voicemail, level {targets}, voicemail {greeting_text}}` per its example). The
 * answers are modelled here (local types below) on that payload: `CallRouteV2` is the payload's
 * fields and the route's id, wrapped as every other v2 answer (`{call_route}`, `{call_routes,
 * pagination_meta}`); targets are `EscalationPathTargetV2`. The allowed callers and the phone-tree
 * menu options are sub-resources whose payloads were not read: they are stored (`allowed_callers`,
 * a list of numbers; `menu_options`, how many) for the rules below, set only through the control
 * route, and never answered.
 *
 * Behaviour, from the update payload's documentation:
 * - `use_caller_allowlist: true` "needs at least one allowed caller" (422 on `use_caller_allowlist`);
 * - a non-empty `path` "retires any phone-tree menu on the route" (the menu options are dropped);
 *   an empty one keeps the menu, and the route's path as it is;
 * - `responder_caller_id` is `route_number` or `oncall_number`.
 * The emulator's own stand-ins (the reference does not give them): `custom_language` is a language
 * tag such as `en-US` (its enum was not read; 422 otherwise); `name` must not be blank; a level
 * needs a target; a `user` or `schedule` target must exist (422 on the target's `id`); a voicemail
 * node's `greeting_text` is optional; a node sent without an id gets one.
 *
 * Seeded like an account with two numbers: `01CALLROUTEMAIN` ("Main line": pages the owner) and
 * `01CALLROUTEMENU` ("Support menu": a phone-tree menu of two options, one allowed caller, the
 * allowlist on).
 */
import { defineFamily, operation, paginate } from "../family";
import { HttpError, notFound, throwIfProblems } from "../http/errors";
import { registerLocalOperation, registerLocalType } from "../shapes";
import type { Store } from "../store";
import { findSchedule } from "./schedules";
import { USERS } from "./users";

type Json = any;

export const CALL_ROUTES = "call_routes";

export interface StoredCallRoute {
  id: string;
  name: string;
  custom_language: string;
  responder_caller_id: "route_number" | "oncall_number";
  use_caller_allowlist: boolean;
  path: Json[];
  /** The allowed callers' numbers (the sub-resource's payload was not read; never answered). */
  allowed_callers: string[];
  /** How many phone-tree menu options the route has (retired by a non-empty path; never answered). */
  menu_options: number;
}

export const MAIN_CALL_ROUTE_ID = "01CALLROUTEMAIN";
export const MENU_CALL_ROUTE_ID = "01CALLROUTEMENU";

const SEED: readonly StoredCallRoute[] = [
  {
    id: MAIN_CALL_ROUTE_ID,
    name: "Main line",
    custom_language: "en-US",
    responder_caller_id: "route_number",
    use_caller_allowlist: false,
    path: [
      {
        id: "start",
        type: "level",
        level: { targets: [{ id: "01USEROWNER", type: "user", urgency: "high" }] },
      },
    ],
    allowed_callers: [],
    menu_options: 0,
  },
  {
    id: MENU_CALL_ROUTE_ID,
    name: "Support menu",
    custom_language: "en-GB",
    responder_caller_id: "oncall_number",
    use_caller_allowlist: true,
    path: [],
    allowed_callers: ["+442071838750"],
    menu_options: 2,
  },
];

const RESPONDER_CALLER_IDS = ["route_number", "oncall_number"];
const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Z]{2})?$/;

let registered = false;
function registerShapes(): void {
  if (registered) return;
  registered = true;
  const node = (idRequired: boolean) => ({
    fields: [
      { name: "id", type: "string", required: idRequired, doc: "Id of the node" },
      { name: "type", type: "string", required: true, enum: ["level", "voicemail"] },
      { name: "level", type: "object", required: false, ref: "CallRoutePathNodeLevelV2" },
      { name: "voicemail", type: "object", required: false, ref: "CallRoutePathNodeVoicemailV2" },
    ],
  });
  registerLocalType("CallRoutePathNodeLevelV2", {
    fields: [{ name: "targets", type: "array<object>", required: true, ref: "EscalationPathTargetV2" }],
  });
  registerLocalType("CallRoutePathNodeVoicemailV2", {
    fields: [{ name: "greeting_text", type: "string", required: false, doc: "What the caller hears" }],
  });
  registerLocalType("CallRoutePathNodePayloadV2", node(false));
  registerLocalType("CallRoutePathNodeV2", node(true));
  const routeFields = (nodeType: string) => [
    { name: "name", type: "string", required: true },
    { name: "custom_language", type: "string", required: true, example: "en-US" },
    {
      name: "responder_caller_id",
      type: "string",
      required: true,
      enum: RESPONDER_CALLER_IDS,
      doc: "route_number: the route's own number; oncall_number: an incident.io on-call number",
    },
    { name: "use_caller_allowlist", type: "boolean", required: true },
    { name: "path", type: "array<object>", required: true, ref: nodeType },
  ];
  registerLocalType("CallRoutesUpdatePayloadV2", { fields: routeFields("CallRoutePathNodePayloadV2") });
  registerLocalType("CallRouteV2", {
    fields: [{ name: "id", type: "string", required: true }, ...routeFields("CallRoutePathNodeV2")],
  });
  registerLocalType("CallRoutesListResultV2", {
    fields: [
      { name: "call_routes", type: "array<object>", required: true, ref: "CallRouteV2" },
      { name: "pagination_meta", type: "object", required: false, ref: "PaginationMetaResultV2" },
    ],
  });
  for (const name of ["CallRoutesShowResultV2", "CallRoutesUpdateResultV2"])
    registerLocalType(name, {
      fields: [{ name: "call_route", type: "object", required: true, ref: "CallRouteV2" }],
    });
  const summary = (what: string) =>
    `${what} Call Routes V2 (emulator: shapes modelled on the update payload)`;
  registerLocalOperation({
    operation_id: "CallRoutesV2List",
    method: "GET",
    path: "/v2/call_routes",
    summary: summary("List"),
    path_params: [],
    query_params: [
      { name: "page_size", type: "integer", required: false, doc: "Integer number of records to return" },
      { name: "after", type: "string", required: false, doc: "A call route's ID: return routes after it" },
    ],
    responses: { "200": "CallRoutesListResultV2" },
  });
  registerLocalOperation({
    operation_id: "CallRoutesV2Show",
    method: "GET",
    path: "/v2/call_routes/{id}",
    summary: summary("Show"),
    path_params: [{ name: "id", type: "string" }],
    responses: { "200": "CallRoutesShowResultV2" },
  });
  registerLocalOperation({
    operation_id: "CallRoutesV2Update",
    method: "PUT",
    path: "/v2/call_routes/{id}",
    summary: summary("Update"),
    path_params: [{ name: "id", type: "string" }],
    request_body: "CallRoutesUpdatePayloadV2",
    responses: { "200": "CallRoutesUpdateResultV2" },
  });
}
registerShapes();

/** `CallRouteV2` (the sub-resources are not answered). */
function render(r: StoredCallRoute): Json {
  return {
    id: r.id,
    name: r.name,
    custom_language: r.custom_language,
    responder_caller_id: r.responder_caller_id,
    use_caller_allowlist: r.use_caller_allowlist,
    path: r.path,
  };
}

function route(store: Store, id: string): StoredCallRoute {
  const r = store.collection<StoredCallRoute>(CALL_ROUTES).get(id);
  if (!r) throw notFound(`No call route with id ${id}`);
  return r;
}

/** The problems of a route's settings, with `allowedCallers` the route's allowed callers. */
function problems(store: Store, body: Json, allowedCallers: readonly string[]) {
  const out: { field: string; message: string; code?: string }[] = [];
  if (typeof body.name === "string" && body.name.trim() === "")
    out.push({ field: "name", message: "must not be blank" });
  if (typeof body.custom_language === "string" && !LANGUAGE_TAG.test(body.custom_language))
    out.push({ field: "custom_language", message: "must be a supported language, e.g. en-US" });
  if (body.use_caller_allowlist === true && allowedCallers.length === 0)
    out.push({
      field: "use_caller_allowlist",
      message: "needs at least one allowed caller: add one to the call route first",
    });
  ((body.path ?? []) as Json[]).forEach((n, i) => {
    if (n?.type === "level") {
      const targets = (n.level?.targets ?? []) as Json[];
      if (targets.length === 0)
        out.push({ field: `path.${i}.level.targets`, message: "a level needs at least one target" });
      targets.forEach((t, j) => {
        const exists =
          t.type === "user"
            ? store.collection(USERS).has(t.id)
            : t.type === "schedule"
              ? findSchedule(store, t.id) !== undefined
              : true;
        if (!exists)
          out.push({ field: `path.${i}.level.targets.${j}.id`, message: `no ${t.type} with id ${t.id}` });
      });
    }
    if (n?.type === "level" && n.voicemail !== undefined)
      out.push({ field: `path.${i}.voicemail`, message: "only for a voicemail node" });
    if (n?.type === "voicemail" && n.level !== undefined)
      out.push({ field: `path.${i}.level`, message: "only for a level node" });
  });
  return out;
}

/** Stored nodes: known keys only; a node without an id gets one. */
function storedPath(path: Json[], newId: () => string): Json[] {
  return path.map((n) => ({
    id: typeof n.id === "string" && n.id !== "" ? n.id : newId(),
    type: n.type,
    ...(n.type === "level" ? { level: { targets: n.level?.targets ?? [] } } : {}),
    ...(n.type === "voicemail"
      ? {
          voicemail:
            n.voicemail?.greeting_text !== undefined ? { greeting_text: n.voicemail.greeting_text } : {},
        }
      : {}),
  }));
}

const badControl = (field: string, message: string) =>
  new HttpError(422, [{ code: "invalid_value", message, field }]);

export const callRoutes = defineFamily({
  name: "call_routes",
  // Not in the reference's role table: on-call's row (escalation paths) is the nearest.
  roles: { read: ["viewer", "on_call_viewer"], write: ["on_call_editor"], teamWrite: ["on_call_editor"] },
  collections: [CALL_ROUTES],
  seed(store) {
    const c = store.collection<StoredCallRoute>(CALL_ROUTES);
    for (const r of SEED) c.set(structuredClone(r));
  },
  control: [
    {
      method: "POST",
      path: "/_emulator/call_routes",
      description: "a call route, as buying a number in the dashboard makes one",
      handler: ({ store, body, newId }) => {
        if (typeof body?.name !== "string" || body.name.trim() === "")
          throw badControl("name", "is required");
        const allowed = body.allowed_callers ?? [];
        if (!Array.isArray(allowed) || allowed.some((a: unknown) => typeof a !== "string"))
          throw badControl("allowed_callers", "must be a list of phone numbers");
        const r: StoredCallRoute = {
          id: newId(),
          name: body.name,
          custom_language: body.custom_language ?? "en-US",
          responder_caller_id: body.responder_caller_id ?? "route_number",
          use_caller_allowlist: body.use_caller_allowlist ?? false,
          path: [],
          allowed_callers: allowed,
          menu_options: Number.isInteger(body.menu_options) ? body.menu_options : 0,
        };
        if (!RESPONDER_CALLER_IDS.includes(r.responder_caller_id))
          throw badControl("responder_caller_id", `must be one of ${RESPONDER_CALLER_IDS.join(", ")}`);
        const found = problems(store, { ...r, path: body.path ?? [] }, allowed);
        if (found.length > 0) throw badControl(found[0]!.field, found[0]!.message);
        const stored = store
          .collection<StoredCallRoute>(CALL_ROUTES)
          .set({ ...r, path: storedPath(body.path ?? [], newId) });
        return { status: 201, body: { call_route: render(stored) } };
      },
    },
  ],
  routes: [
    operation("CallRoutesV2List", "read", ({ store, query }) => {
      const { page, pagination_meta } = paginate(store.collection<StoredCallRoute>(CALL_ROUTES).all(), query);
      return { body: { call_routes: page.map(render), pagination_meta } };
    }),
    operation("CallRoutesV2Show", "read", ({ store, params }) => ({
      body: { call_route: render(route(store, params.id!)) },
    })),
    operation("CallRoutesV2Update", "write", ({ store, params, body, newId }) => {
      const current = route(store, params.id!);
      throwIfProblems(problems(store, body, current.allowed_callers));
      const path = body.path as Json[];
      const r = store.collection<StoredCallRoute>(CALL_ROUTES).set({
        ...current,
        name: body.name,
        custom_language: body.custom_language,
        responder_caller_id: body.responder_caller_id,
        use_caller_allowlist: body.use_caller_allowlist,
        // An empty path keeps the menu (and the path as it is); another retires the menu.
        ...(path.length > 0 ? { path: storedPath(path, newId), menu_options: 0 } : {}),
      });
      return { body: { call_route: render(r) } };
    }),
  ],
});
