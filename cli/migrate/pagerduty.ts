/**
 * PagerDuty → this API. Reads the account (GET only: users, teams, schedules with their layers,
 * their overrides ahead, escalation policies, services with their integrations) and maps it:
 *
 * | PagerDuty | here | fidelity |
 * | --- | --- | --- |
 * | schedule (time zone) | `Schedule` (`timezone`) | exact (an IANA name; other names: not migrated) |
 * | layer | a rotation of one layer, its users in order | exact |
 * | `rotation_virtual_start`, `rotation_turn_length_seconds` | `handoverStartAt`, handovers in weeks, days or hours | exact (other lengths: rounded to hours) |
 * | daily and weekly restrictions | `workingIntervals` (local to the schedule) | exact to the minute |
 * | layers stacked (the highest with someone on call wins) | rotations side by side, each layer's hours less the hours of the layers above it | exact |
 * | a layer that starts or ends later | rotation versions with `effectiveFrom` (nobody before it starts, after it ends) | exact |
 * | a layer that ended | left out (history) | exact |
 * | overrides ahead | not migrated (one-off) | unmapped |
 * | escalation policy | `EscalationPath` | |
 * | rule, `escalation_delay_in_minutes` | a level, `timeToAckSeconds` | exact |
 * | user and schedule targets | user targets, schedule targets (`currently_on_call`) | exact |
 * | `num_loops` | a `repeat` node back to the first level | exact |
 * | round robin assignment | `roundRobinConfig` | approximate |
 * | service + integrations | an `AlertRoute` escalating to the path, an `AlertSource` per integration | approximate (senders move to the new source's URL or address) |
 * | user | `getUser` by e-mail | exact; nobody here with the address: named, left out |
 * | team | `getTeam` by name (`teamIds`) | exact; no team here of that name: named |
 */
import type { ApiClient } from "../../provider/client";
import {
  assemble,
  declare,
  handoversFor,
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
  type PlanItem,
  type PlannedObject,
  type Reference,
} from "./model";
import type { Level, SourceView } from "./verify";
import { FULL_WEEK, subtract, union, type WeekSet, weekSpan, weekText } from "./weekly";

// ---------- what the API answers (the fields read; shapes in emulator/sources/pagerduty/shapes.json) ----------

interface PdRef {
  id: string;
  type: string;
  summary?: string | null;
}
interface PdRestriction {
  type: "daily_restriction" | "weekly_restriction";
  start_time_of_day: string;
  duration_seconds: number;
  start_day_of_week?: number;
}
interface PdLayer {
  id: string;
  name?: string;
  start: string;
  end?: string | null;
  rotation_virtual_start: string;
  rotation_turn_length_seconds: number;
  users: Array<{ user: PdRef }>;
  restrictions?: PdRestriction[];
}
export interface PdSchedule {
  id: string;
  name: string;
  time_zone: string;
  schedule_layers: PdLayer[];
  teams?: PdRef[];
}
interface PdPolicy {
  id: string;
  name: string;
  num_loops?: number;
  on_call_handoff_notifications?: string;
  teams?: PdRef[];
  escalation_rules: Array<{
    id?: string;
    escalation_delay_in_minutes: number;
    targets: PdRef[];
    escalation_rule_assignment_strategy?: string;
  }>;
}
interface PdService {
  id: string;
  name: string;
  status?: string;
  escalation_policy: PdRef;
  teams?: PdRef[];
  integrations?: PdRef[];
  auto_resolve_timeout?: number | null;
  acknowledgement_timeout?: number | null;
}

export interface PagerDutyRead {
  users: Array<{ id: string; name: string; email: string }>;
  teams: Array<{ id: string; name: string }>;
  schedules: PdSchedule[];
  policies: PdPolicy[];
  services: PdService[];
  /** Overrides from now on, per schedule id. */
  overrides: Record<string, number>;
}

/** Every object of a list, page by page (`limit`/`offset`, until `more` is false). */
async function everyPage<T>(
  client: ApiClient,
  path: string,
  key: string,
  query: Record<string, string | string[]> = {},
) {
  const out: T[] = [];
  for (let offset = 0; ; ) {
    const page = await client.get<Record<string, unknown>>(path, `list ${key}`, {
      ...query,
      limit: "100",
      offset: String(offset),
    });
    const items = (page[key] as T[] | undefined) ?? [];
    out.push(...items);
    if (page.more !== true || items.length === 0) return out;
    offset += items.length;
  }
}

