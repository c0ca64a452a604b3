/**
 * Secrets never appear in plaintext: not in the state file, the request trace, the host's log, error
 * messages, nor the serialized provider. Runs examples/quickstart through the harness (real host)
 * against the emulator.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../emulator";
import * as harness from "./harness";

const program = path.join(__dirname, "..", "examples", "quickstart");
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

  // A run that fails with a bad key reports the failure without echoing the key.
  const wrongKey = "wrong-key-0123456789abcdef";
  const failed = await harness.refresh({
    ...options,
    config: { ...options.config, "incident:apiKey": wrongKey },
  });
  expect(failed.ok).toBe(false);
  const failureText = [...failed.errors.map((e) => e.message), failed.log].join("\n");
  expect(failureText).toContain("401");
  expect(failureText).not.toContain(wrongKey);
  expect(readFileSync(options.stateFile, "utf8")).not.toContain(wrongKey);

  const destroyed = await harness.destroy(options);
  expect(destroyed.ok).toBe(true);
}, 120_000);
