/**
 * Upgrade baselines (test/upgrade/README.md): which programs are recorded per release, how a recorded
 * baseline is loaded, and the check every baseline must pass under the current code
 * (test/engine/upgrade.test.ts, through the real Pulumi CLI).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { providers } from "../../resources";
import type { HarnessOptions, HarnessState, RunResult } from "../../tools/harness";
import type { Driver } from "./driver";

export const BASELINES_DIR = path.join(__dirname, "..", "upgrade", "baselines");

export interface BaselineProgram {
  /** Directory name under `baselines/<release>/`. */
  name: string;
  /** The program in the release's checkout. */
  dir: string;
}

/**
 * The programs recorded for each release: the two examples, and the whole-account program (every
 * kind, wired together). Releases up to 0.1.0 recorded each kind's lifecycle program instead (their
 * copies are in their baselines); a program a release does not have is not recorded for it.
 */
export const BASELINE_PROGRAMS: BaselineProgram[] = [
  { name: "quickstart", dir: "examples/quickstart" }, // CustomField, CustomFieldOption, ApiKey
  { name: "oncall", dir: "examples/oncall" }, // every alert and on-call kind, wired together
  { name: "wholeAccount", dir: "test/fixtures/wholeAccount/program" }, // every kind
];

/** stack.json of a baseline. */
export interface BaselineStack {
  project: string;
  stack: string;
  passphrase: string;
  /** The program's stack config besides the credentials, without the namespace. */
  config: Record<string, string>;
  /** The recording emulator's URL: outputs that hold it are re-pointed at the test's emulator. */
  emulatorUrl: string;
}

export interface Baseline {
  release: string;
  name: string;
  dir: string;
  program: string;
  stack: BaselineStack;
}

/** Every recorded baseline: each release directory × each program directory in it. */
export function listBaselines(): Baseline[] {
  if (!fs.existsSync(BASELINES_DIR)) return [];
  return fs.readdirSync(BASELINES_DIR).flatMap((release) =>
    fs
      .readdirSync(path.join(BASELINES_DIR, release), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => {
        const dir = path.join(BASELINES_DIR, release, d.name);
        const stack = JSON.parse(fs.readFileSync(path.join(dir, "stack.json"), "utf8")) as BaselineStack;
        return { release, name: d.name, dir, program: path.join(dir, "program"), stack };
      }),
  );
}

/** A recorded file's text with the recording emulator's URL replaced by `url`. */
export function readRepointed(b: Baseline, file: string, url: string): string {
  return fs.readFileSync(path.join(b.dir, file), "utf8").split(b.stack.emulatorUrl).join(url);
}

