/**
 * The fault matrix: examples/quickstart applied through the harness (real provider host) while the
 * emulator injects a fault. After each scenario the account holds exactly the declared objects, the
 * state matches the account, and a further run shows no changes and makes no API calls.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type FaultRule, type RunningEmulator, startEmulator } from "../emulator";
import * as harness from "./harness";

const program = path.join(__dirname, "..", "examples", "quickstart");
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator.close();
});

async function api(pathname: string): Promise<any> {
  const res = await fetch(`${emulator.url}${pathname}`, {
    headers: { authorization: `Bearer ${emulator.apiKey}` },
  });
  return res.json();
}

/** What the account holds of the quickstart's objects. */
async function account() {
  const fields = (await api("/v2/custom_fields")).custom_fields as { id: string; name: string }[];
  const keys = (await api("/v1/api_keys?page_size=250")).api_keys as { name: string }[];
  const options: Record<string, string[]> = {};
  for (const f of fields) {
    const list = (await api(`/v1/custom_field_options?custom_field_id=${f.id}&page_size=250`))
      .custom_field_options;
    options[f.name] = list.map((o: { value: string }) => o.value).sort();
  }
  return {
    fields: fields.map((f) => f.name).sort(),
    keys: keys.map((k) => k.name).filter((n) => n === "CI: read-only"),
    options,
  };
}

const declared = {
  fields: ["Affected team", "Region"],
  keys: ["CI: read-only"],
  options: {
    "Affected team": ["Identity", "Payments", "Search"],
    Region: ["ap-south", "eu-west", "us-east"],
  },
};

const scenarios: [string, FaultRule[]][] = [
  [
    "502 on a create (not committed)",
    [{ method: "POST", path: "^/v2/custom_fields$", kind: "status", status: 502 }],
  ],
  [
    "connection reset after a create committed",
    [{ method: "POST", path: "^/v2/custom_fields$", kind: "reset-after" }],
  ],
  ["connection reset before a create", [{ method: "POST", path: "^/v1/api_keys$", kind: "reset-before" }]],
  [
    "API key create committed, response lost",
    [{ method: "POST", path: "^/v1/api_keys$", kind: "reset-after" }],
  ],
  [
    "option create committed, response lost",
    [{ method: "POST", path: "^/v1/custom_field_options$", kind: "reset-after", count: 2 }],
  ],
  ["503 twice on every kind of request", [{ path: "^/v", kind: "status", status: 503, count: 2 }]],
  ["429 storm", [{ path: "^/v", kind: "rate-limit", count: 6, retryAfterSeconds: 1 }]],
  ["latency", [{ path: "^/v", kind: "latency", latencyMs: 150, count: 10 }]],
];

describe.each(scenarios)("fault: %s", (name, rules) => {
  test("no duplicates, no orphans, state matches, then no changes", async () => {
    emulator.faults.clear();
    const options = {
      program,
      stateFile: path.join(mkdtempSync(path.join(tmpdir(), "faults-")), "state.json"),
      stack: name.replace(/\W+/g, "-"),
      config: { "incident:baseUrl": emulator.url, "incident:apiKey": emulator.apiKey },
      secretConfig: ["incident:apiKey"],
    };
    for (const rule of rules) emulator.faults.add(rule);
    let result = await harness.up(options);
    if (!result.ok) {
      // A failure after partial work is reported and recorded; the next `pulumi up` converges.
      for (const e of result.errors) expect(e.message.length).toBeGreaterThan(0);
      result = await harness.up(options);
    }
    // Every injected fault really happened.
    expect((emulator.faults.list() as { fired: number }[]).every((r) => r.fired > 0)).toBe(true);
    emulator.faults.clear();
    expect(result.errors).toEqual([]);
    expect(await account()).toEqual(declared);

    // The state names exactly the live objects.
    const state = harness.readState(options.stateFile);
    const fieldIds = state.resources
      .filter((r: any) => r.type.endsWith(":CustomField"))
      .map((r: any) => r.id)
      .sort();
    const live = ((await api("/v2/custom_fields")).custom_fields as { id: string }[]).map((f) => f.id).sort();
    expect(fieldIds).toEqual(live);

    const again = await harness.up(options);
    expect(again.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(again.apiCalls.filter((c) => c.from !== "program")).toEqual([]);

    const destroyed = await harness.destroy(options);
    expect(destroyed.ok).toBe(true);
    expect((await account()).fields).toEqual([]);
  }, 120_000);
});
