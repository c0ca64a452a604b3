/**
 * `migrate --verify`: the proof. For every migrated schedule, who is on call in the source (its own
 * computation: PagerDuty's rendered final schedule, Opsgenie's timeline) against who is on call
 * here (`GET /v2/schedule_entries`: this API's schedule entries, computed by the evaluator behind
 * `preview_entries`, for the schedule `pulumi up` made), over a window; and for every migrated
 * escalation policy, who is paged at each level at each instant, and after how long. People are
 * compared by e-mail address. Read-only on both sides: the schedules' ids come from the stack's
 * output `migrated` (`pulumi stack output --json`), so verifying needs no key that may write.
 *
 * What it prints for each object: no difference, or the intervals where the people differ
 * (start, end, who in the source, who here). An object the plan calls exact must show none.
 *
 * Before `pulumi up` (no stack outputs): the same comparison against the written configuration,
 * computed here by pulumi-incident's copy of the service's rules (the emulator's evaluator, as
 * plan-report computes a new schedule), since the service previews only a schedule that exists.
 * The report says which side "here" is.
 */
import type { ApiClient } from "../../provider/client";
import { scheduleInputs } from "../../resources/schedule";
import { oneLine } from "../markdown";
import type { ReadOnlyClient } from "../readOnlyClient";
import { serviceEntries, writtenEntries } from "../shifts";
import { isoSeconds } from "./common";
import { type Declaration, type Fidelity, fidelityOf, type Migration } from "./model";
import { sourceTitle } from "./sourceClient";

export interface Window {
  start: number;
  end: number;
}

/** Who is on call from `start` to `end` (people by e-mail, lower case). */
export interface OnCall {
  start: number;
  end: number;
  emails: string[];
}

/** An interval where the two sides differ. */
export interface Difference {
  start: number;
  end: number;
  source: string[];
  here: string[];
}

/** A level of an escalation, as both sides are read for the check. */
export interface Level {
  /** Minutes from the start of the escalation to this level's pages. */
  afterMinutes: number;
  emails: string[];
  /** Schedules paged (an id of that side), and whom of them. */
  schedules: Array<{ id: string; mode: string }>;
}

/** What verify reads of the source (the vendor's module answers it). */
export interface SourceView {
  onCall(scheduleId: string, window: Window): Promise<OnCall[]>;
  levels(policyId: string): Level[];
}

export interface ObjectCheck {
  /** The source's word for it: `schedule`, `escalation policy` (PagerDuty), `escalation` (Opsgenie). */
  kind: string;
  name: string;
  sourceId: string;
  fidelity: Fidelity;
  /** Why it could not be checked (not in the stack's outputs, gone here, …). */
  problem?: string;
  differences: Difference[];
  /** Escalation policies: per level, the delays and differences. */
  levels?: Array<{
    level: number;
    sourceAfter?: number;
    hereAfter?: number;
    differences: Difference[];
    note?: string;
  }>;
}

export interface VerifyReport {
  source: Migration["source"];
  window: Window;
  /** What "here" is: the service's entries of the created objects, or the written configuration computed here. */
  here: "service" | "computed here";
  checks: ObjectCheck[];
}

