/**
 * The provider host killed (SIGKILL, as a crash or an out-of-memory kill would) while a write is in
 * flight, through the real Pulumi CLI, which records the operations cut off in its state: the next
 * run must converge, with no duplicate and no orphan. examples/oncall against the emulator, whose
 * `hang-after` fault holds the answer to a write the API has committed (the engine never learns the
 * outcome: a create must be found again through the pending-creates journal, not made twice) and
 * `hang-before` holds the write before the API acts on it.
 *
 * What the provider's client does with the same faults inside one process (lost responses, resets,
 * unreadable bodies, 5xx, 429s, timeouts), for every kind, is test/provider/faults.test.ts.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type FaultRule, type RunningEmulator, startEmulator } from "../../emulator";
import { ALERT_ATTRIBUTES } from "../../emulator/families/alertAttributes";
import type { HarnessOptions, RunResult } from "../../tools/harness";
import { cliDriver as driver } from "../support/driver";

const program = path.join(__dirname, "..", "..", "examples", "oncall");

/** The collections examples/oncall writes, and the names it declares in each. */
const DECLARED: Record<string, string[]> = {
  "/v2/alert_attributes": ["Environment", "Service"],
  "/v2/alert_sources": ["Payments monitoring"],
  "/v3/alert_routes": ["Payments production alerts"],
  "/v2/escalation_paths": ["Payments"],
  "/v2/schedules": ["Payments primary", "Payments secondary"],
  "/v2/workflows": ["Announce critical payments incidents"],
};

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator.close();
});

async function names(collection: string): Promise<string[]> {
  const key = collection.split("/").pop()!;
  const res = await fetch(`${emulator.url}${collection}?page_size=100`, {
    headers: { authorization: `Bearer ${emulator.apiKey}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as any)[key].map((r: { name: string }) => r.name).sort();
}

async function account(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const collection of Object.keys(DECLARED)) out[collection] = await names(collection);
  return out;
}

/** Runs `run` with the fault armed, killing the provider host when it fires; the run must fail. */
async function killedDuring(rule: FaultRule, run: (killHostWhen: Promise<unknown>) => Promise<RunResult>) {
  emulator.faults.clear();
  emulator.faults.add(rule);
  const result = await run(emulator.faults.nextFire(["hang-before", "hang-after"]));
  expect(result.ok).toBe(false);
  expect(result.errors.length).toBeGreaterThan(0);
  expect((emulator.faults.list() as { fired: number }[]).map((r) => r.fired)).toEqual([1]);
  emulator.faults.clear();
}

function expectOk(r: RunResult): RunResult {
  expect(r.errors).toEqual([]);
  return r;
}

/** The account holds exactly what the program declares, the state names it, and nothing is left to do. */
async function expectConverged(options: HarnessOptions): Promise<void> {
  expect(await account()).toEqual(DECLARED);
  const state = driver.readState(options.stateFile).resources.filter((r) => r.type.includes("incident:"));
  expect(state.filter((r) => r.initErrors?.length)).toEqual([]);
  const again = expectOk(await driver.preview({ ...options, expectNoChanges: true }));
  expect(again.apiCalls.filter((c) => c.from === "provider")).toEqual([]);
}

describe.each([
  ["after the API committed it", "hang-after"],
  ["before the API acted on it", "hang-before"],
] as const)("the provider host killed during a write, %s (real CLI)", (_title, kind) => {
  beforeEach(async () => {
    await emulator.reset();
    emulator.faults.clear();
  });

  test(
    kind === "hang-after"
      ? "create (an escalation path, whose names are not unique), update and delete: each next run converges"
      : "create: the next run creates it once",
    async () => {
      const options: HarnessOptions = {
        program,
        stateFile: path.join(mkdtempSync(path.join(tmpdir(), "killed-host-")), "state.json"),
        config: { "incident:baseUrl": emulator.url, "incident:apiKey": emulator.apiKey },
        secretConfig: ["incident:apiKey"],
        // Faults hit writes, which a preview never makes; type checking is the examples test's.
        skipPreview: true,
        env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
      };
      try {
        await killedDuring(
          { method: "POST", path: "^/v2/escalation_paths$", kind, count: 1 },
          (killHostWhen) => driver.up({ ...options, killHostWhen }),
        );
        expectOk(await driver.up(options));
        await expectConverged(options);
        if (kind === "hang-before") return;

        // An update: an attribute renamed in the dashboard, put back by `up --refresh`.
        await emulator.store.transaction(() => {
          const attributes = emulator.store.collection<{ id: string; name: string }>(ALERT_ATTRIBUTES);
          const service = attributes.find((a) => a.name === "Service")!;
          attributes.set({ ...service, name: "Service (renamed in the dashboard)" });
        });
        await killedDuring(
          { method: "PUT", path: "^/v2/alert_attributes/[^/]+$", kind, count: 1 },
          (killHostWhen) => driver.up({ ...options, refresh: true, killHostWhen }),
        );
        expectOk(await driver.up({ ...options, refresh: true }));
        await expectConverged(options);

        await killedDuring({ method: "DELETE", path: "^/v", kind, count: 1 }, (killHostWhen) =>
          driver.destroy({ ...options, killHostWhen }),
        );
        expectOk(await driver.destroy(options));
        for (const collection of Object.keys(DECLARED))
          expect({ [collection]: await names(collection) }).toEqual({ [collection]: [] });
        expect(driver.readState(options.stateFile).resources.filter((r) => r.custom)).toEqual([]);
      } finally {
        driver.dispose(options.stateFile);
      }
    },
  );
});
