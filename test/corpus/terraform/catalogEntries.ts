import { entryTestType } from "./catalogEntry";
import type { TfCorpus, TfResource } from "./types";

const file = "internal/provider/incident_catalog_entries_resource_test.go";

interface Element {
  name: string;
  externalId: string;
  description: string;
  aliases?: string[];
  /** `array_value`: `null` (left out) or `[]`. */
  array?: [];
  /** `UsefulValue` (the Useful attribute's `value`, `""` when the test leaves it unset). */
  useful?: string;
}

/** `catalogEntriesTemplate`: a type (named after the test's uuid), three attributes, and the entries. */
const config = (uuid: string, elements: Element[], managedAttributes: boolean): TfResource[] => [
  ...entryTestType(uuid),
  {
    name: "catalog_type_attribute.example_array",
    kind: "CatalogTypeAttribute",
    inputs: (r) => ({
      catalogTypeId: r.id("catalog_type.example"),
      name: "Array",
      type: "String",
      array: true,
    }),
  },
  {
    name: "catalog_type_attribute.example_bool",
    kind: "CatalogTypeAttribute",
    inputs: (r) => ({
      catalogTypeId: r.id("catalog_type.example"),
      name: "Useful",
      type: "Bool",
      // schema_only = true
      ...(managedAttributes ? { mode: "dashboard" } : {}),
    }),
  },
  {
    name: "catalog_entries.example",
    kind: "CatalogEntries",
    inputs: (r) => {
      const description = r.id("catalog_type_attribute.example_description");
      const array = r.id("catalog_type_attribute.example_array");
      const useful = r.id("catalog_type_attribute.example_bool");
      return {
        catalogTypeId: r.id("catalog_type.example"),
        ...(managedAttributes ? { managedAttributes: [description, array] } : {}),
        entries: Object.fromEntries(
          elements.map((e) => [
            e.externalId,
            {
              name: e.name,
              ...(e.aliases ? { aliases: e.aliases } : {}),
              attributeValues: {
                [description]: e.description,
                ...(e.array ? { [array]: e.array } : {}),
                ...(managedAttributes ? {} : { [useful]: e.useful ?? "" }),
              },
            },
          ]),
        ),
      };
    },
  },
];

const one: Element = { name: "One", externalId: "one", description: "This is the first entry" };
const three: Element = {
  name: "Three",
  externalId: "two",
  description: "This is the third entry",
  array: [],
};

/** incident_catalog_entries: entries renamed and added; partial ownership (managed_attributes). */
export const corpus: TfCorpus = {
  resource: "incident_catalog_entries",
  cases: [
    {
      file,
      test: "TestAccIncidentCatalogEntriesResource",
      configs: [
        {
          step: "create",
          resources: config(
            "2b7e1c9a-0001-4c3d-9e8f-7a6b5c4d3e2f",
            [one, { name: "Two", externalId: "two", description: "This is the second entry", array: [] }],
            false,
          ),
        },
        {
          step: "update: an entry renamed (a new type: the config's uuid is drawn again)",
          resources: config("2b7e1c9a-0002-4c3d-9e8f-7a6b5c4d3e2f", [one, three], false),
        },
        {
          step: "update: an entry added, with an alias",
          resources: config(
            "2b7e1c9a-0003-4c3d-9e8f-7a6b5c4d3e2f",
            [
              one,
              three,
              {
                name: "Four",
                externalId: "four",
                description: "This entry is added after the resource exists",
                aliases: ["quatre"],
                array: [],
              },
            ],
            false,
          ),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentCatalogEntriesResourceWithManagedAttributes",
      configs: [
        {
          step: "create: every attribute (Useful true)",
          resources: config(
            "2b7e1c9a-0004-4c3d-9e8f-7a6b5c4d3e2f",
            [
              {
                name: "Initial Entry",
                externalId: "test",
                description: "Initial description",
                useful: "true",
              },
            ],
            false,
          ),
        },
        {
          step: "update: managed_attributes = [Description, Array], Useful schema-only",
          resources: config(
            "2b7e1c9a-0004-4c3d-9e8f-7a6b5c4d3e2f",
            [{ name: "Partial Update", externalId: "test", description: "Updated description only" }],
            true,
          ),
        },
        {
          step: "update: Description again",
          resources: config(
            "2b7e1c9a-0004-4c3d-9e8f-7a6b5c4d3e2f",
            [{ name: "Another Update", externalId: "test", description: "Another description change" }],
            true,
          ),
        },
      ],
    },
  ],
  notTranslated: [],
};
