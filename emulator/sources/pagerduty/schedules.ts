/**
 * PagerDuty family: schedules (the document in shapes.json: `Schedule`, `ScheduleLayer`,
 * `Restriction`, `SubSchedule`, `ScheduleLayerEntry`, `Override`).
 * - `GET /schedules` (listSchedules): pages by `limit`/`offset`, filters by `query` and
 *   `team_ids[]`; `schedule_layers` only with `include[]=schedule_layers` (the listing "does not
 *   include" the computed sub-schedules: PagerDuty/api-schema issue #430).
 * - `GET /schedules/{id}` (getSchedule): "Show detailed information about a schedule, including
 *   entries for each layer": the layers, `final_schedule` and `overrides_subschedule`, their
 *   `rendered_schedule_entries` computed by shared/renderedSchedule.ts for the date range. `since`:
 *   "Defaults to 2 weeks before until if an until is given"; `until`: "Defaults to 2 weeks after
 *   since if a since is given"; with neither, no entries are rendered and coverage is `null`
 *   ("Since or until must be set in order for this field to be populated"). `time_zone`: the
 *   answer's times are written in it ("This will default to the schedule's time zone");
 *   `overflow=true`: entries are not cut at the range.
 * - `GET /schedules/{id}/overrides` (listScheduleOverrides): the overrides overlapping `since` to
 *   `until` (both required: 400 without them).
 */
import { defineSourceFamily, SourceError } from "../family";
import { filtered, find, links, many, type PagerDutyAccount, page, reference, timeIn } from "./shared/api";
import {
  coveragePercentage,
  finalSchedule,
  layerEntries,
  type RenderedEntry,
  type Window,
} from "./shared/renderedSchedule";

type Schedule = PagerDutyAccount["schedules"][number];

const TWO_WEEKS_MS = 14 * 86_400_000;

function parseTime(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const t = Date.parse(raw);
  if (Number.isNaN(t)) throw new SourceError(400, `Invalid Input Provided: ${name} is not a date-time`);
  return t;
}

/** The date range of a request, by the documented defaults; undefined when neither bound is given. */
function windowOf(query: URLSearchParams): Window | undefined {
  const since = parseTime(query, "since");
  const until = parseTime(query, "until");
  if (since === undefined && until === undefined) return undefined;
  const start = since ?? until! - TWO_WEEKS_MS;
  const end = until ?? since! + TWO_WEEKS_MS;
  if (end <= start) throw new SourceError(400, "Invalid Input Provided: until must be after since");
  return { start, end };
}

function render(
  account: PagerDutyAccount,
  schedule: Schedule,
  baseUrl: string,
  query: URLSearchParams,
  full: boolean,
) {
  const tz = query.get("time_zone") ?? schedule.time_zone;
  const window = full ? windowOf(query) : undefined;
  const overflow = query.get("overflow") === "true";
  const user = (id: string) => reference(account, "user", id, baseUrl);
  const entries = (list: RenderedEntry[]) =>
    list.map((e) => ({ user: user(e.user), start: timeIn(e.start, tz), end: timeIn(e.end, tz) }));
  const cut = (list: RenderedEntry[]) =>
    overflow || !window
      ? list
      : list.map((e) => ({ ...e, start: Math.max(e.start, window.start), end: Math.min(e.end, window.end) }));
  const overrides = schedule.overrides ?? [];
  const withLayers = full || many(query, "include").includes("schedule_layers");
  const layers = schedule.schedule_layers.map((l) => {
    const rendered = window ? cut(layerEntries(l, schedule.time_zone, window)) : [];
    return {
      id: l.id,
      name: l.name,
      start: timeIn(Date.parse(l.start), tz),
      end: l.end ? timeIn(Date.parse(l.end), tz) : null,
      users: l.users.map((u) => ({ user: user(u) })),
      restrictions: (l.restrictions ?? []).map((r) => ({ ...r })),
      rotation_virtual_start: timeIn(Date.parse(l.rotation_virtual_start), tz),
      rotation_turn_length_seconds: l.rotation_turn_length_seconds,
      ...(window
        ? {
            rendered_schedule_entries: entries(rendered),
            rendered_coverage_percentage: coveragePercentage(rendered, window),
          }
        : { rendered_coverage_percentage: null }),
    };
  });
  const sub = (name: "Final Schedule" | "Overrides", list: RenderedEntry[]) => ({
    name,
    ...(window
      ? {
          rendered_schedule_entries: entries(list),
          rendered_coverage_percentage: coveragePercentage(list, window),
        }
      : { rendered_coverage_percentage: null }),
  });
  const overrideEntries = overrides
    .map((o) => ({ start: Date.parse(o.start), end: Date.parse(o.end), user: o.user }))
    .filter((o) => window && o.end > window.start && o.start < window.end);
  const userIds = [...new Set(schedule.schedule_layers.flatMap((l) => l.users))];
  return {
    id: schedule.id,
    type: "schedule",
    summary: schedule.name,
    ...links("schedule", schedule.id, baseUrl),
    name: schedule.name,
    ...(schedule.description !== undefined ? { description: schedule.description } : {}),
    time_zone: schedule.time_zone,
    ...(withLayers ? { schedule_layers: layers } : {}),
    ...(full
      ? {
          final_schedule: sub(
            "Final Schedule",
            window
              ? finalSchedule(schedule.schedule_layers, overrides, schedule.time_zone, window, overflow)
              : [],
          ),
          overrides_subschedule: sub("Overrides", cut(overrideEntries)),
        }
      : {}),
    escalation_policies: account.escalation_policies
      .filter((p) => p.escalation_rules.some((r) => r.targets.some((t) => t.id === schedule.id)))
      .map((p) => reference(account, "escalation_policy", p.id, baseUrl)),
    users: userIds.map(user),
    teams: (schedule.teams ?? []).map((t) => reference(account, "team", t, baseUrl)),
  };
}

export const schedules = defineSourceFamily<PagerDutyAccount>({
  name: "schedules",
  routes: [
    {
      method: "GET",
      path: "/schedules",
      operationId: "listSchedules",
      response: { key: "schedules", type: "Schedule", list: true },
      handler: ({ account, query, baseUrl }) =>
        page(
          filtered(account.schedules, query).map((s) => render(account, s, baseUrl, query, false)),
          query,
          "schedules",
        ),
    },
    {
      method: "GET",
      path: "/schedules/{id}",
      operationId: "getSchedule",
      response: { key: "schedule", type: "Schedule" },
      handler: ({ account, params, query, baseUrl }) => ({
        schedule: render(account, find(account, "schedule", params.id!), baseUrl, query, true),
      }),
    },
    {
      method: "GET",
      path: "/schedules/{id}/overrides",
      operationId: "listScheduleOverrides",
      response: { key: "overrides", type: "Override", list: true },
      handler: ({ account, params, query, baseUrl }) => {
        const schedule: Schedule = find(account, "schedule", params.id!);
        const since = parseTime(query, "since");
        const until = parseTime(query, "until");
        if (since === undefined || until === undefined)
          throw new SourceError(400, "Invalid Input Provided: since and until are required");
        const tz = query.get("time_zone") ?? schedule.time_zone;
        return {
          overrides: (schedule.overrides ?? [])
            .filter((o) => Date.parse(o.end) > since && Date.parse(o.start) < until)
            .map((o) => ({
              id: o.id,
              start: timeIn(Date.parse(o.start), tz),
              end: timeIn(Date.parse(o.end), tz),
              user: reference(account, "user", o.user, baseUrl),
            })),
        };
      },
    },
  ],
});
