/**
 * Emulator family: call routes (API v2): the phone numbers of the account, what a call to each does,
 * who may call it and its phone-tree menu. Shapes from reference-newer.json ("call_routes": the
 * sdk-python openapi.json @ a8b5b232 and its api modules @ e8fe98ff; shared/api/NEWER.md):
 * - `GET /v2/call_routes` (paginated), `GET`, `PUT /v2/call_routes/{id}`: `CallRouteV2` answers the
 *   route's allowed callers and menu options inline;
 * - `GET`, `POST /v2/call_routes/{call_route_id}/allowed_callers` (unpaginated `{allowed_callers}`),
 *   `GET`, `PUT`, `DELETE …/allowed_callers/{id}` (`CallRouteAllowedCallerV2`: phone_number, name?);
 * - the same five under `…/options` (`CallRouteOptionV2`: digit 1-9, prompt, path).
 * There is no create or delete of call routes in the API ("Create and delete them in the
 * dashboard"): a route comes with a number bought in the dashboard, which the emulator's control
 * route `POST /_emulator/call_routes` stands for (tests: test/support/dashboard.ts `dashboardCallRoute`).
 *
 * Behaviour, from the operations' and fields' documentation:
 * - a route routes by its path or by its menu: a non-empty `path` in an update "retires any
 *   phone-tree menu" (its options are deleted); an empty one keeps the menu, and the path as it is;
 *   the first option created "clears that path";
 * - `use_caller_allowlist: true` "needs at least one allowed caller" (422 on `use_caller_allowlist`),
 *   and the last allowed caller cannot be removed while it is on (422);
 * - two options cannot share a digit (422 on `digit`, create or update); the last option cannot be
 *   removed from a route without a path (422);
 * - `prompt` and a voicemail node's `greeting_text` are at most 250 characters (422);
 * - a node sent without an id gets one ("Omit it and we'll generate one").
 * The emulator's own stand-ins (the reference does not give them): `name` must not be blank; a level
 * needs a target; a `user` or `schedule` target must exist (422 on the target's `id`); a node holds
 * only its own kind's part; an option's `prompt` must not be blank; an allowed caller's number is `+` and 7 to 15 digits ("in international
 * format"; 422 on `phone_number`); the plan allows every digit (the service's plans may allow one
 * option only: its refusal is not described); a route's `current_state` is `active`.
 *
 * Seeded like an account with two numbers: `01CALLROUTEMAIN` ("Main line": pages the owner) and
 * `01CALLROUTEMENU` ("Support menu": a phone-tree menu of two options, one allowed caller, the
 * allowlist on).
 */
import { defineFamily, operation, paginate } from "../family";
import { HttpError, notFound, throwIfProblems } from "../http/errors";
import type { Store } from "../store";
import { findSchedule } from "./schedules";
import { compact } from "./shared/records";
import { USERS } from "./users";

type Json = any;

export const CALL_ROUTES = "call_routes";

/** `CallRouteAllowedCallerV2`. */
export interface StoredAllowedCaller {
  id: string;
  phone_number: string;
  name?: string;
}

/** `CallRouteOptionV2`. */
export interface StoredOption {
  id: string;
  digit: string;
  prompt: string;
  path: Json[];
}

export interface StoredCallRoute {
  id: string;
  name: string;
  custom_language: string;
  responder_caller_id: "route_number" | "oncall_number";
  use_caller_allowlist: boolean;
  path: Json[];
  allowed_callers: StoredAllowedCaller[];
  options: StoredOption[];
  phone_number?: string;
  country_code?: string;
  created_at: string;
  updated_at: string;
}

export const MAIN_CALL_ROUTE_ID = "01CALLROUTEMAIN";
export const MENU_CALL_ROUTE_ID = "01CALLROUTEMENU";

const RESPONDER_CALLER_IDS = ["route_number", "oncall_number"];
/** `prompt` and `greeting_text`: maxLength 250 (the reference). */
const SPOKEN_TEXT_MAX = 250;
/** "In international format" (the emulator's reading: `+` and 7 to 15 digits). */
const INTERNATIONAL_NUMBER = /^\+[1-9]\d{6,14}$/;

