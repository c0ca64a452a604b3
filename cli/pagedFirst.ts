/**
 * plan-report `--shifts`: "Who is paged first". For each escalation path the plan creates, changes
 * or replaces, and each path (of the plan or of `--state`) whose first level pages a schedule whose
 * shifts change: who an alert would page first at each moment of the window, before and after, as
 * runs (`weekdays 17:30–18:00: nobody → cat@example.com`), per group of priorities the path's
 * branches name.
 *
 * At each moment the path is walked as the service walks it, as far as the reference lets a reader
 * decide: a branch on the priority (`escalation.priority one_of`), a branch on one of the path's
 * working-hours windows (`escalation.working_hours["ID"] is_active`, the condition the Terraform
 * provider's examples write; `working_hours`: "The working hours for this escalation path", each a
 * `WeekdayIntervalConfigV2` whose `timezone` says "How to interpret all the intervals"), to the
 * first level or channel notification. Its targets: a user as themselves; a schedule as whoever is
 * on call in it then (the schedule entries' `final`, as cli/shifts.ts has them, or read for a
 * schedule the plan leaves as is), one rotation's only for the `*_for_rota` modes; a channel as the
 * channel. A branch on anything else cannot be decided here, and is said so.
 */
import { workingPieces } from "../emulator/families/shared/scheduleEntries";
import { localDayAndTime } from "../emulator/families/shared/zonedTime";
import { ApiError } from "../provider/errors";
import type { Props } from "../provider/spec";
import {
  items,
  type Names,
  type Pending,
  part,
  partsText,
  pendingText,
  scalar,
  type TargetLike,
  targetParts,
} from "./describe";
import { firstPagingNode, groupName, nodeText, type PathNode, priorities } from "./escalation";
import { canonicalInputs, specOf, TYPE_PREFIX } from "./kinds";
import { type Block, count, headingBlock, inlineCode, list, md, paragraph, strong } from "./markdown";
import type { PlannedResource } from "./planReport";
import {
  type Entry,
  localParts,
  refused,
  type ScheduleTimeline,
  type ShiftContext,
  serviceEntries,
  timeRange,
  Unavailable,
  userText,
} from "./shifts";
import { UNKNOWN } from "./values";

/** A stretch of time in which who is paged first differs, before → after. */
export interface PagedRun {
  start: string;
  end: string;
  before: string;
  after: string;
}

export interface PagedFirstGroup {
  /** `Priorities P1, P2`, `Any other priority`, `Every escalation`. */
  who: string;
  runs: PagedRun[];
  /** The runs in words, repeating ones said once (`weekdays 17:30–18:00 (Europe/London): nobody → …`). */
  lines: string[];
}

export interface PagedFirstReport {
  paths: PagedFirst[];
  /** One line when it could not be worked out (a key that may not read entries), and why. */
  unavailable?: string;
}

export interface PagedFirst {
  /** `EscalationPath payments`. */
  path: string;
  resource: string;
  op: string;
  /** The time zone the lines are in: the paged schedule's, else the working hours'. */
  timezone: string;
  /** Groups whose first paged changes; none when it does not change. */
  groups: PagedFirstGroup[];
  /** Schedules read for this path that the plan leaves as is. */
  requests: { scheduleEntries: number };
  notes: string[];
}

interface WorkingWindow {
  id: string;
  timezone: string;
  weekdayIntervals: { weekday: string; startTime: string; endTime: string }[];
}