/** The differing intervals of two timelines within the window, touching ones of the same people joined. */
export function differences(
  source: readonly OnCall[],
  here: readonly OnCall[],
  window: Window,
): Difference[] {
  const cuts = new Set<number>([window.start, window.end]);
  for (const e of [...source, ...here]) {
    if (e.start > window.start && e.start < window.end) cuts.add(e.start);
    if (e.end > window.start && e.end < window.end) cuts.add(e.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const who = (list: readonly OnCall[], s: number, e: number) =>
    [...new Set(list.filter((x) => x.start <= s && x.end >= e).flatMap((x) => x.emails))].sort();
  const out: Difference[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [s, e] = [points[i]!, points[i + 1]!];
    const a = who(source, s, e);
    const b = who(here, s, e);
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const last = out[out.length - 1];
    if (
      last &&
      last.end === s &&
      JSON.stringify(last.source) === JSON.stringify(a) &&
      JSON.stringify(last.here) === JSON.stringify(b)
    )
      last.end = e;
    else out.push({ start: s, end: e, source: a, here: b });
  }
  return out;
}

/** This account's entries of a schedule over the window (every page: the shifts' reader), as who is on call. */
export async function hereOnCall(
  client: ReadOnlyClient,
  scheduleId: string,
  window: Window,
  emails: Map<string, string>,
): Promise<OnCall[]> {
  const requests = { scheduleEntries: 0, previewEntries: 0, schedules: 0 };
  const { final } = await serviceEntries(
    { client, window, names: () => undefined, state: [] },
    scheduleId,
    requests,
  );
  return final.map((e) => {
    const email = (e.user?.email ?? (e.user?.id ? emails.get(e.user.id) : undefined))?.toLowerCase();
    return { start: Date.parse(e.start_at), end: Date.parse(e.end_at), emails: email ? [email] : [] };
  });
}

/** The levels of an escalation path here (top-level nodes: delays add up, a repeat ends the walk). */
export async function hereLevels(
  client: ApiClient,
  pathId: string,
  emails: Map<string, string>,
): Promise<Level[]> {
  const { escalation_path } = await client.get<{
    escalation_path: {
      path: Array<{
        type: string;
        level?: {
          targets: Array<{ type: string; id: string; schedule_mode?: string }>;
          time_to_ack_seconds?: number;
        };
        delay?: { delay_seconds?: number };
      }>;
    };
  }>(`/v2/escalation_paths/${encodeURIComponent(pathId)}`, "show escalation path");
  const levels: Level[] = [];
  let seconds = 0;
  for (const node of escalation_path.path) {
    if (node.type === "repeat") break;
    if (node.type === "delay") seconds += node.delay?.delay_seconds ?? 0;
    if (node.type !== "level" || !node.level) continue;
    levels.push({
      afterMinutes: seconds / 60,
      emails: node.level.targets
        .filter((t) => t.type === "user")
        .flatMap((t) => emails.get(t.id)?.toLowerCase() ?? []),
      schedules: node.level.targets
        .filter((t) => t.type === "schedule")
        .map((t) => ({ id: t.id, mode: t.schedule_mode || "currently_on_call" })),
    });
    seconds += node.level.time_to_ack_seconds ?? 0;
  }
  return levels;
}

/** A migration's references as the local computation names them: people by e-mail, the rest by name or key. */
function referencesByName(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(referencesByName);
  if (value === null || typeof value !== "object") return value;
  const v = value as Record<string, unknown>;
  if (typeof v.$user === "string") return v.$user.toLowerCase();
  if (typeof v.$team === "string") return v.$team;
  if (typeof v.$object === "string") return v.$object;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, referencesByName(x)]));
}

/**
 * Who is on call in a schedule as the migration writes it, before it exists: its configuration
 * (the provider's own payload) through the evaluator behind the emulator's `preview_entries`.
 */
export function writtenOnCall(declaration: Declaration, window: Window): OnCall[] {
  const parsed = scheduleInputs.safeParse(referencesByName(declaration.inputs));
  if (!parsed.success) throw new Error(`its inputs do not check: ${parsed.error.issues[0]?.message}`);
  const { final } = writtenEntries(parsed.data, window);
  return final.map((e) => ({
    start: Date.parse(e.start_at),
    end: Date.parse(e.end_at),
    emails: e.user?.id ? [e.user.id] : [],
  }));
}

/** The levels of an escalation path as the migration writes it: schedules named by their declaration's key. */
export function writtenLevels(declaration: Declaration): Level[] {
  type Node = {
    level?: {
      targets: Array<{ type: string; id: string; scheduleMode?: string }>;
      timeToAckSeconds?: number;
    };
    delay?: { delaySeconds?: number };
    repeat?: unknown;
  };
  const path = (referencesByName(declaration.inputs.path) ?? []) as Node[];
  const levels: Level[] = [];
  let seconds = 0;
  for (const node of path) {
    if (node.repeat) break;
    if (node.delay) seconds += node.delay.delaySeconds ?? 0;
    if (!node.level) continue;
    levels.push({
      afterMinutes: seconds / 60,
      emails: node.level.targets.filter((t) => t.type === "user").map((t) => t.id),
      schedules: node.level.targets
        .filter((t) => t.type === "schedule")
        .map((t) => ({ id: t.id, mode: t.scheduleMode || "currently_on_call" })),
    });
    seconds += node.level.timeToAckSeconds ?? 0;
  }
  return levels;
}

