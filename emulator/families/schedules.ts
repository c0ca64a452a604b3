/**
 * Emulator family: schedules (API v2). `GET/POST /v2/schedules`, `GET/PUT/DELETE /v2/schedules/{id}`;
 * bodies wrapped in `{"schedule": …}`.
 *
 * Behaviour beyond the reference shapes: the time zone must be an IANA name and cannot be changed
 * by an update (422 on `schedule.timezone`, as the real API: TF provider PR #124); a rotation's
 * versions need distinct `effective_from`; `working_intervals` must not be an empty list; users
 * must exist (seeded users, by id or e-mail); handover intervals at least 1.
 *
 * Read-back reproduces the real API: timestamps answered in UTC (`…Z`, no fraction) whatever offset
 * was written; a version written without `effective_from` is the rotation's first version (the
 * reference: "each version applies from its effective_from until the next version's. A rotation's
 * first version has no effective_from"): in effect from the start, answered without one; versions
 * superseded by a later version already in effect are dropped; users answered as full user objects; layers
 * without id get a server id; the deprecated `working_interval` mirrors `working_intervals`;
 * `scheduling_mode` answered `sequential` when omitted; team ids sorted. An update that omits
 * `holidays_public_config` or `team_ids` leaves them unchanged. Delete archives. Names are not
 * unique (the reference documents no such rule): two schedules may share one. A `team_ids` entry
 * that is not a team is a 400 `invalid_reference`. Destroy refuses (422) while the schedule has
 * active replicas (the reference: "remove all replicas before deleting"; scheduleReplicas.ts).
 */
import { defineFamily, operation, paginate } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import { type FamilyRoles, teamOwnedBy } from "../roles";
import { isRfc3339 } from "../shapes";
import type { Store } from "../store";
import { compact, isTimeZone } from "./shared/records";
import { requireTeams } from "./teams";
import { type StoredUser, USERS } from "./users";

/** A 422 problem: the API field path and a message. */
export interface FieldProblem {
  field: string;
  message: string;
}

type Json = any;

export interface StoredSchedule {
  id: string;
  schedule: Json;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
}

/** Seeded users, for user references. */
export interface ScheduleWorld {
  users: ReadonlyArray<{ id: string; name: string; email: string; role?: string }>;
}

/** Behaviour checks beyond the reference shapes; `existing` is the stored schedule on update. */
export function scheduleProblems(
  body: Json,
  world: ScheduleWorld,
  existing?: StoredSchedule,
): FieldProblem[] {
  const s = body?.schedule ?? {};
  const problems: FieldProblem[] = [];
  if (!existing && (typeof s.name !== "string" || s.name.trim() === ""))
    problems.push({ field: "schedule.name", message: "is required" });
  if (!existing && !isTimeZone(s.timezone))
    problems.push({ field: "schedule.timezone", message: "must be an IANA time zone" });
  if (existing && s.timezone !== undefined && s.timezone !== existing.schedule.timezone)
    problems.push({ field: "schedule.timezone", message: "cannot be changed once the schedule exists" });
  const versions = new Map<string, Set<number>>();
  (s.config?.rotations ?? []).forEach((r: Json, i: number) => {
    const at = `schedule.config.rotations.${i}`;
    if (!r.id) problems.push({ field: `${at}.id`, message: "is required" });
    if (r.effective_from !== undefined && !isRfc3339(String(r.effective_from)))
      problems.push({ field: `${at}.effective_from`, message: "must be an RFC 3339 timestamp" });
    if (r.handover_start_at === undefined || !isRfc3339(String(r.handover_start_at)))
      problems.push({ field: `${at}.handover_start_at`, message: "is required (RFC 3339 timestamp)" });
    const when = r.effective_from === undefined ? -1 : Date.parse(r.effective_from);
    const seen = versions.get(r.id) ?? new Set<number>();
    if (seen.has(when))
      problems.push({
        field: `${at}.effective_from`,
        message: "two versions of a rotation take effect at the same time",
      });
    seen.add(when);
    versions.set(r.id, seen);
    if (!Array.isArray(r.handovers) || r.handovers.length === 0)
      problems.push({ field: `${at}.handovers`, message: "needs at least one handover" });
    (r.handovers ?? []).forEach((h: Json, j: number) => {
      if (!Number.isInteger(h.interval) || h.interval < 1)
        problems.push({ field: `${at}.handovers.${j}.interval`, message: "must be at least 1" });
    });
    if (!Array.isArray(r.layers) || r.layers.length === 0)
      problems.push({ field: `${at}.layers`, message: "needs at least one layer" });
    if (Array.isArray(r.working_intervals) && r.working_intervals.length === 0)
      problems.push({ field: `${at}.working_intervals`, message: "must not be empty (omit it instead)" });
    (r.users ?? []).forEach((u: Json, j: number) => {
      if (!findUser(world, u)) problems.push({ field: `${at}.users.${j}`, message: "no such user" });
    });
  });
  for (const [j, c] of (s.holidays_public_config?.country_codes ?? []).entries()) {
    if (!/^[A-Z]{2}$/.test(c))
      problems.push({
        field: `schedule.holidays_public_config.country_codes.${j}`,
        message: "must be an ISO 3166-1 alpha-2 code",
      });
  }
  return problems;
}

