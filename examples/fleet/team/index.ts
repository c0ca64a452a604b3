/**
 * One team's stack of a fleet: one stack of this project per team (`pulumi stack init payments`,
 * `pulumi config set team Payments`), each applied by the team's own pipeline with a key of its
 * own. Everything it declares is owned by the team (`teamIds` / `owningTeamIds`): its on-call
 * schedule, the escalation path that pages it, a workflow for the team's critical customer-facing
 * incidents and the team's deploy token. What the account-wide stack (examples/fleet/account)
 * declares, this stack only reads, through lookups by name: the "Critical" severity and the
 * "Customer impact" field; the team and its responders too. It writes nothing another team owns,
 * so it can run with a key whose write roles are team roles of its team only (docs/guide.md,
 * "A stack per team").
 *
 * Config: `team` (the team's name), `responders` (e-mails, comma-separated), `deployToken`
 * (secret), `variant` ("updated": the escalation path waits longer for an acknowledgement and the
 * workflow's message changes; both update in place).
 */
import * as pulumi from "@pulumi/pulumi";
import * as incident from "pulumi-incident";

const config = new pulumi.Config();
const teamName = config.require("team");
const emails = config
  .require("responders")
  .split(",")
  .map((e) => e.trim());
const updated = (config.get("variant") ?? "base") === "updated";
const slug = teamName.toLowerCase().replace(/[^a-z0-9]+/g, "-");

// Read, never declared here: the team, its people, and the account-wide stack's objects.
const team = incident.getTeamOutput({ name: teamName });
const responders = incident.getUsersOutput({ emails });
const critical = incident.getSeverityOutput({ name: "Critical" });
const impact = incident.getCustomFieldOutput({ name: "Customer impact" });
const owners = [team.id];

const schedule = new incident.Schedule(`${slug}-primary`, {
  name: `${teamName} primary`,
  timezone: "Europe/London",
  teamIds: owners,
  rotations: [
    {
      id: "primary",
      name: "Primary",
      versions: [
        {
          handoverStartAt: "2026-01-05T09:00:00+00:00",
          handovers: [{ interval: 1, intervalType: "weekly" }],
          users: responders.users.apply((users) => users.map((u) => ({ id: u.id }))),
          layers: [{ name: "Primary" }],
        },
      ],
    },
  ],
});

const escalation = new incident.EscalationPath(`${slug}-urgent`, {
  name: `${teamName} urgent`,
  teamIds: owners,
  path: [
    {
      level: {
        targets: [{ type: "schedule", id: schedule.id, urgency: "high", scheduleMode: "currently_on_call" }],
        timeToAckSeconds: updated ? 600 : 300,
      },
    },
  ],
});

const deployToken = new incident.Secret(`${slug}-deploy-token`, {
  name: `${teamName} deploy token`,
  value: config.getSecret("deployToken") ?? pulumi.secret(`${slug}-token-change-me`),
  description: `The ${teamName} team's deploy webhook token`,
  owningTeamIds: owners,
});

const announce = new incident.Workflow(`${slug}-critical`, {
  name: `${teamName}: critical incidents with customer impact`,
  trigger: "incident.created",
  owningTeamIds: owners,
  conditionGroups: [
    {
      conditions: [
        {
          subject: "incident.severity",
          operation: "one_of",
          paramBindings: [{ arrayValue: [{ literal: critical.id }] }],
        },
        { subject: pulumi.interpolate`incident.custom_field["${impact.id}"]`, operation: "is_set" },
      ],
    },
  ],
  steps: [
    {
      id: "post",
      name: "slack.post_message",
      paramBindings: [
        { value: { literal: `C0${slug.toUpperCase().replace(/-/g, "")}` } },
        {
          value: { literal: updated ? `${teamName}: critical, customers affected` : `${teamName}: critical` },
        },
      ],
    },
  ],
  onceFor: ["incident.url"],
  runsOnIncidentModes: ["standard"],
  state: "active",
});

export const teamId = team.id;
export const scheduleId = schedule.id;
export const escalationPathId = escalation.id;
export const deployTokenId = deployToken.id;
export const workflowId = announce.id;