const SEED_TIME = "2024-01-01T00:00:00Z";
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
    options: [],
    phone_number: "+442071838000",
    country_code: "GB",
    created_at: SEED_TIME,
    updated_at: SEED_TIME,
  },
  {
    id: MENU_CALL_ROUTE_ID,
    name: "Support menu",
    custom_language: "en-GB",
    responder_caller_id: "oncall_number",
    use_caller_allowlist: true,
    path: [],
    allowed_callers: [{ id: "01CALLERHEADOFFICE", phone_number: "+442071838750", name: "Head office" }],
    options: [
      {
        id: "01CALLOPTIONOUTAGE",
        digit: "1",
        prompt: "For a production outage, press 1",
        path: [
          {
            id: "outage",
            type: "level",
            level: { targets: [{ id: "01USEROWNER", type: "user", urgency: "high" }] },
          },
        ],
      },
      {
        id: "01CALLOPTIONMESSAGE",
        digit: "2",
        prompt: "To leave a message, press 2",
        path: [{ id: "message", type: "voicemail", voicemail: { greeting_text: "Leave a message" } }],
      },
    ],
    phone_number: "+442071838001",
    country_code: "GB",
    created_at: SEED_TIME,
    updated_at: SEED_TIME,
  },
];

const renderCaller = (c: StoredAllowedCaller): Json =>
  compact({ id: c.id, phone_number: c.phone_number, name: c.name });

const renderOption = (o: StoredOption): Json => ({
  id: o.id,
  digit: o.digit,
  prompt: o.prompt,
  path: o.path,
});

/** `CallRouteV2`. */
function render(r: StoredCallRoute): Json {
  return compact({
    id: r.id,
    name: r.name,
    current_state: "active",
    custom_language: r.custom_language,
    responder_caller_id: r.responder_caller_id,
    use_caller_allowlist: r.use_caller_allowlist,
    path: r.path,
    options: r.options.map(renderOption),
    allowed_callers: r.allowed_callers.map(renderCaller),
    phone_number: r.phone_number,
    country_code: r.country_code,
    created_at: r.created_at,
    updated_at: r.updated_at,
  });
}

function route(store: Store, id: string): StoredCallRoute {
  const r = store.collection<StoredCallRoute>(CALL_ROUTES).get(id);
  if (!r) throw notFound(`No call route with id ${id}`);
  return r;
}

const save = (store: Store, r: StoredCallRoute, nowIso: string): StoredCallRoute =>
  store.collection<StoredCallRoute>(CALL_ROUTES).set({ ...r, updated_at: nowIso });

type Problem = { field?: string; message: string; code?: string };

/** The problems of a path (a route's or an option's) under `at` (`path`, `path.0`…). */
function pathProblems(store: Store, path: Json[], at: string): Problem[] {
  const out: Problem[] = [];
  path.forEach((n, i) => {
    const here = `${at}.${i}`;
    if (n?.type === "level") {
      const targets = (n.level?.targets ?? []) as Json[];
      if (targets.length === 0)
        out.push({ field: `${here}.level.targets`, message: "a level needs at least one target" });
      targets.forEach((t, j) => {
        const exists =
          t.type === "user"
            ? store.collection(USERS).has(t.id)
            : t.type === "schedule"
              ? findSchedule(store, t.id) !== undefined
              : true;
        if (!exists)
          out.push({ field: `${here}.level.targets.${j}.id`, message: `no ${t.type} with id ${t.id}` });
      });
      if (n.voicemail !== undefined)
        out.push({ field: `${here}.voicemail`, message: "only for a voicemail node" });
    }
    if (n?.type === "voicemail") {
      if (n.level !== undefined) out.push({ field: `${here}.level`, message: "only for a level node" });
      if (typeof n.voicemail?.greeting_text !== "string")
        out.push({ field: `${here}.voicemail.greeting_text`, code: "is_required", message: "is required" });
      out.push(...spokenTextProblems(n.voicemail?.greeting_text, `${here}.voicemail.greeting_text`));
    }
  });
  return out;
}

function spokenTextProblems(text: unknown, field: string): Problem[] {
  return typeof text === "string" && [...text].length > SPOKEN_TEXT_MAX
    ? [{ field, message: `must be at most ${SPOKEN_TEXT_MAX} characters` }]
    : [];
}

/** The problems of a route's settings (`CallRoutesUpdatePayloadV2`, or the control route's body). */
function routeProblems(store: Store, body: Json, allowedCallers: number): Problem[] {
  const out: Problem[] = [];
  if (typeof body.name === "string" && body.name.trim() === "")
    out.push({ field: "name", message: "must not be blank" });
  if (body.use_caller_allowlist === true && allowedCallers === 0)
    out.push({
      field: "use_caller_allowlist",
      message: "needs at least one allowed caller: add one to the call route first",
    });
  out.push(...pathProblems(store, (body.path ?? []) as Json[], "path"));
  return out;
}

