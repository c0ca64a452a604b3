import { stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/incident_announcement_rule_resource_test.go";
const name = stable("TF test announcement rule");
/** `TF_ACC_CHANNEL_ID`: a Slack channel the service can post into. */
const CHANNEL = "C0392FG9C20";

interface Rule {
  mode?: string;
  conditionsNoLongerApplyBehaviour?: string;
  withTemplate: boolean;
}

/** `testAccIncidentAnnouncementRuleResourceConfig` with no severity id given: the config makes one. */
const config = (rule: Rule): TfResource[] => [
  {
    name: "severity.announced",
    kind: "Severity",
    inputs: () => ({
      name: `${name} severity`,
      description: "Incidents at this severity are announced.",
      rank: 100,
    }),
  },
  ...(rule.withTemplate
    ? [
        {
          name: "announcement_template.rule",
          kind: "AnnouncementTemplate",
          inputs: () => ({
            name: `${name} template`,
            fields: [{ fieldType: "announcement_post_fields_severity" }],
            actions: [],
          }),
        },
      ]
    : []),
  {
    name: "announcement_rule.test",
    kind: "AnnouncementRule",
    inputs: (r) => ({
      name,
      slackChannelIds: [CHANNEL],
      mode: rule.mode ?? "include_triage",
      updateSharingMode: "thread",
      ...(rule.conditionsNoLongerApplyBehaviour
        ? { conditionsNoLongerApplyBehaviour: rule.conditionsNoLongerApplyBehaviour }
        : {}),
      ...(rule.withTemplate ? { templateId: r.id("announcement_template.rule") } : {}),
      conditionGroups: [
        {
          conditions: [
            {
              subject: "incident.severity",
              operation: "one_of",
              paramBindings: [{ arrayValue: [{ literal: r.id("severity.announced") }] }],
            },
          ],
        },
      ],
    }),
  },
];

/** incident_announcement_rule: a rule on its own template, then its mode and behaviour changed. */
export const corpus: TfCorpus = {
  resource: "incident_announcement_rule",
  cases: [
    {
      file,
      test: "TestAccIncidentAnnouncementRuleResource",
      configs: [
        { step: "create: a template of its own", resources: config({ withTemplate: true }) },
        {
          step: "update: live_and_closed, remove when conditions no longer apply",
          resources: config({
            withTemplate: true,
            mode: "live_and_closed",
            conditionsNoLongerApplyBehaviour: "remove",
          }),
        },
      ],
    },
    {
      file,
      test: "TestIncidentAnnouncementRuleResourceDefaultTemplate (hermetic: a fake API)",
      configs: [
        {
          step: "create: no template_id (the account's default)",
          resources: config({ withTemplate: false }),
        },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentAnnouncementRuleResource",
      what: "the data sources `incident_announcement_rule` by id and by name of step 1",
      why: "data sources, not resources, and this provider has no lookup of announcement rules: nothing to translate them to",
    },
  ],
};
