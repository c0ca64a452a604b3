/**
 * Opsgenie → this API. Reads the account (GET only: users, teams and their routing rules,
 * schedules with their rotations, escalations, integrations) and maps it:
 *
 * | Opsgenie | here | fidelity |
 * | --- | --- | --- |
 * | schedule (`timezone`) | `Schedule` | exact; a disabled schedule: approximate (it is active here) |
 * | rotation (every rotation on call at once) | a rotation of one layer (rotations are on call side by side here too) | exact |
 * | `type` and `length` | handovers (`hourly`, `daily`, `weekly` × length) | exact |
 * | `startDate` | `handoverStartAt`; a later start: a first version with nobody, then a version from it | exact |
 * | `endDate` | a last version with nobody, from it | exact |
 * | user participants | the rotation's users, in order | exact; nobody here with the address: left out |
 * | `none`, team and escalation participants | left out (the other turns close up) | approximate |
 * | `time-of-day`, `weekday-and-time-of-day` restrictions | `workingIntervals` | exact |
 * | escalation | `EscalationPath` | |
 * | rules (delays from the start of the escalation) | levels by delay, `timeToAckSeconds` = the next delay less this one; a first delay: a delay node | exact |
 * | rules with one delay | one level, every recipient | exact |
 * | user recipient; schedule recipient (`default`, `next`, `all`) | user target; schedule target (`currently_on_call`, `next_on_call`, `all_users`) | exact |
 * | `if-not-closed` | the level moves on when nobody acknowledges | approximate |
 * | team recipient, `previous` | left out | unmapped |
 * | `repeat` (`count`, `waitInterval`) | a `repeat` node back to the first node; the last level waits `waitInterval` | exact |
 * | integration | an `AlertSource` (its type where this API has one) and an `AlertRoute` escalating as its team's default routing rule does | approximate |
 */
import type { OpsgenieRotation, TimeRestriction } from "../../emulator/sources/opsgenie/shared/timeline";
import type { ApiClient } from "../../provider/client";
import {
  assemble,
  declare,
  isoSeconds,
  item,
  type MappingContext,
  mergeVersions,
  People,
  planFor,
  selectedBy,
  Teams,
  uniqueId,
  type VersionSpec,
  versionsInput,
  versionText,
} from "./common";
import {
  type Declaration,
  type HereAccount,
  type MigrateOptions,
  type Migration,
  objectRef,
  type PlannedObject,
} from "./model";
import type { Level, SourceView } from "./verify";
import { FULL_WEEK, union, WEEKDAYS, type WeekSet, weekSpan, weekText } from "./weekly";

// ---------- what the API answers (the fields read; shapes in emulator/sources/opsgenie/shapes.json) ----------

interface OgRecipient {
  type: string;
  id?: string;
  name?: string;
  username?: string;
}
/** A rotation as the API answers it (the emulator's type, from the same document; recipients named). */
type OgRotation = Omit<OpsgenieRotation, "participants"> & { participants: OgRecipient[] };
type OgRestriction = TimeRestriction;
export interface OgSchedule {
  id: string;
  name: string;
  timezone: string;
  enabled?: boolean;
  ownerTeam?: { id: string; name: string };
  rotations?: OgRotation[];
}
interface OgEscalation {
  id: string;
  name: string;
  ownerTeam?: { id: string; name: string };
  rules: Array<{
    condition: string;
    notifyType: string;
    delay: { timeAmount: number; timeUnit?: string };
    recipient: OgRecipient;
  }>;
  repeat?: {
    waitInterval?: number | null;
    count?: number | null;
    resetRecipientStates?: boolean | null;
    closeAlertAfterAll?: boolean | null;
  };
}
interface OgRoutingRule {
  id: string;
  name: string;
  isDefault: boolean;
  order: number;
  notify: OgRecipient;
}

export interface OpsgenieRead {
  users: Array<{ id: string; name: string; email: string }>;
  teams: Array<{ id: string; name: string; routingRules: OgRoutingRule[] }>;
  schedules: OgSchedule[];
  escalations: OgEscalation[];
  integrations: Array<{ id: string; name: string; type: string; enabled?: boolean; teamId?: string }>;
}

