/**
 * Manages an **on-call schedule** in one piece: its time zone, its rotations (each with layers,
 * handovers, users, working intervals and a scheduling mode), changes scheduled ahead of time
 * (rotation *versions* with an `effectiveFrom`), public holidays and owning teams.
 *
 * ### API version: v2, and why
 *
 * Both `/v2/schedules` and `/v3/schedules` are current (neither is deprecated). **v2** is used: a v2
 * schedule carries its rotations and their future versions inline, so one resource declares and
 * writes the whole schedule atomically. v3 schedules carry no rotations (they are a separate
 * `/v3/schedules/{id}/rotations` sub-resource with its own rollout rules), which would need a second
 * resource kind. Requests are wrapped in `{"schedule": …}`.
 *
 * A v2 update **replaces the whole configuration, future rotation versions included**. The provider
 * therefore always sends every declared version, and fetches the schedule first so that a layer
 * declared without an `id` is sent with the id it already has (overrides that point at it survive).
 *
 * ### Adoption
 *
 * `pulumi import` does not work for dynamic resources. Set `adoptId` to the schedule's id (dashboard
 * URL or `GET /v2/schedules`): the first `pulumi up` takes it over and writes the declared
 * configuration. Note that this replaces its rotations with the declared ones.
 *
 * ### Lookup: getSchedule({ name })
 *
 * `getSchedule` / `getScheduleOutput` find a schedule by exact name (`GET /v2/schedules`, every page)
 * and answer `{ id, name, timezone, teamIds, rotations: [{ id, name }], permalink }`. They fail naming
 * the name when there is none, and naming the ids when several share it.
 *
 * ### Normalisation rules (read-back that differs in form is not drift)
 *
 * | Rule | What the API does | What the provider does |
 * |---|---|---|
 * | timestamps by instant | answers timestamps in UTC (`…Z`) whatever offset was written | the declared text is kept when it is the same instant |
 * | first version in effect from creation | stamps the write time on a version sent without `effectiveFrom` | the first version reads back unset when declared unset |
 * | superseded versions | drops versions once a later version has taken effect | the dropped (past) declared versions read back as declared |
 * | users by e-mail | answers full user objects | a user declared by e-mail reads back by e-mail when it is the same person; anyone else is reported by id |
 * | server-assigned layer ids | gives a layer sent without id a server id | the id is not compared when not declared (and is kept on update) |
 * | default scheduling mode | answers `sequential` when no mode was sent | read back as unset when declared unset |
 * | omitted vs empty | answers `working_intervals: []` (and a deprecated `working_interval` mirror) | read back as omitted; the mirror is ignored |
 * | holidays unmanaged when omitted | keeps holidays set in the dashboard when an update omits them (Terraform provider #271) | not drift when `holidaysPublicConfig` is not declared |
 * | unordered sets | answers team ids in its own order | compared as a set, read back in the declared order |
 *
 * ### Rotation versions
 * What the API does with versions (the reference, `ScheduleRotationV2.effective_from`): "each version
 * applies from its effective_from until the next version's. A rotation's first version has no
 * effective_from". So a first version without `effectiveFrom` is in effect from the start, and a later
 * version whose `effectiveFrom` has passed is the one in effect: the declared intent is kept, the
 * earlier version is superseded (and may no longer be answered: rule "superseded versions"). Timestamps
 * are compared to the second (the API keeps no fraction).
 */
import { z } from "zod";
import { knownValues, passedOn, warnUnless } from "../provider/checkWarnings";
import { unlessNotFound } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { defineLookup, LookupError } from "../provider/functions";
import {
  clockEnd as clockEndSchema,
  clockTime,
  idText,
  nameText,
  timestamp as timestampSchema,
} from "../provider/inputs";
import { type FieldRenames, renameFieldPath } from "../provider/naming";
import { keepDeclaredOrder, unorderedSet } from "../provider/normalise";
import { newestMatching } from "../provider/restApi";
import type { ApiContext, Problem, Props, ResourceSpec } from "../provider/spec";
import { timeZone } from "./shared/timeZone";
import { type Weekday, weekday } from "./shared/weekday";

