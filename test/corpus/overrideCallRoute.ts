/** Bad inputs of ScheduleOverride and CallRoute (issue 24): windows, user references, call route paths. */
import type { BadInputCase } from "./types";

const override = {
  scheduleId: "01S",
  rotationId: "primary",
  layerId: "01L",
  user: { email: "ada@example.com" },
  startAt: "2031-03-01T09:00:00Z",
  endAt: "2031-03-02T09:00:00Z",
};

const level = { level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }] } };
const route = {
  callRouteId: "01CALLROUTEMAIN",
  name: "Payments hotline",
  customLanguage: "en-GB",
  responderCallerId: "route_number",
  useCallerAllowlist: false,
  path: [level],
};

export const overrideCallRouteCases: BadInputCase[] = [
  {
    kind: "ScheduleOverride",
    title: "ends when it starts",
    inputs: { ...override, endAt: override.startAt },
    property: "endAt",
    outcome: "warning",
    warns: "endAt",
    reason: /is not after startAt \(2031-03-01T09:00:00Z\)/,
  },
  {
    kind: "ScheduleOverride",
    title: "ends before it starts (another offset)",
    inputs: { ...override, endAt: "2031-03-01T10:00:00+02:00" },
    property: "endAt",
    outcome: "warning",
    warns: "endAt",
    reason: /is not after startAt \(2031-03-01T09:00:00Z\)/,
  },
  {
    kind: "ScheduleOverride",
    title: "a timestamp without an offset",
    inputs: { ...override, startAt: "2031-03-01 09:00" },
    property: "startAt",
    reason: /RFC 3339/,
  },
  {
    kind: "ScheduleOverride",
    title: "a day that does not exist",
    inputs: { ...override, endAt: "2031-02-29T09:00:00Z" },
    property: "endAt",
    reason: /RFC 3339/,
  },
  {
    kind: "ScheduleOverride",
    title: "the user named two ways",
    inputs: { ...override, user: { id: "01USERADA", slackUserId: "U0ADA" } },
    property: "user",
    outcome: "warning",
    warns: "user",
    reason: /names the user by none or several of id, email and slackUserId/,
  },
  {
    kind: "ScheduleOverride",
    title: "the user as a bare id",
    inputs: { ...override, user: "01USERADA" },
    property: "user",
  },
  {
    kind: "ScheduleOverride",
    title: "missing layerId",
    inputs: { ...override, layerId: undefined },
    property: "layerId",
  },
  {
    kind: "ScheduleOverride",
    title: "a user_id (API spelling)",
    inputs: { ...override, user_id: "01USERADA" },
    property: "user_id",
  },
  {
    kind: "CallRoute",
    title: "no route to take over (call routes cannot be created)",
    inputs: { ...route, callRouteId: undefined },
    property: "callRouteId",
  },
  {
    kind: "CallRoute",
    title: "a responder caller id the API does not know",
    inputs: { ...route, responderCallerId: "my_mobile" },
    property: "responderCallerId",
    outcome: "warning",
    warns: "responderCallerId",
    reason: /is not a value the API is known to take.*did you mean "route_number"/,
  },
  {
    kind: "CallRoute",
    title: "an empty path (the API's way to keep the menu): leave it out instead",
    inputs: { ...route, path: [] },
    property: "path",
    outcome: "warning",
    warns: "path",
    reason: /is empty: the API keeps the route's routing as it is \(leave path out to say so\)/,
  },
  {
    kind: "CallRoute",
    title: "a node that is both a level and a voicemail",
    inputs: { ...route, path: [{ ...level, voicemail: { greetingText: "Hi" } }] },
    property: "path",
    reason: /exactly one of level, voicemail/,
  },
  {
    kind: "CallRoute",
    title: "a level with nobody to page",
    inputs: { ...route, path: [{ level: { targets: [] } }] },
    property: "path",
    outcome: "warning",
    warns: "path[0].level.targets",
    reason: /has no target/,
  },
  {
    kind: "CallRoute",
    title: "the allowed callers (not managed: their payload is not in the API's shapes)",
    inputs: { ...route, allowedCallers: ["+441234567890"] },
    property: "allowedCallers",
  },
  {
    kind: "CallRoute",
    title: "menu options (not managed)",
    inputs: { ...route, options: [{ digit: 1 }] },
    property: "options",
  },
  {
    kind: "CallRoute",
    title: "adoptId naming another route",
    inputs: { ...route, adoptId: "01OTHER" },
    property: "adoptId",
    reason: /must be callRouteId/,
  },
];
