import type { BadInputCase } from "./types";

const attribute = { name: "Service", type: "String" };
const source = {
  name: "Webhook",
  sourceType: "http",
  template: { title: "{{ alert.title }}", description: "" },
};
const route = {
  name: "Route",
  alertSources: [{ alertSourceId: "src_1" }],
  escalationConfig: { autoCancelEscalations: true, escalationTargets: [] },
  incidentConfig: {
    enabled: true,
    template: { title: "{{ alert.title }}", description: "{{ alert.description }}" },
  },
};
const level = { level: { targets: [{ type: "user", id: "u1", urgency: "high" }], timeToAckSeconds: 300 } };
const path = { name: "Primary", path: [level] };
const version = {
  handoverStartAt: "2026-01-05T09:00:00Z",
  handovers: [{ interval: 1, intervalType: "weekly" }],
  users: [{ id: "u1" }],
  layers: [{ name: "L1" }],
};
const schedule = {
  name: "On-call",
  timezone: "Europe/London",
  rotations: [{ id: "r1", name: "Primary", versions: [version] }],
};
const workflow = {
  name: "Notify",
  trigger: "incident.updated",
  steps: [{ id: "s1", name: "slack.post_message", paramBindings: [] }],
};
const template = { name: "Posts", fields: [{ fieldType: "status" }], actions: [{ actionType: "homepage" }] };
const condition = { subject: "incident.severity", operation: "one_of", paramBindings: [] };
const pathTemplate = {
  name: "Standard",
  params: [{ name: "lead", label: "Lead", type: "User" }],
  path: [
    { level: { targets: [{ type: "user", binding: { value: { reference: "lead" } }, urgency: "high" }] } },
  ],
};

const withVersion = (patch: Record<string, unknown>) => ({
  ...schedule,
  rotations: [{ id: "r1", name: "Primary", versions: [{ ...version, ...patch }] }],
});

