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

export const overrideCallRouteCases: BadInputCase[] = [
  {
    kind: "ScheduleOverride",
    title: "ends when it starts",
    inputs: { ...override, endAt: override.startAt },
    property: "endAt",
    reason: /must be after startAt/,
  },
  {
    kind: "ScheduleOverride",
    title: "ends before it starts (another offset)",
    inputs: { ...override, endAt: "2031-03-01T10:00:00+02:00" },
    property: "endAt",
    reason: /must be after startAt/,
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
    reason: /exactly one of id, email or slackUserId/,
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
];
