/**
 * Read-only lookups ("data sources") run in the Pulumi program: find an existing user by e-mail or a
 * custom field by name, to use their ids in resources. Each comes as `getX(args)` (a Promise) and
 * `getXOutput(args)` (an Output).
 *
 * Read-only functions for Pulumi programs, to find the ids of objects this stack does not manage:
 * `getUser({ email })`, `getUsers({ emails })`, `getTeam` and `getIncidentType` (below); each kind's
 * own lookups are on its reference page ([`getCustomField`](customField.md),
 * [`getAlertSource`](alertSource.md), [`getWorkflow`](workflow.md), …; every kind's page:
 * [README.md](README.md)). They run in the program (not in the provider), with the stack's
 * credentials (`incident:apiKey` / `incident:baseUrl`, else `INCIDENT_API_KEY` /
 * `INCIDENT_BASE_URL`), or an account's (`{ provider }`), and never write. Each comes as
 * `getX(args, opts?)` (a Promise) and `getXOutput(args, opts?)` (an Output, accepting Inputs).
 *
 * ### getUser({ email } | { slackUserId } | { id })
 *
 * Exactly one of: `email`: `GET /v2/users?email=…` (API v2, the only version of the users list;
 * paginated, every page is read), the e-mail matched again on the client, case-insensitively;
 * `slackUserId`: `GET /v2/users?slack_user_id=…` (the user's Slack id, e.g. `U02ABCDEF`), matched again;
 * `id`: `GET /v2/users/{id}`. Deactivated users (people who left) are found too
 * (`include_inactive=true`), with `isActive: false`: a rota or an escalation path that still names
 * one keeps working while you replace them, and the program can check (`isActive`) and say so.
 * Fails with `getUser: no user with e-mail "…"` (or Slack user id, or id) when there is none, and
 * names the ids when several users match.
 *
 * | Result | Notes |
 * |---|---|
 * | `id` | the user's id |
 * | `name` | display name |
 * | `email` | as the API holds it |
 * | `role` | the API's deprecated base role (no longer updated since March 2023) |
 * | `slackUserId` | the user's id in the connected chat product, if any |
 * | `isActive` | false for a deactivated user |
 *
 * ### getUsers({ emails, skipMissing? })
 *
 * Many users at once, by e-mail: one walk of `GET /v2/users?include_inactive=true` (every page, 250
 * users a page) however many e-mails, each matched case-insensitively. Answers `{ users, missing }`:
 * one user per e-mail, in the order given, with the fields of `getUser` (deactivated users found,
 * `isActive: false`). E-mails that match no user fail the lookup, all named in one error
 * (`getUsers: no user with e-mail "a@example.com", "b@example.com" …`); with `skipMissing: true`
 * they are left out of `users` and listed in `missing`. An e-mail several users share always fails,
 * naming their ids.
 *
 * ### getTeam({ name } | { id })
 *
 * `name`: `GET /v3/teams` (API v3, paginated, every page read), the exact name, suggesting a near
 * one when there is none; `id`: `GET /v3/teams/{id}`. Answers `{ id, name, memberIds,
 * catalogEntryId }`: the id goes into `teamIds` / `owningTeamIds` and API key team roles.
 *
 * ### getIncidentType({ name } | { default: true })
 *
 * `GET /v1/incident_types` (API v1, read-only in the public API, unpaginated): the type with that
 * exact name, or the account's default type. Answers `{ id, name, description, isDefault,
 * createInTriage, privateIncidentsOnly, owningTeamIds }`.
 *
 * Bad arguments (an empty name, an e-mail without `@`, an unknown argument) fail before any request.
 *
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const lisa = incident.getUserOutput({ email: "lisa@example.com" });
 * const team = incident.getCustomFieldOutput({ name: "Affected Team" });
 *
 * new incident.Workflow("assign-lead", {
 *   name: "Assign Lisa as lead",
 *   trigger: "incident.created",
 *   conditionGroups: [
 *     { conditions: [{ subject: team.id.apply((id) => `incident.custom_field["${id}"]`), operation: "is_set" }] },
 *   ],
 *   steps: [{ id: "lead", name: "incident.assign_role", paramBindings: [{ value: { literal: lisa.id } }] }],
 * });
 * ```
 */
