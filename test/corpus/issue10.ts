/**
 * Inputs that used to pass check and were then refused by the API (issue 10). Each case names the
 * property check must report; `api` is the same input as the provider would send it, which the
 * emulator (like the API) must refuse with that status, naming that field.
 */
import type { BadInputCase } from "./types";

export interface ApiRefusal {
  method: "POST";
  path: string;
  body: unknown;
  status: number;
  /** The `errors[].source.field` the answer names (422s). */
  field?: string;
}

export type Issue10Case = BadInputCase & { api?: ApiRefusal };

const blank = " \t ";
const version = {
  handoverStartAt: "2026-01-05T09:00:00Z",
  handovers: [{ interval: 1, intervalType: "weekly" }],
  users: [{ id: "01USERADA" }],
  layers: [{ name: "L1" }],
};
const schedule = {
  name: "On-call",
  timezone: "Europe/London",
  rotations: [{ id: "r1", name: "Primary", versions: [version] }],
};
const apiRotation = {
  id: "r1",
  name: "Primary",
  handover_start_at: "2026-01-05T09:00:00Z",
  handovers: [{ interval: 1, interval_type: "weekly" }],
  users: [{ id: "01USERADA" }],
  layers: [{ name: "L1" }],
};
const apiSchedule = (rotation: Record<string, unknown>) => ({
  schedule: {
    name: "On-call",
    timezone: "Europe/London",
    config: { rotations: [{ ...apiRotation, ...rotation }] },
  },
});
const level = {
  level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }], timeToAckSeconds: 300 },
};
const apiLevel = {
  type: "level",
  level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }], time_to_ack_seconds: 300 },
};
const hours = (endTime: string) => ({
  name: "Office hours",
  path: [level],
  workingHours: [
    {
      id: "office",
      name: "Office",
      timezone: "Europe/London",
      weekdayIntervals: [{ weekday: "monday", startTime: "09:00", endTime }],
    },
  ],
});

/** An escalation path `depth` branches deep (each branch's else-path holds the next one). */
export function deepPath(depth: number, api: boolean): unknown[] {
  let path: unknown[] = [api ? apiLevel : level];
  for (let i = 0; i < depth; i++) {
    const condition = api
      ? { subject: "escalation.priority", operation: "one_of", param_bindings: [] }
      : { subject: "escalation.priority", operation: "one_of", paramBindings: [] };
    path = api
      ? [{ type: "if_else", if_else: { conditions: [condition], then_path: [apiLevel], else_path: path } }]
      : [{ ifElse: { conditions: [condition], thenPath: [level], elsePath: path } }];
  }
  return path;
}

const nameCase = (kind: string, inputs: Record<string, unknown>, api?: ApiRefusal): Issue10Case => ({
  kind,
  title: "whitespace-only name",
  inputs: { ...inputs, name: blank },
  property: "name",
  outcome: "warning",
  warns: "name",
  reason: /is only whitespace/,
  api,
});

