/**
 * Roles and what they allow. An API key holds account-level roles (`role_names`) and team-level
 * roles (`team_role_names`, for the teams in `team_ids`). Every route declares whether it reads or
 * writes; its family declares which roles allow that (`defineFamily({roles})`; `ROLE_TABLE` in
 * index.ts is derived from the families served):
 *
 * - `global_access` allows everything;
 * - a role listed under `write` also allows reading;
 * - `any_key` means any valid key, whatever its roles (identity, users, teams).
 *
 * Team roles count where a family lists them (`teamRead` / `teamWrite`). A family whose objects name
 * their owning teams declares where (`teamOwned`): a write that only a team role allows must then
 * be to its teams' objects (`teamScopeRefusal`, from the reference's `IdentityV1.team_roles`).
 * Otherwise which records such a key may touch is the family's business (API keys: only keys of
 * its teams; sync targets: only those whose schedules its teams own).
 *
 * | family                      | read (besides the write roles)                    | write                                   |
 * |-----------------------------|---------------------------------------------------|-----------------------------------------|
 * | custom_fields               | viewer                                            | manage_settings                         |
 * | custom_field_options        | viewer                                            | manage_settings                         |
 * | api_keys                    | –                                                 | api_keys_manage (account or team)       |
 * | identity, users, teams      | any valid key                                     | –                                       |
 * | alert_sources/attributes/routes | viewer                                        | manage_settings                         |
 * | escalation_paths            | viewer, on_call_viewer                            | on_call_editor (account or team)        |
 * | schedules (+ sync, rotations)| viewer, on_call_viewer, schedules_reader (+team) | schedules_editor, on_call_editor (+team)|
 * | workflows                   | viewer, workflows_viewer                          | workflows_editor, private_workflows_editor (+team) |
 * | catalog_*                   | viewer, catalog_viewer                            | catalog_editor (account or team)        |
 * | severities, incident_roles, incident_statuses, incident_types, maintenance_windows | viewer | manage_settings |
 * | secrets                     | secrets_use (+team)                               | secrets_manage (account or team)        |
 *
 * The table is the API's (reference.json), including families the emulator does not serve yet: a new
 * family declares its row in its own file (`SETTINGS_ROLES` for the "viewer / manage_settings" rows).
 */

import type { Store } from "./store";

/** Which roles allow a family's reads and writes. */
export interface FamilyRoles {
  /** Account roles that allow reading (the write roles do too). `"any_key"`: every valid key. */
  read: readonly string[] | "any_key";
  /** Account roles that allow writing. */
  write: readonly string[];
  /** Team roles that allow reading (the team write roles do too). */
  teamRead?: readonly string[];
  /** Team roles that allow writing. */
  teamWrite?: readonly string[];
  /** Where the family's objects name their owning teams: team roles then write only their teams' objects (`teamScopeRefusal`). */
  teamOwned?: TeamOwnership;
}

/** Settings families (custom fields, alerts, severities, incident types, …): `viewer` reads, `manage_settings` writes. */
export const SETTINGS_ROLES: FamilyRoles = { read: ["viewer"], write: ["manage_settings"] };

/** Read-only families any valid key may read (identity, users, teams). */
export const ANY_KEY_READS: FamilyRoles = { read: "any_key", write: [] };

/** The role table of `families`, by family name: what each family module declares (`roles`). */
export function roleTable(
  families: readonly { name: string; roles: FamilyRoles }[],
): Record<string, FamilyRoles> {
  return Object.fromEntries(families.map((f) => [f.name, f.roles]));
}