import { z } from "zod";
import type { ApiClient } from "../provider/client";
import { unlessNotFound } from "../provider/errors";
import { defineLookup, LookupError, pickByName } from "../provider/functions";

// ---------- getUser ----------

/** Arguments of `getUser`. */
export const getUserArgs = z
  .strictObject({
    /** E-mail address of the user (compared case-insensitively). */
    email: z
      .string()
      .min(1, "must not be empty")
      .includes("@", { message: "must be an e-mail address" })
      .optional(),
    /** The user's id in the connected chat product (Slack), e.g. `U02ABCDEF`. */
    slackUserId: z.string().min(1, "must not be empty").optional(),
    /** The user's id in this API. */
    id: z.string().min(1, "must not be empty").optional(),
  })
  .refine(
    (a) => [a.email, a.slackUserId, a.id].filter((v) => v !== undefined).length === 1,
    "give exactly one of email, slackUserId or id",
  );
export type GetUserArgs = z.input<typeof getUserArgs>;

/** A user of the account. */
export interface GetUserResult {
  /** The user's id: use it in schedules, escalation paths and workflow bindings. */
  id: string;
  /** Display name. */
  name: string;
  /** E-mail address, as the API holds it. */
  email: string;
  /** DEPRECATED in the API (no longer updated since March 2023): the user's base role. */
  role: string;
  /** The user's id in the connected chat product, when there is one. */
  slackUserId: string | undefined;
  /** False for a deactivated user (someone who left the company): found, so the program can say so. */
  isActive: boolean;
}

interface ApiUser {
  id: string;
  name: string;
  email?: string;
  role: string;
  slack_user_id?: string;
  /** Absent in answers that predate it: taken as active. */
  is_active?: boolean;
}

/**
 * Finds a user by e-mail: `GET /v2/users?email=…` (API v2, the only version of the users list),
 * following pagination. The match is made again here, case-insensitively, so the result is exactly
 * the user asked for whatever the server's filter does.
 */
export async function findUserByEmail(client: ApiClient, email: string): Promise<GetUserResult> {
  const users = await client.listAll<ApiUser>("/v2/users", "users", "list users", {
    email,
    include_inactive: true,
  });
  const wanted = email.trim().toLowerCase();
  const matches = users.filter((u) => (u.email ?? "").trim().toLowerCase() === wanted);
  if (matches.length === 0) throw new LookupError("getUser", `no user with e-mail ${JSON.stringify(email)}`);
  if (matches.length > 1) {
    throw new LookupError(
      "getUser",
      `${matches.length} users have e-mail ${JSON.stringify(email)}: ${matches.map((u) => u.id).join(", ")}`,
    );
  }
  return { ...userResult(matches[0]!), email: matches[0]!.email ?? email };
}

/** Finds a user by chat (Slack) user id: `GET /v2/users?slack_user_id=…`, matched again here. */
export async function findUserBySlackId(client: ApiClient, slackUserId: string): Promise<GetUserResult> {
  const users = await client.listAll<ApiUser>("/v2/users", "users", "list users", {
    slack_user_id: slackUserId,
    include_inactive: true,
  });
  const matches = users.filter((u) => u.slack_user_id === slackUserId);
  if (matches.length !== 1) {
    throw new LookupError(
      "getUser",
      matches.length === 0
        ? `no user with Slack user id ${JSON.stringify(slackUserId)}`
        : `${matches.length} users have Slack user id ${JSON.stringify(slackUserId)}: ${matches.map((u) => u.id).join(", ")}`,
    );
  }
  return userResult(matches[0]!);
}

/** Finds a user by id: `GET /v2/users/{id}`. */
export async function findUserById(client: ApiClient, id: string): Promise<GetUserResult> {
  const body = await unlessNotFound(
    client.get<{ user: ApiUser }>(`/v2/users/${encodeURIComponent(id)}`, "show user"),
  );
  if (!body) throw new LookupError("getUser", `no user with id ${JSON.stringify(id)}`);
  return userResult(body.user);
}

const userResult = (u: ApiUser): GetUserResult => ({
  id: u.id,
  name: u.name,
  email: u.email ?? "",
  role: u.role,
  slackUserId: u.slack_user_id,
  isActive: u.is_active !== false,
});

