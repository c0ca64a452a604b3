/**
 * AnnouncementRule: which incidents are announced into which channels, and where their updates
 * follow (`GET/POST /v2/announcement_rules`, `GET/PUT/DELETE /v2/announcement_rules/{id}`; flat
 * bodies, create and update take the same payload). API v2 is the only version. The shapes come
 * from clients newer than the rest of the reference (shared/api/NEWER.md).
 *
 * Normalisation: channel ids and owning team ids are sets (the API answers them in any order);
 * conditions follow the shared engine rules (operation aliases, padded bindings, JSON literals).
 * `templateId` and `owningTeamIds` left out are not managed: the API keeps what it has (the
 * account's default template on create) and the live template is the output `currentTemplateId`.
 */
import { z } from "zod";
import { knownValues, passedOn, warnUnless } from "../provider/checkWarnings";
import { makeProvider } from "../provider/factory";
import { idText, nameText } from "../provider/inputs";
import { keepDeclaredOrder, unorderedSet } from "../provider/normalise";
import { newestMatching, restApi } from "../provider/restApi";
import type { Problem, Props, ResourceSpec } from "../provider/spec";
import {
  type ConditionGroup,
  canonicalConditionGroups,
  conditionGroup,
  conditionGroupsFromApi,
  conditionGroupsPayload,
} from "./shared/engine";

const slackChannelId = idText().superRefine(
  warnUnless(
    (c: string) => !c.startsWith("#"),
    "looks like a channel name: the API takes an id such as C0123ABCD",
  ),
);

/** Inputs of an announcement rule (API v2). */
export const announcementRuleInputs = z.strictObject({
  /** Name of the rule, shown in the dashboard. */
  name: nameText(),
  /**
   * Which incidents are announced: `live_and_closed` (live incidents only), or also triage
   * (`include_triage`), triage and merged, declined and merged, or all of them (`include_all`).
   */
  // reference-newer: AnnouncementRulesCreatePayloadV2.mode enum
  mode: knownValues([
    "live_and_closed",
    "include_triage",
    "include_triage_and_merged",
    "include_declined_and_merged",
    "include_all",
  ]),
  /** Where incident updates are shared once the incident is announced: `none`, `thread` or `thread_and_channel`. */
  // reference-newer: AnnouncementRulesCreatePayloadV2.update_sharing_mode enum
  updateSharingMode: knownValues(["none", "thread", "thread_and_channel"]),
  /** Incidents are announced when any one group holds (all conditions of a group). Empty: every incident. */
  conditionGroups: z.array(conditionGroup).default([]),
  /** Ids of the Slack channels announcements are posted into (e.g. `C0123ABCD`). Order does not matter. */
  slackChannelIds: z.array(slackChannelId).optional(),
  /** Microsoft Teams channels announcements are posted into, each as `team_id/channel_id`. Order does not matter. */
  // reference-newer: AnnouncementRulesCreatePayloadV2.microsoft_teams_channel_ids ("as team_id/channel_id")
  microsoftTeamsChannelIds: z
    .array(z.string().regex(/^[^/\s]+\/[^/\s]+$/, "must be team_id/channel_id"))
    .optional(),
  /** Which private incidents are announced: `all`, those an owning team can see (`owning_teams`), or `none`. */
  // reference-newer: AnnouncementRulesCreatePayloadV2.private_incident_scope enum
  privateIncidentScope: knownValues(["all", "owning_teams", "none"]).default("none"),
  /** What happens to the announcement when the incident no longer matches: `leave_in_place` or `remove`. */
  // reference-newer: AnnouncementRulesCreatePayloadV2.conditions_no_longer_apply_behaviour enum
  conditionsNoLongerApplyBehaviour: knownValues(["leave_in_place", "remove"]).default("leave_in_place"),
  /** Id of the announcement template the posts use. Unset: not managed (the account's default template on create). */
  templateId: idText().optional(),
  /** Ids of the teams that own the rule. Order does not matter. Unset: not managed (the API keeps what it has). */
  owningTeamIds: z.array(idText()).optional(),
  /** Id of an existing announcement rule to take over instead of creating one (`GET /v2/announcement_rules`). */
  adoptId: z.string().min(1).optional(),
});

export type AnnouncementRuleInputs = z.infer<typeof announcementRuleInputs>;
export interface AnnouncementRuleComputed {
  /** The announcement template the rule uses now (equals `templateId` when that is set). */
  currentTemplateId: string;
}

/** AnnouncementRuleV2. */
export interface ApiAnnouncementRule {
  id: string;
  name: string;
  mode: string;
  update_sharing_mode: string;
  condition_groups: any[];
  slack_channel_ids: string[];
  microsoft_teams_channel_ids: string[];
  private_incident_scope?: string;
  conditions_no_longer_apply_behaviour: string;
  template_id?: string;
  owning_team_ids: string[];
  created_at: string;
  updated_at: string;
}

/** AnnouncementRulesCreatePayloadV2 / AnnouncementRulesUpdatePayloadV2 (same shape). */
export function announcementRulePayload(args: AnnouncementRuleInputs): Props {
  return {
    name: args.name,
    mode: args.mode,
    update_sharing_mode: args.updateSharingMode,
    condition_groups: conditionGroupsPayload(args.conditionGroups),
    // Unset channel lists are sent empty: a channel removed from the program stops being announced into.
    slack_channel_ids: args.slackChannelIds ?? [],
    microsoft_teams_channel_ids: args.microsoftTeamsChannelIds ?? [],
    private_incident_scope: args.privateIncidentScope,
    conditions_no_longer_apply_behaviour: args.conditionsNoLongerApplyBehaviour,
    ...(args.templateId !== undefined ? { template_id: args.templateId } : {}),
    ...(args.owningTeamIds !== undefined ? { owning_team_ids: args.owningTeamIds } : {}),
  };
}

