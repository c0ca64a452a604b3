/**
 * A Pulumi program driven through the real Pulumi CLI in the engine lane (or the harness: see
 * driver.ts), against a real emulator of its own, for the tests of one `describe`: the emulator (real
 * clock) is started before them, and it and the stack's state are done away with after them. Tests
 * run the program through `h.driver`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { HarnessOptions, RunResult, Step } from "../../tools/harness";
import { type Driver, driver as defaultDriver } from "./driver";
import { startTestEmulator, type TestEmulator } from "./emulator";

export interface HarnessFixture {
  /** What runs the program: the harness, or the real CLI in the engine lane. */
  readonly driver: Driver;
  /** The emulator (from `beforeAll` on). */
  readonly emu: TestEmulator;
  /**
   * What up, preview, refresh and destroy take: the program, the state file, and as stack config the
   * provider's key and URL and each of `over` as `<project>:key` (the program's Pulumi.yaml `name`).
   */
  options(over?: Record<string, string>): HarnessOptions;
  /** The objects a list endpoint answers with status 200 (bootstrap key): `list("/v2/schedules")`. */
  list(listPath: string): Promise<any[]>;
  /** `METHOD /path status` of the emulator's requests since `mark` (an index into `emu.requests`) that are not GETs. */
  writesSince(mark: number): string[];
}

/**
 * The project name of a fixture program, which is its stack config's namespace: its Pulumi.yaml
 * `name` when it has one; a lifecycle fixture (test/fixtures/<kind>/program, only its index.ts) is
 * `<kind in kebab case>-lifecycle`, e.g. `alert-attribute-lifecycle`.
 */
export function fixtureProject(program: string): string {
  const yamlFile = path.join(program, "Pulumi.yaml");
  if (fs.existsSync(yamlFile)) {
    const name = /^name:\s*(\S+)\s*$/m.exec(fs.readFileSync(yamlFile, "utf8"))?.[1];
    if (!name) throw new Error(`${yamlFile} has no name`);
    return name;
  }
  const kind = path.basename(path.dirname(path.resolve(program)));
  return `${kind.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-lifecycle`;
}

let fixtures = 0;

/** Declares (inside a `describe`) the emulator and the state file of runs of `program`. */
export function harnessFixture(program: string, driver: Driver = defaultDriver): HarnessFixture {
  const project = fixtureProject(program);
  const stateFile = path.join(os.tmpdir(), `harness-${project}-${process.pid}-${++fixtures}.json`);
  let emu: TestEmulator;

  beforeAll(async () => {
    emu = await startTestEmulator({ now: Date.now });
  });
  afterAll(async () => {
    await emu.dispose();
    driver.dispose(stateFile);
  });

  return {
    driver,
    get emu() {
      return emu;
    },
    options: (over = {}) => ({
      program,
      project,
      stateFile,
      // As the README tells users: the key is a secret (the engine keeps the stack config in the state).
      secretConfig: ["incident:apiKey"],
      config: {
        "incident:apiKey": emu.apiKey,
        "incident:baseUrl": emu.url,
        ...Object.fromEntries(Object.entries(over).map(([k, v]) => [`${project}:${k}`, v])),
      },
    }),
    list: async (listPath) => {
      const reply = await emu.call("GET", listPath);
      expect(reply.status).toBe(200);
      const key = listPath.split("?")[0]!.split("/").pop()!;
      return reply.body[key];
    },
    writesSince: (mark) =>
      emu.requests
        .slice(mark)
        .filter((r) => r.method !== "GET")
        .map((r) => `${r.method} ${r.path} ${r.status}`),
  };
}

/**
 * Fails unless the preview `planned` changes one thing only: a create-before-delete replace because
 * of `keys`, and the planned delete of the old copy after it (the engine's plan lists both).
 */
export function expectPlannedReplace(planned: RunResult, keys: string[]): void {
  expect(planned.errors).toEqual([]);
  expect(planned.steps.filter((s) => s.op !== "same")).toEqual([
    expect.objectContaining({ op: "replace", replaceKeys: keys, deleteBeforeReplace: false }),
    expect.objectContaining({ op: "delete", replaced: true }),
  ]);
}

/**
 * Fails unless `result` replaced one object create-before-delete because of `keys`: the replace step
 * first, the old object (`oldId`) deleted after it. Answers the replace step (its id: the new object).
 */
export function expectCreateBeforeDelete(result: RunResult, keys: string[], oldId: string): Step {
  expect(result.errors).toEqual([]);
  const replace = result.steps.find((s) => s.op === "replace");
  expect(replace).toMatchObject({ replaceKeys: keys, deleteBeforeReplace: false });
  const replacedDelete = result.steps.find((s) => s.op === "delete");
  expect(replacedDelete).toMatchObject({ id: oldId, replaced: true });
  expect(result.steps.indexOf(replace!)).toBeLessThan(result.steps.indexOf(replacedDelete!));
  return replace!;
}
