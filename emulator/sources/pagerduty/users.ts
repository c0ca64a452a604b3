/**
 * PagerDuty family: users (`GET /users` listUsers, `GET /users/{id}` getUser; the document in
 * shapes.json, `User`). Lists page by `limit`/`offset` (shared/api.ts) and filter by `query` (name)
 * and `team_ids[]`. `teams` are references to the user's teams.
 */
import { defineSourceFamily } from "../family";
import { filtered, find, links, type PagerDutyAccount, page, reference } from "./shared/api";

function render(account: PagerDutyAccount, user: PagerDutyAccount["users"][number], baseUrl: string) {
  return {
    id: user.id,
    type: "user",
    summary: user.name,
    ...links("user", user.id, baseUrl),
    name: user.name,
    email: user.email,
    time_zone: user.time_zone ?? "Etc/UTC",
    role: user.role ?? "user",
    teams: (user.teams ?? []).map((t) => reference(account, "team", t, baseUrl)),
  };
}

export const users = defineSourceFamily<PagerDutyAccount>({
  name: "users",
  routes: [
    {
      method: "GET",
      path: "/users",
      operationId: "listUsers",
      response: { key: "users", type: "User", list: true },
      handler: ({ account, query, baseUrl }) =>
        page(
          filtered(account.users, query).map((u) => render(account, u, baseUrl)),
          query,
          "users",
        ),
    },
    {
      method: "GET",
      path: "/users/{id}",
      operationId: "getUser",
      response: { key: "user", type: "User" },
      handler: ({ account, params, baseUrl }) => ({
        user: render(account, find(account, "user", params.id!), baseUrl),
      }),
    },
  ],
});
