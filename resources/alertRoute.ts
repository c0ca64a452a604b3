/**
 * AlertRoute: which alerts (by source and conditions) escalate to whom, open which incidents and post
 * where. API v3 (`GET/POST /v3/alert_routes`, `GET/PUT/DELETE /v3/alert_routes/{id}`).
 *
 * API version: v2 and v3 coexist and neither is deprecated; v3 is the newest and the only one with
 * alert grouping (`grouping_config`), message destinations (`message_config`) and escalation on
 * joining alerts (`when_alert_joins_group`). v2's flat incident template cannot express these, and a
 * route written through v3 and read through v2 loses them. Accounts the API has not migrated yet
 * answer 403 `api_not_yet_available` on v3: the error says so.
 *
 * Concurrency: every update carries `version` = latest + 1. The provider sends the version its state
 * last saw + 1; on 409 it reads the route again and retries with the right version only when the live
 * route still equals what the state last saw. When someone else changed it, the update fails and
 * asks for `pulumi refresh`: never overwrites another person's change blindly. Writes to one route
 * are serialised in-process (keyed mutex), so two updates of the same route in one deployment never
 * race each other into a 409.
 *
 * Manages an **alert route**: which alerts (from which alert sources, matching which conditions) it
 * takes, whom it escalates to, how it groups alerts, which incidents it creates (with a title and
 * description template) and where it posts alert messages.
 *
 * ### API version
 *
 * **v3** (`/v3/alert_routes`). v2 and v3 coexist and neither is deprecated. v3 is the newest and the
 * only one that can express alert grouping (`groupingConfig`), message destinations with their own
 * conditions (`messageConfig`) and re-escalation when an alert joins a group
 * (`escalationConfig.whenAlertJoinsGroup`); a route written through v3 and read through v2 would lose
 * them. Accounts the service has not migrated yet answer v3 with 403 `api_not_yet_available`: the
 * error says so (there is no silent fallback to v2).
 *
 * ### Updates, concurrency and conflicts
 *
 * The API requires every update to carry `version` = latest version + 1. The provider sends the
 * version its state last saw + 1. On a 409 it reads the route again: if the live route still equals
 * what the state last saw, it retries with the live version + 1; if someone changed the route since
 * (in the dashboard, another stack, another key), the update **fails** with
 * `alert route … was changed outside this stack … run pulumi refresh` and the other change is left
 * untouched. Run `pulumi refresh` (review the drift), then `pulumi up`. Writes to the same route within
 * one deployment are serialised (a keyed in-process lock), so they never race each other. Nothing is
 * replaced: every field can change in place.
 *
 * ### Adoption
 *
 * `pulumi import` does not work for dynamic resources. To manage an existing route, set
 * `adoptId: "<route id>"` (from the dashboard URL or `GET /v3/alert_routes`): the first `up` reads it,
 * updates it to the program's arguments (one version bump) and manages it from then on. A wrong id fails
 * with `no alert route with that id exists`.
 *
 * ### Normalisation rules (no false drift)
 *
 * The API reads back some fields in a different form than written; these compare equal, and refresh
 * keeps your spelling:
 *
 * | rule | what the API does | what the provider does |
 * |---|---|---|
 * | operation aliases (TF #289) | answers `contains_one_of` for `one_of` (and the reverse) | keeps the declared spelling |
 * | canonical JSON literals (TF #242) | re-encodes JSON literals (keys sorted, `>` as `\u003e`) | compares by meaning, keeps the declared text |
 * | padded param bindings (TF #205) | pads condition binding lists with trailing empty bindings | drops them |
 * | unordered sets | expressions, alert sources and owning team ids in another order | compared as sets, answered in declared order |
 * | rich text vs template (TF #347, PR #462) | stores title/description as a rich-text document (re-encoded, possibly in a dashboard envelope) | compares documents by meaning, keeps the declared template; drift shows as a template when it can be one |
 * | default grace period (TF v5.44.2) | answers `grace_period_seconds: 0` for an unset grace period (`on_each_new_alert`) | reads back unset when unset was declared |
 * | defaulted when unset | answers `auto_decline_enabled: false` when incident creation is enabled and it was unset | reads back unset |
 * | omitted vs empty list | answers incident `condition_groups: []` when unset | reads back unset |
 *
 * Each rule has a named test vector in `test/resources/alertRoute.test.ts`, and the emulator
 * (`emulator/families/alertRoutes.ts`, `emulator/families/shared/engine.ts`) reproduces each read-back
 * so a regression shows up as a diff.
 *
 * ### A route without alert sources
 * `alertSources: []` (or leaving it out) is accepted: the route matches no alert until sources are added,
 * as the dashboard allows.
 */
