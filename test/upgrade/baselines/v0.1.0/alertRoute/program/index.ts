/**
 * Lifecycle fixture: one alert route over two alert sources escalating to an escalation path, with
 * grouping, an incident template and a Slack destination. The referenced objects exist already (the
 * test creates them through the API): config `alertSourceA`, `alertSourceB` (alert source ids) and
 * `escalationPathId`. Config `variant`: "base" (default) or "updated" (renames the route, changes the
 * title template; same route, updated in place). Config `adoptId`: adopt an existing route instead of
 * creating one.
 */
import * as pulumi from "@pulumi/pulumi";
import * as incident from "pulumi-incident";

const config = new pulumi.Config();
const variant = config.get("variant") ?? "base";
const adoptId = config.get("adoptId");
const alertSourceA = config.require("alertSourceA");
const alertSourceB = config.require("alertSourceB");
const escalationPathId = config.require("escalationPathId");

const route = new incident.AlertRoute("payments", {
  name: variant === "updated" ? "Lifecycle route (updated)" : "Lifecycle route",
  adoptId,
  alertSources: [
    {
      alertSourceId: alertSourceA,
      conditionGroups: [
        {
          conditions: [
            {
              subject: "alert.title",
              operation: "one_of",
              paramBindings: [{ arrayValue: [{ literal: '{"b": 1, "a": "> 2"}' }] }],
            },
          ],
        },
      ],
    },
    { alertSourceId: alertSourceB },
  ],
  expressions: [
    {
      label: "Service",
      reference: "svc",
      rootReference: "alert.attributes.service",
      operations: [{ operationType: "first" }],
    },
    {
      label: "Team",
      reference: "team",
      rootReference: "alert.attributes.team",
      operations: [{ operationType: "first" }],
    },
  ],
  escalationConfig: {
    autoCancelEscalations: true,
    escalationTargets: [{ escalationPaths: { arrayValue: [{ literal: escalationPathId }] } }],
    whenAlertJoinsGroup: { mode: "on_each_new_alert" },
  },
  groupingConfig: { enabled: true, groupingKeys: ["alert.attributes.service"], windowSeconds: 900 },
  incidentConfig: {
    enabled: true,
    template: {
      title:
        variant === "updated" ? "[{{ alert.attributes.service }}] {{ alert.title }}" : "{{ alert.title }}",
      description: "{{ alert.description }}",
    },
  },
  messageConfig: {
    destinations: [
      { slackTargets: { binding: { value: { literal: "C123" } }, channelVisibility: "public" } },
    ],
  },
  owningTeamIds: ["01TEAMPAYMENTS", "01TEAMPLATFORM"],
});

export const routeId = route.id;
export const routeVersion = route.version;
