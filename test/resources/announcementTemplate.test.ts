import { announcementRulePayload, announcementRuleProvider } from "../../resources/announcementRule";
import {
  type AnnouncementTemplateInputs,
  announcementTemplateFromApi,
  announcementTemplateInputs,
  announcementTemplatePayload,
  announcementTemplateProvider,
  announcementTemplateSpec,
  findAnnouncementTemplateByName,
  getAnnouncementTemplate,
} from "../../resources/announcementTemplate";
import { expectCheckFailure } from "../fixtures/settings/emulator";
import { useAlertEmulator } from "../support/alertEmulator";
import { expectWarned } from "../support/checkWarnings";
import { expectShape } from "../support/emulator";

const DEFAULT_TEMPLATE = "01HDEFAULTANNOUNCETEMPLATE";
const parse = (raw: Record<string, unknown>): AnnouncementTemplateInputs =>
  announcementTemplateInputs.parse(raw);
const canonical = announcementTemplateProvider.spec.canonical!;
const ae = useAlertEmulator({
  strictPaths: /^\/v2\/announcement_(templates|rules)(\/|$)/,
  dashboardRoles: ["global_access"],
});
const show = async (id: string) =>
  (await ae.ok("GET", `/v2/announcement_templates/${id}`)).announcement_template;

let names = 0;
const template = (extra: Record<string, unknown> = {}) =>
  parse({
    name: `Major incident posts ${++names}`,
    fields: [
      { fieldType: "severity", emoji: ":rotating_light:" },
      { fieldType: "status" },
      { fieldType: "rich_text", richText: { contents: "Join {{incident.slack_channel_name}}" } },
    ],
    actions: [
      { actionType: "join_call" },
      { actionType: "announcement_post_actions_subscribe", emoji: "bell" },
    ],
    ...extra,
  });

describe("mapping", () => {
  test("the payload has the reference shape (create and update): prefixed types, ranks by position, fields and actions always", () => {
    const payload = announcementTemplatePayload(template());
    expectShape("AnnouncementTemplatesCreatePayloadV2", payload);
    expectShape("AnnouncementTemplatesUpdatePayloadV2", payload);
    expect(payload.fields).toEqual([
      { field_type: "announcement_post_fields_severity", rank: 0, emoji: ":rotating_light:" },
      { field_type: "announcement_post_fields_status", rank: 1 },
      {
        field_type: "announcement_post_fields_rich_text",
        rank: 2,
        rich_text: { type: "markdown", contents: "Join {{incident.slack_channel_name}}" },
      },
    ]);
    expect(payload.actions).toEqual([
      { action_type: "announcement_post_actions_join_call", rank: 0 },
      { action_type: "announcement_post_actions_subscribe", rank: 1, emoji: "bell" },
    ]);
    expect(payload).not.toHaveProperty("owning_team_ids");
    // Nothing declared: empty lists are sent (an update removes them all).
    const empty = announcementTemplatePayload(parse({ name: "Bare" }));
    expectShape("AnnouncementTemplatesUpdatePayloadV2", empty);
    expect(empty).toEqual({ name: "Bare", fields: [], actions: [] });
    const ids = announcementTemplatePayload(
      template({
        fields: [
          { fieldType: "custom_field", customFieldId: "01CF" },
          { fieldType: "role", incidentRoleId: "01ROLELEAD" },
          { fieldType: "timestamp", incidentTimestampId: "01TS" },
        ],
        owningTeamIds: ["01TEAMPAYMENTS"],
      }),
    );
    expect(ids.fields).toEqual([
      { field_type: "announcement_post_fields_custom_field", rank: 0, custom_field_id: "01CF" },
      { field_type: "announcement_post_fields_role", rank: 1, incident_role_id: "01ROLELEAD" },
      { field_type: "announcement_post_fields_timestamp", rank: 2, incident_timestamp_id: "01TS" },
    ]);
    expect(ids.owning_team_ids).toEqual(["01TEAMPAYMENTS"]);
  });
});