/** Who a level pages over the window: its users, and whoever is on call in its schedules. */
async function pagedBy(
  level: Level,
  window: Window,
  onCall: (id: string) => Promise<OnCall[]>,
): Promise<{ timeline: OnCall[]; note?: string }> {
  const timeline: OnCall[] = [{ start: window.start, end: window.end, emails: level.emails }];
  const skipped: string[] = [];
  for (const s of level.schedules) {
    if (s.mode !== "currently_on_call") {
      skipped.push(s.mode);
      continue;
    }
    timeline.push(...(await onCall(s.id)));
  }
  return {
    timeline,
    note:
      skipped.length > 0
        ? `schedule targets paging ${[...new Set(skipped)].join(", ")} are not compared`
        : undefined,
  };
}

export interface VerifyInput {
  migration: Migration;
  source: SourceView;
  here: ReadOnlyClient;
  /** This account's users, id → e-mail. */
  hereEmails: Map<string, string>;
  /**
   * The stack's `migrated` output: source id → id here. Without it (before `pulumi up`), "here" is
   * the written configuration, computed here.
   */
  outputs?: { schedules: Record<string, string>; escalationPaths: Record<string, string> };
  window: Window;
}

export async function verifyMigration(input: VerifyInput): Promise<VerifyReport> {
  const { migration, source, here, hereEmails, window } = input;
  const written = new Map(migration.declarations.map((d) => [d.key, d]));
  // Before `up`, an object's id here is its declaration's key, and what it holds is what is written.
  const outputs = input.outputs ?? {
    schedules: Object.fromEntries(migration.schedules.map((s) => [s.sourceId, s.key])),
    escalationPaths: Object.fromEntries(migration.escalations.map((p) => [p.sourceId, p.key])),
  };
  const local = input.outputs === undefined;
  const fidelity = new Map(migration.plan.map((o) => [`${o.sourceKind}:${o.sourceId}`, fidelityOf(o)]));
  const sourceCache = new Map<string, Promise<OnCall[]>>();
  const hereCache = new Map<string, Promise<OnCall[]>>();
  const sourceOnCall = (id: string) => {
    if (!sourceCache.has(id)) sourceCache.set(id, source.onCall(id, window));
    return sourceCache.get(id)!;
  };
  const hereSchedule = (id: string) => {
    if (!hereCache.has(id))
      hereCache.set(
        id,
        local
          ? Promise.resolve().then(() => writtenOnCall(written.get(id)!, window))
          : hereOnCall(here, id, window, hereEmails),
      );
    return hereCache.get(id)!;
  };
  const checks: ObjectCheck[] = [];
  for (const s of migration.schedules) {
    const check: ObjectCheck = {
      kind: "schedule",
      name: s.name,
      sourceId: s.sourceId,
      fidelity: fidelity.get(`schedule:${s.sourceId}`) ?? "exact",
      differences: [],
    };
    const id = outputs.schedules[s.sourceId];
    if (!id) check.problem = "not in the stack's `migrated` output (was the program changed, or not run?)";
    else
      try {
        check.differences = differences(await sourceOnCall(s.sourceId), await hereSchedule(id), window);
      } catch (error) {
        if (!local) throw error;
        check.problem = `not computed: ${(error as Error).message}`;
      }
    checks.push(check);
  }
  for (const p of migration.escalations) {
    const plan = migration.plan.find(
      (o) =>
        o.sourceId === p.sourceId && (o.sourceKind === "escalation policy" || o.sourceKind === "escalation"),
    );
    const check: ObjectCheck = {
      kind: plan?.sourceKind ?? "escalation policy",
      name: p.name,
      sourceId: p.sourceId,
      fidelity: plan ? fidelityOf(plan) : "exact",
      differences: [],
      levels: [],
    };
    const id = outputs.escalationPaths[p.sourceId];
    if (!id) {
      check.problem = "not in the stack's `migrated` output (was the program changed, or not run?)";
      checks.push(check);
      continue;
    }
    const sourceLevels = source.levels(p.sourceId);
    const hereLevelsOf = local ? writtenLevels(written.get(id)!) : await hereLevels(here, id, hereEmails);
    for (let n = 0; n < Math.max(sourceLevels.length, hereLevelsOf.length); n++) {
      const a = sourceLevels[n];
      const b = hereLevelsOf[n];
      const empty = { timeline: [] as OnCall[], note: undefined };
      const [pa, pb] = await Promise.all([
        a ? pagedBy(a, window, sourceOnCall) : empty,
        b ? pagedBy(b, window, hereSchedule) : empty,
      ]);
      check.levels!.push({
        level: n + 1,
        sourceAfter: a?.afterMinutes,
        hereAfter: b?.afterMinutes,
        differences: differences(pa.timeline, pb.timeline, window),
        note: pa.note ?? pb.note,
      });
    }
    check.differences = check.levels!.flatMap((l) => l.differences);
    checks.push(check);
  }
  return { source: migration.source, window, here: local ? "computed here" : "service", checks };
}

