/**
 * Bad inputs of Policy and PayConfig (issue 24 items 5 and 9): the per-type blocks of another type,
 * the fields whose shape is not published, currencies, time zones, rates and rule times.
 */
import type { BadInputCase } from "./types";

const policy = { name: "Follow-ups", description: "Done in time", policyType: "follow_up" };
const pay = {
  name: "UK on-call",
  currency: "GBP",
  baseRateCents: 500,
  rateTimeUnit: "hour",
  timezone: "Europe/London",
};
const weekly = { weekdays: ["saturday"], startTime: "09:00", endTime: "17:00", rateCents: 100 };
const oneOff = {
  name: "Launch",
  startAt: "2026-03-01T00:00:00Z",
  endAt: "2026-03-02T00:00:00Z",
  rateCents: 100,
};

export const policyPayConfigCases: BadInputCase[] = [
  {
    kind: "Policy",
    title: "missing policyType",
    inputs: { name: "P", description: "d" },
    property: "policyType",
  },
  { kind: "Policy", title: "blank name", inputs: { ...policy, name: "  " }, property: "name" },
  {
    kind: "Policy",
    title: "a post-mortem block on a follow-up policy",
    inputs: { ...policy, postMortem: { runOnPrivateIncidents: true } },
    property: "postMortem",
    reason: /set only when policyType is post_mortem/,
  },
  {
    kind: "Policy",
    title: "a debrief block on a shift_conflict policy",
    inputs: { ...policy, policyType: "shift_conflict", debrief: {} },
    property: "debrief",
    reason: /set only when policyType is debrief/,
  },
  {
    kind: "Policy",
    title: "assignment rules (shape not published)",
    inputs: { ...policy, assignmentRules: [{ assignee: "owner" }] },
    property: "assignmentRules",
    reason: /shape of assignment_rules is not published/,
  },
  {
    kind: "Policy",
    title: "an on-call readiness block (shape not published)",
    inputs: { ...policy, policyType: "on_call_readiness", onCallReadiness: {} },
    property: "onCallReadiness",
    reason: /not published/,
  },
  {
    kind: "Policy",
    title: "a schedule block (shape not published)",
    inputs: { ...policy, policyType: "schedule", schedule: {} },
    property: "schedule",
    reason: /not published/,
  },
  {
    kind: "Policy",
    title: "dueDateConfig that is not JSON object or list",
    inputs: { ...policy, followUp: { dueDateConfig: 14 } },
    property: "followUp",
    reason: /dueDateConfig/,
  },
  {
    kind: "Policy",
    title: "an empty condition group",
    inputs: { ...policy, conditions: [{ conditions: [] }] },
    property: "conditions",
  },
  { kind: "Policy", title: "status blank", inputs: { ...policy, status: "" }, property: "status" },
  {
    kind: "PayConfig",
    title: "a currency in lower case",
    inputs: { ...pay, currency: "gbp" },
    property: "currency",
    reason: /ISO 4217/,
  },
  {
    kind: "PayConfig",
    title: "a made-up currency",
    inputs: { ...pay, currency: "ABC" },
    property: "currency",
  },
  {
    kind: "PayConfig",
    title: "an unknown time zone",
    inputs: { ...pay, timezone: "GMT+25" },
    property: "timezone",
    reason: /IANA/,
  },
  {
    kind: "PayConfig",
    title: "a negative base rate",
    inputs: { ...pay, baseRateCents: -100 },
    property: "baseRateCents",
  },
  {
    kind: "PayConfig",
    title: "a base rate in pounds",
    inputs: { ...pay, baseRateCents: 5.5 },
    property: "baseRateCents",
  },
  {
    kind: "PayConfig",
    title: "missing rateTimeUnit",
    inputs: { ...pay, rateTimeUnit: undefined },
    property: "rateTimeUnit",
  },
  {
    kind: "PayConfig",
    title: "a weekly rule ending before it starts",
    inputs: { ...pay, weeklyRules: [{ ...weekly, startTime: "22:00", endTime: "06:00" }] },
    property: "weeklyRules",
    reason: /\[0\]\.endTime.*after startTime/,
  },
  {
    kind: "PayConfig",
    title: "a weekly rule time without a leading zero",
    inputs: { ...pay, weeklyRules: [{ ...weekly, startTime: "9:00" }] },
    property: "weeklyRules",
    reason: /\[0\]\.startTime.*HH:MM/,
  },
  {
    kind: "PayConfig",
    title: "a weekday abbreviated",
    inputs: { ...pay, weeklyRules: [{ ...weekly, weekdays: ["sat"] }] },
    property: "weeklyRules",
    reason: /\[0\]\.weekdays\[0\]/,
  },
  {
    kind: "PayConfig",
    title: "a weekday named twice",
    inputs: { ...pay, weeklyRules: [{ ...weekly, weekdays: ["saturday", "saturday"] }] },
    property: "weeklyRules",
    reason: /named twice/,
  },
  {
    kind: "PayConfig",
    title: "a one-off rule ending when it starts",
    inputs: { ...pay, oneOffRules: [{ ...oneOff, endAt: oneOff.startAt }] },
    property: "oneOffRules",
    reason: /\[0\]\.endAt.*after startAt/,
  },
  {
    kind: "PayConfig",
    title: "a one-off rule with a server-assigned id",
    inputs: { ...pay, oneOffRules: [{ ...oneOff, id: "01RULE" }] },
    property: "oneOffRules",
  },
  {
    kind: "PayConfig",
    title: "a one-off rule on a day that does not exist",
    inputs: { ...pay, oneOffRules: [{ ...oneOff, startAt: "2026-02-30T00:00:00Z" }] },
    property: "oneOffRules",
    reason: /\[0\]\.startAt/,
  },
];
