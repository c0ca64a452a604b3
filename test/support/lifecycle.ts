/**
 * The lifecycle every resource family must show, written once: a Pulumi program driven through the
 * harness (the real dynamic-provider host) against the real emulator (startEmulator):
 *
 *   up (create) → up again: all `same`, zero provider API calls, the program only reads (lookups)
 *   → an out-of-band edit through the API with a second key → refresh reports `read-drift`
 *   → up restores the declared value → up with config `variant=updated` updates in place
 *   → destroy leaves no live object → an object created through the API is adopted by id
 *   (config `adoptId`) and then destroyed.
 *
 * Every emulator response of the run must match its reference type (emu.responseProblems stays empty).
 */

import type { RunResult } from "../../tools/harness";
import { driverLabel, scenarioTimeoutMs } from "./driver";
import type { TestEmulator } from "./emulator";
import { harnessFixture } from "./harnessFixture";

export interface LifecycleSpec {
  /** Program directory (test/fixtures/<kind>/program); its project name (`fixtureProject`) is the config namespace (`<name>:variant`, `<name>:adoptId`). */
  program: string;
  /** The live (not deleted/archived) objects of the family, as the API lists or reads them. */
  live(api: LifecycleApi): Promise<Array<{ id: string } & Record<string, any>>>;
  /** Changes the object behind the dashboard's back (through the API, second key). */
  editOutOfBand(api: LifecycleApi, id: string): Promise<void>;
  /** Fails unless the live object holds the declared (base) value again after `up`. */
  expectRestored(object: any): void;
  /** Fails unless the live object holds the `variant=updated` value (same id: updated in place). */
  expectUpdated(object: any): void;
  /** Creates an object through the API as someone would in the dashboard; returns its id. */
  createExisting(api: LifecycleApi): Promise<string>;
  /** Extra stack config for every run (without the namespace, e.g. {"emails": "..."}). */
  config?: Record<string, string>;
  /**
   * Runs once before the first `up` (e.g. creates through the API the objects the program refers to
   * by id); its result is added to the stack config of every run.
   */
  setup?(api: LifecycleApi): Promise<Record<string, string>>;
}

/** What the spec's callbacks get: the emulator and an API client with a second (dashboard) key. */
export interface LifecycleApi {
  emu: TestEmulator;
  /** An API call with the second key; throws on a non-2xx status. */
  call(method: string, urlPath: string, body?: unknown): Promise<any>;
}

const ops = (result: RunResult) => result.steps.map((s) => s.op);

function expectOk(result: RunResult): RunResult {
  expect(result.errors).toEqual([]);
  expect(result.ok).toBe(true);
  return result;
}

/** Declares the lifecycle test of one family (a `describe` with one test). */
export function describeLifecycle(title: string, spec: LifecycleSpec): void {
  describe(`${title}: lifecycle through the ${driverLabel} against the emulator`, () => {
    const h = harnessFixture(spec.program);
    const { up, refresh, destroy } = h.driver;
    let api: LifecycleApi;
    let setupConfig: Record<string, string> = {};

    const run = (op: "up" | "refresh" | "destroy", over?: Record<string, string>) =>
      ({ up, refresh, destroy })[op](h.options({ ...spec.config, ...setupConfig, ...over })).then(expectOk);
    const liveIds = async () => (await spec.live(api)).map((o) => o.id);
    const liveObject = async (id: string) => {
      const found = (await spec.live(api)).find((o) => o.id === id);
      if (!found) throw new Error(`no live object ${id}`);
      return found;
    };

    beforeAll(async () => {
      const emu = h.emu;
      const dashboardKey = await emu.createApiKey("dashboard", ["global_access"]);
      api = { emu, call: (method, urlPath, body) => emu.ok(method, urlPath, { token: dashboardKey, body }) };
      setupConfig = (await spec.setup?.(api)) ?? {};
    });

    test(
      "create → same (zero calls) → out-of-band drift → restore → update → destroy; adoption",
      async () => {
        await run("up");
        const ids = await liveIds();
        expect(ids).toHaveLength(1);
        const id = ids[0]!;

        const second = await run("up");
        expect(ops(second).filter((o) => o !== "same")).toEqual([]);
        expect(second.apiCalls.filter((c) => c.from === "provider")).toEqual([]);
        expect(second.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
        // What a pipeline's drift gate runs.
        expectOk(
          await h.driver.preview({ ...h.options({ ...spec.config, ...setupConfig }), expectNoChanges: true }),
        );

        await spec.editOutOfBand(api, id);
        expect(ops(await run("refresh"))).toContain("read-drift");
        await run("up");
        spec.expectRestored(await liveObject(id));
        const afterRestore = await run("up");
        expect(ops(afterRestore).filter((o) => o !== "same")).toEqual([]);

        const updated = await run("up", { variant: "updated" });
        expect(ops(updated)).toContain("update");
        expect(ops(updated)).not.toContain("replace");
        spec.expectUpdated(await liveObject(id));

        await run("destroy");
        expect(await liveIds()).toEqual([]);

        const existing = await spec.createExisting(api);
        const adopted = await run("up", { adoptId: existing });
        // The program may declare helpers (e.g. an attribute the object refers to); the adopted object is the create step carrying that id.
        expect(adopted.steps.filter((s) => s.op === "create").map((s) => s.id)).toContain(existing);
        expect(await liveIds()).toEqual([existing]);
        spec.expectRestored(await liveObject(existing));
        await run("destroy");
        expect(await liveIds()).toEqual([]);

        expect(h.emu.responseProblems).toEqual([]);
      },
      scenarioTimeoutMs,
    );
  });
}