import { z } from "zod";
import { knownValues, warningProblem, warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { type Change, changesBetween, formatChange } from "../provider/diff";
import { ApiError, unlessNotFound } from "../provider/errors";
import { ADOPT_KEY, makeProvider } from "../provider/factory";
import { defineLookup, pickByName } from "../provider/functions";
import { idText, lookupName, nameText } from "../provider/inputs";
import { namedMutex } from "../provider/mutex";
import { compact, type FieldRenames, pick } from "../provider/naming";
import {
  canonicalJson,
  keepDeclaredOrder,
  omittedWhenEmpty,
  restoreAliases,
  unorderedSet,
} from "../provider/normalise";
import { readEach, walkList } from "../provider/pagedReads";
import {
  type ApiContext,
  type Problem,
  type Props,
  RECOVERED,
  type ResourceSpec,
  WRITE_ALIASES,
} from "../provider/spec";
import {
  bindingFromApi,
  bindingPayload,
  canonicalBinding,
  canonicalConditionGroups,
  canonicalExpressions,
  conditionGroup,
  conditionGroupsFromApi,
  conditionGroupsPayload,
  expression,
  expressionsFromApi,
  expressionsPayload,
  type ParamBinding,
  paramBinding,
} from "./shared/engine";
import { canonicalRichText, keepDeclaredTemplate, templateText, templateToRichText } from "./shared/richText";

export const ALERT_ROUTE_CHANNEL_VISIBILITIES = [
  "assistant",
  "dm",
  "group_chat",
  "private",
  "public",
] as const;
export const ALERT_ROUTE_JOIN_MODES = ["on_each_new_alert", "on_priority_increase"] as const;
export const ALERT_ROUTE_WINDOW_TYPES = ["fixed", "rolling"] as const;
export const ALERT_ROUTE_CUSTOM_FIELD_MERGE = ["append", "first-wins", "last-wins"] as const;
export const ALERT_ROUTE_SEVERITY_MERGE = ["first-wins", "max"] as const;

/** A template string (`{{ alert.title }} on {{ alert.attributes.service }}`), checked at `check`. */
const richTextTemplate = templateText().superRefine(warnUnless((v: string) => v !== "", "is empty"));

/** A chat channel target. */
const channelTarget = z.strictObject({
  /** The channel(s): a literal channel id or a reference (e.g. an expression result). */
  binding: paramBinding,
  /** Visibility of the channel: `public`, `private`, `dm`, `group_chat` or `assistant`. */
  // reference: AlertRouteChannelTargetPayloadV3.channel_visibility enum
  channelVisibility: knownValues(ALERT_ROUTE_CHANNEL_VISIBILITIES),
  /** Render grouped alerts as one group-summary message per channel. */
  groupAlertsSummary: z.boolean().optional(),
});

/** Incident template: what incidents created from this route look like. */
const incidentTemplate = z.strictObject({
  /** Incident title as a template (rich text in the API), e.g. `{{ alert.title }}`. */
  title: richTextTemplate.optional(),
  /** Let the platform generate the title (AI). */
  generateTitle: z.boolean().default(false),
  /** Incident summary as a template (rich text in the API). */
  description: richTextTemplate.optional(),
  /** Let the platform generate the summary (AI). */
  generateDescription: z.boolean().default(false),
  /** Severity binding and how severities of several alerts merge (`first-wins` or `max`). */
  severity: z
    .strictObject({
      /** The severity (a literal severity id or a reference). */
      binding: paramBinding.optional(),
      /** `first-wins` or `max`. */
      // reference: AlertRouteSeverityBindingPayloadV3.merge_strategy enum
      mergeStrategy: knownValues(ALERT_ROUTE_SEVERITY_MERGE),
    })
    .optional(),
  /** Custom field values set on the incident. */
  customFields: z
    .array(
      z.strictObject({
        /** Id of the custom field. */
        customFieldId: idText(),
        /** The value(s). */
        binding: paramBinding,
        /** `append`, `first-wins` or `last-wins`. */
        // reference: AlertRouteCustomFieldBindingPayloadV3.merge_strategy enum
        mergeStrategy: knownValues(ALERT_ROUTE_CUSTOM_FIELD_MERGE),
      }),
    )
    .optional(),
  /** Incident type binding. */
  incidentType: paramBinding.optional(),
  /** Incident mode binding. */
  incidentMode: paramBinding.optional(),
  /** Whether incidents start in triage (binding to a `true`/`false` literal or a reference). */
  startInTriage: paramBinding.optional(),
  /** Teams to add as incident members. */
  membershipTeams: paramBinding.optional(),
});

/** Inputs of an alert route (API v3). */
export const alertRouteInputs = z.strictObject({
  /** Name of the route, for people. Unique names let an interrupted create be recovered. */
  name: nameText(),
  /** Whether the route is active. */
  enabled: z.boolean().default(true),
  /** Private routes only create private incidents. */
  isPrivate: z.boolean().default(false),
  /**
   * Alert sources this route matches, each with conditions its alerts must meet. Order does not
   * matter. Empty: the route matches no alert until sources are added (as the dashboard allows).
   */
  alertSources: z
    .array(
      z.strictObject({
        /** Id of the alert source (e.g. `alertSource.id`). */
        alertSourceId: idText(),
        /** Conditions alerts from this source must meet (any group; all conditions of a group). Empty = all. */
        conditionGroups: z.array(conditionGroup).default([]),
      }),
    )
    .default([]),
  /** Conditions every alert must meet for the route to fire. Empty = always. */
  conditionGroups: z.array(conditionGroup).default([]),
  /** Expressions bindings can refer to (`expressions["<reference>"]`). Order does not matter. */
  expressions: z.array(expression).default([]),
  /** Whom to escalate to. */
  escalationConfig: z
    .strictObject({
      /** Cancel escalations when all alerts are resolved. */
      autoCancelEscalations: z.boolean().default(false),
      /** Escalation targets: escalation paths and/or users, each a binding. */
      escalationTargets: z
        .array(
          z.strictObject({
            /** Escalation path id(s) (literal) or a reference. */
            escalationPaths: paramBinding.optional(),
            /** User id(s) (literal) or a reference. */
            users: paramBinding.optional(),
          }),
        )
        .default([]),
      /** When an alert joins an existing group, when to escalate again. */
      whenAlertJoinsGroup: z
        .strictObject({
          /** `on_each_new_alert` or `on_priority_increase`. */
          // reference: AlertRouteWhenAlertJoinsGroupPayloadV3.mode enum
          mode: knownValues(ALERT_ROUTE_JOIN_MODES),
          /** Seconds to wait before escalating (0–3600). Only for `on_each_new_alert`. */
          // reference: AlertRouteWhenAlertJoinsGroupPayloadV3.grace_period_seconds ("Must be between 0 and 3600")
          gracePeriodSeconds: z
            .number()
            .int("must be a whole number")
            .min(0, "must be 0 or more")
            .max(3600, "must be at most 3600")
            .optional(),
        })
        .optional(),
    })
    .default({ autoCancelEscalations: false, escalationTargets: [] }),
  /** Alert grouping. */
  groupingConfig: z
    .strictObject({
      /** Whether alerts are grouped. */
      enabled: z.boolean(),
      /** Alert references to group on, e.g. `alert.attributes.service`. Only when enabled. */
      groupingKeys: z.array(idText()).optional(),
      /** Grouping window in seconds (60–172800). Only when enabled. */
      // reference: GroupingSettingsV3.window_seconds ("Must be between 60 (1 minute) and 172800 (48 hours)")
      windowSeconds: z
        .number()
        .int("must be a whole number")
        .min(60, "must be at least 60")
        .max(172800, "must be at most 172800")
        .optional(),
      /** `rolling` (window extends with each alert) or `fixed`. Only when enabled. */
      // reference: GroupingSettingsV3.window_type enum
      windowType: knownValues(ALERT_ROUTE_WINDOW_TYPES).optional(),
    })
    .default({ enabled: false }),
  /** Incident creation. */
  incidentConfig: z
    .strictObject({
      /** Whether the route creates incidents. */
      enabled: z.boolean(),
      /** Decline triage incidents when their alerts resolve. Only when enabled; unset = `false`. */
      autoDeclineEnabled: z.boolean().optional(),
      /** Conditions for creating an incident. Only when enabled; unset = always. */
      conditionGroups: z.array(conditionGroup).optional(),
      /** The incident template. Only when enabled. */
      template: incidentTemplate.optional(),
    })
    .default({ enabled: false }),
  /** Where alert messages are posted. */
  messageConfig: z
    .strictObject({
      /** Chat destinations, each with conditions. */
      destinations: z
        .array(
          z.strictObject({
            /** Conditions for this destination. Empty = always. */
            conditionGroups: z.array(conditionGroup).default([]),
            /** Slack channels. */
            slackTargets: channelTarget.optional(),
            /** Microsoft Teams channels. */
            msTeamsTargets: channelTarget.optional(),
          }),
        )
        .default([]),
      /** Message template binding. */
      template: paramBinding.optional(),
    })
    .default({ destinations: [] }),
  /** Teams that own the route. Order does not matter. Unset = not managed here. */
  owningTeamIds: z.array(idText()).optional(),
  /** Id of an existing alert route to take over instead of creating one (from `GET /v3/alert_routes`). */
  adoptId: z.string().min(1).optional(),
});

export type AlertRouteInputs = z.infer<typeof alertRouteInputs>;
type IncidentTemplate = z.infer<typeof incidentTemplate>;

/** Outputs beyond the inputs. */
export interface AlertRouteComputed {
  /** The route's version; the API increments it on every change (updates send it + 1). */
  version: number;
  /** When the route was created. */
  createdAt: string | undefined;
  /** When the route was last updated. */
  updatedAt: string | undefined;
}

/** The live `AlertRouteV3` (engine blocks in their response shapes). */
export interface ApiAlertRouteV3 {
  id: string;
  name: string;
  enabled: boolean;
  is_private: boolean;
  alert_sources: { alert_source_id: string; condition_groups: any[] }[];
  condition_groups: any[];
  expressions: any[];
  escalation_config: {
    auto_cancel_escalations: boolean;
    escalation_targets: { escalation_paths?: any; users?: any }[];
    when_alert_joins_group?: { mode: string; grace_period_seconds?: number };
  };
  grouping_config: {
    default: {
      enabled: boolean;
      grouping_keys?: { reference: string }[];
      window_seconds?: number;
      window_type?: string;
    };
  };
  incident_config: {
    enabled: boolean;
    auto_decline_enabled?: boolean;
    condition_groups?: any[];
    template?: any;
  };
  message_config: { destinations: any[]; template?: any };
  owning_team_ids?: string[];
  version: number;
  created_at?: string;
  updated_at?: string;
}

// ---------- payload ----------

const literalBinding = (template: string) => ({ value: { literal: templateToRichText(template) } });

function templatePayload(t: IncidentTemplate): Props {
  const b = (x: ParamBinding | undefined) => (x ? { binding: bindingPayload(x) } : undefined);
  return compact({
    name: compact({ autogenerated: t.generateTitle, binding: t.title ? literalBinding(t.title) : undefined }),
    summary:
      t.description !== undefined || t.generateDescription
        ? compact({
            autogenerated: t.generateDescription,
            binding: t.description ? literalBinding(t.description) : undefined,
          })
        : undefined,
    severity:
      t.severity &&
      compact({
        binding: t.severity.binding && bindingPayload(t.severity.binding),
        merge_strategy: t.severity.mergeStrategy,
      }),
    custom_fields: t.customFields?.map((f) => ({
      custom_field_id: f.customFieldId,
      binding: bindingPayload(f.binding),
      merge_strategy: f.mergeStrategy,
    })),
    incident_type: b(t.incidentType),
    incident_mode: b(t.incidentMode),
    start_in_triage: b(t.startInTriage),
    membership_teams: b(t.membershipTeams),
  });
}

function targetPayload(t: z.infer<typeof channelTarget> | undefined): Props | undefined {
  return (
    t &&
    compact({
      binding: bindingPayload(t.binding),
      channel_visibility: t.channelVisibility,
      group_alerts_summary: t.groupAlertsSummary,
    })
  );
}

/** The `AlertRoutesCreatePayloadV3` (and, with `version`, the `AlertRoutesUpdatePayloadV3`). */
export function alertRoutePayload(args: AlertRouteInputs, version?: number): Props {
  const g = args.groupingConfig;
  const ic = args.incidentConfig;
  const jg = args.escalationConfig.whenAlertJoinsGroup;
  return compact({
    name: args.name,
    enabled: args.enabled,
    is_private: args.isPrivate,
    alert_sources: args.alertSources.map((s) => ({
      alert_source_id: s.alertSourceId,
      condition_groups: conditionGroupsPayload(s.conditionGroups),
    })),
    condition_groups: conditionGroupsPayload(args.conditionGroups),
    expressions: expressionsPayload(args.expressions),
    escalation_config: compact({
      auto_cancel_escalations: args.escalationConfig.autoCancelEscalations,
      escalation_targets: args.escalationConfig.escalationTargets.map((t) =>
        compact({
          escalation_paths: t.escalationPaths && bindingPayload(t.escalationPaths),
          users: t.users && bindingPayload(t.users),
        }),
      ),
      when_alert_joins_group: jg && compact({ mode: jg.mode, grace_period_seconds: jg.gracePeriodSeconds }),
    }),
    grouping_config: {
      default: compact({
        enabled: g.enabled,
        grouping_keys: g.groupingKeys?.map((reference) => ({ reference })),
        window_seconds: g.windowSeconds,
        window_type: g.windowType,
      }),
    },
    incident_config: ic.enabled
      ? compact({
          enabled: true,
          auto_decline_enabled: ic.autoDeclineEnabled ?? false,
          condition_groups: ic.conditionGroups && conditionGroupsPayload(ic.conditionGroups),
          template: ic.template && templatePayload(ic.template),
        })
      : { enabled: false },
    message_config: compact({
      destinations: args.messageConfig.destinations.map((d) =>
        compact({
          condition_groups: conditionGroupsPayload(d.conditionGroups),
          slack_targets: targetPayload(d.slackTargets),
          ms_teams_targets: targetPayload(d.msTeamsTargets),
        }),
      ),
      template: args.messageConfig.template && bindingPayload(args.messageConfig.template),
    }),
    owning_team_ids: args.owningTeamIds,
    version,
  });
}

// ---------- read-back ----------

/** Rule "rich text vs template": the declared template when the stored document means the same. */
function templateFromApi(live: any, declared: string | undefined): string | undefined {
  const literal = live?.binding?.value?.literal;
  return typeof literal === "string" ? keepDeclaredTemplate(literal, declared) : undefined;
}

/** Two API bindings with the same values (labels aside). */
function sameBinding(a: any, b: any): boolean {
  if (!a || !b) return false;
  return canonicalJson(bindingFromApi(a, undefined)) === canonicalJson(bindingFromApi(b, undefined));
}

function optBinding(live: any, declared: ParamBinding | undefined): ParamBinding | undefined {
  return live ? bindingFromApi(live, declared) : undefined;
}

function templateFromLive(live: any, declared: IncidentTemplate | undefined): IncidentTemplate {
  const fields: any[] | undefined = live.custom_fields;
  return compact({
    title: templateFromApi(live.name, declared?.title),
    generateTitle: live.name?.autogenerated ?? false,
    description: templateFromApi(live.summary, declared?.description),
    generateDescription: live.summary?.autogenerated ?? false,
    severity: live.severity && {
      ...compact({ binding: optBinding(live.severity.binding, declared?.severity?.binding) }),
      mergeStrategy: live.severity.merge_strategy,
    },
    customFields: fields?.map((f) => {
      const mine = declared?.customFields?.find((d) => d.customFieldId === f.custom_field_id);
      return {
        customFieldId: f.custom_field_id,
        binding: bindingFromApi(f.binding, mine?.binding),
        mergeStrategy: f.merge_strategy,
      };
    }),
    incidentType: optBinding(live.incident_type?.binding, declared?.incidentType),
    incidentMode: optBinding(live.incident_mode?.binding, declared?.incidentMode),
    startInTriage: optBinding(live.start_in_triage?.binding, declared?.startInTriage),
    membershipTeams: optBinding(live.membership_teams?.binding, declared?.membershipTeams),
  }) as IncidentTemplate;
}

function targetFromApi(live: any, declared: z.infer<typeof channelTarget> | undefined) {
  return (
    live &&
    compact({
      binding: bindingFromApi(live.binding, declared?.binding),
      channelVisibility: live.channel_visibility,
      groupAlertsSummary: live.group_alerts_summary,
    })
  );
}

/**
 * Maps the live route to inputs, keeping the declared spelling where the meaning is equal (rules
 * documented in docs/resources/AlertRoute.md and tested as vectors).
 */
export function alertRouteFromApi(
  live: ApiAlertRouteV3,
  declared: AlertRouteInputs | undefined,
): AlertRouteInputs {
  // Rule "alert sources as a set": matched by id, answered in the declared order.
  const sources = live.alert_sources.map((s) => {
    const mine = declared?.alertSources.find((d) => d.alertSourceId === s.alert_source_id);
    return {
      alertSourceId: s.alert_source_id,
      conditionGroups: conditionGroupsFromApi(s.condition_groups, mine?.conditionGroups),
    };
  });
  if (declared) {
    const order = new Map(declared.alertSources.map((s, i) => [s.alertSourceId, i]));
    sources.sort((a, b) => (order.get(a.alertSourceId) ?? 1e9) - (order.get(b.alertSourceId) ?? 1e9));
  }
  const ec = live.escalation_config;
  const jg = ec.when_alert_joins_group;
  const declaredJg = declared?.escalationConfig.whenAlertJoinsGroup;
  const g = live.grouping_config.default;
  const ic = live.incident_config;
  const dic = declared?.incidentConfig;
  const mc = live.message_config;
  return {
    name: live.name,
    enabled: live.enabled,
    isPrivate: live.is_private,
    alertSources: sources,
    conditionGroups: conditionGroupsFromApi(live.condition_groups, declared?.conditionGroups),
    expressions: expressionsFromApi(live.expressions, declared?.expressions),
    escalationConfig: compact({
      autoCancelEscalations: ec.auto_cancel_escalations,
      escalationTargets: ec.escalation_targets.map((t, i) => {
        const mine = declared?.escalationConfig.escalationTargets[i];
        return compact({
          escalationPaths: optBinding(t.escalation_paths, mine?.escalationPaths),
          // Rule "echoed users" (TF #390/#401): the API echoes a target's escalation-paths binding
          // into its `users`; users the user did not write, equal to that echo, read back as unset.
          users:
            mine?.users === undefined && sameBinding(t.users, t.escalation_paths)
              ? undefined
              : optBinding(t.users, mine?.users),
        });
      }),
      whenAlertJoinsGroup: jg && {
        mode: jg.mode as (typeof ALERT_ROUTE_JOIN_MODES)[number],
        // Rule "default grace period": the API answers 0 for an unset grace period.
        ...(jg.grace_period_seconds === undefined ||
        (jg.grace_period_seconds === 0 &&
          declaredJg !== undefined &&
          declaredJg.gracePeriodSeconds === undefined)
          ? {}
          : { gracePeriodSeconds: jg.grace_period_seconds }),
      },
    }) as AlertRouteInputs["escalationConfig"],
    groupingConfig: compact({
      enabled: g.enabled,
      // Grouping keys are ordered as written (the API keeps their order).
      groupingKeys: g.grouping_keys?.map((k) => k.reference),
      windowSeconds: g.window_seconds,
      windowType: g.window_type as (typeof ALERT_ROUTE_WINDOW_TYPES)[number] | undefined,
    }) as AlertRouteInputs["groupingConfig"],
    incidentConfig: compact({
      enabled: ic.enabled,
      // Rule "defaulted when unset": `auto_decline_enabled` is sent as false when unset.
      autoDeclineEnabled:
        ic.auto_decline_enabled === false && dic?.autoDeclineEnabled === undefined
          ? undefined
          : ic.auto_decline_enabled,
      // Rule "omitted vs empty list": an unset condition list is answered as [].
      conditionGroups:
        ic.condition_groups === undefined
          ? undefined
          : omittedWhenEmpty(
              conditionGroupsFromApi(ic.condition_groups, dic?.conditionGroups),
              dic?.conditionGroups,
            ),
      template: ic.template && templateFromLive(ic.template, dic?.template),
    }) as AlertRouteInputs["incidentConfig"],
    messageConfig: compact({
      destinations: (mc.destinations ?? []).map((d: any, i: number) => {
        const mine = declared?.messageConfig.destinations[i];
        return compact({
          conditionGroups: conditionGroupsFromApi(d.condition_groups, mine?.conditionGroups),
          slackTargets: targetFromApi(d.slack_targets, mine?.slackTargets),
          msTeamsTargets: targetFromApi(d.ms_teams_targets, mine?.msTeamsTargets),
        });
      }),
      template: optBinding(mc.template, declared?.messageConfig.template),
    }) as AlertRouteInputs["messageConfig"],
    // Rule "unordered sets": owning team ids in the declared order when the members are equal.
    owningTeamIds: omittedWhenEmpty(
      keepDeclaredOrder(live.owning_team_ids, declared?.owningTeamIds),
      declared?.owningTeamIds,
    ),
  } as AlertRouteInputs;
}

// ---------- canonical ----------

const canonBinding = (b: ParamBinding | undefined) => (b ? canonicalBinding(b) : undefined);
const canonTemplate = (t: string | undefined) => (t === undefined ? undefined : canonicalRichText(t));

/** Canonical form for diffs: every normalisation rule applied to both sides. */
export function canonicalAlertRoute(args: AlertRouteInputs): Props {
  const t = args.incidentConfig?.template;
  const jg = args.escalationConfig?.whenAlertJoinsGroup;
  return {
    ...args,
    alertSources: [...(args.alertSources ?? [])]
      .map((s) => ({
        alertSourceId: s.alertSourceId,
        conditionGroups: canonicalConditionGroups(s.conditionGroups),
      }))
      .sort((a, b) => a.alertSourceId.localeCompare(b.alertSourceId)),
    conditionGroups: canonicalConditionGroups(args.conditionGroups),
    expressions: canonicalExpressions(args.expressions),
    escalationConfig: args.escalationConfig && {
      ...args.escalationConfig,
      escalationTargets: args.escalationConfig.escalationTargets?.map((x) => ({
        escalationPaths: canonBinding(x.escalationPaths),
        users: canonBinding(x.users),
      })),
      whenAlertJoinsGroup: jg && {
        mode: jg.mode,
        gracePeriodSeconds: jg.gracePeriodSeconds === 0 ? undefined : jg.gracePeriodSeconds,
      },
    },
    incidentConfig: args.incidentConfig && {
      ...args.incidentConfig,
      autoDeclineEnabled: args.incidentConfig.enabled
        ? (args.incidentConfig.autoDeclineEnabled ?? false)
        : undefined,
      conditionGroups:
        args.incidentConfig.conditionGroups && args.incidentConfig.conditionGroups.length > 0
          ? canonicalConditionGroups(args.incidentConfig.conditionGroups)
          : undefined,
      template: t && {
        ...t,
        title: canonTemplate(t.title),
        description: canonTemplate(t.description),
        severity: t.severity && { ...t.severity, binding: canonBinding(t.severity.binding) },
        customFields: t.customFields
          ?.map((f) => ({ ...f, binding: canonicalBinding(f.binding) }))
          .sort((a, b) => a.customFieldId.localeCompare(b.customFieldId)),
        incidentType: canonBinding(t.incidentType),
        incidentMode: canonBinding(t.incidentMode),
        startInTriage: canonBinding(t.startInTriage),
        membershipTeams: canonBinding(t.membershipTeams),
      },
    },
    messageConfig: args.messageConfig && {
      destinations: args.messageConfig.destinations?.map((d) => ({
        ...d,
        conditionGroups: canonicalConditionGroups(d.conditionGroups),
        slackTargets: d.slackTargets && {
          ...d.slackTargets,
          binding: canonicalBinding(d.slackTargets.binding),
        },
        msTeamsTargets: d.msTeamsTargets && {
          ...d.msTeamsTargets,
          binding: canonicalBinding(d.msTeamsTargets.binding),
        },
      })),
      template: canonBinding(args.messageConfig.template),
    },
    owningTeamIds:
      args.owningTeamIds && args.owningTeamIds.length > 0 ? unorderedSet(args.owningTeamIds) : undefined,
  };
}

// ---------- cross-field rules ----------

/**
 * Refused where the reference says so (each rule names its source); the rest is our model, warned
 * about and sent.
 */
function validateAlertRoute(args: AlertRouteInputs): Problem[] {
  const problems: Problem[] = [];
  const warn = (...args: Parameters<typeof warningProblem>) => problems.push(warningProblem(...args));
  const jg = args.escalationConfig.whenAlertJoinsGroup;
  // reference: AlertRouteWhenAlertJoinsGroupPayloadV3.grace_period_seconds ("must be unset when mode
  // is 'on_priority_increase'")
  if (jg?.mode === "on_priority_increase" && jg.gracePeriodSeconds !== undefined) {
    problems.push({
      path: ["escalationConfig", "whenAlertJoinsGroup", "gracePeriodSeconds"],
      message: "only applies when mode is on_each_new_alert; unset it for on_priority_increase",
      dependsOn: [["escalationConfig", "whenAlertJoinsGroup", "mode"]],
    });
  }
  args.escalationConfig.escalationTargets.forEach((t, i) => {
    if (!t.escalationPaths && !t.users)
      warn(["escalationConfig", "escalationTargets", i], "sets neither escalationPaths nor users");
  });
  const g = args.groupingConfig;
  // reference: GroupingSettingsV3 (grouping_keys, window_seconds: "Only set when grouping is enabled")
  if (!g.enabled) {
    for (const key of ["groupingKeys", "windowSeconds", "windowType"] as const) {
      if (g[key] !== undefined) {
        problems.push({
          path: ["groupingConfig", key],
          message: "only applies when grouping is enabled",
          dependsOn: [["groupingConfig", "enabled"]],
        });
      }
    }
  }
  const ic = args.incidentConfig;
  const enabled = [["incidentConfig", "enabled"]];
  if (!ic.enabled) {
    // reference: AlertRouteIncidentConfigPayloadV3.auto_decline_enabled ("must be unset otherwise"),
    // condition_groups ("Only set when incident creation is enabled"); the template: our model.
    for (const key of ["autoDeclineEnabled", "conditionGroups"] as const) {
      // An empty condition list says nothing, and is not sent (the payload is `{ enabled: false }`,
      // as the reference's condition_groups "Only set when incident creation is enabled" asks): the
      // Terraform provider's migration guide (CHANGELOG v5.41.0) has such a route "leave
      // condition_groups empty", and its acceptance test TestAccIncidentAlertRouteOperationAlias
      // applies `condition_groups = []` there.
      if (key === "conditionGroups" && ic.conditionGroups?.length === 0) continue;
      if (ic[key] !== undefined) {
        problems.push({
          path: ["incidentConfig", key],
          message: "only applies when incident creation is enabled",
          dependsOn: enabled,
        });
      }
    }
    if (ic.template !== undefined)
      warn(["incidentConfig", "template"], "only applies when incident creation is enabled", enabled);
  } else if (!ic.template) {
    warn(["incidentConfig", "template"], "is not set, and incident creation is enabled", enabled);
  } else if (ic.template.title === undefined && !ic.template.generateTitle) {
    warn(["incidentConfig", "template", "title"], "sets neither title nor generateTitle", [
      ["incidentConfig", "template", "generateTitle"],
    ]);
  }
  args.messageConfig.destinations.forEach((d, i) => {
    if (!d.slackTargets && !d.msTeamsTargets)
      warn(["messageConfig", "destinations", i], "sets neither slackTargets nor msTeamsTargets");
  });
  const ids = new Set<string>();
  args.alertSources.forEach((s, i) => {
    if (ids.has(s.alertSourceId)) warn(["alertSources", i, "alertSourceId"], "lists this alert source twice");
    ids.add(s.alertSourceId);
  });
  const refs = new Set<string>();
  args.expressions.forEach((e, i) => {
    if (refs.has(e.reference))
      warn(["expressions", i, "reference"], "is the reference of another expression too");
    refs.add(e.reference);
  });
  return problems;
}

// ---------- API ----------

const BASE = "/v3/alert_routes";
/** AlertRoutesV3List by page: slim routes (id and name), not the routes themselves. */
export const ALERT_ROUTES_LIST = {
  path: BASE,
  itemsKey: "alert_routes",
  operation: "list alert routes",
  pageSize: 25,
} as const;
const routePath = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/** Writes to one route run one at a time in this process (the API would 409 the second). */
export function alertRouteLock(id: string) {
  return namedMutex(`alert-route:${id}`);
}

/**
 * API field paths whose input path differs beyond case: the flattened `grouping_config.default`,
 * and the template's `name`/`summary` (inputs `title`/`description`, each one template string).
 */
const alertRouteFieldRenames: FieldRenames = {
  "grouping_config.default": "groupingConfig",
  "incident_config.template.name": "incidentConfig.template.title",
  "incident_config.template.name.binding.*": "incidentConfig.template.title",
  "incident_config.template.name.autogenerated": "incidentConfig.template.generateTitle",
  "incident_config.template.summary": "incidentConfig.template.description",
  "incident_config.template.summary.binding.*": "incidentConfig.template.description",
  "incident_config.template.summary.autogenerated": "incidentConfig.template.generateDescription",
};

/** The route, or undefined when it no longer exists. */
const readRoute = (ctx: ApiContext, id: string): Promise<ApiAlertRouteV3 | undefined> =>
  unlessNotFound(showRoute(ctx, id));

async function showRoute(ctx: ApiContext, id: string): Promise<ApiAlertRouteV3> {
  return (await ctx.client.get<{ alert_route: ApiAlertRouteV3 }>(routePath(id), "show alert route"))
    .alert_route;
}

/** The inputs part of a prior state (what the state last saw of the live route). */
function priorInputs(olds: Props): AlertRouteInputs | undefined {
  const parsed = alertRouteInputs.safeParse(pick(olds, routeInputKeys));
  return parsed.success ? parsed.data : undefined;
}

const routeInputKeys = Object.keys(alertRouteInputs.shape).filter((key) => key !== ADOPT_KEY);

/**
 * What someone changed in the live route since the state last saw it (input paths, seen → live;
 * none when nothing was seen). `aliases`: answers the API gave to this stack's writes in another
 * form (rule "write-time aliases"), which are no change.
 */
function changedSince(
  live: ApiAlertRouteV3,
  seen: AlertRouteInputs | undefined,
  aliases: Record<string, string> = {},
): Change[] {
  if (!seen) return [];
  const mapped = restoreAliases(alertRouteFromApi(live, seen), seen, aliases);
  return changesBetween(canonicalAlertRoute(seen), canonicalAlertRoute(mapped));
}

/** How many 409s an update absorbs (each after a fresh read showing nobody else changed the route). */
const CONFLICT_RETRIES = 3;

/**
 * The update with the API's version counter: send the version the state last saw + 1; on 409 read
 * again and retry with the live version + 1 only when the live route still equals what the state
 * last saw; otherwise fail and ask for a refresh (someone else's change is never overwritten).
 */
export async function updateAlertRouteWithVersion(
  ctx: ApiContext,
  id: string,
  args: AlertRouteInputs,
  olds: Props,
): Promise<ApiAlertRouteV3> {
  let seen = olds[RECOVERED] === true ? undefined : priorInputs(olds);
  let version: number | undefined = typeof olds.version === "number" ? olds.version : undefined;
  for (let attempt = 0; ; attempt++) {
    if (version === undefined) {
      const live = await readRoute(ctx, id);
      if (!live) {
        throw new ApiError({
          operation: "update alert route",
          status: 404,
          type: "not_found",
          details: [{ code: "not_found", message: `alert route ${id} no longer exists` }],
        });
      }
      // After a 409: when the live route already is what this update writes, the write landed (its
      // response was lost and the client's retry carried a spent version): done, nothing to overwrite.
      const wanted = attempt > 0 ? priorInputs(args) : undefined;
      const aliases = olds[WRITE_ALIASES] ?? {};
      if (wanted && changedSince(live, wanted, aliases).length === 0) return live;
      const elsewhere = changedSince(live, seen, aliases);
      if (elsewhere.length > 0) throw staleError(id, live.version, olds.version, elsewhere);
      version = live.version;
      seen = undefined; // checked: what we saw is what is live
    }
    try {
      return (
        await ctx.client.put<{ alert_route: ApiAlertRouteV3 }>(
          routePath(id),
          "update alert route",
          alertRoutePayload(args, version + 1),
        )
      ).alert_route;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409 || attempt >= CONFLICT_RETRIES) throw error;
      // Stale version: read again (next loop) and decide.
      seen = seen ?? priorInputs(olds);
      version = undefined;
    }
  }
}

