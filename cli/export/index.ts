/**
 * `pulumi-incident export`: a whole account as a Pulumi TypeScript project that adopts every object
 * (read.ts reads, model.ts decides what to write, render.ts and project.ts write it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ApiClient } from "../../provider/client";
import type { CatalogEntriesMode } from "./catalog";
import { buildModel, type ExportModel } from "./model";
import { type Files, projectFiles } from "./project";
import { type Account, exportableKinds, readAccount } from "./read";
import { buildFleet, type Fleet, fleetFiles, type SplitBy } from "./split";

export interface ExportOptions {
  /** Kinds to export (default: all); names as in the API reference of this package (`AlertRoute`). */
  include?: readonly string[];
  exclude?: readonly string[];
  /** Only objects whose name matches. */
  namePattern?: RegExp;
  project?: string;
  modules?: boolean;
  /** `team`: a fleet of projects, one per owning team and one for the account (split.ts). */
  splitBy?: SplitBy;
  /** Catalog entries as one CatalogEntries per type, or one CatalogEntry each (default: by size). */
  catalogEntries?: CatalogEntriesMode;
  onKind?(done: number, total: number, kind: string, count: number): void;
}

export interface ExportResult {
  account: Account;
  /** What is written: the project's model, or every project's of a fleet together. */
  model: ExportModel;
  /** With `splitBy`: the projects, in the order to apply them. */
  fleet?: Fleet;
  files: Files;
  /** Kinds read. */
  kinds: string[];
}

/** Kind names the user gave, checked: an unknown name is an error naming it (and the near miss). */
export function selectKinds(include?: readonly string[], exclude?: readonly string[]): string[] {
  const all = exportableKinds().map((k) => k.kind);
  const check = (option: string, names: readonly string[] | undefined) => {
    for (const name of names ?? []) {
      if (all.includes(name)) continue;
      const loose = (text: string) => text.toLowerCase().replace(/[-_ ]/g, "");
      const wanted = loose(name);
      const near = all.find((k) =>
        [wanted, wanted.replace(/s$/, ""), wanted.replace(/es$/, "")].includes(loose(k)),
      );
      throw new Error(
        `${option}: unknown kind ${JSON.stringify(name)}${near ? ` (did you mean ${near}?)` : ""}; kinds: ${all.join(", ")}`,
      );
    }
  };
  check("--include", include);
  check("--exclude", exclude);
  return all.filter(
    (k) => (!include || include.length === 0 || include.includes(k)) && !exclude?.includes(k),
  );
}

export async function exportAccount(client: ApiClient, options: ExportOptions = {}): Promise<ExportResult> {
  const kinds = selectKinds(options.include, options.exclude);
  const account = await readAccount(client, { kinds, onKind: options.onKind });
  const modelOptions = {
    namePattern: options.namePattern,
    catalogEntries: { mode: options.catalogEntries },
  };
  const project = options.project ?? "incident-account";
  const version = `^${packageVersion()}`;
  if (options.splitBy === "team") {
    const fleet = buildFleet(account, { ...modelOptions, base: project });
    const files = fleetFiles(fleet, { base: project, modules: options.modules, packageVersion: version });
    return { account, model: fleetModel(fleet), fleet, files, kinds };
  }
  const model = buildModel(account, modelOptions);
  const files = projectFiles(model, { project, modules: options.modules, packageVersion: version });
  return { account, model, files, kinds };
}

/** A fleet's projects as one model (for counts and the checks of the summary). */
function fleetModel(fleet: Fleet): ExportModel {
  const all = fleet.projects.map((p) => p.model);
  return {
    resources: all.flatMap((m) => m.resources),
    lookups: all.flatMap((m) => m.lookups),
    secrets: all.flatMap((m) => m.secrets),
    leftOut: fleet.leftOut,
    notes: fleet.notes,
    unlooked: all.flatMap((m) => m.unlooked),
  };
}

