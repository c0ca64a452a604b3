/**
 * One sample declaration per resource kind (every kind of `providers`, resources/index.ts, in that
 * order), for tests that drive every kind's provider the same way (test/provider/faults.test.ts).
 *
 * A sample is data: `prepare(api)` makes through the API, with the second ("dashboard") key, what the
 * declaration refers to (alert attributes for a source, a source and escalation paths for a route,
 * a catalog type for entries, a custom field for an option, a schedule and a sync target for a sync
 * rule; users and teams are seeded) and answers the declaration (`inputs`, camelCase, as a program
 * writes it, before `check`) and `updated`, the same declaration with at least one field changed in
 * place (never one of the kind's `replaceOnChanges`). `live(api, inputs)` lists the kind's live
 * objects in the account (the parent ids come from the declaration), to count duplicates and
 * orphans; `members(id, outs)` names the live objects one declared resource stands for (default:
 * its id). The shapes are those of the kinds' own tests (test/resources/*.test.ts).
 *
 * A kind added to `providers` needs a sample here: test/provider/faults.test.ts fails without one.
 */
import { dashboardHttpSource } from "./alertEmulator";
import { dashboardCallRoute, dashboardEscalationPath, dashboardSchedule } from "./dashboard";
import type { TestEmulator } from "./emulator";

/** What a sample gets: the emulator and an API call with the dashboard key. */
export interface SampleApi {
  emu: TestEmulator;
  /** An API call with the dashboard key; throws on a non-2xx answer; answers the parsed body. */
  call(method: string, urlPath: string, body?: unknown): Promise<any>;
}

/** A live object of a kind, as its list answers it. */
export interface LiveObject {
  id: string;
}

export interface PreparedSample {
  /** The declaration (camelCase inputs, before `check`). */
  inputs: Record<string, unknown>;
  /**
   * The declaration changed in place (no replacement): what the update phase applies. Absent for a
   * kind the API cannot change in place (every input in `replaceOnChanges`): it has no update phase.
   */
  updated?: Record<string, unknown>;
}

export interface KindSample {
  /** Makes through the API what the declaration refers to; answers the declaration and its update. */
  prepare(api: SampleApi): Promise<PreparedSample>;
  /** The kind's live objects in the account (`inputs`: the declaration, for its parents' ids). */
  live(api: SampleApi, inputs: Record<string, unknown>): Promise<LiveObject[]>;
  /** The live objects one declared resource stands for (default: `[id]`). */
  members?(id: string, outs: Record<string, any>): string[];
  /** Outputs only a create (or a rotation) answers: they must be kept in the state. */
  createdOutputs?: readonly string[];
  /** Fails unless those outputs are the live ones (a token that authenticates, the source's secret). */
  verifyOutputs?(api: SampleApi, id: string, outs: Record<string, any>): Promise<void>;
  /**
   * What a read answers after the delete when the resource's id is its parent's (it owns the
   * parent's children): the parent's id with these outputs, not an empty id.
   */
  deletedReadsAs?: Record<string, unknown>;
  /**
   * Writes (path patterns, POST) a create whose answer was lost makes after finding its object,
   * which a clean create never makes (a token rotation): the "recovery fails too" faults hit them.
   */
  recoveryWrites?: readonly string[];
  /**
   * The create is an upsert the client sends again itself (ClientOptions `repeatable`): a lost
   * answer is retried, not looked for, so no lookup follows it.
   */
  repeatableCreate?: boolean;
}

/** Every item of a list, following `pagination_meta.after` (unpaginated lists answer in one page). */
export async function listAll(
  api: SampleApi,
  urlPath: string,
  key: string,
  query: Record<string, string> = {},
): Promise<any[]> {
  const all: any[] = [];
  let after: string | undefined;
  do {
    const params = new URLSearchParams({ ...query, page_size: "100", ...(after ? { after } : {}) });
    const body = await api.call("GET", `${urlPath}?${params}`);
    all.push(...((body[key] as any[]) ?? []));
    after = body.pagination_meta?.after;
  } while (after);
  return all;
}

