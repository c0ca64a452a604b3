/**
 * `export --split-by team`: the account as a fleet of Pulumi projects, one per owning team plus one
 * for the account.
 *
 * Where an object goes:
 * - **its owner**: the teams in its `owningTeamIds` (alert sources and routes, workflows, secrets,
 *   catalog types, announcement rules and templates) or `teamIds` (escalation paths, schedules,
 *   API keys): the inputs that carry the API's `owning_team_ids` and `team_ids`. One owning team:
 *   that team's project.
 * - **no owner** (severities, statuses, roles, custom fields, templates, policies, pay configs, the
 *   allowlist, call routes, maintenance windows, alert attributes, and any object whose owner list
 *   is empty): the account project.
 * - **several owning teams**: the account project too, so that no team's stack can change what
 *   another team also owns; its README lists each such object with its teams.
 * - **a part** (the kind's `partOf`: an option of a field, an override, replica or sync rule of a
 *   schedule, an attribute or the entries of a catalog type): wherever its whole goes.
 *
 * An object declared in one project that another refers to is a lookup there (model.ts,
 * `elsewhereLookups`), never a second declaration. Teams that own nothing get no project.
 */
import {
  type Block,
  fenced,
  headingBlock,
  inlineCode,
  join,
  list,
  md,
  paragraph,
  renderBlocks,
  tableBlock,
} from "../markdown";
import type { ExportedResource, ExportModel, ModelOptions } from "./model";
import { type Draft, draftObjects, type Elsewhere, modelOf } from "./model";
import { words } from "./names";
import { type Files, notesAndLeftOut, projectFiles, quoted, titleBlock } from "./project";
import type { Account, AccountTeam } from "./read";

export const SPLIT_BY = ["team"] as const;
export type SplitBy = (typeof SPLIT_BY)[number];

/** The account project's directory. */
export const ACCOUNT_DIR = "account";

/** Inputs that name an object's owning teams (the API's `owning_team_ids`, `team_ids`). */
const OWNER_INPUTS = ["owningTeamIds", "teamIds"];

export interface FleetProject {
  /** Directory under the export's directory (letters, digits and `-`). */
  dir: string;
  /** The Pulumi project name. */
  project: string;
  /** The owning team; undefined for the account project. */
  team?: AccountTeam;
  model: ExportModel;
  /** Objects several teams own (the account project only), with those teams' names. */
  shared: Array<{ resource: ExportedResource; teams: string[] }>;
  /** Directories of the projects whose objects this one looks up. */
  reads: string[];
}

export interface Fleet {
  /** In the order to apply them: each after the projects it reads, the account project first. */
  projects: FleetProject[];
  /** Projects that read one declared after them (a cycle): `reader` reads `declarer`. */
  backReads: Array<{ reader: string; declarer: string }>;
  leftOut: ExportModel["leftOut"];
  notes: string[];
}

/** Where `draft` goes: its project's team id, or undefined (the account); and its owners. */
function placements(drafts: Draft[], teams: Map<string, AccountTeam>) {
  const byId = new Map(drafts.map((d) => [d.object.id, d]));
  const out = new Map<Draft, { team?: string; owners: string[] }>();
  const place = (d: Draft, visiting: Set<Draft>): { team?: string; owners: string[] } => {
    const known = out.get(d);
    if (known) return known;
    const partOf = d.object.spec.partOf;
    const wholeId = partOf !== undefined ? d.inputs[partOf] : undefined;
    const whole = typeof wholeId === "string" ? byId.get(wholeId) : undefined;
    let where: { team?: string; owners: string[] };
    if (whole && !visiting.has(whole)) {
      visiting.add(d);
      where = { team: place(whole, visiting).team, owners: [] };
    } else {
      const key = OWNER_INPUTS.find((k) => k in d.object.spec.inputs.shape);
      const listed = key !== undefined && Array.isArray(d.inputs[key]) ? (d.inputs[key] as unknown[]) : [];
      // Owners are teams of the account (an id the teams list does not hold owns nothing here).
      const owners = [...new Set(listed.filter((t): t is string => typeof t === "string" && teams.has(t)))];
      where = { team: owners.length === 1 ? owners[0] : undefined, owners };
    }
    out.set(d, where);
    return where;
  };
  for (const d of drafts) place(d, new Set());
  return out;
}

/** A directory and project-name part for a team: its Latin letters and digits, `-` between words. */
export function teamSlug(name: string): string {
  const ascii = words(name)
    .map((w) => w.replace(/[^a-z0-9]/g, ""))
    .filter((w) => w !== "");
  return ascii.join("-").slice(0, 40).replace(/-+$/, "");
}

export interface FleetOptions extends ModelOptions {
  /** The projects' names start with it: `<base>-account`, `<base>-<team>`. */
  base: string;
}

/** Pulumi's limit on a project name (tokens.ValidateProjectName). */
export const PROJECT_NAME_LIMIT = 100;

