/**
 * AnnouncementTemplate: which fields and actions an announcement post shows
 * (`GET/POST /v2/announcement_templates`, `GET/PUT/DELETE /v2/announcement_templates/{id}`; flat
 * bodies; the list is unpaginated). API v2 is the only version. The shapes come from clients newer
 * than the rest of the reference (shared/api/NEWER.md). Names are unique in the account.
 *
 * Normalisation: a field or action type may be written with or without its API prefix (`status` or
 * `announcement_post_fields_status`); a rank left out is the item's position in its list; fields and
 * actions are compared in rank order (the API answers them so), an emoji with or without its colons
 * (`:rotating_light:` is `rotating_light`, which the API answers), a rich text's `type` defaults to
 * `markdown`; owning team ids are a set. `owningTeamIds` left out is not managed (the API keeps what
 * it has). Every update sends `fields` and `actions` whole: an empty list removes them all.
 *
 * Delete: the API refuses to delete the account's default template, and a template an announcement
 * rule still uses (point the rule at another template first; a rule whose `templateId` is this
 * template's id is deleted or updated before it by the engine). The default template is the
 * service's own: `pulumi-incident export` leaves it out (look it up with `getAnnouncementTemplate`).
 */
import { z } from "zod";
import { knownValues, passedOn, warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { makeProvider } from "../provider/factory";
import { defineLookup, pickByName } from "../provider/functions";
import { freeText, idText, lookupName, nameText } from "../provider/inputs";
import { canonicalJson, keepDeclaredOrder, unorderedSet } from "../provider/normalise";
import { restApi } from "../provider/restApi";
import type { Problem, Props, ResourceSpec } from "../provider/spec";

const FIELD_PREFIX = "announcement_post_fields_" as const;
const ACTION_PREFIX = "announcement_post_actions_" as const;

const FIELD_TYPES = [
  "status",
  "incident_type",
  "severity",
  "role",
  "description",
  "custom_field",
  "timestamp",
  "creator",
  "slack",
  "rich_text",
] as const;
const ACTION_TYPES = [
  "homepage",
  "subscribe",
  "join_call",
  "jira_ticket",
  "internal_status_page",
  "public_status_page",
  "postmortem",
  "create_channel",
  "view_alert",
  "triage",
  "escalate",
  "share_update",
  "update_status",
  "request_access",
] as const;

type FieldType = (typeof FIELD_TYPES)[number];
type ActionType = (typeof ACTION_TYPES)[number];
/** Each type with or without its API prefix (`status`, `announcement_post_fields_status`). */
const FIELD_TYPE_NAMES = [...FIELD_TYPES, ...FIELD_TYPES.map((t) => `${FIELD_PREFIX}${t}` as const)] as [
  FieldType | `${typeof FIELD_PREFIX}${FieldType}`,
  ...(FieldType | `${typeof FIELD_PREFIX}${FieldType}`)[],
];
const ACTION_TYPE_NAMES = [...ACTION_TYPES, ...ACTION_TYPES.map((t) => `${ACTION_PREFIX}${t}` as const)] as [
  ActionType | `${typeof ACTION_PREFIX}${ActionType}`,
  ...(ActionType | `${typeof ACTION_PREFIX}${ActionType}`)[],
];

/** Without its API prefix (`announcement_post_fields_status` → `status`). */
const shortType = (type: string, prefix: string) =>
  type.startsWith(prefix) ? type.slice(prefix.length) : type;
/** With its API prefix (`status` → `announcement_post_fields_status`). */
const fullType = (type: string, prefix: string) => (type.startsWith(prefix) ? type : `${prefix}${type}`);
/** An emoji name without its colons (`:fire:` → `fire`), as the API answers it. */
const bareEmoji = (emoji: string | undefined) => emoji?.replace(/^:|:$/g, "");

// reference-newer: emoji "as a Slack emoji name" (the name's spelling is Slack's: warned, not refused)
const emoji = z
  .string()
  .superRefine(
    warnUnless(
      (e: string) => /^:?[a-z0-9_+'-]+:?$/.test(e),
      "does not look like a Slack emoji name such as rotating_light (or :rotating_light:)",
    ),
  );
// reference-newer: rank integer; a negative one is our model
const rank = z
  .number()
  .int("must be a whole number")
  .superRefine(warnUnless((v: number) => v >= 0, "is negative"));
const id = idText();

/** A field shown on the announcement post. */
export const announcementTemplateField = z.strictObject({
  /**
   * What the field shows: `status`, `incident_type`, `severity`, `role` (set `incidentRoleId`),
   * `description`, `custom_field` (set `customFieldId`), `timestamp` (set `incidentTimestampId`),
   * `creator`, `slack` or `rich_text` (set `richText`). The API's spelling
   * (`announcement_post_fields_status`) is accepted too.
   */
  // reference-newer: AnnouncementTemplateFieldPayloadV2.field_type enum (either spelling)
  fieldType: knownValues(FIELD_TYPE_NAMES),
  /** Position of the field on the post, lowest first. Unset: its position in `fields`. */
  rank: rank.optional(),
  /** Slack emoji shown next to the field, by name (`rotating_light` or `:rotating_light:`). */
  emoji: emoji.optional(),
  /** Id of the custom field shown, for a `custom_field` field (only for that type). */
  customFieldId: id.optional(),
  /** Id of the incident role shown, for a `role` field (only for that type). */
  incidentRoleId: id.optional(),
  /** Id of the incident timestamp shown, for a `timestamp` field (only for that type). */
  incidentTimestampId: id.optional(),
  /** What a `rich_text` field says (only for that type). */
  richText: z
    .strictObject({
      /** The text, as markdown; incident variables are written `{{incident.reference}}`. */
      contents: freeText().superRefine(warnUnless((v: string) => v !== "", "is empty")),
      /** How `contents` is written: `markdown` (the only kind today, and the default). */
      // reference-newer: rich_text.type enum (markdown)
      type: knownValues(["markdown"]).default("markdown"),
    })
    .optional(),
});

/** A button shown on the announcement post. */
export const announcementTemplateAction = z.strictObject({
  /**
   * What the button does: `homepage`, `subscribe`, `join_call`, `jira_ticket`,
   * `internal_status_page`, `public_status_page`, `postmortem`, `create_channel`, `view_alert`,
   * `triage`, `escalate`, `share_update`, `update_status` or `request_access`. The API's spelling
   * (`announcement_post_actions_homepage`) is accepted too.
   */
  // reference-newer: AnnouncementTemplateActionPayloadV2.action_type enum (either spelling)
  actionType: knownValues(ACTION_TYPE_NAMES),
  /** Position of the button on the post, lowest first. Unset: its position in `actions`. */
  rank: rank.optional(),
  /** Slack emoji shown on the button, by name (`rotating_light` or `:rotating_light:`). */
  emoji: emoji.optional(),
});

/** Inputs of an announcement template (API v2). */
export const announcementTemplateInputs = z.strictObject({
  /** Name of the template, unique in the account. */
  name: nameText(),
  /** Fields shown on the post, in order (or by `rank`). Empty or unset: none. */
  fields: z.array(announcementTemplateField).default([]),
  /** Buttons shown on the post, in order (or by `rank`). Empty or unset: none. */
  actions: z.array(announcementTemplateAction).default([]),
  /** Ids of the teams that own the template. Order does not matter. Unset: not managed (the API keeps what it has). */
  owningTeamIds: z.array(id).optional(),
  /** Id of an existing announcement template to take over instead of creating one (`GET /v2/announcement_templates`). */
  adoptId: z.string().min(1).optional(),
});

export type AnnouncementTemplateInputs = z.infer<typeof announcementTemplateInputs>;
type Field = AnnouncementTemplateInputs["fields"][number];
type Action = AnnouncementTemplateInputs["actions"][number];

export interface AnnouncementTemplateComputed {
  /** Whether this is the account's default template (used by rules that choose none). */
  isDefault: boolean;
}

/** AnnouncementTemplateV2. */
export interface ApiAnnouncementTemplate {
  id: string;
  name: string;
  is_default: boolean;
  fields: ApiField[];
  actions: ApiAction[];
  owning_team_ids: string[];
}
interface ApiField {
  field_type: string;
  rank: number;
  emoji?: string;
  custom_field_id?: string;
  incident_role_id?: string;
  incident_timestamp_id?: string;
  rich_text?: { type: string; contents: string };
  title?: string;
}
interface ApiAction {
  action_type: string;
  rank: number;
  emoji?: string;
  title?: string;
}

/** Each field type's own input (`required for` that type, and only for it). */
const NEEDS = {
  custom_field: "customFieldId",
  role: "incidentRoleId",
  timestamp: "incidentTimestampId",
  rich_text: "richText",
} as const;

const withoutUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** AnnouncementTemplateFieldPayloadV2 (rank: declared, else the position). */
function fieldPayload(f: Field, index: number): Props {
  return withoutUndefined({
    field_type: fullType(f.fieldType, FIELD_PREFIX),
    rank: f.rank ?? index,
    emoji: f.emoji,
    custom_field_id: f.customFieldId,
    incident_role_id: f.incidentRoleId,
    incident_timestamp_id: f.incidentTimestampId,
    rich_text: f.richText
      ? { type: f.richText.type ?? "markdown", contents: f.richText.contents }
      : undefined,
  });
}

/** AnnouncementTemplateActionPayloadV2. */
function actionPayload(a: Action, index: number): Props {
  return withoutUndefined({
    action_type: fullType(a.actionType, ACTION_PREFIX),
    rank: a.rank ?? index,
    emoji: a.emoji,
  });
}

/**
 * AnnouncementTemplatesCreatePayloadV2 / AnnouncementTemplatesUpdatePayloadV2: `fields` and
 * `actions` always (an empty list removes them all), `owning_team_ids` only when managed.
 */
export function announcementTemplatePayload(args: AnnouncementTemplateInputs): Props {
  return {
    name: args.name,
    fields: (args.fields ?? []).map(fieldPayload),
    actions: (args.actions ?? []).map(actionPayload),
    ...(args.owningTeamIds !== undefined ? { owning_team_ids: args.owningTeamIds } : {}),
  };
}

/** A field as the inputs of an export declare it (short type, explicit rank, emoji without colons). */
function fieldFromApi(f: ApiField): Field {
  return withoutUndefined({
    fieldType: shortType(f.field_type, FIELD_PREFIX) as Field["fieldType"],
    rank: f.rank,
    emoji: bareEmoji(f.emoji),
    customFieldId: f.custom_field_id,
    incidentRoleId: f.incident_role_id,
    incidentTimestampId: f.incident_timestamp_id,
    richText: f.rich_text
      ? { contents: f.rich_text.contents, type: f.rich_text.type as "markdown" }
      : undefined,
  });
}

function actionFromApi(a: ApiAction): Action {
  return withoutUndefined({
    actionType: shortType(a.action_type, ACTION_PREFIX) as Action["actionType"],
    rank: a.rank,
    emoji: bareEmoji(a.emoji),
  });
}

/**
 * Rules "type prefix", "rank by position", "rank order", "emoji colons": the list by meaning, each
 * item as its payload says it (full type, explicit rank, bare emoji), in rank order.
 */
export function canonicalItems(items: readonly (Field | Action)[] | undefined): Props[] {
  return (items ?? [])
    .map((item, index) => {
      const payload = "fieldType" in item ? fieldPayload(item, index) : actionPayload(item as Action, index);
      return withoutUndefined({ ...payload, emoji: bareEmoji(payload.emoji as string | undefined) }) as Props;
    })
    .sort((a, b) => (a.rank as number) - (b.rank as number));
}

/**
 * Read-back of a list of fields or actions: the declared list when the live one means the same
 * (rules above); otherwise the live items in rank order, each in its declared spelling when a
 * declared item means the same.
 */
export function itemsFromApi<T extends Field | Action>(live: T[], declared: readonly T[] | undefined): T[] {
  if (declared === undefined) return live;
  if (canonicalJson(canonicalItems(live)) === canonicalJson(canonicalItems(declared))) return [...declared];
  const declaredByMeaning = new Map(
    declared.map((d, i) => [canonicalJson(canonicalItems([{ ...d, rank: d.rank ?? i }])), d]),
  );
  return live.map((l) => declaredByMeaning.get(canonicalJson(canonicalItems([l]))) ?? l);
}

export function announcementTemplateFromApi(
  live: ApiAnnouncementTemplate,
  declared: AnnouncementTemplateInputs | undefined,
): AnnouncementTemplateInputs {
  // With a declaration, owning teams left out are not managed; without one (export), they are shown.
  const teamsUnmanaged = declared !== undefined && declared.owningTeamIds === undefined;
  const teams = live.owning_team_ids ?? [];
  return {
    name: live.name,
    fields: itemsFromApi((live.fields ?? []).map(fieldFromApi), declared?.fields),
    actions: itemsFromApi((live.actions ?? []).map(actionFromApi), declared?.actions),
    owningTeamIds:
      teamsUnmanaged || (declared === undefined && teams.length === 0)
        ? undefined
        : keepDeclaredOrder(teams, declared?.owningTeamIds),
  };
}

/** Canonical form for diffs: fields and actions by meaning, owning teams a set. */
function canonicalAnnouncementTemplate(args: AnnouncementTemplateInputs): Props {
  return {
    ...args,
    fields: canonicalItems(args.fields),
    actions: canonicalItems(args.actions),
    owningTeamIds: unorderedSet(args.owningTeamIds),
  };
}

/**
 * A field type's own input is required (reference-newer: AnnouncementTemplateFieldPayloadV2, e.g.
 * custom_field_id "Required for custom field fields"). Warned only (no published rule): two items
 * of one list at the same rank, and a field type's input set on another type.
 */
export function validateAnnouncementTemplate(args: AnnouncementTemplateInputs): Problem[] {
  const problems: Problem[] = [];
  for (const list of ["fields", "actions"] as const) {
    const items: readonly (Field | Action)[] = args[list] ?? [];
    const firstAt = new Map<number, number>();
    items.forEach((item, i) => {
      const r = item.rank ?? i;
      const other = firstAt.get(r);
      if (other === undefined) firstAt.set(r, i);
      else
        problems.push({
          path: [list, i, "rank"],
          message: passedOn(
            `rank ${r} is also ${list}[${other}]'s${item.rank === undefined ? " (an unset rank is the position)" : ""}: the order of the two on the post is the API's`,
          ),
          dependsOn: [[list, "*", "rank"]],
          severity: "warning",
        });
    });
  }
  (args.fields ?? []).forEach((f, i) => {
    const type = shortType(f.fieldType, FIELD_PREFIX);
    for (const [forType, key] of Object.entries(NEEDS)) {
      const set = f[key] !== undefined;
      if (type === forType && !set)
        problems.push({
          path: ["fields", i, key],
          message: `is required for fieldType ${forType}`,
          dependsOn: [["fields", i, "fieldType"]],
        });
      if (type !== forType && set)
        problems.push({
          path: ["fields", i, key],
          message: passedOn(`is only for fieldType ${forType} (this field is ${type})`),
          dependsOn: [["fields", i, "fieldType"]],
          severity: "warning",
        });
    }
  });
  return problems;
}

/** `GET /v2/announcement_templates`: unpaginated, every template of the account. */
async function listTemplates(client: ApiClient): Promise<ApiAnnouncementTemplate[]> {
  return (
    (
      await client.get<{ announcement_templates: ApiAnnouncementTemplate[] }>(
        "/v2/announcement_templates",
        "list announcement templates",
      )
    ).announcement_templates ?? []
  );
}

/**
 * An announcement template (API v2): the fields and buttons an announcement post shows. Announcement
 * rules choose one with `templateId`; those that choose none use the account's default template.
 *
 * Adopt an existing template: set `adoptId` to its id (from `GET /v2/announcement_templates`, or
 * `getAnnouncementTemplate`); the first `pulumi up` takes it over and updates it to the declared
 * configuration.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const template = new incident.AnnouncementTemplate("major", {
 *   name: "Major incidents",
 *   fields: [
 *     { fieldType: "severity", emoji: "rotating_light" },
 *     { fieldType: "status" },
 *     { fieldType: "rich_text", richText: { contents: "Join {{incident.slack_channel_name}} for updates" } },
 *   ],
 *   actions: [{ actionType: "join_call" }, { actionType: "subscribe" }],
 * });
 *
 * new incident.AnnouncementRule("major-incidents", {
 *   name: "Major incidents",
 *   mode: "live_and_closed",
 *   updateSharingMode: "thread",
 *   slackChannelIds: ["C0ANNOUNCE1"],
 *   templateId: template.id,
 * });
 * ```
 */
export const announcementTemplateSpec: ResourceSpec<AnnouncementTemplateInputs, ApiAnnouncementTemplate> = {
  kind: "AnnouncementTemplate",
  title: "announcement template",
  schemaVersion: 1,
  inputs: announcementTemplateInputs,
  validate: validateAnnouncementTemplate,
  replaceOnChanges: [],
  secretOutputs: [],
  computedOutputs: ["isDefault"],
  canonical: canonicalAnnouncementTemplate,
  idOf: (live) => live.id,
  list: {
    path: "/v2/announcement_templates",
    itemsKey: "announcement_templates",
    operation: "list announcement templates",
  },
  // For `pulumi-incident export`: the account's default template is the service's own (it cannot be
  // deleted); look it up with getAnnouncementTemplate.
  listAll: async (ctx) => (await listTemplates(ctx.client)).filter((t) => !t.is_default),
  toInputs: announcementTemplateFromApi,
  computed: (live) => ({ isDefault: live.is_default }),
  api: {
    ...restApi({
      collection: "/v2/announcement_templates",
      key: "announcement_template",
      noun: "announcement template",
      payload: announcementTemplatePayload,
    }),
    async findCreated(ctx, args) {
      // Names are unique: the template of that name is the one a lost create made.
      return (await listTemplates(ctx.client)).find((t) => t.name === args.name);
    },
  },
};

export const announcementTemplateProvider = makeProvider(announcementTemplateSpec);

// ---------- getAnnouncementTemplate ----------

/** Arguments of `getAnnouncementTemplate`. */
export const getAnnouncementTemplateArgs = z.strictObject({
  /** Exact name of the template, e.g. `Default` (names are unique in the account). */
  name: lookupName(),
});
export type GetAnnouncementTemplateArgs = z.input<typeof getAnnouncementTemplateArgs>;

/** An announcement template of the account. */
export interface GetAnnouncementTemplateResult {
  /** The template's id: use it as an announcement rule's `templateId`, or as an `adoptId`. */
  id: string;
  name: string;
  /** Whether this is the account's default template. */
  isDefault: boolean;
  /** Ids of the teams that own the template. */
  owningTeamIds: string[];
}

/** Finds an announcement template by exact name: `GET /v2/announcement_templates` (unpaginated). */
export async function findAnnouncementTemplateByName(
  client: ApiClient,
  name: string,
): Promise<GetAnnouncementTemplateResult> {
  const t = pickByName(await listTemplates(client), name, "getAnnouncementTemplate", "announcement template");
  return { id: t.id, name: t.name, isDefault: t.is_default, owningTeamIds: t.owning_team_ids ?? [] };
}

const announcementTemplateLookup = defineLookup({
  name: "getAnnouncementTemplate",
  args: getAnnouncementTemplateArgs,
  run: (client, args) => findAnnouncementTemplateByName(client, args.name),
});

/** Finds an announcement template by name (the account's default is `Default`); fails when there is none. */
export const getAnnouncementTemplate = announcementTemplateLookup.get;
/** `getAnnouncementTemplate` taking Inputs and answering an Output. */
export const getAnnouncementTemplateOutput = announcementTemplateLookup.getOutput;