/** The seeded user a reference (`{id}` or `{email}`) names. */
export function findUser(world: ScheduleWorld, ref: Json) {
  if (ref?.id) return world.users.find((u) => u.id === ref.id);
  if (ref?.email) return world.users.find((u) => u.email.toLowerCase() === String(ref.email).toLowerCase());
  return undefined;
}

/** When a stored version takes effect: a version without `effective_from` is in effect from the start. */
const effectiveFrom = (r: Json): number =>
  r.effective_from === undefined ? Number.NEGATIVE_INFINITY : Date.parse(r.effective_from);

const utc = (t: string) => new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * Stores what the server keeps: timestamps in UTC, versions without one kept without one, layer ids
 * (`newId`: ULID-shaped, unique across restarts of a persisted emulator).
 */
function normaliseConfig(config: Json, newId: () => string): Json {
  return {
    rotations: (config?.rotations ?? []).map((r: Json) => ({
      ...r,
      effective_from: r.effective_from === undefined ? undefined : utc(r.effective_from),
      handover_start_at: utc(r.handover_start_at),
      layers: (r.layers ?? []).map((l: Json) => ({
        id: l.id ?? newId(),
        name: l.name,
      })),
    })),
  };
}

export function createSchedule(id: string, body: Json, now: string, newId: () => string): StoredSchedule {
  const s = structuredClone(body.schedule ?? {});
  return {
    id,
    schedule: {
      name: s.name,
      timezone: s.timezone,
      annotations: s.annotations ?? {},
      config: normaliseConfig(s.config, newId),
      holidays_public_config: s.holidays_public_config,
      team_ids: s.team_ids ?? [],
    },
    createdAt: now,
    updatedAt: now,
    archived: false,
  };
}

/**
 * A v2 update: the config sent replaces the whole configuration (future versions included); fields
 * left out (`holidays_public_config`, `team_ids`, `name`, `annotations`) are unchanged.
 */
export function updateSchedule(
  stored: StoredSchedule,
  body: Json,
  now: string,
  newId: () => string,
): StoredSchedule {
  const s = structuredClone(body.schedule ?? {});
  const cur = stored.schedule;
  return {
    ...stored,
    schedule: {
      name: s.name ?? cur.name,
      timezone: cur.timezone,
      annotations: s.annotations ?? cur.annotations,
      config: s.config !== undefined ? normaliseConfig(s.config, newId) : cur.config,
      holidays_public_config:
        s.holidays_public_config !== undefined ? s.holidays_public_config : cur.holidays_public_config,
      team_ids: s.team_ids ?? cur.team_ids,
    },
    updatedAt: now,
  };
}

export function showSchedule(stored: StoredSchedule, world: ScheduleWorld, now = Date.now()): Json {
  return { schedule: renderSchedule(stored, world, now) };
}

export function listSchedules(all: Iterable<StoredSchedule>, world: ScheduleWorld, now = Date.now()): Json[] {
  return [...all].filter((s) => !s.archived).map((s) => renderSchedule(s, world, now));
}

/** `ScheduleV2` with the read-back quirks. */
export function renderSchedule(stored: StoredSchedule, world: ScheduleWorld, now = Date.now()): Json {
  const s = stored.schedule;
  const rotations: Json[] = s.config.rotations;
  // Versions superseded by a later version already in effect are dropped.
  const kept = rotations.filter((r) => {
    const t = effectiveFrom(r);
    return !rotations.some(
      (o) => o.id === r.id && o !== r && effectiveFrom(o) > t && effectiveFrom(o) <= now,
    );
  });
  const rendered = kept.map((r) => {
    const users = (r.users ?? []).flatMap((u: Json) => {
      const found = findUser(world, u);
      return found
        ? [{ id: found.id, name: found.name, email: found.email, role: found.role ?? "responder" }]
        : [];
    });
    return compact({
      id: r.id,
      name: r.name,
      effective_from: r.effective_from,
      handover_start_at: r.handover_start_at,
      handovers: r.handovers,
      layers: r.layers,
      users,
      working_intervals: r.working_intervals ?? [],
      working_interval: r.working_intervals ?? [],
      scheduling_mode: r.scheduling_mode ?? "sequential",
    });
  });
  const current = rendered
    .filter((r: Json) => effectiveFrom(r) <= now && r.users.length > 0)
    .map((r: Json) => ({
      rotation_id: r.id,
      layer_id: r.layers[0]?.id,
      start_at: r.handover_start_at,
      end_at: utc(new Date(now + 3_600_000).toISOString()),
      user: r.users[0],
    }));
  return compact({
    id: stored.id,
    name: s.name,
    timezone: s.timezone,
    annotations: s.annotations ?? {},
    config: { rotations: rendered },
    holidays_public_config: s.holidays_public_config,
    team_ids: [...(s.team_ids ?? [])].sort(),
    permalink: `https://app.incident.io/on-call/schedules/${stored.id}`,
    created_at: stored.createdAt,
    updated_at: stored.updatedAt,
    current_shifts: current,
  });
}

