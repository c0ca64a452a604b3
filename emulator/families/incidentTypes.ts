/**
 * Emulator family: incident types (API v1, read-only in the public API). `GET /v1/incident_types`,
 * `GET /v1/incident_types/{id}`. Seeded with a default type (`01TYPEDEFAULT`, "Default") and a
 * private one (`01TYPESECURITY`, "Security incident", owned by the Identity team).
 */
import { defineFamily, operation } from "../family";
import { SETTINGS_ROLES } from "../roles";
import { liveRecord } from "./shared/settings";

export const INCIDENT_TYPES = "incident_types";

/** `IncidentTypeV1` as stored (rendered as is). */
export interface StoredIncidentType {
  id: string;
  name: string;
  description: string;
  create_in_triage: "always" | "optional";
  is_default: boolean;
  private_incidents_only: boolean;
  owning_team_ids?: string[];
  created_at: string;
  updated_at: string;
}

const SEED: ReadonlyArray<Omit<StoredIncidentType, "created_at" | "updated_at">> = [
  {
    id: "01TYPEDEFAULT",
    name: "Default",
    description: "Everything that is not a security incident",
    create_in_triage: "optional",
    is_default: true,
    private_incidents_only: false,
  },
  {
    id: "01TYPESECURITY",
    name: "Security incident",
    description: "Breaches and suspected breaches",
    create_in_triage: "always",
    is_default: false,
    private_incidents_only: true,
    owning_team_ids: ["01TEAMIDENTITY"],
  },
];

export const incidentTypes = defineFamily({
  name: "incident_types",
  roles: SETTINGS_ROLES,
  collections: [INCIDENT_TYPES],
  seed(store, { nowIso }) {
    const col = store.collection<StoredIncidentType>(INCIDENT_TYPES);
    for (const t of SEED) col.set({ ...t, created_at: nowIso, updated_at: nowIso });
  },
  routes: [
    operation("IncidentTypesV1List", "read", ({ store }) => ({
      body: { incident_types: store.collection<StoredIncidentType>(INCIDENT_TYPES).all() },
    })),
    operation("IncidentTypesV1Show", "read", ({ store, params }) => ({
      body: {
        incident_type: liveRecord<StoredIncidentType>(store, INCIDENT_TYPES, params.id!, "incident type"),
      },
    })),
  ],
});