const list =
  (urlPath: string, key: string) =>
  (api: SampleApi): Promise<LiveObject[]> =>
    listAll(api, urlPath, key);

/** A catalog type made in the dashboard; answers its id. */
async function catalogType(api: SampleApi, name: string): Promise<string> {
  return (
    await api.call("POST", "/v3/catalog_types", {
      name,
      description: `${name} type`,
      ranked: false,
      use_name_as_identifier: false,
    })
  ).catalog_type.id;
}

/** An attribute added to a catalog type's schema in the dashboard; answers its id. */
async function catalogAttribute(api: SampleApi, typeId: string, name: string): Promise<string> {
  const type = (await api.call("GET", `/v3/catalog_types/${typeId}`)).catalog_type;
  const written = await api.call("POST", `/v3/catalog_types/${typeId}/actions/update_schema`, {
    version: type.schema.version,
    attributes: [...type.schema.attributes, { name, type: "String", array: false }],
  });
  return written.catalog_type.schema.attributes.find((a: any) => a.name === name).id;
}

const entriesOf = (api: SampleApi, inputs: Record<string, unknown>) =>
  listAll(api, "/v3/catalog_entries", "catalog_entries", { catalog_type_id: String(inputs.catalogTypeId) });

/** Condition groups: the incident's severity is `id`. */
const severityIs = (id: string) => [
  {
    conditions: [
      {
        subject: "incident.severity",
        operation: "one_of",
        paramBindings: [{ arrayValue: [{ literal: id }] }],
      },
    ],
  },
];

