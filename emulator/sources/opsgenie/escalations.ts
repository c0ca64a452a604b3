/**
 * Opsgenie family: escalations (`GET /v2/escalations` listEscalations, `GET
 * /v2/escalations/{identifier}` getEscalation; opsgenie/opsgenie-oas `paths/escalation.yaml`,
 * `definitions/escalation.yaml`). Each rule notifies its `recipient` when its `delay` is over and
 * its `condition` holds (Atlassian's "How do escalations work in Opsgenie?": "the escalation rules
 * notify responders when the specified time is over and the state of the alert meets the specified
 * condition"); `repeat` runs the rules again `count` times, `waitInterval` minutes after the last.
 * A delay's `timeUnit` defaults to minutes (`Duration`).
 */
import { defineSourceFamily } from "../family";
import { byIdentifier, envelope, type OpsgenieAccount, recipient, teamMeta } from "./shared/api";

function render(account: OpsgenieAccount, e: OpsgenieAccount["escalations"][number]) {
  const owner = teamMeta(account, e.ownerTeam);
  return {
    id: e.id,
    name: e.name,
    description: e.description ?? "",
    ...(owner ? { ownerTeam: owner } : {}),
    rules: e.rules.map((r) => ({
      condition: r.condition,
      notifyType: r.notifyType,
      delay: { timeAmount: r.delay.timeAmount, timeUnit: r.delay.timeUnit ?? "minutes" },
      recipient: recipient(account, r.recipient),
    })),
    ...(e.repeat ? { repeat: e.repeat } : {}),
  };
}

export const escalations = defineSourceFamily<OpsgenieAccount>({
  name: "escalations",
  routes: [
    {
      method: "GET",
      path: "/v2/escalations",
      operationId: "listEscalations",
      response: { key: "data", type: "Escalation", list: true },
      handler: ({ account }) => envelope(account.escalations.map((e) => render(account, e))),
    },
    {
      method: "GET",
      path: "/v2/escalations/{identifier}",
      operationId: "getEscalation",
      response: { key: "data", type: "Escalation" },
      handler: ({ account, params, query }) =>
        envelope(render(account, byIdentifier(account.escalations, params.identifier!, query, "Escalation"))),
    },
  ],
});
