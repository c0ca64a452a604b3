/**
 * plan-report `--shifts`: "Shifts that change". For every schedule the plan creates, updates or
 * replaces, and every schedule whose overrides the plan creates, changes or deletes: the shifts
 * that change hands over a window, merged into runs, and the coverage gaps the change opens or
 * closes, in the schedule's own time zone with its offset.
 *
 * Where the entries come from, each side said in the report:
 * - before: the service's `GET /v2/schedule_entries` of the schedule as it is (every page);
 * - after, an update: the service's `POST /v2/schedules/{id}/actions/preview_entries` of the
 *   update's own payload (`schedulePayload`, resources/schedule.ts: what the provider's update would
 *   send, layer ids from the state), which merges the schedule's stored overrides;
 * - after, a new schedule (a create, or the replacement of a schedule whose time zone changes): the
 *   reference previews only a schedule that exists (`preview_entries` takes its id), so its entries
 *   are computed here, with the emulator's copy of the service's rules
 *   (emulator/families/shared/scheduleEntries.ts), and the report says so;
 * - overrides the plan changes: the API holds no such overrides yet, so they are merged here into
 *   the service's entries by the same rule (`mergeOverrides`), and the report says so.
 * Cost: per changed schedule one `schedule_entries` read (or its pages) and one `preview_entries`
 * (an update) or none (a new schedule, an override change); counted per schedule in the JSON.
 *
 * A key that may not preview (or read) schedule entries: the section is one line saying what is
 * missing and why; the rest of the report is as without `--shifts`.
 */
import {
  mergeOverrides,
  type OverrideInput,
  type ScheduleEntries,
  type ScheduleEntry,
  scheduleEntries,
  uncovered,
} from "../emulator/families/shared/scheduleEntries";
import { offsetText } from "../emulator/families/shared/zonedTime";
import { ApiError } from "../provider/errors";
import type { Props } from "../provider/spec";
import {
  liveFromState,
  type ScheduleInputs,
  scheduleInputs,
  schedulePayload,
  scheduleSpec,
} from "../resources/schedule";
import { scheduleOverrideCreatePayload, scheduleOverrideInputs } from "../resources/scheduleOverride";
import type { Block, InlineValue } from "./markdown";
import { count, details, headingBlock, inlineCode, list, md, paragraph, strong } from "./markdown";
import type { PlannedResource } from "./planReport";
import type { ReadOnlyClient } from "./readOnlyClient";
import { SECRET_TEXT, UNKNOWN } from "./values";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The window a report looks at by default: the next 14 days. */
export const DEFAULT_WINDOW_MS = 14 * DAY_MS;
/** "If you ask for more than 91 days, the response is capped to 91 days" (preview_entries). */
export const MAX_WINDOW_MS = 91 * DAY_MS;

/** `[start, end)`, ms since the epoch. */
export interface ShiftWindow {
  start: number;
  end: number;
}

/** A stretch of time in which who is on call on one rotation's layer changes. */
export interface ShiftRun {
  start: string;
  end: string;
  rotation: string;
  layer: string;
  /** Who is on call before / after: e-mails (or ids), `nobody`. */
  before: string;
  after: string;
}

/** A stretch of time nobody is on call in the schedule: opened or closed by the change, or (a new schedule) uncovered. */
export interface CoverageGap {
  start: string;
  end: string;
  change: "opened" | "closed" | "uncovered";
}

/** Where a side's entries come from. */
export type EntrySource = "service" | "service, with the plan's overrides merged here" | "computed here";

export interface ScheduleShifts {
  /** `Schedule payments-primary` (a resource of the plan or the state), or `schedule "Name"` (one the stack does not manage). */
  schedule: string;
  /** The resource's name in the program, when the plan or the state has it. */
  resource?: string;
  id?: string;
  op: "create" | "update" | "replace" | "overrides";
  timezone: string;
  before?: EntrySource;
  after?: EntrySource;
  /** Requests this schedule cost. */
  requests: { scheduleEntries: number; previewEntries: number; schedules: number };
  gaps: CoverageGap[];
  runs: ShiftRun[];
  /** Why something is not shown, or how it was computed. */
  notes: string[];
}

