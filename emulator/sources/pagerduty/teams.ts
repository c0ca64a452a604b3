/**
 * PagerDuty family: teams (`GET /teams` listTeams, `GET /teams/{id}` getTeam; the document in
 * shapes.json, `Team`). Lists page by `limit`/`offset` and filter by `query` (name).
 */
import { defineSourceFamily } from "../family";
import { filtered, find, links, type PagerDutyAccount, page } from "./shared/api";

const render = (team: PagerDutyAccount["teams"][number], baseUrl: string) => ({
  id: team.id,
  type: "team",
  summary: team.name,
  ...links("team", team.id, baseUrl),
  name: team.name,
  ...(team.description !== undefined ? { description: team.description } : {}),
});

export const teams = defineSourceFamily<PagerDutyAccount>({
  name: "teams",
  routes: [
    {
      method: "GET",
      path: "/teams",
      operationId: "listTeams",
      response: { key: "teams", type: "Team", list: true },
      handler: ({ account, query, baseUrl }) =>
        page(
          filtered(account.teams, query).map((t) => render(t, baseUrl)),
          query,
          "teams",
        ),
    },
    {
      method: "GET",
      path: "/teams/{id}",
      operationId: "getTeam",
      response: { key: "team", type: "Team" },
      handler: ({ account, params, baseUrl }) => ({
        team: render(find(account, "team", params.id!), baseUrl),
      }),
    },
  ],
});
