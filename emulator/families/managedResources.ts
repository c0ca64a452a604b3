/**
 * Emulator family: managed resources (API v2). `POST /v2/managed_resources` claims an object of one
 * of seven kinds as managed outside the dashboard (`managed_by: external`), which the dashboard shows
 * as a lock. The reference has no read, list or delete: a claim cannot be read back or released
 * through the API (tests read this family's collection).
 *
 * Behaviour beyond the reference shapes: the object must exist (404 otherwise); claiming an object
 * again replaces its claim (same answer). Roles: the reference names none; the write roles of the
 * seven kinds' own families are accepted.
 */
import { defineFamily, operation } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import { ALERT_ROUTES } from "./alertRoutes";
import { ALERT_SOURCES } from "./alertSources";
import { ESCALATION_PATHS } from "./escalationPaths";
import { SCHEDULE_SYNC_RULES, SCHEDULE_SYNC_TARGETS } from "./scheduleSyncTargets";
import { SCHEDULES } from "./schedules";
import { WORKFLOWS } from "./workflows";

export const MANAGED_RESOURCES = "managed_resources";

/** The collection each claimable `resource_type` names. */
const COLLECTION_OF: Record<string, string> = {
  alert_route: ALERT_ROUTES,
  alert_source: ALERT_SOURCES,
  escalation_path: ESCALATION_PATHS,
  schedule: SCHEDULES,
  schedule_sync_rule: SCHEDULE_SYNC_RULES,
  schedule_sync_target: SCHEDULE_SYNC_TARGETS,
  workflow: WORKFLOWS,
};

/** `ManagedResourceV2` as stored, keyed `<resource_type>:<resource_id>`. */
export interface StoredManagedResource {
  id: string;
  resource_id: string;
  resource_type: string;
  managed_by: "external";
  annotations: Record<string, string>;
}

export const managedResources = defineFamily({
  name: "managed_resources",
  roles: {
    read: ["viewer"],
    write: ["manage_settings", "on_call_editor", "schedules_editor", "workflows_editor"],
  },
  collections: [MANAGED_RESOURCES],
  routes: [
    operation("ManagedResourcesV2CreateManagedResource", "write", ({ store, body }) => {
      const collection = COLLECTION_OF[body.resource_type];
      throwIfProblems(
        collection === undefined
          ? [
              {
                field: "resource_type",
                message: `must be one of ${Object.keys(COLLECTION_OF).join(", ")}`,
              },
            ]
          : [],
      );
      const target = store
        .collection<{ id: string; archived_at?: string }>(collection!)
        .get(body.resource_id);
      if (!target || target.archived_at)
        throw notFound(`No ${body.resource_type} with id ${body.resource_id}`);
      const claim = store.collection<StoredManagedResource>(MANAGED_RESOURCES).set({
        id: `${body.resource_type}:${body.resource_id}`,
        resource_id: body.resource_id,
        resource_type: body.resource_type,
        managed_by: "external",
        annotations: { ...(body.annotations ?? {}) },
      });
      const { id: _key, ...managed_resource } = claim;
      return { body: { managed_resource } };
    }),
  ],
});
