/**
 * Emulator family: incident statuses (API v1). `GET/POST /v1/incident_statuses`,
 * `GET/PUT/DELETE /v1/incident_statuses/{id}`; flat bodies.
 *
 * Behaviour beyond the reference shapes: names are unique (the reference: "Unique name of this
 * status"; 422 on `name`) and not blank. `category` is create-only (the update payload has none)
 * and only `live`, `learning` or `closed` can be created (the create enum); the statuses of the
 * other categories (`triage`, `declined`, `canceled`, `merged`, `paused`) "are managed by
 * incident.io and cannot be configured": an update or delete of one is a 422. `rank` is
 * server-computed: a new status is ranked after every existing one. The list answers in rank
 * order. Delete is a hard delete.
 *
 * Seeded like a fresh account: Triage (triage), Declined (declined), Investigating (live),
 * Closed (closed), with stable ids (`01STATUSTRIAGE`, …).
 */
import { defineFamily, operation } from "../family";
import { throwIfProblems, validationFailed } from "../http/errors";
import { SETTINGS_ROLES } from "../roles";
import type { Store } from "../store";
import { blankProblems, liveRecord } from "./shared/settings";

export const INCIDENT_STATUSES = "incident_statuses";

/** `IncidentStatusV1` as stored (rendered as is). */
export interface StoredIncidentStatus {
  id: string;
  name: string;
  description: string;
  category: string;
  rank: number;
  created_at: string;
  updated_at: string;
}

/** Categories a status can be created with (and whose statuses can be configured). */
export const CONFIGURABLE_STATUS_CATEGORIES: readonly string[] = ["live", "learning", "closed"];

const SEED: ReadonlyArray<Pick<StoredIncidentStatus, "id" | "name" | "category" | "description">> = [
  { id: "01STATUSTRIAGE", name: "Triage", category: "triage", description: "Not yet accepted" },
  { id: "01STATUSDECLINED", name: "Declined", category: "declined", description: "Not an incident" },
  { id: "01STATUSINVESTIGATING", name: "Investigating", category: "live", description: "Working on it" },
  { id: "01STATUSCLOSED", name: "Closed", category: "closed", description: "All done" },
];

const find = (store: Store, id: string) =>
  liveRecord<StoredIncidentStatus>(store, INCIDENT_STATUSES, id, "incident status");

function configurable(status: StoredIncidentStatus): void {
  if (!CONFIGURABLE_STATUS_CATEGORIES.includes(status.category)) {
    throw validationFailed([
      {
        message: `the ${status.category} status "${status.name}" is managed by incident.io and cannot be configured`,
      },
    ]);
  }
}

function problems(store: Store, body: any, selfId?: string) {
  const taken = store
    .collection<StoredIncidentStatus>(INCIDENT_STATUSES)
    .all()
    .some((s) => s.id !== selfId && s.name === body.name);
  return [
    ...blankProblems(body, ["name"]),
    ...(taken ? [{ field: "name", message: `an incident status named "${body.name}" already exists` }] : []),
  ];
}

export const incidentStatuses = defineFamily({
  name: "incident_statuses",
  roles: SETTINGS_ROLES,
  collections: [INCIDENT_STATUSES],
  seed(store, { nowIso }) {
    const col = store.collection<StoredIncidentStatus>(INCIDENT_STATUSES);
    for (const [i, s] of SEED.entries())
      col.set({ ...s, rank: i + 1, created_at: nowIso, updated_at: nowIso });
  },
  routes: [
    operation("IncidentStatusesV1List", "read", ({ store }) => ({
      body: {
        incident_statuses: store
          .collection<StoredIncidentStatus>(INCIDENT_STATUSES)
          .all()
          .sort((a, b) => a.rank - b.rank),
      },
    })),
    operation("IncidentStatusesV1Create", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(problems(store, body));
      const col = store.collection<StoredIncidentStatus>(INCIDENT_STATUSES);
      const incident_status = col.set({
        id: newId(),
        name: body.name,
        description: body.description,
        category: body.category,
        rank: Math.max(0, ...col.all().map((s) => s.rank)) + 1,
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { body: { incident_status } };
    }),
    operation("IncidentStatusesV1Show", "read", ({ store, params }) => ({
      body: { incident_status: find(store, params.id!) },
    })),
    operation("IncidentStatusesV1Update", "write", ({ store, params, body, nowIso }) => {
      const current = find(store, params.id!);
      configurable(current);
      throwIfProblems(problems(store, body, current.id));
      const incident_status = store.collection<StoredIncidentStatus>(INCIDENT_STATUSES).set({
        ...current,
        name: body.name,
        description: body.description,
        updated_at: nowIso,
      });
      return { body: { incident_status } };
    }),
    operation("IncidentStatusesV1Delete", "write", ({ store, params }) => {
      configurable(find(store, params.id!));
      store.collection(INCIDENT_STATUSES).delete(params.id!);
      return {};
    }),
  ],
});
