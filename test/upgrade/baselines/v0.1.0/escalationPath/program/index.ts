/**
 * Lifecycle fixture: a schedule and an escalation path that pages it, a user and a channel, with a
 * branch. Config `variant`: "base" (default) or "updated" (changes the branch and the ack time, in
 * place). Config `adoptId`: adopt an existing escalation path instead of creating one. Config
 * `firstEmail` / `secondEmail`: seeded users to page (looked up with getUser). Config `scheduleId`:
 * page that existing schedule instead of creating one (the lifecycle test passes one, so that the
 * escalation path is the only object an adopting `up` creates or adopts). The program keeps exactly
 * one live escalation path.
 */
import * as pulumi from "@pulumi/pulumi";
import * as incident from "pulumi-incident";

const config = new pulumi.Config();
const variant = config.get("variant") ?? "base";
const adoptId = config.get("adoptId");
// Targets are seeded users of the account (GET /v2/users), found by e-mail.
const first = incident.getUserOutput({ email: config.get("firstEmail") ?? "ada@example.com" });
const second = incident.getUserOutput({ email: config.get("secondEmail") ?? "bob@example.com" });

const existingScheduleId = config.get("scheduleId");
const schedule = existingScheduleId
  ? undefined
  : new incident.Schedule("primary", {
      name: "Lifecycle primary",
      timezone: "Europe/London",
      rotations: [
        {
          id: "primary",
          name: "Primary",
          versions: [
            {
              handoverStartAt: "2026-01-05T09:00:00+00:00",
              handovers: [{ interval: 1, intervalType: "weekly" }],
              users: [{ id: first.id }],
              layers: [{ name: "Layer 1" }],
            },
          ],
        },
      ],
    });

const scheduleId: pulumi.Input<string> = existingScheduleId ?? schedule!.id;

const path = new incident.EscalationPath("payments", {
  name: "Lifecycle payments",
  adoptId,
  // Seeded teams of the account, declared in another order than the API answers them.
  teamIds: ["01TEAMPLATFORM", "01TEAMPAYMENTS"],
  path: [
    {
      id: "start",
      level: {
        targets: [
          { type: "user", id: first.id, urgency: "high" },
          {
            type: "schedule",
            id: scheduleId,
            urgency: "high",
            scheduleMode: "currently_on_call_for_rota",
            selectedRotaId: "primary",
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
        thenPath: [{ level: { targets: [{ type: "user", id: second.id, urgency: "high" }] } }],
        elsePath:
          variant === "updated"
            ? [{ notifyChannel: { targets: [{ type: "slack_channel", id: "C999", urgency: "low" }] } }]
            : [{ voicemail: true }],
      },
    },
    { repeat: { repeatTimes: 2, toNode: "start" } },
  ],
});

export { scheduleId };
export const pathId = path.id;
