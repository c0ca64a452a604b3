/**
 * The state file: everything survives a restart (resources, keys and their tokens, rotation grace
 * periods, the bootstrap key), writes are atomic, and a bad file is refused rather than replaced.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startTestEmulator, T0, type TestEmulator } from "../support/emulator";

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "emulator-state-"));
  file = path.join(dir, "nested", "state.json");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function restart(previous: TestEmulator | undefined, options: Record<string, unknown> = {}) {
  if (previous) await previous.dispose();
  return startTestEmulator({ stateFile: file, ...options });
}

test("resources, keys and tokens survive a restart; ids keep increasing", async () => {
  let emu = await restart(undefined);
  const field = (
    await emu.call("POST", "/v2/custom_fields", {
      body: { name: "Team", description: "d", field_type: "single_select" },
    })
  ).body.custom_field;
  const option = (
    await emu.call("POST", "/v1/custom_field_options", { body: { custom_field_id: field.id, value: "A" } })
  ).body.custom_field_option;
  const key = (
    await emu.call("POST", "/v1/api_keys", {
      body: { name: "kept", role_names: ["viewer"], team_ids: [], team_role_names: [] },
    })
  ).body;
  const bootstrap = emu.apiKey;
  const before = emu.store.dump();
  expect(existsSync(file)).toBe(true);

  emu = await restart(emu);
  try {
    expect(emu.apiKey).toBe(bootstrap);
    expect(emu.store.dump()).toEqual(before);
    expect((await emu.call("GET", `/v2/custom_fields/${field.id}`)).body.custom_field).toEqual(field);
    expect((await emu.call("GET", `/v1/custom_field_options/${option.id}`)).body.custom_field_option).toEqual(
      option,
    );
    const id = await emu.call("GET", "/v1/identity", { token: key.token });
    expect(id.body.identity.name).toBe("kept");
    const next = await emu.call("POST", "/v2/custom_fields", {
      body: { name: "Later", description: "d", field_type: "text" },
    });
    expect(next.body.custom_field.id > field.id).toBe(true);
    expect(emu.responseProblems).toEqual([]);
  } finally {
    await emu.dispose();
  }
});

test("a rotation's grace period is kept across a restart", async () => {
  let emu = await restart(undefined);
  const { api_key, token: old } = (
    await emu.call("POST", "/v1/api_keys", {
      body: { name: "r", role_names: [], team_ids: [], team_role_names: [] },
    })
  ).body;
  await emu.call("POST", `/v1/api_keys/${api_key.id}/actions/rotate`, { body: { grace_period_minutes: 2 } });
  emu = await restart(emu, { now: () => T0 + 60_000 });
  expect((await emu.call("GET", "/v1/identity", { token: old })).status).toBe(200);
  emu = await restart(emu, { now: () => T0 + 120_000 });
  expect((await emu.call("GET", "/v1/identity", { token: old })).status).toBe(401);
  await emu.dispose();
});

test("--api-key replaces the bootstrap token; the old one stops working", async () => {
  let emu = await restart(undefined);
  const generated = emu.apiKey;
  emu = await restart(emu, { apiKey: "explicit-key" });
  expect(emu.apiKey).toBe("explicit-key");
  expect((await emu.call("GET", "/v1/identity", { token: "explicit-key" })).status).toBe(200);
  expect((await emu.call("GET", "/v1/identity", { token: generated })).status).toBe(401);
  // Still one bootstrap key, same id.
  const keys = emu.store
    .collection<{ id: string; bootstrap?: boolean }>("api_keys")
    .filter((k) => k.bootstrap === true);
  expect(keys).toHaveLength(1);
  await emu.dispose();
});

test("writes are atomic: only the state file remains, and it is always complete JSON", async () => {
  const emu = await restart(undefined);
  try {
    for (let i = 0; i < 20; i++) {
      await emu.call("POST", "/v2/custom_fields", {
        body: { name: `f${i}`, description: "", field_type: "text" },
      });
      const parsed = JSON.parse(readFileSync(file, "utf8"));
      expect(parsed.collections.custom_fields).toHaveLength(i + 1);
    }
    expect(readdirSync(path.dirname(file))).toEqual(["state.json"]);
  } finally {
    await emu.dispose();
  }
});

test("reads and refused writes do not rewrite the file", async () => {
  const emu = await restart(undefined);
  try {
    const saved = readFileSync(file, "utf8");
    await emu.call("GET", "/v2/custom_fields");
    await emu.call("POST", "/v2/custom_fields", { body: { name: "" } });
    expect(readFileSync(file, "utf8")).toBe(saved);
  } finally {
    await emu.dispose();
  }
});

test("a file that is not a state file is refused, not replaced", async () => {
  const bad = path.join(dir, "bad.json");
  writeFileSync(bad, '{"hello": "world"}');
  await expect(startTestEmulator({ stateFile: bad })).rejects.toThrow(/not an emulator state file/);
  writeFileSync(bad, "{ not json");
  await expect(startTestEmulator({ stateFile: bad })).rejects.toThrow(/not valid JSON/);
  expect(readFileSync(bad, "utf8")).toBe("{ not json");
});

test("reset goes back to the seeded state and keeps the bootstrap key", async () => {
  const emu = await restart(undefined);
  try {
    const fresh = emu.store.dump();
    await emu.call("POST", "/v2/custom_fields", {
      body: { name: "gone soon", description: "", field_type: "text" },
    });
    const r = await emu.call("POST", "/_emulator/reset");
    expect(r.status).toBe(200);
    expect(emu.store.dump()).toEqual(fresh);
    expect((await emu.call("GET", "/v1/identity")).status).toBe(200);
    expect(emu.requests).toHaveLength(1);
    const saved = JSON.parse(readFileSync(file, "utf8"));
    expect(saved.collections.custom_fields).toBeUndefined();
  } finally {
    await emu.dispose();
  }
});
