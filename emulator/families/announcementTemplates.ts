/**
 * Emulator family: announcement templates (API v2; shapes from reference-newer.json, shared/api/NEWER.md).
 * `GET/POST /v2/announcement_templates` (unpaginated), `GET/PUT/DELETE /v2/announcement_templates/{id}`;
 * flat bodies.
 *
 * Behaviour beyond the reference shapes, from the fields' documentation:
 * - names are unique in the account (422 on `name`) and must not be blank;
 * - a create may omit `fields` and `actions` (none); an update must send both (the reference's
 *   required list: an empty array removes them all); an update that omits `owning_team_ids` keeps
 *   them; each must be a team of the account (400 `invalid_reference`);
 * - a field's `custom_field_id` / `incident_role_id` / `incident_timestamp_id` / `rich_text` is
 *   required for the matching `field_type` (422 on it); a custom field or incident role named must
 *   exist (400 `invalid_reference`);
 * - `emoji` is a Slack emoji name, `rotating_light` or `:rotating_light:` (422 otherwise);
 * - `is_default` and each field's and action's `title` are server-computed.
 * Read-back quirks (each the reason for a normalisation rule of the provider): fields and actions are
 * answered in rank order (not as written), an emoji without its colons, owning team ids in another
 * order than written.
 *
 * Seeded like a fresh account: the default template (`01HDEFAULTANNOUNCETEMPLATE`, "Default"), the
 * one an announcement rule created without `template_id` uses. Delete refuses the default template
 * and a template an announcement rule still uses (409 `conflict`, naming why), else removes it (204).
 */
import { defineFamily, operation } from "../family";
import { badRequest, conflict, notFound, throwIfProblems } from "../http/errors";
import { SETTINGS_ROLES } from "../roles";
import type { Store } from "../store";
import { CUSTOM_FIELDS } from "./customFields";
import { INCIDENT_ROLES } from "./incidentRoles";
import { compact } from "./shared/records";
import { blankProblems } from "./shared/settings";
import { requireTeams } from "./teams";

export const ANNOUNCEMENT_TEMPLATES = "announcement_templates";
/** The collection of announcement rules (./announcementRules.ts), read for the rules using a template. */
const RULES = "announcement_rules";

/** The account's default announcement template (what a rule created without `template_id` uses). */
export const DEFAULT_ANNOUNCEMENT_TEMPLATE_ID = "01HDEFAULTANNOUNCETEMPLATE";

