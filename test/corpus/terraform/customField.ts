import { stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/incident_custom_field_resource_test.go";

/** The catalog types and attributes of `customFieldTemplate` with `WithCatalogType`. */
const catalog: TfResource[] = [
  {
    name: "catalog_type.example",
    kind: "CatalogType",
    inputs: () => ({
      name: stable("My type"),
      description: "My type description",
      sourceRepoUrl: "https://github.com/incident-io/terraform-demo",
    }),
  },
  {
    name: "catalog_type_attribute.example_string_attr",
    kind: "CatalogTypeAttribute",
    inputs: (r) => ({
      catalogTypeId: r.id("catalog_type.example"),
      name: "My string attribute",
      type: "String",
    }),
  },
  {
    name: "catalog_type.other",
    kind: "CatalogType",
    inputs: () => ({
      name: stable("My other type"),
      description: "My other type description",
      sourceRepoUrl: "https://github.com/incident-io/terraform-demo",
    }),
  },
  {
    name: "catalog_type_attribute.example_catalog_attr",
    kind: "CatalogTypeAttribute",
    inputs: (r) => ({
      catalogTypeId: r.id("catalog_type.example"),
      name: "My other attr",
      type: r.out("catalog_type.other", "attributeType"),
    }),
  },
];

const features = {
  name: stable("Features"),
  description: "Features impacted by this incident",
  fieldType: "multi_select",
};

/** incident_custom_field: a plain multi-select field; a catalog-backed one, then with `filter_by`. */
export const corpus: TfCorpus = {
  resource: "incident_custom_field",
  cases: [
    {
      file,
      test: "TestAccIncidentCustomFieldResource",
      configs: [
        {
          step: "create (all fields)",
          resources: [{ name: "custom_field.example", kind: "CustomField", inputs: () => features }],
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentCustomFieldResource_CatalogBacked",
      configs: [
        {
          step: "create: catalog-backed, grouped by an attribute",
          resources: [
            ...catalog,
            {
              name: "custom_field.example",
              kind: "CustomField",
              inputs: (r) => ({
                ...features,
                catalogTypeId: r.id("catalog_type.example"),
                groupByCatalogAttributeId: r.id("catalog_type_attribute.example_string_attr"),
              }),
            },
          ],
        },
        {
          step: "update: filter_by another catalog field",
          resources: [
            ...catalog,
            {
              name: "custom_field.other",
              kind: "CustomField",
              inputs: (r) => ({
                name: stable("Other field"),
                description: "Other field description",
                fieldType: "single_select",
                catalogTypeId: r.id("catalog_type.other"),
              }),
            },
            {
              name: "custom_field.example",
              kind: "CustomField",
              inputs: (r) => ({
                ...features,
                catalogTypeId: r.id("catalog_type.example"),
                groupByCatalogAttributeId: r.id("catalog_type_attribute.example_string_attr"),
                filterBy: {
                  catalogAttributeId: r.id("catalog_type_attribute.example_catalog_attr"),
                  customFieldId: r.id("custom_field.other"),
                },
              }),
            },
          ],
        },
      ],
    },
  ],
  notTranslated: [],
};
