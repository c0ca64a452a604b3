import { stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/policy_acceptance_test.go";

/** `testAccPolicyShiftConflictConfig(status)`: the type's block is empty (`shift_conflict = {}`). */
const shiftConflict = (status: string): TfResource[] => [
  {
    name: "policy.shift_conflict",
    kind: "Policy",
    inputs: () => ({
      name: stable("Nobody on call twice"),
      description: "Flag anyone on call in two places at once.",
      status,
      conditions: [],
      policyType: "shift_conflict",
    }),
  },
];

/** incident_policy: the policy types whose block is empty; the others manage what this provider does not. */
export const corpus: TfCorpus = {
  resource: "incident_policy",
  cases: [
    {
      file,
      test: "TestAccIncidentPolicyShiftConflict",
      configs: [
        { step: "create: enabled", resources: shiftConflict("enabled") },
        { step: "update: disabled", resources: shiftConflict("disabled") },
      ],
    },
    {
      file,
      test: "TestAccIncidentPolicyTypeChangeReplaces (step 2 only: vacation_conflict)",
      configs: [
        {
          step: "create: a vacation conflict policy (`vacation_conflict = {}`)",
          resources: [
            {
              name: "policy.readiness",
              kind: "Policy",
              inputs: () => ({
                name: stable("Responders can be reached"),
                description: "Flag responders rota'd on while they are away.",
                conditions: [],
                policyType: "vacation_conflict",
              }),
            },
          ],
        },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentPolicyPostMortem",
      why: "the provider cannot express it: its `assignment_rules` (an assignee binding, reminder offsets and cadences) is not managed here (`assignmentRules`: its shape is not in the reference, and check refuses it, resources/policy.ts); the Terraform provider's schema publishes that shape",
    },
    {
      file,
      test: "TestAccIncidentPolicyOnCallReadiness, and step 1 of TestAccIncidentPolicyTypeChangeReplaces",
      why: "the provider cannot express it: `on_call_readiness` (and the reminders-only `assignment_rules` of its step 3) are not managed here (`onCallReadiness`, `assignmentRules`: refused by check, resources/policy.ts)",
    },
    {
      file,
      test: "TestAccIncidentPolicyShiftConflict, TestAccIncidentPolicyTypeChangeReplaces",
      what: "the type chosen by which block is set (`shift_conflict = {}`, `vacation_conflict = {}`)",
      why: "this provider names the type in `policyType` (which replaces the policy when changed, as the block swap does there); an empty block has nothing else to say",
    },
  ],
};
