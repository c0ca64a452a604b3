/**
 * Emulator family: escalation paths (API v2). `GET/POST /v2/escalation_paths`,
 * `GET/PUT/DELETE /v2/escalation_paths/{id}`.
 *
 * Behaviour beyond the reference shapes (which the framework validates first): node ids unique
 * within the path, repeat nodes pointing at an existing node, the node body matching its `type`,
 * `attempts` 2..10, retry intervals in whole minutes, `selected_rota_id` exactly for the *_for_rota
 * modes, user targets that exist (the seeded users of `GET /v2/users`) and schedule targets that
 * exist, working-hours references (`delay_weekday_interval_config_id`,
 * `time_to_ack_weekday_interval_config_id`) naming a `working_hours` entry, condition subjects and
 * operations non-empty and binding values setting one of literal / reference. 422 problems name the
 * payload field (`path.0.if_else.else_path.1.level.targets.0.id`). A `team_ids` entry that is not a
 * team is a 400 `invalid_reference`.
 *
 * Newer fields (NEWER.md's knock-on change, registered on the reference types by ../localTypes.ts):
 * an `escalation_path` node (reassign) must name a live path other than itself (422 on
 * `…escalation_path.escalation_path_id`); `kind: "templated"` needs `template_id` (422 "required when
 * kind is templated"), naming a live escalation path template (422 on `template_id` otherwise), no
 * nodes or working hours of its own (422 on `path` / `working_hours`), `param_bindings` naming only
 * the template's parameters and binding each one that is neither optional nor defaulted (422 on
 * `param_bindings.<name>`); a standalone path takes neither `template_id` nor `param_bindings`.
 *
 * Read-back reproduces the real API: `user` targets answered twice (TF provider v5.44.1), targets
 * that are not schedules answered with `schedule_mode: ""`, conditions through the shared engine
 * (./shared/engine.ts: subjects / operations / binding values answered as labelled objects, `one_of`
 * answered as `contains_one_of`, JSON literals re-encoded, trailing empty param bindings), no working
 * hours answered as `working_hours: []`, team ids sorted, `kind` always answered (`standalone` when
 * not written); a templated path answers `path: []`, no working hours, its `template_id` and its
 * bindings labelled. Delete archives: an archived path no longer shows or lists.
 */
import { defineFamily, operation, paginate } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import { registerLocalShapes } from "../localTypes";
import { teamOwnedBy } from "../roles";
import type { Store } from "../store";
import { rotationIds, SCHEDULES, type StoredSchedule } from "./schedules";
import { bindingProblems, conditionGroupProblems, renderBinding, renderCondition } from "./shared/engine";
import { compact } from "./shared/records";
import { requireTeams } from "./teams";
import { type StoredUser, USERS } from "./users";

/** A 422 problem: the API field path and a message. */
export interface FieldProblem {
  field: string;
  message: string;
}

type Json = any;

// The newer fields of escalation paths (kind, template_id, param_bindings, the escalation_path node).
registerLocalShapes();

/** The collection of escalation path templates (./escalationPathTemplates.ts), read for `template_id`. */
export const ESCALATION_PATH_TEMPLATES = "escalation_path_templates";

/** A template as the paths built from it see it. */
export interface TemplateForPaths {
  id: string;
  archived: boolean;
  /** Its declared parameters (EngineParamV2). */
  params: Json[];
}

export interface StoredEscalationPath {
  id: string;
  payload: Json;
  archived: boolean;
}

/** What the emulator knows about other families, for reference checks. */
export interface EscalationPathWorld {
  /** Ids of the seeded users (`GET /v2/users`). */
  userIds: ReadonlySet<string>;
  /** Schedule ids, each with its rotation ids. */
  schedules: ReadonlyMap<string, ReadonlySet<string>>;
  /** User objects for `current_responders`, by id. */
  users?: ReadonlyMap<string, Json>;
  /** Ids of the live (not archived) escalation paths, for reassignment nodes. */
  pathIds?: ReadonlySet<string>;
  /** The live escalation path templates, by id. */
  templates?: ReadonlyMap<string, TemplateForPaths>;
}