export async function readOpsgenie(client: ApiClient): Promise<OpsgenieRead> {
  const data = async <T>(path: string, operation: string, query?: Record<string, string>) =>
    (await client.get<{ data: T }>(path, operation, query)).data;
  const users: OpsgenieRead["users"] = [];
  for (let offset = 0; ; ) {
    const page = await client.get<{
      data: Array<{ id: string; username: string; fullName?: string }>;
      paging?: { next?: string };
    }>("/v2/users", "list users", { limit: "100", offset: String(offset) });
    users.push(...page.data.map((u) => ({ id: u.id, name: u.fullName ?? u.username, email: u.username })));
    if (!page.paging?.next || page.data.length === 0) break;
    offset += page.data.length;
  }
  const teams: OpsgenieRead["teams"] = [];
  for (const t of await data<Array<{ id: string; name: string }>>("/v2/teams", "list teams"))
    teams.push({
      id: t.id,
      name: t.name,
      routingRules: await data<OgRoutingRule[]>(
        `/v2/teams/${encodeURIComponent(t.id)}/routing-rules`,
        "list routing rules",
      ),
    });
  const schedules = await data<OgSchedule[]>("/v2/schedules", "list schedules", { expand: "rotation" });
  const escalations = await data<OgEscalation[]>("/v2/escalations", "list escalations");
  const integrations = await data<OpsgenieRead["integrations"]>("/v2/integrations", "list integrations");
  return { users, teams, schedules, escalations, integrations };
}

/** Who is on call in a schedule over the window, by Opsgenie's own timeline (every rotation). */
export async function opsgenieOnCall(
  client: ApiClient,
  scheduleId: string,
  window: { start: number; end: number },
): Promise<Array<{ start: number; end: number; userIds: string[] }>> {
  const days = Math.ceil((window.end - window.start) / 86_400_000);
  const { data } = await client.get<{
    data: {
      finalTimeline?: {
        rotations?: Array<{
          periods?: Array<{ startDate: string; endDate: string; recipient?: OgRecipient }>;
        }>;
      };
    };
  }>(`/v2/schedules/${encodeURIComponent(scheduleId)}/timeline`, "show schedule timeline", {
    date: isoSeconds(window.start),
    interval: String(days),
    intervalUnit: "days",
  });
  return (data.finalTimeline?.rotations ?? []).flatMap((r) =>
    (r.periods ?? [])
      .filter((p) => p.recipient?.type === "user" && p.recipient.id)
      .map((p) => ({
        start: Date.parse(p.startDate),
        end: Math.min(Date.parse(p.endDate), window.end),
        userIds: [p.recipient!.id!],
      })),
  );
}

// ---------- mapping ----------

const INTEGRATION_SOURCE_TYPES: Record<string, string> = {
  API: "http",
  Email: "email",
  Prometheus: "alertmanager",
  Alertmanager: "alertmanager",
  Datadog: "datadog",
  Grafana: "grafana",
  AmazonCloudWatch: "cloudwatch",
  CloudWatch: "cloudwatch",
  NewRelic: "new_relic",
  NewRelicV2: "new_relic",
  Sentry: "sentry",
  Pingdom: "pingdom",
  Nagios: "nagios",
  Honeycomb: "honeycomb",
  Dynatrace: "dynatrace",
};

const UNIT_MINUTES: Record<string, number> = { days: 1440, hours: 60, minutes: 1 };

/** A rotation's time restriction as hours of the week (local to the schedule). */
function restrictionHours(r: OgRestriction | undefined): WeekSet {
  if (!r) return FULL_WEEK;
  if (r.type === "time-of-day") {
    const s = r.restriction.startHour * 60 + r.restriction.startMin;
    const e = r.restriction.endHour * 60 + r.restriction.endMin;
    const length = (((e - s) % 1440) + 1440) % 1440 || 1440;
    return union(...WEEKDAYS.map((_, day) => weekSpan(day * 1440 + s, length)));
  }
  return union(
    ...r.restrictions.map((w) => {
      const s = (WEEKDAYS.indexOf(w.startDay as never) * 24 + w.startHour) * 60 + w.startMin;
      const e = (WEEKDAYS.indexOf(w.endDay as never) * 24 + w.endHour) * 60 + w.endMin;
      return weekSpan(s, (((e - s) % 10080) + 10080) % 10080 || 10080);
    }),
  );
}