const FIELD_PREFIX = "announcement_post_fields_";
const ACTION_PREFIX = "announcement_post_actions_";
/** A Slack emoji name, with or without its colons. */
const EMOJI = /^:?[a-z0-9_+'-]+:?$/;

/** What each field type needs set (`required for` the matching type in the reference). */
const NEEDS: Record<string, string> = {
  [`${FIELD_PREFIX}custom_field`]: "custom_field_id",
  [`${FIELD_PREFIX}role`]: "incident_role_id",
  [`${FIELD_PREFIX}timestamp`]: "incident_timestamp_id",
  [`${FIELD_PREFIX}rich_text`]: "rich_text",
};

type Json = any;

interface StoredAnnouncementTemplate {
  id: string;
  name: string;
  is_default: boolean;
  fields: Json[];
  actions: Json[];
  owning_team_ids: string[];
}

/** The title the dashboard shows for a field or action type: `custom_field` → "Custom field". */
function titleOf(type: string, prefix: string): string {
  const words = type.slice(prefix.length).replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const bareEmoji = (emoji: unknown) => (typeof emoji === "string" ? emoji.replace(/^:|:$/g, "") : undefined);

function problems(store: Store, body: Json, isUpdate: boolean) {
  const out: { field: string; message: string; code?: string }[] = [...blankProblems(body, ["name"])];
  const taken = store
    .collection<StoredAnnouncementTemplate>(ANNOUNCEMENT_TEMPLATES)
    .all()
    .some((t) => t.name === body.name && t.id !== body.__id);
  if (typeof body.name === "string" && taken)
    out.push({
      field: "name",
      message: `an announcement template named ${JSON.stringify(body.name)} already exists`,
    });
  if (isUpdate)
    for (const key of ["fields", "actions"])
      if (body[key] === undefined)
        out.push({
          field: key,
          code: "is_required",
          message: "is required (an empty array removes them all)",
        });
  const items = (key: string): Json[] => (Array.isArray(body[key]) ? body[key] : []);
  items("fields").forEach((f, i) => {
    const needed = NEEDS[f?.field_type];
    if (needed && (f[needed] === undefined || f[needed] === ""))
      out.push({
        field: `fields.${i}.${needed}`,
        code: "is_required",
        message: `is required for ${f.field_type}`,
      });
    if (f?.emoji !== undefined && !EMOJI.test(String(f.emoji)))
      out.push({ field: `fields.${i}.emoji`, message: "must be a Slack emoji name" });
  });
  items("actions").forEach((a, i) => {
    if (a?.emoji !== undefined && !EMOJI.test(String(a.emoji)))
      out.push({ field: `actions.${i}.emoji`, message: "must be a Slack emoji name" });
  });
  return out;
}

/** 400 `invalid_reference` for a custom field or incident role a field names that the account lacks. */
function requireReferences(store: Store, fields: unknown): void {
  for (const f of Array.isArray(fields) ? fields : []) {
    const field = store.collection<Json>(CUSTOM_FIELDS).get(f?.custom_field_id ?? "");
    if (f?.custom_field_id !== undefined && (!field || field.archived_at !== undefined))
      throw badRequest(`No custom field with id ${f.custom_field_id}`, "invalid_reference");
    if (f?.incident_role_id !== undefined && !store.collection(INCIDENT_ROLES).has(f.incident_role_id))
      throw badRequest(`No incident role with id ${f.incident_role_id}`, "invalid_reference");
  }
}

/** Stored items: known keys only, emoji without colons, in rank order (a stable sort). */
function storedItems(items: unknown, keys: readonly string[]): Json[] {
  return (Array.isArray(items) ? items : [])
    .map((item) =>
      compact({ ...Object.fromEntries(keys.map((k) => [k, item[k]])), emoji: bareEmoji(item.emoji) }),
    )
    .sort((a: Json, b: Json) => a.rank - b.rank);
}

const FIELD_KEYS = [
  "field_type",
  "rank",
  "emoji",
  "custom_field_id",
  "incident_role_id",
  "incident_timestamp_id",
  "rich_text",
] as const;
const ACTION_KEYS = ["action_type", "rank", "emoji"] as const;

/** `AnnouncementTemplateV2`. */
function render(t: StoredAnnouncementTemplate): Json {
  return {
    id: t.id,
    name: t.name,
    is_default: t.is_default,
    fields: t.fields.map((f) => ({ ...f, title: titleOf(f.field_type, FIELD_PREFIX) })),
    actions: t.actions.map((a) => ({ ...a, title: titleOf(a.action_type, ACTION_PREFIX) })),
    owning_team_ids: [...t.owning_team_ids].reverse(),
  };
}

function template(store: Store, id: string): StoredAnnouncementTemplate {
  const t = store.collection<StoredAnnouncementTemplate>(ANNOUNCEMENT_TEMPLATES).get(id);
  if (!t) throw notFound(`No announcement template with id ${id}`);
  return t;
}

/**
 * 400 `invalid_reference` when `templateId` (a rule's `template_id`) is set but is no announcement
 * template of the account. Anything but a string is left to shape validation.
 */
export function requireAnnouncementTemplate(store: Store, templateId: unknown): void {
  if (typeof templateId !== "string") return;
  if (!store.collection(ANNOUNCEMENT_TEMPLATES).has(templateId))
    throw badRequest(`No announcement template with id ${templateId}`, "invalid_reference");
}

const DEFAULT_TEMPLATE: StoredAnnouncementTemplate = {
  id: DEFAULT_ANNOUNCEMENT_TEMPLATE_ID,
  name: "Default",
  is_default: true,
  fields: [
    { field_type: `${FIELD_PREFIX}status`, rank: 0 },
    { field_type: `${FIELD_PREFIX}severity`, rank: 1 },
    { field_type: `${FIELD_PREFIX}incident_type`, rank: 2 },
    { field_type: `${FIELD_PREFIX}description`, rank: 3 },
  ],
  actions: [
    { action_type: `${ACTION_PREFIX}homepage`, rank: 0 },
    { action_type: `${ACTION_PREFIX}join_call`, rank: 1 },
  ],
  owning_team_ids: [],
};

export const announcementTemplates = defineFamily({
  name: "announcement_templates",
  roles: SETTINGS_ROLES,
  collections: [ANNOUNCEMENT_TEMPLATES],
  seed(store) {
    store
      .collection<StoredAnnouncementTemplate>(ANNOUNCEMENT_TEMPLATES)
      .set(structuredClone(DEFAULT_TEMPLATE));
  },
  routes: [
    operation("AnnouncementTemplatesV2List", "read", ({ store }) => ({
      body: {
        announcement_templates: store
          .collection<StoredAnnouncementTemplate>(ANNOUNCEMENT_TEMPLATES)
          .all()
          .map(render),
      },
    })),
    operation("AnnouncementTemplatesV2Create", "write", ({ store, body, newId }) => {
      throwIfProblems(problems(store, body, false));
      requireTeams(store, body.owning_team_ids);
      requireReferences(store, body.fields);
      const t = store.collection<StoredAnnouncementTemplate>(ANNOUNCEMENT_TEMPLATES).set({
        id: newId(),
        name: body.name,
        is_default: false,
        fields: storedItems(body.fields, FIELD_KEYS),
        actions: storedItems(body.actions, ACTION_KEYS),
        owning_team_ids: body.owning_team_ids ?? [],
      });
      return { body: { announcement_template: render(t) } };
    }),
    operation("AnnouncementTemplatesV2Show", "read", ({ store, params }) => ({
      body: { announcement_template: render(template(store, params.id!)) },
    })),
    operation("AnnouncementTemplatesV2Update", "write", ({ store, params, body }) => {
      const current = template(store, params.id!);
      throwIfProblems(problems(store, { ...body, __id: current.id }, true));
      requireTeams(store, body.owning_team_ids);
      requireReferences(store, body.fields);
      const t = store.collection<StoredAnnouncementTemplate>(ANNOUNCEMENT_TEMPLATES).set({
        ...current,
        name: body.name,
        fields: storedItems(body.fields, FIELD_KEYS),
        actions: storedItems(body.actions, ACTION_KEYS),
        owning_team_ids: body.owning_team_ids ?? current.owning_team_ids,
      });
      return { body: { announcement_template: render(t) } };
    }),
    operation("AnnouncementTemplatesV2Destroy", "write", ({ store, params }) => {
      const t = template(store, params.id!);
      if (t.is_default)
        throw conflict(
          `The announcement template ${t.id} is the account's default template and cannot be deleted`,
        );
      const users = store
        .collection<{ id: string; payload: Json }>(RULES)
        .all()
        .filter((r) => r.payload?.template_id === t.id)
        .map((r) => r.id);
      if (users.length > 0)
        throw conflict(
          `The announcement template ${t.id} is used by announcement rule ${users.join(", ")}: choose another template for ${users.length === 1 ? "it" : "them"} first`,
        );
      store.collection(ANNOUNCEMENT_TEMPLATES).delete(t.id);
      return {};
    }),
  ],
});
