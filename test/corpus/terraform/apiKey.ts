import { SEEDED_TEAMS, stable, type TfCorpus, type TfResource, teamCatalogType } from "./types";

const file = "internal/provider/incident_api_key_resource_test.go";

interface Key {
  comments?: string;
  roles?: string[];
  /** `token_version`: bumping it rotates the token (this provider's `rotationTrigger`). */
  tokenVersion?: number;
  gracePeriod?: number;
}
/** `testAccIncidentAPIKeyResourceConfig`: `role_names` always written (empty when no roles). */
const key = (k: Key): TfResource[] => [
  {
    name: "api_key.test",
    kind: "ApiKey",
    inputs: () => ({
      name: stable("TF test api key"),
      ...(k.comments ? { comments: k.comments } : {}),
      roles: k.roles ?? [],
      ...(k.tokenVersion ? { rotationTrigger: k.tokenVersion } : {}),
      ...(k.gracePeriod !== undefined ? { rotationGracePeriodMinutes: k.gracePeriod } : {}),
    }),
  },
];

/** incident_api_key: created, edited without rotating, rotated, steady, comments dropped, no roles; team-scoped. */
export const corpus: TfCorpus = {
  resource: "incident_api_key",
  cases: [
    {
      file,
      test: "TestAccIncidentAPIKeyResource",
      configs: [
        {
          step: "create: viewer, with comments",
          resources: key({ comments: "Requested in #ask-infra", roles: ["viewer"] }),
        },
        {
          step: "the same config again (nothing to plan)",
          resources: key({ comments: "Requested in #ask-infra", roles: ["viewer"] }),
        },
        {
          step: "update: a role added, comments changed (no rotation)",
          resources: key({ comments: "Now also reads the catalog", roles: ["viewer", "catalog_viewer"] }),
        },
        {
          step: "update: token_version 2 rotates, grace period 0",
          resources: key({
            comments: "Now also reads the catalog",
            roles: ["viewer", "catalog_viewer"],
            tokenVersion: 2,
            gracePeriod: 0,
          }),
        },
        {
          step: "update: comments only, the same version",
          resources: key({
            comments: "Steady as she goes",
            roles: ["viewer", "catalog_viewer"],
            tokenVersion: 2,
            gracePeriod: 0,
          }),
        },
        { step: "update: comments and token_version dropped", resources: key({ roles: ["viewer"] }) },
        { step: "update: no roles at all", resources: key({}) },
      ],
    },
    {
      file,
      test: "TestAccIncidentAPIKeyResourceTeamScoped",
      prepare: teamCatalogType,
      configs: [
        {
          step: "create: a team role for one team, no account role",
          resources: [
            {
              name: "catalog_entry.api_key_team",
              kind: "CatalogEntry",
              inputs: (r) => ({
                catalogTypeId: r.given("teamType"),
                externalId: stable("tf-acceptance-test-api-key-team"),
                name: stable("tf-acceptance-test-api-key-team"),
                attributeValues: {},
                managedAttributes: [],
              }),
            },
            {
              name: "api_key.test",
              kind: "ApiKey",
              inputs: () => ({
                name: stable("TF test api key team scoped"),
                teamIds: [SEEDED_TEAMS[0]],
                teamRoles: ["schedules_editor"],
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
      test: "TestAccIncidentAPIKeyResource",
      what: "the data sources `incident_api_key` by id and by name of every step",
      why: "data sources, not resources, and this provider has no lookup of API keys: nothing to translate them to",
    },
    {
      file,
      test: "TestAccIncidentAPIKeyResourceTeamScoped",
      what: "`team_ids` naming the Team catalog entry the config makes",
      why: "the emulator's teams are seeded objects of `/v3/teams` and a catalog entry id is not a team there: a seeded team stands for it (the entry is still made, in a Team type made in the dashboard)",
    },
    {
      file,
      test: "TestAccIncidentAPIKeyResourceTeamPairing",
      why: "configurations expected to fail (team ids without team roles, and the reverse), not ones the service accepts: this provider refuses both at check too (`teamIds` must be set exactly when `teamRoles` is)",
    },
  ],
};
