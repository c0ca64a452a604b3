import type { TfCorpus, TfResource } from "./types";

const file = "internal/provider/incident_catalog_type_attribute_resource_test.go";

/** `catalogTypeAttributeTemplate`: a catalog type named after a fresh uuid, and the attribute. */
const config = (uuid: string, attribute: Record<string, unknown>): TfResource[] => [
  {
    name: "catalog_type.example",
    kind: "CatalogType",
    inputs: () => ({
      name: `Example (${uuid})`,
      description: "Used in terraform acceptance tests",
      sourceRepoUrl: "https://github.com/incident-io/terraform-demo",
    }),
  },
  {
    name: "catalog_type_attribute.example",
    kind: "CatalogTypeAttribute",
    inputs: (r) => ({ catalogTypeId: r.id("catalog_type.example"), ...attribute }),
  },
];

/** incident_catalog_type_attribute: a text attribute, then an array string one, then dashboard-maintained. */
export const corpus: TfCorpus = {
  resource: "incident_catalog_type_attribute",
  cases: [
    {
      file,
      test: "TestAccIncidentCatalogTypeAttributeResource",
      configs: [
        {
          step: "create: Text",
          resources: config("0b6c3c1e-4d0e-4f57-9a1e-3f1f8a3c2b10", { name: "Name", type: "Text" }),
        },
        {
          step: "update: array String (mode api: schema_only unset)",
          resources: config("5d1e8f0a-2c44-4b8e-8f6e-9d2a7c1b3e21", {
            name: "Description",
            type: "String",
            array: true,
          }),
        },
        {
          step: "update: schema_only (mode dashboard)",
          resources: config("8a7f6e5d-4c3b-4a29-8e1f-0d9c8b7a6f32", {
            name: "Description",
            type: "String",
            mode: "dashboard",
          }),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentCatalogTypeAttributeResourceImportMissingAttribute",
      configs: [
        {
          step: "create (before the import of a missing attribute)",
          resources: config("c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e43", { name: "Members", type: "Text" }),
        },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentCatalogTypeAttributeResourceImportMissingAttribute",
      what: "step 2: import of an attribute id the type does not have (ExpectError)",
      why: "an import expected to fail, not a configuration the service accepts; the counterpart here, `adoptId` naming an object that does not exist, fails naming it (provider/factory.ts, test/provider/factory.test.ts)",
    },
  ],
};
