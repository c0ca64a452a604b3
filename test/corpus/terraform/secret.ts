import { SEEDED_TEAMS, stable, type TfCorpus, type TfResource, teamCatalogType } from "./types";

const file = "internal/provider/incident_secret_resource_test.go";

const secret = (name: string, fields: { description?: string; value: string }): TfResource[] => [
  {
    name: "secret.test",
    kind: "Secret",
    inputs: () => ({ name: stable(name), ...fields }),
  },
];
const description = "Auth token for the PagerDuty outgoing webhook";

const owned = (owned: boolean): TfResource[] => [
  {
    name: "catalog_entry.secret_team",
    kind: "CatalogEntry",
    inputs: (r) => ({
      catalogTypeId: r.given("teamType"),
      externalId: stable("tf-acceptance-test-secret-team"),
      name: stable("tf-acceptance-test-secret-team"),
      attributeValues: {},
      managedAttributes: [],
    }),
  },
  {
    name: "secret.test",
    kind: "Secret",
    inputs: () => ({
      name: stable("TF test secret owning teams"),
      value: "sk_live_abc123",
      ...(owned ? { owningTeamIds: [SEEDED_TEAMS[0]] } : {}),
    }),
  },
];

/** incident_secret: created, rotated, its metadata changed; created for metadata only; owning teams. */
export const corpus: TfCorpus = {
  resource: "incident_secret",
  cases: [
    {
      file,
      test: "TestAccIncidentSecretResource",
      configs: [
        {
          step: "create (value version 1)",
          resources: secret("TF test secret", { description, value: "sk_live_abc123" }),
        },
        {
          step: "update: a new value (version 2: rotates)",
          resources: secret("TF test secret", { description, value: "sk_live_def456" }),
        },
        {
          step: "update: another value, the same version (rotates here: see notTranslated)",
          resources: secret("TF test secret", { description, value: "sk_live_ghi789" }),
        },
        {
          step: "update: description only",
          resources: secret("TF test secret", {
            description: "Rotated by hand, sorry",
            value: "sk_live_ghi789",
          }),
        },
        {
          step: "update: description dropped",
          resources: secret("TF test secret", { value: "sk_live_ghi789" }),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentSecretResourceMetadataOnly",
      configs: [
        {
          step: "create (a value is needed)",
          resources: secret("TF test secret metadata-only", { value: "sk_live_abc123" }),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentSecretResourceOwningTeams",
      prepare: teamCatalogType,
      configs: [
        { step: "create: owned by a team", resources: owned(true) },
        { step: "update: owning_team_ids dropped (the whole organisation)", resources: owned(false) },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentSecretResource",
      what: "`value_wo_version` (step 3: a new value under the same version, which Terraform does not apply)",
      why: "no counterpart: this provider's `value` is the secret's value itself (a changed value rotates it), so step 3 is translated with its value as written and rotates",
    },
    {
      file,
      test: "TestAccIncidentSecretResourceMetadataOnly",
      what: "step 2: `value_wo` and `value_wo_version` dropped, only the metadata managed",
      why: "the provider cannot express it: `value` is required (a stack always manages the secret's value)",
    },
    {
      file,
      test: "TestAccIncidentSecretResourceVersionWithoutValue",
      why: "a configuration expected to fail (a version without a value), not one the service accepts",
    },
    {
      file,
      test: "TestAccIncidentSecretResource",
      what: "the data sources `incident_secret` by id and by name",
      why: "data sources, not resources: their counterpart, `getSecret`, has its own tests (test/resources/settingsLookups.test.ts)",
    },
    {
      file,
      test: "TestAccIncidentSecretResourceOwningTeams",
      what: "`owning_team_ids` naming the Team catalog entry the config makes",
      why: "the emulator's teams are seeded objects of `/v3/teams` and a catalog entry id is not a team there: a seeded team stands for it (the entry is still made, in a Team type made in the dashboard)",
    },
  ],
};
