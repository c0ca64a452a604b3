/**
 * A fleet's account-wide stack: what every team shares and no team owns. Here two severities and a
 * "Customer impact" field that the teams' workflows read (examples/fleet/team reads them by name,
 * through lookups: one declaration, in this stack). Applied first and destroyed last, with a key
 * holding the account's settings role (`manage_settings`); the team stacks cannot change these.
 */
import * as incident from "pulumi-incident";

const severities = [
  { name: "Major", description: "Many customers notice", rank: 2 },
  { name: "Critical", description: "Everything is down", rank: 3 },
].map((s) => new incident.Severity(s.name.toLowerCase(), s));

const impact = new incident.CustomField("customer-impact", {
  name: "Customer impact",
  description: "Which customers the incident affects",
  fieldType: "single_select",
  options: ["None", "Some customers", "All customers"],
});

export const severityIds = severities.map((s) => s.id);
export const customerImpactFieldId = impact.id;
