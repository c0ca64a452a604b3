import { stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/incident_custom_field_option_resource_test.go";

const config = (value: string): TfResource[] => [
  {
    name: "custom_field.affected_teams",
    kind: "CustomField",
    inputs: () => ({
      name: stable("Affected Teams"),
      description: "The teams that are affected by this incident.",
      fieldType: "multi_select",
    }),
  },
  {
    name: "custom_field_option.example",
    kind: "CustomFieldOption",
    inputs: (r) => ({ customFieldId: r.id("custom_field.affected_teams"), value }),
  },
];

/** incident_custom_field_option: an option of a multi-select field, then its value changed. */
export const corpus: TfCorpus = {
  resource: "incident_custom_field_option",
  cases: [
    {
      file,
      test: "TestAccIncidentCustomFieldOptionResource",
      configs: [
        { step: "create", resources: config("Payments") },
        { step: "update: value", resources: config("Dashboard") },
      ],
    },
  ],
  notTranslated: [],
};
