/**
 * An API key (API v1): `name`, `roles` (account roles; a set), `teamRoles` + `teamIds` (set together),
 * `comments`, `rotationTrigger` (change it to rotate the token), `rotationGracePeriodMinutes` (0–60),
 * `adoptId`. Outputs: `token` (**secret**, returned by the API only at creation and rotation),
 * `tokenAvailable`, `createdAt`, `tokenLastIssuedAt` (not `lastUsedAt`: it changes whenever the key is
 * used, and a stored copy would change on every refresh).
 *
 * Roles: the service decides which it grants. Known are the reference's `role_names` and
 * `team_role_names` enums and the roles the seed lists (Authentication 6 and 7: `pay_configs_editor`,
 * `telemetry_viewer`, …); another name is sent with a warning naming the nearest known role (new
 * roles may appear at any time: the seed's Versioning 3). `api_keys_manage` is warned about, not
 * refused: the reference says it "cannot be assigned via the API" (APIKeysV1Create) while the seed
 * lists it as assignable; the API answers. `teamRoles` and `teamIds` go together (the reference:
 * "If provided, `team_ids` must also be a non-empty array, and vice versa": refused at check).
 *
 * Rule "set with repeats": the API keeps each role,
 * team role and team id once, so a repeated one means nothing; the declared list is kept as written
 * and compared as a set (no update on every run). An adopted key has no token (`tokenAvailable: false`) until you set
 * `rotationTrigger`. If a create's response is lost, the key is found by name and rotated so the stack
 * still gets a token.
 */
import { z } from "zod";
import { knownValues } from "../provider/checkWarnings";
import { makeProvider } from "../provider/factory";
import { freeText, idText, nameText } from "../provider/inputs";
import { dedupe, keepDeclaredSet, uniqueSet } from "../provider/normalise";
import { walkList } from "../provider/pagedReads";
import { type Problem, type Props, RECOVERED, type ResourceSpec } from "../provider/spec";

/**
 * Team-scoped roles (the API's `team_role_names`): the reference's enum
 * (APIKeysCreatePayloadV1.team_role_names) and the seed's Authentication 7, in name order. Each is
 * an account-level role too (`API_KEY_ROLES`).
 */
export const API_KEY_TEAM_ROLES = [
  "api_keys_manage",
  "catalog_editor",
  "escalation_creator",
  "heartbeats_ping",
  "on_call_editor",
  "private_workflows_editor",
  "schedule_overrides_editor",
  "schedules_editor",
  "schedules_reader",
  "secrets_manage",
  "secrets_use",
  "telemetry_data_source_update",
  "telemetry_query_restricted",
  "workflows_editor",
] as const;

/** The account-level roles that are not also team-scoped (`API_KEY_ROLES` holds both lists). */
const ACCOUNT_ONLY_ROLES = [
  "act_on_behalf_of_users",
  "call_transcripts_viewer",
  "catalog_viewer",
  "documents_viewer",
  "global_access",
  "incident_creator",
  "incident_editor",
  "incident_memberships_editor",
  "incident_workload_private_viewer",
  "incident_workload_viewer",
  "investigation_download",
  "investigations_editor",
  "manage_settings",
  "notification_methods_manage",
  "notification_methods_unredacted_viewer",
  "on_call_viewer",
  "pay_configs_editor",
  "pay_configs_viewer",
  "pay_reports_editor",
  "pay_reports_viewer",
  "policies_viewer",
  "policy_findings_manage",
  "post_incident_flow_opt_out",
  "postmortems_manage",
  "private_escalation_workflows_editor",
  "security_settings_editor",
  "status_page_publisher",
  "status_page_viewer",
  "team_memberships_manage",
  "telemetry_viewer",
  "viewer",
  "workflows_viewer",
] as const;

/**
 * Account-level roles an API key can hold (the API's `role_names`): the reference's enum
 * (APIKeysCreatePayloadV1.role_names) and the seed's Authentication 6, in name order: the
 * account-only roles and the team-scoped ones. (The emulator lists the seed's roles too, in
 * emulator/localTypes.ts: it stands for the service and shares no code with the provider it tests.)
 */
export const API_KEY_ROLES = [...ACCOUNT_ONLY_ROLES, ...API_KEY_TEAM_ROLES].sort() as unknown as readonly [
  ...typeof ACCOUNT_ONLY_ROLES,
  ...typeof API_KEY_TEAM_ROLES,
];

