/**
 * What both sources' mappings share: people matched by e-mail and teams by name against this
 * account, the plan's bookkeeping, rotation ids, turn lengths as handovers, the filters and the
 * objects they pull in, and the version timeline of a rotation (a rotation that starts later, or
 * changes or ends at known times, as versions with `effectiveFrom`).
 */
import { kebabCase } from "../export/names";
import type {
  Declaration,
  Fidelity,
  HereAccount,
  Migrated,
  MigrateOptions,
  Migration,
  Person,
  PlanItem,
  PlannedObject,
  Reference,
} from "./model";
import { teamRef, userRef } from "./model";
import { FULL_WEEK, isFull, type WeekSet, weekText, workingIntervals } from "./weekly";

export const item = (fidelity: Fidelity, what: string, how: string): PlanItem => ({ fidelity, what, how });

/** A source object's plan, empty yet. */
export const planFor = (
  sourceKind: string,
  sourceId: string,
  name: string,
  neededBy?: string,
): PlannedObject => ({
  sourceKind,
  sourceId,
  name,
  items: [],
  written: [],
  ...(neededBy !== undefined ? { neededBy } : {}),
});

/** People of the source, matched by e-mail (case-insensitive) with this account's users. */
/** What every source's mapping works with: the options, and this account's people and teams. */
export interface MappingContext {
  options: MigrateOptions;
  people: People;
  teams: Teams;
}

export class People {
  private readonly byId = new Map<string, Person>();
  private readonly used = new Map<string, Set<string>>();

  constructor(source: ReadonlyArray<{ id: string; name: string; email: string }>, here: HereAccount) {
    const hereByEmail = new Map(
      here.users.filter((u) => u.email).map((u) => [u.email!.toLowerCase(), u.id] as const),
    );
    for (const u of source)
      this.byId.set(u.id, {
        sourceId: u.id,
        name: u.name,
        email: u.email,
        hereId: hereByEmail.get(u.email.toLowerCase()),
      });
  }

  get(sourceId: string): Person | undefined {
    return this.byId.get(sourceId);
  }

  /**
   * The reference to a source user here (`getUser` by e-mail), or undefined when nobody here has
   * their e-mail address (or the source does not know them): `where` records who needed them.
   */
  ref(sourceId: string, where: string): Reference | undefined {
    const person = this.byId.get(sourceId);
    if (!person) return undefined;
    const places = this.used.get(sourceId) ?? new Set<string>();
    places.add(where);
    this.used.set(sourceId, places);
    return person.hereId ? userRef(person.email) : undefined;
  }

  /** `Name (e-mail)`, or the source id of someone the source does not know. */
  label(sourceId: string): string {
    const p = this.byId.get(sourceId);
    return p ? `${p.name} (${p.email})` : `user ${sourceId}`;
  }

  /** Everyone a migrated object refers to. */
  referenced(): Person[] {
    return [...this.used.keys()].flatMap((id) => (this.byId.has(id) ? [this.byId.get(id)!] : []));
  }

  /** The plan of each person a migrated object refers to and this account lacks. */
  missingPlan(kind: string): PlannedObject[] {
    return [...this.used.entries()].flatMap(([id, places]) => {
      const p = this.byId.get(id);
      if (p?.hereId) return [];
      return [
        {
          sourceKind: kind,
          sourceId: id,
          name: p ? p.name : id,
          items: [
            item(
              "unmapped",
              p ? `${p.name} (${p.email})` : `user ${id}`,
              `no user here has this e-mail address: left out of ${[...places].sort().join(", ")}; invite them (or add them by SCIM), then add them to the program`,
            ),
          ],
          written: [],
        },
      ];
    });
  }
}

/** Teams of the source matched by name with this account's (teams are managed in the dashboard or by SCIM). */
export class Teams {
  private readonly hereNames: Set<string>;
  private readonly missing = new Map<string, Set<string>>();

