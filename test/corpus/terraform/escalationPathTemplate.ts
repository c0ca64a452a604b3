import { stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/escalation_path_template_acceptance_test.go";

/** `escalationPathTemplateAcceptanceSchedules` and the templated path, bound to `schedule`. */
const config = (timeToAckSeconds: number, schedule: "first" | "second"): TfResource[] => [
  {
    name: "schedule.first",
    kind: "Schedule",
    inputs: () => ({ name: stable("acc-template-schedule-1"), timezone: "Europe/London" }),
  },
  {
    name: "schedule.second",
    kind: "Schedule",
    inputs: () => ({ name: stable("acc-template-schedule-2"), timezone: "Europe/London" }),
  },
  {
    name: "escalation_path_template.test",
    kind: "EscalationPathTemplate",
    inputs: () => ({
      name: stable("acc-template"),
      description: "Pages the primary schedule",
      params: [{ name: "primary_schedule", label: "Primary schedule", type: 'CatalogEntry["Schedule"]' }],
      // `start = "main"` and its one sequence, `main`.
      path: [
        {
          level: {
            targets: [
              { type: "schedule", urgency: "high", binding: { value: { reference: "primary_schedule" } } },
            ],
            timeToAckSeconds,
          },
        },
      ],
    }),
  },
  {
    name: "escalation_path.templated",
    kind: "EscalationPath",
    inputs: (r) => ({
      name: stable("acc-templated-path"),
      teamIds: [],
      kind: "templated",
      templateId: r.id("escalation_path_template.test"),
      paramBindings: { primary_schedule: { value: { literal: r.id(`schedule.${schedule}`) } } },
    }),
  },
];

/** incident_escalation_path_template: a template, a path made from it, then both changed. */
export const corpus: TfCorpus = {
  resource: "incident_escalation_path_template",
  cases: [
    {
      file,
      test: "TestAccEscalationPathTemplate",
      configs: [
        {
          step: "create: a template and a path bound to the first schedule",
          resources: config(300, "first"),
        },
        {
          step: "update: the path rebound to the second schedule, the level slower",
          resources: config(600, "second"),
        },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccEscalationPathTemplate",
      what: "`start` and `sequences` (named node sequences, the entry one named by `start`)",
      why: "this provider writes a template's nodes as one list, `path` (the API's shape): the one sequence, `main`, is that list",
    },
    {
      file: "internal/provider/escalation_path_template_resource_test.go",
      test: "TestEscalationPathTemplateResourceSchema, …NodeAttrTypesMatchSchema, …SequencesRoundTrip, TestValidateEscalationPathBetaKind",
      why: "unit tests of the Terraform provider's schema and codecs: no configuration",
    },
  ],
};