export async function readPagerDuty(
  client: ApiClient,
  overridesWindow: { start: number; end: number },
): Promise<PagerDutyRead> {
  const users = await everyPage<{ id: string; name: string; email: string }>(client, "/users", "users");
  const teams = await everyPage<{ id: string; name: string }>(client, "/teams", "teams");
  const listed = await everyPage<{ id: string }>(client, "/schedules", "schedules");
  const schedules: PdSchedule[] = [];
  const overrides: Record<string, number> = {};
  for (const s of listed) {
    const path = `/schedules/${encodeURIComponent(s.id)}`;
    schedules.push((await client.get<{ schedule: PdSchedule }>(path, "show schedule")).schedule);
    const found = await client.get<{ overrides: unknown[] }>(`${path}/overrides`, "list overrides", {
      since: isoSeconds(overridesWindow.start),
      until: isoSeconds(overridesWindow.end),
    });
    overrides[s.id] = found.overrides.length;
  }
  const policies = await everyPage<PdPolicy>(client, "/escalation_policies", "escalation_policies");
  const services = await everyPage<PdService>(client, "/services", "services", {
    "include[]": ["integrations"],
  });
  return { users, teams, schedules, policies, services, overrides };
}

/** Who is on call in a schedule's final schedule over the window: PagerDuty's own rendering. */
export async function pagerDutyOnCall(
  client: ApiClient,
  scheduleId: string,
  window: { start: number; end: number },
): Promise<Array<{ start: number; end: number; userIds: string[] }>> {
  const { schedule } = await client.get<{
    schedule: {
      final_schedule?: { rendered_schedule_entries?: Array<{ start: string; end: string; user?: PdRef }> };
    };
  }>(`/schedules/${encodeURIComponent(scheduleId)}`, "show schedule", {
    since: isoSeconds(window.start),
    until: isoSeconds(window.end),
    time_zone: "UTC",
  });
  return (schedule.final_schedule?.rendered_schedule_entries ?? []).map((e) => ({
    start: Date.parse(e.start),
    end: Date.parse(e.end),
    userIds: e.user ? [e.user.id] : [],
  }));
}

// ---------- mapping ----------

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return tz.includes("/") || tz === "UTC";
  } catch {
    return false;
  }
};

const INTEGRATION_SOURCE_TYPES: Record<string, { sourceType: string; exact: boolean }> = {
  events_api_v2_inbound_integration: { sourceType: "http", exact: false },
  generic_events_api_inbound_integration: { sourceType: "http", exact: false },
  generic_email_inbound_integration: { sourceType: "email", exact: true },
  aws_cloudwatch_inbound_integration: { sourceType: "cloudwatch", exact: true },
  nagios_inbound_integration: { sourceType: "nagios", exact: true },
  pingdom_inbound_integration: { sourceType: "pingdom", exact: true },
};

interface Layer {
  layer: PdLayer;
  index: number;
  name: string;
  start: number;
  end: number;
  hours: WeekSet;
}

/** A layer's restrictions as hours of the week (local to the schedule), to the minute, and what the plan says of them. */
function restrictionHours(layer: PdLayer, label: string): { hours: WeekSet; items: PlanItem[] } {
  const restrictions = layer.restrictions ?? [];
  if (restrictions.length === 0) return { hours: FULL_WEEK, items: [] };
  const sets: WeekSet[] = [];
  const items: PlanItem[] = [];
  for (const r of restrictions) {
    const [h = 0, m = 0, s = 0] = r.start_time_of_day.split(":").map(Number);
    const start = h * 60 + m;
    const length = Math.round(r.duration_seconds / 60);
    if (s !== 0 || r.duration_seconds % 60 !== 0)
      items.push(
        item(
          "approximate",
          `${label}: restriction from ${r.start_time_of_day} for ${r.duration_seconds} s`,
          "working intervals are whole minutes: rounded to the minute",
        ),
      );
    if (r.type === "daily_restriction")
      for (let day = 0; day < 7; day++) sets.push(weekSpan(day * 1440 + start, Math.min(length, 1440)));
    else sets.push(weekSpan(((r.start_day_of_week ?? 1) - 1) * 1440 + start, length));
  }
  const hours = union(...sets);
  items.push(
    item(
      "exact",
      `${label}: ${restrictions.map((r) => r.type.replace("_", " ")).join(", ")}`,
      `working intervals ${weekText(hours)}`,
    ),
  );
  return { hours, items };
}

interface Context extends MappingContext {
  read: PagerDutyRead;
}