/** Bad inputs for the on-call and alerting families. */
export const familyCases: BadInputCase[] = [
  // AlertAttribute
  { kind: "AlertAttribute", title: "missing name", inputs: { type: "String" }, property: "name" },
  { kind: "AlertAttribute", title: "empty name", inputs: { ...attribute, name: "" }, property: "name" },
  { kind: "AlertAttribute", title: "missing type", inputs: { name: "x" }, property: "type" },
  {
    kind: "AlertAttribute",
    title: "array is a string",
    inputs: { ...attribute, array: "yes" },
    property: "array",
  },
  {
    kind: "AlertAttribute",
    title: "required is a number",
    inputs: { ...attribute, required: 1 },
    property: "required",
  },
  {
    kind: "AlertAttribute",
    title: "unknown property",
    inputs: { ...attribute, colour: "red" },
    property: "colour",
  },
  { kind: "AlertAttribute", title: "type is a number", inputs: { ...attribute, type: 3 }, property: "type" },
  // AlertSource
  { kind: "AlertSource", title: "empty name", inputs: { ...source, name: "" }, property: "name" },
  {
    kind: "AlertSource",
    title: "unknown property",
    inputs: { ...source, secretToken: "abc" },
    property: "secretToken",
  },
  {
    kind: "AlertSource",
    title: "missing name",
    inputs: { sourceType: "http", template: source.template },
    property: "name",
  },
  {
    kind: "AlertSource",
    title: "bad source type",
    inputs: { ...source, sourceType: "carrier_pigeon" },
    property: "sourceType",
  },
  {
    kind: "AlertSource",
    title: "missing template",
    inputs: { name: "x", sourceType: "http" },
    property: "template",
  },
  {
    kind: "AlertSource",
    title: "title not a string",
    inputs: { ...source, template: { title: 5, description: "" } },
    property: "template",
    reason: /template\.title/,
  },
  {
    kind: "AlertSource",
    title: "negative auto-resolve timeout",
    inputs: { ...source, autoResolveTimeoutMinutes: -5 },
    property: "autoResolveTimeoutMinutes",
  },
  {
    kind: "AlertSource",
    title: "owning team ids not a list",
    inputs: { ...source, owningTeamIds: "t1" },
    property: "owningTeamIds",
  },
  {
    kind: "AlertSource",
    title: "attribute binding without attribute id",
    inputs: {
      ...source,
      template: { ...source.template, attributes: [{ binding: { value: { reference: "x" } } }] },
    },
    property: "template",
    reason: /template\.attributes\[0\]/,
  },
  {
    kind: "AlertSource",
    title: "literal and reference both set",
    inputs: {
      ...source,
      template: {
        ...source.template,
        attributes: [{ alertAttributeId: "a", binding: { value: { literal: "x", reference: "y" } } }],
      },
    },
    property: "template",
    reason: /exactly one/,
  },
  // AlertRoute
  { kind: "AlertRoute", title: "missing name", inputs: { ...route, name: undefined }, property: "name" },
  {
    kind: "AlertRoute",
    title: "alert sources not a list",
    inputs: { ...route, alertSources: "src_1" },
    property: "alertSources",
  },
  {
    kind: "AlertRoute",
    title: "alert source without id",
    inputs: { ...route, alertSources: [{}] },
    property: "alertSources",
    reason: /alertSources\[0\]\.alertSourceId/,
  },
  {
    kind: "AlertRoute",
    title: "empty condition group",
    inputs: { ...route, alertSources: [{ alertSourceId: "s", conditionGroups: [{ conditions: [] }] }] },
    property: "alertSources",
    reason: /conditionGroups\[0\]\.conditions/,
  },
  {
    kind: "AlertRoute",
    title: "condition without operation",
    inputs: { ...route, conditionGroups: [{ conditions: [{ subject: "alert.title", paramBindings: [] }] }] },
    property: "conditionGroups",
    reason: /conditions\[0\]\.operation/,
  },
  {
    kind: "AlertRoute",
    title: "enabled is a string",
    inputs: { ...route, enabled: "true" },
    property: "enabled",
  },
  { kind: "AlertRoute", title: "empty name", inputs: { ...route, name: "" }, property: "name" },
  {
    kind: "AlertRoute",
    title: "unknown property",
    inputs: { ...route, priority: "P1" },
    property: "priority",
  },
  {
    kind: "AlertRoute",
    title: "incident title not a string",
    inputs: { ...route, incidentConfig: { enabled: true, template: { title: 1, description: "" } } },
    property: "incidentConfig",
  },
  {
    kind: "AlertRoute",
    title: "expression with bad operation type",
    inputs: {
      ...route,
      expressions: [
        { label: "L", reference: "r", rootReference: "alert", operations: [{ operationType: "explode" }] },
      ],
    },
    property: "expressions",
    reason: /expressions\[0\]\.operations\[0\]\.operationType/,
  },
  // EscalationPath
  { kind: "EscalationPath", title: "missing name", inputs: { path: path.path }, property: "name" },
  { kind: "EscalationPath", title: "missing path", inputs: { name: "x" }, property: "path" },
  {
    kind: "EscalationPath",
    title: "bad target type",
    inputs: {
      ...path,
      path: [{ level: { ...level.level, targets: [{ type: "robot", id: "u1", urgency: "high" }] } }],
    },
    property: "path",
    reason: /path\[0\]\.level\.targets\[0\]\.type/,
  },
  {
    kind: "EscalationPath",
    title: "bad urgency",
    inputs: {
      ...path,
      path: [{ level: { ...level.level, targets: [{ type: "user", id: "u1", urgency: "urgent" }] } }],
    },
    property: "path",
    reason: /urgency/,
  },
  {
    kind: "EscalationPath",
    title: "negative time to ack",
    inputs: { ...path, path: [{ level: { ...level.level, timeToAckSeconds: -1 } }] },
    property: "path",
  },
  {
    kind: "EscalationPath",
    title: "deep: bad target inside else branch",
    inputs: {
      ...path,
      path: [
        {
          ifElse: {
            conditions: [condition],
            thenPath: [level],
            elsePath: [
              level,
              { level: { ...level.level, targets: [{ type: "nobody", id: "x", urgency: "high" }] } },
            ],
          },
        },
      ],
    },
    property: "path",
    reason: /path\[0\]\.ifElse\.elsePath\[1\]\.level\.targets\[0\]\.type/,
  },
  {
    kind: "EscalationPath",
    title: "team ids not a list",
    inputs: { ...path, teamIds: "t" },
    property: "teamIds",
  },
  {
    kind: "EscalationPath",
    title: "unknown node key",
    inputs: { ...path, path: [{ ...level, teleport: true }] },
    property: "path",
  },
  { kind: "EscalationPath", title: "empty name", inputs: { ...path, name: "" }, property: "name" },
  {
    kind: "EscalationPath",
    title: "level without targets",
    inputs: { ...path, path: [{ level: { timeToAckSeconds: 60 } }] },
    property: "path",
    reason: /path\[0\]\.level\.targets/,
  },
  {
    kind: "EscalationPath",
    title: "duplicate node ids",
    inputs: {
      ...path,
      path: [
        { id: "a", ...level },
        { id: "a", ...level },
      ],
    },
    property: "path",
    reason: /duplicate|unique/i,
  },
  {
    kind: "EscalationPath",
    title: "repeat pointing at a missing node",
    inputs: { ...path, path: [{ id: "a", ...level }, { repeat: { toNode: "zzz", repeatTimes: 2 } }] },
    property: "path",
    reason: /zzz/,
  },
  // Schedule
  { kind: "Schedule", title: "empty name", inputs: { ...schedule, name: "" }, property: "name" },
  {
    kind: "Schedule",
    title: "timezone abbreviation",
    inputs: { ...schedule, timezone: "CEST" },
    property: "timezone",
  },
  {
    kind: "Schedule",
    title: "effective-from not a timestamp",
    inputs: withVersion({ effectiveFrom: "2026-13-45" }),
    property: "rotations",
  },
  {
    kind: "Schedule",
    title: "duplicate rotation ids",
    inputs: { ...schedule, rotations: [schedule.rotations[0], schedule.rotations[0]] },
    property: "rotations",
    reason: /duplicate|unique/i,
  },
  { kind: "Schedule", title: "missing name", inputs: { ...schedule, name: undefined }, property: "name" },
  {
    kind: "Schedule",
    title: "bad timezone",
    inputs: { ...schedule, timezone: "Mars/Olympus_Mons" },
    property: "timezone",
  },
  {
    kind: "Schedule",
    title: "timezone is a number",
    inputs: { ...schedule, timezone: 1 },
    property: "timezone",
  },
  {
    kind: "Schedule",
    title: "bad handover start timestamp",
    inputs: withVersion({ handoverStartAt: "next monday" }),
    property: "rotations",
    reason: /handoverStartAt/,
  },
  {
    kind: "Schedule",
    title: "bad handover interval type",
    inputs: withVersion({ handovers: [{ interval: 1, intervalType: "fortnightly" }] }),
    property: "rotations",
    reason: /intervalType/,
  },
  {
    kind: "Schedule",
    title: "zero handover interval",
    inputs: withVersion({ handovers: [{ interval: 0, intervalType: "weekly" }] }),
    property: "rotations",
    reason: /interval/,
  },
  {
    kind: "Schedule",
    title: "user without id or email",
    inputs: withVersion({ users: [{}] }),
    property: "rotations",
    reason: /users\[0\]/,
  },
  {
    kind: "Schedule",
    title: "rotations not a list",
    inputs: { ...schedule, rotations: {} },
    property: "rotations",
  },
  // Workflow
  { kind: "Workflow", title: "missing name", inputs: { ...workflow, name: undefined }, property: "name" },
  {
    kind: "Workflow",
    title: "missing trigger",
    inputs: { ...workflow, trigger: undefined },
    property: "trigger",
  },
  { kind: "Workflow", title: "bad state", inputs: { ...workflow, state: "paused" }, property: "state" },
  {
    kind: "Workflow",
    title: "step without id",
    inputs: { ...workflow, steps: [{ name: "x", paramBindings: [] }] },
    property: "steps",
    reason: /steps\[0\]\.id/,
  },
  {
    kind: "Workflow",
    title: "duplicate step ids",
    inputs: { ...workflow, steps: [workflow.steps[0], workflow.steps[0]] },
    property: "steps",
    reason: /duplicate/,
  },
  {
    kind: "Workflow",
    title: "bad runs-on-incident mode",
    inputs: { ...workflow, runsOnIncidentModes: ["production"] },
    property: "runsOnIncidentModes",
  },
  {
    kind: "Workflow",
    title: "bad private incident scope",
    inputs: { ...workflow, privateIncidentScope: "some" },
    property: "privateIncidentScope",
  },
  { kind: "Workflow", title: "empty name", inputs: { ...workflow, name: "" }, property: "name" },
  { kind: "Workflow", title: "steps not a list", inputs: { ...workflow, steps: "post" }, property: "steps" },
  {
    kind: "Workflow",
    title: "condition group without conditions",
    inputs: { ...workflow, conditionGroups: [{ conditions: [] }] },
    property: "conditionGroups",
  },
  {
    kind: "Workflow",
    title: "continueOnStepError as string",
    inputs: { ...workflow, continueOnStepError: "no" },
    property: "continueOnStepError",
  },
  {
    kind: "Workflow",
    title: "unknown property",
    inputs: { ...workflow, enabled: true },
    property: "enabled",
  },
  {
    kind: "Workflow",
    title: "negative delay",
    inputs: { ...workflow, delay: { forSeconds: -1 } },
    property: "delay",
  },
  { kind: "AnnouncementTemplate", title: "empty name", inputs: { ...template, name: "" }, property: "name" },
  {
    kind: "AnnouncementTemplate",
    title: "unknown field type",
    inputs: { ...template, fields: [{ fieldType: "priority" }] },
    property: "fields",
    reason: /\[0\]\.fieldType/,
  },
  {
    kind: "AnnouncementTemplate",
    title: "unknown action type",
    inputs: { ...template, actions: [{ actionType: "page_everyone" }] },
    property: "actions",
    reason: /\[0\]\.actionType/,
  },
  {
    kind: "AnnouncementTemplate",
    title: "custom field field without customFieldId",
    inputs: { ...template, fields: [{ fieldType: "custom_field" }] },
    property: "fields",
    reason: /\[0\]\.customFieldId.*required for fieldType custom_field/,
  },
  {
    kind: "AnnouncementTemplate",
    title: "incidentRoleId on a status field",
    inputs: { ...template, fields: [{ fieldType: "status", incidentRoleId: "01ROLELEAD" }] },
    property: "fields",
    reason: /\[0\]\.incidentRoleId.*only for fieldType role/,
  },
  {
    kind: "AnnouncementTemplate",
    title: "rich text field without richText",
    inputs: { ...template, fields: [{ fieldType: "rich_text" }] },
    property: "fields",
    reason: /\[0\]\.richText.*required/,
  },
  {
    kind: "AnnouncementTemplate",
    title: "two actions of one rank",
    inputs: { ...template, actions: [{ actionType: "homepage", rank: 1 }, { actionType: "subscribe" }] },
    property: "actions",
    reason: /\[1\]\.rank.*rank 1 is also actions\[0\]'s/,
  },
  {
    kind: "AnnouncementTemplate",
    title: "emoji that is not a Slack emoji name",
    inputs: { ...template, fields: [{ fieldType: "status", emoji: "🚨" }] },
    property: "fields",
    reason: /\[0\]\.emoji.*Slack emoji name/,
  },
  {
    kind: "AnnouncementTemplate",
    title: "fractional rank",
    inputs: { ...template, fields: [{ fieldType: "status", rank: 1.5 }] },
    property: "fields",
    reason: /\[0\]\.rank.*whole number/,
  },
  {
    kind: "AnnouncementTemplate",
    title: "fields is not a list",
    inputs: { ...template, fields: { fieldType: "status" } },
    property: "fields",
  },
  // EscalationPath: templated paths and reassignment
  {
    kind: "EscalationPath",
    title: "templated path without its template",
    inputs: { name: "x", kind: "templated" },
    property: "templateId",
    reason: /required when kind is templated/,
  },
  {
    kind: "EscalationPath",
    title: "templated path with nodes of its own",
    inputs: { ...path, kind: "templated", templateId: "tpl_1" },
    property: "path",
    reason: /takes its nodes from its template/,
  },
  {
    kind: "EscalationPath",
    title: "unknown kind",
    inputs: { ...path, kind: "template" },
    property: "kind",
  },
  {
    kind: "EscalationPath",
    title: "param bindings on a standalone path",
    inputs: { ...path, paramBindings: { lead: { value: { literal: "u1" } } } },
    property: "paramBindings",
    reason: /only a templated path/,
  },
  {
    kind: "EscalationPath",
    title: "reassignment without a path id",
    inputs: { ...path, path: [level, { escalationPath: {} }] },
    property: "path",
    reason: /\[1\]\.escalationPath\.escalationPathId/,
  },
  {
    kind: "EscalationPath",
    title: "a binding target in a path (templates only)",
    inputs: {
      ...path,
      path: [
        {
          level: { targets: [{ type: "user", binding: { value: { reference: "lead" } }, urgency: "high" }] },
        },
      ],
    },
    property: "path",
  },
  // EscalationPathTemplate
  {
    kind: "EscalationPathTemplate",
    title: "empty name",
    inputs: { ...pathTemplate, name: "" },
    property: "name",
  },
  { kind: "EscalationPathTemplate", title: "missing path", inputs: { name: "x" }, property: "path" },
  {
    kind: "EscalationPathTemplate",
    title: "voicemail node",
    inputs: { ...pathTemplate, path: [{ voicemail: true }] },
    property: "path",
    reason: /\[0\]\.voicemail.*only valid inside a call route/,
  },
  {
    kind: "EscalationPathTemplate",
    title: "target with both id and binding",
    inputs: {
      ...pathTemplate,
      path: [
        {
          level: {
            targets: [{ type: "user", id: "u1", binding: { value: { reference: "lead" } }, urgency: "high" }],
          },
        },
      ],
    },
    property: "path",
    reason: /targets\[0\]\.binding: set exactly one of id/,
  },
  {
    kind: "EscalationPathTemplate",
    title: "target with neither id nor binding",
    inputs: { ...pathTemplate, path: [{ level: { targets: [{ type: "user", urgency: "high" }] } }] },
    property: "path",
    reason: /targets\[0\]\.id: set exactly one of id/,
  },
  {
    kind: "EscalationPathTemplate",
    title: "two parameters of one name",
    inputs: {
      ...pathTemplate,
      params: [...pathTemplate.params, { name: "lead", label: "Again", type: "User" }],
    },
    property: "params",
    reason: /\[1\]\.name: duplicate parameter name/,
  },
  {
    kind: "EscalationPathTemplate",
    title: "unknown allowed value type",
    inputs: {
      ...pathTemplate,
      params: [{ name: "lead", label: "Lead", type: "User", allowedValueTypes: ["any"] }],
    },
    property: "params",
    reason: /\[0\]\.allowedValueTypes\[0\]/,
  },
  {
    kind: "EscalationPathTemplate",
    title: "repeat to a node that is not there",
    inputs: { ...pathTemplate, path: [...pathTemplate.path, { repeat: { repeatTimes: 2, toNode: "gone" } }] },
    property: "path",
    reason: /\[1\]\.repeat\.toNode: no node has id "gone"/,
  },
];
