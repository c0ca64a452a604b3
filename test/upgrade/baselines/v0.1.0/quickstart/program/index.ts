import * as incident from "pulumi-incident";

// A select field with its options managed inline: order is kept, updates never drop or reorder them.
const affectedTeam = new incident.CustomField("affected-team", {
  name: "Affected team",
  description: "Which team's systems are affected?",
  fieldType: "single_select",
  options: ["Payments", "Identity", "Search"],
});

// A select field whose options are separate resources (useful when options come from a loop).
const region = new incident.CustomField("region", {
  name: "Region",
  description: "Where customers are affected",
  fieldType: "multi_select",
});
const regions = ["eu-west", "us-east", "ap-south"].map(
  (value, i) =>
    new incident.CustomFieldOption(`region-${value}`, {
      customFieldId: region.id,
      value,
      sortKey: (i + 1) * 10,
    }),
);

// An API key for a CI job: its token is a secret output.
const ciKey = new incident.ApiKey("ci-key", {
  name: "CI: read-only",
  roles: ["viewer", "catalog_viewer"],
  comments: "Used by the deploy pipeline to look up incidents",
});

export const affectedTeamId = affectedTeam.id;
export const affectedTeamOptionIds = affectedTeam.optionIds;
export const regionOptionIds = regions.map((r) => r.id);
export const ciKeyId = ciKey.id;
export const ciKeyToken = ciKey.token; // secret: `pulumi stack output --show-secrets ciKeyToken`
