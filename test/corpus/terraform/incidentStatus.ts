import { stable, type TfCorpus } from "./types";

const file = "internal/provider/incident_status_resource_test.go";
const status = (name: string) => ({ name, description: "We're cleaning up", category: "live" });

/** incident_status: `incidentStatusDefault`, then the name changed. */
export const corpus: TfCorpus = {
  resource: "incident_status",
  cases: [
    {
      file,
      test: "TestAccIncidentStatusResource",
      configs: [
        {
          step: "create",
          resources: [
            { name: "status.example", kind: "IncidentStatus", inputs: () => status(stable("Clean up")) },
          ],
        },
        {
          step: "update: name",
          resources: [
            { name: "status.example", kind: "IncidentStatus", inputs: () => status(stable("Clean-up")) },
          ],
        },
      ],
    },
  ],
  notTranslated: [],
};
