import { stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/escalation_path_beta_acceptance_test.go";

/**
 * `testAccEscalationPathBetaConfig`: a path written as named sequences (`start = "main"`), a branch
 * naming the sequences to continue down and a loop naming the node to go back to. This provider
 * writes the API's nested path, which is what the Terraform provider converts the sequences to: the
 * branch is an `ifElse` on the working hours, its sequences its `thenPath` and `elsePath`, the loop
 * a `repeat` to the node `start`.
 */
const config = (inHoursTimeToAck: number, loop: boolean): TfResource[] => [
  {
    name: "schedule_beta.target",
    kind: "Schedule",
    inputs: () => ({ name: stable("acc-path-schedule"), timezone: "Europe/London" }),
  },
  {
    name: "escalation_path_beta.test",
    kind: "EscalationPath",
    inputs: (r) => {
      const level = (urgency: string, timeToAckSeconds: number) => ({
        level: {
          targets: [{ type: "schedule", id: r.id("schedule_beta.target"), urgency }],
          timeToAckSeconds,
        },
      });
      return {
        name: stable("acc-escalation-path"),
        path: [
          {
            id: "start",
            ifElse: {
              // `if = { working_hours_active = "UK" }`
              conditions: [
                { subject: 'escalation.working_hours["UK"]', operation: "is_active", paramBindings: [] },
              ],
              thenPath: [
                level("high", inHoursTimeToAck),
                ...(loop ? [{ repeat: { toNode: "start", repeatTimes: 2 } }] : []),
              ],
              elsePath: [level("low", 300)],
            },
          },
        ],
        workingHours: [
          {
            id: "UK",
            name: "UK",
            timezone: "Europe/London",
            weekdayIntervals: [{ weekday: "monday", startTime: "09:00", endTime: "17:00" }],
          },
        ],
      };
    },
  },
];

/** incident_escalation_path_beta (v7's incident_escalation_path): sequences, a branch and a loop; the loop dropped. */
export const corpus: TfCorpus = {
  resource: "incident_escalation_path_beta",
  cases: [
    {
      file,
      test: "TestAccEscalationPathBeta",
      configs: [
        { step: "create: a branch on working hours, a loop back to it", resources: config(300, true) },
        { step: "update: the loop dropped, the in-hours level slower", resources: config(600, false) },
      ],
    },
  ],
  notTranslated: [
    {
      file: "internal/provider/incident_escalation_path_acceptance_test.go",
      test: "TestAccEscalationPath (v7)",
      why: "the same configurations as TestAccEscalationPathBeta (v7 renamed the beta resource `incident_escalation_path`) with `team_ids = []`, which is this provider's default: translated there",
    },
    {
      file,
      test: "TestAccEscalationPathBeta",
      what: "`start`, `sequences`, `branch` and `loop` (the path as named sequences)",
      why: "this provider writes the API's nested path (`ifElse` with `thenPath`/`elsePath`, `repeat`), the shape the Terraform provider converts those to: translated in that shape",
    },
  ],
};