export interface ShiftsReport {
  window: { start: string; end: string };
  schedules: ScheduleShifts[];
  /** One line when nothing could be computed (a key that may not preview), and why. */
  unavailable?: string;
}

/** A schedule's final entries before and after the change (the paging tools read them). */
export interface ScheduleTimeline {
  schedule: string;
  /** The plan's operation on it (`overrides`: only its overrides change; `none`: it does not change). */
  op: ScheduleShifts["op"] | "none";
  /** Whether who is on call changes in the window. */
  changes: boolean;
  timezone: string;
  before?: Entry[];
  after?: Entry[];
  /** The rotation (and layer) an entry is on, in words. */
  lane(e: Entry): { rotation: string; layer: string; rotationId: string };
  /** Who an entry's user is, in words (an e-mail where known). */
  who(e: Entry): string;
}

type User = { id?: string; email?: string; slack_user_id?: string; name?: string };
export type Entry = ScheduleEntry<User>;

/** What the shifts need of the rest of the report. */
export interface ShiftContext {
  client: ReadOnlyClient;
  window: ShiftWindow;
  /** Ids named as the report names them (users' e-mails). */
  names: (id: string) => string | undefined;
  /** The stack's state resources (`--state`), for schedules the plan does not change. */
  state: { kind: string; name: string; id: string; outputs: Props }[];
  /** When the state's `layerIds` were taken (default now). */
  now?: number;
}

export class Unavailable extends Error {}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");
const holdsPending = (v: unknown) => {
  const text = JSON.stringify(v ?? null);
  return text.includes(UNKNOWN) || text.includes(JSON.stringify(SECRET_TEXT));
};
const strip = (p: Props | undefined): Props | undefined => {
  if (!p) return undefined;
  const { __provider: _p, __schema: _s, ...rest } = p as Props & { __schema?: unknown };
  return rest;
};

/** A Schedule's inputs from its stored outputs (the computed outputs left out). */
function inputsOf(outputs: Props): Props {
  const computed = new Set<string>(scheduleSpec.computedOutputs as readonly string[]);
  return Object.fromEntries(Object.entries(outputs).filter(([k]) => !computed.has(k)));
}

/** Inputs of a kind as its schema reads them (defaults applied); undefined when they do not fit. */
function parsed<T>(
  schema: { safeParse(v: unknown): { success: boolean; data?: T } },
  p: Props | undefined,
): T | undefined {
  if (!p || holdsPending(p)) return undefined;
  const r = schema.safeParse(strip(p));
  return r.success ? r.data : undefined;
}

/** Every page of a schedule's entries over the window (the cursor is the next page's start). */
export async function serviceEntries(
  ctx: ShiftContext,
  id: string,
  counted: ScheduleShifts["requests"],
): Promise<{ scheduled: Entry[]; overrides: Entry[]; final: Entry[] }> {
  const all = { scheduled: [] as Entry[], overrides: [] as Entry[], final: [] as Entry[] };
  let start = iso(ctx.window.start);
  for (let page = 0; page < 1000; page++) {
    counted.scheduleEntries++;
    const body = await ctx.client.get<{
      schedule_entries: typeof all;
      pagination_meta?: { after?: string };
    }>("/v2/schedule_entries", "list schedule entries", {
      schedule_id: id,
      entry_window_start: start,
      entry_window_end: iso(ctx.window.end),
    });
    for (const k of ["scheduled", "overrides", "final"] as const)
      all[k].push(...(body.schedule_entries?.[k] ?? []));
    const after = body.pagination_meta?.after;
    if (!after || after === start) break;
    start = after;
  }
  return all;
}