type Context = MappingContext;

function mapSchedule(
  s: OgSchedule,
  ctx: Context,
  neededBy?: string,
): { plan: PlannedObject; declaration?: Declaration } {
  const { now } = ctx.options;
  const plan = planFor("schedule", s.id, s.name, neededBy);
  const where = `schedule "${s.name}"`;
  plan.items.push(item("exact", `time zone ${s.timezone}`, `timezone ${s.timezone}`));
  if (s.enabled === false)
    plan.items.push(
      item(
        "approximate",
        "disabled",
        "Opsgenie notifies nobody through a disabled schedule; here the schedule is active",
      ),
    );
  const taken = new Set<string>();
  const rotations: Record<string, unknown>[] = [];
  for (const r of s.rotations ?? []) {
    const label = `rotation "${r.name}"`;
    const start = Date.parse(r.startDate);
    const end = r.endDate ? Date.parse(r.endDate) : Number.POSITIVE_INFINITY;
    if (end <= now) {
      plan.items.push(item("exact", label, `ended ${isoSeconds(end)}: nothing to migrate`));
      continue;
    }
    const users = [];
    const dropped: string[] = [];
    for (const p of r.participants) {
      if (p.type === "user" && p.id) {
        const ref = ctx.people.ref(p.id, where);
        if (ref) users.push(ref);
        else dropped.push(`${ctx.people.label(p.id)} (no user here)`);
      } else if (p.type === "none") dropped.push("a turn of nobody (none)");
      else dropped.push(`${p.type} ${p.name ?? p.id ?? ""}`.trim());
    }
    const names = r.participants.map((p) =>
      p.type === "user" && p.id
        ? ctx.people.label(p.id)
        : p.type === "none"
          ? "none"
          : `${p.type} ${p.name ?? p.id}`,
    );
    plan.items.push(
      dropped.length === 0
        ? item("exact", `${label}: participants ${names.join(", ")}`, "the rotation's users, in turn")
        : item(
            "approximate",
            `${label}: participants ${names.join(", ")}`,
            `left out: ${dropped.join(", ")} (a rotation here takes users only); the others take the turns in order${users.length === 0 ? " (nobody is left: nobody is on call in this rotation)" : ""}`,
          ),
    );
    const length = r.length ?? 1;
    const intervalType = r.type;
    plan.items.push(
      item(
        "exact",
        `${label}: ${r.type} turns of ${length}`,
        `${intervalType} handovers, interval ${length}`,
      ),
    );
    const hours = restrictionHours(r.timeRestriction);
    if (r.timeRestriction)
      plan.items.push(item("exact", `${label}: time restriction`, `working intervals ${weekText(hours)}`));
    const on: VersionSpec = {
      from: now,
      nobody: false,
      handoverStartAt: r.startDate,
      handovers: [{ interval: length, intervalType }],
      users,
      hours,
    };
    const off = (from: number): VersionSpec => ({ ...on, from, nobody: true });
    const specs = mergeVersions([
      ...(start > now ? [off(now), { ...on, from: start }] : [on]),
      ...(Number.isFinite(end) ? [off(end)] : []),
    ]);
    if (specs.length > 1)
      plan.items.push(
        item(
          "exact",
          `${label}: ${start > now ? "starts later" : ""}${start > now && Number.isFinite(end) ? " and " : ""}${Number.isFinite(end) ? "ends" : ""}`,
          `rotation versions: ${specs.map((v, i) => versionText(v, i === 0)).join("; ")}`,
        ),
      );
    const texts = new Map<number, string>([
      [start, r.startDate],
      ...(r.endDate ? [[end, r.endDate] as [number, string]] : []),
    ]);
    const versions = versionsInput(specs, r.name).map((v, i) =>
      i > 0 && texts.has(specs[i]!.from) ? { ...v, effectiveFrom: texts.get(specs[i]!.from) } : v,
    );
    rotations.push({ id: uniqueId(r.name, "rotation", taken), name: r.name, versions });
  }
  if (rotations.length === 0) {
    plan.items.push(item("unmapped", "rotations", "no rotation is on call from now on: nothing to write"));
    return { plan };
  }
  const teamIds = s.ownerTeam ? ctx.teams.refs([s.ownerTeam.id], where, plan) : [];
  const declaration = declare(
    {
      key: `Schedule:${s.id}`,
      kind: "Schedule",
      sourceId: s.id,
      label: s.name,
      inputs: { name: s.name, timezone: s.timezone, rotations, ...(teamIds.length > 0 ? { teamIds } : {}) },
    },
    plan,
  );
  return { plan, declaration };
}

