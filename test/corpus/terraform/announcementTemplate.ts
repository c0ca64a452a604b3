import { stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/incident_announcement_template_resource_test.go";
const markdown = "If you work on **payments**, please join {{incident.reference}}";
const severity = { fieldType: "announcement_post_fields_severity", emoji: "fire" };
const richText = {
  fieldType: "announcement_post_fields_rich_text",
  richText: { type: "markdown", contents: markdown },
};

const template = (fields: unknown[], actions: string[]): TfResource[] => [
  {
    name: "announcement_template.test",
    kind: "AnnouncementTemplate",
    inputs: () => ({
      name: stable("TF test announcement template"),
      fields,
      actions: actions.map((actionType) => ({ actionType })),
    }),
  },
];

/** incident_announcement_template: fields and actions, reordered, then none. */
export const corpus: TfCorpus = {
  resource: "incident_announcement_template",
  cases: [
    {
      file,
      test: "TestAccIncidentAnnouncementTemplateResource",
      configs: [
        {
          step: "create: severity (emoji) and rich text fields, two actions",
          resources: template(
            [severity, richText],
            ["announcement_post_actions_join_call", "announcement_post_actions_homepage"],
          ),
        },
        {
          step: "update: fields reordered with status added, one action",
          resources: template(
            [richText, { fieldType: "announcement_post_fields_status" }, severity],
            ["announcement_post_actions_subscribe"],
          ),
        },
        { step: "update: no fields, no actions", resources: template([], []) },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentAnnouncementTemplateResource",
      what: "the data sources `incident_announcement_template` by id and by name of step 1",
      why: "data sources, not resources: their counterpart, `getAnnouncementTemplate`, has its own tests (test/resources/announcementTemplate.test.ts)",
    },
  ],
};
