/**
 * The README's TypeScript blocks as programs a user would paste: each block becomes its own file (with
 * the imports the README leaves implicit added), type-checked by `tsc` under the tsconfig of today's
 * `pulumi new typescript` template and under the older CommonJS one. Used by test/readme.test.ts
 * (against this checkout's build) and scripts/check-install.ts (against the packed tarball).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
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
 * Writes each block to `dir/readme-<line>.ts` and type-checks them with the TypeScript installed
 * where `dir` resolves it, once per template tsconfig (plus `extraOptions`). Answers tsc's diagnostics
 * per tsconfig ("" = clean).
 */
export function typeCheckReadme(
  readmeFile: string,
  dir: string,
  extraOptions: Record<string, unknown> = {},
): Record<string, string> {
  const blocks = typeScriptBlocks(fs.readFileSync(readmeFile, "utf8"));
  if (blocks.length === 0) throw new Error(`${readmeFile} has no TypeScript blocks`);
  const files = blocks.map((b) => {
    const file = `readme-${b.line}.ts`;
    fs.writeFileSync(path.join(dir, file), asProgram(b.code));
    return file;
  });
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
 * The one known gap of the older CommonJS template (no `esModuleInterop`, no `skipLibCheck`): zod's
 * own declarations, reached through this package's, fail with TS1259. Answers the diagnostics that
 * are not that (what the README's blocks or this package's declarations get wrong).
 */
export function beyondZodInterop(diagnostics: string): string[] {
  return diagnostics
    .split("\n")
    .filter(
      (l) =>
        l.trim() !== "" && !/node_modules\/zod\/v4\/locales\/index\.d\.cts\(\d+,\d+\): error TS1259:/.test(l),
    );
}