describe("normalisation vectors (read-back in another form is no diff)", () => {
  const live = (fields: any[], actions: any[] = [], owning_team_ids: string[] = []) => ({
    id: "01T",
    name: "T",
    is_default: false,
    fields,
    actions,
    owning_team_ids,
  });
  const same = (declared: Record<string, unknown>, answered: ReturnType<typeof live>) => {
    const d = parse({ name: "T", ...declared });
    const back = announcementTemplateFromApi(answered, d);
    return { back, d, equal: JSON.stringify(canonical(back)) === JSON.stringify(canonical(d)) };
  };

  test.each([
    [
      "type prefix: short declared, prefixed answered",
      { fields: [{ fieldType: "status" }] },
      live([{ field_type: "announcement_post_fields_status", rank: 0, title: "Status" }]),
    ],
    [
      "type prefix: prefixed declared",
      { actions: [{ actionType: "announcement_post_actions_homepage" }] },
      live([], [{ action_type: "announcement_post_actions_homepage", rank: 0, title: "Homepage" }]),
    ],
    [
      "emoji colons: declared with, answered without",
      { fields: [{ fieldType: "status", emoji: ":fire:" }] },
      live([{ field_type: "announcement_post_fields_status", rank: 0, emoji: "fire", title: "Status" }]),
    ],
    [
      "rank by position: unset ranks answered as positions",
      { fields: [{ fieldType: "status" }, { fieldType: "severity" }] },
      live([
        { field_type: "announcement_post_fields_status", rank: 0, title: "Status" },
        { field_type: "announcement_post_fields_severity", rank: 1, title: "Severity" },
      ]),
    ],
    [
      "rank order: declared out of rank order, answered in rank order",
      {
        fields: [
          { fieldType: "status", rank: 5 },
          { fieldType: "severity", rank: 1 },
        ],
      },
      live([
        { field_type: "announcement_post_fields_severity", rank: 1, title: "Severity" },
        { field_type: "announcement_post_fields_status", rank: 5, title: "Status" },
      ]),
    ],
    [
      "rich text type defaults to markdown",
      { fields: [{ fieldType: "rich_text", richText: { contents: "Hi" } }] },
      live([
        {
          field_type: "announcement_post_fields_rich_text",
          rank: 0,
          rich_text: { type: "markdown", contents: "Hi" },
          title: "Rich text",
        },
      ]),
    ],
    [
      "owning teams in another order",
      { owningTeamIds: ["01TEAMPLATFORM", "01TEAMPAYMENTS"] },
      live([], [], ["01TEAMPAYMENTS", "01TEAMPLATFORM"]),
    ],
    ["owning teams left out: not managed", {}, live([], [], ["01TEAMPAYMENTS"])],
  ])("%s", (_rule, declared, answered) => {
    const { back, d } = same(declared, answered);
    expect(back).toEqual({ ...d, adoptId: undefined });
  });

  test.each([
    [
      "another emoji",
      { fields: [{ fieldType: "status", emoji: "fire" }] },
      live([{ field_type: "announcement_post_fields_status", rank: 0, emoji: "bell" }]),
    ],
    [
      "another order (ranks)",
      { fields: [{ fieldType: "status" }, { fieldType: "severity" }] },
      live([
        { field_type: "announcement_post_fields_severity", rank: 0 },
        { field_type: "announcement_post_fields_status", rank: 1 },
      ]),
    ],
    ["an action removed", { actions: [{ actionType: "homepage" }] }, live([], [])],
    [
      "another rich text",
      { fields: [{ fieldType: "rich_text", richText: { contents: "Hi" } }] },
      live([
        {
          field_type: "announcement_post_fields_rich_text",
          rank: 0,
          rich_text: { type: "markdown", contents: "Bye" },
        },
      ]),
    ],
  ])("a real change shows: %s", (_what, declared, answered) => {
    expect(same(declared, answered).equal).toBe(false);
  });

  test("a partly changed list keeps the declared spelling of the items that did not change", () => {
    const d = parse({
      name: "T",
      fields: [{ fieldType: "status", emoji: ":fire:" }, { fieldType: "severity" }],
    });
    const back = announcementTemplateFromApi(
      live([
        { field_type: "announcement_post_fields_status", rank: 0, emoji: "fire" },
        { field_type: "announcement_post_fields_description", rank: 1 },
      ]),
      d,
    );
    expect(back.fields).toEqual([
      { fieldType: "status", emoji: ":fire:" },
      { fieldType: "description", rank: 1 },
    ]);
  });
});

