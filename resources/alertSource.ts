/**
 * AlertSource: where alerts come from (`GET/POST /v2/alert_sources`, `GET/PUT/DELETE
 * /v2/alert_sources/{id}`).
 *
 * API version: v2. v2 and v3 coexist and neither is deprecated. v2 is chosen because its `template`
 * carries the whole alert configuration (title, description, attribute bindings, expressions) in one
 * write that fully replaces it, so this resource maps to one API call per operation and can never be
 * left half-applied; v3 moves attribute bindings to a separate sub-resource (each binding its own
 * write, each bumping the source version) and the official provider still ships it as beta. The cost
 * of v2 is the lack of `expected_version`: writes are serialised instead (below).
 *
 * Writes run under the process-wide "alert-config" lock shared with AlertAttribute: the API keeps one
 * alert configuration per account and rejects whichever of two parallel writes comes second. The
 * dynamic-provider host runs every resource of a deployment concurrently in one process, so without
 * the lock a program with several sources and attributes fails at random.
 *
 * Normalisation rules (read-back → declared spelling; each has a test vector):
 * - "rich text vs template": `template.title` / `template.description` are template strings; the API
 *   stores rich-text documents (possibly envelope-wrapped by the dashboard). See shared/richText.ts.
 * - "write-only options": `httpCustomOptions`, `emailOptions` (redactions, transform expression) and
 *   `autoResolveIncidentAlerts` are never echoed: the declared/prior value is kept (TF #339, #353).
 * - "unordered sets": `owningTeamIds`, `template.attributes` (keyed by attribute id) and
 *   `template.expressions` (keyed by reference) compare as sets and read back in the declared order.
 * - "canonical JSON literals": binding literals compare by meaning (engine.ts).
 * - "server defaults": heartbeat `failureThreshold` / `gracePeriodSeconds` and a binding's
 *   `mergeStrategy` are filled in by the server when omitted; they read back as omitted.
 *
 * Manages an **alert source**: where alerts come from (an HTTP webhook, a monitoring tool, e-mail, a
 * heartbeat, Jira, …) and how each alert is built from what it receives: title, description, the
 * alert attributes it sets (with the binding that computes each), and the expressions those bindings
 * use. Also: per-type options, auto-resolution and owning teams.
 *
 * ### API version
 *
 * `/v2/alert_sources` (v2). v2 and v3 coexist and neither is deprecated. v2 is chosen because its
 * `template` carries the whole alert configuration (title, description, attribute bindings,
 * expressions) in one write that replaces it, so each Pulumi operation is one API call and a source is
 * never left half-configured. v3 moves attribute bindings to a separate sub-resource (one write per
 * binding, each bumping the source version) and the official Terraform provider still ships it as
 * beta. v2 has no `expected_version`, so writes are serialised instead (see Concurrency).
 *
 * ### Adoption
 *
 * `pulumi import` does not work for dynamic providers. To take over a source created elsewhere (the
 * dashboard, Terraform), set `adoptId` to its id (from `GET /v2/alert_sources` or `getAlertSources`):
 * the first `pulumi up` reads it and updates it to the declared configuration. Dashboard-authored
 * titles/descriptions (envelope-wrapped rich text) compare equal to the equivalent template. Write-only
 * options cannot be read, so the declared ones are sent at adoption.
 *
 * ### Lookups: getAlertSources({ sourceType? }), getAlertSource({ name })
 *
 * `incident.getAlertSources({ sourceType })` / `getAlertSourcesOutput(...)` lists the account's alert
 * sources (one `GET /v2/alert_sources`, read-only), optionally of one type: `{ alertSources: [{ id,
 * name, sourceType, alertEventsUrl, owningTeamIds }] }`. `getAlertSource({ name })` finds the one
 * source of that exact name (names are unique), with the same fields. Secret tokens are not included.
 *
 * ### Concurrency
 *
 * Create, update and delete run under a process-wide "alert-config" lock shared with `AlertAttribute`:
 * the account has one alert configuration and the API rejects whichever of two parallel writes comes
 * second (the official Terraform provider serialises `incident_alert_source` and
 * `incident_alert_attribute` writes with one global lock). The Pulumi host runs resources in parallel in
 * one process, so a program with several sources and attributes needs it. Reads are not serialised.
 *
 * ### Normalisation rules (read-back that differs in form is not drift)
 *
 * - **rich text vs template** (`template.title`, `template.description`): the API stores a rich-text
 *   document (`doc` → `paragraph` → `text` / `lineBreak` / `varSpec`), the dashboard adds display attrs
 *   (`label`, `missing`, `omitIfUnset: false`, `truncateTo: null`) and may wrap it in an envelope
 *   (`{schema_version, text_node}` or legacy `{root, value_markdown}`, TF PR #462). A live document that
 *   means the same as the declared template reads back as the declared template; a different one reads
 *   back as its own template form (so drift is shown readably), or verbatim when no template can
 *   express it (marks, mentions, headings, lists, literal `{{`). Spacing inside `{{ }}` carries no meaning.
 * - **write-only options** (`httpCustomOptions`, `emailOptions`, `autoResolveIncidentAlerts`,
 *   `disabled`): never echoed by the API (TF #339, #353): the declared/prior value is kept instead of
 *   reporting drift. An out-of-band change to them cannot be detected.
 * - **unordered sets**: `owningTeamIds`, `template.attributes` (by `alertAttributeId`) and
 *   `template.expressions` (by `reference`) compare as sets and read back in the declared order.
 * - **canonical JSON literals**: binding literals compare by meaning (key order, whitespace, `\u003e`);
 *   the declared text is kept.
 * - **server defaults**: heartbeat `failureThreshold` / `gracePeriodSeconds` and a binding's
 *   `mergeStrategy` are filled in by the server when omitted; they read back as omitted.
 * - **operation aliases / padded bindings** in expression conditions: as for every engine binding
 *   (`one_of` ≡ `contains_one_of`, trailing empty bindings dropped).
 *
 * ### Title and description as references
 * `template.title` and `template.description` take a template string, a rich-text JSON document, or
 * `{ reference: "…" }`, a reference binding into the alert's scope (the reference's
 * `EngineParamBindingValue` takes a literal or a reference), e.g.
 * `title: { reference: 'alert.payload["summary"]' }`. A reference reads back as written.
 */
