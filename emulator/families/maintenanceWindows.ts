/**
 * Emulator family: maintenance windows (API v1). `GET/POST /v1/maintenance_windows` (paginated;
 * `status` filters: active = start_at <= now < end_at, upcoming = now < start_at, past = end_at <=
 * now), `GET/PUT/DELETE /v1/maintenance_windows/{id}`; flat bodies.
 *
 * Behaviour beyond the reference shapes: `lead` is a user reference (`id`, `email` or
 * `slack_user_id`) that must name a user of the account (422 on `lead`, like schedules' users), read
 * back as the full user (`ActorV2.user`); `end_at` must be after `start_at` (422 on `end_at`);
 * notification minutes are at least 0; names must not be blank. Timestamps are answered in UTC (`…Z`,
 * no fraction) whatever offset was written; `reroute_on_end` / `resolve_on_end` default to false.
 * Condition groups and escalation-target bindings go through the shared engine (./shared/engine.ts)
 * and read back as it answers them (labels, operation aliases, padded bindings); a notify channel
 * is answered with `is_private` (from the workspace's private channels).
 *
 * Delete archives (`archived_at` is set; Show still answers the window, the list leaves it out,
 * updates and deletes answer 404) and "cannot archive active windows": deleting a window that is
 * active now is refused with 409 `conflict` (the reference names no status for it). The seed's
 * optional `force` query on DELETE is not in the reference and not served.
 */
import { defineFamily, operation, paginate } from "../family";
import { conflict, notFound, throwIfProblems } from "../http/errors";
import { SETTINGS_ROLES } from "../roles";
import type { Store } from "../store";
import {
  bindingProblems,
  conditionGroupProblems,
  PRIVATE_SLACK_CHANNELS,
  renderBinding,
  renderConditionGroups,
} from "./shared/engine";
import { compact } from "./shared/records";
import { blankProblems, findUserByRef } from "./shared/settings";
import { renderUser } from "./users";

export const MAINTENANCE_WINDOWS = "maintenance_windows";

type Json = any;

export interface StoredMaintenanceWindow {
  id: string;
  /** The written payload (timestamps in UTC), lead resolved to a user id. */
  payload: Json;
  lead_id: string;
  created_at: string;
  updated_at: string;
  archived_at?: string;
}

const utc = (t: string) => new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");

function problems(store: Store, body: Json) {
  const out: { field: string; message: string }[] = [...blankProblems(body, ["name"])];
  if (!findUserByRef(store, body.lead)) {
    out.push({ field: "lead", message: "must name a user of the account by id, email or slack_user_id" });
  }
  if (Date.parse(body.end_at) <= Date.parse(body.start_at)) {
    out.push({ field: "end_at", message: "must be after start_at" });
  }
  for (const f of ["notify_start_minutes_before", "notify_end_minutes_before"]) {
    if (typeof body[f] === "number" && body[f] < 0) out.push({ field: f, message: "must be at least 0" });
  }
  out.push(...conditionGroupProblems(body.alert_condition_groups, "alert_condition_groups"));
  (body.escalation_targets ?? []).forEach((t: Json, i: number) => {
    for (const k of ["escalation_paths", "users"]) {
      if (t?.[k]) out.push(...bindingProblems([t[k]], `escalation_targets.${i}.${k}`));
    }
  });
  return out;
}

function stored(store: Store, body: Json): Omit<StoredMaintenanceWindow, "id" | "created_at" | "updated_at"> {
  const { lead: _lead, ...rest } = body;
  return {
    payload: { ...rest, start_at: utc(body.start_at), end_at: utc(body.end_at) },
    lead_id: findUserByRef(store, body.lead)!.id,
  };
}

