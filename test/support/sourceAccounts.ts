/**
 * The source accounts `pulumi-incident migrate` is tested on (test/fixtures/migrate/*.json: a
 * PagerDuty and an Opsgenie account with the hard cases), their clock, and their emulators
 * (emulator/sources/) started for a test: `startSource("pagerduty")`, then `get(path)`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { request } from "undici";
import {
  type OpsgenieAccount,
  type PagerDutyAccount,
  type RunningSourceEmulator,
  startSourceEmulator,
} from "../../emulator";
import { runCli } from "./cliRun";
import { startTestEmulator, type TestEmulator } from "./emulator";
import { linkProjects } from "./exportInProcess";
import { formatProblems } from "./exportRoundTrip";
import { type InProcessStack, runInProcess } from "./inProcessStack";

const FIXTURES = path.join(__dirname, "..", "fixtures", "migrate");

/** The accounts' "now": Monday 15 March 2027, 00:00 UTC (their layers that start "next month" start in April). */
export const ACCOUNT_NOW = Date.parse("2027-03-15T00:00:00Z");

export const pagerDutyAccount = (): PagerDutyAccount =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, "pagerduty.json"), "utf8"));
export const opsgenieAccount = (): OpsgenieAccount =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, "opsgenie.json"), "utf8"));

export const SOURCE_KEYS = { pagerduty: "pd-read-only-3c9e", opsgenie: "og-read-only-7d1a" } as const;

export interface TestSource extends RunningSourceEmulator {
  /** A GET with the vendor's authorization (or `auth`): status and parsed body. */
  get(pathAndQuery: string, auth?: string | null): Promise<{ status: number; body: any }>;
  /** Any method, with the vendor's authorization. */
  call(method: string, pathAndQuery: string): Promise<{ status: number; body: any }>;
}

/** A source emulator over the fixture account (or `account`), its clock at `ACCOUNT_NOW` and moving. */
export async function startSource(
  vendor: "pagerduty" | "opsgenie",
  account?: PagerDutyAccount | OpsgenieAccount,
): Promise<TestSource> {
  const started = Date.now();
  const apiKey = SOURCE_KEYS[vendor];
  const emu = await startSourceEmulator({
    vendor,
    account: (account ?? (vendor === "pagerduty" ? pagerDutyAccount() : opsgenieAccount())) as never,
    apiKey,
    now: () => ACCOUNT_NOW + (Date.now() - started),
  });
  const header = vendor === "pagerduty" ? `Token token=${apiKey}` : `GenieKey ${apiKey}`;
  const call = async (method: string, pathAndQuery: string, auth: string | null = header) => {
    const res = await request(`${emu.url}${pathAndQuery}`, {
      method: method as never,
      headers: auth === null ? {} : { authorization: auth },
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text === "" ? undefined : JSON.parse(text) };
  };
  return {
    ...emu,
    get: (p, auth) => call("GET", p, auth === undefined ? header : auth),
    call: (m, p) => call(m, p),
  };
}

/**
 * `pulumi-incident migrate …` in process, against this API's emulator and a source's: the keys and
 * URLs in the environment, the clock at the accounts' "now".
 */
export async function runMigrate(
  args: string[],
  target: { apiKey: string; url: string },
  sources: { pagerduty?: TestSource; opsgenie?: TestSource },
) {
  const env: NodeJS.ProcessEnv = { INCIDENT_API_KEY: target.apiKey, INCIDENT_BASE_URL: target.url };
  if (sources.pagerduty)
    Object.assign(env, {
      PAGERDUTY_API_KEY: sources.pagerduty.apiKey,
      PAGERDUTY_BASE_URL: sources.pagerduty.url,
    });
  if (sources.opsgenie)
    Object.assign(env, {
      OPSGENIE_API_KEY: sources.opsgenie.apiKey,
      OPSGENIE_BASE_URL: sources.opsgenie.url,
    });
  return runCli(["migrate", ...args], env, false, "", () => ACCOUNT_NOW);
}

export interface MigratedProject {
  dir: string;
  /** index.ts (and any modules), joined. */
  text: string;
  /** What `migrate` printed. */
  out: string;
  /** The program run in process against the target emulator, as a first `up` would. */
  stack: InProcessStack;
  /** The stack's outputs as `pulumi stack output --json` writes them. */
  outputsFile: string;
}

/**
 * `migrate --from <vendor> <parent>/<name>` (only GETs, on both sides), the project laid out as a
 * formatter would, then its program run in process against the target emulator (`linkProjects(parent)`
 * first), its outputs written where `--verify --outputs` reads them.
 */
export async function migrateProject(
  vendor: "pagerduty" | "opsgenie",
  target: TestEmulator,
  source: TestSource,
  parent: string,
  name: string,
  args: string[] = [],
): Promise<MigratedProject> {
  const dir = path.join(parent, name);
  const marks = [target.requests.length, source.requests.length];
  const run = await runMigrate(["--from", vendor, dir, ...args], target, { [vendor]: source });
  expect(run.err).toBe("");
  expect(run.code).toBe(0);
  const writes = [...target.requests.slice(marks[0]), ...source.requests.slice(marks[1])].filter(
    (r) => r.method !== "GET",
  );
  expect(writes).toEqual([]);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".ts"));
  expect(formatProblems(dir, files)).toBe("");
  const text = files.map((f) => fs.readFileSync(path.join(dir, f), "utf8")).join("\n");
  const stack = await runInProcess(dir, { emu: target, project: `${vendor}-migration` });
  const outputsFile = path.join(dir, "outputs.json");
  fs.writeFileSync(outputsFile, JSON.stringify(stack.outputs, null, 2));
  return { dir, text, out: run.out, stack, outputsFile };
}

/** A target emulator whose clock runs from the accounts' "now" (what the migrated versions are relative to). */
export function startTargetEmulator(): Promise<TestEmulator> {
  const started = Date.now();
  return startTestEmulator({ now: () => ACCOUNT_NOW + (Date.now() - started) });
}

export interface MigrationFixture {
  /** This API's emulator (its clock from the accounts' "now"). */
  readonly emu: TestEmulator;
  /** The source's emulator over its fixture account. */
  readonly source: TestSource;
  /** A directory where migrated projects run (the package linked in). */
  readonly parent: string;
}

/**
 * Declares (inside a `describe`) this API's emulator, a source's emulator and a directory for the
 * projects, started before the tests and done away with after them (the source's answers all
 * checked against its document's shapes).
 */
export function migrationFixture(vendor: "pagerduty" | "opsgenie"): MigrationFixture {
  const f = {} as { emu: TestEmulator; source: TestSource; parent: string };
  beforeAll(async () => {
    f.emu = await startTargetEmulator();
    f.source = await startSource(vendor);
    f.parent = fs.mkdtempSync(path.join(os.tmpdir(), `migrate-${vendor}-`));
    linkProjects(f.parent);
  });
  afterAll(async () => {
    expect(f.source?.responseProblems).toEqual([]);
    await f.source?.close();
    await f.emu?.dispose();
    if (f.parent) fs.rmSync(f.parent, { recursive: true, force: true });
  });
  return f;
}
