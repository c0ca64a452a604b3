/**
 * Opsgenie family: schedules (opsgenie/opsgenie-oas `paths/schedule.yaml`,
 * `definitions/schedule.yaml`, `definitions/scheduleRotation.yaml`).
 * - `GET /v2/schedules` (listSchedules): every schedule; `rotations` only with `expand=rotation`
 *   ("Possible value is 'rotation' which is also returned with expandable field of response").
 * - `GET /v2/schedules/{identifier}` (getSchedule): the schedule with its rotations.
 * - `GET /v2/schedules/{identifier}/timeline` (getScheduleTimeline): `finalTimeline` (and
 *   `baseTimeline` with `expand=base`; no overrides or forwarding rules are held, so both are the
 *   same) computed by shared/timeline.ts for `date`, `interval` and `intervalUnit`. A rotation's
 *   periods name their recipient (`{id, type, name}`, a user's name being their username) with
 *   `type: "default"`. **Assumed**: `order` is the rotation's position (from 1).
 */
import { defineSourceFamily, SourceError } from "../family";
import { byIdentifier, envelope, type OpsgenieAccount, recipient, teamMeta } from "./shared/api";
import { rotationPeriods, timelineWindow } from "./shared/timeline";

type Schedule = OpsgenieAccount["schedules"][number];

function render(account: OpsgenieAccount, s: Schedule, withRotations: boolean) {
  const owner = teamMeta(account, s.ownerTeam);
  return {
    id: s.id,
    name: s.name,
    description: s.description ?? "",
    timezone: s.timezone,
    enabled: s.enabled ?? true,
    ...(owner ? { ownerTeam: owner } : {}),
    ...(withRotations
      ? {
          rotations: s.rotations.map((r) => ({
            id: r.id,
            name: r.name,
            startDate: r.startDate,
            ...(r.endDate ? { endDate: r.endDate } : {}),
            type: r.type,
            length: r.length ?? 1,
            participants: r.participants.map((p) => recipient(account, p)),
            ...(r.timeRestriction ? { timeRestriction: r.timeRestriction } : {}),
          })),
        }
      : {}),
  };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

function timeline(account: OpsgenieAccount, s: Schedule, query: URLSearchParams, now: number) {
  const dateText = query.get("date");
  const date = dateText === null ? now : Date.parse(dateText);
  if (Number.isNaN(date)) throw new SourceError(422, "date must be a date-time");
  const interval = Number(query.get("interval") ?? 1);
  if (!Number.isInteger(interval) || interval < 1)
    throw new SourceError(422, "interval must be a positive integer");
  const unit = (query.get("intervalUnit") ?? "weeks") as "days" | "weeks" | "months";
  if (!["days", "weeks", "months"].includes(unit))
    throw new SourceError(422, "intervalUnit must be one of days, weeks, months");
  const window = timelineWindow(date, interval, unit);
  const rotations = {
    rotations: s.rotations.map((r, i) => ({
      id: r.id,
      name: r.name,
      order: i + 1,
      periods: rotationPeriods(r, s.timezone, window).map((p) => {
        const who = recipient(account, p.recipient);
        return {
          startDate: iso(p.start),
          endDate: iso(p.end),
          type: "default",
          recipient: { id: who.id, type: who.type, name: who.username ?? who.name },
        };
      }),
    })),
  };
  const expand = (query.get("expand") ?? "").split(",");
  return {
    _parent: { id: s.id, name: s.name, enabled: s.enabled ?? true },
    startDate: iso(window.start),
    endDate: iso(window.end),
    finalTimeline: rotations,
    ...(expand.includes("base") ? { baseTimeline: rotations } : {}),
  };
}

export const schedules = defineSourceFamily<OpsgenieAccount>({
  name: "schedules",
  routes: [
    {
      method: "GET",
      path: "/v2/schedules",
      operationId: "listSchedules",
      response: { key: "data", type: "Schedule", list: true },
      handler: ({ account, query }) => {
        const expand = (query.get("expand") ?? "").split(",").includes("rotation");
        return envelope(
          account.schedules.map((s) => render(account, s, expand)),
          { expandable: ["rotation"] },
        );
      },
    },
    {
      method: "GET",
      path: "/v2/schedules/{identifier}",
      operationId: "getSchedule",
      response: { key: "data", type: "Schedule" },
      handler: ({ account, params, query }) =>
        envelope(
          render(account, byIdentifier(account.schedules, params.identifier!, query, "Schedule"), true),
        ),
    },
    {
      method: "GET",
      path: "/v2/schedules/{identifier}/timeline",
      operationId: "getScheduleTimeline",
      response: { key: "data", type: "ScheduleTimeline" },
      handler: ({ account, params, query, now }) =>
        envelope(
          timeline(
            account,
            byIdentifier(account.schedules, params.identifier!, query, "Schedule"),
            query,
            now,
          ),
          { expandable: ["base", "forwarding", "override"] },
        ),
    },
  ],
});