/** The emulator holding a baseline's objects: its recorded state file, copied (the emulator rewrites it). */
export async function startBaselineEmulator(b: Baseline) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `upgrade-${b.release}-${b.name}-`));
  const stateFile = path.join(work, "emulator-state.json");
  fs.copyFileSync(path.join(b.dir, "emulator-state.json"), stateFile);
  const emu = await startEmulator({ port: 0, stateFile });
  return {
    emu,
    work,
    /** The driver's options for this stack: the program as recorded, its config, the emulator's key and URL. */
    options: (): HarnessOptions => ({
      program: b.program,
      stateFile: path.join(work, "state.json"),
      project: b.stack.project,
      stack: b.stack.stack,
      passphrase: b.stack.passphrase,
      config: {
        "incident:apiKey": emu.apiKey,
        "incident:baseUrl": emu.url,
        ...Object.fromEntries(Object.entries(b.stack.config).map(([k, v]) => [`${b.stack.project}:${k}`, v])),
      },
      secretConfig: ["incident:apiKey"],
    }),
    dispose: async () => {
      await emu.close();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

const KIND_PREFIX = "pulumi-nodejs:dynamic/incident:";
const INTERNAL = new Set(["__provider"]);

/**
 * What a resource's outputs must be after the current code has written them (a refresh with no
 * drift): the recorded outputs, upgraded by the kind's `migrate` when they are of an older schema
 * version, stamped with the current version.
 */
export function expectedAfterWrite(type: string, outputs: Record<string, any>): Record<string, any> {
  const { spec } = providerOf(type);
  const version = schemaVersionOf(outputs);
  const migrated = version < spec.schemaVersion && spec.migrate ? spec.migrate(outputs, version) : outputs;
  return withoutInternal({ ...migrated, __schema: spec.schemaVersion });
}

function providerOf(type: string) {
  const provider = providers[type.slice(KIND_PREFIX.length)];
  if (!provider) throw new Error(`${type}: no such resource kind in the current code`);
  return provider;
}

const schemaVersionOf = (outputs: Record<string, any>): number =>
  typeof outputs.__schema === "number" ? outputs.__schema : 1;

function withoutInternal(outputs: Record<string, any>): Record<string, any> {
  return Object.fromEntries(Object.entries(outputs).filter(([k]) => !INTERNAL.has(k)));
}

/**
 * What a run changed, labelled with the run, so a failure says which run found it. `migrated`: the
 * resources stored with an older schema version, whose refresh rewrites their outputs (never their
 * inputs) in the current shape; what it writes is checked against `expectedAfterWrite` instead.
 */
const changes = (run: string, r: RunResult, migrated = new Set<string>()) => ({
  run,
  changes: r.steps
    .filter((s) => s.op !== "same")
    .filter((s) => !(s.op === "read-drift" && migrated.has(s.urn) && !s.changedInputKeys?.length))
    .map((s) => ({ name: s.name, op: s.op, changedKeys: s.changedKeys })),
});

function expectOk(r: RunResult): RunResult {
  expect({ errors: r.errors, ok: r.ok }).toEqual({ errors: [], ok: true });
  return r;
}

/**
 * The upgrade check of one baseline whose state is already the stack's state (`before`, read back
 * from the stack) and whose objects the emulator holds: preview, refresh and preview again with the
 * current code find no change and no replacement, refresh finds no drift and writes every recorded
 * output back (migrated to the current schema version), every stack output the release exported is
 * still exported with the same value, and nothing is written to the account.
 */
export async function expectUpgradeClean(
  driver: Driver,
  options: HarnessOptions,
  before: HarnessState,
  emu: { requests: Array<{ method: string; path: string }> },
): Promise<void> {
  const incident = before.resources.filter((r) => r.type.startsWith(KIND_PREFIX));
  expect(incident.length).toBeGreaterThan(0);

  const preview = expectOk(await driver.preview(options));
  expect(changes("preview", preview)).toEqual({ run: "preview", changes: [] });
  expect(preview.steps.map((s) => s.name).sort()).toEqual(
    expect.arrayContaining(incident.map((r) => r.name)),
  );
  // Every stack output the release exported is still exported, with the same value.
  const stack = before.resources.find((r) => r.type === "pulumi:pulumi:Stack");
  for (const [key, value] of Object.entries(stack?.outputs ?? {})) {
    const shown = stack?.secretOutputs.includes(key) ? "[secret]" : value;
    expect([key, preview.outputs[key]]).toEqual([key, shown]);
  }

  const refresh = expectOk(await driver.refresh(options));
  const after = driver.readState(options.stateFile);
  for (const r of incident) {
    const written = after.resources.find((x) => x.urn === r.urn);
    expect([r.name, withoutInternal(written?.outputs ?? {})]).toEqual([
      r.name,
      expectedAfterWrite(r.type, r.outputs),
    ]);
  }
  const migrated = new Set(
    incident
      .filter((r) => schemaVersionOf(r.outputs) < providerOf(r.type).spec.schemaVersion)
      .map((r) => r.urn),
  );
  expect(changes("refresh", refresh, migrated)).toEqual({ run: "refresh", changes: [] });

  const again = expectOk(await driver.preview(options));
  expect(changes("preview after refresh", again)).toEqual({ run: "preview after refresh", changes: [] });
  expect(emu.requests.filter((q) => q.method !== "GET").map((q) => `${q.method} ${q.path}`)).toEqual([]);
}

/**
 * Declares the upgrade test of every recorded baseline for one lane: `load` makes the baseline's
 * recorded state the stack's state (its text re-pointed at `url`), before the check runs.
 */
export function describeBaselines(
  driver: Driver,
  load: (b: Baseline, options: HarnessOptions, url: string) => void,
  timeoutMs: number,
): void {
  const baselines = listBaselines();

  test("baselines are recorded", () => {
    expect(baselines.length).toBeGreaterThan(0);
  });

  describe.each(baselines.map((b) => [`${b.release}/${b.name}`, b] as const))("%s", (_title, b) => {
    let stack: Awaited<ReturnType<typeof startBaselineEmulator>>;
    beforeAll(async () => {
      stack = await startBaselineEmulator(b);
    });
    afterAll(async () => {
      driver.dispose(stack.options().stateFile);
      await stack.dispose();
    });

    test(
      `previews and refreshes clean under the current code (${driver.name})`,
      async () => {
        const options = stack.options();
        load(b, options, stack.emu.url);
        await expectUpgradeClean(driver, options, driver.readState(options.stateFile), stack.emu);
      },
      timeoutMs,
    );
  });
}