function mapSchedule(
  s: PdSchedule,
  ctx: Context,
  neededBy?: string,
): { plan: PlannedObject; declaration?: Declaration } {
  const { now } = ctx.options;
  const plan = planFor("schedule", s.id, s.name, neededBy);
  if (!isTimeZone(s.time_zone)) {
    plan.items.push(
      item(
        "unmapped",
        `time zone "${s.time_zone}"`,
        "not an IANA time zone name (such as America/New_York): give the schedule one in PagerDuty, or write it by hand",
      ),
    );
    return { plan };
  }
  plan.items.push(item("exact", `time zone ${s.time_zone}`, `timezone ${s.time_zone}`));
  const where = `schedule "${s.name}"`;
  // The API lists layers highest first: the first with someone on call wins.
  const layers: Layer[] = s.schedule_layers.map((l, index) => ({
    layer: l,
    index,
    name: l.name ?? `Layer ${s.schedule_layers.length - index}`,
    start: Date.parse(l.start),
    end: l.end ? Date.parse(l.end) : Number.POSITIVE_INFINITY,
    hours: FULL_WEEK,
  }));
  const live = layers.filter((l) => {
    if (l.end > now) return true;
    plan.items.push(item("exact", `layer "${l.name}"`, `ended ${isoSeconds(l.end)}: nothing to migrate`));
    return false;
  });
  const restrictionItems = new Map<Layer, PlanItem[]>();
  for (const l of live) {
    const r = restrictionHours(l.layer, `layer "${l.name}"`);
    l.hours = r.hours;
    restrictionItems.set(l, r.items);
  }
  // Layers of one name where one ends as the next starts are one rotation (PagerDuty's edits).
  const chains: Layer[][] = [];
  for (const l of [...live].sort((a, b) => a.start - b.start)) {
    const chain = chains.find((c) => c[0]!.name === l.name && c[c.length - 1]!.end === l.start);
    if (chain) chain.push(l);
    else chains.push([l]);
  }
  // The instants where what is on call can change: starts and ends ahead.
  const texts = new Map<number, string>();
  for (const l of live) {
    texts.set(l.start, l.layer.start);
    if (l.layer.end) texts.set(l.end, l.layer.end);
  }
  const cuts = [...new Set([now, ...[...texts.keys()].filter((t) => t > now && Number.isFinite(t))])].sort(
    (a, b) => a - b,
  );
  const takenIds = new Set<string>();
  const rotations: Record<string, unknown>[] = [];
  for (const chain of [...chains].sort((a, b) => a[0]!.index - b[0]!.index).reverse()) {
    const name = chain[0]!.name;
    const label = `layer "${name}"`;
    for (const member of chain) {
      const refs = member.layer.users.flatMap((u) => {
        const ref = ctx.people.ref(u.user.id, where);
        return ref ? [ref] : [];
      });
      const missing = member.layer.users.filter((u) => !ctx.people.get(u.user.id)?.hereId);
      const names = member.layer.users.map((u) => ctx.people.label(u.user.id)).join(", ");
      if (missing.length === 0)
        plan.items.push(item("exact", `${label}: users ${names}`, "the rotation's users, in turn"));
      else
        plan.items.push(
          item(
            "approximate",
            `${label}: users ${names}`,
            `${missing.map((u) => ctx.people.label(u.user.id)).join(", ")} ${missing.length === 1 ? "has" : "have"} no user here: left out, the others take the turns in order${refs.length === 0 ? " (nobody is left: nobody is on call in this layer)" : ""}`,
          ),
        );
      const turns = handoversFor(member.layer.rotation_turn_length_seconds);
      plan.items.push(
        { ...turns.item, what: `${label}: ${turns.item.what}` },
        ...restrictionItems.get(member)!,
      );
      if (member.start > now)
        plan.items.push(
          item(
            "exact",
            `${label}: starts ${member.layer.start}`,
            "a rotation version from then (nobody before, unless an earlier layer of its name)",
          ),
        );
      (member as Layer & { refs?: Reference[] }).refs = refs;
      (member as Layer & { handovers?: unknown }).handovers = turns.handovers;
    }
    const specs: VersionSpec[] = cuts.map((from): VersionSpec => {
      const member = chain.find((m) => m.start <= from && from < m.end) as
        | (Layer & { refs: Reference[]; handovers: VersionSpec["handovers"] })
        | undefined;
      const nobody = {
        from,
        nobody: true,
        handoverStartAt: "",
        handovers: [],
        users: [],
        hours: [],
      } as VersionSpec;
      if (!member) return nobody;
      const above = live.filter(
        (q) => q.index < member.index && q.start <= from && from < q.end && q.layer.users.length > 0,
      );
      const hours = subtract(member.hours, union(...above.map((q) => q.hours)));
      if (hours.length === 0) return nobody;
      return {
        from,
        nobody: false,
        handoverStartAt: member.layer.rotation_virtual_start,
        handovers: member.handovers,
        users: member.refs,
        hours,
      };
    });
    const versions = mergeVersions(specs);
    if (versions.every((v) => v.nobody)) {
      plan.items.push(
        item("exact", label, "never on call from now on (the layers above it cover its hours): not written"),
      );
      continue;
    }
    // A version where nobody is on call takes its handovers from a neighbour (so the text is stable).
    versions.forEach((v, i) => {
      if (!v.nobody) return;
      const other =
        versions.slice(i + 1).find((x) => !x.nobody) ??
        [...versions.slice(0, i)].reverse().find((x) => !x.nobody)!;
      v.handoverStartAt = other.handoverStartAt;
      v.handovers = other.handovers;
    });
    const hidden = versions.some(
      (v) =>
        !v.nobody &&
        JSON.stringify(v.hours) !==
          JSON.stringify(chain.find((m) => m.start <= v.from && v.from < m.end)?.hours ?? v.hours),
    );
    if (hidden)
      plan.items.push(
        item(
          "exact",
          `${label}: under the layers above it`,
          "its working intervals leave out their hours (the highest layer with someone on call wins)",
        ),
      );
    if (versions.length > 1)
      plan.items.push(
        item(
          "exact",
          `${label}: changes ahead`,
          `rotation versions: ${versions.map((v, i) => versionText(v, i === 0)).join("; ")}`,
        ),
      );
    const input = versionsInput(versions, name).map((v, i) =>
      i > 0 && texts.has(versions[i]!.from) ? { ...v, effectiveFrom: texts.get(versions[i]!.from) } : v,
    );
    rotations.push({ id: uniqueId(name, "layer", takenIds), name, versions: input });
  }
  if (rotations.length === 0) {
    plan.items.push(item("unmapped", "layers", "no layer has anyone on call from now on: nothing to write"));
    return { plan };
  }
  const overrides = ctx.read.overrides[s.id] ?? 0;
  if (overrides > 0)
    plan.items.push(
      item(
        "unmapped",
        `${overrides} override${overrides === 1 ? "" : "s"} ahead`,
        "one-off changes are not migrated: add them here (ScheduleOverride, or the dashboard) once the schedule exists",
      ),
    );
  const teamIds = ctx.teams.refs(
    (s.teams ?? []).map((t) => t.id),
    where,
    plan,
  );
  const declaration = declare(
    {
      key: `Schedule:${s.id}`,
      kind: "Schedule",
      sourceId: s.id,
      label: s.name,
      inputs: { name: s.name, timezone: s.time_zone, rotations, ...(teamIds.length > 0 ? { teamIds } : {}) },
    },
    plan,
  );
  return { plan, declaration };
}