const INTERVAL_TYPES = ["hourly", "daily", "weekly"] as const;

/** An RFC 3339 timestamp with a time zone offset or `Z`, on a day that exists. */
const timestamp = timestampSchema();
const clock = clockTime();
const clockEnd = clockEndSchema();

/** A person in a rotation: by user id or by e-mail address (one of them: others are warned about). */
const rotationUser = z
  .strictObject({
    /** The user's id (see `getUser`). */
    id: idText().optional(),
    /** The user's e-mail address. */
    email: z
      .string()
      .superRefine(warnUnless((v: string) => z.email().safeParse(v).success, "is not an e-mail address"))
      .optional(),
  })
  .superRefine(
    warnUnless(
      (u: { id?: string; email?: string }) => (u.id === undefined) !== (u.email === undefined),
      "names the user by none or both of id and email",
    ),
  );

/** A list the reference types as an array, warned about (not refused) when empty. */
const listOf = <T extends z.ZodType>(item: T, what: string) =>
  z.array(item).superRefine(warnUnless((v: unknown[]) => v.length > 0, `has no ${what}`));

const rotationVersion = z.strictObject({
  /**
   * When this version takes effect. Omit it on the first version (it is in effect from creation);
   * every later version needs one, later than the previous version's.
   */
  effectiveFrom: timestamp.optional(),
  /** When shifts change hands: the first user is on shift from this time, then each in turn. */
  handoverStartAt: timestamp,
  /** The shift length(s): with several entries, they apply in turn (one day, then three days, …). */
  handovers: z
    .array(
      z.strictObject({
        /** How many `intervalType` units a shift lasts. */
        interval: z
          .number()
          .int("must be a whole number")
          .superRefine(warnUnless((v: number) => v >= 1, "is less than 1")),
        /** `hourly`, `daily` or `weekly`. */
        // reference: ScheduleRotationHandoverV2.interval_type enum
        intervalType: knownValues(INTERVAL_TYPES),
      }),
    )
    .superRefine(warnUnless((v: unknown[]) => v.length > 0, "has no handover")),
  /** The people, in the order they take shifts. */
  users: z.array(rotationUser),
  /** How many people are on call at once: one layer each. A layer's `id` is assigned by the API when omitted. */
  layers: listOf(
    z.strictObject({
      /** Id of the layer (kept from the API when omitted). */
      id: idText().optional(),
      /** Name of the layer. */
      name: nameText(),
    }),
    "layer",
  ),
  /** Only schedule people within these intervals (omit for around the clock, rather than giving an empty list). */
  workingIntervals: z
    .array(
      z.strictObject({
        /** Day of the week. */
        weekday: weekday,
        /** Start, `HH:MM`. */
        startTime: clock,
        /** End, `HH:MM`. */
        endTime: clockEnd,
      }),
    )
    .superRefine(
      warnUnless((v: unknown[]) => v.length > 0, "is empty: omit workingIntervals for around the clock"),
    )
    .optional(),
  /** `fair` balances by shift length, `sequential` is round robin (only matters with several handovers). */
  // reference: ScheduleRotationCreatePayloadV2.scheduling_mode enum
  schedulingMode: knownValues(["fair", "sequential"]).optional(),
});

