/**
 * Secrets never appear in plaintext: not in the state file, the request trace (INCIDENT_TRACE_FILE,
 * `apiCalls`), the host's and the program's log, error messages, nor the serialized provider. Runs
 * examples/quickstart (the API key token) and examples/oncall (the alert source's secret token)
 * through the harness (real host) against the emulator; the provider's own credentials throughout.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../emulator";
import { ALERT_SOURCES, type StoredAlertSource } from "../emulator/families/alertSources";
import * as harness from "../tools/harness";

const program = path.join(__dirname, "..", "examples", "quickstart");
const oncall = path.join(__dirname, "..", "examples", "oncall");
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator.close();
});

test("API key token and provider credentials stay out of state, traces, logs and errors", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "secrets-"));
  const options = {
    program,
    stateFile: path.join(dir, "state.json"),
    stack: "secrets",
    config: { "incident:baseUrl": emulator.url, "incident:apiKey": emulator.apiKey },
    secretConfig: ["incident:apiKey"],
  };
  const up = await harness.up(options);
  expect(up.errors).toEqual([]);
  const token = String(up.secretOutputs.ciKeyToken);
  expect(token.length).toBeGreaterThan(10);
  expect(up.outputs.ciKeyToken).toBe("[secret]");

  // The token works: it is the real credential, so finding it anywhere would be a leak.
  const identity = await fetch(`${emulator.url}/v1/identity`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(identity.status).toBe(200);

  const stateText = readFileSync(options.stateFile, "utf8");
  const state = harness.readState(options.stateFile);
  const key = state.resources.find((r: any) => r.type.endsWith(":ApiKey")) as any;
  expect(key.secretOutputs ?? key.secrets).toEqual(expect.arrayContaining(["token"]));
  const published = [stateText, JSON.stringify(up.apiCalls), up.log, ...up.errors.map((e) => e.message)];
  for (const text of published) {
    expect(text).not.toContain(token);
    expect(text).not.toContain(emulator.apiKey);
  }
  for (const r of state.resources as any[]) {
    if (r.provider) {
      expect(r.provider).not.toContain(emulator.apiKey);
      expect(r.provider).not.toContain(token);
    }
  }

  // A run that fails with a bad key reports the failure without echoing the key. (A new stack: an
  // existing one's refresh would use the key saved in its state, as the engine does.)
  const wrongKey = "wrong-key-0123456789abcdef";
  const wrongKeyState = path.join(dir, "wrong-key-state.json");
  const failed = await harness.up({
    ...options,
    stateFile: wrongKeyState,
    config: { ...options.config, "incident:apiKey": wrongKey },
  });
  expect(failed.ok).toBe(false);
  const failureText = [...failed.errors.map((e) => e.message), failed.log].join("\n");
  expect(failureText).toContain("401");
  expect(failureText).not.toContain(wrongKey);
  for (const file of [options.stateFile, wrongKeyState])
    expect(readFileSync(file, "utf8")).not.toContain(wrongKey);

  const destroyed = await harness.destroy(options);
  expect(destroyed.ok).toBe(true);
}, 120_000);

/** Everything a run publishes: what a user, a CI log or a support ticket may see. */
function published(run: harness.RunResult): string[] {
  return [
    JSON.stringify(run.apiCalls),
    run.log,
    JSON.stringify(run.outputs),
    ...run.errors.map((e) => e.message),
  ];
}

/** No secret in any of the texts (named, so a failure says where it leaked). */
function expectNoneContains(texts: Record<string, string>, secrets: Record<string, string>): void {
  for (const [where, text] of Object.entries(texts)) {
    for (const [what, secret] of Object.entries(secrets)) {
      expect({ where, what, leaked: text.includes(secret) }).toEqual({ where, what, leaked: false });
    }
  }
}

