/**
 * Several accounts in one program, through the real Pulumi CLI (only the engine decides which
 * provider host serves a resource): two account objects (`incident.Provider`) and the stack's own
 * configuration, each against its own emulator. Objects land in their own account, lookups ask their
 * own account, an update goes to the right one, the keys are secrets in the state and never in the
 * output, and destroy empties each account of what the program made.
 */
import * as path from "node:path";
import type { HarnessOptions, RunResult } from "../../tools/harness";
import { exportedState } from "../../tools/pulumi/cli";
import { cliDriver } from "../support/driver";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import { harnessFixture } from "../support/harnessFixture";

const program = path.join(__dirname, "..", "fixtures", "twoAccounts", "program");
const STAGING_KEY = "staging-account-key-7f3a9c2e5b1d";
const PRODUCTION_KEY = "production-account-key-4e8b2a6c0d9f";

describe("incident.Provider: three accounts in one program", () => {
  const h = harnessFixture(program, cliDriver);
  let staging: TestEmulator;
  let production: TestEmulator;

  beforeAll(async () => {
    staging = await startTestEmulator({ now: Date.now, apiKey: STAGING_KEY });
    production = await startTestEmulator({ now: Date.now, apiKey: PRODUCTION_KEY });
  });
  afterAll(async () => {
    await staging?.dispose();
    await production?.dispose();
  });

  const options = (over: Record<string, string> = {}): HarnessOptions => {
    const base = h.options({
      stagingApiKey: STAGING_KEY,
      stagingUrl: staging.url,
      productionApiKey: PRODUCTION_KEY,
      productionUrl: production.url,
      ...over,
    });
    return {
      ...base,
      secretConfig: [
        ...(base.secretConfig ?? []),
        "two-accounts:stagingApiKey",
        "two-accounts:productionApiKey",
      ],
    };
  };
  const expectOk = (run: RunResult): RunResult => {
    expect(run.errors).toEqual([]);
    return run;
  };
  const severities = async (emu: TestEmulator): Promise<string[]> =>
    (await emu.ok("GET", "/v1/severities")).severities.map((s: any) => s.name).sort();
  const catalogTypes = async (emu: TestEmulator): Promise<string[]> =>
    (await emu.ok("GET", "/v3/catalog_types")).catalog_types.map((t: any) => t.name).sort();
  const writes = (emu: TestEmulator, mark = 0) =>
    emu.requests
      .slice(mark)
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path.replace(/\/01\w+/g, "/:id")}`);

  test("up puts each object in its own account; lookups ask their own account", async () => {
    const before = {
      own: await severities(h.emu),
      staging: await severities(staging),
      production: await severities(production),
    };
    const run = expectOk(await h.driver.up(options()));
    expect(await severities(h.emu)).toEqual([...before.own, "Own account"].sort());
    expect(await severities(staging)).toEqual([...before.staging, "Major"].sort());
    expect(await severities(production)).toEqual([...before.production, "Major"].sort());
    expect(await catalogTypes(h.emu)).not.toContain("Services (staging)");
    expect(await catalogTypes(staging)).toEqual(["Services (staging)"]);
    expect(await catalogTypes(production)).toEqual(["Services (production)"]);
    // Each account's requests carried its own key (the emulator refuses any other).
    for (const emu of [staging, production]) {
      expect(emu.requests.filter((r) => r.status === 401)).toEqual([]);
      expect(emu.requests.some((r) => r.method === "GET" && r.path.startsWith("/v2/users"))).toBe(true);
    }
    expect(run.outputs).toMatchObject({
      stagingIds: { leadId: "01USERADA" },
      productionIds: { leadId: "01USERADA" },
    });

    // Nothing to do after: every host reads its own account.
    const again = expectOk(await h.driver.preview({ ...options(), refresh: true, expectNoChanges: true }));
    expect(again.steps.filter((s) => s.op !== "same")).toEqual([]);
  });

  test("an update goes to its own account only", async () => {
    const marks = [h.emu, staging, production].map((e) => e.requests.length);
    expectOk(await h.driver.up(options({ variant: "updated" })));
    expect(writes(h.emu, marks[0])).toEqual([]);
    expect(writes(staging, marks[1])).toEqual([]);
    expect(writes(production, marks[2])).toEqual(["PUT /v1/severities/:id"]);
    expect(await severities(production)).toContain("Major (renamed)");
  });

  test("the accounts' keys: secret in the state, never in the CLI's output; info logs from the account that asks for them", async () => {
    const encrypted = JSON.stringify(exportedState(options(), { showSecrets: false }));
    const run = expectOk(await h.driver.preview({ ...options({ variant: "updated" }), refresh: true }));
    for (const key of [STAGING_KEY, PRODUCTION_KEY, h.emu.apiKey]) {
      expect({
        key: key.slice(0, 8),
        inState: encrypted.includes(key),
        inLog: run.log.includes(key),
      }).toEqual({
        key: key.slice(0, 8),
        inState: false,
        inLog: false,
      });
    }
    const providers = exportedState(options()).resources.filter(
      (r: any) => r.type === "pulumi:providers:pulumi-nodejs",
    );
    const staged = providers.find((r: any) => r.urn.endsWith("::staging"));
    expect(staged.inputs["incident:apiKey"]).toMatchObject({ plaintext: JSON.stringify(STAGING_KEY) });
    // The production account asks for info logs: a line per API call, naming its account's URL's paths.
    expect(run.log).toMatch(/incident: GET \/v1\/severities\/\S+ → 200 in \d+ ms/);
  });

  test("destroy empties each account of what the program made", async () => {
    expectOk(await h.driver.destroy(options({ variant: "updated" })));
    for (const emu of [h.emu, staging, production]) {
      expect(await catalogTypes(emu)).toEqual([]);
      expect((await severities(emu)).filter((n) => /Own account|Major/.test(n))).toEqual([]);
    }
  });
});
