import { stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/alert_source_beta_acceptance_test.go";

/**
 * `testAccAlertSourceBetaConfig`: the v3 shape (title and description as top-level literals), which
 * this provider writes as an AlertSource's template (a text with no placeholder is the same text).
 */
const config = (name: string): TfResource[] => [
  {
    name: "alert_source_beta.test",
    kind: "AlertSource",
    inputs: () => ({
      name: stable(name),
      sourceType: "http",
      template: { title: "a title", description: "a description" },
    }),
  },
];

/** incident_alert_source_beta (v7's incident_alert_source): created, then renamed. */
export const corpus: TfCorpus = {
  resource: "incident_alert_source_beta",
  cases: [
    {
      file,
      test: "TestAccAlertSourceBeta",
      configs: [
        { step: "create", resources: config("test-source") },
        { step: "update: name", resources: config("test-source-renamed") },
      ],
    },
  ],
  notTranslated: [
    {
      file: "internal/provider/incident_alert_source_acceptance_test.go",
      test: "TestAccAlertSource (v7)",
      why: "the same configurations as TestAccAlertSourceBeta (v7 renamed the beta resource `incident_alert_source`), translated there",
    },
  ],
};
