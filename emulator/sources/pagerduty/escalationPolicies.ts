/**
 * PagerDuty family: escalation policies (`GET /escalation_policies` listEscalationPolicies, `GET
 * /escalation_policies/{id}` getEscalationPolicy; the document in shapes.json, `EscalationPolicy`,
 * `EscalationRule`, `EscalationTargetReference`). `num_loops`: "The number of times the escalation
 * policy will repeat after reaching the end of its escalation" (default 0); a rule's
 * `escalation_delay_in_minutes`: "The number of minutes before an unacknowledged incident escalates
 * away from this rule"; `targets` are user and schedule references. `services` are the services
 * using the policy (read-only). Lists page by `limit`/`offset`, filter by `query` and `team_ids[]`.
 */
import { defineSourceFamily } from "../family";
import { filtered, find, links, type PagerDutyAccount, page, reference } from "./shared/api";

type Policy = PagerDutyAccount["escalation_policies"][number];

function render(account: PagerDutyAccount, policy: Policy, baseUrl: string) {
  return {
    id: policy.id,
    type: "escalation_policy",
    summary: policy.name,
    ...links("escalation_policy", policy.id, baseUrl),
    name: policy.name,
    ...(policy.description !== undefined ? { description: policy.description } : {}),
    num_loops: policy.num_loops ?? 0,
    on_call_handoff_notifications: policy.on_call_handoff_notifications ?? "if_has_services",
    escalation_rules: policy.escalation_rules.map((rule) => ({
      id: rule.id,
      escalation_delay_in_minutes: rule.escalation_delay_in_minutes,
      targets: rule.targets.map((t) =>
        reference(account, t.type === "user_reference" ? "user" : "schedule", t.id, baseUrl),
      ),
      ...(rule.escalation_rule_assignment_strategy
        ? { escalation_rule_assignment_strategy: rule.escalation_rule_assignment_strategy }
        : {}),
    })),
    services: account.services
      .filter((s) => s.escalation_policy === policy.id)
      .map((s) => reference(account, "service", s.id, baseUrl)),
    teams: (policy.teams ?? []).map((t) => reference(account, "team", t, baseUrl)),
  };
}

export const escalationPolicies = defineSourceFamily<PagerDutyAccount>({
  name: "escalation_policies",
  routes: [
    {
      method: "GET",
      path: "/escalation_policies",
      operationId: "listEscalationPolicies",
      response: { key: "escalation_policies", type: "EscalationPolicy", list: true },
      handler: ({ account, query, baseUrl }) =>
        page(
          filtered(account.escalation_policies, query).map((p) => render(account, p, baseUrl)),
          query,
          "escalation_policies",
        ),
    },
    {
      method: "GET",
      path: "/escalation_policies/{id}",
      operationId: "getEscalationPolicy",
      response: { key: "escalation_policy", type: "EscalationPolicy" },
      handler: ({ account, params, baseUrl }) => ({
        escalation_policy: render(account, find(account, "escalation_policy", params.id!), baseUrl),
      }),
    },
  ],
});
