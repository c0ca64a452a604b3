import { stable, type TfCorpus } from "./types";

const file = "internal/provider/incident_role_resource_test.go";
const role = (name: string, shortform: string) => ({
  name,
  description: "Responsible for communications on behalf of the response team.",
  instructions: "Manage internal and external communications on behalf of the response team.",
  shortform,
});

/** incident_incident_role: `incidentRoleDefault`, then name and shortform changed. */
export const corpus: TfCorpus = {
  resource: "incident_incident_role",
  cases: [
    {
      file,
      test: "TestAccIncidentRoleResource",
      configs: [
        {
          step: "create",
          resources: [
            {
              name: "incident_role.example",
              kind: "IncidentRole",
              inputs: () => role(stable("Communications Lead"), stable("comms")),
            },
          ],
        },
        {
          step: "update: name and shortform",
          resources: [
            {
              name: "incident_role.example",
              kind: "IncidentRole",
              inputs: () => role(stable("Communications Follow"), stable("comms-follow")),
            },
          ],
        },
      ],
    },
  ],
  notTranslated: [],
};
