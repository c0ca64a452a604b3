/**
 * Emulator family: schedule replicas (API v2). `GET/POST /v2/schedules/{schedule_id}/replicas`
 * (unpaginated: the answer is `{schedule_replicas}` alone), `GET/DELETE
 * /v2/schedules/{schedule_id}/replicas/{id}`. The create body is wrapped (`{"schedule_replica": …}`).
 * There is no update: a replica is changed by deleting it and creating another.
 *
 * Behaviour from the reference: the schedule (path) must exist (404); `replica_provider` is one of
 * `jsm`, `native`, `opsgenie`, `pagerduty` and `sources`, `replica_provider_id` and
 * `replica_fallback_user_id` are required (the shapes); `mirror_window_days` "defaults to 14 if not
 * set; maximum 90" (422 above 90 or below 1: the minimum is a guess, the reference gives none);
 * each source names a rotation of the schedule and a layer of that rotation (422 on the source's
 * field), and `sources` must not be empty (a guess: a replica of nothing syncs nothing). Several
 * replicas may target the same external schedule ("overrides are only removed when the last replica
 * pointing to that schedule is deleted"): none is refused as a duplicate. The external ids are not
 * checked (the emulator has no external provider); `user_statuses` lists the schedule's users, none
 * mapped, and the replica has never synced (no `last_synced_at`). Destroy archives; archived
 * replicas answer 404. A v2 schedule with active replicas cannot be destroyed (schedules.ts).
 */
import { defineFamily, operation } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import type { Store } from "../store";
import { findSchedule, SCHEDULE_REPLICAS, SCHEDULE_ROLES, type StoredSchedule } from "./schedules";
import { liveRecords } from "./shared/settings";

type Json = any;

export const REPLICA_PROVIDERS = ["jsm", "native", "opsgenie", "pagerduty"] as const;
const DEFAULT_MIRROR_WINDOW_DAYS = 14;
const MAX_MIRROR_WINDOW_DAYS = 90;

interface StoredReplica {
  id: string;
  schedule_id: string;
  replica_provider: string;
  replica_provider_id: string;
  replica_fallback_user_id: string;
  mirror_window_days: number;
  sources: { rotation_id: string; layer_id: string }[];
  created_at: string;
  updated_at: string;
  archived_at?: string;
}

function scheduleOf(store: Store, id: string): StoredSchedule {
  const s = findSchedule(store, id);
  if (!s) throw notFound(`No schedule with id ${id}`);
  return s;
}

function findReplica(store: Store, scheduleId: string, id: string): StoredReplica {
  const r = store.collection<StoredReplica>(SCHEDULE_REPLICAS).get(id);
  if (!r || r.archived_at !== undefined || r.schedule_id !== scheduleId)
    throw notFound(`No schedule replica with id ${id}`);
  return r;
}

/** The layer ids of each rotation of a stored schedule (every version's layers). */
function layersByRotation(schedule: StoredSchedule): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of (schedule.schedule?.config?.rotations ?? []) as Json[]) {
    const layers = out.get(r.id) ?? new Set<string>();
    for (const l of (r.layers ?? []) as Json[]) layers.add(l.id);
    out.set(r.id, layers);
  }
  return out;
}

function problems(schedule: StoredSchedule, p: Json) {
  const out: { field: string; message: string }[] = [];
  const at = "schedule_replica.";
  for (const f of ["replica_provider_id", "replica_fallback_user_id"]) {
    if (typeof p[f] === "string" && p[f].trim() === "")
      out.push({ field: at + f, message: "must not be blank" });
  }
  const days = p.mirror_window_days;
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_MIRROR_WINDOW_DAYS))
    out.push({
      field: `${at}mirror_window_days`,
      message: `must be a whole number of days from 1 to ${MAX_MIRROR_WINDOW_DAYS}`,
    });
  const sources: Json[] = Array.isArray(p.sources) ? p.sources : [];
  if (sources.length === 0)
    out.push({ field: `${at}sources`, message: "must name at least one rotation layer" });
  const rotations = layersByRotation(schedule);
  sources.forEach((s, i) => {
    const layers = rotations.get(s.rotation_id);
    if (!layers)
      out.push({
        field: `${at}sources.${i}.rotation_id`,
        message: `no rotation ${s.rotation_id} on schedule ${schedule.id}`,
      });
    else if (!layers.has(s.layer_id))
      out.push({
        field: `${at}sources.${i}.layer_id`,
        message: `no layer ${s.layer_id} in rotation ${s.rotation_id}`,
      });
  });
  return out;
}

/** The users of the schedule's rotations, in order, once each. */
function scheduleUsers(schedule: StoredSchedule): string[] {
  const ids = ((schedule.schedule?.config?.rotations ?? []) as Json[]).flatMap((r) =>
    ((r.users ?? []) as Json[]).map((u) => u.id).filter((id): id is string => typeof id === "string"),
  );
  return [...new Set(ids)];
}

/** `ScheduleReplicaV2`. */
function render(store: Store, r: StoredReplica): Json {
  const schedule = store.collection<StoredSchedule>("schedules").get(r.schedule_id);
  return {
    id: r.id,
    schedule_id: r.schedule_id,
    replica_provider: r.replica_provider,
    replica_provider_id: r.replica_provider_id,
    replica_fallback_user_id: r.replica_fallback_user_id,
    mirror_window_days: r.mirror_window_days,
    sources: r.sources.map((s) => ({ rotation_id: s.rotation_id, layer_id: s.layer_id })),
    user_statuses: schedule ? scheduleUsers(schedule).map((user_id) => ({ user_id })) : [],
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export const scheduleReplicas = defineFamily({
  name: "schedule_replicas",
  // The schedules' row of the role table (replicas are part of on-call).
  roles: SCHEDULE_ROLES,
  collections: [SCHEDULE_REPLICAS],
  routes: [
    operation("SchedulesV2ListScheduleReplicas", "read", ({ store, params }) => {
      scheduleOf(store, params.schedule_id!);
      const replicas = liveRecords<StoredReplica>(store, SCHEDULE_REPLICAS).filter(
        (r) => r.schedule_id === params.schedule_id,
      );
      return { body: { schedule_replicas: replicas.map((r) => render(store, r)) } };
    }),
    operation("SchedulesV2CreateScheduleReplica", "write", ({ store, params, body, newId, nowIso }) => {
      const schedule = scheduleOf(store, params.schedule_id!);
      const p = body.schedule_replica;
      throwIfProblems(problems(schedule, p));
      const r = store.collection<StoredReplica>(SCHEDULE_REPLICAS).set({
        id: newId(),
        schedule_id: schedule.id,
        replica_provider: p.replica_provider,
        replica_provider_id: p.replica_provider_id,
        replica_fallback_user_id: p.replica_fallback_user_id,
        mirror_window_days: p.mirror_window_days ?? DEFAULT_MIRROR_WINDOW_DAYS,
        sources: (p.sources as Json[]).map((s) => ({ rotation_id: s.rotation_id, layer_id: s.layer_id })),
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { body: { schedule_replica: render(store, r) } };
    }),
    operation("SchedulesV2ShowScheduleReplica", "read", ({ store, params }) => ({
      body: { schedule_replica: render(store, findReplica(store, params.schedule_id!, params.id!)) },
    })),
    operation("SchedulesV2DestroyScheduleReplica", "write", ({ store, params, nowIso }) => {
      const r = findReplica(store, params.schedule_id!, params.id!);
      store.collection<StoredReplica>(SCHEDULE_REPLICAS).set({ ...r, archived_at: nowIso });
      return {};
    }),
  ],
});