/** Inputs of a schedule (API v2: the whole schedule, rotations and their future versions included). */
export const scheduleInputs = z.strictObject({
  /** Name of the schedule. */
  name: nameText(),
  /** IANA time zone of the schedule. The API cannot change it: changing it replaces the schedule. */
  timezone: timeZone(),
  /** The rotations. */
  rotations: z
    .array(
      z.strictObject({
        /** Id of the rotation, chosen by you, unique in the schedule (escalation paths refer to it as `selectedRotaId`). */
        id: idText(),
        /** Name of the rotation. */
        name: nameText(),
        /** Versions of the rotation, oldest first: later ones schedule changes ahead of time. */
        // Our input model: a rotation is sent as its versions; one with none would be dropped.
        versions: z.array(rotationVersion).min(1, "needs at least one version"),
      }),
    )
    .default([]),
  /**
   * Public holidays shown on the schedule. Omit to leave them as set in the dashboard (not managed
   * here); set `countryCodes: []` to clear them.
   */
  holidaysPublicConfig: z
    .strictObject({
      /** ISO 3166-1 alpha-2 country codes, e.g. `GB`. */
      // reference: ScheduleHolidaysPublicConfigPayloadV2.country_codes ("ISO 3166-1 alpha-2 country codes")
      countryCodes: z.array(z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code such as GB")),
    })
    .optional(),
  /** Teams owning the schedule. Order does not matter. */
  teamIds: z.array(idText()).default([]),
  /** Id of an existing schedule to take over instead of creating one. */
  adoptId: z.string().min(1).optional(),
});

export type ScheduleInputs = z.infer<typeof scheduleInputs>;
export type ScheduleRotationVersion = z.infer<typeof rotationVersion>;
export interface ScheduleComputed {
  /** Link to the schedule in the dashboard. */
  permalink: string;
  /** When the schedule was created. */
  createdAt: string;
  /** When it was last updated. */
  updatedAt: string;
  /** Layer ids of the version in effect now, by rotation id then layer name (for overrides). */
  layerIds: Record<string, Record<string, string>>;
  /** Who is on call now: user ids. */
  currentOnCallUserIds: string[];
}

// ---------- API shapes ----------

interface ApiUser {
  id: string;
  name?: string;
  email?: string;
  role?: string;
}
interface ApiRotation {
  id: string;
  name: string;
  effective_from?: string;
  handover_start_at: string;
  handovers: { interval: number; interval_type: string }[];
  layers: { id?: string; name?: string }[];
  users: ApiUser[];
  working_intervals: { weekday: string; start_time: string; end_time: string }[];
  working_interval?: unknown;
  scheduling_mode?: string;
}
export interface ApiSchedule {
  id: string;
  name: string;
  timezone: string;
  annotations: Record<string, string>;
  config?: { rotations: ApiRotation[] };
  holidays_public_config?: { country_codes: string[] };
  team_ids: string[];
  permalink: string;
  created_at: string;
  updated_at: string;
  current_shifts?: { user?: ApiUser; rotation_id?: string }[];
  next_shifts?: unknown[];
}

// ---------- payload ----------

/**
 * The create/update payload (`{"schedule": ScheduleCreatePayloadV2}`). A v2 update replaces the
 * whole configuration, future rotation versions included: every declared version is sent, and a
 * layer whose id is not declared is sent with the id it already has (`live`), so it keeps it.
 */
export function schedulePayload(args: ScheduleInputs, live?: ApiSchedule): Props {
  const rotations = args.rotations.flatMap((r) =>
    r.versions.map((v, vi) => ({
      id: r.id,
      name: r.name,
      effective_from: v.effectiveFrom,
      handover_start_at: v.handoverStartAt,
      handovers: v.handovers.map((h) => ({ interval: h.interval, interval_type: h.intervalType })),
      layers: v.layers.map((l, li) => ({
        id: l.id ?? liveLayerId(live, r.id, r.versions, vi, li, l.name),
        name: l.name,
      })),
      users: v.users.map((u) => (u.id !== undefined ? { id: u.id } : { email: u.email })),
      working_intervals: v.workingIntervals?.map((w) => ({
        weekday: w.weekday,
        start_time: w.startTime,
        end_time: w.endTime,
      })),
      scheduling_mode: v.schedulingMode,
    })),
  );
  return JSON.parse(
    JSON.stringify({
      schedule: {
        name: args.name,
        timezone: args.timezone,
        config: { rotations },
        holidays_public_config: args.holidaysPublicConfig && {
          country_codes: args.holidaysPublicConfig.countryCodes,
        },
        team_ids: args.teamIds,
      },
    }),
  );
}

/**
 * The live schedule as far as an update's payload reads it (its versions and their layer ids),
 * without reading it: the stored inputs, without the versions a later one already in effect has
 * superseded (the API drops them), and the layer ids the state keeps (`layerIds`: the layers of the
 * version in effect at `now`). What a preview of the update passes to `schedulePayload`, so that it
 * previews the payload the update would send.
 */
export function liveFromState(
  stored: ScheduleInputs,
  layerIds: Record<string, Record<string, string>> | undefined,
  now = Date.now(),
): ApiSchedule {
  const rotations = stored.rotations.flatMap((r) => {
    const inEffect = r.versions.filter((v) => (instant(v.effectiveFrom) ?? Number.NEGATIVE_INFINITY) <= now);
    const current = inEffect[inEffect.length - 1];
    return r.versions
      .filter((v) => v === current || !inEffect.includes(v))
      .map(
        (v): ApiRotation => ({
          id: r.id,
          name: r.name,
          effective_from: v.effectiveFrom,
          handover_start_at: v.handoverStartAt,
          handovers: v.handovers.map((h) => ({ interval: h.interval, interval_type: h.intervalType })),
          layers: v.layers.map((l) => ({
            id: l.id ?? (v === current ? layerIds?.[r.id]?.[l.name] : undefined),
            name: l.name,
          })),
          users: [],
          working_intervals: [],
        }),
      );
  });
  return {
    id: "",
    name: stored.name,
    timezone: stored.timezone,
    annotations: {},
    config: { rotations },
    team_ids: stored.teamIds,
    permalink: "",
    created_at: "",
    updated_at: "",
  };
}

/** The live id of the layer a declared layer (without id) corresponds to: same rotation, version, name. */
function liveLayerId(
  live: ApiSchedule | undefined,
  rotationId: string,
  versions: readonly ScheduleRotationVersion[],
  versionIndex: number,
  layerIndex: number,
  name: string,
): string | undefined {
  if (!live) return undefined;
  const liveVersions = sortVersions((live.config?.rotations ?? []).filter((r) => r.id === rotationId));
  const aligned = alignVersions(liveVersions, versions);
  const match = aligned.find((a) => a.declaredIndex === versionIndex)?.live;
  const layers = match?.layers ?? [];
  return (layers.find((l) => l.name === name) ?? layers[layerIndex])?.id;
}

// ---------- read-back ----------

/** The instant of a timestamp, to the second: the API keeps no fraction of a second. */
const instant = (t: string | undefined) =>
  t === undefined ? undefined : Math.floor(Date.parse(t) / 1000) * 1000;

/**
 * Rule "timestamps by instant": the API answers timestamps in UTC (`2026-01-05T08:00:00Z`, to the
 * second) whatever offset and fraction were written (`2026-01-05T09:00:00.250+01:00`); the declared
 * text is kept when both are the same instant.
 */
export function keepDeclaredInstant(
  live: string | undefined,
  declared: string | undefined,
): string | undefined {
  if (live === undefined || declared === undefined) return live;
  return instant(live) === instant(declared) ? declared : live;
}

function sortVersions(versions: ApiRotation[]): ApiRotation[] {
  return versions
    .map((v, i) => ({ v, i }))
    .sort((a, b) => (instant(a.v.effective_from) ?? 0) - (instant(b.v.effective_from) ?? 0) || a.i - b.i)
    .map(({ v }) => v);
}

/**
 * Pairs live versions with declared ones: by the instant each takes effect where every live
 * version has a declared one of the same instant, in order. Otherwise (a declared instant changed)
 * from the newest backwards: the API drops versions that a later version has superseded, so the
 * live list may lack the oldest declared versions.
 */
function alignVersions(
  live: ApiRotation[],
  declared: readonly ScheduleRotationVersion[] | undefined,
): { live: ApiRotation; declaredIndex: number | undefined }[] {
  const d = declared ?? [];
  // The same instant in effect (none for a rotation's first version) is the same version: a
  // version appended after the live ones (one taking effect later) pairs with nothing live, so the
  // versions before it keep their layers (and the overrides on them).
  const byInstant = live.map((v) =>
    d.findIndex((x) => instant(x.effectiveFrom) === instant(v.effective_from)),
  );
  if (byInstant.every((index, i) => index >= 0 && (i === 0 || index > (byInstant[i - 1] ?? -1)))) {
    return live.map((v, i) => ({ live: v, declaredIndex: byInstant[i] }));
  }
  const offset = d.length - live.length;
  return live.map((v, i) => ({
    live: v,
    declaredIndex: offset + i >= 0 && offset + i < d.length ? offset + i : undefined,
  }));
}

function versionFromApi(
  live: ApiRotation,
  mine: ScheduleRotationVersion | undefined,
  first: boolean,
): ScheduleRotationVersion {
  return {
    // Rule "first version in effect from creation": a version sent without `effective_from` is the
    // rotation's first, answered without one (the reference); should an API stamp the write time on
    // it instead, the first version still reads back unset when it was declared unset.
    effectiveFrom:
      first && mine !== undefined && mine.effectiveFrom === undefined
        ? undefined
        : keepDeclaredInstant(live.effective_from, mine?.effectiveFrom),
    handoverStartAt:
      keepDeclaredInstant(live.handover_start_at, mine?.handoverStartAt) ?? live.handover_start_at,
    handovers: live.handovers.map((h) => ({
      interval: h.interval,
      intervalType: h.interval_type as (typeof INTERVAL_TYPES)[number],
    })),
    // Rule "users by e-mail": the API answers full user objects; a user declared by e-mail reads
    // back by e-mail when it is the same person.
    users: live.users.map((u, i) => {
      const declaredUser = mine?.users[i];
      if (declaredUser?.email !== undefined && u.email?.toLowerCase() === declaredUser.email.toLowerCase())
        return { email: declaredUser.email };
      return { id: u.id };
    }),
    // Rule "server-assigned layer ids": a layer declared without id reads back without it.
    layers: live.layers.map((l, i) => {
      const declaredLayer = mine?.layers[i];
      const keepId = declaredLayer === undefined || declaredLayer.id !== undefined;
      return { ...(keepId && l.id ? { id: l.id } : {}), name: l.name ?? "" };
    }),
    // Rule "omitted vs empty": no working intervals reads back as omitted. The deprecated
    // `working_interval` mirror is ignored.
    workingIntervals:
      (live.working_intervals ?? []).length === 0
        ? undefined
        : live.working_intervals.map((w) => ({
            weekday: w.weekday as Weekday,
            startTime: w.start_time,
            endTime: w.end_time,
          })),
    schedulingMode:
      mine?.schedulingMode === undefined && live.scheduling_mode === "sequential"
        ? undefined
        : (live.scheduling_mode as ScheduleRotationVersion["schedulingMode"]),
  };
}

export function scheduleFromApi(live: ApiSchedule, declared: ScheduleInputs | undefined): ScheduleInputs {
  const byId = new Map<string, ApiRotation[]>();
  for (const r of live.config?.rotations ?? []) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  // Rotations in the declared order when they are the same ones (matched by id).
  const order = new Map((declared?.rotations ?? []).map((r, i) => [r.id, i]));
  const ids = [...byId.keys()].sort((a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9));
  const now = Date.now();
  const rotations = ids.map((id) => {
    const versions = sortVersions(byId.get(id) ?? []);
    const mine = declared?.rotations.find((r) => r.id === id);
    const aligned = alignVersions(versions, mine?.versions);
    const mapped = aligned.map((a) =>
      versionFromApi(
        a.live,
        a.declaredIndex === undefined ? undefined : mine?.versions[a.declaredIndex],
        a.declaredIndex === 0,
      ),
    );
    // Rule "superseded versions": the API drops versions once a later one has taken effect; the
    // dropped declared versions (all before the oldest live one, which is in effect) read back as declared.
    const firstLive = aligned[0];
    const dropped = firstLive?.declaredIndex ?? 0;
    const superseded =
      mine && dropped > 0 && (instant(firstLive?.live.effective_from) ?? Number.POSITIVE_INFINITY) <= now
        ? mine.versions.slice(0, dropped)
        : [];
    return {
      id,
      name: versions[versions.length - 1]?.name ?? mine?.name ?? id,
      versions: [...superseded, ...mapped],
    };
  });
  return {
    name: live.name,
    timezone: live.timezone,
    rotations,
    // Rule "holidays unmanaged when omitted" (TF #271): holidays set in the dashboard are not drift
    // when the program does not declare them.
    holidaysPublicConfig:
      declared !== undefined && declared.holidaysPublicConfig === undefined
        ? undefined
        : live.holidays_public_config && { countryCodes: live.holidays_public_config.country_codes },
    teamIds: keepDeclaredOrder(live.team_ids ?? [], declared?.teamIds) ?? [],
  };
}

/** Canonical form for diffs: timestamps as instants, team ids as a set. */
export function canonicalSchedule(args: ScheduleInputs): Props {
  const iso = (t: string | undefined) => (t === undefined ? undefined : new Date(instant(t)!).toISOString());
  return {
    ...args,
    rotations: (args.rotations ?? []).map((r) => ({
      ...r,
      versions: r.versions.map((v) => ({
        ...v,
        effectiveFrom: iso(v.effectiveFrom),
        handoverStartAt: iso(v.handoverStartAt),
        users: v.users.map((u) => (u.email !== undefined ? { email: u.email.toLowerCase() } : u)),
      })),
    })),
    teamIds: unorderedSet(args.teamIds ?? []),
  };
}

/**
 * Refused: a later version without `effectiveFrom` (reference: ScheduleRotationCreatePayloadV2.
 * effective_from, "Leave it unset on a rotation's first or only version": each later one applies
 * from its own), and what our input model cannot express (rotations keyed by id, a version's layers
 * by name: `layerIds`). Warned: versions out of time order, a working interval not ending after it
 * starts (no published rule).
 */
export function validateSchedule(args: ScheduleInputs): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  args.rotations.forEach((r, ri) => {
    if (seen.has(r.id))
      problems.push({
        path: ["rotations", ri, "id"],
        message: `duplicate rotation id ${JSON.stringify(r.id)}`,
      });
    seen.add(r.id);
    let previous: number | undefined;
    r.versions.forEach((v, vi) => {
      const at = ["rotations", ri, "versions", vi];
      const t = instant(v.effectiveFrom);
      if (vi > 0 && t === undefined)
        problems.push({ path: [...at, "effectiveFrom"], message: "required on every version but the first" });
      if (t !== undefined && previous !== undefined && t <= previous)
        problems.push({
          path: [...at, "effectiveFrom"],
          message: passedOn("is not later than the previous version's"),
          severity: "warning",
        });
      if (t !== undefined) previous = t;
      const layerNames = new Set<string>();
      v.layers.forEach((l, li) => {
        if (layerNames.has(l.name))
          problems.push({
            path: [...at, "layers", li, "name"],
            message: `duplicate layer name ${JSON.stringify(l.name)}`,
          });
        layerNames.add(l.name);
      });
      (v.workingIntervals ?? []).forEach((w, wi) => {
        if (w.endTime !== "24:00" && w.endTime <= w.startTime)
          problems.push({
            path: [...at, "workingIntervals", wi, "endTime"],
            message: passedOn(`is not after startTime (${w.startTime})`),
            severity: "warning",
          });
      });
    });
  });
  return problems;
}