/** This package's version (the range an exported or migrated project depends on). */
export function packageVersion(): string {
  for (const up of ["../../package.json", "../../../package.json"]) {
    const file = path.join(__dirname, up);
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "pulumi-incident" && pkg.version) return pkg.version;
    }
  }
  return "0.1.0";
}

/** Writes the files under `dir` (which must be empty or absent unless `force`). */
export function writeProject(dir: string, files: Files, force = false): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0 && !force) {
    throw new Error(`${dir} is not empty: choose another directory, or pass --force to overwrite its files`);
  }
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}

/** What an export holds, for the terminal (and the dry run). */
export function summary(result: ExportResult, dir: string | undefined): string {
  const { model, files, account } = result;
  const counts = new Map<string, number>();
  for (const r of model.resources) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  const width = Math.max(4, ...[...counts.keys()].map((k) => k.length));
  const lines = [
    dir === undefined
      ? `Dry run: would write ${Object.keys(files).length} files`
      : `Wrote ${Object.keys(files).length} files to ${dir}`,
  ];
  if (result.fleet) {
    const projects = result.fleet.projects;
    const dirWidth = Math.max(...projects.map((p) => p.dir.length));
    lines.push(`  README.md: the fleet's ${projects.length} projects, in the order to apply them:`);
    for (const [i, p] of projects.entries()) {
      const looked = p.model.lookups.filter((l) => l.declaredIn).length;
      lines.push(
        `  ${String(i + 1).padStart(2)}. ${p.dir.padEnd(dirWidth)}  ${p.model.resources.length} objects, ${looked} looked up from other projects (${Object.keys(files).filter((f) => f.startsWith(`${p.dir}/`)).length} files)`,
      );
    }
  } else {
    lines.push(
      ...Object.entries(files).map(([name, text]) => `  ${name} (${text.split("\n").length - 1} lines)`),
    );
  }
  lines.push(
    "",
    `${model.resources.length} objects, ${model.lookups.length} lookups (${result.fleet ? "users, teams, objects of other projects" : "users, teams"}), ${model.secrets.length} secret placeholders:`,
    ...[...counts.entries()].map(([k, n]) => `  ${k.padEnd(width)}  ${n}`),
  );
  if (dir === undefined) {
    lines.push("", "Resources (kind, name, the object's name and id):");
    for (const r of model.resources)
      lines.push(`  ${r.kind.padEnd(width)}  ${r.resourceName}  ${JSON.stringify(r.label)} ${r.id}`);
  }
  const toCheck = model.resources.filter((r) => r.differences.length > 0 || r.problems.length > 0);
  if (toCheck.length > 0) {
    lines.push(
      "",
      `${toCheck.length} objects will not adopt without a write (see README.md, "Objects to check"):`,
    );
    for (const r of toCheck)
      lines.push(
        `  ${r.kind} "${r.label}": ${[...r.problems, ...r.differences.map((d) => `${d} differs`)].join("; ")}`,
      );
  }
  if (account.skippedKinds.length > 0) {
    lines.push("", "Kinds left out:");
    for (const s of account.skippedKinds) lines.push(`  ${s.kind}: ${s.reason}`);
  }
  for (const note of model.notes) lines.push("", note);
  const filtered = model.leftOut.filter((o) => o.reason === "name filter").length;
  if (filtered > 0) lines.push("", `${filtered} objects left out by --name.`);
  const unrepresentable = model.leftOut.filter((o) => o.reason !== "name filter");
  for (const o of unrepresentable) lines.push(`  left out: ${o.kind} ${o.id}: ${o.reason}`);
  if (model.secrets.length > 0) {
    lines.push("", "Before the first `pulumi up`, set the secret values the API cannot give back:");
    for (const s of model.secrets) lines.push(`  pulumi config set --secret ${s.key} <value>`);
  }
  return `${lines.join("\n")}\n`;
}
