/**
 * What every Opsgenie family shares: the account as the fixtures hold it, the response envelope,
 * identifiers, recipients and the users list's paging.
 * - Envelope (`BaseResponse`, `BaseResponseWithExpandable`): `{data, took, requestId}`, plus
 *   `expandable` where the operation has an `expand` parameter.
 * - Identifiers: a schedule, escalation or team is found by `identifier` and `identifierType`
 *   ("Type of the identifier that is provided as an in-line parameter. Possible values are 'id' or
 *   'name'", default `id`); a user by id or username ("Identifier of the user to be searched").
 * - Paging (`listUsers`): `limit` ("Number of users to retrieve", default 100) and `offset`
 *   ("Number of users to skip from start", default 0); the answer's `paging` (`PageDetails`: `next`,
 *   `first`, `last` URLs) and `totalCount`. The other lists the migration reads (`listSchedules`,
 *   `listEscalations`, `listTeams`, `listIntegrations`, `listTeamRoutingRules`) have no paging in
 *   the document: they answer every object. **Assumed**: `next` is left out on the last page.
 * - Recipients (`Recipient` and its kinds): `{type, id}` plus `username` (user) or `name` (team,
 *   schedule, escalation).
 */
import { SourceError } from "../../family";
import type { OpsgenieRecipientRef, OpsgenieRotation } from "./timeline";

/** The account an Opsgenie emulator serves: objects as the API holds them, references by id. */
export interface OpsgenieAccount {
  users: Array<{ id: string; username: string; fullName: string; role?: string; timeZone?: string }>;
  teams: Array<{
    id: string;
    name: string;
    description?: string;
    routingRules?: Array<{
      id: string;
      name: string;
      isDefault: boolean;
      order: number;
      criteria?: {
        type: "match-all" | "match-any-condition" | "match-all-conditions";
        conditions?: unknown[];
      };
      timezone?: string;
      notify: OpsgenieRecipientRef;
    }>;
  }>;
  schedules: Array<{
    id: string;
    name: string;
    description?: string;
    timezone: string;
    enabled?: boolean;
    ownerTeam?: string;
    rotations: OpsgenieRotation[];
  }>;
  escalations: Array<{
    id: string;
    name: string;
    description?: string;
    ownerTeam?: string;
    rules: Array<{
      condition: "if-not-acked" | "if-not-closed";
      notifyType: "default" | "next" | "previous" | "users" | "admins" | "all";
      delay: { timeAmount: number; timeUnit?: "days" | "hours" | "minutes" };
      recipient: OpsgenieRecipientRef;
    }>;
    repeat?: {
      waitInterval?: number;
      count?: number;
      resetRecipientStates?: boolean;
      closeAlertAfterAll?: boolean;
    };
  }>;
  integrations: Array<{ id: string; name: string; type: string; enabled?: boolean; teamId?: string }>;
}

/** The envelope every answer has. */
export function envelope(data: unknown, extra: Record<string, unknown> = {}) {
  return { data, ...extra, took: 0.01, requestId: "00000000-0000-4000-8000-000000000000" };
}

/** The object a path names by id (default) or name (`identifierType=name`), else a 404. */
export function byIdentifier<T extends { id: string; name: string }>(
  items: readonly T[],
  identifier: string,
  query: URLSearchParams,
  what: string,
  typeParam = "identifierType",
): T {
  const by = query.get(typeParam) ?? "id";
  if (by !== "id" && by !== "name") throw new SourceError(422, `${typeParam} must be id or name`);
  const found = items.find((o) => (by === "id" ? o.id : o.name) === identifier);
  if (!found) throw new SourceError(404, `${what} with identifier [${identifier}] does not exist`);
  return found;
}

/** A recipient as the API answers it: `{type, id}` and the user's username or the object's name. */
export function recipient(account: OpsgenieAccount, ref: OpsgenieRecipientRef): Record<string, unknown> {
  if (ref.type === "none" || ref.type === "all") return { type: ref.type };
  if (ref.type === "user")
    return { type: "user", id: ref.id, username: account.users.find((u) => u.id === ref.id)?.username };
  const named: Record<string, Array<{ id: string; name: string }>> = {
    team: account.teams,
    schedule: account.schedules,
    escalation: account.escalations,
  };
  return { type: ref.type, id: ref.id, name: named[ref.type]?.find((o) => o.id === ref.id)?.name };
}

/** `{id, name}` of a team by id (`TeamMeta`). */
export function teamMeta(account: OpsgenieAccount, id: string | undefined) {
  const team = id === undefined ? undefined : account.teams.find((t) => t.id === id);
  return team ? { id: team.id, name: team.name } : undefined;
}
