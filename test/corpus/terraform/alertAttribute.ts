import { stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/incident_alert_attribute_resource_test.go";
const attribute = (inputs: Record<string, unknown>): TfResource[] => [
  {
    name: "alert_attribute.example",
    kind: "AlertAttribute",
    inputs: () => ({ type: "String", array: false, ...inputs }),
  },
];

/** incident_alert_attribute: without `required`, then required with an emoji, then renamed and not required. */
export const corpus: TfCorpus = {
  resource: "incident_alert_attribute",
  cases: [
    {
      file,
      test: "TestAccAlertAttributeResource",
      configs: [
        { step: "create (no required field)", resources: attribute({ name: stable("Severity") }) },
        {
          step: "update: required and emoji",
          resources: attribute({ name: stable("Severity"), required: true, emoji: "fire" }),
        },
        {
          step: "update: name, required false",
          resources: attribute({ name: stable("UpdatedSeverity"), required: false }),
        },
        { step: "update: required unset", resources: attribute({ name: stable("UpdatedSeverity") }) },
      ],
    },
    {
      file,
      test: "TestAccAlertAttributeResourceWithRequired",
      configs: [
        {
          step: "create: required",
          resources: attribute({ name: stable("RequiredAttribute"), required: true }),
        },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccAlertAttributeResource",
      what: 'step 4: an attribute named "Priority" (ExpectError: the API\'s 422 "cannot have an attribute named \'Priority\'")',
      why: "a configuration the service refuses, not one it accepts: the refusal is the API's (this provider passes the name on and maps the 422 to `name`)",
    },
  ],
};