// ---------- API calls ----------

/**
 * The API field paths of the wrapped, flattened payload as input paths: `schedule.config.rotations.3.handovers.0`
 * → `rotations.1.versions.0.handovers.0` (each API rotation is one version of an input rotation).
 */
export function scheduleFieldRenames(args: Pick<ScheduleInputs, "rotations">): FieldRenames {
  const renames: FieldRenames = {
    schedule: "",
    holidays_public_config: "holidaysPublicConfig",
    "schedule.holidays_public_config": "holidaysPublicConfig",
  };
  for (const root of ["schedule.config", "config"]) {
    // A rotation the inputs do not have (or the whole list): the rotations.
    renames[`${root}.*`] = "rotations";
    let flat = 0;
    (args.rotations ?? []).forEach((rotation, ri) => {
      rotation.versions.forEach((_, vi) => {
        const at = `${root}.rotations.${flat++}`;
        renames[at] = `rotations.${ri}.versions.${vi}`;
        renames[`${at}.id`] = `rotations.${ri}.id`;
        renames[`${at}.name`] = `rotations.${ri}.name`;
      });
    });
  }
  return renames;
}

/** One API field path as the input path (dotted). */
export function scheduleFieldToInput(field: string, args: ScheduleInputs): string {
  return renameFieldPath(field, scheduleFieldRenames(args));
}

