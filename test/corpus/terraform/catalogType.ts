import { SEEDED_TEAMS, stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/incident_catalog_type_resource_test.go";
const test = "TestAccIncidentCatalogTypeResource";
const sourceRepoUrl = "https://github.com/incident-io/terraform-demo";
const description = "Catalog Type Acceptance tests";
/** `generateTypeName`: the run id without dashes or digits. */
const typeName = 'Custom["Spaceshipsfbcaefdbeeeacdcb"]';

const type = (extra: Record<string, unknown>): TfResource[] => [
  {
    name: "catalog_type.example",
    kind: "CatalogType",
    inputs: () => ({ name: stable("Service"), description, sourceRepoUrl, ...extra }),
  },
];

/** incident_catalog_type: its one test function runs three `resource.Test`s, each a case here. */
export const corpus: TfCorpus = {
  resource: "incident_catalog_type",
  cases: [
    {
      file,
      test: `${test} (type_name not set)`,
      configs: [
        { step: "create", resources: type({}) },
        { step: "update: name", resources: type({ name: stable("Spaceships") }) },
      ],
    },
    {
      file,
      test: `${test} (type_name set)`,
      configs: [
        { step: "create", resources: type({ typeName }) },
        { step: "update: name", resources: type({ name: stable("Spaceships"), typeName }) },
      ],
    },
    {
      file,
      test: `${test} (use_name_as_identifier)`,
      configs: [
        { step: "create: use_name_as_identifier true", resources: type({ useNameAsIdentifier: true }) },
        { step: "update: use_name_as_identifier false", resources: type({ useNameAsIdentifier: false }) },
      ],
    },
    {
      file,
      test: "TestAccIncidentCatalogTypeResourceOwningTeams",
      configs: [
        { step: "create: one owning team", resources: type({ owningTeamIds: [SEEDED_TEAMS[0]] }) },
        { step: "update: owning teams managed as empty", resources: type({ owningTeamIds: [] }) },
      ],
    },
  ],
  notTranslated: [],
};
