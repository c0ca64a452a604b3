/**
 * Opsgenie family: users (`GET /v2/users` listUsers, `GET /v2/users/{identifier}` getUser;
 * opsgenie/opsgenie-oas `paths/user.yaml`, `definitions/user.yaml#/User`). A user's `username` is
 * their e-mail address ("E-mail address of the user"). The list pages by `limit` and `offset`
 * (shared/api.ts).
 */
import { defineSourceFamily, SourceError } from "../family";
import { envelope, type OpsgenieAccount } from "./shared/api";

const render = (u: OpsgenieAccount["users"][number]) => ({
  id: u.id,
  username: u.username,
  fullName: u.fullName,
  role: { id: u.role ?? "User", name: u.role ?? "User" },
  timeZone: u.timeZone ?? "Etc/UTC",
  locale: "en_US",
  blocked: false,
  verified: true,
  createdAt: "2024-01-01T00:00:00.000Z",
});

export const users = defineSourceFamily<OpsgenieAccount>({
  name: "users",
  routes: [
    {
      method: "GET",
      path: "/v2/users",
      operationId: "listUsers",
      response: { key: "data", type: "User", list: true },
      handler: ({ account, query, baseUrl }) => {
        const number = (name: string, fallback: number, min: number) => {
          const raw = query.get(name);
          const n = raw === null ? fallback : Number(raw);
          if (!Number.isInteger(n) || n < min)
            throw new SourceError(422, `${name} must be an integer of ${min} or more`);
          return n;
        };
        const limit = number("limit", 100, 1);
        const offset = number("offset", 0, 0);
        const all = account.users;
        const url = (o: number) => `${baseUrl}/v2/users?limit=${limit}&offset=${o}`;
        const last = Math.max(0, Math.floor((all.length - 1) / limit) * limit);
        return envelope(all.slice(offset, offset + limit).map(render), {
          totalCount: all.length,
          paging: {
            ...(offset + limit < all.length ? { next: url(offset + limit) } : {}),
            ...(offset > 0 ? { prev: url(Math.max(0, offset - limit)) } : {}),
            first: url(0),
            last: url(last),
          },
        });
      },
    },
    {
      method: "GET",
      path: "/v2/users/{identifier}",
      operationId: "getUser",
      response: { key: "data", type: "User" },
      handler: ({ account, params }) => {
        const user = account.users.find(
          (u) => u.id === params.identifier || u.username === params.identifier,
        );
        if (!user) throw new SourceError(404, `User with identifier [${params.identifier}] does not exist`);
        return envelope(render(user), { expandable: ["contact"] });
      },
    },
  ],
});
