import { stable, type TfCorpus, type TfResource } from "./types";

const betaFile = "internal/provider/alert_source_attribute_beta_acceptance_test.go";
const v7File = "internal/provider/incident_alert_source_attribute_acceptance_test.go";

/**
 * An alert source's attribute binding managed as a resource of its own (`alert_source_id`,
 * `alert_attribute_id` and the binding): this provider manages the bindings inline, in the
 * AlertSource's `template.attributes`, so each config's binding is folded into its source.
 */
const literal = (name: string, value: string): TfResource[] => [
  {
    name: "alert_attribute.test",
    kind: "AlertAttribute",
    inputs: () => ({ name: stable(name), type: "String", array: false }),
  },
  {
    name: "alert_source.test",
    kind: "AlertSource",
    inputs: (r) => ({
      name: stable(name),
      sourceType: "http",
      template: {
        title: "a title",
        description: "a description",
        attributes: [
          { alertAttributeId: r.id("alert_attribute.test"), binding: { value: { literal: value } } },
        ],
      },
    }),
  },
];

/** `testAccAlertSourceAttributeNavigateConfig`: a service's owners, parsed from the payload and navigated to. */
const navigate = (): TfResource[] => {
  const name = stable("test-navigate");
  return [
    {
      name: "catalog_type.team",
      kind: "CatalogType",
      inputs: () => ({
        name: `${name} team`,
        description: "Used in terraform acceptance tests",
        sourceRepoUrl: "",
      }),
    },
    {
      name: "catalog_type.service",
      kind: "CatalogType",
      inputs: () => ({
        name: `${name} service`,
        description: "Used in terraform acceptance tests",
        sourceRepoUrl: "",
      }),
    },
    {
      name: "catalog_type_attribute.owner",
      kind: "CatalogTypeAttribute",
      inputs: (r) => ({
        catalogTypeId: r.id("catalog_type.service"),
        name: "Owner",
        type: r.out("catalog_type.team", "attributeType"),
        array: true,
      }),
    },
    {
      name: "alert_attribute.test",
      kind: "AlertAttribute",
      inputs: (r) => ({ name, type: r.out("catalog_type.team", "engineResourceType"), array: false }),
    },
    {
      name: "alert_source.test",
      kind: "AlertSource",
      inputs: (r) => ({
        name,
        sourceType: "http",
        template: {
          title: "a title",
          description: "a description",
          // The binding's inline `expression`, as a named expression of the source (the
          // Terraform provider mints one per attribute the same way).
          expressions: [
            {
              label: "Owner",
              reference: "owner",
              rootReference: "payload",
              operations: [
                {
                  operationType: "parse",
                  parse: {
                    source: "$.service",
                    returns: { type: r.out("catalog_type.service", "engineResourceType"), array: false },
                  },
                },
                // The API addresses an entry's attribute as catalog_attribute["<id>"].
                {
                  operationType: "navigate",
                  navigate: { reference: `catalog_attribute["${r.id("catalog_type_attribute.owner")}"]` },
                },
                { operationType: "first" },
              ],
            },
          ],
          attributes: [
            {
              alertAttributeId: r.id("alert_attribute.test"),
              binding: { value: { reference: 'expressions["owner"]' } },
            },
          ],
        },
      }),
    },
  ];
};

/** incident_alert_source_attribute_beta (v7's incident_alert_source_attribute), folded into AlertSource. */
export const corpus: TfCorpus = {
  resource: "incident_alert_source_attribute_beta",
  cases: [
    {
      file: betaFile,
      test: "TestAccAlertSourceAttributeBeta",
      configs: [
        { step: "create: a literal value", resources: literal("test-attribute-binding", "production") },
        { step: "update: another value", resources: literal("test-attribute-binding", "staging") },
      ],
    },
    {
      file: v7File,
      test: "TestAccAlertSourceAttributeNavigate",
      configs: [
        { step: "create: parse, navigate, first", resources: navigate() },
        { step: "the same config again (nothing to plan)", resources: navigate() },
      ],
    },
  ],
  notTranslated: [
    {
      file: betaFile,
      test: "TestAccAlertSourceAttributeBeta, TestAccAlertSourceAttribute (v7)",
      what: "the binding as a resource of its own",
      why: "this provider manages an alert source's attribute bindings inline (`template.attributes`): each binding is folded into its source; v7's TestAccAlertSourceAttribute is this config under the renamed resource",
    },
  ],
};