describe("check (zero API calls)", () => {
  const ok = () => ({ name: "T", fields: [{ fieldType: "status" }] });
  test.each([
    [
      { ...ok(), fields: [{ fieldType: "custom_field" }] },
      "fields",
      /\[0\]\.customFieldId.*required for fieldType custom_field/,
    ],
    [
      { ...ok(), fields: [{ fieldType: "role" }] },
      "fields",
      /\[0\]\.incidentRoleId.*required for fieldType role/,
    ],
    [
      { ...ok(), fields: [{ fieldType: "timestamp" }] },
      "fields",
      /\[0\]\.incidentTimestampId.*required for fieldType timestamp/,
    ],
    [
      { ...ok(), fields: [{ fieldType: "rich_text" }] },
      "fields",
      /\[0\]\.richText.*required for fieldType rich_text/,
    ],
    [{ ...ok(), isDefault: true }, "isDefault", /./],
  ])("%j fails at %s", async (inputs, property, reason) => {
    await expectCheckFailure(ae, announcementTemplateProvider.check!, inputs, property, reason);
  });

  // No published rule forbids these (issue 28): passed on, warned about at the input path.
  test.each([
    [{ ...ok(), name: " " }, "name", /is only whitespace/],
    [
      { ...ok(), fields: [{ fieldType: "priority" }] },
      "fields[0].fieldType",
      /"priority" is not a value the API is known to take/,
    ],
    [
      { ...ok(), fields: [{ fieldType: "status", customFieldId: "01CF" }] },
      "fields[0].customFieldId",
      /is only for fieldType custom_field \(this field is status\)/,
    ],
    [
      { ...ok(), fields: [{ fieldType: "rich_text", richText: { contents: "" } }] },
      "fields[0].richText.contents",
      /is empty/,
    ],
    [
      { ...ok(), fields: [{ fieldType: "rich_text", richText: { contents: "x", type: "html" } }] },
      "fields[0].richText.type",
      /"html" is not a value the API is known to take.*did you mean "markdown"/,
    ],
    [{ ...ok(), fields: [{ fieldType: "status", rank: -1 }] }, "fields[0].rank", /is negative/],
    [
      { ...ok(), fields: [{ fieldType: "status" }, { fieldType: "severity", rank: 0 }] },
      "fields[1].rank",
      /rank 0 is also fields\[0\]'s/,
    ],
    [
      { ...ok(), actions: [{ actionType: "page" }] },
      "actions[0].actionType",
      /"page" is not a value the API is known to take/,
    ],
    [
      { ...ok(), actions: [{ actionType: "homepage", emoji: "a b" }] },
      "actions[0].emoji",
      /does not look like a Slack emoji name/,
    ],
    [{ ...ok(), owningTeamIds: [""] }, "owningTeamIds[0]", /is empty/],
  ] as [
    Record<string, unknown>,
    string,
    RegExp,
  ][])("%j is passed on with a warning at %s", async (inputs, path, reason) => {
    await expectWarned(announcementTemplateProvider, inputs, path, reason);
  });
});

