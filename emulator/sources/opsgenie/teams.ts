/**
 * Opsgenie family: teams and their routing rules (`GET /v2/teams` listTeams, `GET
 * /v2/teams/{identifier}` getTeam, `GET /v2/teams/{identifier}/routing-rules` listTeamRoutingRules;
 * opsgenie/opsgenie-oas `paths/team.yaml`, `paths/teamRoutingRule.yaml`, `definitions/team.yaml`,
 * `definitions/teamRoutingRule.yaml`). A routing rule `notify`s an escalation or schedule (or
 * nobody, `none`); the default rule (`isDefault`) applies when no other matches.
 */
import { defineSourceFamily } from "../family";
import { byIdentifier, envelope, type OpsgenieAccount, recipient } from "./shared/api";

export const teams = defineSourceFamily<OpsgenieAccount>({
  name: "teams",
  routes: [
    {
      method: "GET",
      path: "/v2/teams",
      operationId: "listTeams",
      response: { key: "data", type: "Team", list: true },
      handler: ({ account }) =>
        envelope(account.teams.map((t) => ({ id: t.id, name: t.name, description: t.description ?? "" }))),
    },
    {
      method: "GET",
      path: "/v2/teams/{identifier}",
      operationId: "getTeam",
      response: { key: "data", type: "Team" },
      handler: ({ account, params, query }) => {
        const t = byIdentifier(account.teams, params.identifier!, query, "Team");
        return envelope({ id: t.id, name: t.name, description: t.description ?? "" });
      },
    },
    {
      method: "GET",
      path: "/v2/teams/{identifier}/routing-rules",
      operationId: "listTeamRoutingRules",
      response: { key: "data", type: "TeamRoutingRule", list: true },
      handler: ({ account, params, query }) => {
        const team = byIdentifier(account.teams, params.identifier!, query, "Team", "teamIdentifierType");
        return envelope(
          (team.routingRules ?? []).map((r) => ({
            id: r.id,
            name: r.name,
            isDefault: r.isDefault,
            order: r.order,
            criteria: r.criteria ?? { type: "match-all" },
            ...(r.timezone ? { timezone: r.timezone } : {}),
            notify: recipient(account, r.notify),
          })),
        );
      },
    },
  ],
});