/** `MaintenanceWindowV1`. */
function render(store: Store, w: StoredMaintenanceWindow): Json {
  const p = w.payload;
  const lead = findUserByRef(store, { id: w.lead_id });
  return compact({
    id: w.id,
    name: p.name,
    start_at: p.start_at,
    end_at: p.end_at,
    lead: lead ? { user: renderUser(lead) } : {},
    show_in_sidebar: p.show_in_sidebar,
    alert_condition_groups: renderConditionGroups(p.alert_condition_groups),
    escalation_targets: p.escalation_targets?.map((t: Json) =>
      compact({
        escalation_paths: t.escalation_paths ? renderBinding(t.escalation_paths) : undefined,
        users: t.users ? renderBinding(t.users) : undefined,
      }),
    ),
    incident_id: p.incident_id,
    notification_message: p.notification_message,
    notify_channels: p.notify_channels?.map((c: Json) =>
      compact({ ...c, is_private: PRIVATE_SLACK_CHANNELS.has(c.channel_id) }),
    ),
    notify_start_minutes_before: p.notify_start_minutes_before,
    notify_end_minutes_before: p.notify_end_minutes_before,
    reroute_on_end: p.reroute_on_end ?? false,
    resolve_on_end: p.resolve_on_end ?? false,
    created_at: w.created_at,
    updated_at: w.updated_at,
    archived_at: w.archived_at,
  });
}

function statusAt(w: StoredMaintenanceWindow, now: number): "active" | "upcoming" | "past" {
  if (now < Date.parse(w.payload.start_at)) return "upcoming";
  return now < Date.parse(w.payload.end_at) ? "active" : "past";
}

/** The window, archived or not (Show answers both), or a 404. */
function anyWindow(store: Store, id: string): StoredMaintenanceWindow {
  const w = store.collection<StoredMaintenanceWindow>(MAINTENANCE_WINDOWS).get(id);
  if (!w) throw notFound(`No maintenance window with id ${id}`);
  return w;
}

/** A window that is not archived, or a 404 (archived windows cannot be changed). */
function liveWindow(store: Store, id: string): StoredMaintenanceWindow {
  const w = anyWindow(store, id);
  if (w.archived_at !== undefined) throw notFound(`Maintenance window ${id} is archived`);
  return w;
}

export const maintenanceWindows = defineFamily({
  name: "maintenance_windows",
  roles: SETTINGS_ROLES,
  collections: [MAINTENANCE_WINDOWS],
  routes: [
    operation("MaintenanceWindowsV1List", "read", ({ store, query, now }) => {
      const all = store
        .collection<StoredMaintenanceWindow>(MAINTENANCE_WINDOWS)
        .all()
        .filter((w) => w.archived_at === undefined)
        .filter((w) => typeof query.status !== "string" || statusAt(w, now) === query.status);
      const { page, pagination_meta } = paginate(all, query);
      return { body: { maintenance_windows: page.map((w) => render(store, w)), pagination_meta } };
    }),
    operation("MaintenanceWindowsV1Create", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(problems(store, body));
      const w = store.collection<StoredMaintenanceWindow>(MAINTENANCE_WINDOWS).set({
        id: newId(),
        ...stored(store, body),
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { body: { maintenance_window: render(store, w) } };
    }),
    operation("MaintenanceWindowsV1Show", "read", ({ store, params }) => ({
      body: { maintenance_window: render(store, anyWindow(store, params.id!)) },
    })),
    operation("MaintenanceWindowsV1Update", "write", ({ store, params, body, nowIso }) => {
      const current = liveWindow(store, params.id!);
      throwIfProblems(problems(store, body));
      const w = store
        .collection<StoredMaintenanceWindow>(MAINTENANCE_WINDOWS)
        .set({ ...current, ...stored(store, body), updated_at: nowIso });
      return { body: { maintenance_window: render(store, w) } };
    }),
    operation("MaintenanceWindowsV1Delete", "write", ({ store, params, now, nowIso }) => {
      const w = liveWindow(store, params.id!);
      if (statusAt(w, now) === "active") {
        throw conflict(
          `the maintenance window "${w.payload.name}" is active (until ${w.payload.end_at}): an active window cannot be archived`,
        );
      }
      store.collection<StoredMaintenanceWindow>(MAINTENANCE_WINDOWS).set({ ...w, archived_at: nowIso });
      return {};
    }),
  ],
});
