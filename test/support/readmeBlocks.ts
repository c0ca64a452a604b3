/**
 * The README's TypeScript blocks as programs a user would paste: each block becomes its own file (with
 * the imports the README leaves implicit added), type-checked by `tsc` under the tsconfig of today's
 * `pulumi new typescript` template and under the older CommonJS one. Used by test/readme.test.ts
 * (against this checkout's build) and scripts/check-install.ts (against the packed tarball).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** `pulumi new typescript`'s compiler options: today's (nodenext, since templates 81e6522) and the older CommonJS one. */
/** Options both templates share (pulumi/templates typescript/tsconfig.json). */
const TEMPLATE_COMMON = {
  strict: true,
  outDir: "bin",
  target: "es2020",
  sourceMap: true,
  experimentalDecorators: true,
  pretty: false,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
};

/** `pulumi new typescript`'s compiler options: today's (nodenext, since templates 81e6522) and the older CommonJS one. */
export const TEMPLATE_TSCONFIGS: Record<string, Record<string, unknown>> = {
  nodenext: { ...TEMPLATE_COMMON, module: "nodenext", moduleResolution: "nodenext" },
  commonjs: { ...TEMPLATE_COMMON, module: "commonjs", moduleResolution: "node" },
};

export interface ReadmeBlock {
  /** 1-based line of the block's opening fence. */
  line: number;
  code: string;
}

/** Every ```ts / ```typescript block of a Markdown text. */
export function typeScriptBlocks(markdown: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    blocks.push({ line: start + 1, code: body.join("\n") });
  }
  return blocks;
}

/** The block as a file: the imports a README snippet leaves implicit are added. */
export function asProgram(code: string): string {
  const imports: string[] = [];
  if (!/from "pulumi-incident"/.test(code)) imports.push('import * as incident from "pulumi-incident";');
  if (/\bpulumi\./.test(code) && !/import (type )?\* as pulumi from/.test(code))
    imports.push('import * as pulumi from "@pulumi/pulumi";');
  return `${imports.join("\n")}\n${code}\n`;
}

/**
 * Writes each block of the Markdown files to `dir/<file>-<line>.ts` and type-checks them with the
 * TypeScript installed where `dir` resolves it, once per template tsconfig (plus `extraOptions`).
 * Answers tsc's diagnostics per tsconfig ("" = clean).
 */
export function typeCheckReadme(
  markdownFiles: string | string[],
  dir: string,
  extraOptions: Record<string, unknown> = {},
): Record<string, string> {
  const files: string[] = [];
  for (const markdown of typeof markdownFiles === "string" ? [markdownFiles] : markdownFiles) {
    const blocks = typeScriptBlocks(fs.readFileSync(markdown, "utf8"));
    if (blocks.length === 0 && typeof markdownFiles === "string")
      throw new Error(`${markdown} has no TypeScript blocks`);
    const stem = path.basename(markdown, ".md").replace(/\W/g, "_");
    for (const b of blocks) {
      const file = `${stem}-${b.line}.ts`;
      fs.writeFileSync(path.join(dir, file), asProgram(b.code));
      files.push(file);
    }
  }
  const tsc = require.resolve("typescript/bin/tsc", { paths: [dir] });
  const out: Record<string, string> = {};
  for (const [name, compilerOptions] of Object.entries(TEMPLATE_TSCONFIGS)) {
    const config = `tsconfig.readme-${name}.json`;
    fs.writeFileSync(
      path.join(dir, config),
      JSON.stringify({ compilerOptions: { ...compilerOptions, ...extraOptions, noEmit: true }, files }),
    );
    try {
      execFileSync(process.execPath, [tsc, "-p", config], { cwd: dir, encoding: "utf8", stdio: "pipe" });
      out[name] = "";
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; message: string };
      out[name] = `${err.stdout ?? ""}${err.stderr ?? ""}`.trim() || err.message;
    }
  }
  return out;
}

/**
 * A user's project in a temporary directory: its node_modules links to `root` (the built package) and
 * to root's SDK, compiler and Node types. Answers the directory; remove it when done.
 */
export function userProject(root: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "user-project-"));
  linkPackage(dir, root);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "user-project", private: true }));
  return dir;
}

/** Links `root` (the built package) and root's SDK, compiler and Node types into `dir`/node_modules (what `npm install` would do). */
export function linkPackage(dir: string, root: string): void {
  const link = (name: string, target: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, "node_modules", name)), { recursive: true });
    fs.symlinkSync(target, path.join(dir, "node_modules", name), "dir");
  };
  link("pulumi-incident", root);
  for (const dep of ["@pulumi/pulumi", "typescript", "@types/node"])
    link(dep, path.join(root, "node_modules", dep));
}

/** Type-checks `files` (already in `dir`) under one template tsconfig: tsc's diagnostics, "" when clean. */
export function typeCheckFiles(dir: string, files: string[], template: string): string {
  const tsc = require.resolve("typescript/bin/tsc", { paths: [dir] });
  const config = `tsconfig.${template}-${files.length}.json`;
  fs.writeFileSync(
    path.join(dir, config),
    JSON.stringify({ compilerOptions: { ...TEMPLATE_TSCONFIGS[template], noEmit: true }, files }),
  );
  try {
    execFileSync(process.execPath, [tsc, "-p", config], { cwd: dir, encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    return `${err.stdout ?? ""}${err.stderr ?? ""}`.trim() || err.message;
  }
}
