import {
  dailyRotation,
  SEEDED_TEAMS,
  stable,
  type TfCorpus,
  type TfRefs,
  type TfResource,
  teamCatalogType,
} from "./types";

const file = "internal/provider/incident_escalation_path_resource_test.go";

/** The configs' `team_ids` name the Team catalog entry they make: a seeded team stands for it. */
const TEAM = SEEDED_TEAMS[0];
/** `channelID(false)`: the channel of the incident.io engineers' default workspace. */
const CHANNEL = "C0392FG9C20";

const teamEntry = (name: string, externalId: string, address = "catalog_entry.terraform"): TfResource => ({
  name: address,
  kind: "CatalogEntry",
  inputs: (r) => ({
    catalogTypeId: r.given("teamType"),
    externalId,
    name,
    attributeValues: {},
    managedAttributes: [],
  }),
});

/** The configs' schedule: one daily rotation `primary`, no users. */
const schedule = (address: string, name: string, teamIds: string[]): TfResource => ({
  name: address,
  kind: "Schedule",
  inputs: () => ({
    name,
    timezone: "Europe/London",
    rotations: [dailyRotation([])],
    teamIds,
  }),
});

const ukWorkingHours = [
  {
    id: "UK",
    name: "UK",
    timezone: "Europe/London",
    weekdayIntervals: [{ weekday: "monday", startTime: "09:00", endTime: "17:00" }],
  },
];
const inWorkingHours = [
  { operation: "is_active", paramBindings: [], subject: 'escalation.working_hours["UK"]' },
];

const level = (scheduleId: string, urgency: string) => ({
  level: { targets: [{ type: "schedule", id: scheduleId, urgency }], timeToAckSeconds: 300 },
});

/** `escalationPathTemplate`: working hours → high urgency; otherwise the channel, then low urgency. */
const mainConfig = (name: string, teamIds: "normal" | "empty"): TfResource[] => [
  teamEntry(stable("Terraform test team"), stable("tf-acceptance-test")),
  schedule("schedule.primary_on_call", name, [TEAM]),
  {
    name: "escalation_path.example",
    kind: "EscalationPath",
    inputs: (r: TfRefs) => {
      const scheduleId = r.id("schedule.primary_on_call");
      return {
        name,
        path: [
          {
            id: "start",
            ifElse: {
              conditions: inWorkingHours,
              thenPath: [
                level(scheduleId, "high"),
                { delay: { delaySeconds: 120 } },
                { repeat: { repeatTimes: 3, toNode: "start" } },
              ],
              elsePath: [
                {
                  notifyChannel: {
                    targets: [{ type: "slack_channel", id: CHANNEL, urgency: "low" }],
                    timeToAckSeconds: 300,
                  },
                },
                level(scheduleId, "low"),
                { delay: { delayIntervalCondition: "active", delayWeekdayIntervalConfigId: "UK" } },
                { repeat: { repeatTimes: 3, toNode: "start" } },
              ],
            },
          },
        ],
        workingHours: ukWorkingHours,
        repeatConfig: { repeatAfterSeconds: 1800, delayRepeatOnActivity: true },
        teamIds: teamIds === "normal" ? [TEAM] : [],
      };
    },
  },
];

/** `testAccIncidentEscalationPathNestedConfig`: a chain of `levels` if_else nodes ending in a level. */
const nestedConfig = (levels: number): TfResource[] => [
  schedule("schedule.primary_on_call", stable("Deep Nesting Test Schedule"), []),
  {
    name: "escalation_path.example",
    kind: "EscalationPath",
    inputs: (r) => {
      let node: Record<string, unknown> = level(r.id("schedule.primary_on_call"), "high");
      for (let i = 0; i < levels - 1; i++)
        node = { ifElse: { conditions: inWorkingHours, thenPath: [node], elsePath: [] } };
      return {
        name: stable("Deeply Nested Path Test"),
        path: [{ id: "start", ifElse: { conditions: inWorkingHours, thenPath: [node], elsePath: [] } }],
        workingHours: ukWorkingHours,
        teamIds: [],
      };
    },
  },
];

/** The configs of one path (and its schedule and team entry) named `name`, its team entry `entry`. */
const singlePath = (
  address: string,
  name: string,
  entry: string,
  extra: (scheduleId: string) => Record<string, unknown>,
): TfResource[] => [
  teamEntry(entry, entry, `catalog_entry.terraform_${address}`),
  schedule(`schedule.${address}`, name, [TEAM]),
  {
    name: `escalation_path.${address}`,
    kind: "EscalationPath",
    inputs: (r) => ({ name, teamIds: [TEAM], ...extra(r.id(`schedule.${address}`)) }),
  },
];