const pathOf = (id: string) => `/v2/schedules/${encodeURIComponent(id)}`;

async function readSchedule(ctx: ApiContext, id: string): Promise<ApiSchedule> {
  return (await ctx.client.get<{ schedule: ApiSchedule }>(pathOf(id), "show schedule")).schedule;
}

/**
 * An on-call schedule (API v2) with its rotations, their layers, handovers, users, working intervals
 * and future versions, public holidays and owning teams. v2 rather than v3: both are current, but
 * v3 schedules carry no rotations (they are a separate sub-resource), while v2 manages the whole
 * schedule in one atomic write, which is what one resource here declares.
 *
 * Changing `timezone` replaces the schedule (the API cannot change it in place), creating the new one
 * before deleting the old one (names need not be unique, so paging never loses its schedule). Adopt
 * an existing schedule with `adoptId` (its id from the dashboard URL or `GET /v2/schedules`).
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const schedule = new incident.Schedule("primary", {
 *   name: "Payments primary",
 *   timezone: "Europe/London",
 *   teamIds: ["01TEAMPAYMENTS"],
 *   holidaysPublicConfig: { countryCodes: ["GB"] },
 *   rotations: [
 *     {
 *       id: "primary", // chosen by you; escalation paths refer to it as selectedRotaId
 *       name: "Primary",
 *       versions: [
 *         {
 *           handoverStartAt: "2026-01-05T09:00:00Z",
 *           handovers: [{ interval: 1, intervalType: "weekly" }],
 *           users: [{ email: "ada@example.com" }, { id: "01USERBOB" }],
 *           layers: [{ name: "Primary" }],
 *           workingIntervals: [{ weekday: "monday", startTime: "09:00", endTime: "17:00" }],
 *         },
 *         {
 *           // From March, daily shifts with a third person.
 *           effectiveFrom: "2026-03-02T09:00:00Z",
 *           handoverStartAt: "2026-03-02T09:00:00Z",
 *           handovers: [{ interval: 1, intervalType: "daily" }],
 *           users: [{ email: "ada@example.com" }, { id: "01USERBOB" }, { id: "01USERCAT" }],
 *           layers: [{ name: "Primary" }],
 *         },
 *       ],
 *     },
 *   ],
 * });
 * export const primaryLayer = schedule.layerIds.apply((l) => l.primary?.Primary);
 * ```
 */