/** The samples, by kind, in the order of `providers`. */
export const KIND_SAMPLES: Record<string, KindSample> = {
  AlertAttribute: {
    async prepare() {
      const inputs = { name: "Service", type: "String", emoji: ":fire:", required: true };
      return { inputs, updated: { ...inputs, array: true, emoji: "wrench" } };
    },
    live: list("/v2/alert_attributes", "alert_attributes"),
  },

  AlertRoute: {
    async prepare(api) {
      const source = async (name: string) =>
        (await api.call("POST", "/v2/alert_sources", dashboardHttpSource(name))).alert_source.id as string;
      const sourceA = await source("Payments webhook");
      const sourceB = await source("Checkout webhook");
      const user = (await api.call("GET", "/v2/users?email=ada%40example.com")).users[0].id;
      const path = async (name: string) =>
        (await api.call("POST", "/v2/escalation_paths", dashboardEscalationPath(name, { userId: user })))
          .escalation_path.id as string;
      const pathA = await path("Payments urgent");
      const pathB = await path("Checkout urgent");
      const route = (windowSeconds: number, escalationPath: string) => ({
        name: "Payments alerts",
        alertSources: [
          {
            alertSourceId: sourceA,
            conditionGroups: [
              {
                conditions: [
                  {
                    subject: "alert.title",
                    operation: "one_of",
                    paramBindings: [{ arrayValue: [{ literal: "Disk full" }, { literal: "OOM" }] }],
                  },
                ],
              },
            ],
          },
          { alertSourceId: sourceB },
        ],
        expressions: [
          {
            label: "Service",
            reference: "svc",
            rootReference: "alert.attributes.service",
            operations: [{ operationType: "navigate", navigate: { reference: "name" } }],
          },
        ],
        escalationConfig: {
          autoCancelEscalations: true,
          escalationTargets: [{ escalationPaths: { arrayValue: [{ literal: escalationPath }] } }],
          whenAlertJoinsGroup: { mode: "on_each_new_alert" },
        },
        groupingConfig: {
          enabled: true,
          groupingKeys: ["alert.attributes.service"],
          windowSeconds,
          windowType: "rolling",
        },
        incidentConfig: {
          enabled: true,
          template: {
            title: "{{ alert.title }} in {{ alert.attributes.service }}",
            description: "Alert: {{ alert.description }}",
            severity: { binding: { value: { literal: "sev_major" } }, mergeStrategy: "max" },
          },
        },
        messageConfig: {
          destinations: [
            {
              slackTargets: { binding: { arrayValue: [{ literal: "C123" }] }, channelVisibility: "public" },
            },
          ],
        },
        owningTeamIds: ["01TEAMPAYMENTS", "01TEAMPLATFORM"],
      });
      return { inputs: route(600, pathA), updated: route(1800, pathB) };
    },
    live: list("/v3/alert_routes", "alert_routes"),
  },

  AlertSource: {
    async prepare(api) {
      const attribute = (
        await api.call("POST", "/v2/alert_attributes", { name: "Service", type: "String", array: false })
      ).alert_attribute.id;
      const source = (title: string, owningTeamIds: string[]) => ({
        name: "Payments webhook",
        sourceType: "http",
        template: {
          title,
          description: "{{ alert.description }}\n\nSent by {{ alert.source }}",
          attributes: [
            { alertAttributeId: attribute, binding: { value: { reference: "alert.attributes.service" } } },
          ],
          expressions: [
            {
              label: "Service",
              reference: "svc",
              rootReference: "payload",
              operations: [{ operationType: "navigate", navigate: { reference: "service" } }],
            },
          ],
        },
        owningTeamIds,
        autoResolveTimeoutMinutes: 60,
        autoResolveIncidentAlerts: false,
      });
      return {
        inputs: source("{{ alert.title }} in {{ alert.attributes.service }}", ["01TEAMPAYMENTS"]),
        updated: source("[updated] {{ alert.title }}", ["01TEAMPAYMENTS", "01TEAMPLATFORM"]),
      };
    },
    live: list("/v2/alert_sources", "alert_sources"),
    // Answered by the create (and by every read of the source); the events URL carries its id.
    createdOutputs: ["secretToken", "alertEventsUrl"],
    async verifyOutputs(api, id, outs) {
      const live = (await api.call("GET", `/v2/alert_sources/${id}`)).alert_source;
      if (outs.secretToken !== live.secret_token) throw new Error("secretToken is not the source's token");
      if (!String(outs.alertEventsUrl).includes(id)) throw new Error("alertEventsUrl is not the source's");
    },
  },

  AnnouncementRule: {
    async prepare() {
      const inputs = {
        name: "Major incidents",
        mode: "live_and_closed",
        updateSharingMode: "thread",
        conditionGroups: severityIs("01SEVMAJOR"),
        slackChannelIds: ["C0ANNOUNCE1", "C0ANNOUNCE2"],
      };
      return {
        inputs,
        updated: { ...inputs, updateSharingMode: "thread_and_channel", slackChannelIds: ["C0ANNOUNCE1"] },
      };
    },
    live: list("/v2/announcement_rules", "announcement_rules"),
  },

  AnnouncementTemplate: {
    async prepare() {
      const inputs = {
        name: "Major incident posts",
        fields: [
          { fieldType: "severity", emoji: ":rotating_light:" },
          { fieldType: "status" },
          { fieldType: "rich_text", richText: { contents: "Join {{incident.slack_channel_name}}" } },
        ],
        actions: [{ actionType: "join_call" }, { actionType: "subscribe", emoji: "bell" }],
      };
      return {
        inputs,
        updated: { ...inputs, fields: [{ fieldType: "status" }], actions: [] },
      };
    },
    // The account's default template is always there: only the others count.
    live: async (api) =>
      (await list("/v2/announcement_templates", "announcement_templates")(api)).filter(
        (t: any) => !t.is_default,
      ),
  },

  ApiKey: {
    async prepare() {
      const inputs = {
        name: "CI: read-only",
        roles: ["viewer", "catalog_viewer"],
        comments: "Used by the deploy pipeline to look up incidents",
      };
      return { inputs, updated: { ...inputs, roles: ["viewer"], comments: "Read-only, for CI" } };
    },
    live: list("/v1/api_keys", "api_keys"),
    // The token is answered only by the create: a key whose create answer was lost is rotated.
    createdOutputs: ["token"],
    recoveryWrites: ["^/v1/api_keys/[^/]+/actions/rotate$"],
    // The token kept is the key's current one: it authenticates as the key.
    async verifyOutputs(api, _id, outs) {
      if (typeof outs.token !== "string") throw new Error("no token kept");
      const reply = await api.emu.call("GET", "/v1/identity", { token: outs.token });
      if (reply.status !== 200) throw new Error(`the token kept does not authenticate (${reply.status})`);
    },
  },

  // An account's call route, taken over (no create or delete in the API): its "live objects" are
  // `<id>:<name>` of every route (the route bought first is the baseline); the delete restores it.
  // The create writes the route only (a PUT, which the client repeats itself); the update adds an
  // allowed caller (a POST: a lost answer is looked for on the route).
  CallRoute: {
    async prepare(api) {
      const route = await dashboardCallRoute(api.emu, {
        name: "Sample line",
        custom_language: "en-GB",
        path: [
          {
            id: "start",
            type: "level",
            level: { targets: [{ id: "01USERBOB", type: "user", urgency: "low" }] },
          },
        ],
      });
      const inputs = {
        callRouteId: route.id,
        name: "Payments hotline",
        customLanguage: "en-US",
        responderCallerId: "oncall_number",
        useCallerAllowlist: false,
        path: [{ level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }] } }],
      };
      return {
        inputs,
        // Allowed callers added (before the allowlist is turned on) in the update; the delete
        // turns the allowlist off, then removes them.
        updated: {
          ...inputs,
          name: "Payments hotline (updated)",
          path: [...inputs.path, { voicemail: { greetingText: "Leave a message" } }],
          useCallerAllowlist: true,
          allowedCallers: [{ phoneNumber: "+15551234567", name: "Regulator duty desk" }],
        },
      };
    },
    async live(api) {
      return (await listAll(api, "/v2/call_routes", "call_routes")).map((r) => ({ id: `${r.id}:${r.name}` }));
    },
    members: (id, outs) => [`${id}:${outs.name}`],
    deletedReadsAs: { name: "Sample line", customLanguage: "en-GB", responderCallerId: "route_number" },
    // The create is a PUT (after a GET), which the client sends again itself when its answer is lost.
    repeatableCreate: true,
  },

  CatalogEntries: {
    async prepare(api) {
      const catalogTypeId = await catalogType(api, "Fleet");
      const entries = {
        checkout: { name: "Checkout", aliases: ["co"] },
        search: { name: "Search", attributeValues: {} },
      };
      return {
        inputs: { catalogTypeId, entries },
        updated: { catalogTypeId, entries: { ...entries, checkout: { name: "Checkout 2", rank: 2 } } },
      };
    },
    live: entriesOf,
    // The resource is the type's entries: each declared entry is one live entry.
    members: (_id, outs) => Object.values(outs.entryIds ?? {}),
    // Its id is the catalog type's, which outlives it: deleted, it reads back as no entries.
    deletedReadsAs: { entries: {}, entryIds: {} },
    // Entries are made by external id.
    repeatableCreate: true,
  },

  CatalogEntry: {
    async prepare(api) {
      const catalogTypeId = await catalogType(api, "Feature");
      const tier = await catalogAttribute(api, catalogTypeId, "Tier");
      const inputs = {
        catalogTypeId,
        name: "Checkout",
        externalId: "checkout",
        aliases: ["co"],
        attributeValues: { [tier]: "1" },
      };
      return { inputs, updated: { ...inputs, name: "Checkout 2", attributeValues: { [tier]: "2" } } };
    },
    live: entriesOf,
    // With an external id.
    repeatableCreate: true,
  },

  CatalogType: {
    async prepare() {
      const inputs = { name: "Team", description: "Teams", typeName: 'Custom["Team"]', categories: ["team"] };
      return { inputs, updated: { ...inputs, description: "All teams", categories: ["team", "user"] } };
    },
    live: list("/v3/catalog_types", "catalog_types"),
  },

  CatalogTypeAttribute: {
    async prepare(api) {
      const catalogTypeId = await catalogType(api, "Service");
      const inputs = { catalogTypeId, name: "Owner", type: "String" };
      return { inputs, updated: { ...inputs, name: "Owners", array: true } };
    },
    async live(api, inputs) {
      const type = (await api.call("GET", `/v3/catalog_types/${inputs.catalogTypeId}`)).catalog_type;
      return type.schema.attributes;
    },
  },

  CustomField: {
    async prepare() {
      const inputs = {
        name: "Affected team",
        description: "Which team's systems are affected?",
        fieldType: "single_select",
        options: ["Payments", "Identity"],
      };
      return {
        inputs,
        updated: {
          ...inputs,
          description: "Whose systems are affected?",
          options: ["Payments", "Identity", "Search"],
        },
      };
    },
    // The fields and their options: inline options are objects of their own upstream.
    async live(api) {
      const fields = await listAll(api, "/v2/custom_fields", "custom_fields");
      const options = await Promise.all(
        fields.map((f) =>
          listAll(api, "/v1/custom_field_options", "custom_field_options", { custom_field_id: f.id }),
        ),
      );
      return [...fields, ...options.flat()];
    },
    members: (id, outs) => [id, ...Object.values<string>(outs.optionIds ?? {})],
  },

  CustomFieldOption: {
    async prepare(api) {
      const customFieldId = (
        await api.call("POST", "/v2/custom_fields", {
          name: "Region",
          description: "Where customers are affected",
          field_type: "multi_select",
        })
      ).custom_field.id;
      const inputs = { customFieldId, value: "eu-west", sortKey: 10 };
      return { inputs, updated: { ...inputs, value: "eu-central", sortKey: 20 } };
    },
    live: (api, inputs) =>
      listAll(api, "/v1/custom_field_options", "custom_field_options", {
        custom_field_id: String(inputs.customFieldId),
      }),
  },

  EscalationPath: {
    async prepare(api) {
      const scheduleId = (
        await api.call(
          "POST",
          "/v2/schedules",
          dashboardSchedule({
            name: "Platform primary",
            timezone: "Europe/London",
            handoverStartAt: "2026-01-05T09:00:00Z",
            users: ["01USERADA"],
          }),
        )
      ).schedule.id;
      const path = (timeToAckSeconds: number) => ({
        name: "Payments on-call",
        teamIds: ["01TEAMPLATFORM", "01TEAMPAYMENTS"],
        path: [
          {
            id: "start",
            level: {
              targets: [
                { type: "user", id: "01USERADA", urgency: "high" },
                {
                  type: "schedule",
                  id: scheduleId,
                  urgency: "high",
                  scheduleMode: "currently_on_call_for_rota",
                  selectedRotaId: "primary",
                },
              ],
              timeToAckSeconds,
              retryConfig: { attempts: 2, intervalSeconds: 60 },
            },
          },
          { repeat: { repeatTimes: 2, toNode: "start" } },
        ],
      });
      return { inputs: path(300), updated: path(600) };
    },
    live: list("/v2/escalation_paths", "escalation_paths"),
  },

  EscalationPathTemplate: {
    async prepare(api) {
      // A path made in the dashboard: what the template's reassignment node hands over to.
      const payments = (
        await api.call(
          "POST",
          "/v2/escalation_paths",
          dashboardEscalationPath("Payments", { userId: "01USERBOB" }),
        )
      ).escalation_path.id;
      const template = (timeToAckSeconds: number) => ({
        name: "Standard on-call",
        description: "Page the team lead, then hand over to payments",
        params: [{ name: "lead", label: "Team lead", type: "User" }],
        path: [
          {
            id: "start",
            level: {
              targets: [
                { type: "user", binding: { value: { reference: "lead" } }, urgency: "high" },
                { type: "user", id: "01USERADA", urgency: "low" },
              ],
              timeToAckSeconds,
            },
          },
          { escalationPath: { escalationPathId: payments } },
        ],
      });
      return { inputs: template(300), updated: template(600) };
    },
    live: list("/v2/escalation_path_templates", "escalation_path_templates"),
  },

  IncidentRole: {
    async prepare() {
      const inputs = {
        name: "Comms lead",
        description: "Talks",
        instructions: "Post updates",
        shortform: "comms",
      };
      return { inputs, updated: { ...inputs, instructions: "Post updates every 30 minutes" } };
    },
    live: list("/v2/incident_roles", "incident_roles"),
  },

  IncidentStatus: {
    async prepare() {
      const inputs = { name: "Monitoring", description: "Watching", category: "live" };
      return { inputs, updated: { ...inputs, description: "Watching the fix" } };
    },
    live: list("/v1/incident_statuses", "incident_statuses"),
  },

  // A template naming a custom field and a severity made in the dashboard, with one expression.
  IncidentTemplate: {
    async prepare(api) {
      const customFieldId = (
        await api.call("POST", "/v2/custom_fields", {
          name: "Affected team",
          description: "Which team's systems are affected?",
          field_type: "text",
        })
      ).custom_field.id;
      const severityId = (
        await api.call("POST", "/v1/severities", { name: "Major", description: "Bad", rank: 2 })
      ).severity.id;
      const inputs = {
        name: "Payments incidents",
        template: {
          name: { autogenerated: true },
          summary: { binding: { value: { reference: "alert.description" } } },
          severity: { binding: { value: { literal: severityId } }, mergeStrategy: "first-wins" },
          startInTriage: { binding: { value: { literal: "true" } } },
          customFields: [
            {
              customFieldId,
              binding: { value: { reference: 'expressions["team"]' } },
              mergeStrategy: "first-wins",
            },
          ],
        },
        expressions: [
          {
            label: "Team",
            reference: "team",
            rootReference: "alert.attributes.team",
            operations: [{ operationType: "navigate", navigate: { reference: "name" } }],
          },
        ],
      };
      return {
        inputs,
        updated: {
          ...inputs,
          template: { ...inputs.template, startInTriage: { binding: { value: { literal: "false" } } } },
        },
      };
    },
    live: async (api) => (await api.call("GET", "/v1/incident_templates")).incident_templates,
  },

  // A singleton the account always has: its "live objects" are the allowlist's values (the account's
  // own values, set first through the dashboard, are the baseline); the delete restores those.
  IpAllowlist: {
    async prepare(api) {
      const { ip_allowlist: now } = await api.call("GET", "/v1/ip_allowlists");
      await api.call("PUT", "/v1/ip_allowlists", {
        allowlist: [{ value: "192.0.2.1", label: "before" }],
        enabled: false,
        version: now.version,
      });
      const inputs = { allowlist: [{ value: "203.0.113.7", label: "Office" }], enabled: true };
      return {
        inputs,
        updated: {
          allowlist: [...inputs.allowlist, { value: "198.51.100.0/24", label: "VPN" }],
          enabled: true,
        },
      };
    },
    async live(api) {
      const { ip_allowlist: list } = await api.call("GET", "/v1/ip_allowlists");
      return list.allowlist.map((item: { value: string }) => ({ id: item.value }));
    },
    members: (_id, outs) => outs.allowlist.map((item: { value: string }) => item.value),
    deletedReadsAs: { allowlist: [{ value: "192.0.2.1", label: "before" }], enabled: false },
    // The create is a PUT, which the client sends again itself when its answer is lost.
    repeatableCreate: true,
  },

  MaintenanceWindow: {
    async prepare(api) {
      // A day after the emulator's clock: not active, so it can be archived.
      const at = (hours: number) => new Date(api.emu.time() + hours * 3_600_000).toISOString();
      const inputs = {
        name: "DB migration",
        startAt: at(24),
        endAt: at(26),
        lead: { email: "Ada@Example.com" },
        alertConditionGroups: [
          {
            conditions: [
              {
                subject: "alert.title",
                operation: "one_of",
                paramBindings: [{ arrayValue: [{ literal: "db" }] }],
              },
            ],
          },
        ],
      };
      return { inputs, updated: { ...inputs, endAt: at(27), resolveOnEnd: true } };
    },
    live: list("/v1/maintenance_windows", "maintenance_windows"),
  },

  PayConfig: {
    async prepare() {
      const inputs = {
        name: "UK on-call",
        currency: "GBP",
        baseRateCents: 500,
        rateTimeUnit: "hour",
        timezone: "Europe/London",
        weeklyRules: [
          { weekdays: ["saturday", "sunday"], startTime: "00:00", endTime: "23:59", rateCents: 1000 },
          { weekdays: ["friday"], startTime: "18:00", endTime: "23:59", rateCents: 750 },
        ],
        oneOffRules: [
          {
            name: "Christmas Day",
            startAt: "2026-12-25T00:00:00Z",
            endAt: "2026-12-26T00:00:00Z",
            rateCents: 2000,
          },
        ],
      };
      return {
        inputs,
        updated: {
          ...inputs,
          baseRateCents: 550,
          weeklyRules: [...inputs.weeklyRules].reverse(),
          oneOffRules: [],
        },
      };
    },
    live: list("/v2/pay_configs", "pay_configs"),
  },

  Policy: {
    async prepare() {
      const inputs = {
        name: "Follow-ups are done",
        description: "Every follow-up of a major incident is completed",
        policyType: "follow_up",
        conditions: severityIs("01SEVMAJOR"),
        followUp: { runOnPrivateIncidents: false },
      };
      return {
        inputs,
        updated: {
          ...inputs,
          description: "Follow-ups of major incidents",
          status: "disabled",
          conditions: [],
        },
      };
    },
    live: list("/v2/policies", "policies"),
  },

  Schedule: {
    async prepare(api) {
      // Later than the emulator's clock (T0) and the provider's (real time).
      const future = new Date(Math.max(Date.now(), api.emu.time()) + 30 * 86_400_000)
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z");
      const schedule = (name: string, secondUser: string) => ({
        name,
        timezone: "Europe/Berlin",
        teamIds: ["01TEAMPLATFORM", "01TEAMPAYMENTS"],
        rotations: [
          {
            id: "primary",
            name: "Primary",
            versions: [
              {
                handoverStartAt: "2026-01-05T09:00:00+01:00",
                handovers: [{ interval: 1, intervalType: "weekly" }],
                users: [{ id: "01USERADA" }, { email: "Bob@example.com" }],
                layers: [{ name: "Layer 1" }],
                workingIntervals: [{ weekday: "monday", startTime: "09:00", endTime: "17:00" }],
              },
              {
                effectiveFrom: future,
                handoverStartAt: "2026-01-05T09:00:00+01:00",
                handovers: [{ interval: 2, intervalType: "daily" }],
                users: [{ id: secondUser }],
                layers: [{ name: "Layer 1" }],
              },
            ],
          },
        ],
      });
      return {
        inputs: schedule("Checkout", "01USERBOB"),
        updated: schedule("Checkout (updated)", "01USERCAT"),
      };
    },
    live: list("/v2/schedules", "schedules"),
  },

  ScheduleOverride: {
    async prepare(api) {
      const { schedule } = await api.call(
        "POST",
        "/v2/schedules",
        dashboardSchedule({
          name: "Covered",
          timezone: "Europe/London",
          handoverStartAt: "2026-01-01T09:00:00Z",
          users: ["01USERADA", "01USERBOB"],
        }),
      );
      const inputs = {
        scheduleId: schedule.id,
        rotationId: "primary",
        layerId: schedule.config.rotations[0].layers[0].id,
        user: { email: "Ada@Example.com" },
        startAt: "2031-03-01T09:00:00+01:00",
        endAt: "2031-03-02T09:00:00+01:00",
      };
      return { inputs, updated: { ...inputs, endAt: "2031-03-03T09:00:00+01:00" } };
    },
    async live(api, inputs) {
      return listAll(api, "/v2/schedule_overrides", "overrides", { schedule_id: String(inputs.scheduleId) });
    },
  },

  ScheduleReplica: {
    async prepare(api) {
      const { schedule } = await api.call(
        "POST",
        "/v2/schedules",
        dashboardSchedule({
          name: "Mirrored",
          timezone: "Europe/London",
          handoverStartAt: "2026-01-01T09:00:00Z",
          users: ["01USERADA", "01USERBOB"],
        }),
      );
      const inputs = {
        scheduleId: schedule.id,
        replicaProvider: "pagerduty",
        replicaProviderId: "PO8107X",
        replicaFallbackUserId: "PA7AXXN",
        sources: [{ rotationId: "primary", layerId: schedule.config.rotations[0].layers[0].id }],
        mirrorWindowDays: 30,
      };
      // No update: every input replaces a replica.
      return { inputs };
    },
    async live(api, inputs) {
      const { schedule_replicas } = await api.call("GET", `/v2/schedules/${inputs.scheduleId}/replicas`);
      // The resource's id is `<schedule id>/<replica id>`.
      return (schedule_replicas as any[]).map((r) => ({ id: `${r.schedule_id}/${r.id}` }));
    },
  },

  ScheduleSyncRule: {
    async prepare(api) {
      const scheduleId = (
        await api.call(
          "POST",
          "/v2/schedules",
          dashboardSchedule({
            name: "Primary",
            timezone: "Europe/London",
            handoverStartAt: "2026-01-01T09:00:00Z",
            users: ["01USERADA", "01USERBOB"],
          }),
        )
      ).schedule.id;
      const scheduleSyncTargetId = (
        await api.call("POST", "/v2/schedule_sync_targets", {
          schedule_sync_target: { slack_user_group_id: "S0RULES", add_bot_to_group: false },
        })
      ).schedule_sync_target.id;
      const inputs = {
        scheduleId,
        scheduleSyncTargetId,
        rotationId: "primary",
        syncType: "on_call",
        permanentMemberUserIds: ["01USEREVE"],
      };
      return { inputs, updated: { ...inputs, permanentMemberUserIds: ["01USEREVE", "01USERCAT"] } };
    },
    async live(api, inputs) {
      const rules = await listAll(
        api,
        `/v2/schedules/${inputs.scheduleId}/sync_rules`,
        "schedule_sync_rules",
      );
      // The resource's id is `<schedule id>/<rule id>`.
      return rules.map((r) => ({ id: `${r.schedule_id}/${r.id}` }));
    },
  },

  ScheduleSyncTarget: {
    // A group the service makes: the API answers neither its name nor its handle, so a lost create
    // is found as the target made since it was sent (an existing group's is found by its id:
    // test/resources/scheduleSyncTarget.test.ts).
    async prepare() {
      const inputs = {
        newSlackUserGroup: {
          name: "Lifecycle on-call",
          handle: "lifecycle-oncall",
          description: "Who is on call",
        },
        addBotToGroup: false,
      };
      return { inputs, updated: { ...inputs, addBotToGroup: true } };
    },
    live: list("/v2/schedule_sync_targets", "schedule_sync_targets"),
  },

  Secret: {
    async prepare() {
      const inputs = { name: "Webhook token", value: "first-value-0001", description: "for the hook" };
      // A new value is a rotation, in place.
      return {
        inputs,
        updated: { ...inputs, value: "second-value-0002", description: "for the deploy hook" },
      };
    },
    live: list("/v2/secrets", "secrets"),
  },

  Severity: {
    async prepare() {
      const inputs = { name: "Critical", description: "Everything is down", rank: 30 };
      return { inputs, updated: { ...inputs, description: "Customers cannot pay", rank: 31 } };
    },
    live: list("/v1/severities", "severities"),
  },

  Workflow: {
    async prepare() {
      const inputs = {
        name: "Notify on critical",
        trigger: "incident.updated",
        steps: [
          {
            id: "post",
            name: "slack.post_message",
            paramBindings: [
              { value: { reference: "incident.slack_channel" } },
              { value: { literal: '{"content": [{"text": "a > b"}], "type": "doc"}' } },
            ],
          },
        ],
        conditionGroups: [
          {
            conditions: [
              {
                subject: "incident.severity",
                operation: "one_of",
                paramBindings: [{ arrayValue: [{ literal: "sev_1" }] }],
              },
            ],
          },
        ],
        onceFor: ["incident.url"],
        delay: { forSeconds: 60 },
        folder: "Paging",
        owningTeamIds: ["01TEAMPLATFORM"],
      };
      return { inputs, updated: { ...inputs, delay: { forSeconds: 0 }, folder: "Paging (critical)" } };
    },
    live: list("/v2/workflows", "workflows"),
  },
};
