/**
 * Emulator family: schedule overrides (API v2). `GET /v2/schedule_overrides?schedule_id=…`
 * (paginated; `rotation_id`, `layer_id` narrow it) and `POST /v2/schedule_overrides` from
 * reference.json (schedules); `GET/PUT/DELETE /v2/schedule_overrides/{id}` from newer clients
 * (reference-newer.json, shared/api/NEWER.md "schedule_overrides — additions"). The show's answer
 * type was not read (its example is `{override}`): it is registered here as
 * `SchedulesShowOverrideResultV2` = `{override: ScheduleOverrideV2}`.
 *
 * Behaviour, from the operations' documentation:
 * - the schedule must exist (422 on `schedule_id`); the rotation must be one of the schedule's and
 *   the layer one of that rotation's (422 on `rotation_id` / `layer_id`); `end_at` after `start_at`
 *   (422 on `end_at`); the user reference (`id`, `email` or `slack_user_id`, exactly one) must name
 *   a user of the account (422 on `user`);
 * - an override cannot be reassigned: an update whose user is another one is refused (422 on `user`);
 * - overrides on a layer cannot overlap: a write whose window overlaps a neighbour's deletes the
 *   neighbour and makes its time left outside the new window into new overrides, with new ids (the
 *   update's documentation; a create is given the same rule: the API's "cannot overlap" is the
 *   layer's);
 * - deleted overrides are not shown (404) nor listed; deleting one already deleted succeeds (204);
 *   an id that never was an override is 404.
 * The API's refusal of an override in the past is not documented: none is refused here.
 * Read-back quirk: timestamps are answered in UTC with milliseconds (`2031-01-01T08:00:00.000Z`).
 */
import { defineFamily, operation, paginate } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import { reference, registerLocalOperation, registerLocalType } from "../shapes";
import type { Store } from "../store";
import { findSchedule, SCHEDULE_ROLES, type StoredSchedule } from "./schedules";
import { renderUser, type StoredUser, USERS } from "./users";

type Json = any;

export const SCHEDULE_OVERRIDES = "schedule_overrides";

export interface StoredOverride {
  id: string;
  schedule_id: string;
  rotation_id: string;
  layer_id: string;
  user_id: string;
  start_at: string;
  end_at: string;
  created_at: string;
  updated_at: string;
  deleted_at?: string;
}

if (!reference().types.SchedulesShowOverrideResultV2) {
  registerLocalType("SchedulesShowOverrideResultV2", {
    fields: [{ name: "override", type: "object", required: true, ref: "ScheduleOverrideV2" }],
  });
  registerLocalOperation({
    operation_id: "SchedulesV2ShowOverride",
    method: "GET",
    path: "/v2/schedule_overrides/{id}",
    summary: "ShowOverride Schedules V2 (emulator: answer type from the spec's example)",
    path_params: [{ name: "id", type: "string" }],
    responses: { "200": "SchedulesShowOverrideResultV2" },
  });
}

const utc = (t: string) => new Date(Date.parse(t)).toISOString();

/** The user a `UserReferencePayloadV2` names, if any (e-mail case-insensitively). */
function findUser(store: Store, ref: Json): StoredUser | undefined {
  const users = store.collection<StoredUser>(USERS).all();
  if (typeof ref?.id === "string") return users.find((u) => u.id === ref.id);
  if (typeof ref?.email === "string")
    return users.find((u) => (u.email ?? "").toLowerCase() === ref.email.toLowerCase());
  if (typeof ref?.slack_user_id === "string") return users.find((u) => u.slack_user_id === ref.slack_user_id);
  return undefined;
}

function problems(store: Store, body: Json, schedule: StoredSchedule | undefined, scheduleId: string) {
  const out: { field: string; message: string; code?: string }[] = [];
  if (!schedule) out.push({ field: "schedule_id", message: `no schedule with id ${scheduleId}` });
  else {
    const rotation = ((schedule.schedule?.config?.rotations ?? []) as Json[]).filter(
      (r) => r.id === body.rotation_id,
    );
    if (rotation.length === 0)
      out.push({
        field: "rotation_id",
        message: `no rotation ${body.rotation_id} on schedule ${schedule.id}`,
      });
    else if (!rotation.some((r) => ((r.layers ?? []) as Json[]).some((l) => l.id === body.layer_id)))
      out.push({ field: "layer_id", message: `no layer ${body.layer_id} in rotation ${body.rotation_id}` });
  }
  const keys = ["id", "email", "slack_user_id"].filter((k) => body.user?.[k] !== undefined);
  if (keys.length !== 1)
    out.push({ field: "user", message: "name the user by exactly one of id, email or slack_user_id" });
  else if (!findUser(store, body.user))
    out.push({ field: `user.${keys[0]}`, message: `no user with ${keys[0]} ${body.user[keys[0]!]}` });
  if (!(Date.parse(body.end_at) > Date.parse(body.start_at)))
    out.push({ field: "end_at", message: "must be after start_at" });
  return out;
}

function live(store: Store, id: string): StoredOverride {
  const o = store.collection<StoredOverride>(SCHEDULE_OVERRIDES).get(id);
  if (!o || o.deleted_at !== undefined) throw notFound(`No schedule override with id ${id}`);
  return o;
}