function mapPolicy(
  p: PdPolicy,
  ctx: Context,
  schedules: Map<string, Declaration>,
  neededBy?: string,
): { plan: PlannedObject; declaration?: Declaration } {
  const plan = planFor("escalation policy", p.id, p.name, neededBy);
  const where = `escalation policy "${p.name}"`;
  const path: Record<string, unknown>[] = [];
  p.escalation_rules.forEach((rule, i) => {
    const level = `rule ${i + 1}`;
    const targets: Record<string, unknown>[] = [];
    for (const t of rule.targets) {
      if (t.type.startsWith("user")) {
        const ref = ctx.people.ref(t.id, where);
        if (ref) targets.push({ type: "user", id: ref, urgency: "high" });
        else
          plan.items.push(
            item("approximate", `${level}: ${ctx.people.label(t.id)}`, "no user here: left out of the level"),
          );
      } else if (t.type.startsWith("schedule")) {
        const target = schedules.get(t.id);
        const name = t.summary ?? t.id;
        if (target) {
          targets.push({
            type: "schedule",
            id: objectRef(target.key),
            urgency: "high",
            scheduleMode: "currently_on_call",
          });
          plan.items.push(
            item("exact", `${level}: schedule "${name}"`, "a schedule target paging whoever is on call"),
          );
        } else
          plan.items.push(
            item(
              "approximate",
              `${level}: schedule "${name}"`,
              "the schedule is not migrated (see its plan): left out of the level",
            ),
          );
      } else plan.items.push(item("unmapped", `${level}: target ${t.type}`, "no such target here"));
    }
    const minutes = rule.escalation_delay_in_minutes;
    if (targets.length === 0) {
      path.push({ delay: { delaySeconds: minutes * 60 } });
      plan.items.push(
        item("approximate", `${level}`, `pages nobody here: a delay of ${minutes} minutes keeps the timing`),
      );
      return;
    }
    const roundRobin = rule.escalation_rule_assignment_strategy === "round_robin";
    if (roundRobin)
      plan.items.push(
        item(
          "approximate",
          `${level}: round robin`,
          "PagerDuty assigns each incident to the next target; here one target is paged at a time, in turn (roundRobinConfig)",
        ),
      );
    path.push({
      level: {
        targets,
        timeToAckSeconds: minutes * 60,
        ...(roundRobin ? { roundRobinConfig: { enabled: true } } : {}),
      },
    });
    plan.items.push(
      item(
        "exact",
        `${level}: escalates after ${minutes} minutes`,
        `level ${path.length}, timeToAckSeconds ${minutes * 60}`,
      ),
    );
  });
  if (path.length === 0 || !path.some((n) => n.level)) {
    plan.items.push(item("unmapped", "rules", "no rule pages anyone here: nothing to write"));
    return { plan };
  }
  const loops = p.num_loops ?? 0;
  if (loops > 0) {
    path[0] = { id: "start", ...path[0] };
    path.push({ repeat: { repeatTimes: loops, toNode: "start" } });
    plan.items.push(
      item(
        "exact",
        `repeats ${loops} time${loops === 1 ? "" : "s"} (num_loops)`,
        `a repeat node back to the first level, ${loops} time${loops === 1 ? "" : "s"}`,
      ),
    );
  }
  if (p.on_call_handoff_notifications === "always")
    plan.items.push(
      item(
        "unmapped",
        "on-call handoff notifications: always",
        "set per person here (notification rules), not on a path",
      ),
    );
  const teamIds = ctx.teams.refs(
    (p.teams ?? []).map((t) => t.id),
    where,
    plan,
  );
  const declaration = declare(
    {
      key: `EscalationPath:${p.id}`,
      kind: "EscalationPath",
      sourceId: p.id,
      label: p.name,
      inputs: { name: p.name, path, ...(teamIds.length > 0 ? { teamIds } : {}) },
    },
    plan,
  );
  return { plan, declaration };
}