const userLookup = defineLookup({
  name: "getUser",
  args: getUserArgs,
  run: (client, args) =>
    args.email !== undefined
      ? findUserByEmail(client, args.email)
      : args.slackUserId !== undefined
        ? findUserBySlackId(client, args.slackUserId)
        : findUserById(client, args.id!),
});

/** Finds a user of the account by e-mail address, Slack user id or id; fails when there is none. */
export const getUser = userLookup.get;
/** `getUser` taking Inputs and answering an Output. */
export const getUserOutput = userLookup.getOutput;

// ---------- getUsers ----------

/** Arguments of `getUsers`. */
export const getUsersArgs = z.strictObject({
  /** E-mail addresses of the users (compared case-insensitively); the answer keeps their order. */
  emails: z.array(
    z.string().min(1, "must not be empty").includes("@", { message: "must be an e-mail address" }),
  ),
  /**
   * `true`: e-mails that match no user are left out of `users` and listed in `missing`, instead of
   * failing the lookup. Default `false`.
   */
  skipMissing: z.boolean().default(false),
});
export type GetUsersArgs = z.input<typeof getUsersArgs>;

/** The users found for a list of e-mails. */
export interface GetUsersResult {
  /** One user per e-mail given, in the order given (deactivated users included: see `isActive`). */
  users: GetUserResult[];
  /** The e-mails that match no user (only with `skipMissing: true`; otherwise the lookup fails). */
  missing: string[];
}

/**
 * Finds users by e-mail, many at once: one walk of `GET /v2/users?include_inactive=true` (API v2,
 * paginated, 250 per page) however many e-mails, matched case-insensitively. Every e-mail that
 * matches no user (unless `skipMissing`) and every one that matches several is named in one error.
 */
export async function findUsersByEmail(
  client: ApiClient,
  args: { emails: string[]; skipMissing: boolean },
): Promise<GetUsersResult> {
  if (args.emails.length === 0) return { users: [], missing: [] };
  const all = await client.listAll<ApiUser>("/v2/users", "users", "list users", { include_inactive: true });
  const byEmail = new Map<string, ApiUser[]>();
  for (const u of all) {
    const key = (u.email ?? "").trim().toLowerCase();
    if (key !== "") byEmail.set(key, [...(byEmail.get(key) ?? []), u]);
  }
  const users: GetUserResult[] = [];
  const missing: string[] = [];
  const shared: string[] = [];
  for (const email of args.emails) {
    const matches = byEmail.get(email.trim().toLowerCase()) ?? [];
    if (matches.length === 1) users.push({ ...userResult(matches[0]!), email: matches[0]!.email ?? email });
    else if (matches.length === 0) missing.push(email);
    else shared.push(`${JSON.stringify(email)} (${matches.map((u) => u.id).join(", ")})`);
  }
  const problems: string[] = [];
  if (missing.length > 0 && !args.skipMissing) {
    problems.push(
      `no user with e-mail ${missing.map((e) => JSON.stringify(e)).join(", ")} (skipMissing: true leaves ${missing.length === 1 ? "it" : "them"} out)`,
    );
  }
  if (shared.length > 0) problems.push(`several users have e-mail ${shared.join(", ")}`);
  if (problems.length > 0) throw new LookupError("getUsers", problems.join("; "));
  return { users, missing };
}

const usersLookup = defineLookup({ name: "getUsers", args: getUsersArgs, run: findUsersByEmail });

/** Finds users by e-mail, many at once; fails naming every e-mail that matches no user (unless `skipMissing`). */
export const getUsers = usersLookup.get;
/** `getUsers` taking Inputs and answering an Output. */
export const getUsersOutput = usersLookup.getOutput;

// ---------- getTeam ----------

/** Arguments of `getTeam`. */
export const getTeamArgs = z
  .strictObject({
    /** Exact name of the team, e.g. `Platform`. */
    name: z.string().min(1, "must not be empty").optional(),
    /** The team's id. */
    id: z.string().min(1, "must not be empty").optional(),
  })
  .refine((a) => (a.name === undefined) !== (a.id === undefined), "give exactly one of name or id");
export type GetTeamArgs = z.input<typeof getTeamArgs>;

