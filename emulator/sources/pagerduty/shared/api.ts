/**
 * What every PagerDuty family shares: the account as the fixtures hold it, references, classic
 * offset pagination and times written in a time zone.
 *
 * - Pagination (`Pagination` in the document; PagerDuty's developer docs, "Pagination"): `limit`
 *   ("The number of results per page") and `offset` ("Offset to start pagination search results");
 *   the answer echoes `limit` and `offset`, says `more` ("Indicates if there are additional records
 *   to return") and answers `total` as `null` unless `total=true` ("By default the `total` field in
 *   pagination responses is set to `null` to provide the fastest possible response times").
 *   **Assumed**: `limit` defaults to 25 and is capped at 100 (the developer docs' figures); a bad
 *   `limit` or `offset` is a 400.
 * - References (`Reference`, `Tag/allOf/0`): `{id, type: "<kind>_reference", summary, self,
 *   html_url}`, `summary` being the object's name ("In many cases, this will be identical to `name`").
 * - Times: "Time zone in which results will be rendered. This will default to the schedule's time
 *   zone" (`time_zone`): written with the zone's offset (`2015-11-09T08:00:00-05:00`), as the
 *   document's examples are.
 */
import { offsetText } from "../../../families/shared/zonedTime";
import { SourceError } from "../../family";
import type { PagerDutyLayer, PagerDutyOverride } from "./renderedSchedule";

/** The account a PagerDuty emulator serves: objects as the API holds them, references by id. */
export interface PagerDutyAccount {
  users: Array<{
    id: string;
    name: string;
    email: string;
    time_zone?: string;
    role?: string;
    teams?: string[];
  }>;
  teams: Array<{ id: string; name: string; description?: string }>;
  /** `schedule_layers` as the API answers them: highest layer first. Users by id. */
  schedules: Array<{
    id: string;
    name: string;
    description?: string;
    time_zone: string;
    teams?: string[];
    schedule_layers: PagerDutyLayer[];
    overrides?: PagerDutyOverride[];
  }>;
  escalation_policies: Array<{
    id: string;
    name: string;
    description?: string;
    num_loops?: number;
    on_call_handoff_notifications?: "if_has_services" | "always";
    teams?: string[];
    escalation_rules: Array<{
      id: string;
      escalation_delay_in_minutes: number;
      targets: Array<{ id: string; type: "user_reference" | "schedule_reference" }>;
      escalation_rule_assignment_strategy?: "round_robin" | "assign_to_everyone";
    }>;
  }>;
  services: Array<{
    id: string;
    name: string;
    description?: string;
    status?: "active" | "warning" | "critical" | "maintenance" | "disabled";
    escalation_policy: string;
    teams?: string[];
    integrations?: Array<{ id: string; type: string; name: string }>;
    auto_resolve_timeout?: number | null;
    acknowledgement_timeout?: number | null;
    created_at?: string;
  }>;
}

export type Kind = "user" | "team" | "schedule" | "escalation_policy" | "service";

const COLLECTION: Record<Kind, keyof PagerDutyAccount> = {
  user: "users",
  team: "teams",
  schedule: "schedules",
  escalation_policy: "escalation_policies",
  service: "services",
};

/** The object of a kind, or a 404 naming it. */
export function find<K extends Kind>(account: PagerDutyAccount, kind: K, id: string): any {
  const found = (account[COLLECTION[kind]] as Array<{ id: string }>).find((o) => o.id === id);
  if (!found) throw new SourceError(404, "Not Found");
  return found;
}

/** The links every object carries (`self`, `html_url`). */
export function links(kind: Kind, id: string, baseUrl: string) {
  return {
    self: `${baseUrl}/${COLLECTION[kind]}/${id}`,
    html_url: `${baseUrl}/_web/${COLLECTION[kind]}/${id}`,
  };
}

/** `{id, type: "<kind>_reference", summary, self, html_url}`. */
export function reference(account: PagerDutyAccount, kind: Kind, id: string, baseUrl: string) {
  const target = (account[COLLECTION[kind]] as Array<{ id: string; name: string }>).find((o) => o.id === id);
  return {
    id,
    type: `${kind}_reference`,
    summary: target?.name ?? null,
    ...links(kind, id, baseUrl),
  };
}

/** Every value of a repeated query parameter (`include[]`, `team_ids[]`). */
export function many(query: URLSearchParams, name: string): string[] {
  return [...query.getAll(`${name}[]`), ...query.getAll(name)];
}

/** A page of `items` by `limit` and `offset`: the list under `key`, with the pagination fields. */
export function page<T>(items: readonly T[], query: URLSearchParams, key: string): Record<string, unknown> {
  const number = (name: string, fallback: number, min: number) => {
    const raw = query.get(name);
    if (raw === null) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new SourceError(400, `Invalid Input Provided: ${name}`);
    return n;
  };
  const limit = Math.min(number("limit", 25, 1), 100);
  const offset = number("offset", 0, 0);
  const slice = items.slice(offset, offset + limit);
  return {
    [key]: slice,
    limit,
    offset,
    more: offset + limit < items.length,
    total: query.get("total") === "true" ? items.length : null,
  };
}

/** Objects whose name holds `query` (case-insensitive), and related to one of `team_ids[]` when given. */
export function filtered<T extends { name: string; teams?: string[] }>(
  items: readonly T[],
  query: URLSearchParams,
): T[] {
  const text = query.get("query")?.toLowerCase();
  const teams = many(query, "team_ids");
  return items.filter(
    (o) =>
      (text === undefined || o.name.toLowerCase().includes(text)) &&
      (teams.length === 0 || (o.teams ?? []).some((t) => teams.includes(t))),
  );
}

/** An instant written in a time zone, to the second, with its offset (`Z` for UTC). */
export function timeIn(ms: number, timeZone: string): string {
  const offset = offsetText(ms, timeZone);
  const minutes =
    (offset.startsWith("-") ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)));
  const local = new Date(Math.floor(ms / 1000) * 1000 + minutes * 60_000).toISOString().slice(0, 19);
  return `${local}${offset === "+00:00" ? "Z" : offset}`;
}
