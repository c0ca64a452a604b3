import type { SampleApi } from "../../support/kindSamples";
import { SEEDED_TEAMS, stable, type TfCorpus, type TfResource, teamCatalogType } from "./types";

const file = "internal/provider/incident_alert_source_resource_test.go";
/** v7's tests of the resource (its v3 shape: title and description at the top, `priority`). */
const v7File = "internal/provider/incident_alert_source_acceptance_test.go";

/** `testAlertSourceTitle` / `testAlertSourceDescription`: rich-text documents, sent as written. */
const title =
  '{"content":[{"content":[{"attrs":{"label":"Payload → Title","missing":false,"name":"title"},"type":"varSpec"}],"type":"paragraph"}],"type":"doc"}';
const description =
  '{"content":[{"content":[{"attrs":{"label":"Payload → Description","missing":false,"name":"description"},"type":"varSpec"}],"type":"paragraph"}],"type":"doc"}';
const template = { expressions: [], title, description, attributes: [] };

const source = (inputs: Record<string, unknown>): TfResource => ({
  name: "alert_source.test",
  kind: "AlertSource",
  inputs: () => ({ template, ...inputs }),
});
/** `testAccAlertSourceResourceConfig(name, sourceType)`. */
const plain = (name: string, sourceType = "datadog"): TfResource[] => [
  source({ name: stable(name), sourceType }),
];

const attribute = (address: string, name: string): TfResource => ({
  name: `alert_attribute.${address}`,
  kind: "AlertAttribute",
  inputs: () => ({ name: stable(name), type: "String", array: false }),
});
const parse = (label: string, reference: string, source: string) => ({
  label,
  reference,
  rootReference: "payload",
  operations: [{ operationType: "parse", parse: { source, returns: { type: "String", array: false } } }],
});

/** `testAccAlertSourceResourceConfigFull`: an attribute bound to an expression parsing the payload. */
const full: TfResource[] = [
  attribute("test", "test-attribute"),
  {
    name: "alert_source.test",
    kind: "AlertSource",
    inputs: (r) => ({
      name: stable("full-test-source"),
      sourceType: "datadog",
      template: {
        title,
        description,
        attributes: [
          {
            alertAttributeId: r.id("alert_attribute.test"),
            binding: { value: { reference: 'expressions["severity_expr"]' } },
          },
        ],
        expressions: [parse("Severity", "severity_expr", "$.metadata.severity")],
      },
    }),
  },
];

const teamEntry = (address: string, externalId: string, name: string): TfResource => ({
  name: `catalog_entry.${address}`,
  kind: "CatalogEntry",
  inputs: (r) => ({ catalogTypeId: r.given("teamType"), externalId, name, attributeValues: {} }),
});

/**
 * Issue 342's config reads the account's built-in Priority alert attribute and the entries of its
 * AlertPriority catalog type; the emulator seeds neither: they are made in the dashboard first.
 */
async function priorities(api: SampleApi): Promise<Record<string, string>> {
  const type = (
    await api.call("POST", "/v3/catalog_types", {
      name: "Alert Priority",
      description: "Alert priorities",
      ranked: true,
      use_name_as_identifier: false,
    })
  ).catalog_type;
  const p1 = (
    await api.call("POST", "/v3/catalog_entries", {
      catalog_type_id: type.id,
      name: "P1",
      attribute_values: {},
    })
  ).catalog_entry;
  const priority = (
    await api.call("POST", "/v2/alert_attributes", {
      name: "Priority",
      type: `CatalogEntry["${type.id}"]`,
      array: false,
      required: false,
    })
  ).alert_attribute;
  return { priorityAttribute: priority.id, firstPriority: p1.id };
}

const issue342 = (withThird: boolean): TfResource[] => [
  attribute("url", "issue-342-url"),
  attribute("country", "issue-342-country"),
  attribute("environment", "issue-342-environment"),
  attribute("service", "issue-342-service"),
  {
    name: "alert_source.test",
    kind: "AlertSource",
    inputs: (r) => {
      const byReference = (address: string, reference: string) => ({
        alertAttributeId: r.id(`alert_attribute.${address}`),
        binding: { value: { reference: `expressions["${reference}"]` }, mergeStrategy: "first_wins" },
      });
      return {
        name: stable("issue-342-test-source"),
        sourceType: "datadog",
        template: {
          expressions: [
            parse("url", "url", "$.url"),
            parse("country", "country", "$.country"),
            parse("environment", "environment", "$.environment"),
            parse("service", "service", "$.service"),
          ],
          title,
          description,
          attributes: [
            // The priority binding: literal-only, no merge strategy.
            {
              alertAttributeId: r.given("priorityAttribute"),
              binding: { value: { literal: r.given("firstPriority") } },
            },
            byReference("url", "url"),
            byReference("country", "country"),
            byReference("environment", "environment"),
            ...(withThird ? [byReference("service", "service")] : []),
          ],
        },
      };
    },
  },
];