  constructor(
    private readonly source: ReadonlyArray<{ id: string; name: string }>,
    here: HereAccount,
  ) {
    this.hereNames = new Set(here.teams.map((t) => t.name));
  }

  name(sourceId: string): string | undefined {
    return this.source.find((t) => t.id === sourceId)?.name;
  }

  /**
   * `teamIds` for source teams: those this account has by name; the others recorded (with `where`)
   * and said in the object's plan.
   */
  refs(sourceIds: readonly string[], where: string, plan: PlannedObject): Reference[] {
    const out: Reference[] = [];
    for (const id of sourceIds) {
      const name = this.name(id) ?? id;
      if (this.hereNames.has(name)) {
        out.push(teamRef(name));
        plan.items.push(item("exact", `team "${name}"`, "the team of that name here (getTeam)"));
      } else {
        this.missing.set(name, (this.missing.get(name) ?? new Set()).add(where));
        plan.items.push(
          item("approximate", `team "${name}"`, "no team here has this name: left out of the owning teams"),
        );
      }
    }
    return out;
  }

  /** Does `team` (a name or an id of the source) name one of `sourceIds`? */
  matches(team: string, sourceIds: readonly string[]): boolean {
    return sourceIds.some((id) => id === team || this.name(id) === team);
  }

  missingPlan(): PlannedObject[] {
    return [...this.missing.entries()].map(([name, places]) => ({
      sourceKind: "team",
      sourceId: name,
      name,
      items: [
        item(
          "unmapped",
          `team "${name}"`,
          `no team here has this name (teams are made in the dashboard or by SCIM): ${[...places].sort().join(", ")} will not name it; add the team, then its id to teamIds`,
        ),
      ],
      written: [],
    }));
  }
}

