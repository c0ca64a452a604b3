/**
 * Pending creates (provider/journal.ts): a create whose provider process died before the engine
 * got the answer is taken over by the next run's create of the same object, never made twice.
 * The fault matrix (test/faults.test.ts) kills a real provider host; these cases pin each branch.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { currentClient, setCredentials } from "../../provider/credentials";
import { canonicalJson } from "../../provider/normalise";
import { customFieldProvider } from "../../resources/customField";
import { escalationPathProvider } from "../../resources/escalationPath";
import { dashboardEscalationPath } from "../support/dashboard";
import { startTestEmulator, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
  setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url });
});
afterAll(async () => {
  await emu.dispose();
});

/** The pid of a process that has exited. */
const deadPid = (): number => spawnSync(process.execPath, ["-e", "0"]).pid!;

/** What a killed provider process left: an entry for `kind`/`key` with these inputs. */
function leftBehind(kind: string, key: string, inputs: Record<string, unknown>, createdId?: string): void {
  const { __provider: _p, ...args } = inputs;
  const dir = path.join(process.env.INCIDENT_JOURNAL_DIR!, currentClient().account);
  fs.mkdirSync(dir, { recursive: true });
  const prefix = `${kind}-${createHash("sha256").update(key).digest("hex").slice(0, 16)}-`;
  const entry = {
    kind,
    key,
    startedAt: Date.now(),
    pid: deadPid(),
    fingerprint: createHash("sha256").update(canonicalJson(args)).digest("hex"),
    ...(createdId ? { createdId } : {}),
  };
  fs.writeFileSync(path.join(dir, `${prefix}${Math.random()}.json`), JSON.stringify(entry));
}

const calls = (mark: number) =>
  emu.requests.slice(mark).map((r) => `${r.method} ${r.path.replace(/\/[0-9A-Z]{26}/, "/:id")}`);

test("a create cut off before its answer: the next create finds the object by name and takes it over", async () => {
  const checked = (
    await customFieldProvider.check!(
      {},
      { name: "Cut off", description: "d", fieldType: "text", __provider: "shim" },
    )
  ).inputs;
  const made = await emu.ok("POST", "/v2/custom_fields", {
    body: { name: "Cut off", description: "d", field_type: "text" },
  });
  leftBehind("CustomField", "Cut off", checked);
  const mark = emu.requests.length;
  const created = await customFieldProvider.create!(checked);
  expect(created.id).toBe(made.custom_field.id);
  expect(calls(mark)).not.toContain("POST /v2/custom_fields");
});

test("a create answered but never recorded (non-unique names): taken over by the recorded id", async () => {
  const inputs = {
    name: "Answered",
    path: [
      { level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }], timeToAckSeconds: 300 } },
    ],
    __provider: "shim",
  };
  const checked = (await escalationPathProvider.check!({}, inputs)).inputs;
  const first = await escalationPathProvider.create!(checked);
  // A same-named path made by someone else since: the recorded id decides, not the name.
  await emu.ok("POST", "/v2/escalation_paths", {
    body: dashboardEscalationPath("Answered", { userId: "01USERBOB", urgency: "low", timeToAckSeconds: 60 }),
  });
  leftBehind("EscalationPath", "Answered", checked, first.id);
  const mark = emu.requests.length;
  const again = await escalationPathProvider.create!(checked);
  expect(again.id).toBe(first.id);
  expect(calls(mark)).not.toContain("POST /v2/escalation_paths");
});

test("an answered create with other inputs is a replacement: a new object is made", async () => {
  const inputs = {
    name: "Replaced",
    path: [
      { level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }], timeToAckSeconds: 300 } },
    ],
    __provider: "shim",
  };
  const checked = (await escalationPathProvider.check!({}, inputs)).inputs;
  const old = await escalationPathProvider.create!(checked);
  leftBehind("EscalationPath", "Replaced", checked, old.id);
  const changed = (await escalationPathProvider.check!({}, { ...inputs, teamIds: ["01TEAMPAYMENTS"] }))
    .inputs;
  const replacement = await escalationPathProvider.create!(changed);
  expect(replacement.id).not.toBe(old.id);
});