/**
 * v7's `testAccAlertSourcePriorityConfig`: a `priority` field bound to a named expression (a branch on
 * a parsed severity, with a fallback). This provider's AlertSource (API v2) sets the priority the way
 * the Terraform provider's v6 resource did: a binding of the built-in Priority alert attribute.
 */
const priorityConfig: TfResource[] = [
  {
    name: "alert_source.priority",
    kind: "AlertSource",
    inputs: (r) => {
      const priority = r.given("firstPriority");
      return {
        name: stable("beta-priority"),
        sourceType: "http",
        template: {
          title: "a title",
          description: "a description",
          expressions: [
            {
              label: "severity",
              reference: "severity",
              rootReference: "payload",
              operations: [
                {
                  operationType: "parse",
                  parse: { source: "$.severity", returns: { type: "String", array: false } },
                },
              ],
            },
            {
              label: "priority_lookup",
              reference: "priority_lookup",
              rootReference: ".",
              operations: [
                {
                  operationType: "branches",
                  branches: {
                    branches: [
                      {
                        conditionGroups: [
                          {
                            conditions: [
                              {
                                subject: 'expressions["severity"]',
                                operation: "one_of",
                                paramBindings: [{ arrayValue: [{ literal: "CRITICAL" }] }],
                              },
                            ],
                          },
                        ],
                        result: { value: { literal: priority } },
                      },
                    ],
                    returns: { type: 'CatalogEntry["AlertPriority"]', array: false },
                  },
                },
              ],
              elseBranch: { result: { value: { literal: priority } } },
            },
          ],
          attributes: [
            {
              alertAttributeId: r.given("priorityAttribute"),
              binding: { value: { reference: 'expressions["priority_lookup"]' } },
            },
          ],
        },
      };
    },
  },
];

