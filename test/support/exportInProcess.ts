/**
 * The export round trip of the fast lane: `pulumi-incident export` of the emulator's account (in
 * process), the project formatted (Biome) and type-checked (CommonJS, nodenext, and index.ts as an ES
 * module), then its program run under the SDK's mocks (test/support/inProcessStack.ts): every object
 * adopted, with zero writes, and a preview over that state clean. A fleet (`--split-by team`) is a
 * directory of such projects. What only the engine decides is test/engine/wholeAccount.test.ts's.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { TestEmulator } from "./emulator";
import { formatProblems, runExport } from "./exportRoundTrip";
import { type InProcessStack, runInProcess } from "./inProcessStack";
import { linkPackage, TEMPLATE_TSCONFIGS } from "./readmeBlocks";

const root = path.join(__dirname, "..", "..");

export interface ExportedProject {
  dir: string;
  /** The program's TypeScript files (relative to `dir`). */
  files: string[];
  /** Their text, joined. */
  text: string;
  /** What the command printed. */
  out: string;
}

/** Exports the account into `dir` (extra options `args`); fails unless it succeeds with only GETs. */
export async function exportProject(
  emu: TestEmulator,
  dir: string,
  args: string[] = [],
): Promise<ExportedProject> {
  const out = await exportOnly(emu, dir, args);
  return projectAt(dir, out);
}

/** A fleet (`export --split-by team`): its top README and each project (a directory with Pulumi.yaml). */
export interface ExportedFleet {
  out: string;
  readme: string;
  projects: ExportedProject[];
}

/** `export --split-by team` of the account into `dir`; fails unless it succeeds with only GETs. */
export async function exportFleet(
  emu: TestEmulator,
  dir: string,
  args: string[] = [],
): Promise<ExportedFleet> {
  const out = await exportOnly(emu, dir, ["--split-by", "team", ...args]);
  const projects = fs
    .readdirSync(dir)
    .filter((d) => fs.existsSync(path.join(dir, d, "Pulumi.yaml")))
    .sort()
    .map((d) => projectAt(path.join(dir, d), out));
  return { out, readme: fs.readFileSync(path.join(dir, "README.md"), "utf8"), projects };
}

async function exportOnly(emu: TestEmulator, dir: string, args: string[]): Promise<string> {
  const mark = emu.requests.length;
  const result = await runExport([dir, ...args], {
    INCIDENT_API_KEY: emu.apiKey,
    INCIDENT_BASE_URL: emu.url,
  });
  expect(result.err).not.toMatch(/error/i);
  expect(result.code).toBe(0);
  expect(nonGets(emu, mark)).toEqual([]);
  expect(result.out).not.toContain("will not adopt without a write");
  return result.out;
}

function projectAt(dir: string, out: string): ExportedProject {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".ts"));
  const text = files.map((f) => fs.readFileSync(path.join(dir, f), "utf8")).join("\n");
  return { dir, files, text, out };
}

/**
 * tsc's diagnostics for the projects ("" when clean), under the options of the project's own
 * tsconfig.json (which skips the libraries' declaration files) with each `pulumi new` template's
 * module settings: every file as CommonJS; under nodenext the modules, and a one-file program also
 * as an ES module (`index.mts`: strict, `await` reserved, no CommonJS names). The projects must lie
 * in `parent`, where `linkProjects` linked the package.
 */
export function typeCheckProjects(parent: string, projects: ExportedProject[]): Record<string, string> {
  const tsc = require.resolve("typescript/bin/tsc", { paths: [parent] });
  const files: Record<string, string[]> = { commonjs: [], nodenext: [] };
  for (const p of projects) {
    const rel = (f: string) => path.join(path.relative(parent, p.dir), f);
    const own = JSON.parse(fs.readFileSync(path.join(p.dir, "tsconfig.json"), "utf8")).compilerOptions;
    expect(own.skipLibCheck).toBe(true);
    files.commonjs!.push(...p.files.map(rel));
    const index = fs.readFileSync(path.join(p.dir, "index.ts"), "utf8");
    if (/from "\.\//.test(index) || /^import "\.\//m.test(index)) files.nodenext!.push(...p.files.map(rel));
    else {
      fs.writeFileSync(path.join(p.dir, "index.mts"), index);
      files.nodenext!.push(rel("index.mts"));
    }
  }
  const out: Record<string, string> = {};
  for (const [template, list] of Object.entries(files)) {
    const config = `tsconfig.export-${template}.json`;
    const compilerOptions = { ...TEMPLATE_TSCONFIGS[template], skipLibCheck: true, noEmit: true };
    fs.writeFileSync(path.join(parent, config), JSON.stringify({ compilerOptions, files: list }));
    try {
      execFileSync(process.execPath, [tsc, "-p", config], { cwd: parent, encoding: "utf8", stdio: "pipe" });
      out[template] = "";
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; message: string };
      out[template] = `${err.stdout ?? ""}${err.stderr ?? ""}`.trim() || err.message;
    }
  }
  return out;
}

/** Links the package, its SDK and compiler into `parent`: projects below it build and run against them. */
export const linkProjects = (parent: string) => linkPackage(parent, root);

/** Biome's verdict on the project's files ("" when laid out as a formatter would). */
export const projectFormatProblems = (p: ExportedProject) => formatProblems(p.dir, p.files);

/**
 * Runs the exported program once, in process, as a new stack's first `up` would: answers what it
 * made; fails unless it made exactly one resource per `adoptId`, each adopted, with no write.
 */
export async function adoptInProcess(
  emu: TestEmulator,
  p: ExportedProject,
  /** The stack's config (secret placeholders), without the namespace. */
  config: Record<string, string> = {},
): Promise<InProcessStack> {
  const adopted = [...p.text.matchAll(/adoptId: "([^"]+)"/g)].map((m) => m[1]!);
  const mark = emu.requests.length;
  let stack: InProcessStack;
  try {
    stack = await runInProcess(p.dir, { emu, project: "exported", config });
  } catch (error) {
    // A program that does not load (a SyntaxError from its module wrapper) says which and why.
    const e = error as Error;
    throw new Error(`${p.dir}: the exported program failed: ${e.name}: ${e.message}`);
  }
  expect(nonGets(emu, mark)).toEqual([]);
  expect(stack.resources.map((r) => r.id).sort()).toEqual([...adopted].sort());
  expect(emu.responseProblems).toEqual([]);
  return stack;
}

/**
 * A preview of the exported program over the stack its adoption left (the providers' check and
 * diff, in process): fails unless nothing would change and only GETs are made (the program's
 * lookups read).
 */
export async function previewInProcess(
  emu: TestEmulator,
  p: ExportedProject,
  stack: InProcessStack,
  config: Record<string, string> = {},
): Promise<void> {
  const mark = emu.requests.length;
  const preview = await runInProcess(p.dir, { emu, project: "exported", config, previewOf: stack });
  expect([p.dir, preview.changes]).toEqual([p.dir, []]);
  expect(nonGets(emu, mark)).toEqual([]);
}

const nonGets = (emu: TestEmulator, mark: number) =>
  emu.requests
    .slice(mark)
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path} ${r.status}`);