/** Inputs of an API key (API v1). */
export const apiKeyInputs = z.strictObject({
  /** Human-readable name of the key. */
  name: nameText(),
  /**
   * Account-level roles. Order does not matter. The service decides which it grants: a role it does
   * not name (in the reference or the seed) is sent with a warning naming the nearest known one.
   */
  roles: z.array(knownValues(API_KEY_ROLES)).default([]),
  /** Roles granted only for the teams in `teamIds` (a role the service does not name: as `roles`). */
  teamRoles: z.array(knownValues(API_KEY_TEAM_ROLES)).default([]),
  /** Teams the `teamRoles` apply to; must be set exactly when `teamRoles` is. */
  teamIds: z.array(idText()).default([]),
  /** Free-form notes about the key. */
  comments: freeText().optional(),
  /**
   * Change this value (a date, a counter) to rotate the token: the API issues a new one and the old
   * one stays valid for `rotationGracePeriodMinutes`.
   */
  rotationTrigger: z.union([z.string(), z.number()]).optional(),
  /** Minutes the old token keeps working after a rotation (0–60). */
  // reference: APIKeysV1Rotate ("a configurable grace period (up to 60 minutes)")
  rotationGracePeriodMinutes: z.number().int("must be a whole number").min(0).max(60).default(0),
  /** Id of an existing key to take over. An adopted key has no token output until it is rotated. */
  adoptId: z.string().min(1).optional(),
});

export type ApiKeyInputs = z.infer<typeof apiKeyInputs>;
export interface ApiKeyComputed {
  /** The bearer token (secret). Returned by the API only at creation and rotation. */
  token: string | undefined;
  /** False when the token is not known to this stack (an adopted key that was never rotated here). */
  tokenAvailable: boolean;
  /** When the key was created. */
  createdAt: string;
  /** When the current token was issued. */
  tokenLastIssuedAt: string;
}

interface ApiKeyV1 {
  id: string;
  name: string;
  comments?: string;
  roles: { name: string; description: string }[];
  team_roles: { name: string; description: string }[];
  team_ids: string[];
  created_at: string;
  token_last_issued_at: string;
}

/** A set compared regardless of order and repeats; a preview's unknown value (not a list) as is. */
const setOf = <T>(values: readonly T[] | unknown) => (Array.isArray(values) ? uniqueSet(values) : values);

const path = (id: string) => `/v1/api_keys/${encodeURIComponent(id)}`;

function payload(args: ApiKeyInputs): Props {
  return {
    name: args.name,
    role_names: dedupe(args.roles),
    team_role_names: dedupe(args.teamRoles),
    team_ids: dedupe(args.teamIds),
    comments: args.comments,
  };
}

/**
 * An API key (API v1). `token` is a secret output, known only when this stack created or rotated
 * the key. Adopt an existing key with `adoptId` (its id from `GET /v1/api_keys`); set
 * `rotationTrigger` to obtain a token for it.
 */