/** Stored nodes: known keys only; a node without an id gets one. */
function storedPath(path: Json[], newId: () => string): Json[] {
  return path.map((n) => ({
    id: typeof n.id === "string" && n.id !== "" ? n.id : newId(),
    type: n.type,
    ...(n.type === "level" ? { level: { targets: n.level?.targets ?? [] } } : {}),
    ...(n.type === "voicemail" ? { voicemail: { greeting_text: n.voicemail?.greeting_text } } : {}),
  }));
}

function callerProblems(body: Json): Problem[] {
  return typeof body.phone_number === "string" && !INTERNATIONAL_NUMBER.test(body.phone_number)
    ? [{ field: "phone_number", message: "must be a number in international format, e.g. +15551234567" }]
    : [];
}

/** An option's problems, `except` the option it replaces (its own digit is free to keep). */
function optionProblems(store: Store, r: StoredCallRoute, body: Json, except?: string): Problem[] {
  const out: Problem[] = [];
  if (r.options.some((o) => o.digit === body.digit && o.id !== except))
    out.push({ field: "digit", message: `the menu already has an option on ${body.digit}` });
  if (typeof body.prompt !== "string" || body.prompt.trim() === "")
    out.push({ field: "prompt", message: "must not be blank" });
  out.push(...spokenTextProblems(body.prompt, "prompt"));
  out.push(...pathProblems(store, Array.isArray(body.path) ? body.path : [], "path"));
  return out;
}

const caller = (r: StoredCallRoute, id: string): StoredAllowedCaller => {
  const c = r.allowed_callers.find((x) => x.id === id);
  if (!c) throw notFound(`No allowed caller with id ${id} on call route ${r.id}`);
  return c;
};

const option = (r: StoredCallRoute, id: string): StoredOption => {
  const o = r.options.find((x) => x.id === id);
  if (!o) throw notFound(`No option with id ${id} on call route ${r.id}`);
  return o;
};

