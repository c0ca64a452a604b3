import type { TfCorpus, TfResource } from "./types";

const file = "internal/provider/incident_catalog_entry_resource_test.go";

interface Entry {
  name: string;
  description: string;
  aliases: string[];
  /** `OnlyManageDescription`: managed_attributes = [description], Useful left out. */
  onlyDescription?: boolean;
  /** `UseEmptyManagedAttributes`: attribute_values = [] and managed_attributes = []. */
  emptyManaged?: boolean;
}

/**
 * The catalog type of the entry tests (`catalogEntryTemplate`, and `catalogEntriesTemplate` of
 * catalogEntries.ts), named after the test's uuid, and its Description attribute.
 */
export const entryTestType = (uuid: string): TfResource[] => [
  {
    name: "catalog_type.example",
    kind: "CatalogType",
    inputs: () => ({
      name: `Catalog Entry Acceptance Test (${uuid})`,
      description: "Used in terraform acceptance tests for incident_catalog_entry",
      sourceRepoUrl: "https://github.com/incident-io/terraform-demo",
    }),
  },
  {
    name: "catalog_type_attribute.example_description",
    kind: "CatalogTypeAttribute",
    inputs: (r) => ({ catalogTypeId: r.id("catalog_type.example"), name: "Description", type: "Text" }),
  },
];

/** `catalogEntryTemplate`: the type, its two attributes, and (optionally) the entry. */
const config = (uuid: string, entry?: Entry): TfResource[] => [
  ...entryTestType(uuid),
  {
    name: "catalog_type_attribute.example_bool",
    kind: "CatalogTypeAttribute",
    inputs: (r) => ({ catalogTypeId: r.id("catalog_type.example"), name: "Useful", type: "Bool" }),
  },
  ...(entry
    ? [
        {
          name: "catalog_entry.example",
          kind: "CatalogEntry",
          inputs: (r) => ({
            catalogTypeId: r.id("catalog_type.example"),
            name: entry.name,
            aliases: entry.aliases,
            attributeValues: entry.emptyManaged
              ? {}
              : {
                  [r.id("catalog_type_attribute.example_description")]: entry.description,
                  ...(entry.onlyDescription ? {} : { [r.id("catalog_type_attribute.example_bool")]: "true" }),
                },
            ...(entry.onlyDescription
              ? { managedAttributes: [r.id("catalog_type_attribute.example_description")] }
              : {}),
            ...(entry.emptyManaged ? { managedAttributes: [] } : {}),
          }),
        } satisfies TfResource,
      ]
    : []),
];

const uuids = ["6f1c2d3e-0001-4a5b-8c9d-0e1f2a3b4c5d", "6f1c2d3e-0002-4a5b-8c9d-0e1f2a3b4c5d"];
const stableId = "6f1c2d3e-0003-4a5b-8c9d-0e1f2a3b4c5d";

/** incident_catalog_entry: plain, with aliases, partial ownership (managed_attributes), and its destroy. */
export const corpus: TfCorpus = {
  resource: "incident_catalog_entry",
  cases: [
    {
      file,
      test: "TestAccIncidentCatalogEntryResource",
      configs: [
        {
          step: "create",
          resources: config(uuids[0]!, { name: "One", description: "This is the first entry", aliases: [] }),
        },
        {
          step: "update (a new type: the config's uuid is drawn again)",
          resources: config(uuids[1]!, { name: "Two", description: "This is the second entry", aliases: [] }),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentCatalogEntryResourceWithAlias",
      configs: [
        {
          step: "create",
          resources: config(uuids[0]!, {
            name: "One",
            description: "This is the first entry",
            aliases: ["one"],
          }),
        },
        {
          step: "update: name and alias",
          resources: config(uuids[1]!, {
            name: "Two",
            description: "This is the second entry",
            aliases: ["two"],
          }),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentCatalogEntryResourceWithManagedAttributes",
      configs: [
        {
          step: "create: both attributes (Useful true)",
          resources: config(stableId, { name: "Initial", description: "Initial description", aliases: [] }),
        },
        {
          step: "update: managed_attributes = [Description], Useful left as it is",
          resources: config(stableId, {
            name: "Partial Update",
            description: "Updated description only",
            aliases: [],
            onlyDescription: true,
          }),
        },
        {
          step: "update: Description again",
          resources: config(stableId, {
            name: "Another Update",
            description: "Another description change",
            aliases: [],
            onlyDescription: true,
          }),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentCatalogEntryResourceWithEmptyManagedAttributes",
      configs: [
        {
          step: "create: no managed_attributes",
          resources: config(stableId, { name: "Initial", description: "Initial description", aliases: [] }),
        },
        {
          step: "update: managed_attributes = [] and no values (no change planned)",
          resources: config(stableId, {
            name: "Initial",
            description: "Initial description",
            aliases: [],
            emptyManaged: true,
          }),
        },
        {
          step: "update: name, managed_attributes = []",
          resources: config(stableId, {
            name: "Updated",
            description: "Initial description",
            aliases: [],
            emptyManaged: true,
          }),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentCatalogEntryResourceManagedAttributesDestroy",
      configs: [
        {
          step: "create: managed_attributes = [Description]",
          resources: config(stableId, {
            name: "ManagedDestroy",
            description: "This should be cleared on destroy",
            aliases: [],
            onlyDescription: true,
          }),
        },
        { step: "the entry removed from the config (the type kept)", resources: config(stableId) },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentCatalogEntryResourceManagedAttributesDestroy",
      what: "the check after step 2: the entry outlives its destroy, its managed attribute cleared",
      why: "a behaviour of the Terraform provider, not a configuration: this provider's CatalogEntry deletes (archives) the entry it manages whatever `managedAttributes` says (resources/catalogEntry.ts); partial ownership of entries made elsewhere is `CatalogEntries.managedAttributes`",
    },
    {
      file,
      test: "TestIncidentCatalogEntryResource_ValidateConfig",
      why: "a plan-only unit test expecting a refusal (a value for an attribute not in managed_attributes), not a configuration the service accepts; this provider refuses it too at check (`attributeValues.<id>: … is not in managedAttributes`, resources/catalogEntry.ts)",
    },
    {
      file,
      test: "TestIncidentCatalogEntryResource_ValidateConfigConditionalArray",
      why: "a plan-only unit test of HCL's `for_each` and conditional expressions over a made-up type id, never applied: a language feature with no counterpart in a provider's inputs (a Pulumi program writes the loop in TypeScript)",
    },
  ],
};
