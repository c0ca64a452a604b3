/**
 * `pulumi-incident migrate` end to end through the real Pulumi CLI, as one scenario, for each
 * source: its fixture account (test/fixtures/migrate/: daily and weekly restrictions, several
 * layers or rotations, one that starts next month, an escalation with a repeat and a schedule
 * target, a person this account lacks) migrated into a project; its first `up` makes it on this API's
 * emulator (what the engine decides: the program type-checks and runs, lookups resolve, the stack
 * output names what was made); `--verify` finds no difference for the exact objects and names the
 * approximate ones; `destroy` leaves nothing of it. The mapping, the plan and verify's own
 * behaviour are the fast lane's (test/cli/migrate/).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { HarnessOptions } from "../../tools/harness";
import { cliDriver } from "../support/driver";
import type { TestEmulator } from "../support/emulator";
import { linkPackage } from "../support/readmeBlocks";
import { runMigrate, startSource, startTargetEmulator, type TestSource } from "../support/sourceAccounts";

const root = path.join(__dirname, "..", "..");
const KINDS = ["/v2/schedules", "/v2/escalation_paths", "/v2/alert_sources", "/v3/alert_routes"];

/** What each source's fixture account migrates to, and what --verify must say of it. */
const SOURCES = {
  pagerduty: {
    made: { Schedule: 2, EscalationPath: 2, AlertSource: 3, AlertRoute: 2 },
    exact: ['schedule "Payments primary"', 'escalation policy "Payments escalation"'],
    approximate: 'schedule "Platform on call", escalation policy "Platform escalation"',
  },
  opsgenie: {
    made: { Schedule: 2, EscalationPath: 2, AlertSource: 2, AlertRoute: 2 },
    exact: ['schedule "payments_schedule"', 'escalation "payments_escalation"'],
    approximate: 'schedule "sre_schedule", escalation "sre_escalation"',
  },
} as const;

describe("migrate, through the real CLI", () => {
  let emu: TestEmulator;
  const sources: Partial<Record<keyof typeof SOURCES, TestSource>> = {};
  let work: string;
  const stacks: HarnessOptions[] = [];

  beforeAll(async () => {
    emu = await startTargetEmulator();
    for (const vendor of Object.keys(SOURCES) as Array<keyof typeof SOURCES>)
      sources[vendor] = await startSource(vendor);
    work = fs.mkdtempSync(path.join(os.tmpdir(), "migrate-engine-"));
  });
  afterAll(async () => {
    for (const options of stacks) cliDriver.dispose(options.stateFile);
    for (const source of Object.values(sources)) await source?.close();
    await emu?.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** Every object of the migrated kinds the account holds (archived ones left out). */
  const account = async () =>
    (
      await Promise.all(
        KINDS.map(async (p) => {
          const body = await emu.ok("GET", p);
          const list = (Object.values(body).find(Array.isArray) as any[]).filter((o) => !o.archived_at);
          return list.map((o) => `${p} ${o.name}`);
        }),
      )
    ).flat();

  test("PagerDuty and Opsgenie: migrate, up, --verify, destroy", async () => {
    const before = await account();
    for (const [vendor, expected] of Object.entries(SOURCES) as Array<
      [keyof typeof SOURCES, (typeof SOURCES)[keyof typeof SOURCES]]
    >) {
      const dir = path.join(work, vendor);
      const migrated = await runMigrate(["--from", vendor, dir], emu, { [vendor]: sources[vendor] });
      expect(migrated.err).toBe("");
      expect(migrated.code).toBe(0);
      linkPackage(dir, root);
      const options: HarnessOptions = {
        program: dir,
        stateFile: path.join(work, `${vendor}-state.json`),
        stack: vendor,
        config: { "incident:apiKey": emu.apiKey, "incident:baseUrl": emu.url },
        secretConfig: ["incident:apiKey"],
      };
      stacks.push(options);

      const up = await cliDriver.up(options);
      expect(up.errors).toEqual([]);
      expect(up.ok).toBe(true);
      const made: Record<string, number> = {};
      for (const s of up.steps.filter((x) => x.type.includes("incident:"))) {
        expect(s.op).toBe("create");
        const kind = s.type.split(":").pop()!;
        made[kind] = (made[kind] ?? 0) + 1;
      }
      expect(made).toEqual(expected.made);
      expect((await account()).length).toBe(
        before.length + Object.values(expected.made).reduce((a, b) => a + b, 0),
      );
      expect(emu.responseProblems).toEqual([]);
      const outputsFile = path.join(work, `${vendor}-outputs.json`);
      fs.writeFileSync(outputsFile, JSON.stringify(up.outputs));

      const verify = await runMigrate(["--from", vendor, "--verify", "--outputs", outputsFile], emu, {
        [vendor]: sources[vendor],
      });
      expect(verify.err).toBe("");
      for (const name of expected.exact) expect(verify.out).toContain(`${name} (exact): no difference`);
      expect(verify.out).toContain(`Approximate (as the plan says): ${expected.approximate}.`);
      expect(verify.code).toBe(0);

      const destroy = await cliDriver.destroy(options);
      expect(destroy.errors).toEqual([]);
      expect(await account()).toEqual(before);
    }
  });
});
