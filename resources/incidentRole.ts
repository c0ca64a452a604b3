/**
 * IncidentRole: a role responders take in an incident (`GET/POST /v2/incident_roles`,
 * `GET/PUT/DELETE /v2/incident_roles/{id}`; flat bodies). API v2: v1 is deprecated and not used.
 */
import { z } from "zod";
import { warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { makeProvider } from "../provider/factory";
import { defineLookup, pickByName } from "../provider/functions";
import { freeText, LIMITS, lookupName, nameText } from "../provider/inputs";
import { walkList } from "../provider/pagedReads";
import { newestMatching, restApi } from "../provider/restApi";
import type { Props, ResourceSpec } from "../provider/spec";

/** Inputs of an incident role (API v2). */
export const incidentRoleInputs = z.strictObject({
  /** Human-readable name of the role, e.g. `Communications Lead`. */
  name: nameText(),
  /** What the role is for. */
  description: freeText().default(""),
  /** Given to whoever is nominated for the role. */
  instructions: freeText().default(""),
  /** Short name used in Slack, e.g. `comms` (empty for the service's Reporter role). */
  shortform: z
    .string()
    .superRefine(
      warnUnless((v: string) => v.length <= LIMITS.name, `is longer than ${LIMITS.name} characters`),
    ),
  /** Id of an existing incident role to take over instead of creating one (`getIncidentRole`). */
  adoptId: z.string().min(1).optional(),
});

export type IncidentRoleInputs = z.infer<typeof incidentRoleInputs>;
export interface IncidentRoleComputed {
  /** `custom` for roles made through the API; `lead` and `reporter` are the service's own roles. */
  roleType: string;
}

/** IncidentRoleV2. */
export interface ApiIncidentRole {
  id: string;
  name: string;
  description: string;
  instructions: string;
  shortform: string;
  role_type: string;
  created_at: string;
  updated_at: string;
}

/** IncidentRolesCreatePayloadV2 / IncidentRolesUpdatePayloadV2 (same shape, every field required). */
export const incidentRolePayload = (args: IncidentRoleInputs): Props => ({
  name: args.name,
  description: args.description,
  instructions: args.instructions,
  shortform: args.shortform,
});

async function listRoles(client: ApiClient): Promise<ApiIncidentRole[]> {
  return (
    (await client.get<{ incident_roles: ApiIncidentRole[] }>("/v2/incident_roles", "list incident roles"))
      .incident_roles ?? []
  );
}

/**
 * An incident role (API v2), e.g. a communications lead. The service's own Incident Lead and
 * Reporter roles can be adopted (`adoptId`, from `getIncidentRole`) to manage their texts.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const comms = new incident.IncidentRole("comms", {
 *   name: "Communications lead",
 *   description: "Keeps customers and the company informed",
 *   instructions: "Post a status page update every 30 minutes",
 *   shortform: "comms",
 * });
 * ```
 */
export const incidentRoleSpec: ResourceSpec<IncidentRoleInputs, ApiIncidentRole> = {
  kind: "IncidentRole",
  title: "incident role",
  schemaVersion: 1,
  inputs: incidentRoleInputs,
  replaceOnChanges: [],
  secretOutputs: [],
  computedOutputs: ["roleType"],
  idOf: (live) => live.id,
  // IncidentRolesV2List answers IncidentRoleV2, as show does (unpaginated).
  list: { path: "/v2/incident_roles", itemsKey: "incident_roles", operation: "list incident roles" },
  // For `pulumi-incident export`: the service's own Lead and Reporter roles are left out (every
  // account has them; look them up with getIncidentRole).
  listAll: async (ctx) =>
    (
      await walkList(ctx.client, {
        path: "/v2/incident_roles",
        itemsKey: "incident_roles",
        operation: "list incident roles",
      })
    ).filter((r) => r.role_type === "custom"),
  toInputs: (live) => ({
    name: live.name,
    description: live.description,
    instructions: live.instructions,
    shortform: live.shortform,
  }),
  computed: (live) => ({ roleType: live.role_type }),
  api: {
    ...restApi({
      collection: "/v2/incident_roles",
      key: "incident_role",
      noun: "incident role",
      payload: incidentRolePayload,
    }),
    async findCreated(ctx, args) {
      // Names are not unique: the newest role of that name and shortform is the one a lost create made.
      return newestMatching(
        await listRoles(ctx.client),
        (r) => r.name === args.name && r.shortform === args.shortform,
      );
    },
  },
};

export const incidentRoleProvider = makeProvider(incidentRoleSpec);

// ---------- getIncidentRole ----------

/** Arguments of `getIncidentRole`. */
export const getIncidentRoleArgs = z.strictObject({
  /** Exact name of the role, e.g. `Incident Lead`. */
  name: lookupName(),
});
export type GetIncidentRoleArgs = z.input<typeof getIncidentRoleArgs>;

/** An incident role of the account. */
export interface GetIncidentRoleResult {
  id: string;
  name: string;
  description: string;
  instructions: string;
  shortform: string;
  /** `custom`, `lead` or `reporter`. */
  roleType: string;
}

/** Finds an incident role by exact name: `GET /v2/incident_roles` (unpaginated). */
export async function findIncidentRoleByName(
  client: ApiClient,
  name: string,
): Promise<GetIncidentRoleResult> {
  const r = pickByName(await listRoles(client), name, "getIncidentRole", "incident role");
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    instructions: r.instructions,
    shortform: r.shortform,
    roleType: r.role_type,
  };
}

const incidentRoleLookup = defineLookup({
  name: "getIncidentRole",
  args: getIncidentRoleArgs,
  run: (client, args) => findIncidentRoleByName(client, args.name),
});

/** Finds an incident role by name; fails when there is none (or several share it). */
export const getIncidentRole = incidentRoleLookup.get;
/** `getIncidentRole` taking Inputs and answering an Output. */
export const getIncidentRoleOutput = incidentRoleLookup.getOutput;
