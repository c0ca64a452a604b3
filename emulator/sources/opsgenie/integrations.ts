/**
 * Opsgenie family: integrations (`GET /v2/integrations` listIntegrations, `GET /v2/integrations/{id}`
 * getIntegration; opsgenie/opsgenie-oas `paths/integration.yaml`, `definitions/integration.yaml`,
 * `IntegrationMeta`): where alerts come from (`type`: `API`, `Email`, `Prometheus`, …), owned by a
 * team (`teamId`), whose routing rules decide who is notified.
 */
import { defineSourceFamily, SourceError } from "../family";
import { envelope, type OpsgenieAccount } from "./shared/api";

const render = (i: OpsgenieAccount["integrations"][number]) => ({
  id: i.id,
  name: i.name,
  enabled: i.enabled ?? true,
  type: i.type,
  ...(i.teamId ? { teamId: i.teamId } : {}),
});

export const integrations = defineSourceFamily<OpsgenieAccount>({
  name: "integrations",
  routes: [
    {
      method: "GET",
      path: "/v2/integrations",
      operationId: "listIntegrations",
      response: { key: "data", type: "IntegrationMeta", list: true },
      handler: ({ account }) => envelope(account.integrations.map(render)),
    },
    {
      method: "GET",
      path: "/v2/integrations/{id}",
      operationId: "getIntegration",
      response: { key: "data", type: "IntegrationMeta" },
      handler: ({ account, params }) => {
        const found = account.integrations.find((i) => i.id === params.id);
        if (!found) throw new SourceError(404, `Integration with id [${params.id}] does not exist`);
        return envelope(render(found));
      },
    },
  ],
});
