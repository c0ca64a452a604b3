import type { TfCorpus, TfResource } from "./types";

const file = "internal/provider/incident_schedule_sync_target_resource_test.go";
const target = (addBotToGroup: boolean): TfResource[] => [
  {
    name: "schedule_sync_target.test",
    kind: "ScheduleSyncTarget",
    inputs: () => ({
      addBotToGroup,
      newSlackUserGroup: {
        name: "test-oncall",
        handle: "platform-oncall",
        description: "Platform team on-call group",
      },
    }),
  },
];

/** incident_schedule_sync_target: a new Slack user group with the bot added, then without. */
export const corpus: TfCorpus = {
  resource: "incident_schedule_sync_target",
  cases: [
    {
      file,
      test: "TestAccIncidentScheduleSyncTargetResource",
      configs: [
        { step: "create: new Slack user group, add_bot_to_group true", resources: target(true) },
        { step: "update: add_bot_to_group false", resources: target(false) },
      ],
    },
  ],
  notTranslated: [],
};