/** The control route's list of callers: numbers, or `{phone_number, name?}`. */
function controlCallers(list: unknown, newId: () => string): StoredAllowedCaller[] {
  if (!Array.isArray(list)) throw badControl("allowed_callers", "must be a list of phone numbers");
  return list.map((c, i) => {
    const o = typeof c === "string" ? { phone_number: c } : c;
    if (typeof o?.phone_number !== "string")
      throw badControl(`allowed_callers.${i}`, "must be a phone number or {phone_number, name?}");
    return compact({ id: newId(), phone_number: o.phone_number, name: o.name }) as StoredAllowedCaller;
  });
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
      handler: ({ store, body, newId, nowIso }) => {
        if (typeof body?.name !== "string" || body.name.trim() === "")
          throw badControl("name", "is required");
        const callers = controlCallers(body.allowed_callers ?? [], newId);
        const r: StoredCallRoute = {
          id: newId(),
          name: body.name,
          custom_language: body.custom_language ?? "en-US",
          responder_caller_id: body.responder_caller_id ?? "route_number",
          use_caller_allowlist: body.use_caller_allowlist ?? false,
          path: [],
          allowed_callers: callers,
          options: [],
          created_at: nowIso,
          updated_at: nowIso,
        };
        if (!RESPONDER_CALLER_IDS.includes(r.responder_caller_id))
          throw badControl("responder_caller_id", `must be one of ${RESPONDER_CALLER_IDS.join(", ")}`);
        const found = [
          ...routeProblems(store, { ...r, path: body.path ?? [] }, callers.length),
          ...callers.flatMap((c, i) =>
            callerProblems(c).map((p) => ({ ...p, field: `allowed_callers.${i}.${p.field}` })),
          ),
        ];
        const options: StoredOption[] = [];
        ((body.options ?? []) as Json[]).forEach((o, i) => {
          const problems = optionProblems(store, { ...r, options }, o);
          found.push(...problems.map((p) => ({ ...p, field: `options.${i}.${p.field}` })));
          options.push({
            id: newId(),
            digit: o.digit,
            prompt: o.prompt,
            path: storedPath(o.path ?? [], newId),
          });
        });
        if (options.length > 0 && (body.path ?? []).length > 0)
          found.push({ field: "options", message: "a route routes by its path or by its menu, not both" });
        if (found.length > 0) throw badControl(found[0]!.field ?? "", found[0]!.message);
        const stored = store
          .collection<StoredCallRoute>(CALL_ROUTES)
          .set({ ...r, path: storedPath(body.path ?? [], newId), options });
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
    operation("CallRoutesV2Update", "write", ({ store, params, body, newId, nowIso }) => {
      const current = route(store, params.id!);
      throwIfProblems(routeProblems(store, body, current.allowed_callers.length));
      const path = body.path as Json[];
      const r = save(
        store,
        {
          ...current,
          name: body.name,
          custom_language: body.custom_language,
          responder_caller_id: body.responder_caller_id,
          use_caller_allowlist: body.use_caller_allowlist,
          // An empty path keeps the menu (and the path as it is); another retires the menu.
          ...(path.length > 0 ? { path: storedPath(path, newId), options: [] } : {}),
        },
        nowIso,
      );
      return { body: { call_route: render(r) } };
    }),

    operation("CallRoutesV2ListAllowedCallers", "read", ({ store, params }) => ({
      body: { allowed_callers: route(store, params.call_route_id!).allowed_callers.map(renderCaller) },
    })),
    operation("CallRoutesV2CreateAllowedCaller", "write", ({ store, params, body, newId, nowIso }) => {
      const r = route(store, params.call_route_id!);
      throwIfProblems(callerProblems(body));
      const c = compact({
        id: newId(),
        phone_number: body.phone_number,
        name: body.name,
      }) as StoredAllowedCaller;
      save(store, { ...r, allowed_callers: [...r.allowed_callers, c] }, nowIso);
      return { body: { allowed_caller: renderCaller(c) } };
    }),
    operation("CallRoutesV2ShowAllowedCaller", "read", ({ store, params }) => ({
      body: { allowed_caller: renderCaller(caller(route(store, params.call_route_id!), params.id!)) },
    })),
    operation("CallRoutesV2UpdateAllowedCaller", "write", ({ store, params, body, nowIso }) => {
      const r = route(store, params.call_route_id!);
      const before = caller(r, params.id!);
      throwIfProblems(callerProblems(body));
      // "Replace an allowed caller's number and label": a label left out is removed.
      const c = compact({
        id: before.id,
        phone_number: body.phone_number,
        name: body.name,
      }) as StoredAllowedCaller;
      save(store, { ...r, allowed_callers: r.allowed_callers.map((x) => (x.id === c.id ? c : x)) }, nowIso);
      return { body: { allowed_caller: renderCaller(c) } };
    }),
    operation("CallRoutesV2DestroyAllowedCaller", "write", ({ store, params, nowIso }) => {
      const r = route(store, params.call_route_id!);
      caller(r, params.id!);
      if (r.use_caller_allowlist && r.allowed_callers.length === 1)
        throwIfProblems([
          {
            message:
              "a route that only answers its allowed callers must keep at least one: turn use_caller_allowlist off before removing the last number",
          },
        ]);
      save(store, { ...r, allowed_callers: r.allowed_callers.filter((x) => x.id !== params.id) }, nowIso);
      return {};
    }),

    operation("CallRoutesV2ListOptions", "read", ({ store, params }) => ({
      body: { options: route(store, params.call_route_id!).options.map(renderOption) },
    })),
    operation("CallRoutesV2CreateOption", "write", ({ store, params, body, newId, nowIso }) => {
      const r = route(store, params.call_route_id!);
      throwIfProblems(optionProblems(store, r, body));
      const o: StoredOption = {
        id: newId(),
        digit: body.digit,
        prompt: body.prompt,
        path: storedPath(body.path, newId),
      };
      // Callers hear the menu instead of the route's own path: the first option clears it.
      save(store, { ...r, options: [...r.options, o], path: [] }, nowIso);
      return { body: { option: renderOption(o) } };
    }),
    operation("CallRoutesV2ShowOption", "read", ({ store, params }) => ({
      body: { option: renderOption(option(route(store, params.call_route_id!), params.id!)) },
    })),
    operation("CallRoutesV2UpdateOption", "write", ({ store, params, body, newId, nowIso }) => {
      const r = route(store, params.call_route_id!);
      const before = option(r, params.id!);
      throwIfProblems(optionProblems(store, r, body, before.id));
      const o: StoredOption = {
        id: before.id,
        digit: body.digit,
        prompt: body.prompt,
        path: storedPath(body.path, newId),
      };
      save(store, { ...r, options: r.options.map((x) => (x.id === o.id ? o : x)) }, nowIso);
      return { body: { option: renderOption(o) } };
    }),
    operation("CallRoutesV2DestroyOption", "write", ({ store, params, nowIso }) => {
      const r = route(store, params.call_route_id!);
      option(r, params.id!);
      if (r.options.length === 1 && r.path.length === 0)
        throwIfProblems([
          {
            message: "a route has to route calls somewhere: give it a path before removing its last option",
          },
        ]);
      save(store, { ...r, options: r.options.filter((x) => x.id !== params.id) }, nowIso);
      return {};
    }),
  ],
});
