/**
 * Emulator family: incident roles (API v2; the deprecated v1 is not served). `GET/POST
 * /v2/incident_roles`, `GET/PUT/DELETE /v2/incident_roles/{id}`; flat bodies.
 *
 * Behaviour beyond the reference shapes: `name` must not be blank. `role_type` is
 * server-computed: roles made through the API are `custom`. Delete is a hard delete. Names are not
 * unique (the reference states no such rule).
 *
 * Seeded like a fresh account: the Incident Lead (`lead`, `01ROLELEAD`) and the Reporter
 * (`reporter`, `01ROLEREPORTER`, empty instructions and shortform, as the reference describes it).
 */
import { defineFamily, operation } from "../family";
import { throwIfProblems } from "../http/errors";
import { SETTINGS_ROLES } from "../roles";
import type { Store } from "../store";
import { blankProblems, liveRecord } from "./shared/settings";

export const INCIDENT_ROLES = "incident_roles";

/** `IncidentRoleV2` as stored (rendered as is). */
export interface StoredIncidentRole {
  id: string;
  name: string;
  description: string;
  instructions: string;
  shortform: string;
  role_type: "custom" | "lead" | "reporter";
  created_at: string;
  updated_at: string;
}

const SEED: ReadonlyArray<Omit<StoredIncidentRole, "created_at" | "updated_at">> = [
  {
    id: "01ROLELEAD",
    name: "Incident Lead",
    description: "Coordinates the response",
    instructions: "Take charge of the incident",
    shortform: "lead",
    role_type: "lead",
  },
  {
    id: "01ROLEREPORTER",
    name: "Reporter",
    description: "Reported the incident",
    instructions: "",
    shortform: "",
    role_type: "reporter",
  },
];

const find = (store: Store, id: string) =>
  liveRecord<StoredIncidentRole>(store, INCIDENT_ROLES, id, "incident role");

export const incidentRoles = defineFamily({
  name: "incident_roles",
  roles: SETTINGS_ROLES,
  collections: [INCIDENT_ROLES],
  seed(store, { nowIso }) {
    const col = store.collection<StoredIncidentRole>(INCIDENT_ROLES);
    for (const r of SEED) col.set({ ...r, created_at: nowIso, updated_at: nowIso });
  },
  routes: [
    operation("IncidentRolesV2List", "read", ({ store }) => ({
      body: { incident_roles: store.collection<StoredIncidentRole>(INCIDENT_ROLES).all() },
    })),
    operation("IncidentRolesV2Create", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(blankProblems(body, ["name"]));
      const incident_role = store.collection<StoredIncidentRole>(INCIDENT_ROLES).set({
        id: newId(),
        name: body.name,
        description: body.description,
        instructions: body.instructions,
        shortform: body.shortform,
        role_type: "custom",
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { body: { incident_role } };
    }),
    operation("IncidentRolesV2Show", "read", ({ store, params }) => ({
      body: { incident_role: find(store, params.id!) },
    })),
    operation("IncidentRolesV2Update", "write", ({ store, params, body, nowIso }) => {
      const current = find(store, params.id!);
      throwIfProblems(blankProblems(body, ["name"]));
      const incident_role = store.collection<StoredIncidentRole>(INCIDENT_ROLES).set({
        ...current,
        name: body.name,
        description: body.description,
        instructions: body.instructions,
        shortform: body.shortform,
        updated_at: nowIso,
      });
      return { body: { incident_role } };
    }),
    operation("IncidentRolesV2Delete", "write", ({ store, params }) => {
      find(store, params.id!);
      store.collection(INCIDENT_ROLES).delete(params.id!);
      return {};
    }),
  ],
});
