import { stable, type TfCorpus } from "./types";

const file = "internal/provider/incident_severity_resource_test.go";
const description = "All work stops until this issue is resolved.";

/** incident_severity: the defaults of `incidentSeverityDefault`, the rank a `stableRank` (100 + n % 1000). */
export const corpus: TfCorpus = {
  resource: "incident_severity",
  cases: [
    {
      file,
      test: "TestAccIncidentSeverityResource",
      configs: [
        {
          step: "create",
          resources: [
            {
              name: "severity.example",
              kind: "Severity",
              inputs: () => ({ name: stable("P0"), description, rank: 142 }),
            },
          ],
        },
        {
          step: "update: name",
          resources: [
            {
              name: "severity.example",
              kind: "Severity",
              inputs: () => ({ name: stable("Godawful"), description, rank: 142 }),
            },
          ],
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentSeverityResourceWithoutRank",
      configs: [
        {
          step: "create without rank (computed)",
          resources: [
            {
              name: "severity.example",
              kind: "Severity",
              inputs: () => ({ name: stable("Pretty bad"), description }),
            },
          ],
        },
      ],
    },
  ],
  notTranslated: [],
};
