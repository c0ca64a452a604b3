/**
 * Emulator family: teams (API v3, read-only). `GET /v3/teams` (paginated), `GET /v3/teams/{id}`.
 * Seeded with a few teams (stable ids) so API keys can be scoped to teams (`team_ids`).
 */
import { defineFamily, operation, paginate } from "../family";
import { badRequest, notFound } from "../http/errors";
import { ANY_KEY_READS } from "../roles";
import type { Store } from "../store";
import { renderUserV3, type StoredUser, USERS } from "./users";

export const TEAMS = "teams";

/**
 * 400 `invalid_reference` when an entry of a team id list (`team_ids`, `owning_team_ids`) in a
 * body is not a team of the account. Anything but an array is left to shape validation.
 */
export function requireTeams(store: Store, teamIds: unknown): void {
  const teams = store.collection<StoredTeam>(TEAMS);
  const unknown = (Array.isArray(teamIds) ? teamIds : []).filter((id) => !teams.has(id));
  if (unknown.length > 0) throw badRequest(`No team with id ${unknown.join(", ")}`, "invalid_reference");
}

export interface StoredTeam {
  id: string;
  name: string;
  /** The team's catalog entry (`CatalogEntrySlimV3V3`). */
  catalog_entry_id: string;
  member_ids: string[];
}

export const SEED_TEAMS: readonly StoredTeam[] = [
  {
    id: "01TEAMPLATFORM",
    name: "Platform",
    catalog_entry_id: "01CATENTRYPLATFORM",
    member_ids: ["01USERADA", "01USERBOB"],
  },
  {
    id: "01TEAMPAYMENTS",
    name: "Payments",
    catalog_entry_id: "01CATENTRYPAYMENTS",
    member_ids: ["01USERCAT"],
  },
  {
    id: "01TEAMIDENTITY",
    name: "Identity",
    catalog_entry_id: "01CATENTRYIDENTITY",
    member_ids: ["01USEREVE", "01USERADA"],
  },
];

/** `TeamV3`. */
export function renderTeam(store: Store, t: StoredTeam): Record<string, unknown> {
  const users = store.collection<StoredUser>(USERS);
  return {
    id: t.id,
    name: t.name,
    catalog_entry: { id: t.catalog_entry_id, name: t.name },
    members: t.member_ids.flatMap((id) => {
      const u = users.get(id);
      return u ? [renderUserV3(u)] : [];
    }),
  };
}

export const teams = defineFamily({
  name: "teams",
  roles: ANY_KEY_READS,
  collections: [TEAMS],
  seed(store) {
    const c = store.collection<StoredTeam>(TEAMS);
    for (const t of SEED_TEAMS) c.set(t);
  },
  routes: [
    operation("TeamsV3List", "read", ({ store, query }) => {
      const { page, pagination_meta } = paginate(store.collection<StoredTeam>(TEAMS).all(), query);
      return { body: { teams: page.map((t) => renderTeam(store, t)), pagination_meta } };
    }),
    operation("TeamsV3Show", "read", ({ store, params }) => {
      const t = store.collection<StoredTeam>(TEAMS).get(params.id!);
      if (!t) throw notFound(`No team with id ${params.id}`);
      return { body: { team: renderTeam(store, t) } };
    }),
  ],
});
