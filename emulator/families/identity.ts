/**
 * Emulator family: identity (API v1). `GET /v1/identity`: the calling key's name, roles, team roles
 * and teams, and the dashboard URL. Any valid key may call it.
 */
import { API_KEYS, type StoredApiKey } from "../auth";
import { defineFamily, operation } from "../family";
import { notFound } from "../http/errors";
import { ANY_KEY_READS } from "../roles";
import { type StoredTeam, TEAMS } from "./teams";

export const identity = defineFamily({
  name: "identity",
  roles: ANY_KEY_READS,
  collections: [],
  routes: [
    operation("UtilitiesV1Identity", "any_key", ({ store, caller, runtime }) => {
      const key = store.collection<StoredApiKey>(API_KEYS).get(caller.keyId);
      if (!key) throw notFound("The calling API key no longer exists");
      const teams = store.collection<StoredTeam>(TEAMS);
      return {
        body: {
          identity: {
            name: key.name,
            roles: [...key.role_names],
            team_roles: [...key.team_role_names],
            teams: key.team_ids.map((id) => ({ id, name: teams.get(id)?.name ?? id })),
            dashboard_url: runtime.options.dashboardUrl ?? `${runtime.url}/_emulator`,
          },
        },
      };
    }),
  ],
});