interface Side {
  path: PathNode[] | undefined;
  working: WorkingWindow[];
  /** The schedule a target id names on this side. */
  timeline(id: unknown): ScheduleTimeline | undefined;
  side: "before" | "after";
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

function workingOf(inputs: Props | undefined): WorkingWindow[] {
  return items(inputs?.workingHours as WorkingWindow[] | undefined).filter(
    (w) => typeof w?.id === "string" && typeof w.timezone === "string",
  );
}

const api = (w: WorkingWindow) =>
  items(w.weekdayIntervals).map((i) => ({
    weekday: i.weekday,
    start_time: i.startTime,
    end_time: i.endTime,
  }));

function activeAt(windows: WorkingWindow[], t: number): (id: string) => boolean | undefined {
  return (id) => {
    const w = windows.find((x) => x.id === id);
    if (!w) return undefined;
    return workingPieces(api(w), t, t + 1, w.timezone).length > 0;
  };
}

/** Every schedule id a path's levels target. */
function scheduleTargets(path: PathNode[] | undefined): string[] {
  const ids = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      if (o.type === "schedule" && typeof o.id === "string") ids.add(o.id);
      Object.values(o).forEach(walk);
    }
  };
  walk(path);
  return [...ids];
}

/** Who a target is at `t` on a side: a user, whoever is on call in a schedule, a channel. */
function targetAt(
  t: TargetLike | Pending | null | undefined,
  at: number,
  side: Side,
  names: Names,
  seen: Map<string, string>,
): string {
  const target = part(t as TargetLike | null | undefined);
  if (!target) return pendingText(t) ?? "?";
  if (target.type === "schedule") {
    const timeline = side.timeline(target.id);
    const described = partsText(targetParts(target, names));
    const mode = scalar(target.scheduleMode, "currently_on_call");
    if (!timeline) return described;
    const entries = side.side === "before" ? timeline.before : timeline.after;
    if (!entries) return `${timeline.schedule} (its entries not known)`;
    if (mode.startsWith("all_users") || mode.startsWith("next_on_call"))
      return `${timeline.schedule} (${mode.replace(/_/g, " ")})`;
    const rota = mode.endsWith("_for_rota") ? scalar(target.selectedRotaId) : undefined;
    const on = entries.filter(
      (e: Entry) =>
        Date.parse(e.start_at) <= at &&
        at < Date.parse(e.end_at) &&
        (rota === undefined || e.rotation_id === rota),
    );
    const who = [...new Set(on.map((e) => timeline.who(e)))].sort();
    return who.length ? who.join(" + ") : `nobody (no one on call in ${timeline.schedule})`;
  }
  if (target.type === "user" && typeof target.id === "string" && target.id !== UNKNOWN)
    return userText({ id: target.id }, names, seen);
  return partsText(targetParts(target, names));
}