const SCHEDULE_MODES: Record<string, string> = {
  default: "currently_on_call",
  next: "next_on_call",
  all: "all_users",
};

function mapEscalation(
  e: OgEscalation,
  ctx: Context,
  schedules: Map<string, Declaration>,
  neededBy?: string,
) {
  const plan = planFor("escalation", e.id, e.name, neededBy);
  const where = `escalation "${e.name}"`;
  // Rules fire their delay after the escalation starts: levels by delay.
  const byDelay = new Map<number, typeof e.rules>();
  for (const r of e.rules) {
    const minutes = r.delay.timeAmount * (UNIT_MINUTES[r.delay.timeUnit ?? "minutes"] ?? 1);
    byDelay.set(minutes, [...(byDelay.get(minutes) ?? []), r]);
  }
  const delays = [...byDelay.keys()].sort((a, b) => a - b);
  const path: Record<string, unknown>[] = [];
  if ((delays[0] ?? 0) > 0) {
    path.push({ delay: { delaySeconds: delays[0]! * 60 } });
    plan.items.push(item("exact", `first rule after ${delays[0]} minutes`, "a delay node first"));
  }
  delays.forEach((minutes, i) => {
    const rules = byDelay.get(minutes)!;
    const targets: Record<string, unknown>[] = [];
    const at = `rules at ${minutes} minutes`;
    for (const r of rules) {
      const who = r.recipient;
      if (r.condition === "if-not-closed")
        plan.items.push(
          item(
            "approximate",
            `${at}: if not closed`,
            "here a level moves on when nobody acknowledges (an acknowledged alert stops the escalation)",
          ),
        );
      if (who.type === "user" && who.id) {
        const ref = ctx.people.ref(who.id, where);
        if (ref) targets.push({ type: "user", id: ref, urgency: "high" });
        else
          plan.items.push(
            item("approximate", `${at}: ${ctx.people.label(who.id)}`, "no user here: left out of the level"),
          );
      } else if (who.type === "schedule" && who.id) {
        const mode = SCHEDULE_MODES[r.notifyType];
        const target = schedules.get(who.id);
        const name = who.name ?? who.id;
        if (!mode)
          plan.items.push(
            item(
              "unmapped",
              `${at}: ${r.notifyType} on-call of schedule "${name}"`,
              "no schedule mode here pages the previous person on call",
            ),
          );
        else if (!target)
          plan.items.push(
            item(
              "approximate",
              `${at}: schedule "${name}"`,
              "the schedule is not migrated (see its plan): left out of the level",
            ),
          );
        else {
          targets.push({ type: "schedule", id: objectRef(target.key), urgency: "high", scheduleMode: mode });
          plan.items.push(
            item("exact", `${at}: schedule "${name}" (${r.notifyType})`, `a schedule target, ${mode}`),
          );
        }
      } else
        plan.items.push(
          item(
            "unmapped",
            `${at}: ${who.type} ${who.name ?? who.id ?? ""}`.trim(),
            `a ${who.type} recipient has no equivalent target here (page its escalation path or schedule instead)`,
          ),
        );
    }
    const next = delays[i + 1];
    const wait =
      next !== undefined
        ? (next - minutes) * 60
        : e.repeat?.count
          ? (e.repeat.waitInterval ?? 0) * 60
          : undefined;
    if (targets.length === 0) {
      if (wait !== undefined && wait > 0) path.push({ delay: { delaySeconds: wait } });
      plan.items.push(
        item(
          "approximate",
          at,
          wait
            ? "pages nobody here: a delay keeps the timing of the next rules"
            : "pages nobody here: left out",
        ),
      );
      return;
    }
    path.push({ level: { targets, ...(wait !== undefined ? { timeToAckSeconds: wait } : {}) } });
    plan.items.push(
      item(
        "exact",
        at,
        `level ${path.filter((n) => n.level).length}${wait !== undefined ? `, timeToAckSeconds ${wait}` : ""}`,
      ),
    );
  });
  if (!path.some((n) => n.level)) {
    plan.items.push(item("unmapped", "rules", "no rule pages anyone here: nothing to write"));
    return { plan };
  }
  const count = e.repeat?.count ?? 0;
  if (count > 0) {
    path[0] = { id: "start", ...path[0] };
    path.push({ repeat: { repeatTimes: count, toNode: "start" } });
    plan.items.push(
      item(
        "exact",
        `repeat ${count} times after ${e.repeat?.waitInterval ?? 0} minutes`,
        "the last level waits that long, then a repeat node back to the first node",
      ),
    );
    if (e.repeat?.resetRecipientStates)
      plan.items.push(item("unmapped", "repeat: reset recipient states", "no equivalent here"));
    if (e.repeat?.closeAlertAfterAll)
      plan.items.push(item("unmapped", "repeat: close the alert after all", "no equivalent here"));
  }
  const teamIds = e.ownerTeam ? ctx.teams.refs([e.ownerTeam.id], where, plan) : [];
  const declaration = declare(
    {
      key: `EscalationPath:${e.id}`,
      kind: "EscalationPath",
      sourceId: e.id,
      label: e.name,
      inputs: { name: e.name, path, ...(teamIds.length > 0 ? { teamIds } : {}) },
    },
    plan,
  );
  return { plan, declaration };
}