/** incident_escalation_path: branches, delays, repeats and working hours; team ids; depth; rota modes; retries. */
export const corpus: TfCorpus = {
  resource: "incident_escalation_path",
  cases: [
    {
      file,
      test: "TestAccIncidentEscalationPathResource",
      prepare: teamCatalogType,
      configs: [{ step: "create", resources: mainConfig(stable("Terraform EP tests"), "normal") }],
    },
    {
      file,
      test: "TestAccIncidentEscalationPathTeamIDs",
      prepare: teamCatalogType,
      configs: [
        { step: "create: team_ids = []", resources: mainConfig(stable("Empty TeamIDs Test"), "empty") },
      ],
    },
    {
      file,
      test: "TestAccIncidentEscalationPathMaxDepth",
      configs: [{ step: "create: if_else nested 5 levels deep", resources: nestedConfig(5) }],
    },
    {
      file,
      test: "TestAccIncidentEscalationPathSelectedRotaID",
      prepare: teamCatalogType,
      configs: [
        {
          step: "create: currently_on_call_for_rota with selected_rota_id, and next_on_call",
          resources: singlePath(
            "rota_modes",
            stable("EP rota-mode"),
            stable("tf-acceptance-test-rota-modes"),
            (id) => ({
              path: [
                {
                  level: {
                    targets: [
                      {
                        type: "schedule",
                        id,
                        urgency: "high",
                        scheduleMode: "currently_on_call_for_rota",
                        selectedRotaId: "primary",
                      },
                      { type: "schedule", id, urgency: "high", scheduleMode: "next_on_call" },
                    ],
                    timeToAckSeconds: 300,
                  },
                },
              ],
            }),
          ),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentEscalationPathRetryConfig",
      prepare: teamCatalogType,
      configs: [
        {
          step: "create: a level paged 3 times, a minute apart",
          resources: singlePath(
            "retries",
            stable("EP retry-config"),
            stable("tf-acceptance-test-retries"),
            (id) => ({
              path: [
                {
                  level: {
                    targets: [{ type: "schedule", id, urgency: "high" }],
                    timeToAckSeconds: 300,
                    retryConfig: { attempts: 3, intervalSeconds: 60 },
                  },
                },
              ],
            }),
          ),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentEscalationPathUnknownValues",
      prepare: teamCatalogType,
      configs: [
        {
          step: "create: the path from a local indexed by a variable, a target id known after apply",
          resources: singlePath(
            "unknown_values",
            stable("EP unknown values"),
            stable("tf-acceptance-test-unknown-values"),
            (id) => ({
              path: [
                { level: { targets: [{ type: "schedule", id, urgency: "high" }], timeToAckSeconds: 300 } },
              ],
              workingHours: ukWorkingHours,
            }),
          ),
        },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentEscalationPathResource",
      what: "`team_ids` (and the schedule's) naming the Team catalog entry the config makes",
      why: "the emulator's teams are seeded objects of `/v3/teams`, each with a catalog entry of its own, and a catalog entry id is not a team there: a seeded team stands for it (the entry is still made, in a Team type made in the dashboard); likewise in every config of this file that names one",
    },
    {
      file,
      test: "TestAccIncidentEscalationPathTeamIDs",
      what: 'step 2: team_ids omitted (ExpectError: "must set an empty slice or a list of Team")',
      why: "a configuration the service refuses (an account with team settings), not one it accepts",
    },
    {
      file,
      test: "TestAccIncidentEscalationPathExceedsMaxDepth",
      why: "a configuration expected to fail (if_else nested 6 levels deep, refused by the Terraform provider's own validator), not one the service accepts",
    },
    {
      file,
      test: "TestAccIncidentEscalationPathSelectedRotaIDValidation",
      why: "plan-only configurations expected to fail (a `*_for_rota` mode without selected_rota_id; selected_rota_id with currently_on_call), not ones the service accepts",
    },
    {
      file,
      test: "TestAccIncidentEscalationPathUnknownValues",
      what: "the path taken from an HCL `local` indexed by a `variable`",
      why: "HCL locals and variables have no counterpart in a provider's inputs (a Pulumi program computes them in TypeScript): translated with the values they resolve to; inputs unknown at preview are the preview tests' (test/previewChecks.test.ts)",
    },
  ],
};