/** `ScheduleOverrideV2`. */
function render(store: Store, o: StoredOverride): Json {
  const user = store.collection<StoredUser>(USERS).get(o.user_id);
  return {
    id: o.id,
    schedule_id: o.schedule_id,
    rotation_id: o.rotation_id,
    layer_id: o.layer_id,
    ...(user ? { user: renderUser(user) } : {}),
    start_at: o.start_at,
    end_at: o.end_at,
    created_at: o.created_at,
    updated_at: o.updated_at,
  };
}

/**
 * The layer's rule, no overlaps: every other live override of the layer that overlaps `o`'s window
 * is deleted, and its time outside the window comes back as new overrides (new ids, same user).
 */
function takeOver(store: Store, o: StoredOverride, newId: () => string, nowIso: string): void {
  const c = store.collection<StoredOverride>(SCHEDULE_OVERRIDES);
  const [start, end] = [Date.parse(o.start_at), Date.parse(o.end_at)];
  const neighbours = c
    .all()
    .filter(
      (n) =>
        n.id !== o.id &&
        n.deleted_at === undefined &&
        n.schedule_id === o.schedule_id &&
        n.rotation_id === o.rotation_id &&
        n.layer_id === o.layer_id &&
        Date.parse(n.start_at) < end &&
        Date.parse(n.end_at) > start,
    );
  for (const n of neighbours) {
    c.set({ ...n, deleted_at: nowIso });
    const piece = (start_at: string, end_at: string) =>
      c.set({ ...n, id: newId(), start_at, end_at, created_at: nowIso, updated_at: nowIso });
    if (Date.parse(n.start_at) < start) piece(n.start_at, o.start_at);
    if (Date.parse(n.end_at) > end) piece(o.end_at, n.end_at);
  }
}

export const scheduleOverrides = defineFamily({
  name: "schedule_overrides",
  // The schedules' row of the role table, and the overrides' own role.
  roles: {
    ...SCHEDULE_ROLES,
    write: [...SCHEDULE_ROLES.write, "schedule_overrides_editor"],
    teamWrite: [...(SCHEDULE_ROLES.teamWrite ?? []), "schedule_overrides_editor"],
  },
  collections: [SCHEDULE_OVERRIDES],
  routes: [
    operation("SchedulesV2ListOverrides", "read", ({ store, query }) => {
      const all = store
        .collection<StoredOverride>(SCHEDULE_OVERRIDES)
        .all()
        .filter(
          (o) =>
            o.deleted_at === undefined &&
            o.schedule_id === query.schedule_id &&
            (query.rotation_id === undefined || o.rotation_id === query.rotation_id) &&
            (query.layer_id === undefined || o.layer_id === query.layer_id),
        );
      const { page, pagination_meta } = paginate(all, query);
      return { body: { overrides: page.map((o) => render(store, o)), pagination_meta } };
    }),
    operation("SchedulesV2CreateOverride", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(problems(store, body, findSchedule(store, body.schedule_id), body.schedule_id));
      const o = store.collection<StoredOverride>(SCHEDULE_OVERRIDES).set({
        id: newId(),
        schedule_id: body.schedule_id,
        rotation_id: body.rotation_id,
        layer_id: body.layer_id,
        user_id: findUser(store, body.user)!.id,
        start_at: utc(body.start_at),
        end_at: utc(body.end_at),
        created_at: nowIso,
        updated_at: nowIso,
      });
      takeOver(store, o, newId, nowIso);
      return { body: { override: render(store, o) } };
    }),
    operation("SchedulesV2ShowOverride", "read", ({ store, params }) => ({
      body: { override: render(store, live(store, params.id!)) },
    })),
    operation("SchedulesV2UpdateOverride", "write", ({ store, params, body, newId, nowIso }) => {
      const current = live(store, params.id!);
      throwIfProblems(problems(store, body, findSchedule(store, current.schedule_id), current.schedule_id));
      const user = findUser(store, body.user)!;
      if (user.id !== current.user_id)
        throwIfProblems([
          {
            field: "user",
            message:
              "an override cannot be reassigned: send the user it already has, and delete and recreate it to put someone else on call",
          },
        ]);
      const o = store.collection<StoredOverride>(SCHEDULE_OVERRIDES).set({
        ...current,
        rotation_id: body.rotation_id,
        layer_id: body.layer_id,
        start_at: utc(body.start_at),
        end_at: utc(body.end_at),
        updated_at: nowIso,
      });
      takeOver(store, o, newId, nowIso);
      return { body: { override: render(store, o) } };
    }),
    operation("SchedulesV2DestroyOverride", "write", ({ store, params, nowIso }) => {
      const c = store.collection<StoredOverride>(SCHEDULE_OVERRIDES);
      const o = c.get(params.id!);
      if (!o) throw notFound(`No schedule override with id ${params.id}`);
      // Deleting one already deleted succeeds ("safe to retry").
      if (o.deleted_at === undefined) c.set({ ...o, deleted_at: nowIso });
      return {};
    }),
  ],
});