export const apiKeySpec: ResourceSpec<ApiKeyInputs, ApiKeyV1> = {
  kind: "ApiKey",
  title: "API key",
  schemaVersion: 1,
  inputs: apiKeyInputs,
  replaceOnChanges: [],
  secretOutputs: ["token"],
  computedOutputs: ["token", "tokenAvailable", "createdAt", "tokenLastIssuedAt"],
  localInputs: ["rotationTrigger", "rotationGracePeriodMinutes"],
  fieldRenames: { role_names: "roles", team_role_names: "teamRoles" },
  validate(args) {
    const problems: Problem[] = [];
    // Two published sources differ: the reference (APIKeysV1Create: "The `api_keys_manage` role cannot
    // be assigned via the API") and the seed (Authentication 6 and 7 list it as assignable). Warned, sent.
    const manage = (path: "roles" | "teamRoles", i: number) =>
      problems.push({
        path: [path, i],
        message:
          "api_keys_manage: the reference says it cannot be assigned via the API (APIKeysV1Create), the seed lists it as assignable: it is sent, and the API decides",
        severity: "warning",
      });
    const i = args.roles.indexOf("api_keys_manage");
    if (i >= 0) manage("roles", i);
    const t = args.teamRoles.indexOf("api_keys_manage");
    if (t >= 0) manage("teamRoles", t);
    // reference: APIKeysCreatePayloadV1.team_ids / team_role_names ("If provided, `team_role_names`
    // must also be a non-empty array, and vice versa")
    if (args.teamRoles.length > 0 && args.teamIds.length === 0) {
      problems.push({
        path: ["teamIds"],
        message: "must not be empty when teamRoles is set",
        dependsOn: [["teamRoles"]],
      });
    }
    if (args.teamIds.length > 0 && args.teamRoles.length === 0) {
      problems.push({
        path: ["teamRoles"],
        message: "must not be empty when teamIds is set",
        dependsOn: [["teamIds"]],
      });
    }
    return problems;
  },
  // Rule "set with repeats": roles, team roles and team ids are sets; the API keeps each member once.
  canonical: (args) => ({
    ...args,
    roles: setOf(args.roles),
    teamRoles: setOf(args.teamRoles),
    teamIds: setOf(args.teamIds),
  }),
  idOf: (live) => live.id,
  // APIKeysV1List answers APIKeyV1, as show does (paginated).
  list: { path: "/v1/api_keys", itemsKey: "api_keys", operation: "list API keys", pageSize: 250 },
  // For `pulumi-incident export`: every key but the one the export reads with (by its name, from
  // /v1/identity): a stack that adopted it could delete the key its own runs depend on.
  listAll: async (ctx) => {
    const [keys, caller] = await Promise.all([
      walkList<ApiKeyV1>(ctx.client, apiKeySpec.list!),
      ctx.client.get<{ identity: { name: string } }>("/v1/identity", "show identity"),
    ]);
    return keys.filter((k) => k.name !== caller.identity.name);
  },
  toInputs: (live, declared) => ({
    name: live.name,
    roles: keepDeclaredSet(
      live.roles.map((r) => r.name),
      declared?.roles,
    ) as ApiKeyInputs["roles"],
    teamRoles: keepDeclaredSet(
      live.team_roles.map((r) => r.name),
      declared?.teamRoles,
    ) as ApiKeyInputs["teamRoles"],
    teamIds: keepDeclaredSet(live.team_ids, declared?.teamIds) ?? [],
    // The API may answer "" for "no comments": read back as unset when unset was declared.
    comments: live.comments === "" && declared?.comments === undefined ? undefined : live.comments,
    rotationGracePeriodMinutes: declared?.rotationGracePeriodMinutes ?? 0,
  }),
  computed: (live, prior) => ({
    token: prior?.token,
    tokenAvailable: typeof prior?.token === "string",
    createdAt: live.created_at,
    tokenLastIssuedAt: live.token_last_issued_at,
  }),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ api_key: ApiKeyV1; token: string }>(
        "/v1/api_keys",
        "create API key",
        payload(args),
      );
      return { live: body.api_key, extraOutputs: { token: body.token, tokenAvailable: true } };
    },
    async read(ctx, id) {
      return (await ctx.client.get<{ api_key: ApiKeyV1 }>(path(id), "show API key")).api_key;
    },
    async update(ctx, id, args, olds) {
      const body = await ctx.client.put<{ api_key: ApiKeyV1 }>(path(id), "update API key", payload(args));
      // A key whose create response was lost has no known token: rotate to obtain one.
      const tokenLost = olds[RECOVERED] === true;
      if (
        !tokenLost &&
        (args.rotationTrigger === undefined || args.rotationTrigger === olds.rotationTrigger)
      ) {
        return { live: body.api_key };
      }
      const rotated = await ctx.client.post<{ api_key: ApiKeyV1; token: string }>(
        `${path(id)}/actions/rotate`,
        "rotate API key",
        { grace_period_minutes: args.rotationGracePeriodMinutes },
      );
      return { live: rotated.api_key, extraOutputs: { token: rotated.token, tokenAvailable: true } };
    },
    async delete(ctx, id) {
      await ctx.client.delete(path(id), "delete API key");
    },
    async findCreated(ctx, args) {
      const keys = await ctx.client.listAll<ApiKeyV1>("/v1/api_keys", "api_keys", "list API keys");
      return keys.find((k) => k.name === args.name);
    },
  },
};

export const apiKeyProvider = makeProvider(apiKeySpec);