export function buildFleet(account: Account, options: FleetOptions): Fleet {
  const { drafts, leftOut, notes } = draftObjects(account, options);
  const teams = new Map(account.teams.map((t) => [t.id, t]));
  const where = placements(drafts, teams);

  // One project per team that owns something, named after it (numbered when two names agree).
  const taken = new Set([ACCOUNT_DIR]);
  const dirOf = new Map<string | undefined, string>([[undefined, ACCOUNT_DIR]]);
  const owning = [...new Set([...where.values()].map((w) => w.team).filter((t) => t !== undefined))];
  owning.sort((a, b) => compare(teams.get(a)!.name, teams.get(b)!.name) || compare(a, b));
  for (const teamId of owning) {
    const wanted = teamSlug(teams.get(teamId)!.name) || "team";
    let dir = wanted;
    for (let n = 2; taken.has(dir); n++) dir = `${wanted}-${n}`;
    taken.add(dir);
    dirOf.set(teamId, dir);
  }
  const projectName = (dir: string) => `${options.base}-${dir}`.slice(0, PROJECT_NAME_LIMIT);

  const members = new Map<string, Draft[]>([...dirOf.values()].map((d) => [d, []]));
  for (const d of drafts) members.get(dirOf.get(where.get(d)!.team)!)!.push(d);

  const declaredIn = new Map<string, { draft: Draft; dir: string }>();
  const byKind = new Map<string, Draft[]>();
  for (const [dir, list] of members) {
    for (const d of list) {
      for (const one of [d, ...(d.parts ?? [])]) {
        // A catalog type's entries in bulk share its id: the id names the type.
        if (!declaredIn.has(one.object.id) || !one.parts) declaredIn.set(one.object.id, { draft: one, dir });
        byKind.set(one.object.kind, [...(byKind.get(one.object.kind) ?? []), one]);
      }
    }
  }

  const projects: FleetProject[] = [];
  for (const [teamId, dir] of dirOf) {
    const elsewhere: Elsewhere = { byId: new Map(), byKind };
    for (const [id, found] of declaredIn)
      if (found.dir !== dir) elsewhere.byId.set(id, { draft: found.draft, project: projectName(found.dir) });
    const own = members.get(dir)!;
    const model = modelOf(account, own, { elsewhere });
    const sharedDrafts = own.filter((d) => where.get(d)!.owners.length > 1);
    const shared = sharedDrafts.map((d) => ({
      resource: model.resources.find((r) => r.id === d.object.id)!,
      teams: where
        .get(d)!
        .owners.map((t) => teams.get(t)!.name)
        .sort(compare),
    }));
    const reads = [
      ...new Set(
        model.lookups
          .map((l) => l.declaredIn?.project)
          .filter((p): p is string => p !== undefined)
          .map((p) => [...dirOf.values()].find((d) => projectName(d) === p)!),
      ),
    ].sort(compare);
    projects.push({
      dir,
      project: projectName(dir),
      team: teamId === undefined ? undefined : teams.get(teamId),
      model,
      shared,
      reads,
    });
  }
  const { order, backReads } = applyOrder(projects);
  return { projects: order, backReads, leftOut, notes };
}

/**
 * Each project after those it reads (their objects must exist before its lookups find them), the
 * account project first, then by name; a cycle is broken at the first project in that order, and
 * each read of a project placed later is named.
 */