/** A team of the account. */
export interface GetTeamResult {
  /** The team's id: use it in `teamIds`, `owningTeamIds` and API key team roles. */
  id: string;
  name: string;
  /** Ids of the team's members. */
  memberIds: string[];
  /** Id of the team's catalog entry. */
  catalogEntryId: string;
}

interface ApiTeam {
  id: string;
  name: string;
  members: { id: string }[];
  catalog_entry: { id: string };
}

const teamResult = (t: ApiTeam): GetTeamResult => ({
  id: t.id,
  name: t.name,
  memberIds: (t.members ?? []).map((m) => m.id),
  catalogEntryId: t.catalog_entry?.id,
});

/** Finds a team by exact name (`GET /v3/teams`, paginated) or by id (`GET /v3/teams/{id}`). */
export async function findTeam(
  client: ApiClient,
  args: { name?: string; id?: string },
): Promise<GetTeamResult> {
  if (args.id !== undefined) {
    const shown = client.get<{ team: ApiTeam }>(`/v3/teams/${encodeURIComponent(args.id)}`, "show team");
    const team = (await unlessNotFound(shown))?.team;
    if (!team) throw new LookupError("getTeam", `no team with id ${JSON.stringify(args.id)}`);
    return teamResult(team);
  }
  const all = await client.listAll<ApiTeam>("/v3/teams", "teams", "list teams");
  return teamResult(pickByName(all, args.name!, "getTeam", "team"));
}

const teamLookup = defineLookup({ name: "getTeam", args: getTeamArgs, run: findTeam });

/** Finds a team by name or id; fails when there is none. */
export const getTeam = teamLookup.get;
/** `getTeam` taking Inputs and answering an Output. */
export const getTeamOutput = teamLookup.getOutput;

// ---------- getIncidentType ----------

/** Arguments of `getIncidentType`. */
export const getIncidentTypeArgs = z
  .strictObject({
    /** Exact name of the incident type. */
    name: z.string().min(1, "must not be empty").optional(),
    /** `true`: the account's default incident type (the one used when none is given). */
    default: z.literal(true).optional(),
  })
  .refine((a) => (a.name === undefined) !== (a.default === undefined), "give exactly one of name or default");
export type GetIncidentTypeArgs = z.input<typeof getIncidentTypeArgs>;

/** An incident type of the account (incident types are read-only in the public API). */
export interface GetIncidentTypeResult {
  /** The type's id: use it in conditions and workflow bindings. */
  id: string;
  name: string;
  description: string;
  /** Whether this is the account's default type. */
  isDefault: boolean;
  /** `always` or `optional`: whether its incidents must start in triage. */
  createInTriage: string;
  /** Whether all its incidents are private. */
  privateIncidentsOnly: boolean;
  /** Teams that own the type. */
  owningTeamIds: string[];
}

interface ApiIncidentType {
  id: string;
  name: string;
  description: string;
  is_default: boolean;
  create_in_triage: string;
  private_incidents_only: boolean;
  owning_team_ids?: string[];
}

/** Finds an incident type by exact name, or the default one: `GET /v1/incident_types` (unpaginated). */
export async function findIncidentType(
  client: ApiClient,
  args: { name?: string; default?: true },
): Promise<GetIncidentTypeResult> {
  const all =
    (await client.get<{ incident_types: ApiIncidentType[] }>("/v1/incident_types", "list incident types"))
      .incident_types ?? [];
  const found = args.default
    ? all.find((t) => t.is_default)
    : pickByName(all, args.name!, "getIncidentType", "incident type");
  if (!found) throw new LookupError("getIncidentType", "the account has no default incident type");
  return {
    id: found.id,
    name: found.name,
    description: found.description,
    isDefault: found.is_default,
    createInTriage: found.create_in_triage,
    privateIncidentsOnly: found.private_incidents_only,
    owningTeamIds: found.owning_team_ids ?? [],
  };
}

const incidentTypeLookup = defineLookup({
  name: "getIncidentType",
  args: getIncidentTypeArgs,
  run: findIncidentType,
});

/** Finds an incident type by name (or the default one); fails when there is none. */
export const getIncidentType = incidentTypeLookup.get;
/** `getIncidentType` taking Inputs and answering an Output. */
export const getIncidentTypeOutput = incidentTypeLookup.getOutput;