describe("provider against the emulator", () => {
  test("create → read: no diff → a dashboard edit is drift → update restores → delete", async () => {
    const inputs = template({ owningTeamIds: ["01TEAMPAYMENTS", "01TEAMPLATFORM"] });
    const created = await announcementTemplateProvider.create!(inputs);
    expect(created.outs).toMatchObject({ isDefault: false, name: inputs.name });
    const live = await show(created.id);
    expectShape("AnnouncementTemplateV2", live);
    expect(live.fields[0]).toMatchObject({ emoji: "rotating_light", title: "Severity" });
    expect(live.owning_team_ids).toEqual(["01TEAMPLATFORM", "01TEAMPAYMENTS"]);
    const read = await announcementTemplateProvider.read!(created.id, created.outs);
    expect(read.props).toMatchObject({ fields: inputs.fields, actions: inputs.actions });
    expect((await announcementTemplateProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);

    // The dashboard drops an action and adds an emoji: drift.
    await ae.ok("PUT", `/v2/announcement_templates/${created.id}`, {
      ...announcementTemplatePayload(inputs),
      fields: [{ field_type: "announcement_post_fields_status", rank: 0, emoji: "fire" }],
      actions: [],
    });
    const drifted = await announcementTemplateProvider.read!(created.id, read.props!);
    expect(drifted.props).toMatchObject({
      fields: [{ fieldType: "status", rank: 0, emoji: "fire" }],
      actions: [],
    });
    expect((await announcementTemplateProvider.diff!(created.id, drifted.props!, inputs)).changes).toBe(true);
    await announcementTemplateProvider.update!(created.id, drifted.props!, inputs);
    expect((await show(created.id)).fields).toHaveLength(3);
    expect((await show(created.id)).actions).toHaveLength(2);

    // An update declaring no fields and no actions removes them all (both are sent, empty).
    const bare = { ...inputs, fields: [], actions: [] };
    const mark = ae.emu.requests.length;
    await announcementTemplateProvider.update!(created.id, drifted.props!, bare);
    expect(ae.emu.requests.slice(mark).map((r) => `${r.method} ${r.status}`)).toContain("PUT 200");
    expect(await show(created.id)).toMatchObject({ fields: [], actions: [] });

    await announcementTemplateProvider.delete!(created.id, drifted.props!);
    expect((await announcementTemplateProvider.read!(created.id, drifted.props!)).id).toBe("");
  });

  test("wired to an announcement rule: the rule uses it, and the API refuses its delete while it does", async () => {
    const t = await announcementTemplateProvider.create!(template());
    const rule = await announcementRuleProvider.create!({
      name: "Uses the template",
      mode: "live_and_closed",
      updateSharingMode: "thread",
      conditionGroups: [],
      slackChannelIds: ["C0ANNOUNCE1"],
      privateIncidentScope: "none",
      conditionsNoLongerApplyBehaviour: "leave_in_place",
      templateId: t.id,
    });
    expect(rule.outs).toMatchObject({ currentTemplateId: t.id });
    const refused = await announcementTemplateProvider.delete!(t.id, t.outs).catch((e) => e);
    expect(refused.message).toMatch(new RegExp(`used by announcement rule ${rule.id}`));
    await announcementRuleProvider.delete!(rule.id, rule.outs);
    await announcementTemplateProvider.delete!(t.id, t.outs);
    expect((await announcementTemplateProvider.read!(t.id, t.outs)).id).toBe("");

    // A rule naming a template the account lacks is refused, naming the input.
    const unknown = await ae.api("POST", "/v2/announcement_rules", {
      ...announcementRulePayload({
        name: "x",
        mode: "include_all",
        updateSharingMode: "none",
        conditionGroups: [],
        slackChannelIds: ["C0ANNOUNCE1"],
        privateIncidentScope: "none",
        conditionsNoLongerApplyBehaviour: "leave_in_place",
      }),
      template_id: "01NOTEMPLATE",
    });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toMatch(/No announcement template with id 01NOTEMPLATE/);
  });

  test("the default template is seeded, cannot be deleted, and is left out of the export", async () => {
    const all = (await ae.ok("GET", "/v2/announcement_templates")).announcement_templates;
    expect(all.find((t: any) => t.is_default)).toMatchObject({ id: DEFAULT_TEMPLATE, name: "Default" });
    const refused = await announcementTemplateProvider.delete!(DEFAULT_TEMPLATE, {}).catch((e) => e);
    expect(refused.message).toMatch(/default template and cannot be deleted/);
    const exported = await announcementTemplateSpec.listAll!({ client: ae.dashboard } as never);
    expect(exported.map((t) => t.id)).not.toContain(DEFAULT_TEMPLATE);
  });

  test("a name taken: the API's error names the input, and nothing is created", async () => {
    const first = template();
    await announcementTemplateProvider.create!(first);
    const before = (await ae.ok("GET", "/v2/announcement_templates")).announcement_templates.length;
    const error = await announcementTemplateProvider.create!({ ...template(), name: first.name }).catch(
      (e) => e,
    );
    expect(error.message).toMatch(/name/);
    expect(error.message).toMatch(/already exists/);
    expect((await ae.ok("GET", "/v2/announcement_templates")).announcement_templates.length).toBe(before);
  });

  test("adoption by id: an equal declaration makes no write", async () => {
    const declared = template({ name: "By hand" });
    const existing = (
      await ae.ok("POST", "/v2/announcement_templates", announcementTemplatePayload(declared))
    ).announcement_template;
    const mark = ae.emu.requests.length;
    const adopted = await announcementTemplateProvider.create!({ ...declared, adoptId: existing.id });
    expect(adopted.id).toBe(existing.id);
    expect(ae.providerCalls(mark).filter((c) => !c.startsWith("GET"))).toEqual([]);
  });
});

describe("getAnnouncementTemplate", () => {
  test("by exact name, the default one too; a near miss is suggested", async () => {
    const made = (
      await ae.ok(
        "POST",
        "/v2/announcement_templates",
        announcementTemplatePayload(template({ name: "Lookup posts" })),
      )
    ).announcement_template;
    expect(await findAnnouncementTemplateByName(ae.dashboard, "Lookup posts")).toEqual({
      id: made.id,
      name: "Lookup posts",
      isDefault: false,
      owningTeamIds: [],
    });
    expect(await findAnnouncementTemplateByName(ae.dashboard, "Default")).toMatchObject({
      id: DEFAULT_TEMPLATE,
      isDefault: true,
    });
    await expect(findAnnouncementTemplateByName(ae.dashboard, "lookup posts")).rejects.toThrow(
      'getAnnouncementTemplate: no announcement template named "lookup posts" (did you mean "Lookup posts"?)',
    );
  });

  test("arguments are checked before any request", async () => {
    const mark = ae.emu.requests.length;
    await expect(getAnnouncementTemplate({ name: "" })).rejects.toThrow(
      "getAnnouncementTemplate: name: must not be empty",
    );
    await expect(getAnnouncementTemplate({ name: "x", id: "y" } as never)).rejects.toThrow(
      /getAnnouncementTemplate: .*id/,
    );
    expect(ae.emu.requests.length).toBe(mark);
  });
});