/** A check differs: people differ somewhere, a level's delay differs, or it could not be checked. */
export function differs(check: ObjectCheck): boolean {
  return (
    check.problem !== undefined ||
    check.differences.length > 0 ||
    (check.levels ?? []).some((l) => l.sourceAfter !== l.hereAfter)
  );
}

const when = (ms: number) => isoSeconds(ms).replace("T", " ").replace(/:00Z$/, " UTC").replace(/Z$/, " UTC");
const people = (emails: string[]) => (emails.length === 0 ? "nobody" : emails.join(", "));

/** The report for the terminal: per object, no difference, or the intervals that differ. */
export function verifyText(report: VerifyReport, maxIntervals = 20): string {
  const title = sourceTitle(report.source);
  const days = Math.round((report.window.end - report.window.start) / 86_400_000);
  const lines = [
    `Who is on call, ${title} against here, from ${when(report.window.start)} for ${days} days:`,
  ];
  if (report.here === "computed here")
    lines.push(
      "  (here: the written configuration, before `pulumi up`, computed by pulumi-incident's copy of the service's rules, not by the service: it previews only a schedule that exists; after `pulumi up`, --outputs checks the service's own entries)",
    );
  const intervals = (list: Difference[], indent: string) => {
    for (const d of list.slice(0, maxIntervals))
      lines.push(
        `${indent}${when(d.start)} – ${when(d.end)}: ${title} ${people(d.source)}; here ${people(d.here)}`,
      );
    if (list.length > maxIntervals) lines.push(`${indent}… and ${list.length - maxIntervals} more`);
  };
  for (const c of report.checks) {
    const head = `  ${c.kind} ${JSON.stringify(oneLine(c.name))} (${c.fidelity === "unmapped" ? "not migrated" : c.fidelity})`;
    if (c.problem) {
      lines.push(`${head}: not checked: ${c.problem}`);
      continue;
    }
    if (!differs(c)) {
      lines.push(`${head}: no difference`);
      continue;
    }
    if (!c.levels) {
      const hours = c.differences.reduce((sum, d) => sum + (d.end - d.start), 0) / 3_600_000;
      lines.push(
        `${head}: differs in ${c.differences.length} interval${c.differences.length === 1 ? "" : "s"} (${Math.round(hours * 10) / 10} h):`,
      );
      intervals(c.differences, "    ");
      continue;
    }
    lines.push(`${head}: differs:`);
    for (const l of c.levels ?? []) {
      const delay =
        l.sourceAfter === l.hereAfter
          ? `after ${l.sourceAfter} min`
          : `after ${l.sourceAfter ?? "–"} min in ${title}, ${l.hereAfter ?? "–"} min here`;
      if (l.differences.length === 0 && l.sourceAfter === l.hereAfter) continue;
      lines.push(
        `    level ${l.level} (${delay}): ${l.differences.length === 0 ? "the same people" : `${l.differences.length} intervals differ`}${l.note ? ` (${l.note})` : ""}`,
      );
      intervals(l.differences, "      ");
    }
  }
  const exactDiffer = report.checks.filter((c) => c.fidelity === "exact" && differs(c)).length;
  const approxDiffer = report.checks.filter((c) => c.fidelity !== "exact" && differs(c));
  lines.push(
    "",
    `${exactDiffer === 0 ? "Every exact object is on call as in the source." : `${exactDiffer} object(s) the plan calls exact differ: a defect of the migration, or the source changed since.`}`,
  );
  if (approxDiffer.length > 0)
    lines.push(
      `Approximate (as the plan says): ${approxDiffer.map((c) => `${c.kind} ${JSON.stringify(oneLine(c.name))}`).join(", ")}.`,
    );
  return `${lines.join("\n")}\n`;
}