import { z } from "zod";
import { knownValues, warningProblem, warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { makeProvider } from "../provider/factory";
import { defineLookup, pickByName } from "../provider/functions";
import { idText, lookupName, nameText } from "../provider/inputs";
import { compact } from "../provider/naming";
import { keepDeclaredOrder, unorderedSet, writeOnly } from "../provider/normalise";
import type { Problem, Props, ResourceSpec } from "../provider/spec";
import { alertConfigLock } from "./shared/alertConfigLock";
import {
  bindingFromApi,
  bindingPayload,
  bindingValue,
  canonicalBinding,
  canonicalExpressions,
  expression,
  expressionsFromApi,
  expressionsPayload,
  paramBinding,
} from "./shared/engine";
import { canonicalRichText, keepDeclaredTemplate, templateText, templateToRichText } from "./shared/richText";

export const ALERT_SOURCE_TYPES = [
  "alertmanager",
  "app_optics",
  "azure_monitor",
  "big_panda",
  "bugsnag",
  "checkly",
  "chronosphere",
  "cloudflare",
  "cloudwatch",
  "coralogix",
  "cronitor",
  "crowdstrike_falcon",
  "dash0",
  "datadog",
  "dynatrace",
  "elasticsearch",
  "email",
  "expel",
  "github_issue",
  "google_cloud",
  "grafana",
  "heartbeat",
  "honeycomb",
  "http",
  "http_custom",
  "incoming_calls",
  "jira",
  "jsm",
  "monte_carlo",
  "nagios",
  "new_relic",
  "opsgenie",
  "pager_duty",
  "panther",
  "pingdom",
  "prtg",
  "runscope",
  "sentry",
  "sentry_metric",
  "service_now",
  "sns",
  "splunk",
  "status_cake",
  "status_page_views",
  "sumo_logic",
  "uptime",
  "vercel",
  "wiz",
  "zendesk",
] as const;

export const MERGE_STRATEGIES = ["append", "first_wins", "last_wins", "max", "min"] as const;
export const EMAIL_REDACTIONS = [
  "credit_card_numbers",
  "phone_numbers",
  "us_social_security_numbers",
] as const;

/** Options that belong to exactly one source type. */
const OPTIONS_FOR: Record<string, string> = {
  heartbeatOptions: "heartbeat",
  emailOptions: "email",
  httpCustomOptions: "http_custom",
  jiraOptions: "jira",
};

/**
 * A template string (`{{ reference }}` placeholders), a raw rich-text JSON document, or
 * `{ reference: "…" }`: a reference binding into the alert's scope (the API's `EngineParamBindingValue`
 * takes a literal or a reference), e.g. `{ reference: 'alert.payload["summary"]' }`.
 */
const richTextTemplate = z.union([
  templateText(),
  z.strictObject({
    /** A reference into the alert's scope. */
    reference: idText(),
  }),
]);
type TemplateText = z.infer<typeof richTextTemplate>;

/** The API's binding value for a title or description. */
const templateTextPayload = (v: TemplateText) =>
  typeof v === "string" ? { literal: templateToRichText(v) } : { reference: v.reference };

const attributeBinding = z.strictObject({
  /** The alert attribute this binding sets (an `AlertAttribute` id). */
  alertAttributeId: idText(),
  /** How the value is set: `value` (one) or `arrayValue` (several; for array attributes). */
  binding: z
    .strictObject({
      /** The single value: a literal or a reference into the alert payload, e.g. `alert.attributes.service`. */
      value: bindingValue.optional(),
      /** Several values. */
      arrayValue: z.array(bindingValue).optional(),
      /** How the attribute is merged when the alert is updated; the source type's default when unset. */
      // reference: merge_strategy enum (AlertSourceAttributeCreatePayloadV3)
      mergeStrategy: knownValues(MERGE_STRATEGIES).optional(),
    })
    .superRefine(
      warnUnless(
        (b: { value?: unknown; arrayValue?: unknown }) =>
          (b.value === undefined) !== (b.arrayValue === undefined),
        "sets none or both of value and arrayValue",
      ),
    ),
});

/** A count or duration the reference types as an integer: a non-positive one is our model (warned). */
const positive = warnUnless((v: number) => v > 0, "is not positive");

/** Inputs of an alert source (API v2). */
export const alertSourceInputs = z.strictObject({
  /** Unique name of the alert source. */
  name: nameText(),
  /** Type of alert source, e.g. `http`, `datadog`, `heartbeat`. Cannot change: changing it replaces the source. */
  // reference: AlertSourcesCreatePayloadV2.source_type enum
  sourceType: knownValues(ALERT_SOURCE_TYPES),
  /** How alerts from this source are built. */
  template: z.strictObject({
    /**
     * Alert title as a template: text with `{{ reference }}` placeholders (filters `| truncate: N`,
     * `| omit_if_unset`), e.g. `"{{ alert.title }} in {{ alert.attributes.service }}"`. A raw rich-text
     * JSON document is also accepted and sent as written.
     */
    title: richTextTemplate,
    /** Alert description as a template (same syntax as `title`; a blank line starts a new paragraph). */
    description: richTextTemplate,
    /** Attributes set on every alert, each with the binding that computes it. Order does not matter. */
    attributes: z.array(attributeBinding).default([]),
    /** Expressions usable in the bindings (`expressions["<reference>"]`). Order does not matter. */
    expressions: z.array(expression).default([]),
    /** Whether alerts from this source are private. */
    isPrivate: z.boolean().default(false),
    /** Teams that can see private alerts (a binding of team ids). */
    visibleToTeams: paramBinding.optional(),
  }),
  /** For `heartbeat` sources (expected there: check warns when it is missing): the ping schedule. */
  heartbeatOptions: z
    .strictObject({
      /** How often a ping is expected, in seconds. */
      intervalSeconds: z.number().int("must be a whole number").superRefine(positive),
      /** Consecutive missed pings before an alert fires (server default when unset). */
      failureThreshold: z.number().int("must be a whole number").superRefine(positive).optional(),
      /** Seconds after a missed ping before it counts as late; 0 = failing at once (server default when unset). */
      gracePeriodSeconds: z
        .number()
        .int("must be a whole number")
        .superRefine(warnUnless((v: number) => v >= 0, "is negative"))
        .optional(),
    })
    .optional(),
  /** For `email` sources (expected there: check warns when it is missing). Write-only: never echoed by the API. */
  emailOptions: z
    .strictObject({
      /** PII types redacted from incoming e-mail before storage. */
      // reference: AlertSourceEmailOptionsPayloadV2.redactions enum
      redactions: z.array(knownValues(EMAIL_REDACTIONS)).default([]),
      /** JavaScript expression turning e-mail fields into alert fields. */
      transformExpression: idText().optional(),
    })
    .optional(),
  /** For `http_custom` sources (expected there: check warns when it is missing). Write-only: never echoed by the API. */
  httpCustomOptions: z
    .strictObject({
      /** JSON path of the deduplication key in the payload. */
      deduplicationKeyPath: idText(),
      /** JavaScript expression returning an object with every alert field. */
      transformExpression: idText(),
    })
    .optional(),
  /** For `jira` sources (expected there: check warns when it is missing): the projects watched for new issues. */
  jiraOptions: z
    .strictObject({
      /** Jira project ids, or ids of entries of the "Jira Project" catalog type. */
      projectIds: z
        .array(idText())
        .superRefine(warnUnless((v: unknown[]) => v.length > 0, "names no project")),
    })
    .optional(),
  /** Alerts from this source resolve automatically after this many minutes. */
  autoResolveTimeoutMinutes: z.number().int("must be a whole number").superRefine(positive).optional(),
  /** Whether incident alerts auto-resolve with the alert (API default true). Write-only: never echoed. Needs `autoResolveTimeoutMinutes`. */
  autoResolveIncidentAlerts: z.boolean().optional(),
  /** Ids of the teams that own this source. Order does not matter. */
  owningTeamIds: z.array(idText()).optional(),
  /** For `heartbeat` sources: pause monitoring. Write-only (sent on update only; a create is followed by one update). */
  disabled: z.boolean().optional(),
  /** Id of an existing alert source to take over instead of creating one (`pulumi import` does not work for dynamic resources). */
  adoptId: z.string().min(1).optional(),
});

export type AlertSourceInputs = z.infer<typeof alertSourceInputs>;
type AttributeBinding = z.infer<typeof attributeBinding>;

/** Outputs beyond the inputs. */
export interface AlertSourceComputed {
  /** Secret token senders must include (query string or `Authorization` header); secret. */
  secretToken: string | undefined;
  /** URL alert events are sent to (webhook/HTTP sources). */
  alertEventsUrl: string | undefined;
  /** E-mail address of an `email` source. */
  emailAddress: string | undefined;
  /** Ping URL of a `heartbeat` source. */
  pingUrl: string | undefined;
}

/** AlertSourceV2 (the parts read here). */
export interface ApiAlertSource {
  id: string;
  name: string;
  source_type: string;
  template: {
    title: { literal?: string; reference?: string; label?: string };
    description: { literal?: string; reference?: string; label?: string };
    attributes: { alert_attribute_id: string; binding: any }[];
    expressions: any[];
    is_private: boolean;
    visible_to_teams?: any;
  };
  heartbeat_options?: {
    interval_seconds: number;
    failure_threshold: number;
    grace_period_seconds: number;
    ping_url: string;
  };
  email_options?: { email_address: string; redactions: string[]; transform_expression?: string };
  http_custom_options?: { deduplication_key_path: string; transform_expression: string };
  jira_options?: { project_ids: string[] };
  auto_resolve_timeout_minutes?: number;
  auto_resolve_incident_alerts?: boolean;
  owning_team_ids?: string[];
  secret_token?: string;
  alert_events_url?: string;
}

const path = (id: string) => `/v2/alert_sources/${encodeURIComponent(id)}`;

// ---------- mapping ----------

function attributePayload(a: AttributeBinding): Props {
  return {
    alert_attribute_id: a.alertAttributeId,
    binding: {
      ...bindingPayload({ value: a.binding.value, arrayValue: a.binding.arrayValue }),
      ...(a.binding.mergeStrategy ? { merge_strategy: a.binding.mergeStrategy } : {}),
    },
  };
}

/** AlertSourcesCreatePayloadV2 (forCreate) or AlertSourcesUpdatePayloadV2. */
export function alertSourcePayload(args: AlertSourceInputs, forCreate: boolean): Props {
  const t = args.template;
  return compact({
    name: args.name,
    ...(forCreate ? { source_type: args.sourceType } : {}),
    template: compact({
      title: templateTextPayload(t.title),
      description: templateTextPayload(t.description),
      attributes: t.attributes.map(attributePayload),
      expressions: expressionsPayload(t.expressions),
      is_private: t.isPrivate,
      visible_to_teams: t.visibleToTeams && bindingPayload(t.visibleToTeams),
    }),
    heartbeat_options:
      args.heartbeatOptions &&
      compact({
        interval_seconds: args.heartbeatOptions.intervalSeconds,
        failure_threshold: args.heartbeatOptions.failureThreshold,
        grace_period_seconds: args.heartbeatOptions.gracePeriodSeconds,
      }),
    email_options:
      args.emailOptions &&
      compact({
        redactions: args.emailOptions.redactions,
        transform_expression: args.emailOptions.transformExpression,
      }),
    http_custom_options: args.httpCustomOptions && {
      deduplication_key_path: args.httpCustomOptions.deduplicationKeyPath,
      transform_expression: args.httpCustomOptions.transformExpression,
    },
    jira_options: args.jiraOptions && { project_ids: args.jiraOptions.projectIds },
    auto_resolve_timeout_minutes: args.autoResolveTimeoutMinutes,
    auto_resolve_incident_alerts: args.autoResolveIncidentAlerts,
    owning_team_ids: args.owningTeamIds,
    ...(forCreate ? {} : { disabled: args.disabled }),
  });
}

/** A title/description binding read back: a literal through the rich-text rule, a reference as-is. */
function richTextFromApi(
  live: { literal?: string; reference?: string },
  declared: TemplateText | undefined,
): TemplateText {
  if (live.literal !== undefined)
    return keepDeclaredTemplate(live.literal, typeof declared === "string" ? declared : undefined) ?? "";
  return { reference: live.reference ?? "" };
}

/** Canonical title or description: a template by meaning, a reference as written. */
const canonicalTemplateText = (v: TemplateText) =>
  typeof v === "string" || v === undefined ? canonicalRichText(v as string) : v;

function attributesFromApi(
  live: ApiAlertSource["template"]["attributes"] | undefined,
  declared: AttributeBinding[] | undefined,
): AttributeBinding[] {
  const list = (live ?? []).map((a) => {
    const mine = declared?.find((d) => d.alertAttributeId === a.alert_attribute_id);
    const binding = bindingFromApi(a.binding ?? {}, mine?.binding);
    // Rule "server defaults": a merge strategy the user left unset reads back as unset.
    const mergeStrategy =
      mine && mine.binding.mergeStrategy === undefined ? undefined : a.binding?.merge_strategy;
    return {
      alertAttributeId: a.alert_attribute_id,
      binding: { ...binding, ...(mergeStrategy ? { mergeStrategy } : {}) },
    } as AttributeBinding;
  });
  // Rule "unordered sets": answer in the declared order.
  if (declared) {
    const order = new Map(declared.map((d, i) => [d.alertAttributeId, i]));
    list.sort((a, b) => (order.get(a.alertAttributeId) ?? 1e9) - (order.get(b.alertAttributeId) ?? 1e9));
  }
  return list;
}

export function alertSourceFromApi(
  live: ApiAlertSource,
  declared: AlertSourceInputs | undefined,
): AlertSourceInputs {
  const t = live.template;
  const hb = live.heartbeat_options;
  const dhb = declared?.heartbeatOptions;
  return {
    name: live.name,
    sourceType: live.source_type as AlertSourceInputs["sourceType"],
    template: {
      title: richTextFromApi(t.title, declared?.template.title),
      description: richTextFromApi(t.description, declared?.template.description),
      attributes: attributesFromApi(t.attributes, declared?.template.attributes),
      expressions: expressionsFromApi(t.expressions, declared?.template.expressions),
      isPrivate: t.is_private,
      ...(t.visible_to_teams
        ? { visibleToTeams: bindingFromApi(t.visible_to_teams, declared?.template.visibleToTeams) }
        : {}),
    },
    heartbeatOptions: hb && {
      intervalSeconds: hb.interval_seconds,
      // Rule "server defaults": what the user left unset reads back as unset.
      failureThreshold: dhb && dhb.failureThreshold === undefined ? undefined : hb.failure_threshold,
      gracePeriodSeconds: dhb && dhb.gracePeriodSeconds === undefined ? undefined : hb.grace_period_seconds,
    },
    // Rule "write-only options": never echoed, keep the declared/prior value.
    emailOptions: writeOnly(declared?.emailOptions),
    httpCustomOptions: writeOnly(declared?.httpCustomOptions),
    autoResolveIncidentAlerts: writeOnly(declared?.autoResolveIncidentAlerts),
    disabled: writeOnly(declared?.disabled),
    jiraOptions: live.jira_options && { projectIds: live.jira_options.project_ids },
    autoResolveTimeoutMinutes: live.auto_resolve_timeout_minutes,
    // Rule "unordered sets"; an empty live list reads back as unset when unset was declared.
    owningTeamIds:
      declared?.owningTeamIds === undefined && (live.owning_team_ids ?? []).length === 0
        ? undefined
        : keepDeclaredOrder(live.owning_team_ids ?? [], declared?.owningTeamIds),
  };
}

/** Canonical form for diffs: rich text by meaning, sets sorted, JSON literals by meaning. */
export function canonicalAlertSource(args: AlertSourceInputs): Props {
  const t = args.template;
  return {
    ...args,
    template: {
      ...t,
      title: canonicalTemplateText(t.title),
      description: canonicalTemplateText(t.description),
      attributes: [...(t.attributes ?? [])]
        .sort((a, b) => a.alertAttributeId.localeCompare(b.alertAttributeId))
        .map((a) => ({
          alertAttributeId: a.alertAttributeId,
          binding: {
            ...canonicalBinding({ value: a.binding.value, arrayValue: a.binding.arrayValue }),
            mergeStrategy: a.binding.mergeStrategy,
          },
        })),
      expressions: canonicalExpressions(t.expressions),
      visibleToTeams: t.visibleToTeams && canonicalBinding(t.visibleToTeams),
    },
    owningTeamIds: unorderedSet(args.owningTeamIds),
  };
}

/**
 * Refused where the reference says so (`disabled`, `autoResolveIncidentAlerts`); the options blocks
 * per source type, repeated attributes and expression references are our model: warned about.
 */
export function validateAlertSource(args: AlertSourceInputs): Problem[] {
  const problems: Problem[] = [];
  const warn = (...args: Parameters<typeof warningProblem>) => problems.push(warningProblem(...args));
  for (const [key, type] of Object.entries(OPTIONS_FOR)) {
    const set = args[key as keyof AlertSourceInputs] !== undefined;
    if (set && args.sourceType !== type)
      warn([key], `is for sourceType ${type} (this source is ${args.sourceType})`, [["sourceType"]]);
    // email options are optional for email sources (redactions default to none).
    if (!set && args.sourceType === type && key !== "emailOptions")
      warn([key], `is not set, and sourceType is ${type}`, [["sourceType"]]);
  }
  // reference: AlertSourcesUpdatePayloadV2.disabled ("For heartbeat sources"; SUMMARY: "only valid for
  // source types that can be disabled, currently heartbeats")
  if (args.disabled !== undefined && args.sourceType !== "heartbeat") {
    problems.push({
      path: ["disabled"],
      message: "only heartbeat sources can be disabled",
      dependsOn: [["sourceType"]],
    });
  }
  // reference: auto_resolve_incident_alerts ("Only use in conjunction with auto_resolve_timeout_minutes")
  if (args.autoResolveIncidentAlerts !== undefined && args.autoResolveTimeoutMinutes === undefined) {
    problems.push({
      path: ["autoResolveIncidentAlerts"],
      message: "only meaningful with autoResolveTimeoutMinutes",
      dependsOn: [["autoResolveTimeoutMinutes"]],
    });
  }
  const seenAttr = new Set<string>();
  args.template.attributes.forEach((a, i) => {
    if (seenAttr.has(a.alertAttributeId))
      warn(["template", "attributes", i, "alertAttributeId"], "binds an attribute bound before");
    seenAttr.add(a.alertAttributeId);
  });
  const seenExpr = new Set<string>();
  args.template.expressions.forEach((e, i) => {
    if (seenExpr.has(e.reference))
      warn(["template", "expressions", i, "reference"], "is the reference of another expression too");
    seenExpr.add(e.reference);
  });
  return problems;
}

// ---------- API ----------

async function show(client: ApiClient, id: string): Promise<ApiAlertSource> {
  return (await client.get<{ alert_source: ApiAlertSource }>(path(id), "show alert source")).alert_source;
}

async function put(client: ApiClient, id: string, args: AlertSourceInputs): Promise<ApiAlertSource> {
  return (
    await client.put<{ alert_source: ApiAlertSource }>(
      path(id),
      "update alert source",
      alertSourcePayload(args, false),
    )
  ).alert_source;
}

/**
 * An alert source (API v2): its type, how alerts are built from what it receives (title,
 * description, attributes, expressions), per-type options, auto-resolution and owning teams.
 * `secretToken` is a secret output; `alertEventsUrl`, `emailAddress` and `pingUrl` are outputs.
 *
 * Adopt an existing source: set `adoptId` to its id (from `GET /v2/alert_sources` or
 * `getAlertSources`); the first `pulumi up` takes it over and updates it to the declared configuration.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const service = new incident.AlertAttribute("service", { name: "Service", type: "String" });
 *
 * const webhook = new incident.AlertSource("payments", {
 *   name: "Payments webhook",
 *   sourceType: "http",
 *   template: {
 *     title: "{{ alert.title }} in {{ alert.attributes.service }}",
 *     description: "{{ alert.description }}\n\nRunbook: see the service page",
 *     attributes: [
 *       { alertAttributeId: service.id, binding: { value: { reference: "alert.attributes.service" } } },
 *     ],
 *   },
 *   owningTeamIds: ["01TEAMPAYMENTS"],
 *   autoResolveTimeoutMinutes: 120,
 * });
 *
 * export const eventsUrl = webhook.alertEventsUrl;
 * export const token = webhook.secretToken; // secret
 *
 * new incident.AlertSource("cron", {
 *   name: "Nightly job heartbeat",
 *   sourceType: "heartbeat",
 *   template: { title: "Nightly job missed its ping", description: "" },
 *   heartbeatOptions: { intervalSeconds: 86400, gracePeriodSeconds: 600 },
 * });
 * ```
 */
export const alertSourceSpec: ResourceSpec<AlertSourceInputs, ApiAlertSource> = {
  kind: "AlertSource",
  title: "alert source",
  schemaVersion: 1,
  claimAs: "alert_source",
  inputs: alertSourceInputs,
  // source_type is create-only (not in the update payload).
  replaceOnChanges: ["sourceType"],
  // Names are unique: the replacement can only be created once the old source is gone.
  deleteBeforeReplace: true,
  secretOutputs: ["secretToken"],
  writeOnlyInputs: ["emailOptions", "httpCustomOptions", "autoResolveIncidentAlerts", "disabled"],
  computedOutputs: ["secretToken", "alertEventsUrl", "emailAddress", "pingUrl"],
  validate: validateAlertSource,
  canonical: canonicalAlertSource,
  idOf: (live) => live.id,
  // AlertSourcesV2List answers AlertSourceV2, as show does (unpaginated).
  list: { path: "/v2/alert_sources", itemsKey: "alert_sources", operation: "list alert sources" },
  toInputs: alertSourceFromApi,
  computed: (live) => ({
    secretToken: live.secret_token,
    alertEventsUrl: live.alert_events_url,
    emailAddress: live.email_options?.email_address,
    pingUrl: live.heartbeat_options?.ping_url,
  }),
  api: {
    create: (ctx, args) =>
      alertConfigLock.run(async () => {
        const body = await ctx.client.post<{ alert_source: ApiAlertSource }>(
          "/v2/alert_sources",
          "create alert source",
          alertSourcePayload(args, true),
        );
        // `disabled` is update-only.
        if (args.disabled === true) return { live: await put(ctx.client, body.alert_source.id, args) };
        return { live: body.alert_source };
      }),
    read: (ctx, id) => show(ctx.client, id),
    update: (ctx, id, args) => alertConfigLock.run(async () => ({ live: await put(ctx.client, id, args) })),
    delete: (ctx, id) => alertConfigLock.run(() => ctx.client.delete(path(id), "delete alert source")),
    async findCreated(ctx, args) {
      return (await listAlertSources(ctx.client)).find((s) => s.name === args.name);
    },
  },
};

export const alertSourceProvider = makeProvider(alertSourceSpec);

// ---------- getAlertSources ----------

async function listAlertSources(client: ApiClient): Promise<ApiAlertSource[]> {
  const body = await client.get<{ alert_sources: ApiAlertSource[] }>(
    "/v2/alert_sources",
    "list alert sources",
  );
  return body.alert_sources ?? [];
}

/** Arguments of `getAlertSources`. */
export const getAlertSourcesArgs = z.strictObject({
  /** Only sources of this type (all when unset). */
  sourceType: knownValues(ALERT_SOURCE_TYPES).optional(),
});
export type GetAlertSourcesArgs = z.input<typeof getAlertSourcesArgs>;

/** One alert source of the account (the secret token is not included). */
export interface GetAlertSourcesItem {
  /** The source's id: use it in alert routes and as an `adoptId`. */
  id: string;
  name: string;
  sourceType: string;
  /** URL alert events are sent to, when the source type has one. */
  alertEventsUrl: string | undefined;
  /** Ids of the owning teams. */
  owningTeamIds: string[];
}

/** The alert sources of the account, optionally of one type. */
export interface GetAlertSourcesResult {
  alertSources: GetAlertSourcesItem[];
}

/** Lists alert sources: `GET /v2/alert_sources` (API v2, unpaginated), filtered by type here. */
export async function findAlertSources(
  client: ApiClient,
  sourceType?: string,
): Promise<GetAlertSourcesResult> {
  const all = await listAlertSources(client);
  return {
    alertSources: all
      .filter((s) => sourceType === undefined || s.source_type === sourceType)
      .map(alertSourceItem),
  };
}

/** What the lookups answer of a source (no secret token). */
const alertSourceItem = (s: ApiAlertSource): GetAlertSourcesItem => ({
  id: s.id,
  name: s.name,
  sourceType: s.source_type,
  alertEventsUrl: s.alert_events_url,
  owningTeamIds: s.owning_team_ids ?? [],
});

const alertSourcesLookup = defineLookup({
  name: "getAlertSources",
  args: getAlertSourcesArgs,
  run: (client, args) => findAlertSources(client, args.sourceType),
});

/** Lists the account's alert sources, optionally only those of `sourceType`. */
export const getAlertSources = alertSourcesLookup.get;
/** `getAlertSources` taking Inputs and answering an Output. */
export const getAlertSourcesOutput = alertSourcesLookup.getOutput;

// ---------- getAlertSource ----------

/** Arguments of `getAlertSource`. */
export const getAlertSourceArgs = z.strictObject({
  /** Exact name of the alert source (names are unique in an account). */
  name: lookupName(),
});
export type GetAlertSourceArgs = z.input<typeof getAlertSourceArgs>;

/** Finds an alert source by exact name: `GET /v2/alert_sources` (API v2, unpaginated). */
export async function findAlertSourceByName(client: ApiClient, name: string): Promise<GetAlertSourcesItem> {
  return alertSourceItem(pickByName(await listAlertSources(client), name, "getAlertSource", "alert source"));
}

const alertSourceLookup = defineLookup({
  name: "getAlertSource",
  args: getAlertSourceArgs,
  run: (client, args) => findAlertSourceByName(client, args.name),
});

/** Finds an alert source by name; fails when there is none. */
export const getAlertSource = alertSourceLookup.get;
/** `getAlertSource` taking Inputs and answering an Output. */
export const getAlertSourceOutput = alertSourceLookup.getOutput;