test("alert source secret token and provider credentials stay out of state, traces, logs, errors and the provider text", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "secrets-oncall-"));
  const options: harness.HarnessOptions = {
    program: oncall,
    stateFile: path.join(dir, "state.json"),
    stack: "secrets-oncall",
    config: { "incident:baseUrl": emulator.url, "incident:apiKey": emulator.apiKey },
    secretConfig: ["incident:apiKey"],
  };
  const runs: Record<string, harness.RunResult> = {};
  const record = async (name: string, result: Promise<harness.RunResult>) => {
    runs[name] = await result;
    return runs[name];
  };
  const up = await record("up", harness.up(options));
  expect(up.errors).toEqual([]);
  const token = String(up.secretOutputs.alertSourceToken);
  expect(up.outputs.alertSourceToken).toBe("[secret]");
  // It is the real token (the one the API checks alert events against), so finding it would be a leak.
  const stored = emulator.store.collection<StoredAlertSource>(ALERT_SOURCES).all();
  expect(stored.map((s) => s.secretToken)).toEqual([token]);
  expect(token.length).toBeGreaterThan(10);
  const source = harness.readState(options.stateFile).resources.find((r) => r.type.endsWith(":AlertSource"))!;
  expect(source.outputs.secretToken).toBe(token); // decrypted view: kept, as a secret
  expect(source.secretOutputs).toEqual(expect.arrayContaining(["secretToken"]));
  expect(String(up.outputs.alertEventsUrl)).toContain(source.id!);

  // The source is edited outside the stack; putting it back fails once (an error naming the source)…
  await emulator.store.transaction(() => {
    const sources = emulator.store.collection<StoredAlertSource>(ALERT_SOURCES);
    const s = sources.all()[0]!;
    sources.set({ ...s, payload: { ...s.payload, name: "Payments monitoring (edited)" } });
  });
  emulator.faults.add({ method: "PUT", path: "^/v2/alert_sources/", kind: "status", status: 400 });
  const failed = await record("failedUpdate", harness.up({ ...options, refresh: true }));
  emulator.faults.clear();
  expect(failed.ok).toBe(false);
  expect(failed.errors.map((e) => e.message).join("\n")).toMatch(
    /AlertSource "Payments monitoring" update failed: .*400/,
  );
  // … and the next run puts it back.
  const fixed = await record("fixedUpdate", harness.up({ ...options, refresh: true }));
  expect(fixed.errors).toEqual([]);
  expect(fixed.steps.filter((s) => s.op === "update").map((s) => s.name)).toEqual(["payments-http"]);
  expect(emulator.store.collection<StoredAlertSource>(ALERT_SOURCES).all()[0]!.secretToken).toBe(token);

  // A run with a wrong key fails with a 401 and does not echo the key (a new stack: an existing
  // one's refresh would use the key saved in its state, as the engine does).
  const wrongKey = "wrong-key-oncall-0123456789abcdef";
  const badKey = await record(
    "wrongKey",
    harness.up({
      ...options,
      stateFile: path.join(dir, "wrong-key-state.json"),
      config: { ...options.config, "incident:apiKey": wrongKey },
    }),
  );
  expect(badKey.ok).toBe(false);
  expect([...badKey.errors.map((e) => e.message), badKey.log].join("\n")).toContain("401");

  const stateText = readFileSync(options.stateFile, "utf8");
  const state = harness.readState(options.stateFile);
  const texts: Record<string, string> = { "state file": stateText };
  for (const [name, run] of Object.entries(runs)) {
    published(run).forEach((text, i) => {
      texts[`${name} #${i}`] = text;
    });
  }
  for (const r of state.resources) if (r.provider) texts[`provider text of ${r.name}`] = r.provider;
  expect(Object.keys(texts).some((k) => k.startsWith("provider text"))).toBe(true);
  expectNoneContains(texts, {
    "secret token": token,
    "provider API key": emulator.apiKey,
    "wrong key": wrongKey,
  });

  const destroyed = await record("destroy", harness.destroy(options));
  expect(destroyed.ok).toBe(true);
  expectNoneContains(
    {
      "destroy output": published(destroyed).join("\n"),
      "state file after destroy": readFileSync(options.stateFile, "utf8"),
    },
    { "secret token": token, "provider API key": emulator.apiKey },
  );
}, 120_000);
