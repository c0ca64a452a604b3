/**
 * A payments team's on-call setup, end to end:
 *
 *   alert source (HTTP, with a template that sets alert attributes)
 *     → alert route (groups alerts, opens an incident, escalates)
 *       → escalation path (primary rota, then the secondary rota, then the team lead; P1s also page
 *         the lead at once; repeats twice)
 *         → schedules (primary weekly rota and follow-the-sun secondary, responders found by e-mail)
 *   plus a workflow that posts to the team's channel when a critical incident is declared.
 *
 * Config `variant=updated` changes a few values in place (used by the tests to exercise updates).
 */
import * as pulumi from "@pulumi/pulumi";
import * as incident from "pulumi-incident";

const config = new pulumi.Config();
const variant = config.get("variant") ?? "base";
const emails = (config.get("responders") ?? "ada@example.com,bob@example.com,cat@example.com")
  .split(",")
  .map((e) => e.trim());
const slackChannelId = config.get("slackChannelId") ?? "C0PAYMENTS";

// People are managed by SCIM/the dashboard, not here: look them up by e-mail.
const responders = emails.map((email) => incident.getUserOutput({ email }));
const lead = responders[0]!;

// Alert attributes the source fills in and the route groups by.
const service = new incident.AlertAttribute("service", { name: "Service", type: "String", emoji: ":gear:" });
const environment = new incident.AlertAttribute("environment", { name: "Environment", type: "String" });

// Where the monitoring system sends its alerts (POST to alertEventsUrl with secretToken).
const source = new incident.AlertSource("payments-http", {
  name: "Payments monitoring",
  sourceType: "http",
  template: {
    title: "{{ alert.title }}",
    description: "{{ alert.description }}",
    attributes: [
      { alertAttributeId: service.id, binding: { value: { reference: "alert.attributes.service" } } },
      { alertAttributeId: environment.id, binding: { value: { reference: "alert.attributes.env" } } },
    ],
  },
  autoResolveTimeoutMinutes: 240,
  autoResolveIncidentAlerts: true,
});

// Rotas: a weekly primary rota with working hours, and a daily secondary rota.
const primary = new incident.Schedule("payments-primary", {
  name: "Payments primary",
  timezone: "Europe/London",
  rotations: [
    {
      id: "primary",
      name: "Primary",
      versions: [
        {
          handoverStartAt: "2026-01-05T09:00:00+00:00",
          handovers: [{ interval: 1, intervalType: "weekly" }],
          users: responders.map((r) => ({ id: r.id })),
          layers: [{ name: "Primary" }],
          workingIntervals:
            variant === "updated"
              ? (["monday", "tuesday", "wednesday", "thursday"] as const).map((weekday) => ({
                  weekday,
                  startTime: "08:00",
                  endTime: "18:00",
                }))
              : (["monday", "tuesday", "wednesday", "thursday", "friday"] as const).map((weekday) => ({
                  weekday,
                  startTime: "09:00",
                  endTime: "17:30",
                })),
        },
      ],
    },
  ],
});

const secondary = new incident.Schedule("payments-secondary", {
  name: "Payments secondary",
  timezone: "America/New_York",
  rotations: [
    {
      id: "secondary",
      name: "Secondary",
      versions: [
        {
          handoverStartAt: "2026-01-05T09:00:00-05:00",
          handovers: [{ interval: 1, intervalType: "daily" }],
          // Users can also be named by e-mail: the API resolves them.
          users: emails
            .slice()
            .reverse()
            .map((email) => ({ email })),
          layers: [{ name: "Secondary" }],
        },
      ],
    },
  ],
});

// Who gets paged, in which order.
const escalation = new incident.EscalationPath("payments", {
  name: "Payments",
  path: [
    {
      id: "primary",
      level: {
        targets: [
          {
            type: "schedule",
            id: primary.id,
            urgency: "high",
            scheduleMode: "currently_on_call",
          },
        ],
        timeToAckSeconds: variant === "updated" ? 600 : 300,
      },
    },
    {
      ifElse: {
        conditions: [
          {
            subject: "escalation.priority",
            operation: "one_of",
            paramBindings: [{ arrayValue: [{ literal: "P1" }] }],
          },
        ],
        thenPath: [
          { level: { targets: [{ type: "user", id: lead.id, urgency: "high" }], timeToAckSeconds: 300 } },
        ],
        elsePath: [
          {
            notifyChannel: {
              targets: [{ type: "slack_channel", id: slackChannelId, urgency: "low" }],
              timeToAckSeconds: 300,
            },
          },
        ],
      },
    },
    {
      level: {
        targets: [{ type: "schedule", id: secondary.id, urgency: "high", scheduleMode: "currently_on_call" }],
        timeToAckSeconds: 600,
      },
    },
    { repeat: { repeatTimes: 2, toNode: "primary" } },
  ],
});

// Alerts from the source → grouped by service → an incident, escalated through the path.
const route = new incident.AlertRoute("payments", {
  name: "Payments production alerts",
  enabled: true,
  alertSources: [
    {
      alertSourceId: source.id,
      conditionGroups: [
        {
          conditions: [
            {
              subject: pulumi.interpolate`alert.attributes.${environment.id}`,
              operation: "one_of",
              paramBindings: [{ arrayValue: [{ literal: "production" }] }],
            },
          ],
        },
      ],
    },
  ],
  escalationConfig: {
    autoCancelEscalations: true,
    escalationTargets: [{ escalationPaths: { arrayValue: [{ literal: escalation.id }] } }],
  },
  groupingConfig: {
    enabled: true,
    groupingKeys: [pulumi.interpolate`alert.attributes.${service.id}`],
    windowSeconds: variant === "updated" ? 1800 : 900,
  },
  incidentConfig: {
    enabled: true,
    template: {
      title: "{{ alert.title }}",
      description: "{{ alert.description }}",
    },
  },
  messageConfig: {
    destinations: [
      { slackTargets: { binding: { value: { literal: slackChannelId } }, channelVisibility: "public" } },
    ],
  },
});

// When a critical incident is declared, tell the team's channel (once per incident).
const announce = new incident.Workflow("announce-critical", {
  name: "Announce critical payments incidents",
  trigger: "incident.created",
  conditionGroups: [
    {
      conditions: [
        {
          subject: "incident.severity",
          operation: "one_of",
          paramBindings: [{ arrayValue: [{ literal: "critical" }] }],
        },
      ],
    },
  ],
  steps: [
    {
      id: "post",
      name: "slack.post_message",
      paramBindings: [
        { value: { literal: slackChannelId } },
        {
          value: {
            literal: variant === "updated" ? "A critical incident was declared" : "Critical incident",
          },
        },
      ],
    },
  ],
  onceFor: ["incident.url"],
  runsOnIncidentModes: ["standard"],
  state: "active",
});

export const serviceAttributeId = service.id;
export const alertEventsUrl = source.alertEventsUrl;
export const alertSourceToken = source.secretToken; // secret
export const scheduleIds = [primary.id, secondary.id];
export const escalationPathId = escalation.id;
export const alertRouteId = route.id;
export const workflowId = announce.id;