/** Human descriptions of the account-level roles (`APIKeyRoleV1.description`). */
export const ROLE_DESCRIPTIONS: Record<string, string> = {
  act_on_behalf_of_users: "Act on behalf of users, e.g. when creating incidents",
  api_keys_manage: "Create, edit, rotate and delete API keys",
  call_transcripts_viewer: "View call transcripts",
  catalog_editor: "Edit catalog types and entries",
  catalog_viewer: "View catalog types and entries",
  documents_viewer: "View documents",
  escalation_creator: "Create escalations",
  global_access: "Full access to every API endpoint",
  heartbeats_ping: "Send heartbeat pings",
  incident_creator: "Create incidents",
  incident_editor: "Edit incidents",
  incident_memberships_editor: "Manage memberships of private incidents",
  incident_workload_private_viewer: "View incident workload, including private incidents",
  incident_workload_viewer: "View incident workload",
  investigation_download: "Download investigation data",
  investigations_editor: "Edit investigations",
  manage_settings: "Manage the organisation's settings (custom fields, alerts, severities, …)",
  notification_methods_manage: "Manage users' notification methods",
  notification_methods_unredacted_viewer: "View users' notification methods unredacted",
  on_call_editor: "Edit on-call configuration (schedules, escalation paths)",
  on_call_viewer: "View on-call configuration",
  pay_configs_editor: "Create and edit on-call pay configurations",
  pay_configs_viewer: "View on-call pay configurations",
  pay_reports_editor: "Create and publish on-call pay reports",
  pay_reports_viewer: "View on-call pay reports",
  policies_viewer: "View policies",
  policy_findings_manage: "Dismiss and restore policy findings",
  post_incident_flow_opt_out: "Opt incidents out of the post-incident flow",
  postmortems_manage: "Manage post-mortem documents",
  private_escalation_workflows_editor: "Edit workflows that escalate from private incidents",
  private_workflows_editor: "Edit workflows that run on private incidents",
  schedule_overrides_editor: "Create and edit schedule overrides",
  schedules_editor: "Create and edit schedules",
  schedules_reader: "View schedules",
  secrets_manage: "Create, edit, rotate and delete secrets",
  secrets_use: "Use secrets in workflows",
  security_settings_editor: "Edit security settings",
  status_page_publisher: "Publish to status pages",
  status_page_viewer: "View status pages",
  team_memberships_manage: "Manage team memberships",
  telemetry_data_source_update: "Update telemetry data sources",
  telemetry_query_restricted: "Query telemetry data sources (restricted)",
  telemetry_viewer: "View telemetry data sources",
  viewer: "View data like public incidents and follow-ups",
  workflows_editor: "Create and edit workflows",
  workflows_viewer: "View workflows",
};

/** Human descriptions of the team-level roles (`APIKeyTeamRoleV1.description`). */
export const TEAM_ROLE_DESCRIPTIONS: Record<string, string> = {
  api_keys_manage: "Create, edit, rotate and delete API keys of the key's teams",
  catalog_editor: "Edit catalog entries owned by the key's teams",
  escalation_creator: "Create escalations for the key's teams",
  heartbeats_ping: "Send heartbeat pings to alert sources owned by the key's teams",
  on_call_editor: "Edit on-call configuration owned by the key's teams",
  private_workflows_editor: "Edit private workflows owned by the key's teams",
  schedule_overrides_editor: "Edit overrides of schedules owned by the key's teams",
  schedules_editor: "Edit schedules owned by the key's teams",
  schedules_reader: "View schedules owned by the key's teams",
  secrets_manage: "Manage secrets owned by the key's teams",
  secrets_use: "Use secrets owned by the key's teams",
  telemetry_data_source_update: "Update telemetry data sources owned by the key's teams",
  telemetry_query_restricted: "Query telemetry data sources owned by the key's teams (restricted)",
  workflows_editor: "Edit workflows owned by the key's teams",
};

/** What the pipeline knows about the calling key. */
export interface Caller {
  keyId: string;
  name: string;
  roles: ReadonlySet<string>;
  teamRoles: ReadonlySet<string>;
  teamIds: readonly string[];
}

export type Access = "read" | "write" | "any_key";