/** Rotation ids of a stored schedule (escalation path targets check `selected_rota_id`). */
export function rotationIds(stored: StoredSchedule): Set<string> {
  return new Set((stored.schedule.config?.rotations ?? []).map((r: Json) => r.id));
}

// ---------- the emulator family ----------

export const SCHEDULES = "schedules";
/** The schedule replicas' collection (scheduleReplicas.ts): a schedule with live ones cannot be destroyed. */
export const SCHEDULE_REPLICAS = "schedule_replicas";

/** The seeded users of the emulator's store, for user references. */
export function scheduleWorld(store: Store): ScheduleWorld {
  return {
    users: store
      .collection<StoredUser>(USERS)
      .all()
      .map((u) => ({ id: u.id, name: u.name, email: u.email ?? "", role: u.role })),
  };
}

/** A schedule that exists and is not archived. */
export function findSchedule(store: Store, id: string): StoredSchedule | undefined {
  const s = store.collection<StoredSchedule>(SCHEDULES).get(id);
  return s && !s.archived ? s : undefined;
}

const secondsIso = (iso: string) => iso.replace(/\.\d{3}Z$/, "Z");

/**
 * Who reads and writes schedules, and the families of a schedule's parts (rotations' replicas, sync
 * rules and targets, overrides), whose objects do not name owners of their own.
 */
export const SCHEDULE_ROLES: FamilyRoles = {
  read: ["viewer", "on_call_viewer", "schedules_reader"],
  write: ["schedules_editor", "on_call_editor"],
  teamRead: ["schedules_reader"],
  teamWrite: ["schedules_editor", "on_call_editor"],
};

export const schedules = defineFamily({
  name: "schedules",
  roles: {
    ...SCHEDULE_ROLES,
    // `team_ids` omitted on update: unchanged.
    teamOwned: teamOwnedBy(
      findSchedule,
      (s) => s.schedule?.team_ids,
      (body) => body.schedule?.team_ids,
    ),
  },
  collections: [SCHEDULES],
  routes: [
    operation("SchedulesV2List", "read", ({ store, query, now }) => {
      const world = scheduleWorld(store);
      const live = store.collection<StoredSchedule>(SCHEDULES).filter((s) => !s.archived);
      const { page, pagination_meta } = paginate(live, query);
      return {
        body: {
          schedules: listSchedules(page, world, now),
          pagination_meta: { ...pagination_meta, total_record_count: live.length },
        },
      };
    }),

    operation("SchedulesV2Create", "write", ({ store, body, newId, nowIso, now }) => {
      const world = scheduleWorld(store);
      throwIfProblems(scheduleProblems(body, world));
      requireTeams(store, body.schedule?.team_ids);
      const stored = store
        .collection<StoredSchedule>(SCHEDULES)
        .set(createSchedule(newId(), body, secondsIso(nowIso), newId));
      return { body: showSchedule(stored, world, now) };
    }),

    operation("SchedulesV2Show", "read", ({ store, params, now }) => {
      const s = findSchedule(store, params.id!);
      if (!s) throw notFound(`No schedule with id ${params.id}`);
      return { body: showSchedule(s, scheduleWorld(store), now) };
    }),

    operation("SchedulesV2Update", "write", ({ store, params, body, nowIso, now, newId }) => {
      const s = findSchedule(store, params.id!);
      if (!s) throw notFound(`No schedule with id ${params.id}`);
      const world = scheduleWorld(store);
      throwIfProblems(scheduleProblems(body, world, s));
      requireTeams(store, body.schedule?.team_ids);
      const stored = store
        .collection<StoredSchedule>(SCHEDULES)
        .set(updateSchedule(s, body, secondsIso(nowIso), newId));
      return { body: showSchedule(stored, world, now) };
    }),

    operation("SchedulesV2Destroy", "write", ({ store, params }) => {
      const s = findSchedule(store, params.id!);
      if (!s) throw notFound(`No schedule with id ${params.id}`);
      // The reference: "Will fail if the schedule has active replicas — remove all replicas before deleting."
      const replicas = store
        .collection<{ id: string; schedule_id: string; archived_at?: string }>(SCHEDULE_REPLICAS)
        .all()
        .filter((r) => r.schedule_id === s.id && r.archived_at === undefined);
      if (replicas.length > 0)
        throwIfProblems([
          {
            message: `the schedule has ${replicas.length} active replica(s): remove them before deleting it`,
          },
        ]);
      store.collection<StoredSchedule>(SCHEDULES).set({ ...s, archived: true });
      return {};
    }),
  ],
});