function mapIntegration(
  i: OpsgenieRead["integrations"][number],
  read: OpsgenieRead,
  ctx: Context,
  paths: Map<string, Declaration>,
): { plan: PlannedObject; declarations: Declaration[] } {
  const plan = planFor("integration", i.id, i.name);
  const sourceType = INTEGRATION_SOURCE_TYPES[i.type];
  const team = read.teams.find((t) => t.id === i.teamId);
  if (!sourceType) {
    plan.items.push(item("unmapped", `type ${i.type}`, "no alert source type here takes it"));
    return { plan, declarations: [] };
  }
  const where = `integration "${i.name}"`;
  const teamIds = team ? ctx.teams.refs([team.id], where, plan) : [];
  const owning = teamIds.length > 0 ? { owningTeamIds: teamIds } : {};
  const own = item(
    "approximate",
    `type ${i.type}`,
    `an alert source of type ${sourceType}: point the sender at it (its URL or address changes)`,
  );
  plan.items.push(own);
  const source = declare(
    {
      key: `AlertSource:${i.id}`,
      kind: "AlertSource",
      sourceId: i.id,
      label: i.name,
      inputs: {
        name: i.name,
        sourceType,
        template: { title: "{{ alert.title }}", description: "{{ alert.description }}" },
        ...owning,
      },
      noteItems: [own],
    },
    plan,
  );
  const declarations = [source];
  const rules = [...(team?.routingRules ?? [])].sort((a, b) => a.order - b.order);
  for (const r of rules.filter((x) => !x.isDefault))
    plan.items.push(
      item(
        "unmapped",
        `team "${team!.name}" routing rule "${r.name}"`,
        "conditions and time restrictions of routing rules are not migrated: add them to the route as conditions",
      ),
    );
  const fallback = rules.find((r) => r.isDefault);
  const target =
    fallback?.notify.type === "escalation" && fallback.notify.id ? paths.get(fallback.notify.id) : undefined;
  if (!target) {
    plan.items.push(
      item(
        "unmapped",
        "route",
        team
          ? `team "${team.name}"'s default routing rule does not notify a migrated escalation: no route is written`
          : "the integration has no team: no route is written",
      ),
    );
    return { plan, declarations };
  }
  plan.items.push(
    item(
      "exact",
      `team "${team!.name}" default routing rule`,
      `an alert route escalating to the path "${target.label}"`,
    ),
  );
  declarations.push(
    declare(
      {
        key: `AlertRoute:${i.id}`,
        kind: "AlertRoute",
        sourceId: i.id,
        label: i.name,
        inputs: {
          name: i.name,
          ...(i.enabled === false ? { enabled: false } : {}),
          alertSources: [{ alertSourceId: objectRef(source.key) }],
          escalationConfig: {
            autoCancelEscalations: true,
            escalationTargets: [{ escalationPaths: { arrayValue: [{ literal: objectRef(target.key) }] } }],
          },
          ...owning,
        },
      },
      plan,
    ),
  );
  return { plan, declarations };
}

