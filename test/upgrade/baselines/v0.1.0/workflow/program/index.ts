/**
 * Lifecycle fixture: one workflow using what the API reads back in another form (a JSON literal it
 * re-encodes, `one_of` it answers as `contains_one_of`, step bindings it pads, once-for references,
 * modes, owning teams and expressions it answers in another order, no folder). The program keeps
 * exactly one live workflow.
 *
 * Stack config (namespace `workflow-lifecycle`):
 * - `variant`: "base" (default) or "updated" (another delay, one more mode, another message: an
 *   in-place update);
 * - `adoptId`: adopt an existing workflow instead of creating one;
 * - `trigger` (default `incident.updated`): changing it replaces the workflow.
 */
import * as pulumi from "@pulumi/pulumi";
import * as incident from "pulumi-incident";

const config = new pulumi.Config();
const updated = (config.get("variant") ?? "base") === "updated";

const workflow = new incident.Workflow("notify", {
  name: "Lifecycle notify on critical",
  adoptId: config.get("adoptId"),
  trigger: config.get("trigger") ?? "incident.updated",
  conditionGroups: [
    {
      conditions: [
        {
          subject: "incident.severity",
          operation: "one_of",
          paramBindings: [{ arrayValue: [{ literal: "sev_1" }, { literal: "sev_2" }] }],
        },
      ],
    },
  ],
  steps: [
    {
      id: "post",
      name: "slack.post_message",
      paramBindings: [
        { value: { reference: "incident.slack_channel" } },
        // A JSON literal the API re-encodes (keys sorted, `>` escaped): must not show as drift.
        {
          value: {
            literal: updated
              ? '{"type": "doc", "content": [{"text": "severity > 2"}]}'
              : '{"type": "doc", "content": [{"text": "severity > 1"}]}',
          },
        },
      ],
    },
    {
      id: "page",
      name: "pagerduty.escalate",
      forEach: "teams",
      paramBindings: [{ arrayValue: [{ literal: "svc-1" }, { literal: "svc-2" }] }],
    },
  ],
  expressions: [
    {
      label: "Teams",
      reference: "teams",
      rootReference: 'incident.custom_field["cf_1"]',
      operations: [{ operationType: "navigate", navigate: { reference: 'catalog_attribute["a1"]' } }],
    },
    {
      label: "Severity name",
      reference: "severity_name",
      rootReference: "incident.severity",
      operations: [{ operationType: "navigate", navigate: { reference: "name" } }],
    },
  ],
  onceFor: ["incident.url", "incident.severity"],
  runsOnIncidentModes: updated ? ["standard", "test", "retrospective"] : ["standard", "test"],
  delay: { forSeconds: updated ? 120 : 30 },
  // Seeded teams of the account, declared in another order than the API answers them.
  owningTeamIds: ["01TEAMPLATFORM", "01TEAMPAYMENTS"],
  privateIncidentScope: "owning_teams",
});

export const workflowId = workflow.id;
export const version = workflow.version;
export const state = workflow.state;