/** incident_alert_source: types, templates, options of every kind, privacy, owning teams. */
export const corpus: TfCorpus = {
  resource: "incident_alert_source",
  cases: [
    {
      file,
      test: "TestAccAlertSourceResource",
      configs: [
        { step: "create", resources: plain("test-source") },
        { step: "update: name", resources: plain("updated-source") },
        { step: "update: the full configuration (attribute bound to an expression)", resources: full },
      ],
    },
    {
      file,
      test: "TestAccAlertSourceResource_Heartbeat",
      configs: [
        {
          step: "create",
          resources: [
            source({
              name: stable("heartbeat-source"),
              sourceType: "heartbeat",
              // `title = {}` and `description = {}`: no text.
              template: { expressions: [], title: "", description: "", attributes: [] },
              heartbeatOptions: { intervalSeconds: 60 },
            }),
          ],
        },
      ],
    },
    {
      file,
      test: "TestAccAlertSourceResource_Jira",
      configs: [
        {
          step: "create",
          resources: [
            source({
              name: stable("jira-source"),
              sourceType: "jira",
              jiraOptions: { projectIds: ["46a0db2b-17d4-48c1-961e-563d87797b5c/10000"] },
            }),
          ],
        },
      ],
    },
    {
      file,
      test: "TestAccAlertSourceResource_DynamicAttributes",
      configs: [
        {
          step: "create: two attributes bound to literals (an HCL conditional chooses them)",
          resources: [
            attribute("team", "team-tf-attr"),
            attribute("feature", "feature-tf-attr"),
            {
              name: "alert_source.dynamic_alert_source",
              kind: "AlertSource",
              inputs: (r) => ({
                name: stable("tf-dynamic-alert-source"),
                sourceType: "http",
                template: {
                  expressions: [],
                  title,
                  description,
                  attributes: [
                    {
                      alertAttributeId: r.id("alert_attribute.team"),
                      binding: { value: { literal: "team-value" } },
                    },
                    {
                      alertAttributeId: r.id("alert_attribute.feature"),
                      binding: { value: { literal: "feature-value" } },
                    },
                  ],
                },
              }),
            },
          ],
        },
      ],
    },
    {
      file,
      test: "TestAccAlertSourceResource_Private",
      prepare: teamCatalogType,
      configs: [
        {
          step: "create: private, visible to a team",
          resources: [
            teamEntry(
              "test_team",
              stable("tf-alert-source-privacy-test"),
              stable("Alert Source Privacy Test Team"),
            ),
            source({
              name: stable("private-alert-source"),
              sourceType: "http",
              template: {
                ...template,
                isPrivate: true,
                visibleToTeams: { arrayValue: [{ literal: SEEDED_TEAMS[0] }] },
              },
            }),
          ],
        },
      ],
    },
    {
      file,
      test: "TestAccAlertSourceResource_Issue342_SpuriousMergeStrategy",
      prepare: priorities,
      configs: [
        {
          step: "create: a literal-only priority binding and three reference bindings",
          resources: issue342(false),
        },
        { step: "update: a fifth attribute added", resources: issue342(true) },
      ],
    },
    {
      file,
      test: "TestAccAlertSourceResourceOwningTeamIDs",
      prepare: teamCatalogType,
      configs: [
        { step: "create without owning_team_ids", resources: plain("test-source-no-teams") },
        {
          step: "update: one owning team",
          resources: [
            teamEntry(
              "owner_team",
              stable("tf-alert-source-owning-team-test"),
              stable("Alert Source Owning Team Test"),
            ),
            source({
              name: stable("test-source-with-teams"),
              sourceType: "datadog",
              owningTeamIds: SEEDED_TEAMS.slice(0, 1),
            }),
          ],
        },
        {
          step: "update: two owning teams",
          resources: [
            teamEntry(
              "owner_team",
              stable("tf-alert-source-owning-team-test"),
              stable("Alert Source Owning Team Test"),
            ),
            teamEntry(
              "owner_team_2",
              stable("tf-alert-source-owning-team-test-2"),
              stable("Alert Source Owning Team Test 2"),
            ),
            source({
              name: stable("test-source-updated-teams"),
              sourceType: "datadog",
              owningTeamIds: [...SEEDED_TEAMS],
            }),
          ],
        },
      ],
    },
    {
      file,
      test: "TestAccAlertSourceResource_Email",
      configs: [
        {
          step: "create",
          resources: [
            source({
              name: stable("email-source"),
              sourceType: "email",
              emailOptions: {
                redactions: ["credit_card_numbers", "phone_numbers"],
                transformExpression: "payload.subject",
              },
            }),
          ],
        },
      ],
    },
    {
      file,
      test: "TestAccAlertSourceResource_HTTPCustomOptions",
      configs: [
        {
          step: "create",
          resources: [
            source({
              name: stable("http-custom-source"),
              sourceType: "http_custom",
              httpCustomOptions: {
                transformExpression: "return { title: $.title }",
                deduplicationKeyPath: "$.alert_id",
              },
            }),
          ],
        },
      ],
    },
    {
      file,
      test: "TestAccAlertSourceResource_HTTPCustomOptionsComputed",
      configs: [
        {
          step: "create: the deduplication key path names an attribute's id (known after apply)",
          resources: [
            attribute("dedup", "dedup-tf-attr"),
            {
              name: "alert_source.test",
              kind: "AlertSource",
              inputs: (r) => ({
                name: stable("http-custom-computed"),
                sourceType: "http_custom",
                template,
                httpCustomOptions: {
                  transformExpression: "return { title: $.title }",
                  deduplicationKeyPath: `$.${r.id("alert_attribute.dedup")}`,
                },
              }),
            },
          ],
        },
      ],
    },
    {
      file: v7File,
      test: "TestAccAlertSourceHeartbeatDisabled (v7; step 2)",
      configs: [
        {
          step: "a heartbeat source, disabled = false",
          resources: [
            source({
              name: stable("heartbeat-paused"),
              sourceType: "heartbeat",
              template: { title: "", description: "" },
              heartbeatOptions: { intervalSeconds: 60 },
              disabled: false,
            }),
          ],
        },
      ],
    },
    {
      file: v7File,
      test: "TestAccAlertSourcePriority (v7)",
      prepare: priorities,
      configs: [{ step: "create: priority from an expression", resources: priorityConfig }],
    },
  ],
  notTranslated: [
    {
      file: v7File,
      test: "TestAccAlertSourceHeartbeatDisabled (v7)",
      what: "step 1: `disabled = true` on a heartbeat that has never been pinged (ExpectError)",
      why: "a configuration the service refuses, not one it accepts (the source is made, the pause refused)",
    },
    {
      file: v7File,
      test: "TestAccAlertSourcePriority (v7)",
      what: "`priority = { expression_ref = … }` and `named_expression` blocks (the v3 shape)",
      why: "this provider's AlertSource speaks API v2: the priority is a binding of the built-in Priority alert attribute (as in the Terraform provider's v6 resource), the named expressions its template's `expressions`; the Priority attribute and an alert priority, which the emulator does not seed, are made in the dashboard first",
    },
    {
      file,
      test: "TestAccAlertSourceResource_ValidationErrors",
      why: "configurations expected to fail (options of another source type, http_custom without its options, a template without title, visible_to_teams without is_private and the reverse, a branches expression on a bad root), not ones the service accepts",
    },
    {
      file,
      test: "TestAccAlertSourceResource_Private",
      what: "`visible_to_teams` and `owning_team_ids` (TestAccAlertSourceResourceOwningTeamIDs) naming the Team catalog entries the configs make",
      why: "the emulator's teams are seeded objects of `/v3/teams` and a catalog entry id is not a team there: seeded teams stand for them (the entries are still made, in a Team type made in the dashboard)",
    },
    {
      file,
      test: "TestAccAlertSourceResource_Issue342_SpuriousMergeStrategy",
      what: "the plan check of step 2 (no merge strategy planned unknown on the literal-only binding)",
      why: "a check of Terraform's set planning, which has no counterpart here; the configs themselves are translated (the read back of each shows no change)",
    },
  ],
};
