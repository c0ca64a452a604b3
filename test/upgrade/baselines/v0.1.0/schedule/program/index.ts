/**
 * Lifecycle fixture: a schedule with a future rotation version. Config `variant`: "base" (default)
 * or "updated" (adds a user, changes the handover). Config `adoptId`: adopt an existing schedule.
 * Config `timezone` (default Europe/Berlin): changing it replaces the schedule.
 */
import * as pulumi from "@pulumi/pulumi";
import * as incident from "pulumi-incident";

const config = new pulumi.Config();
const variant = config.get("variant") ?? "base";
// Seeded users of the account (GET /v2/users): two by id (looked up), one by e-mail.
const emails = (config.get("emails") ?? "ada@example.com,bob@example.com,cat@example.com").split(",");
const [a, b, c] = emails.map((email) => incident.getUserOutput({ email }));

const schedule = new incident.Schedule("checkout", {
  name: "Lifecycle checkout",
  adoptId: config.get("adoptId"),
  timezone: config.get("timezone") ?? "Europe/Berlin",
  // Seeded teams of the account, declared in another order than the API answers them.
  teamIds: ["01TEAMPLATFORM", "01TEAMPAYMENTS"],
  rotations: [
    {
      id: "primary",
      name: "Primary",
      versions: [
        {
          handoverStartAt: "2026-01-05T09:00:00+01:00",
          handovers: [{ interval: variant === "updated" ? 2 : 1, intervalType: "weekly" }],
          users:
            variant === "updated"
              ? [{ id: a!.id }, { email: emails[1]!.toUpperCase() }, { id: c!.id }]
              : [{ id: a!.id }, { email: emails[1]!.toUpperCase() }],
          layers: [{ name: "Layer 1" }],
          workingIntervals: [{ weekday: "monday", startTime: "09:00", endTime: "17:00" }],
        },
        {
          effectiveFrom: "2099-01-04T09:00:00+01:00",
          handoverStartAt: "2099-01-04T09:00:00+01:00",
          handovers: [{ interval: 1, intervalType: "daily" }],
          users: [{ id: b!.id }],
          layers: [{ name: "Layer 1" }],
        },
      ],
    },
  ],
});

export const scheduleId = schedule.id;
export const layerIds = schedule.layerIds;