/** How many of the changes made elsewhere a stale-state error names. */
const CHANGES_NAMED = 5;

function staleError(id: string, liveVersion: number, seenVersion: unknown, changes: Change[]): Error {
  const named = changes.slice(0, CHANGES_NAMED).map(formatChange);
  if (changes.length > CHANGES_NAMED) named.push(`${changes.length - CHANGES_NAMED} more`);
  return new Error(
    `alert route ${id} was changed outside this stack (live version ${liveVersion}, last seen version ${String(
      seenVersion ?? "unknown",
    )}; ${named.join("; ")}): run \`pulumi refresh\` to see the change, then \`pulumi up\` again; not overwriting it blindly`,
  );
}

/**
 * An alert route (API v3): which alerts, from which alert sources, escalate to whom, create which
 * incidents and post to which channels. Updates honour the API's version counter and never overwrite
 * a change made elsewhere. Adopt an existing route with `adoptId` (its id from `GET /v3/alert_routes`).
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * declare const datadog: incident.AlertSource; // declared elsewhere in the program
 * declare const paymentsPath: incident.EscalationPath;
 *
 * new incident.AlertRoute("payments", {
 *   name: "Payments alerts",
 *   alertSources: [
 *     {
 *       alertSourceId: datadog.id, // an AlertSource resource, or an id
 *       conditionGroups: [
 *         {
 *           conditions: [
 *             {
 *               subject: "alert.title",
 *               operation: "one_of",
 *               paramBindings: [{ arrayValue: [{ literal: "Disk full" }, { literal: "OOM" }] }],
 *             },
 *           ],
 *         },
 *       ],
 *     },
 *   ],
 *   expressions: [
 *     {
 *       label: "Service",
 *       reference: "svc",
 *       rootReference: "alert.attributes.service",
 *       operations: [{ operationType: "first" }],
 *     },
 *   ],
 *   escalationConfig: {
 *     autoCancelEscalations: true,
 *     escalationTargets: [{ escalationPaths: { arrayValue: [{ literal: paymentsPath.id }] } }],
 *     whenAlertJoinsGroup: { mode: "on_each_new_alert", gracePeriodSeconds: 300 },
 *   },
 *   groupingConfig: { enabled: true, groupingKeys: ["alert.attributes.service"], windowSeconds: 900 },
 *   incidentConfig: {
 *     enabled: true,
 *     autoDeclineEnabled: true,
 *     template: {
 *       title: "{{ alert.title }} in {{ alert.attributes.service }}",
 *       description: "{{ alert.description }}",
 *       severity: { binding: { value: { literal: "01SEVMAJOR" } }, mergeStrategy: "max" },
 *     },
 *   },
 *   messageConfig: {
 *     destinations: [
 *       { slackTargets: { binding: { value: { literal: "C0123456" } }, channelVisibility: "public" } },
 *     ],
 *   },
 *   owningTeamIds: ["01TEAMPAYMENTS"],
 * });
 * ```
 */