/** What the tree is checked as. */
export interface TreeOptions {
  /** A template's tree: targets are an `id` or a `binding`; voicemail is refused. */
  template?: boolean;
  /** The id of the path being updated (a path cannot reassign to itself). */
  selfId?: string;
}

const BODY_KEY: Record<string, string | undefined> = {
  level: "level",
  notify_channel: "notify_channel",
  if_else: "if_else",
  repeat: "repeat",
  delay: "delay",
  voicemail: undefined,
  escalation_path: "escalation_path",
};
const BODY_KEYS = ["level", "notify_channel", "if_else", "repeat", "delay", "escalation_path"];
const FOR_ROTA = new Set(["all_users_for_rota", "currently_on_call_for_rota", "next_on_call_for_rota"]);

/** Behaviour checks beyond the reference shapes. */
export function escalationPathProblems(
  body: Json,
  world: EscalationPathWorld,
  options: TreeOptions = {},
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (typeof body?.name === "string" && body.name.trim() === "")
    problems.push({ field: "name", message: "must not be empty" });
  const ids = new Map<string, string>();
  const repeats: { field: string; to: string }[] = [];
  const windows = new Set(
    (Array.isArray(body?.working_hours) ? body.working_hours : []).map((w: Json) => w?.id),
  );
  const windowRef = (ref: unknown, field: string) => {
    if (typeof ref === "string" && ref !== "" && !windows.has(ref))
      problems.push({ field, message: `no working_hours entry has id ${JSON.stringify(ref)}` });
  };
  const walk = (nodes: Json, at: string) => {
    (Array.isArray(nodes) ? nodes : []).forEach((n: Json, i: number) => {
      const here = `${at}.${i}`;
      if (typeof n?.id === "string") {
        if (ids.has(n.id))
          problems.push({ field: `${here}.id`, message: "node ids must be unique within the path" });
        else ids.set(n.id, here);
      }
      const expected = BODY_KEY[n?.type];
      for (const key of BODY_KEYS) {
        if (key !== expected && n?.[key] !== undefined && n?.[key] !== null)
          problems.push({ field: `${here}.${key}`, message: `not allowed on a ${n?.type} node` });
      }
      if (expected && (n?.[expected] === undefined || n?.[expected] === null))
        problems.push({ field: `${here}.${expected}`, message: `is required for a ${n.type} node` });
      if (options.template && n?.type === "voicemail")
        problems.push({
          field: `${here}.type`,
          message: "voicemail is only valid inside a call route's path",
        });
      const reassign = n?.escalation_path?.escalation_path_id;
      if (typeof reassign === "string") {
        const field = `${here}.escalation_path.escalation_path_id`;
        if (reassign === options.selfId)
          problems.push({ field, message: "a path cannot reassign to itself" });
        else if (world.pathIds && !world.pathIds.has(reassign))
          problems.push({ field, message: `no escalation path with id ${JSON.stringify(reassign)}` });
      }
      const targets = (n?.level ?? n?.notify_channel)?.targets;
      (Array.isArray(targets) ? targets : []).forEach((t: Json, j: number) => {
        const tf = `${here}.${n.level ? "level" : "notify_channel"}.targets.${j}`;
        if (options.template) {
          // EscalationPathTargetWithBindingV2: a concrete id, or a binding ("id omitted when binding is set").
          const hasId = typeof t?.id === "string" && t.id !== "";
          const hasBinding = t?.binding !== undefined && t?.binding !== null;
          if (hasId === hasBinding)
            problems.push({ field: `${tf}.id`, message: "set exactly one of id or binding" });
          if (hasBinding) problems.push(...bindingProblems([t.binding], `${tf}.binding`));
          if (!hasId) return;
        } else if (typeof t?.id !== "string" || t.id === "") {
          problems.push({ field: `${tf}.id`, message: "is required" });
          return;
        }
        if (t?.type === "user" && !world.userIds.has(t.id))
          problems.push({ field: `${tf}.id`, message: `no user with id ${JSON.stringify(t.id)}` });
        if (t?.type === "schedule") {
          const rotas = world.schedules.get(t.id);
          if (!rotas)
            problems.push({ field: `${tf}.id`, message: `no schedule with id ${JSON.stringify(t.id)}` });
          const forRota = FOR_ROTA.has(t.schedule_mode);
          if (forRota && !t.selected_rota_id)
            problems.push({ field: `${tf}.selected_rota_id`, message: `is required for ${t.schedule_mode}` });
          if (!forRota && t.selected_rota_id)
            problems.push({
              field: `${tf}.selected_rota_id`,
              message: "must be omitted for this schedule mode",
            });
          if (forRota && t.selected_rota_id && rotas && !rotas.has(t.selected_rota_id))
            problems.push({ field: `${tf}.selected_rota_id`, message: "no such rotation on the schedule" });
        } else if (t?.schedule_mode) {
          problems.push({
            field: `${tf}.schedule_mode`,
            message: "only schedule targets take a schedule mode",
          });
        }
      });
      const retry = n?.level?.retry_config;
      if (retry) {
        if (!Number.isInteger(retry.attempts) || retry.attempts < 2 || retry.attempts > 10)
          problems.push({
            field: `${here}.level.retry_config.attempts`,
            message: "must be between 2 and 10",
          });
        if (
          !Number.isInteger(retry.interval_seconds) ||
          retry.interval_seconds <= 0 ||
          retry.interval_seconds % 60 !== 0
        )
          problems.push({
            field: `${here}.level.retry_config.interval_seconds`,
            message: "must be a whole number of minutes (divisible by 60)",
          });
      }
      for (const key of ["level", "notify_channel"]) {
        if (n?.[key])
          windowRef(
            n[key].time_to_ack_weekday_interval_config_id,
            `${here}.${key}.time_to_ack_weekday_interval_config_id`,
          );
      }
      if (n?.delay)
        windowRef(n.delay.delay_weekday_interval_config_id, `${here}.delay.delay_weekday_interval_config_id`);
      if (n?.repeat) repeats.push({ field: `${here}.repeat.to_node`, to: n.repeat.to_node });
      if (n?.if_else) {
        // The shared engine checks condition groups; a node's conditions are one group (`.0`).
        const ifElse = `${here}.if_else`;
        for (const p of conditionGroupProblems([{ conditions: n.if_else.conditions }], ifElse))
          problems.push({
            field: p.field.replace(`${ifElse}.0.conditions`, `${ifElse}.conditions`),
            message: p.message,
          });
        walk(n.if_else.then_path, `${here}.if_else.then_path`);
        walk(n.if_else.else_path, `${here}.if_else.else_path`);
      }
    });
  };
  walk(body?.path, "path");
  const templated = body?.kind === "templated";
  if (Array.isArray(body?.path) && body.path.length === 0 && !templated)
    problems.push({ field: "path", message: "must not be empty" });
  if (!options.template) problems.push(...templatedProblems(body, world));
  for (const r of repeats) {
    if (!ids.has(r.to)) problems.push({ field: r.field, message: `no node with id ${JSON.stringify(r.to)}` });
  }
  return problems;
}

