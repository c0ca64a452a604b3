/**
 * Pending creates (provider/journal.ts): a create whose provider process died while the API held it
 * is taken over by the next run's create of the same object, never made twice; a record is removed
 * as soon as the create's outcome is known, so a record of a create that was answered never gets in
 * the way of a later create, for any kind. test/engine/killedHost.test.ts kills a real provider host
 * through the real CLI; test/engine/wholeAccount.test.ts makes every kind again after a run whose
 * provider process the engine killed at its end; these cases pin each branch.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { currentClient, setCredentials } from "../../provider/credentials";
import { canonicalJson } from "../../provider/normalise";
import { customFieldProvider } from "../../resources/customField";
import { escalationPathProvider } from "../../resources/escalationPath";
import { scheduleSyncTargetProvider } from "../../resources/scheduleSyncTarget";
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
function leftBehind(
  kind: string,
  key: string,
  inputs: Record<string, unknown>,
  createdId?: string,
  existedBefore?: string[],
): void {
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
    ...(existedBefore ? { existedBefore } : {}),
  };
  fs.writeFileSync(path.join(dir, `${prefix}${Math.random()}.json`), JSON.stringify(entry));
}

const journalDir = () => path.join(process.env.INCIDENT_JOURNAL_DIR!, currentClient().account);

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

test("a new Slack user group cut off (the API answers no name or handle of it): the target made since the record is taken over", async () => {
  const inputs = {
    newSlackUserGroup: { name: "Cut off", handle: "cut-off", description: "d" },
    __provider: "shim",
  };
  const checked = (await scheduleSyncTargetProvider.check!({}, inputs)).inputs;
  const listIds = async () =>
    (await emu.ok("GET", "/v2/schedule_sync_targets")).schedule_sync_targets.map((t: { id: string }) => t.id);
  const before = await listIds();
  const made = await emu.ok("POST", "/v2/schedule_sync_targets", {
    body: {
      schedule_sync_target: { add_bot_to_group: false, new_slack_user_group: checked.newSlackUserGroup },
    },
  });
  leftBehind("ScheduleSyncTarget", "new:cut-off", checked, undefined, before);
  const mark = emu.requests.length;
  const created = await scheduleSyncTargetProvider.create!(checked);
  expect(created.id).toBe(made.schedule_sync_target.id);
  expect(calls(mark)).not.toContain("POST /v2/schedule_sync_targets");
  expect(await listIds()).toEqual([...before, created.id]);
});

test("a record an earlier release kept after the answer is settled: the next create makes a new object", async () => {
  const inputs = {
    name: "Answered",
    path: [
      { level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }], timeToAckSeconds: 300 } },
    ],
    __provider: "shim",
  };
  const checked = (await escalationPathProvider.check!({}, inputs)).inputs;
  const first = await escalationPathProvider.create!(checked);
  leftBehind("EscalationPath", "Answered", checked, first.id);
  const again = await escalationPathProvider.create!(checked);
  expect(again.id).not.toBe(first.id);
  expect(fs.readdirSync(journalDir()).filter((f) => f.startsWith("EscalationPath-"))).toEqual([]);
});

test("a create's record is gone once the API answered it (made or refused): nothing is left for a later create", async () => {
  const checked = (
    await customFieldProvider.check!(
      {},
      { name: "Answered field", description: "d", fieldType: "text", __provider: "shim" },
    )
  ).inputs;
  const made = await customFieldProvider.create!(checked);
  expect(fs.readdirSync(journalDir()).filter((f) => f.startsWith("CustomField-"))).toEqual([]);
  // Refused (the name is taken): no record either.
  await expect(customFieldProvider.create!(checked)).rejects.toThrow();
  expect(fs.readdirSync(journalDir()).filter((f) => f.startsWith("CustomField-"))).toEqual([]);
  await customFieldProvider.delete!(made.id, made.outs);
});
