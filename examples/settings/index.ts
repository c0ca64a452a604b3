/**
 * Account settings as code: three severities, a "Monitoring" status, a communications role, a
 * webhook secret, next quarter's database maintenance window, and a Slack user group that always
 * holds whoever is on call for the Platform team's schedule. Ids of what this stack does not own
 * (the team, the lead) come from lookups.
 *
 * Config: `webhookToken` (secret; `pulumi config set --secret webhookToken …`), `variant`
 * ("updated": a longer maintenance window and the next shift synced too; everything updates in place).
 */
import * as pulumi from "@pulumi/pulumi";
import * as incident from "pulumi-incident";

const config = new pulumi.Config();
const updated = (config.get("variant") ?? "base") === "updated";

const severities = [
  { name: "Minor", description: "Some customers notice", rank: 1 },
  { name: "Major", description: "Many customers notice", rank: 2 },
  { name: "Critical", description: "Everything is down", rank: 3 },
].map((s) => new incident.Severity(s.name.toLowerCase(), s));

const monitoring = new incident.IncidentStatus("monitoring", {
  name: "Monitoring",
  description: "A fix is out; watching that it holds",
  category: "live",
});

const comms = new incident.IncidentRole("comms", {
  name: "Communications lead",
  description: "Keeps customers and the company informed",
  instructions: "Post a status page update every 30 minutes",
  shortform: "comms",
});

const platform = incident.getTeamOutput({ name: "Platform" });

const webhook = new incident.Secret("webhook-token", {
  name: "Deploy webhook token",
  value: config.getSecret("webhookToken") ?? pulumi.secret("example-token-change-me"),
  description: "Bearer token of the deploy webhook",
  owningTeamIds: [platform.id],
});

const migration = new incident.MaintenanceWindow("db-migration", {
  name: "Database migration",
  startAt: "2099-04-01T22:00:00Z",
  endAt: updated ? "2099-04-02T04:00:00Z" : "2099-04-02T02:00:00Z",
  lead: { email: "ada@example.com" },
  alertConditionGroups: [
    {
      conditions: [
        {
          subject: "alert.title",
          operation: "one_of",
          paramBindings: [{ arrayValue: [{ literal: "database" }] }],
        },
      ],
    },
  ],
  notificationMessage: "Planned database migration: database alerts are held back",
  resolveOnEnd: true,
});

const schedule = new incident.Schedule("platform-primary", {
  name: "Platform primary",
  timezone: "Europe/London",
  teamIds: [platform.id],
  rotations: [
    {
      id: "primary",
      name: "Primary",
      versions: [
        {
          handoverStartAt: "2026-01-05T09:00:00Z",
          handovers: [{ interval: 1, intervalType: "weekly" }],
          users: [{ email: "ada@example.com" }, { email: "bob@example.com" }],
          layers: [{ name: "Primary" }],
        },
      ],
    },
  ],
});

const oncallGroup = new incident.ScheduleSyncTarget("platform-oncall", {
  newSlackUserGroup: {
    name: "Platform on-call",
    handle: "platform-oncall",
    description: "Who is on call for Platform",
  },
});

const sync = new incident.ScheduleSyncRule("platform-primary-to-group", {
  scheduleId: schedule.id,
  scheduleSyncTargetId: oncallGroup.id,
  syncType: updated ? "next_on_call" : "on_call",
  permanentMemberUserIds: [incident.getUserOutput({ email: "eve@example.com" }).id],
});

export const severityIds = severities.map((s) => s.id);
export const monitoringStatusId = monitoring.id;
export const commsRoleId = comms.id;
export const webhookVersion = webhook.version;
export const maintenanceWindowId = migration.id;
export const slackUserGroupId = oncallGroup.userGroupId;
export const syncRuleId = sync.id;