/**
 * A templated path: its template must exist (422 on `template_id`), it has no nodes or working hours
 * of its own, its bindings name the template's parameters and bind each one that is not optional
 * and has no default. A standalone path takes neither a template nor bindings.
 */
function templatedProblems(body: Json, world: EscalationPathWorld): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const bindings = body?.param_bindings && typeof body.param_bindings === "object" ? body.param_bindings : {};
  if (body?.kind !== "templated") {
    if (body?.template_id !== undefined && body?.template_id !== null)
      problems.push({ field: "template_id", message: "only a templated path takes a template" });
    if (Object.keys(bindings).length > 0)
      problems.push({ field: "param_bindings", message: "only a templated path binds parameters" });
    return problems;
  }
  if (typeof body.template_id !== "string" || body.template_id === "") {
    problems.push({ field: "template_id", message: "is required when kind is templated" });
    return problems;
  }
  if (Array.isArray(body.path) && body.path.length > 0)
    problems.push({
      field: "path",
      message: "must be empty for a templated path (its nodes come from the template)",
    });
  if (Array.isArray(body.working_hours) && body.working_hours.length > 0)
    problems.push({
      field: "working_hours",
      message: "must be empty for a templated path (they come from the template)",
    });
  const template = world.templates?.get(body.template_id);
  if (!template) {
    problems.push({
      field: "template_id",
      message: `no escalation path template with id ${JSON.stringify(body.template_id)}`,
    });
    return problems;
  }
  const params = new Map(template.params.map((p: Json) => [p.name, p]));
  for (const [name, b] of Object.entries(bindings)) {
    if (!params.has(name))
      problems.push({ field: `param_bindings.${name}`, message: "the template declares no such parameter" });
    else problems.push(...bindingProblems([b], `param_bindings.${name}`));
  }
  for (const [name, p] of params) {
    if (!p.optional && p.default_value === undefined && bindings[name] === undefined)
      problems.push({
        field: `param_bindings.${name}`,
        message: "is required: the parameter is not optional",
      });
  }
  return problems;
}

