/**
 * PagerDuty family: services (`GET /services` listServices, `GET /services/{id}` getService; the
 * document in shapes.json, `Service`, `IntegrationReference`). A service pages its
 * `escalation_policy`; `integrations` ("An array containing Integration objects that belong to this
 * service") are answered as references whose `type` names the integration's kind
 * (`events_api_v2_inbound_integration_reference`, …). `status` defaults to `active`. Lists page by
 * `limit`/`offset`, filter by `query` and `team_ids[]`.
 */
import { defineSourceFamily } from "../family";
import { filtered, find, links, type PagerDutyAccount, page, reference } from "./shared/api";

type Service = PagerDutyAccount["services"][number];

function render(account: PagerDutyAccount, service: Service, baseUrl: string) {
  return {
    id: service.id,
    type: "service",
    summary: service.name,
    ...links("service", service.id, baseUrl),
    name: service.name,
    ...(service.description !== undefined ? { description: service.description } : {}),
    status: service.status ?? "active",
    escalation_policy: reference(account, "escalation_policy", service.escalation_policy, baseUrl),
    teams: (service.teams ?? []).map((t) => reference(account, "team", t, baseUrl)),
    integrations: (service.integrations ?? []).map((i) => ({
      id: i.id,
      type: `${i.type}_reference`,
      summary: i.name,
      self: `${baseUrl}/services/${service.id}/integrations/${i.id}`,
      html_url: `${baseUrl}/_web/services/${service.id}/integrations/${i.id}`,
    })),
    auto_resolve_timeout: service.auto_resolve_timeout ?? null,
    acknowledgement_timeout: service.acknowledgement_timeout ?? null,
    created_at: service.created_at ?? "2024-01-01T00:00:00Z",
  };
}

export const services = defineSourceFamily<PagerDutyAccount>({
  name: "services",
  routes: [
    {
      method: "GET",
      path: "/services",
      operationId: "listServices",
      response: { key: "services", type: "Service", list: true },
      handler: ({ account, query, baseUrl }) =>
        page(
          filtered(account.services, query).map((s) => render(account, s, baseUrl)),
          query,
          "services",
        ),
    },
    {
      method: "GET",
      path: "/services/{id}",
      operationId: "getService",
      response: { key: "service", type: "Service" },
      handler: ({ account, params, baseUrl }) => ({
        service: render(account, find(account, "service", params.id!), baseUrl),
      }),
    },
  ],
});