export function refused(error: unknown, what: string): never {
  if (error instanceof ApiError && error.status === 403)
    throw new Unavailable(
      `Shifts not computed: the API key may not ${what} (the API answered 403${error.message ? `: ${oneLine(error.message)}` : ""}). Previewing needs a role that may update schedules (schedules_editor or on_call_editor); the rest of the report is as without --shifts.`,
    );
  throw error;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** An override of the plan as the evaluator takes it. */
function overrideInput(args: Props): OverrideInput<User> | undefined {
  const o = parsed(scheduleOverrideInputs, args);
  if (!o) return undefined;
  const p = scheduleOverrideCreatePayload(o) as unknown as {
    rotation_id: string;
    layer_id: string;
    user: User;
    start_at: string;
    end_at: string;
  };
  return {
    rotation_id: p.rotation_id,
    layer_id: p.layer_id,
    user: p.user,
    start_at: p.start_at,
    end_at: p.end_at,
  };
}

/** The shape a schedule's names are read from: rotation names, layer names by id. */
interface Shape {
  timezone: string;
  rotations: Map<string, { name: string; layers: Set<string> }>;
  layerNames: Map<string, string>;
}

/** What names are read from: a schedule's rotations, their versions' layers. */
interface RotationsLike {
  rotations: { id: string; name: string; versions: { layers: { id?: string; name: string }[] }[] }[];
}

function shapeOf(
  sources: (RotationsLike | undefined)[],
  layerIds: Props | undefined,
  timezone: string,
): Shape {
  const shape: Shape = { timezone, rotations: new Map(), layerNames: new Map() };
  for (const s of sources) {
    for (const r of s?.rotations ?? []) {
      const known = shape.rotations.get(r.id) ?? { name: r.name, layers: new Set<string>() };
      for (const v of r.versions)
        for (const l of v.layers) {
          known.layers.add(l.name);
          if (l.id) shape.layerNames.set(l.id, l.name);
        }
      shape.rotations.set(r.id, known);
    }
  }
  for (const byName of Object.values((layerIds ?? {}) as Record<string, Record<string, string>>))
    for (const [name, id] of Object.entries(byName ?? {}))
      if (typeof id === "string") shape.layerNames.set(id, name);
  return shape;
}

/** The layer ids a local computation gives layers without one: their names (what lanes are matched by). */
const LOCAL_LAYER = "layer named ";

/**
 * The entries of a schedule that does not exist yet, from its inputs (the provider's own payload),
 * computed here by the evaluator behind the emulator's `preview_entries` (the service previews only
 * a schedule that has an id). Layers without an id are named by `LOCAL_LAYER`; users are keyed by
 * id, else e-mail.
 */
export function writtenEntries(inputs: ScheduleInputs, window: ShiftWindow): ScheduleEntries<User> {
  const { schedule } = schedulePayload(inputs) as { schedule: { config: { rotations: Props[] } } };
  const rotations = schedule.config.rotations.map((rot) => ({
    ...rot,
    layers: ((rot.layers ?? []) as { id?: string; name: string }[]).map((l) => ({
      ...l,
      id: l.id ?? `${LOCAL_LAYER}${l.name}`,
    })),
  }));
  return scheduleEntries({ timezone: inputs.timezone, rotations: rotations as never }, [], window, {
    userKey: (u: User) => u.id ?? u.email?.toLowerCase() ?? JSON.stringify(u),
  });
}

function laneOf(shape: Shape, e: Entry): { rotation: string; layer: string; rotationId: string } {
  const rotation = shape.rotations.get(e.rotation_id);
  const layers = [...(rotation?.layers ?? [])];
  const layer =
    (e.layer_id?.startsWith(LOCAL_LAYER) ? e.layer_id.slice(LOCAL_LAYER.length) : undefined) ??
    (e.layer_id ? shape.layerNames.get(e.layer_id) : undefined) ??
    (layers.length === 1 ? layers[0]! : (e.layer_id ?? "a layer not saved yet"));
  return { rotation: rotation?.name ?? e.rotation_id, layer, rotationId: e.rotation_id };
}

/** The lane as shown: the rotation, and the layer when the rotation has another or it is named otherwise. */
function laneText(l: { rotation: string; layer: string }): string {
  return l.layer === l.rotation ? l.rotation : `${l.rotation} / ${l.layer}`;
}

export function userText(
  u: User | undefined,
  names: (id: string) => string | undefined,
  seen: Map<string, string>,
): string {
  if (!u) return "someone";
  if (u.email) return u.email;
  if (u.id) return seen.get(u.id) ?? names(u.id) ?? `user ${u.id}`;
  if (u.slack_user_id) return `Slack user ${u.slack_user_id}`;
  return "someone";
}

/** Who is on call in each lane, before and after, wherever it differs: runs within the window. */
function changedRuns(
  before: Entry[],
  after: Entry[],
  window: ShiftWindow,
  lane: (e: Entry) => { rotation: string; layer: string },
  who: (e: Entry) => string,
): ShiftRun[] {
  const lanes = new Map<string, { lane: { rotation: string; layer: string }; sides: [Entry[], Entry[]] }>();
  for (const [side, entries] of [before, after].entries())
    for (const e of entries) {
      const l = lane(e);
      const key = `${l.rotation}\u0000${l.layer}`;
      const known = lanes.get(key) ?? { lane: l, sides: [[], []] as [Entry[], Entry[]] };
      known.sides[side]!.push(e);
      lanes.set(key, known);
    }
  const runs: ShiftRun[] = [];
  for (const { lane: l, sides } of lanes.values()) {
    const cuts = new Set([window.start, window.end]);
    for (const e of [...sides[0], ...sides[1]])
      for (const t of [Date.parse(e.start_at), Date.parse(e.end_at)])
        if (t > window.start && t < window.end) cuts.add(t);
    const points = [...cuts].sort((a, b) => a - b);
    const onCall = (entries: Entry[], t: number) =>
      [...new Set(entries.filter((e) => Date.parse(e.start_at) <= t && t < Date.parse(e.end_at)).map(who))]
        .sort()
        .join(", ") || "nobody";
    let open: ShiftRun | undefined;
    for (let i = 0; i + 1 < points.length; i++) {
      const [s, e] = [points[i]!, points[i + 1]!];
      const [was, now] = [onCall(sides[0], s), onCall(sides[1], s)];
      if (was === now) {
        open = undefined;
        continue;
      }
      if (open && open.before === was && open.after === now && Date.parse(open.end) === s) open.end = iso(e);
      else {
        open = { start: iso(s), end: iso(e), rotation: l.rotation, layer: l.layer, before: was, after: now };
        runs.push(open);
      }
    }
  }
  return runs.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}

function gapsBetween(before: Entry[] | undefined, after: Entry[], window: ShiftWindow): CoverageGap[] {
  const spans = (gaps: [number, number][]) => gaps.map(([s, e]) => ({ start_at: iso(s), end_at: iso(e) }));
  const afterGaps = uncovered(after, window);
  if (!before)
    return afterGaps.map(([s, e]) => ({ start: iso(s), end: iso(e), change: "uncovered" as const }));
  const beforeGaps = uncovered(before, window);
  const minus = (a: [number, number][], b: [number, number][]) =>
    a.flatMap(([s, e]) => uncovered(spans(b), { start: s, end: e }));
  return [
    ...minus(afterGaps, beforeGaps).map(([s, e]) => ({
      start: iso(s),
      end: iso(e),
      change: "opened" as const,
    })),
    ...minus(beforeGaps, afterGaps).map(([s, e]) => ({
      start: iso(s),
      end: iso(e),
      change: "closed" as const,
    })),
  ].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}

interface Subject {
  schedule: string;
  op: ScheduleShifts["op"];
  id?: string;
  resource?: PlannedResource;
  /** Overrides of the plan on this schedule: added (with their inputs) and taken away (by id). */
  added: OverrideInput<User>[];
  removed: Set<string>;
  /** Overrides of the plan on this schedule that cannot be placed (their layer is known after apply). */
  unplaced: number;
}

/** The schedules whose shifts the plan may change. */
function subjectsOf(planned: PlannedResource[]): Subject[] {
  const subjects: Subject[] = [];
  const byId = new Map<string, Subject>();
  for (const r of planned) {
    if (r.kind !== "Schedule" || !["create", "update", "replace"].includes(r.op)) continue;
    const s: Subject = {
      schedule: `Schedule ${r.name}`,
      op: r.op as Subject["op"],
      ...(r.id ? { id: r.id } : {}),
      resource: r,
      added: [],
      removed: new Set(),
      unplaced: 0,
    };
    subjects.push(s);
    if (r.id && r.op === "update") byId.set(r.id, s);
  }
  for (const r of planned) {
    if (r.kind !== "ScheduleOverride" || !["create", "update", "replace", "delete"].includes(r.op)) continue;
    const scheduleId = (r.news?.scheduleId ?? r.olds?.scheduleId) as string | undefined;
    let subject: Subject | undefined;
    if (typeof scheduleId === "string" && scheduleId !== UNKNOWN) {
      subject = byId.get(scheduleId);
      if (!subject) {
        subject = {
          schedule: "",
          op: "overrides",
          id: scheduleId,
          added: [],
          removed: new Set(),
          unplaced: 0,
        };
        byId.set(scheduleId, subject);
        subjects.push(subject);
      }
    } else {
      // On a schedule the plan makes: placed on it when the override depends on it.
      subject = subjects.find((s) => s.resource && r.dependsOn.includes(s.resource.urn) && s.op !== "update");
      if (subject) subject.unplaced++;
      continue;
    }
    if (r.id && r.op !== "create") subject.removed.add(r.id);
    if (r.op !== "delete" && r.news) {
      const o = overrideInput(r.news);
      if (o) subject.added.push(o);
      else subject.unplaced++;
    }
  }
  return subjects;
}

/**
 * The shifts that change, per schedule of the plan, and each schedule's entries before and after
 * (for the paging tools). Throws only what the report cannot go on without (a key the API does not
 * take, the API out of reach); a key that may not read or preview entries is one line instead.
 */
export async function shiftsOf(
  planned: PlannedResource[],
  ctx: ShiftContext,
): Promise<{ report: ShiftsReport; timelines: Map<string, ScheduleTimeline> }> {
  const report: ShiftsReport = {
    window: { start: iso(ctx.window.start), end: iso(ctx.window.end) },
    schedules: [],
  };
  const timelines = new Map<string, ScheduleTimeline>();
  // Users the service names (id → e-mail): local computations name users by id.
  const seen = new Map<string, string>();
  try {
    for (const subject of subjectsOf(planned)) {
      const result = await shiftsOfOne(subject, ctx, seen);
      report.schedules.push(result.shifts);
      if (result.timeline) {
        if (subject.id) timelines.set(subject.id, result.timeline);
        if (subject.resource) timelines.set(subject.resource.urn, result.timeline);
      }
    }
  } catch (error) {
    if (!(error instanceof Unavailable)) throw error;
    return { report: { ...report, schedules: [], unavailable: error.message }, timelines: new Map() };
  }
  return { report, timelines };
}

async function shiftsOfOne(
  subject: Subject,
  ctx: ShiftContext,
  seen: Map<string, string>,
): Promise<{ shifts: ScheduleShifts; timeline?: ScheduleTimeline }> {
  const requests = { scheduleEntries: 0, previewEntries: 0, schedules: 0 };
  const notes: string[] = [];
  const r = subject.resource;
  const olds = parsed<ScheduleInputs>(scheduleInputs, r?.olds);
  const news = parsed<ScheduleInputs>(scheduleInputs, r?.news);
  let stateShape: RotationsLike | undefined;
  let layerIds = (r?.oldOutputs?.layerIds ?? undefined) as Props | undefined;
  let timezone = news?.timezone ?? olds?.timezone;
  let label = subject.schedule;
  let resourceName = r?.name;
  if (!r && subject.id) {
    // A schedule the plan does not change: its names and time zone from the state, else the API.
    const known = ctx.state.find((s) => s.kind === "Schedule" && s.id === subject.id);
    if (known) {
      const inputs = parsed<ScheduleInputs>(scheduleInputs, inputsOf(known.outputs));
      stateShape = inputs;
      layerIds = known.outputs.layerIds as Props | undefined;
      timezone = inputs?.timezone ?? (known.outputs.timezone as string | undefined);
      label = `Schedule ${known.name}`;
      resourceName = known.name;
    } else {
      requests.schedules++;
      try {
        const live = (
          await ctx.client.get<{
            schedule: { name: string; timezone: string; config?: { rotations?: Props[] } };
          }>(`/v2/schedules/${encodeURIComponent(subject.id)}`, "show schedule")
        ).schedule;
        timezone = live.timezone;
        label = `schedule "${live.name}"`;
        stateShape = {
          rotations: (live.config?.rotations ?? []).map((x: Props) => ({
            id: String(x.id),
            name: String(x.name),
            versions: [
              {
                layers: ((x.layers ?? []) as { id?: string; name?: string }[]).map((l) => ({
                  ...(l.id ? { id: l.id } : {}),
                  name: l.name ?? "",
                })),
              },
            ],
          })),
        };
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) refused(error, "read schedules");
        if (error instanceof ApiError) {
          notes.push(`the schedule could not be read: ${oneLine(error.message)}`);
          label = `schedule ${subject.id}`;
        } else throw error;
      }
    }
  }
  const shifts: ScheduleShifts = {
    schedule: label,
    ...(resourceName ? { resource: resourceName } : {}),
    ...(subject.id ? { id: subject.id } : {}),
    op: subject.op,
    timezone: timezone ?? "UTC",
    requests,
    gaps: [],
    runs: [],
    notes,
  };
  if (subject.unplaced > 0)
    notes.push(
      `${count(subject.unplaced, "override")} of the plan on this schedule not shown: its schedule or layer is known only after apply`,
    );
  if (!timezone) {
    notes.push("its time zone is known only after apply: shifts not computed");
    return { shifts };
  }
  const tz = timezone;
  const shape = shapeOf([olds, news, stateShape], layerIds, tz);

  // Before: the service's entries of the schedule as it is.
  let before: { scheduled: Entry[]; overrides: Entry[]; final: Entry[] } | undefined;
  if (subject.id && subject.op !== "create") {
    try {
      before = await serviceEntries(ctx, subject.id, requests);
      shifts.before = "service";
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) refused(error, "read schedule entries");
      if (!(error instanceof ApiError)) throw error;
      notes.push(`the service did not answer its current entries: ${oneLine(error.message)}`);
    }
    for (const e of before?.final ?? []) if (e.user?.id && e.user.email) seen.set(e.user.id, e.user.email);
  }

  // After: the service's preview (an update), computed here (a new schedule), or the entries as they are.
  let after: { scheduled: Entry[]; overrides: Entry[]; final: Entry[] } | undefined;
  const window = ctx.window;
  if (subject.op === "update") {
    if (!news || !olds) notes.push("the new configuration is known only after apply: shifts not computed");
    else {
      const live = liveFromState(
        olds,
        layerIds as Record<string, Record<string, string>> | undefined,
        ctx.now,
      );
      const payload = schedulePayload(news, live) as { schedule: Props };
      for (const rot of (payload.schedule.config as { rotations?: Props[] } | undefined)?.rotations ?? [])
        for (const l of (rot.layers ?? []) as { id?: string; name?: string }[])
          if (l.id && l.name) shape.layerNames.set(l.id, l.name);
      try {
        requests.previewEntries++;
        after = (
          await ctx.client.request<{ schedule_entries: NonNullable<typeof after> }>({
            method: "POST",
            path: `/v2/schedules/${encodeURIComponent(subject.id!)}/actions/preview_entries`,
            operation: "preview schedule entries",
            body: { ...payload, entry_window_start: iso(window.start), entry_window_end: iso(window.end) },
            // It computes and stores nothing: safe to send again.
            repeatable: true,
          })
        ).body.schedule_entries;
        shifts.after = "service";
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) refused(error, "preview schedule entries");
        if (!(error instanceof ApiError)) throw error;
        notes.push(`the service refused the preview: ${oneLine(error.message)}`);
      }
    }
  } else if (subject.op === "create" || subject.op === "replace") {
    if (!news) notes.push("the new configuration is known only after apply: shifts not computed");
    else {
      after = writtenEntries(news, window);
      shifts.after = "computed here";
      notes.push(
        subject.op === "create"
          ? "a new schedule: its shifts are computed here by pulumi-incident's copy of the service's rules, not by the service (preview_entries previews only a schedule that exists: it takes its id)"
          : `the replacement is a new schedule: its shifts are computed here by pulumi-incident's copy of the service's rules, not by the service (preview_entries previews only a schedule that exists: it takes its id)${before?.overrides.length ? `; the old schedule's ${count(before.overrides.length, "override")} in the window do not carry over` : ""}`,
      );
    }
  } else after = before;

  // The plan's overrides, merged here into the service's entries.
  if (after && (subject.added.length > 0 || subject.removed.size > 0)) {
    const kept: OverrideInput<User>[] = after.overrides
      .filter((o) => !(o.entry_id && subject.removed.has(o.entry_id)))
      .map((o) => ({
        ...(o.entry_id ? { id: o.entry_id } : {}),
        rotation_id: o.rotation_id,
        layer_id: o.layer_id ?? "",
        user: o.user,
        start_at: o.start_at,
        end_at: o.end_at,
      }));
    after = mergeOverrides(after.scheduled, [...kept, ...subject.added], window, {
      userKey: (u: User) => u.id ?? u.email?.toLowerCase() ?? JSON.stringify(u),
    });
    if (shifts.after === "service" || subject.op === "overrides")
      shifts.after = "service, with the plan's overrides merged here";
    notes.push(
      "the plan's override changes are merged here into the service's entries (the API holds them only after apply)",
    );
  }
  if (!after) return { shifts };
  const lane = (e: Entry) => laneOf(shape, e);
  const who = (e: Entry) => userText(e.user, ctx.names, seen);
  shifts.gaps = gapsBetween(before?.final, after.final, window);
  shifts.runs = changedRuns(before?.final ?? [], after.final, window, lane, who);
  return {
    shifts,
    timeline: {
      schedule: label,
      op: subject.op,
      changes: shifts.runs.length > 0 || shifts.gaps.length > 0,
      timezone: tz,
      before: before?.final,
      after: after.final,
      lane,
      who,
    },
  };
}