export const issue10Cases: Issue10Case[] = [
  // Whitespace-only names, every kind.
  nameCase(
    "CustomField",
    { description: "d", fieldType: "text" },
    {
      method: "POST",
      path: "/v2/custom_fields",
      body: { name: blank, description: "d", field_type: "text" },
      status: 422,
      field: "name",
    },
  ),
  nameCase(
    "ApiKey",
    { roles: ["viewer"] },
    {
      method: "POST",
      path: "/v1/api_keys",
      body: { name: blank, role_names: ["viewer"], team_role_names: [], team_ids: [] },
      status: 422,
      field: "name",
    },
  ),
  nameCase(
    "AlertAttribute",
    { type: "String" },
    {
      method: "POST",
      path: "/v2/alert_attributes",
      body: { name: blank, type: "String", array: false },
      status: 422,
      field: "name",
    },
  ),
  nameCase("AlertSource", { sourceType: "http", template: { title: "t", description: "" } }),
  nameCase("AlertRoute", {
    alertSources: [{ alertSourceId: "src_1" }],
    escalationConfig: { autoCancelEscalations: true, escalationTargets: [] },
    incidentConfig: { enabled: false },
  }),
  nameCase("EscalationPath", { path: [level] }),
  nameCase(
    "Schedule",
    { timezone: "Europe/London", rotations: schedule.rotations },
    {
      method: "POST",
      path: "/v2/schedules",
      body: { schedule: { ...apiSchedule({}).schedule, name: blank } },
      status: 422,
      field: "schedule.name",
    },
  ),
  nameCase("Workflow", { trigger: "incident.updated" }),
  {
    kind: "Schedule",
    title: "whitespace-only rotation name",
    inputs: { ...schedule, rotations: [{ id: "r1", name: " ", versions: [version] }] },
    property: "rotations",
    outcome: "warning",
    warns: "rotations[0].name",
    reason: /is only whitespace/,
  },
  // Team roles the API refuses for keys.
  {
    kind: "ApiKey",
    title: "api_keys_manage as a team role",
    inputs: { name: "CI", teamRoles: ["api_keys_manage"], teamIds: ["01TEAMPAYMENTS"] },
    property: "teamRoles",
    outcome: "warning",
    warns: "teamRoles[0]",
    reason:
      /api_keys_manage: the reference says it cannot be assigned via the API \(APIKeysV1Create\), the seed lists it as assignable/,
    api: {
      method: "POST",
      path: "/v1/api_keys",
      body: {
        name: "CI",
        role_names: [],
        team_role_names: ["api_keys_manage"],
        team_ids: ["01TEAMPAYMENTS"],
      },
      status: 422,
      field: "team_role_names",
    },
  },
  // Oversized text.
  {
    kind: "CustomField",
    title: "2 MB description",
    inputs: { name: "Big", description: "x".repeat(2 * 1024 * 1024), fieldType: "text" },
    property: "description",
    outcome: "warning",
    warns: "description",
    reason: /is longer than 100000 characters/,
    api: {
      method: "POST",
      path: "/v2/custom_fields",
      body: { name: "Big", description: "x".repeat(2 * 1024 * 1024), field_type: "text" },
      status: 413,
    },
  },
  {
    kind: "CustomField",
    title: "description just over the limit (the request itself is small enough)",
    inputs: { name: "Big", description: "x".repeat(100_001), fieldType: "text" },
    property: "description",
    outcome: "warning",
    warns: "description",
    reason: /is longer than 100000 characters/,
    api: {
      method: "POST",
      path: "/v2/custom_fields",
      body: { name: "Big", description: "x".repeat(100_001), field_type: "text" },
      status: 422,
      field: "description",
    },
  },
  {
    kind: "ApiKey",
    title: "name over 255 characters",
    inputs: { name: "n".repeat(256), roles: ["viewer"] },
    property: "name",
    outcome: "warning",
    warns: "name",
    reason: /is longer than 255 characters/,
    api: {
      method: "POST",
      path: "/v1/api_keys",
      body: { name: "n".repeat(256), role_names: ["viewer"], team_role_names: [], team_ids: [] },
      status: 422,
      field: "name",
    },
  },
  {
    kind: "ApiKey",
    title: "comments over the limit",
    inputs: { name: "CI", roles: ["viewer"], comments: "c".repeat(100_001) },
    property: "comments",
    outcome: "warning",
    warns: "comments",
    reason: /is longer than 100000 characters/,
  },
  // Tabs and line breaks in option values.
  {
    kind: "CustomFieldOption",
    title: "tab inside an option value",
    inputs: { customFieldId: "cf_1", value: "eu\twest" },
    property: "value",
    reason: /must not contain tabs or line breaks/,
  },
  {
    kind: "CustomFieldOption",
    title: "line break inside an option value",
    inputs: { customFieldId: "cf_1", value: "eu\nwest" },
    property: "value",
    reason: /must not contain tabs or line breaks/,
  },
  {
    kind: "CustomField",
    title: "line break inside an inline option",
    inputs: { name: "Region", description: "d", fieldType: "single_select", options: ["eu\r\nwest"] },
    property: "options",
    reason: /options\[0\]: must not contain tabs/,
  },
  // Impossible dates and times.
  {
    kind: "Schedule",
    title: "handoverStartAt on 30 February",
    inputs: {
      ...schedule,
      rotations: [
        { id: "r1", name: "Primary", versions: [{ ...version, handoverStartAt: "2026-02-30T09:00:00Z" }] },
      ],
    },
    property: "rotations",
    reason:
      /rotations\[0\]\.versions\[0\]\.handoverStartAt: must be an RFC 3339 timestamp.*a day that exists/,
    api: {
      method: "POST",
      path: "/v2/schedules",
      body: apiSchedule({ handover_start_at: "2026-02-30T09:00:00Z" }),
      status: 422,
      field: "schedule.config.rotations.0.handover_start_at",
    },
  },
  {
    kind: "Schedule",
    title: "effectiveFrom at T24:00",
    inputs: {
      ...schedule,
      rotations: [
        {
          id: "r1",
          name: "Primary",
          versions: [version, { ...version, effectiveFrom: "2026-03-01T24:00:00Z" }],
        },
      ],
    },
    property: "rotations",
    reason: /rotations\[0\]\.versions\[1\]\.effectiveFrom: must be an RFC 3339 timestamp.*a day that exists/,
    api: {
      method: "POST",
      path: "/v2/schedules",
      body: apiSchedule({ effective_from: "2026-03-01T24:00:00Z" }),
      status: 422,
      field: "schedule.config.rotations.0.effective_from",
    },
  },
  {
    kind: "Schedule",
    title: "an offset of +24:00",
    inputs: {
      ...schedule,
      rotations: [
        {
          id: "r1",
          name: "Primary",
          versions: [{ ...version, handoverStartAt: "2026-01-05T09:00:00+24:00" }],
        },
      ],
    },
    property: "rotations",
  },
  {
    kind: "Schedule",
    title: "working interval ending 24:59",
    inputs: {
      ...schedule,
      rotations: [
        {
          id: "r1",
          name: "Primary",
          versions: [
            { ...version, workingIntervals: [{ weekday: "monday", startTime: "09:00", endTime: "24:59" }] },
          ],
        },
      ],
    },
    property: "rotations",
    reason: /endTime: must be HH:MM/,
    api: {
      method: "POST",
      path: "/v2/schedules",
      body: apiSchedule({
        working_intervals: [{ weekday: "monday", start_time: "09:00", end_time: "24:59" }],
      }),
      status: 422,
      field: "schedule.config.rotations.0.working_intervals.0.end_time",
    },
  },
  {
    kind: "EscalationPath",
    title: "working hours ending 24:59",
    inputs: hours("24:59"),
    property: "workingHours",
    reason: /workingHours\[0\]\.weekdayIntervals\[0\]\.endTime: must be HH:MM/,
    api: {
      method: "POST",
      path: "/v2/escalation_paths",
      body: {
        name: "Office hours",
        path: [apiLevel],
        working_hours: [
          {
            id: "office",
            name: "Office",
            timezone: "Europe/London",
            weekday_intervals: [{ weekday: "monday", start_time: "09:00", end_time: "24:59" }],
          },
        ],
      },
      status: 422,
      field: "working_hours.0.weekday_intervals.0.end_time",
    },
  },
  // A path deeper than any request body the API takes (the emulator used to answer 500).
  {
    kind: "EscalationPath",
    title: "escalation path 1000 branches deep",
    inputs: { name: "Deep", path: deepPath(1000, false) },
    property: "path",
    reason: /nested deeper than/,
    api: {
      method: "POST",
      path: "/v2/escalation_paths",
      body: { name: "Deep", path: deepPath(1000, true) },
      status: 400,
    },
  },
];