/** True when the caller may perform `access` on a family with these roles. */
export function allows(caller: Caller, roles: FamilyRoles | undefined, access: Access): boolean {
  if (access === "any_key") return true;
  if (caller.roles.has("global_access")) return true;
  if (!roles) return false;
  const write = roles.write;
  const teamWrite = roles.teamWrite ?? [];
  if (access === "write") {
    return write.some((r) => caller.roles.has(r)) || teamWrite.some((r) => caller.teamRoles.has(r));
  }
  if (roles.read === "any_key") return true;
  return (
    [...roles.read, ...write].some((r) => caller.roles.has(r)) ||
    [...(roles.teamRead ?? []), ...teamWrite].some((r) => caller.teamRoles.has(r))
  );
}

/** The roles that would allow `access`, for 403 messages. */
export function rolesAllowing(roles: FamilyRoles | undefined, access: Access): string[] {
  if (!roles || access === "any_key") return ["global_access"];
  const account =
    access === "write" || roles.read === "any_key" ? roles.write : [...roles.read, ...roles.write];
  const team =
    access === "write" ? (roles.teamWrite ?? []) : [...(roles.teamRead ?? []), ...(roles.teamWrite ?? [])];
  return ["global_access", ...new Set(account), ...[...new Set(team)].map((r) => `${r} (team)`)];
}

/**
 * Where a family's objects name the teams that own them (reference: `team_ids` of escalation paths
 * and schedules, `owning_team_ids` of workflows, secrets and catalog types).
 */
export interface TeamOwnership {
  /**
   * The owning teams of the object a route addresses (by its path parameters): undefined when it
   * addresses none (a create), null when there is no such object (the handler answers 404).
   */
  stored(store: Store, params: Readonly<Record<string, string>>): readonly string[] | null | undefined;
  /** The owning teams a write's body gives the object; undefined when it leaves them as they are. */
  given(body: unknown): readonly string[] | undefined;
}

/** A `TeamOwnership` from how the family finds a live object by id and reads its teams. */
export function teamOwnedBy<T>(
  find: (store: Store, id: string) => T | undefined,
  teams: (record: T) => readonly string[] | undefined,
  given: (body: any) => readonly string[] | undefined,
): TeamOwnership {
  return {
    stored(store, params) {
      if (params.id === undefined) return undefined;
      const record = find(store, params.id);
      return record === undefined ? null : (teams(record) ?? []);
    },
    given: (body) => (body === undefined || body === null ? undefined : given(body)),
  };
}

/**
 * Team roles apply only to the key's teams' objects. The reference (`IdentityV1.team_roles`): "these
 * roles apply to requests that operate on resources owned by any of the teams in the 'teams' array.
 * These are in addition to any 'roles' which are applied on all requests." So a write that no
 * account role of the key allows, only a team role, must address an object one of the key's teams
 * owns (its `team_ids` / `owning_team_ids`) and leave it owned by one of them: a create names one
 * of them, an update neither takes an object from another team nor gives it away. Answers why such
 * a write is refused, or undefined. Reads are not scoped (the reference does not say how a list
 * answers such a key).
 */
export function teamScopeRefusal(
  caller: Caller,
  roles: FamilyRoles,
  store: Store,
  params: Readonly<Record<string, string>>,
  body: unknown,
): string | undefined {
  const owned = roles.teamOwned;
  if (!owned || caller.roles.has("global_access") || roles.write.some((r) => caller.roles.has(r)))
    return undefined;
  const ours = (teams: readonly string[]) => teams.some((t) => caller.teamIds.includes(t));
  const owners = (teams: readonly string[]) =>
    teams.length > 0 ? `teams ${teams.join(", ")}` : "the whole organisation (no team)";
  const before = owned.stored(store, params);
  if (before === null) return undefined;
  if (before !== undefined && !ours(before)) {
    return `This API key may change this only through its team roles, and none of its teams (${caller.teamIds.join(", ")}) owns it: it is owned by ${owners(before)}`;
  }
  const after = owned.given(body) ?? before ?? [];
  if (!ours(after)) {
    return `This API key may change this only through its team roles: the object must stay owned by one of its teams (${caller.teamIds.join(", ")}), not by ${owners(after)}`;
  }
  return undefined;
}