export const alertRouteSpec: ResourceSpec<AlertRouteInputs, ApiAlertRouteV3> = {
  kind: "AlertRoute",
  title: "alert route",
  schemaVersion: 1,
  claimAs: "alert_route",
  inputs: alertRouteInputs,
  validate: validateAlertRoute,
  replaceOnChanges: [],
  secretOutputs: [],
  computedOutputs: ["version", "createdAt", "updatedAt"],
  idOf: (live) => live.id,
  // For `pulumi-incident export`: the list answers slim routes, so each is shown.
  listAll: async (ctx) => {
    const slim = await walkList<{ id: string }>(ctx.client, ALERT_ROUTES_LIST);
    return readEach(
      slim.map((r) => r.id),
      (id) => readRoute(ctx, id),
    );
  },
  // No reads by page (ResourceSpec.list): AlertRoutesV3List answers AlertRouteSlimV3 (id, name), not the route.
  toInputs: alertRouteFromApi,
  canonical: canonicalAlertRoute,
  computed: (live) => ({ version: live.version, createdAt: live.created_at, updatedAt: live.updated_at }),
  fieldRenames: alertRouteFieldRenames,
  api: {
    create: async (ctx, args) => ({
      live: (
        await ctx.client.post<{ alert_route: ApiAlertRouteV3 }>(
          BASE,
          "create alert route",
          alertRoutePayload(args),
        )
      ).alert_route,
    }),
    read: showRoute,
    update: (ctx, id, args, olds) =>
      alertRouteLock(id).run(async () => ({ live: await updateAlertRouteWithVersion(ctx, id, args, olds) })),
    delete: (ctx, id) => alertRouteLock(id).run(() => ctx.client.delete(routePath(id), "delete alert route")),
    async findCreated(ctx, args) {
      const slim = await ctx.client.listAll<{ id: string; name: string }>(
        BASE,
        "alert_routes",
        "list alert routes",
      );
      const match = slim.filter((r) => r.name === args.name);
      return match.length === 1 ? readRoute(ctx, (match[0] as { id: string }).id) : undefined;
    },
  },
};