export const scheduleSpec: ResourceSpec<ScheduleInputs, ApiSchedule> = {
  kind: "Schedule",
  title: "schedule",
  schemaVersion: 1,
  claimAs: "schedule",
  inputs: scheduleInputs,
  // The API refuses to change a schedule's time zone (TF provider PR #124): a new schedule is made.
  replaceOnChanges: ["timezone"],
  // Create-before-delete: schedule names are not unique (the API reference documents no such rule,
  // unlike e.g. alert source names), so the replacement is created next to the old schedule, which
  // is deleted only once the new one exists and escalation paths have moved to it: paging never
  // points at a schedule that is gone.
  deleteBeforeReplace: false,
  secretOutputs: [],
  computedOutputs: ["permalink", "createdAt", "updatedAt", "layerIds", "currentOnCallUserIds"],
  // 422 fields (`schedule.config.rotations.N…`) named as input paths.
  fieldRenames: (inputs) => scheduleFieldRenames(inputs as ScheduleInputs),
  validate: validateSchedule,
  canonical: canonicalSchedule,
  idOf: (live) => live.id,
  // SchedulesV2List answers ScheduleV2, as show does; page size 25, as above it the list leaves out
  // the current shifts (`currentOnCallUserIds`).
  list: { path: "/v2/schedules", itemsKey: "schedules", operation: "list schedules", pageSize: 25 },
  // A schedule's writes change what the sync targets' and sync rules' lists answer (a target's
  // `linked_schedules`; an archived schedule's rules).
  writesLists: ["/v2/schedule_sync_targets", "/v2/schedules/{schedule_id}/sync_rules"],
  toInputs: scheduleFromApi,
  computed: (live) => {
    // Layers of the version in effect now (the latest one whose effective_from has passed).
    const layerIds: Record<string, Record<string, string>> = {};
    const now = Date.now();
    const current = new Map<string, ApiRotation>();
    for (const r of sortVersions(live.config?.rotations ?? [])) {
      if (!current.has(r.id) || (instant(r.effective_from) ?? 0) <= now) current.set(r.id, r);
    }
    for (const r of current.values()) {
      const byName: Record<string, string> = {};
      for (const l of r.layers) if (l.id && l.name) byName[l.name] = l.id;
      layerIds[r.id] = byName;
    }
    return {
      permalink: live.permalink,
      createdAt: live.created_at,
      updatedAt: live.updated_at,
      layerIds,
      currentOnCallUserIds: (live.current_shifts ?? []).flatMap((s) => (s.user ? [s.user.id] : [])),
    };
  },
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ schedule: ApiSchedule }>(
        "/v2/schedules",
        "create schedule",
        schedulePayload(args),
      );
      return { live: body.schedule };
    },
    read: (ctx, id) => readSchedule(ctx, id),
    async update(ctx, id, args) {
      // v2 replaces the whole configuration: fetch first so layers keep their ids.
      // A schedule deleted meanwhile: the PUT says so.
      const live = await unlessNotFound(readSchedule(ctx, id));
      const body = await ctx.client.put<{ schedule: ApiSchedule }>(
        pathOf(id),
        "update schedule",
        schedulePayload(args, live),
      );
      return { live: body.schedule };
    },
    async delete(ctx, id) {
      await ctx.client.delete(pathOf(id), "delete schedule");
    },
    recoveryKey: (args) => `${args.name}/${args.timezone}`,
    async findCreated(ctx, args) {
      const all = await ctx.client.listAll<ApiSchedule>(
        "/v2/schedules",
        "schedules",
        "list schedules",
        {},
        25,
      );
      // Names are not unique: while a time zone change is replaced (create-before-delete) the old
      // schedule still has the same name. Match the time zone too, and take the newest.
      return newestMatching(all, (s) => s.name === args.name && s.timezone === args.timezone);
    },
  },
};

