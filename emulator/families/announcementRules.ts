/**
 * Emulator family: announcement rules (API v2; shapes from reference-newer.json, shared/api/NEWER.md).
 * `GET/POST /v2/announcement_rules` (paginated), `GET/PUT/DELETE /v2/announcement_rules/{id}`; flat
 * bodies, create and update take the same payload.
 *
 * Behaviour beyond the reference shapes, from the fields' documentation:
 * - `private_incident_scope` is `none` when a create omits it, and an update that omits it keeps it;
 * - `template_id` is the account's default announcement template (seeded by
 *   ./announcementTemplates.ts) when a create omits it, and an update that omits it keeps it; a
 *   template id given must be an announcement template of the account (400 `invalid_reference`);
 * - `owning_team_ids` are kept by an update that omits them; each must be a team of the account
 *   (400 `invalid_reference`, as alert routes);
 * - `conditions_no_longer_apply_behaviour` defaults to `leave_in_place`;
 * - the emulator's account uses Slack, so `slack_channel_ids` must hold at least one channel (422 on
 *   `slack_channel_ids`); each must look like a Slack channel id, and a Microsoft Teams channel like
 *   `team_id/channel_id`;
 * - condition groups go through the shared engine (./shared/engine.ts) and read back as it answers
 *   them (labelled subjects and operations, operation aliases, padded bindings);
 * - channel ids come back in another order than written (a set for the API).
 * Delete removes the rule (204).
 */
import { defineFamily, operation, paginate } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import { SETTINGS_ROLES } from "../roles";
import type { Store } from "../store";
import { DEFAULT_ANNOUNCEMENT_TEMPLATE_ID, requireAnnouncementTemplate } from "./announcementTemplates";
import { conditionGroupProblems, renderConditionGroups, SLACK_CHANNEL } from "./shared/engine";
import { compact } from "./shared/records";
import { blankProblems } from "./shared/settings";
import { requireTeams } from "./teams";

export const ANNOUNCEMENT_RULES = "announcement_rules";

const TEAMS_CHANNEL = /^[^/\s]+\/[^/\s]+$/;

type Json = any;

interface StoredAnnouncementRule {
  id: string;
  /** The written payload with the omitted fields filled in (defaults, or kept from before). */
  payload: Json;
  created_at: string;
  updated_at: string;
}

function problems(body: Json) {
  const out: { field: string; message: string }[] = [...blankProblems(body, ["name"])];
  const slack: unknown[] = Array.isArray(body.slack_channel_ids) ? body.slack_channel_ids : [];
  if (slack.length === 0)
    out.push({ field: "slack_channel_ids", message: "is required: this organisation uses Slack" });
  slack.forEach((c, i) => {
    if (typeof c !== "string" || !SLACK_CHANNEL.test(c))
      out.push({ field: `slack_channel_ids.${i}`, message: "must be a Slack channel id" });
  });
  (Array.isArray(body.microsoft_teams_channel_ids) ? body.microsoft_teams_channel_ids : []).forEach(
    (c: unknown, i: number) => {
      if (typeof c !== "string" || !TEAMS_CHANNEL.test(c))
        out.push({ field: `microsoft_teams_channel_ids.${i}`, message: "must be team_id/channel_id" });
    },
  );
  out.push(...conditionGroupProblems(body.condition_groups, "condition_groups"));
  return out;
}

/** The stored payload: what was written, omitted fields as the API fills them in. */
function stored(body: Json, before: Json | undefined): Json {
  return {
    ...body,
    conditions_no_longer_apply_behaviour: body.conditions_no_longer_apply_behaviour ?? "leave_in_place",
    private_incident_scope: body.private_incident_scope ?? before?.private_incident_scope ?? "none",
    template_id: body.template_id ?? before?.template_id ?? DEFAULT_ANNOUNCEMENT_TEMPLATE_ID,
    owning_team_ids: body.owning_team_ids ?? before?.owning_team_ids ?? [],
  };
}

/** `AnnouncementRuleV2`. */
function render(r: StoredAnnouncementRule): Json {
  const p = r.payload;
  return compact({
    id: r.id,
    name: p.name,
    condition_groups: renderConditionGroups(p.condition_groups),
    slack_channel_ids: [...(p.slack_channel_ids ?? [])].reverse(),
    microsoft_teams_channel_ids: [...(p.microsoft_teams_channel_ids ?? [])].reverse(),
    update_sharing_mode: p.update_sharing_mode,
    mode: p.mode,
    conditions_no_longer_apply_behaviour: p.conditions_no_longer_apply_behaviour,
    owning_team_ids: [...p.owning_team_ids].reverse(),
    private_incident_scope: p.private_incident_scope,
    template_id: p.template_id,
    created_at: r.created_at,
    updated_at: r.updated_at,
  });
}

function rule(store: Store, id: string): StoredAnnouncementRule {
  const r = store.collection<StoredAnnouncementRule>(ANNOUNCEMENT_RULES).get(id);
  if (!r) throw notFound(`No announcement rule with id ${id}`);
  return r;
}

export const announcementRules = defineFamily({
  name: "announcement_rules",
  roles: SETTINGS_ROLES,
  collections: [ANNOUNCEMENT_RULES],
  routes: [
    operation("AnnouncementRulesV2List", "read", ({ store, query }) => {
      const all = store.collection<StoredAnnouncementRule>(ANNOUNCEMENT_RULES).all();
      const { page, pagination_meta } = paginate(all, query);
      return { body: { announcement_rules: page.map(render), pagination_meta } };
    }),
    operation("AnnouncementRulesV2Create", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(problems(body));
      requireTeams(store, body.owning_team_ids);
      requireAnnouncementTemplate(store, body.template_id);
      const r = store.collection<StoredAnnouncementRule>(ANNOUNCEMENT_RULES).set({
        id: newId(),
        payload: stored(body, undefined),
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { body: { announcement_rule: render(r) } };
    }),
    operation("AnnouncementRulesV2Show", "read", ({ store, params }) => ({
      body: { announcement_rule: render(rule(store, params.id!)) },
    })),
    operation("AnnouncementRulesV2Update", "write", ({ store, params, body, nowIso }) => {
      const current = rule(store, params.id!);
      throwIfProblems(problems(body));
      requireTeams(store, body.owning_team_ids);
      requireAnnouncementTemplate(store, body.template_id);
      const r = store
        .collection<StoredAnnouncementRule>(ANNOUNCEMENT_RULES)
        .set({ ...current, payload: stored(body, current.payload), updated_at: nowIso });
      return { body: { announcement_rule: render(r) } };
    }),
    operation("AnnouncementRulesV2Destroy", "write", ({ store, params }) => {
      rule(store, params.id!);
      store.collection<StoredAnnouncementRule>(ANNOUNCEMENT_RULES).delete(params.id!);
      return {};
    }),
  ],
});