function mapService(
  s: PdService,
  ctx: Context,
  paths: Map<string, Declaration>,
): { plan: PlannedObject; declarations: Declaration[] } {
  const plan = planFor("service", s.id, s.name);
  const where = `service "${s.name}"`;
  const teamIds = ctx.teams.refs(
    (s.teams ?? []).map((t) => t.id),
    where,
    plan,
  );
  const owning = teamIds.length > 0 ? { owningTeamIds: teamIds } : {};
  const declarations: Declaration[] = [];
  const sources: Declaration[] = [];
  const resolveItems = s.auto_resolve_timeout
    ? [
        item(
          "approximate",
          `auto-resolve after ${s.auto_resolve_timeout} s`,
          `its alert sources resolve alerts after ${Math.round(s.auto_resolve_timeout / 60)} minutes (PagerDuty resolves the incident)`,
        ),
      ]
    : [];
  plan.items.push(...resolveItems);
  for (const integration of s.integrations ?? []) {
    const kind = integration.type.replace(/_reference$/, "");
    const name = `${s.name}: ${integration.summary ?? integration.id}`;
    const mapped = INTEGRATION_SOURCE_TYPES[kind];
    if (!mapped) {
      plan.items.push(
        item(
          "unmapped",
          `integration "${integration.summary ?? integration.id}" (${kind})`,
          "no alert source type here takes it",
        ),
      );
      continue;
    }
    const own = item(
      mapped.exact ? "exact" : "approximate",
      `integration "${integration.summary ?? integration.id}" (${kind})`,
      mapped.exact
        ? `an alert source of type ${mapped.sourceType}; point the sender at its ${mapped.sourceType === "email" ? "address" : "URL"} here`
        : `an alert source of type ${mapped.sourceType}: the sender must post this API's alert format to its URL (the Events API v2 format is PagerDuty's)`,
    );
    plan.items.push(own);
    sources.push(
      declare(
        {
          key: `AlertSource:${s.id}:${integration.id}`,
          kind: "AlertSource",
          sourceId: `${s.id}/${integration.id}`,
          label: name,
          inputs: {
            name,
            sourceType: mapped.sourceType,
            template: { title: "{{ alert.title }}", description: "{{ alert.description }}" },
            ...(s.auto_resolve_timeout
              ? { autoResolveTimeoutMinutes: Math.max(1, Math.round(s.auto_resolve_timeout / 60)) }
              : {}),
            ...owning,
          },
          noteItems: [own, ...resolveItems],
        },
        plan,
      ),
    );
  }
  declarations.push(...sources);
  if (s.acknowledgement_timeout)
    plan.items.push(
      item(
        "unmapped",
        `acknowledgement timeout ${s.acknowledgement_timeout} s`,
        "an acknowledged incident does not go back to triggered here",
      ),
    );
  const path = paths.get(s.escalation_policy.id);
  if (!path) {
    plan.items.push(
      item(
        "unmapped",
        `escalation policy "${s.escalation_policy.summary ?? s.escalation_policy.id}"`,
        "not migrated (see its plan): no route is written",
      ),
    );
    return { plan, declarations };
  }
  if (sources.length === 0) {
    plan.items.push(
      item("unmapped", "route", "no integration maps to an alert source here: no route is written"),
    );
    return { plan, declarations };
  }
  const disabled = s.status === "disabled";
  plan.items.push(
    item(
      "exact",
      `escalation policy "${path.label}"`,
      `an alert route for its sources, escalating to the path${disabled ? " (written disabled, as the service is)" : ""}`,
    ),
  );
  declarations.push(
    declare(
      {
        key: `AlertRoute:${s.id}`,
        kind: "AlertRoute",
        sourceId: s.id,
        label: s.name,
        inputs: {
          name: s.name,
          ...(disabled ? { enabled: false } : {}),
          alertSources: sources.map((src) => ({ alertSourceId: objectRef(src.key) })),
          escalationConfig: {
            autoCancelEscalations: true,
            escalationTargets: [{ escalationPaths: { arrayValue: [{ literal: objectRef(path.key) }] } }],
          },
          ...owning,
        },
      },
      plan,
    ),
  );
  return { plan, declarations };
}