export const scheduleProvider = makeProvider(scheduleSpec);

// ---------- lookup ----------

/** What `getSchedule` answers. */
export interface ScheduleResult {
  id: string;
  name: string;
  timezone: string;
  teamIds: string[];
  /** Rotation ids and names (for `selectedRotaId` in escalation paths). */
  rotations: { id: string; name: string }[];
  permalink: string;
}

const scheduleLookup = defineLookup({
  name: "getSchedule",
  args: z.strictObject({
    /** Exact name of the schedule. */
    name: nameText(),
  }),
  async run(client, args): Promise<ScheduleResult> {
    // Page size 25: above that, the list omits shifts (fine here) — kept small for fidelity.
    const all = await client.listAll<ApiSchedule>("/v2/schedules", "schedules", "list schedules", {}, 25);
    const found = all.filter((s) => s.name === args.name);
    if (found.length === 0)
      throw new LookupError("getSchedule", `no schedule is named ${JSON.stringify(args.name)}`);
    if (found.length > 1)
      throw new LookupError(
        "getSchedule",
        `${found.length} schedules are named ${JSON.stringify(args.name)}: ${found.map((s) => s.id).join(", ")}`,
      );
    const s = found[0] as ApiSchedule;
    const rotations = new Map<string, string>();
    for (const r of s.config?.rotations ?? []) rotations.set(r.id, r.name);
    return {
      id: s.id,
      name: s.name,
      timezone: s.timezone,
      teamIds: s.team_ids ?? [],
      rotations: [...rotations].map(([id, name]) => ({ id, name })),
      permalink: s.permalink,
    };
  },
});
/** Finds a schedule by its exact name (read-only; uses the stack's credentials). */
export const getSchedule = scheduleLookup.get;
/** `getSchedule` as an Output. */
export const getScheduleOutput = scheduleLookup.getOutput;
