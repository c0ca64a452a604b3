/**
 * The export round trip, written once (test/engine/wholeAccount.test.ts runs it on the whole
 * account, through the real CLI):
 *
 *   `pulumi-incident export DIR` (read-only: only GETs) → the project is formatted (Biome, Prettier's
 *   layout) and type-checks → the first `up` of a new stack adopts every object with zero writes →
 *   `preview --expect-no-changes` makes no provider API call → `refresh --expect-no-changes`.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ApiClient } from "../../provider/client";
import { listEveryObject } from "../../provider/pagedReads";
import { providers } from "../../resources";
import type { HarnessOptions, RunResult } from "../../tools/harness";
import { runCli } from "./cliRun";
import { driver } from "./driver";
import type { TestEmulator } from "./emulator";
import { linkPackage, typeCheckFiles } from "./readmeBlocks";

const root = path.join(__dirname, "..", "..");

export interface ExportCheck {
  /** Extra `export` options (filters). */
  exportArgs?: string[];
  /** Minimum number of objects the export must hold (guards against an empty round trip). */
  atLeast: number;
  /** Kinds the export must hold objects of. */
  kinds?: string[];
  /** Secret values by secret name (the API never gives them back; the stack's config supplies them). */
  secretValues?: Record<string, string>;
}

/** Every object of every exportable kind in the account: `Kind id`. */
export async function accountObjects(emu: TestEmulator): Promise<string[]> {
  const client = new ApiClient({ apiKey: emu.apiKey, baseUrl: emu.url, notify: () => {} } as never);
  const out: string[] = [];
  for (const [kind, provider] of Object.entries(providers)) {
    if (provider.spec.notExported) continue;
    const lives = (await listEveryObject(provider.spec, { client })) ?? [];
    for (const live of lives) out.push(`${kind} ${provider.spec.idOf(live)}`);
  }
  return out.sort();
}

/** `pulumi-incident export …`, in process. */
export const runExport = (args: string[], env: NodeJS.ProcessEnv) => runCli(["export", ...args], env);

/** Biome's verdict on the files, laid out as Prettier's defaults would (two spaces): "" when formatted. */
export function formatProblems(dir: string, files: string[]): string {
  const biome = require.resolve("@biomejs/biome/bin/biome", { paths: [root] });
  try {
    execFileSync(process.execPath, [biome, "format", "--indent-style=space", ...files], {
      cwd: dir,
      encoding: "utf8",
      stdio: "pipe",
    });
    return "";
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return `${err.stdout ?? ""}${err.stderr ?? ""}`.trim();
  }
}

/** The exported project's secret config keys, by the label of their object (from Pulumi.yaml). */
function secretKeys(dir: string): Array<{ key: string; label: string }> {
  const yaml = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
  return [
    ...yaml.matchAll(/^ {2}(\S+):\n {4}description: "The value of Secret \\"(.*)\\" \(secret\)"/gm),
  ].map((m) => ({ key: m[1]!, label: m[2]! }));
}

const writes = (emu: TestEmulator, mark: number) =>
  emu.requests
    .slice(mark)
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path} ${r.status}`);

const providerCalls = (r: RunResult) => r.apiCalls.filter((c) => c.from !== "program");

/**
 * Exports the account into `work/project` and adopts it in a new stack (state `work/state.json`):
 * fails unless every step above holds. Answers the new stack's options (to destroy or dispose it).
 */
export async function adoptExport(
  emu: TestEmulator,
  work: string,
  spec: ExportCheck,
): Promise<HarnessOptions> {
  const env = { INCIDENT_API_KEY: emu.apiKey, INCIDENT_BASE_URL: emu.url };
  const dir = path.join(work, "project");

  // Export: read-only.
  const mark = emu.requests.length;
  const exported = await runExport([dir, ...(spec.exportArgs ?? [])], env);
  expect(exported.err).not.toMatch(/error/i);
  expect(exported.code).toBe(0);
  expect(writes(emu, mark)).toEqual([]);
  const files = fs.readdirSync(dir).sort();
  expect(files).toEqual(
    expect.arrayContaining(["Pulumi.yaml", "README.md", "index.ts", "package.json", "tsconfig.json"]),
  );
  const tsFiles = files.filter((f) => f.endsWith(".ts"));
  const allText = tsFiles.map((f) => fs.readFileSync(path.join(dir, f), "utf8")).join("\n");
  const adopted = [...allText.matchAll(/adoptId: "([^"]+)"/g)].map((m) => m[1]!);
  expect(adopted.length).toBeGreaterThanOrEqual(spec.atLeast);
  expect(new Set(adopted).size).toBe(adopted.length);
  for (const kind of spec.kinds ?? []) expect(allText).toContain(`new incident.${kind}(`);
  // Every object reads as adoptable without a write (the exporter's own check).
  expect(exported.out).not.toContain("will not adopt without a write");

  expect(formatProblems(dir, tsFiles)).toBe("");
  linkPackage(dir, root);
  expect(typeCheckFiles(dir, tsFiles, "commonjs")).toBe("");

  // First up of a new stack: every object adopted, nothing written.
  const secretConfig = Object.fromEntries(
    secretKeys(dir).map((s) => {
      const value = spec.secretValues?.[s.label];
      if (value === undefined) throw new Error(`no value given for secret ${s.label}`);
      return [s.key, value];
    }),
  );
  const options: HarnessOptions = {
    program: dir,
    stateFile: path.join(work, "state.json"),
    stack: "exported",
    config: { "incident:apiKey": emu.apiKey, "incident:baseUrl": emu.url, ...secretConfig },
    secretConfig: ["incident:apiKey", ...Object.keys(secretConfig)],
  };
  const upMark = emu.requests.length;
  const first = await driver.up(options);
  expect(first.errors).toEqual([]);
  expect(first.ok).toBe(true);
  const ops = first.steps.filter((s) => s.type.includes("incident:")).map((s) => s.op);
  expect(ops.length).toBe(adopted.length);
  expect(new Set(ops)).toEqual(new Set(["create"]));
  expect(writes(emu, upMark)).toEqual([]);

  // Nothing to do, no provider call; the state is what the account holds.
  const again = await driver.preview({ ...options, expectNoChanges: true });
  expect(again.errors).toEqual([]);
  expect(providerCalls(again)).toEqual([]);
  const refreshed = await driver.refresh({ ...options, expectNoChanges: true });
  expect(refreshed.errors).toEqual([]);
  expect(emu.responseProblems).toEqual([]);
  return options;
}