/** A rotation or node id from a name, unique among `taken`. */
export function uniqueId(name: string, fallback: string, taken: Set<string>): string {
  const base = kebabCase(name, fallback) || fallback;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** A turn length in seconds as this API's handovers: weeks, days or hours, else rounded to hours. */
export function handoversFor(seconds: number): {
  handovers: Array<{ interval: number; intervalType: "hourly" | "daily" | "weekly" }>;
  item: PlanItem;
} {
  const text = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (seconds > 0 && seconds % 604_800 === 0) {
    const n = seconds / 604_800;
    return {
      handovers: [{ interval: n, intervalType: "weekly" }],
      item: item("exact", `turns of ${text(n, "week")}`, "weekly handovers"),
    };
  }
  if (seconds > 0 && seconds % 86_400 === 0) {
    const n = seconds / 86_400;
    return {
      handovers: [{ interval: n, intervalType: "daily" }],
      item: item("exact", `turns of ${text(n, "day")}`, "daily handovers"),
    };
  }
  if (seconds > 0 && seconds % 3600 === 0) {
    const n = seconds / 3600;
    return {
      handovers: [{ interval: n, intervalType: "hourly" }],
      item: item("exact", `turns of ${text(n, "hour")}`, "hourly handovers"),
    };
  }
  const n = Math.max(1, Math.round(seconds / 3600));
  return {
    handovers: [{ interval: n, intervalType: "hourly" }],
    item: item(
      "approximate",
      `turns of ${seconds} seconds`,
      `handovers here are whole hours: ${text(n, "hour")} (each turn ends ${Math.abs(n * 3600 - seconds)} seconds ${n * 3600 > seconds ? "later" : "earlier"})`,
    ),
  };
}

/** `workingIntervals` for a set of the week (undefined: around the clock). */
export const intervalsInput = (set: WeekSet) => (isFull(set) ? undefined : workingIntervals(set));

/** What one version of a rotation holds, before it is written. */
export interface VersionSpec {
  /** When it takes effect (ms); the first version's is the migration's "now" and is not written. */
  from: number;
  /** Nobody is on call (the rotation has not started, has ended, or is hidden). */
  nobody: boolean;
  handoverStartAt: string;
  handovers: Array<{ interval: number; intervalType: string }>;
  users: Reference[];
  hours: WeekSet;
}

/**
 * A rotation's versions as inputs: the first without `effectiveFrom` (in effect from creation), the
 * next each from its start; a version where nobody is on call has no users (one layer all the same).
 */
export function versionsInput(specs: readonly VersionSpec[], layerName: string): Record<string, unknown>[] {
  return specs.map((v, i) => {
    const version: Record<string, unknown> = {
      ...(i > 0 ? { effectiveFrom: isoSeconds(v.from) } : {}),
      handoverStartAt: v.handoverStartAt,
      handovers: v.handovers,
      users: v.nobody ? [] : v.users.map((u) => ({ id: u })),
      layers: [{ name: layerName }],
    };
    const intervals = v.nobody ? undefined : intervalsInput(v.hours);
    if (intervals) version.workingIntervals = intervals;
    return version;
  });
}

/** Consecutive versions that hold the same thing are one. */
export function mergeVersions(specs: VersionSpec[]): VersionSpec[] {
  const out: VersionSpec[] = [];
  const same = (a: VersionSpec, b: VersionSpec) =>
    a.nobody === b.nobody &&
    (a.nobody ||
      (a.handoverStartAt === b.handoverStartAt &&
        JSON.stringify(a.handovers) === JSON.stringify(b.handovers) &&
        JSON.stringify(a.users) === JSON.stringify(b.users) &&
        JSON.stringify(a.hours) === JSON.stringify(b.hours)));
  for (const s of specs) {
    const last = out[out.length - 1];
    if (!last || !same(last, s)) out.push(s);
  }
  return out;
}

/** An instant as RFC 3339 UTC to the second (`2027-04-05T13:00:00Z`). */
export const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** How a version reads in the plan: `from 2027-04-05 13:00 UTC: Mon–Fri 09:00–17:00`. */
export function versionText(v: VersionSpec, first: boolean): string {
  const when = first ? "now" : `from ${isoSeconds(v.from).replace("T", " ").replace(/:00Z$/, " UTC")}`;
  return `${when}: ${v.nobody ? "nobody" : weekText(v.hours)}`;
}

/**
 * The filters: an object is selected when it matches both (`team`: one of its teams, by name or id;
 * `name`: its name); what selected objects need is pulled in.
 */
export function selectedBy(
  options: MigrateOptions,
  teams: Teams,
  object: { name: string; teamIds: readonly string[] },
): boolean {
  if (options.team !== undefined && !teams.matches(options.team, object.teamIds)) return false;
  if (options.namePattern && !options.namePattern.test(object.name)) return false;
  return true;
}

/** Notes for a resource's comment: each approximation of its plan (or of its own items), and what is left out. */
export function notesOf(declaration: Pick<Declaration, "plan" | "noteItems" | "key">): string[] {
  return [
    ...(declaration.noteItems ?? declaration.plan.items)
      .filter((i) => i.fidelity !== "exact")
      .map((i) => `${i.fidelity === "approximate" ? "Approximate" : "Not migrated"}: ${i.what}: ${i.how}`),
    // What the reviewer of the code must decide before `up`: adopt the namesake, or rename one.
    ...(declaration.plan.namesakes ?? [])
      .filter((n) => n.key === declaration.key)
      .map(
        (n) =>
          `Already here: a ${n.kind} named ${JSON.stringify(n.name)} (${n.id}): pulumi up makes another beside it; set adoptId: ${JSON.stringify(n.id)} to take it over, or rename one`,
      ),
  ];
}

/** A declaration for a source object, recorded in its plan as written. */
export function declare(declaration: Omit<Declaration, "plan">, plan: PlannedObject): Declaration {
  plan.written.push({ kind: declaration.kind, key: declaration.key });
  return { ...declaration, plan };
}

export { FULL_WEEK };

/** What a source gives `assemble`: its objects, what selects them, what they need, how each maps. */
export interface SourceObjects<S extends Named, P extends Named, R extends Named> {
  schedules: readonly S[];
  /** Escalation policies (PagerDuty), escalations (Opsgenie). */
  paths: readonly P[];
  /** Services (PagerDuty), integrations (Opsgenie). */
  routes: readonly R[];
  /** Whether the filters select an object. */
  picked(o: S | P | R): boolean;
  /** The ids of the paths a route pages, and of the schedules a path pages. */
  pathsOf(r: R): string[];
  schedulesOf(p: P): string[];
  /** How the plan names an object that needs another (`service "Checkout API"`). */
  label(o: P | R): string;
  mapSchedule(s: S, neededBy: string | undefined): { plan: PlannedObject; declaration?: Declaration };
  mapPath(
    p: P,
    schedules: Map<string, Declaration>,
    neededBy: string | undefined,
  ): { plan: PlannedObject; declaration?: Declaration };
  mapRoute(r: R, paths: Map<string, Declaration>): { plan: PlannedObject; declarations: Declaration[] };
}

interface Named {
  id: string;
  name: string;
}

/**
 * A migration from a source's objects: what the filters select and what those need (a route's
 * path, a path's schedules, each said to be needed by whom), mapped schedules first, then the
 * paths that page them, then the routes to those; the people and teams this account lacks last.
 */
export function assemble<S extends Named, P extends Named, R extends Named>(
  source: Migration["source"],
  ctx: { people: People; teams: Teams },
  o: SourceObjects<S, P, R>,
): Migration {
  const routes = o.routes.filter((r) => o.picked(r));
  const neededPaths = new Map<string, string>();
  for (const r of routes)
    for (const id of o.pathsOf(r)) if (!neededPaths.has(id)) neededPaths.set(id, o.label(r));
  const paths = o.paths.filter((p) => o.picked(p) || neededPaths.has(p.id));
  const neededSchedules = new Map<string, string>();
  for (const p of paths)
    for (const id of o.schedulesOf(p)) if (!neededSchedules.has(id)) neededSchedules.set(id, o.label(p));
  const schedules = o.schedules.filter((s) => o.picked(s) || neededSchedules.has(s.id));
  const filteredOut =
    o.routes.length - routes.length + o.paths.length - paths.length + o.schedules.length - schedules.length;

  const plan: PlannedObject[] = [];
  const declarations: Declaration[] = [];
  const migrated = (list: readonly (S | P)[], decls: Map<string, Declaration>): Migrated[] =>
    list.flatMap((x) => {
      const d = decls.get(x.id);
      return d ? [{ sourceId: x.id, name: x.name, key: d.key }] : [];
    });
  const scheduleDecls = new Map<string, Declaration>();
  for (const s of schedules) {
    const out = o.mapSchedule(s, o.picked(s) ? undefined : neededSchedules.get(s.id));
    plan.push(out.plan);
    if (out.declaration) scheduleDecls.set(s.id, out.declaration);
  }
  const pathDecls = new Map<string, Declaration>();
  for (const p of paths) {
    const out = o.mapPath(p, scheduleDecls, o.picked(p) ? undefined : neededPaths.get(p.id));
    plan.push(out.plan);
    if (out.declaration) pathDecls.set(p.id, out.declaration);
  }
  declarations.push(...scheduleDecls.values(), ...pathDecls.values());
  for (const r of routes) {
    const out = o.mapRoute(r, pathDecls);
    plan.push(out.plan);
    declarations.push(...out.declarations);
  }
  plan.push(...ctx.people.missingPlan("user"), ...ctx.teams.missingPlan());
  return {
    source,
    declarations,
    plan,
    people: ctx.people.referenced(),
    schedules: migrated(schedules, scheduleDecls),
    escalations: migrated(paths, pathDecls),
    filteredOut,
  };
}