export function mapPagerDuty(read: PagerDutyRead, here: HereAccount, options: MigrateOptions): Migration {
  const ctx: Context = {
    options,
    people: new People(read.users, here),
    teams: new Teams(read.teams, here),
    read,
  };
  return assemble("pagerduty", ctx, {
    schedules: read.schedules,
    paths: read.policies,
    routes: read.services,
    picked: (o) =>
      selectedBy(options, ctx.teams, { name: o.name, teamIds: (o.teams ?? []).map((t) => t.id) }),
    pathsOf: (s) => [s.escalation_policy.id],
    schedulesOf: (p) =>
      p.escalation_rules.flatMap((r) =>
        r.targets.filter((t) => t.type.startsWith("schedule")).map((t) => t.id),
      ),
    label: (o) => ("escalation_rules" in o ? `escalation policy "${o.name}"` : `service "${o.name}"`),
    mapSchedule: (s, neededBy) => mapSchedule(s, ctx, neededBy),
    mapPath: (p, schedules, neededBy) => mapPolicy(p, ctx, schedules, neededBy),
    mapRoute: (s, paths) => mapService(s, ctx, paths),
  });
}

// ---------- verify: what PagerDuty says ----------

/** PagerDuty's side of `--verify`: its rendered final schedules, and its policies' levels. */
export function pagerDutyView(client: ApiClient, read: PagerDutyRead): SourceView {
  const email = (id: string) => read.users.find((u) => u.id === id)?.email.toLowerCase();
  return {
    async onCall(scheduleId, window) {
      return (await pagerDutyOnCall(client, scheduleId, window)).map((e) => ({
        start: e.start,
        end: e.end,
        emails: e.userIds.flatMap((id) => email(id) ?? []),
      }));
    },
    levels(policyId) {
      const policy = read.policies.find((p) => p.id === policyId);
      let after = 0;
      return (policy?.escalation_rules ?? []).map((rule) => {
        const level: Level = {
          afterMinutes: after,
          emails: rule.targets.filter((t) => t.type.startsWith("user")).flatMap((t) => email(t.id) ?? []),
          schedules: rule.targets
            .filter((t) => t.type.startsWith("schedule"))
            .map((t) => ({ id: t.id, mode: "currently_on_call" })),
        };
        after += rule.escalation_delay_in_minutes;
        return level;
      });
    },
  };
}