// ---------------------------------------------------------------------------------- words

const dayParts = new Map<string, Intl.DateTimeFormat>();
export function localParts(ms: number, tz: string): { day: string; time: string; year: string } {
  let f = dayParts.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone: tz,
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    dayParts.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { day: `${p.weekday} ${p.day} ${p.month}`, time: `${p.hour}:${p.minute}`, year: String(p.year) };
}

/** `Sat 7 Dec 09:00–17:00 (Europe/London, +00:00)`; across days `Sat 7 Dec 22:00 – Sun 8 Dec 06:00 (…)`. */
export function timeRange(start: number, end: number, tz: string): string {
  const a = localParts(start, tz);
  const b = localParts(end, tz);
  const lastMinute = localParts(end - 60_000, tz);
  const range =
    a.day === b.day
      ? `${a.day} ${a.time}–${b.time}`
      : b.time === "00:00" && lastMinute.day === a.day
        ? `${a.day} ${a.time}–24:00`
        : `${a.day} ${a.time} – ${b.day} ${b.time}`;
  const [o1, o2] = [offsetText(start, tz), offsetText(end, tz)];
  return `${range} (${tz}, ${o1 === o2 ? o1 : `${o1} → ${o2}`})`;
}

/** `Mon 23 Mar 2026 00:00 UTC`. */
export function instantText(ms: number): string {
  const p = localParts(ms, "UTC");
  return `${p.day} ${p.year} ${p.time} UTC`;
}