/** A set read back in the declared order; unset when neither side has a member. */
function setFromApi(live: string[] | undefined, declared: string[] | undefined): string[] | undefined {
  if ((live ?? []).length === 0 && declared === undefined) return undefined;
  return keepDeclaredOrder(live ?? [], declared);
}

export function announcementRuleFromApi(
  live: ApiAnnouncementRule,
  declared: AnnouncementRuleInputs | undefined,
): AnnouncementRuleInputs {
  // With a declaration, what it leaves out is not managed; without one (export), teams are shown.
  const unmanaged = (key: "templateId" | "owningTeamIds") =>
    declared !== undefined && declared[key] === undefined;
  return {
    name: live.name,
    mode: live.mode as AnnouncementRuleInputs["mode"],
    updateSharingMode: live.update_sharing_mode as AnnouncementRuleInputs["updateSharingMode"],
    conditionGroups: conditionGroupsFromApi(live.condition_groups, declared?.conditionGroups),
    slackChannelIds: setFromApi(live.slack_channel_ids, declared?.slackChannelIds),
    microsoftTeamsChannelIds: setFromApi(
      live.microsoft_teams_channel_ids,
      declared?.microsoftTeamsChannelIds,
    ),
    privateIncidentScope: (live.private_incident_scope ??
      "none") as AnnouncementRuleInputs["privateIncidentScope"],
    conditionsNoLongerApplyBehaviour:
      live.conditions_no_longer_apply_behaviour as AnnouncementRuleInputs["conditionsNoLongerApplyBehaviour"],
    // The default template's id means nothing in a program: only a declared template is read back.
    templateId: declared?.templateId === undefined ? undefined : live.template_id,
    owningTeamIds: unmanaged("owningTeamIds")
      ? undefined
      : setFromApi(live.owning_team_ids, declared?.owningTeamIds),
  };
}

/** Canonical form for diffs: sets sorted (an empty channel list is an unset one), conditions by meaning. */
function canonicalAnnouncementRule(args: AnnouncementRuleInputs): Props {
  const set = (values: string[] | undefined) => (values?.length ? unorderedSet(values) : undefined);
  return {
    ...args,
    conditionGroups: canonicalConditionGroups(args.conditionGroups as ConditionGroup[]),
    slackChannelIds: set(args.slackChannelIds),
    microsoftTeamsChannelIds: set(args.microsoftTeamsChannelIds),
    owningTeamIds: unorderedSet(args.owningTeamIds),
  };
}

/**
 * A rule posts somewhere: warned about when it names no channel (the reference: slack_channel_ids
 * "Required when the organisation uses Slack", microsoft_teams_channel_ids when it uses Microsoft
 * Teams; which it uses is the account's, so the API decides).
 */
export function validateAnnouncementRule(args: AnnouncementRuleInputs): Problem[] {
  if ((args.slackChannelIds?.length ?? 0) + (args.microsoftTeamsChannelIds?.length ?? 0) > 0) return [];
  return [
    {
      path: ["slackChannelIds"],
      message: passedOn(
        "names no channel: the API requires slackChannelIds where the account uses Slack (microsoftTeamsChannelIds where it uses Microsoft Teams)",
      ),
      dependsOn: [["microsoftTeamsChannelIds"]],
      severity: "warning",
    },
  ];
}

/**
 * An announcement rule (API v2): incidents that match `conditionGroups` are announced into the
 * Slack or Microsoft Teams channels, and their updates shared as `updateSharingMode` says.
 *
 * Adopt an existing rule: set `adoptId` to its id (from `GET /v2/announcement_rules`); the first
 * `pulumi up` takes it over and updates it to the declared configuration.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const major = new incident.AnnouncementRule("major-incidents", {
 *   name: "Major incidents",
 *   mode: "live_and_closed",
 *   updateSharingMode: "thread",
 *   conditionGroups: [
 *     { conditions: [{ subject: "incident.severity", operation: "one_of", paramBindings: [{ arrayValue: [{ reference: "severity.major" }] }] }] },
 *   ],
 *   slackChannelIds: ["C0ANNOUNCE1"],
 * });
 * ```
 */
export const announcementRuleSpec: ResourceSpec<AnnouncementRuleInputs, ApiAnnouncementRule> = {
  kind: "AnnouncementRule",
  title: "announcement rule",
  schemaVersion: 1,
  inputs: announcementRuleInputs,
  validate: validateAnnouncementRule,
  replaceOnChanges: [],
  secretOutputs: [],
  computedOutputs: ["currentTemplateId"],
  canonical: canonicalAnnouncementRule,
  idOf: (live) => live.id,
  list: {
    path: "/v2/announcement_rules",
    itemsKey: "announcement_rules",
    operation: "list announcement rules",
    pageSize: 50,
  },
  toInputs: announcementRuleFromApi,
  computed: (live) => ({ currentTemplateId: live.template_id }),
  api: {
    ...restApi({
      collection: "/v2/announcement_rules",
      key: "announcement_rule",
      noun: "announcement rule",
      payload: announcementRulePayload,
    }),
    async findCreated(ctx, args) {
      // Names are not unique: the newest rule of that name is the one a lost create made.
      const all = await ctx.client.listAll<ApiAnnouncementRule>(
        "/v2/announcement_rules",
        "announcement_rules",
        "list announcement rules",
      );
      return newestMatching(all, (r) => r.name === args.name);
    },
  },
};

export const announcementRuleProvider = makeProvider(announcementRuleSpec);