function applyOrder(projects: FleetProject[]): {
  order: FleetProject[];
  backReads: Fleet["backReads"];
} {
  const rank = (p: FleetProject) => (p.dir === ACCOUNT_DIR ? "" : p.dir);
  const waiting = [...projects].sort((a, b) => compare(rank(a), rank(b)));
  const order: FleetProject[] = [];
  const placed = new Set<string>();
  while (waiting.length > 0) {
    const ready = waiting.find((p) => p.reads.every((r) => placed.has(r))) ?? waiting[0]!;
    waiting.splice(waiting.indexOf(ready), 1);
    order.push(ready);
    placed.add(ready.dir);
  }
  const backReads: Fleet["backReads"] = [];
  for (const [i, p] of order.entries()) {
    for (const r of p.reads) {
      if (order.findIndex((q) => q.dir === r) > i) backReads.push({ reader: p.dir, declarer: r });
    }
  }
  return { order, backReads };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface FleetFileOptions {
  base: string;
  modules?: boolean;
  packageVersion: string;
}

/** Every project's files under its directory, and the fleet's README.md at the top. */
export function fleetFiles(fleet: Fleet, options: FleetFileOptions): Files {
  const files: Files = {};
  const total = fleet.projects.length;
  for (const [i, p] of fleet.projects.entries()) {
    const project = projectFiles(p.model, {
      project: p.project,
      modules: options.modules,
      packageVersion: options.packageVersion,
      description: `${holds(p)}: project ${i + 1} of ${total} of the fleet exported by pulumi-incident export --split-by team`,
      readmeBlocks: fleetBlocks(fleet, p, i),
    });
    for (const [name, text] of Object.entries(project)) files[`${p.dir}/${name}`] = text;
  }
  files["README.md"] = fleetReadme(fleet, options.base);
  return files;
}

/** What a project holds, for people. */
function holds(p: FleetProject): string {
  return p.team === undefined
    ? "Account-wide settings, objects no team owns, and objects several teams own"
    : `Objects team "${p.team.name}" owns`;
}

const holdsInline = (p: FleetProject) =>
  p.team === undefined
    ? md`Account-wide settings, objects no team owns, and objects several teams own`
    : md`Objects team ${quoted(p.team.name)} owns`;

/** A project's own README: where it stands in the fleet, what it shares and what it looks up. */
function fleetBlocks(fleet: Fleet, p: FleetProject, index: number): Block[] {
  const blocks: Block[] = [
    headingBlock(2, "In the fleet"),
    paragraph(
      md`${holdsInline(p)}. Project ${String(index + 1)} of ${String(fleet.projects.length)} of the fleet (see ${inlineCode("../README.md")}): apply it ${
        p.reads.length === 0
          ? "whenever: it looks up nothing another project declares"
          : md`after ${join(
              p.reads.map((r) => inlineCode(r)),
              ", ",
            )}, whose objects it looks up`
      }. Every object is declared in one project only; what another project declares is looked up here, never declared again.`,
    ),
  ];
  if (p.shared.length > 0) {
    blocks.push(
      headingBlock(2, "Owned by several teams"),
      paragraph(
        "These objects list more than one owning team: they are declared here, in the account project, so that no team's stack changes what another team owns too.",
      ),
      tableBlock(
        ["kind", "object", "id", "owning teams"],
        p.shared.map((s) => [s.resource.kind, quoted(s.resource.label), s.resource.id, s.teams.join(", ")]),
      ),
    );
  }
  const looked = p.model.lookups.filter((l) => l.declaredIn !== undefined);
  if (looked.length > 0) {
    blocks.push(
      headingBlock(2, "Looked up from other projects"),
      tableBlock(
        ["kind", "object", "lookup", "declared in"],
        looked.map((l) => [
          l.declaredIn!.kind,
          quoted(l.declaredIn!.label),
          inlineCode(l.fn),
          inlineCode(l.declaredIn!.project),
        ]),
      ),
    );
  }
  return blocks;
}

/** The fleet's README: its projects, what each holds, the order to apply them in, and the rules. */
function fleetReadme(fleet: Fleet, base: string): string {
  const objects = fleet.projects.reduce((n, p) => n + p.model.resources.length, 0);
  const blocks: Block[] = [
    titleBlock(base),
    paragraph(
      md`Exported by ${inlineCode("pulumi-incident export --split-by team")}: ${String(objects)} objects in ${String(fleet.projects.length)} Pulumi projects, one per owning team and one for the account. Every object is declared in exactly one project and adopted by id; an object of another project is looked up by name or id where it is used.`,
    ),
    headingBlock(2, "Projects, in the order to apply them"),
    tableBlock(
      ["#", "directory", "project", "holds", "objects", "looks up objects of"],
      fleet.projects.map((p, i) => [
        String(i + 1),
        inlineCode(p.dir),
        inlineCode(p.project),
        holdsInline(p),
        String(p.model.resources.length),
        p.reads.length === 0
          ? ""
          : join(
              p.reads.map((r) => inlineCode(r)),
              ", ",
            ),
      ]),
    ),
    paragraph(
      "Each project comes after the projects whose objects it looks up: a lookup finds only what exists, so an object one project adds must be applied before another project can use it. To take the account over, the order does not matter: every object exists already.",
    ),
  ];
  if (fleet.backReads.length > 0) {
    blocks.push(
      paragraph(
        "Some projects look up each other's objects (a cycle), so one of them reads a project applied after it: when such an object is new, apply its project first, then run the reader again.",
      ),
      list(
        fleet.backReads.map((b) => md`${inlineCode(b.reader)} looks up objects of ${inlineCode(b.declarer)}`),
      ),
    );
  }
  blocks.push(
    headingBlock(2, "Where an object goes"),
    list([
      md`One owning team (${inlineCode("owningTeamIds")}, or ${inlineCode("teamIds")} for escalation paths, schedules and API keys): that team's project.`,
      "No owning team (severities, statuses, roles, custom fields, templates, policies, pay configs, the IP allowlist, call routes, maintenance windows, alert attributes, and any object whose owner list is empty): the account project.",
      "Several owning teams: the account project, so that no team's stack changes what another team owns too; its README lists them.",
      "A part of another object (a custom field's options, a schedule's overrides, replicas and sync rules, a catalog type's attributes and entries): the project of that object.",
    ]),
    headingBlock(2, "Take the account over"),
    paragraph("In each project's directory, in the order above:"),
    fenced(
      "text",
      [
        "npm install",
        "pulumi stack init",
        "pulumi config set --secret incident:apiKey <an API key that may write the configuration>",
        "pulumi preview   # every object: create (adopt); no object should show an update",
        "pulumi up        # adopts them without a write where nothing differs",
      ].join("\n"),
    ),
    paragraph(
      md`Each project's README lists its secret values to set first (${inlineCode("pulumi config set --secret")}), what it looks up and from where.`,
    ),
  );
  blocks.push(...notesAndLeftOut(fleet));
  return renderBlocks(blocks);
}
