/**
 * The source accounts `pulumi-incident migrate` is tested on (test/fixtures/migrate/*.json: a
 * PagerDuty and an Opsgenie account with the hard cases), their clock, and their emulators
 * (emulator/sources/) started for a test: `startSource("pagerduty")`, then `get(path)`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { request } from "undici";
import {
  type OpsgenieAccount,
  type PagerDutyAccount,
  type RunningSourceEmulator,
  startSourceEmulator,
} from "../../emulator";

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