export function mapOpsgenie(read: OpsgenieRead, here: HereAccount, options: MigrateOptions): Migration {
  const ctx: Context = { options, people: new People(read.users, here), teams: new Teams(read.teams, here) };
  // Schedules and escalations have an owner team, integrations a team id.
  const teamOf = (o: { ownerTeam?: { id: string }; teamId?: string }) => o.ownerTeam?.id ?? o.teamId;
  return assemble("opsgenie", ctx, {
    schedules: read.schedules,
    paths: read.escalations,
    routes: read.integrations,
    picked: (o) => selectedBy(options, ctx.teams, { name: o.name, teamIds: teamOf(o) ? [teamOf(o)!] : [] }),
    pathsOf: (i) => {
      const rule = read.teams.find((t) => t.id === i.teamId)?.routingRules.find((r) => r.isDefault);
      return rule?.notify.type === "escalation" && rule.notify.id ? [rule.notify.id] : [];
    },
    schedulesOf: (e) =>
      e.rules.flatMap((r) => (r.recipient.type === "schedule" && r.recipient.id ? [r.recipient.id] : [])),
    label: (o) => ("rules" in o ? `escalation "${o.name}"` : `integration "${o.name}"`),
    mapSchedule: (s, neededBy) => mapSchedule(s, ctx, neededBy),
    mapPath: (e, schedules, neededBy) => mapEscalation(e, ctx, schedules, neededBy),
    mapRoute: (i, paths) => mapIntegration(i, read, ctx, paths),
  });
}

// ---------- verify: what Opsgenie says ----------

/** Opsgenie's side of `--verify`: its schedule timelines, and its escalations' rules by delay. */
export function opsgenieView(client: ApiClient, read: OpsgenieRead): SourceView {
  const email = (id: string | undefined) => read.users.find((u) => u.id === id)?.email.toLowerCase();
  return {
    async onCall(scheduleId, window) {
      return (await opsgenieOnCall(client, scheduleId, window)).map((e) => ({
        start: e.start,
        end: e.end,
        emails: e.userIds.flatMap((id) => email(id) ?? []),
      }));
    },
    levels(escalationId) {
      const escalation = read.escalations.find((e) => e.id === escalationId);
      const byDelay = new Map<number, Level>();
      for (const r of escalation?.rules ?? []) {
        const minutes = r.delay.timeAmount * (UNIT_MINUTES[r.delay.timeUnit ?? "minutes"] ?? 1);
        const level = byDelay.get(minutes) ?? { afterMinutes: minutes, emails: [], schedules: [] };
        byDelay.set(minutes, level);
        const address = r.recipient.type === "user" ? email(r.recipient.id) : undefined;
        if (address) level.emails.push(address);
        if (r.recipient.type === "schedule" && r.recipient.id)
          level.schedules.push({ id: r.recipient.id, mode: SCHEDULE_MODES[r.notifyType] ?? r.notifyType });
      }
      return [...byDelay.values()].sort((a, b) => a.afterMinutes - b.afterMinutes);
    },
  };
}