function pagedAt(
  side: Side,
  priority: string | undefined,
  at: number,
  names: Names,
  seen: Map<string, string>,
): string {
  if (!side.path) return "—";
  const { node, undecided } = firstPagingNode(side.path, priority, activeAt(side.working, at), names);
  if (undecided !== undefined) return `depends on ${undecided}`;
  if (!node) return "nobody (the path pages no one)";
  const step = part(node.level) ?? part(node.notifyChannel);
  if (!step) return nodeText(node, { names });
  const who = items(step.targets).map((t) => targetAt(t, at, side, names, seen));
  return [...new Set(who)].join(" + ") || "nobody";
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** `weekdays`, `weekends`, `every day`, `Mon–Thu` (three or more in a row), else `Mons, Weds`. */
function weekdaysText(days: string[]): string {
  const text = days.join();
  if (text === "Mon,Tue,Wed,Thu,Fri") return "weekdays";
  if (text === "Sun,Sat") return "weekends";
  if (days.length === 7) return "every day";
  const at = days.map((d) => WEEKDAYS.indexOf(d));
  const inARow = at.every((n, i) => i === 0 || n === at[i - 1]! + 1);
  if (days.length >= 3 && inARow) return `${days[0]}–${days[days.length - 1]}`;
  return days.map((d) => `${d}s`).join(", ");
}

/**
 * Runs in words: runs that recur on every occurrence of their weekdays in the window, with the
 * same times and the same change, said once (`weekdays 09:00–17:00`; overnight `Mon–Thu 17:30 –
 * 09:00 the next day`; over a weekend `every Fri 17:30 – Mon 09:00`); the others one by one.
 */
export function runLines(runs: PagedRun[], tz: string, window: { start: number; end: number }): string[] {
  // How often each weekday starts, in the window, a run that crosses `midnights` midnights and
  // still ends in it; and the days the window cuts.
  const occurrences = (wd: string, midnights: number) => {
    let n = 0;
    for (let t = window.start; t + midnights * 86_400_000 < window.end; t += 86_400_000)
      if (localParts(t, tz).day.startsWith(wd)) n++;
    return n;
  };
  const cut = new Set<string>();
  for (const t of [window.start, window.end - 1]) cut.add(localParts(t, tz).day.slice(0, 3));
  const groups = new Map<string, { runs: PagedRun[]; days: Map<string, number> }>();
  const single: PagedRun[] = [];
  for (const r of runs) {
    const [s, e] = [Date.parse(r.start), Date.parse(r.end)];
    const a = localParts(s, tz);
    const b = localParts(e, tz);
    // An end at midnight is the end of the day before (24:00).
    const to = b.time === "00:00" ? "24:00" : b.time;
    const midnights = localDayAndTime(to === "24:00" ? e - 60_000 : e, tz).days - localDayAndTime(s, tz).days;
    if (midnights < 0 || midnights > 6) {
      single.push(r);
      continue;
    }
    const key = JSON.stringify([a.time, to, midnights, r.before, r.after]);
    const g = groups.get(key) ?? { runs: [], days: new Map<string, number>() };
    g.runs.push(r);
    g.days.set(a.day.slice(0, 3), (g.days.get(a.day.slice(0, 3)) ?? 0) + 1);
    groups.set(key, g);
  }
  const lines: { at: number; text: string }[] = [];
  for (const [key, g] of groups) {
    const [from, to, midnights, before, after] = JSON.parse(key) as [string, string, number, string, string];
    // Every occurrence of each weekday in the window (a day cut by the window's edge counts once).
    const recurs =
      g.runs.length > 1 &&
      [...g.days].every(([wd, n]) => n >= 2 && n >= occurrences(wd, midnights) - (cut.has(wd) ? 1 : 0));
    if (!recurs) {
      single.push(...g.runs);
      continue;
    }
    const days = WEEKDAYS.filter((d) => g.days.has(d));
    const when =
      midnights === 0
        ? `${weekdaysText(days)} ${from}–${to}`
        : days.length === 1
          ? `every ${days[0]} ${from} – ${WEEKDAYS[(WEEKDAYS.indexOf(days[0]!) + midnights) % 7]} ${to}`
          : `${weekdaysText(days)} ${from} – ${to} ${midnights === 1 ? "the next day" : `${midnights} days later`}`;
    lines.push({ at: Date.parse(g.runs[0]!.start), text: `${when} (${tz}): ${before} → ${after}` });
  }
  for (const r of single)
    lines.push({
      at: Date.parse(r.start),
      text: `${timeRange(Date.parse(r.start), Date.parse(r.end), tz)}: ${r.before} → ${r.after}`,
    });
  return lines.sort((a, b) => a.at - b.at).map((l) => l.text);
}

/**
 * Who is paged first, per path: before and after, where it differs. `timelines` holds the schedules
 * cli/shifts.ts computed (by id and by URN); a schedule a path pages that the plan leaves as is is
 * read (one entries read, counted).
 */
export async function pagedFirstOf(
  planned: PlannedResource[],
  timelines: Map<string, ScheduleTimeline>,
  ctx: ShiftContext,
): Promise<PagedFirstReport> {
  // Users by e-mail as the entries name them (a path's user targets too, when they are on a rota).
  const seen = new Map<string, string>();
  const see = (entries: readonly Entry[] | undefined) => {
    for (const e of entries ?? []) if (e.user?.id && e.user.email) seen.set(e.user.id, e.user.email);
  };
  for (const t of timelines.values()) {
    see(t.before);
    see(t.after);
  }
  const changedSchedule = (id: string) => timelines.get(id)?.changes === true;
  // Paths in their canonical form (every node has its id), as the provider compares them.
  const spec = specOf(`${TYPE_PREFIX}EscalationPath`)!;
  const canonical = (p: Props | undefined) => (p ? canonicalInputs(spec, p) : undefined);
  const candidates: { resource: string; op: string; olds?: Props; news?: Props; dependsOn: string[] }[] = [];
  for (const r of planned)
    if (r.kind === "EscalationPath" && ["create", "update", "replace"].includes(r.op))
      candidates.push({
        resource: r.name,
        op: r.op,
        olds: canonical(r.olds),
        news: canonical(r.news),
        dependsOn: r.dependsOn,
      });
  const inPlan = new Set(candidates.map((c) => c.resource));
  for (const s of ctx.state)
    if (s.kind === "EscalationPath" && !inPlan.has(s.name)) {
      const path = s.outputs.path as PathNode[] | undefined;
      if (scheduleTargets(path).some(changedSchedule))
        candidates.push({
          resource: s.name,
          op: "unchanged",
          olds: s.outputs,
          news: s.outputs,
          dependsOn: [],
        });
    }
  const paths: PagedFirst[] = [];
  const read = new Map<string, ScheduleTimeline | undefined>();
  try {
    for (const c of candidates) {
      const requests = { scheduleEntries: 0 };
      const notes: string[] = [];
      const oldPath = c.op === "create" ? undefined : (c.olds?.path as PathNode[] | undefined);
      const newPath = c.news?.path as PathNode[] | undefined;
      const ids = [...new Set([...scheduleTargets(oldPath), ...scheduleTargets(newPath)])].filter(
        (id) => id !== UNKNOWN,
      );
      for (const id of ids)
        if (!timelines.has(id) && !read.has(id)) {
          try {
            const entries = await serviceEntries(ctx, id, {
              scheduleEntries: 0,
              previewEntries: 0,
              schedules: 0,
            });
            requests.scheduleEntries++;
            see(entries.final);
            const known = ctx.state.find((s) => s.kind === "Schedule" && s.id === id);
            // Its time zone from the state when it has it (else the lines use the working hours').
            const tz = (known?.outputs.timezone as string | undefined) ?? "";
            const label = ctx.names(id) ?? `schedule ${id}`;
            read.set(id, {
              schedule: label,
              op: "none",
              changes: false,
              timezone: tz,
              before: entries.final,
              after: entries.final,
              lane: (e) => ({ rotation: e.rotation_id, layer: e.layer_id ?? "", rotationId: e.rotation_id }),
              who: (e) => userText(e.user, ctx.names, seen),
            });
          } catch (error) {
            if (error instanceof ApiError && error.status === 403) refused(error, "read schedule entries");
            if (!(error instanceof ApiError)) throw error;
            read.set(id, undefined);
            notes.push(
              `the entries of ${ctx.names(id) ?? `schedule ${id}`} could not be read: ${error.message.replace(/\s+/g, " ")}`,
            );
          }
        }
      const lookup = (id: unknown): ScheduleTimeline | undefined => {
        if (typeof id !== "string") return undefined;
        if (id === UNKNOWN) {
          // The schedule the plan makes (or replaces) that this path depends on.
          const made = c.dependsOn
            .map((urn) => timelines.get(urn))
            .filter((t) => t && (t.op === "create" || t.op === "replace"));
          return made.length === 1 ? made[0] : undefined;
        }
        return timelines.get(id) ?? read.get(id);
      };
      const before: Side = { path: oldPath, working: workingOf(c.olds), timeline: lookup, side: "before" };
      const after: Side = { path: newPath, working: workingOf(c.news), timeline: lookup, side: "after" };
      const paged = [...new Set([...scheduleTargets(oldPath), ...scheduleTargets(newPath)])]
        .map(lookup)
        .filter((t): t is ScheduleTimeline => t !== undefined);
      const tz =
        paged.find((t) => t.timezone)?.timezone ??
        [...before.working, ...after.working][0]?.timezone ??
        "UTC";
      // Moments anything can change: entries start or end, working hours open or close.
      const cuts = new Set([ctx.window.start, ctx.window.end]);
      for (const t of paged)
        for (const e of [...(t.before ?? []), ...(t.after ?? [])])
          for (const x of [Date.parse(e.start_at), Date.parse(e.end_at)])
            if (x > ctx.window.start && x < ctx.window.end) cuts.add(x);
      for (const w of [...before.working, ...after.working])
        for (const [s, e] of workingPieces(api(w), ctx.window.start, ctx.window.end, w.timezone))
          for (const x of [s, e]) if (x > ctx.window.start && x < ctx.window.end) cuts.add(x);
      const points = [...cuts].sort((a, b) => a - b);
      const named = [...new Set([...(priorities(oldPath) ?? []), ...(priorities(newPath) ?? [])])].sort();
      const groups = new Map<string, { members: (string | undefined)[]; runs: PagedRun[] }>();
      for (const p of [...named, undefined]) {
        const runs: PagedRun[] = [];
        let open: PagedRun | undefined;
        for (let i = 0; i + 1 < points.length; i++) {
          const at = points[i]!;
          const was = c.op === "create" ? "— (a new path)" : pagedAt(before, p, at, ctx.names, seen);
          const now = pagedAt(after, p, at, ctx.names, seen);
          if (was === now) {
            open = undefined;
            continue;
          }
          if (open && open.before === was && open.after === now && Date.parse(open.end) === at)
            open.end = iso(points[i + 1]!);
          else {
            open = { start: iso(at), end: iso(points[i + 1]!), before: was, after: now };
            runs.push(open);
          }
        }
        if (runs.length === 0) continue;
        const key = JSON.stringify(runs);
        const g = groups.get(key) ?? { members: [], runs };
        g.members.push(p);
        groups.set(key, g);
      }
      paths.push({
        path: `EscalationPath ${c.resource}`,
        resource: c.resource,
        op: c.op,
        timezone: tz,
        groups: [...groups.values()].map((g) => ({
          who: groupName(g.members, named),
          runs: g.runs,
          lines: runLines(g.runs, tz, ctx.window),
        })),
        requests,
        notes,
      });
    }
  } catch (error) {
    if (!(error instanceof Unavailable)) throw error;
    return { paths: [], unavailable: error.message };
  }
  return { paths };
}

/** The "Who is paged first" section. */
export function pagedFirstBlocks(report: PagedFirstReport): Block[] {
  const { paths } = report;
  if (report.unavailable)
    return [headingBlock(3, md`Who is paged first`), paragraph(md`${report.unavailable}`)];
  if (paths.length === 0) return [];
  const out: Block[] = [headingBlock(3, md`Who is paged first`)];
  out.push(
    paragraph(
      md`Who an alert pages first, moment by moment over the same window, before → after: the path's branches on priority and working hours followed, a schedule's level as whoever is on call in it then.`,
    ),
  );
  for (const p of paths) {
    const head = md`${strong(md`EscalationPath ${inlineCode(p.resource)}`)} (${p.op === "unchanged" ? "unchanged; it pages a schedule whose shifts change" : p.op})`;
    const notes = p.notes.map((n) => md`_${n}_`);
    if (p.groups.length === 0) {
      out.push(paragraph(md`${head}: who is paged first does not change in the window.`));
      if (notes.length) out.push(list(notes));
      continue;
    }
    out.push(paragraph(head));
    const total = p.groups.reduce((n, g) => n + g.lines.length, 0);
    out.push(
      list([
        ...notes,
        ...p.groups.map((g) => ({
          item: md`${g.who}${total > 40 ? md` (${count(g.lines.length, "change")}; the JSON report has them all)` : md``}:`,
          sub: g.lines.slice(0, total > 40 ? 10 : g.lines.length).map((l) => md`${l}`),
        })),
      ]),
    );
  }
  return out;
}
