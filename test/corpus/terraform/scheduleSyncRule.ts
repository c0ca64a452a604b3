import { dailyRotation, stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/incident_schedule_sync_rule_resource_test.go";

/** The configs' schedule (no users) and sync target (a new Slack user group, the bot added). */
const config = (
  scheduleName: string,
  target: { name: string; handle: string; description: string },
  rule: Record<string, unknown>,
): TfResource[] => [
  {
    name: "schedule.test",
    kind: "Schedule",
    inputs: () => ({
      name: stable(scheduleName),
      timezone: "Europe/London",
      rotations: [dailyRotation([])],
    }),
  },
  {
    name: "schedule_sync_target.test",
    kind: "ScheduleSyncTarget",
    inputs: () => ({ addBotToGroup: true, newSlackUserGroup: { ...target, name: stable(target.name) } }),
  },
  {
    name: "schedule_sync_rule.test",
    kind: "ScheduleSyncRule",
    inputs: (r) => ({
      scheduleId: r.id("schedule.test"),
      scheduleSyncTargetId: r.id("schedule_sync_target.test"),
      ...rule,
    }),
  },
];

const target = {
  name: "Test Sync Rule Target",
  handle: "test-sync-rule-target",
  description: "Target for testing schedule sync rules",
};
const permanentTarget = {
  name: "Sync Rule Permanent Members Target",
  handle: "test-sync-rule-permanent-members",
  description: "Target for testing permanent members on schedule sync rules",
};

/** incident_schedule_sync_rule: sync type changed, permanent members set then cleared, one rotation. */
export const corpus: TfCorpus = {
  resource: "incident_schedule_sync_rule",
  cases: [
    {
      file,
      test: "TestAccIncidentScheduleSyncRuleResource",
      configs: [
        {
          step: "create: on_call",
          resources: config("Test Schedule for Sync Rule", target, { syncType: "on_call" }),
        },
        {
          step: "update: all_users",
          resources: config("Test Schedule for Sync Rule", target, { syncType: "all_users" }),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentScheduleSyncRuleResource_PermanentMembers",
      configs: [
        {
          step: "create: a permanent member (INCIDENT_TEST_USER_ID)",
          resources: config("Sync Rule Permanent Members", permanentTarget, {
            syncType: "on_call",
            permanentMemberUserIds: ["01USERADA"],
          }),
        },
        {
          step: "update: permanent members cleared ([])",
          resources: config("Sync Rule Permanent Members", permanentTarget, {
            syncType: "on_call",
            permanentMemberUserIds: [],
          }),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentScheduleSyncRuleResource_Rotation",
      configs: [
        {
          step: 'create: scoped to the rotation "primary"',
          resources: config(
            "Test Schedule for Sync Rule",
            {
              name: "Test Sync Rule Rotation Target",
              handle: "test-sync-rule-rotation-target",
              description: "Target for testing rotation-scoped schedule sync rules",
            },
            { syncType: "on_call", rotationId: "primary" },
          ),
        },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentScheduleSyncRuleResource_InvalidImportID",
      what: "steps 2 and 3: imports with ids not of the form schedule_id:rule_id (ExpectError)",
      why: "imports expected to fail, not configurations (step 1's config is that of TestAccIncidentScheduleSyncRuleResource's create, translated there); this provider's counterpart, an `adoptId` not of the form `<scheduleId>/<ruleId>`, is refused at check",
    },
  ],
};
