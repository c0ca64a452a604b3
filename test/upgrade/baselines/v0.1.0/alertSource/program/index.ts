/**
 * Lifecycle fixture: one HTTP alert source that sets an alert attribute the account already has
 * (made through the API before the first run; found by name with `getAlertAttributeOutput`, a
 * program-side lookup). Config `attributeName` (default "Lifecycle service"). Config `variant`:
 * "base" (default) or "updated" (changes the description and the owning teams: the same source,
 * updated in place). Config `adoptId`: adopt an existing alert source instead of creating one.
 */
import * as pulumi from "@pulumi/pulumi";
import * as incident from "pulumi-incident";

const config = new pulumi.Config();
const variant = config.get("variant") ?? "base";
const service = incident.getAlertAttributeOutput({
  name: config.get("attributeName") ?? "Lifecycle service",
});

const source = new incident.AlertSource("webhook", {
  name: "Lifecycle webhook",
  adoptId: config.get("adoptId"),
  sourceType: "http",
  template: {
    title: "{{ alert.title }} in {{ alert.attributes.service }}",
    description: variant === "updated" ? "{{ alert.description }}\n\nUpdated" : "{{ alert.description }}",
    attributes: [
      { alertAttributeId: service.id, binding: { value: { reference: "alert.attributes.service" } } },
    ],
  },
  // Seeded teams of the account.
  owningTeamIds: variant === "updated" ? ["01TEAMPLATFORM", "01TEAMPAYMENTS"] : ["01TEAMPLATFORM"],
  autoResolveTimeoutMinutes: 30,
  autoResolveIncidentAlerts: false,
});

export const sourceId = source.id;
export const alertEventsUrl = source.alertEventsUrl;
export const secretToken = source.secretToken;