export function createEscalationPath(id: string, payload: Json): StoredEscalationPath {
  return { id, payload: structuredClone(payload), archived: false };
}

/** A full PUT: the payload replaces the stored one (omitted team ids are kept). */
export function updateEscalationPath(stored: StoredEscalationPath, payload: Json): StoredEscalationPath {
  const next = structuredClone(payload);
  if (next.team_ids === undefined) next.team_ids = stored.payload.team_ids;
  return { ...stored, payload: next };
}

/** `{escalation_path}` for a stored path. */
export function showEscalationPath(stored: StoredEscalationPath, world?: EscalationPathWorld): Json {
  return { escalation_path: renderEscalationPath(stored, world) };
}

/** Every path not archived. */
export function listEscalationPaths(
  all: Iterable<StoredEscalationPath>,
  world?: EscalationPathWorld,
): Json[] {
  return [...all].filter((p) => !p.archived).map((p) => renderEscalationPath(p, world));
}

/** `EscalationPathV2` with the API's read-back quirks. */
export function renderEscalationPath(stored: StoredEscalationPath, world?: EscalationPathWorld): Json {
  const p = stored.payload;
  const responders = new Set<string>();
  const templated = p.kind === "templated";
  const path = templated ? [] : renderNodes(p.path, responders);
  return compact({
    id: stored.id,
    name: p.name,
    kind: templated ? "templated" : "standalone",
    template_id: templated ? p.template_id : undefined,
    param_bindings:
      templated && p.param_bindings
        ? Object.fromEntries(Object.entries(p.param_bindings).map(([k, b]) => [k, renderBinding(b)]))
        : undefined,
    path,
    repeat_config: p.repeat_config,
    // No working hours are answered as an empty list (rule "omitted vs empty"); a templated path
    // answers none (they come from its template).
    working_hours: templated ? undefined : (p.working_hours ?? []),
    team_ids: [...(p.team_ids ?? [])].sort(),
    current_responders: [...responders].flatMap((id) => {
      const u = world?.users?.get(id);
      return u ? [{ id: u.id, name: u.name, email: u.email, role: u.role ?? "responder" }] : [];
    }),
  });
}

/**
 * Nodes as the API answers them (EscalationPathNodeV2 / EscalationPathTemplateNodeV2), with the
 * target quirks; the user targets met are added to `responders`.
 */
export function renderNodes(list: Json[], responders?: Set<string>): Json[] {
  const nodes = (list: Json[]): Json[] =>
    (list ?? []).map((n) =>
      compact({
        id: n.id,
        type: n.type,
        level: n.level && compact({ ...n.level, targets: targets(n.level.targets, responders) }),
        notify_channel:
          n.notify_channel && compact({ ...n.notify_channel, targets: targets(n.notify_channel.targets) }),
        if_else: n.if_else && {
          conditions: (n.if_else.conditions ?? []).map((c: Json) => renderCondition(c)),
          then_path: nodes(n.if_else.then_path),
          else_path: nodes(n.if_else.else_path),
        },
        repeat: n.repeat,
        delay: n.delay,
        escalation_path: n.escalation_path,
      }),
    );
  return nodes(list);
}

/**
 * Quirks: `user` targets answered twice, `schedule_mode: ""` on non-schedule targets. A template's
 * binding target is answered with its binding labelled (EngineParamBindingV2).
 */