export const alertRouteProvider = makeProvider(alertRouteSpec);

// ---------- getAlertRoute ----------

/** Arguments of `getAlertRoute`. */
export const getAlertRouteArgs = z.strictObject({
  /** Exact name of the alert route. */
  name: lookupName(),
});
export type GetAlertRouteArgs = z.input<typeof getAlertRouteArgs>;

/** An alert route of the account (what the list answers: `AlertRouteSlimV3`). */
export interface GetAlertRouteResult {
  /** The route's id: use it as an `adoptId`. */
  id: string;
  name: string;
  /** Whether the route is enabled. */
  enabled: boolean;
}

/** Finds an alert route by exact name: `GET /v3/alert_routes` (API v3, paginated, every page read). */
export async function findAlertRouteByName(client: ApiClient, name: string): Promise<GetAlertRouteResult> {
  const slim = await client.listAll<{ id: string; name: string; enabled: boolean }>(
    BASE,
    "alert_routes",
    "list alert routes",
    {},
    25,
  );
  const r = pickByName(slim, name, "getAlertRoute", "alert route");
  return { id: r.id, name: r.name, enabled: r.enabled };
}

const alertRouteLookup = defineLookup({
  name: "getAlertRoute",
  args: getAlertRouteArgs,
  run: (client, args) => findAlertRouteByName(client, args.name),
});

/** Finds an alert route by name; fails when there is none (or several share it). */
export const getAlertRoute = alertRouteLookup.get;
/** `getAlertRoute` taking Inputs and answering an Output. */
export const getAlertRouteOutput = alertRouteLookup.getOutput;