/** `3 days`, `36 hours`. */
function lengthText(ms: number): string {
  return ms % DAY_MS === 0 ? count(ms / DAY_MS, "day") : count(Math.round(ms / HOUR_MS), "hour");
}

/** The runs' and gaps' lines (plain text: the JSON's words). */
export function runLine(r: ShiftRun, tz: string): string {
  return `${timeRange(Date.parse(r.start), Date.parse(r.end), tz)} · ${laneText(r)} · ${r.before} → ${r.after}`;
}

/** Lines past this many fold into `<details>`. */
const SHOWN = 8;

function sourceWords(s: ScheduleShifts): string {
  const side = (x: EntrySource | undefined) =>
    x === "service"
      ? "by the service"
      : x === "computed here"
        ? "computed here"
        : x
          ? "by the service, the plan's overrides merged here"
          : "not known";
  if (s.op === "create") return "a new schedule, computed here";
  if (s.before === s.after || (s.before === "service" && s.after !== "computed here")) return side(s.after);
  return `before ${side(s.before)}, after ${side(s.after)}`;
}

/** The "Shifts that change" section. `optional`: long lists whole (folded); otherwise counted only. */
export function shiftsBlocks(report: ShiftsReport, optional: boolean): Block[] {
  const out: Block[] = [headingBlock(3, md`Shifts that change`)];
  const [start, end] = [Date.parse(report.window.start), Date.parse(report.window.end)];
  if (report.unavailable) {
    out.push(paragraph(md`${report.unavailable}`));
    return out;
  }
  out.push(
    paragraph(
      md`From ${instantText(start)} to ${instantText(end)} (${lengthText(end - start)}): who is on call in each schedule the plan changes, before → after, as the service computes it (its entries now, and the preview of the update); coverage gaps first.`,
    ),
  );
  if (report.schedules.length === 0) out.push(paragraph(md`No schedule's shifts change in this plan.`));
  for (const s of report.schedules) {
    const name = s.resource ? md`Schedule ${inlineCode(s.resource)}` : md`${s.schedule}`;
    const head = md`${strong(name)} (${s.op}, ${s.timezone}; ${sourceWords(s)})`;
    const notes = s.notes.map((n) => md`_${n}_`);
    const gapLines = s.gaps.map((g) => {
      const when = timeRange(Date.parse(g.start), Date.parse(g.end), s.timezone);
      if (g.change === "closed") return md`**covered now: ${when}** (nobody was on call)`;
      if (g.change === "opened") return md`**nobody on call ${when}** (opened by this change)`;
      return md`**nobody on call ${when}**`;
    });
    const runLines = s.runs.map((r) =>
      s.op === "create"
        ? md`${timeRange(Date.parse(r.start), Date.parse(r.end), s.timezone)} · ${laneText(r)} · ${r.after}`
        : md`${timeRange(Date.parse(r.start), Date.parse(r.end), s.timezone)} · ${laneText(r)} · ${r.before} → ${r.after}`,
    );
    const computed = s.after !== undefined;
    if (computed && gapLines.length === 0 && runLines.length === 0) {
      out.push(paragraph(md`${head}: no shift changes hands in the window.`));
      if (notes.length) out.push(list(notes));
      continue;
    }
    out.push(paragraph(head));
    const whole = gapLines.length + runLines.length <= SHOWN;
    const shownGaps = whole || gapLines.length <= SHOWN ? gapLines : gapLines.slice(0, SHOWN);
    const moreGaps = gapLines.slice(shownGaps.length);
    const shownRuns = whole ? runLines : [];
    const foldedRuns = whole ? [] : runLines;
    const runsTitle =
      s.op === "create"
        ? `${count(s.runs.length, "shift")} in the window`
        : `${count(s.runs.length, "shift")} that ${s.runs.length === 1 ? "changes" : "change"} hands`;
    const lines: InlineValue[] = [...notes, ...shownGaps, ...shownRuns];
    if (!optional && (moreGaps.length || foldedRuns.length))
      lines.push(
        md`_…and ${[moreGaps.length ? count(moreGaps.length, "more gap change") : "", foldedRuns.length ? runsTitle : ""].filter(Boolean).join(" and ")} (see the JSON report)._`,
      );
    if (lines.length) out.push(list(lines));
    if (optional && moreGaps.length)
      out.push(
        details([count(moreGaps.length, "more gap change")], [list(moreGaps)], false, { optional: true }),
      );
    if (optional && foldedRuns.length)
      out.push(details([runsTitle], [list(foldedRuns)], false, { optional: true }));
  }
  return out;
}