function targets(list: Json[], responders?: Set<string>): Json[] {
  return (list ?? []).flatMap((t) => {
    const out = {
      ...t,
      schedule_mode: t.schedule_mode ?? "",
      ...(t.binding ? { binding: renderBinding(t.binding) } : {}),
    };
    if (t.binding) return [out];
    if (t.type === "user") {
      responders?.add(t.id);
      return [out, { ...out }];
    }
    return [out];
  });
}

// ---------- the emulator family ----------

export const ESCALATION_PATHS = "escalation_paths";

/** What the emulator's store knows about users and schedules, for reference checks. */
export function escalationPathWorld(store: Store): EscalationPathWorld {
  const users = store.collection<StoredUser>(USERS).all();
  return {
    userIds: new Set(users.map((u) => u.id)),
    users: new Map(users.map((u) => [u.id, u])),
    schedules: new Map(
      store
        .collection<StoredSchedule>(SCHEDULES)
        .filter((s) => !s.archived)
        .map((s) => [s.id, rotationIds(s)]),
    ),
    pathIds: new Set(
      store
        .collection<StoredEscalationPath>(ESCALATION_PATHS)
        .filter((p) => !p.archived)
        .map((p) => p.id),
    ),
    templates: new Map(
      store
        .collection<TemplateForPaths>(ESCALATION_PATH_TEMPLATES)
        .filter((t) => !t.archived)
        .map((t) => [t.id, t]),
    ),
  };
}

function findPath(store: Store, id: string): StoredEscalationPath | undefined {
  const p = store.collection<StoredEscalationPath>(ESCALATION_PATHS).get(id);
  return p && !p.archived ? p : undefined;
}

export const escalationPaths = defineFamily({
  name: "escalation_paths",
  roles: {
    read: ["viewer", "on_call_viewer"],
    write: ["on_call_editor"],
    teamWrite: ["on_call_editor"],
    // `team_ids` omitted on update: unchanged.
    teamOwned: teamOwnedBy(
      findPath,
      (p) => p.payload.team_ids,
      (body) => body.team_ids,
    ),
  },
  collections: [ESCALATION_PATHS],
  routes: [
    operation("EscalationsV2ListPaths", "read", ({ store, query }) => {
      const live = store.collection<StoredEscalationPath>(ESCALATION_PATHS).filter((p) => !p.archived);
      const { page, pagination_meta } = paginate(live, query);
      return {
        body: { escalation_paths: listEscalationPaths(page, escalationPathWorld(store)), pagination_meta },
      };
    }),

    operation("EscalationsV2CreatePath", "write", ({ store, body, newId }) => {
      const world = escalationPathWorld(store);
      throwIfProblems(escalationPathProblems(body, world));
      requireTeams(store, body.team_ids);
      const stored = store
        .collection<StoredEscalationPath>(ESCALATION_PATHS)
        .set(createEscalationPath(newId(), body));
      return { body: showEscalationPath(stored, world) };
    }),

    operation("EscalationsV2ShowPath", "read", ({ store, params }) => {
      const p = findPath(store, params.id!);
      if (!p) throw notFound(`No escalation path with id ${params.id}`);
      return { body: showEscalationPath(p, escalationPathWorld(store)) };
    }),

    operation("EscalationsV2UpdatePath", "write", ({ store, params, body }) => {
      const p = findPath(store, params.id!);
      if (!p) throw notFound(`No escalation path with id ${params.id}`);
      const world = escalationPathWorld(store);
      throwIfProblems(escalationPathProblems(body, world, { selfId: p.id }));
      requireTeams(store, body.team_ids);
      const stored = store
        .collection<StoredEscalationPath>(ESCALATION_PATHS)
        .set(updateEscalationPath(p, body));
      return { body: showEscalationPath(stored, world) };
    }),

    operation("EscalationsV2DestroyPath", "write", ({ store, params }) => {
      const p = findPath(store, params.id!);
      if (!p) throw notFound(`No escalation path with id ${params.id}`);
      store.collection<StoredEscalationPath>(ESCALATION_PATHS).set({ ...p, archived: true });
      return {};
    }),
  ],
});
