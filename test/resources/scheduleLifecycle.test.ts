import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startTestEmulator, type TestEmulator } from "../emulator/support";
import { destroy, preview, up } from "../harness";
import { describeLifecycle } from "../support/lifecycle";

const weekly = [{ interval: 1, interval_type: "weekly" }];

/** A rotation as read, made writable again: users by id, no empty lists (the API refuses them). */
const writable = (r: any) => {
  const out = { ...r, users: r.users.map((u: any) => ({ id: u.id })) };
  if (out.working_intervals?.length === 0) delete out.working_intervals;
  return out;
};

describeLifecycle("Schedule", {
  program: path.join(__dirname, "../fixtures/schedule/program"),
  live: async ({ call }) => (await call("GET", "/v2/schedules")).schedules,
  editOutOfBand: async ({ call }, id) => {
    const { schedule } = await call("GET", `/v2/schedules/${id}`);
    schedule.config.rotations[0].handovers = [{ interval: 5, interval_type: "daily" }];
    await call("PUT", `/v2/schedules/${id}`, {
      schedule: { name: schedule.name, config: { rotations: schedule.config.rotations.map(writable) } },
    });
  },
  expectRestored: (s) => expect(s.config.rotations[0].handovers).toEqual(weekly),
  expectUpdated: (s) => expect(s.config.rotations[0].users).toHaveLength(3),
  createExisting: async ({ call }) =>
    (
      await call("POST", "/v2/schedules", {
        schedule: {
          name: "Made by hand",
          timezone: "Europe/Berlin",
          config: {
            rotations: [
              {
                id: "primary",
                name: "Primary",
                handover_start_at: "2026-01-05T08:00:00Z",
                handovers: weekly,
                users: [{ id: "01USERADA" }],
                layers: [{ name: "Layer 1" }],
              },
            ],
          },
        },
      })
    ).schedule.id,
});

/**
 * A time zone change replaces the schedule (the API cannot change it in place), create-before-delete:
 * schedule names are not unique (nothing in the API reference says they are), so the new schedule is
 * created next to the old one, which is deleted only once the new one exists, and whatever pages
 * through the schedule never points at nothing.
 */
describe("Schedule: a time zone change through the harness", () => {
  const program = path.join(__dirname, "../fixtures/schedule/program");
  const stateFile = path.join(os.tmpdir(), `schedule-tz-${process.pid}.json`);
  let emu: TestEmulator;
  const config = (over: Record<string, string> = {}) => ({
    "incident:apiKey": emu.apiKey,
    "incident:baseUrl": emu.url,
    ...Object.fromEntries(Object.entries(over).map(([k, v]) => [`schedule-lifecycle:${k}`, v])),
  });
  const live = async () => (await emu.call("GET", "/v2/schedules")).body.schedules as any[];

  beforeAll(async () => {
    emu = await startTestEmulator({ now: Date.now });
  });
  afterAll(async () => {
    await emu.dispose();
    fs.rmSync(stateFile, { force: true });
  });

  test("plans and applies a replace, the new schedule created before the old one is deleted", async () => {
    const first = await up({ program, stateFile, config: config() });
    expect(first.errors).toEqual([]);
    const [old] = await live();
    expect(old.timezone).toBe("Europe/Berlin");

    const planned = await preview({ program, stateFile, config: config({ timezone: "UTC" }) });
    expect(planned.errors).toEqual([]);
    expect(planned.steps.filter((s) => s.op !== "same")).toEqual([
      expect.objectContaining({ op: "replace", replaceKeys: ["timezone"], deleteBeforeReplace: false }),
    ]);

    const since = emu.requests.length;
    const moved = await up({ program, stateFile, config: config({ timezone: "UTC" }) });
    expect(moved.errors).toEqual([]);
    const replace = moved.steps.find((s) => s.op === "replace");
    expect(replace).toMatchObject({ replaceKeys: ["timezone"], deleteBeforeReplace: false });
    const replacedDelete = moved.steps.find((s) => s.op === "delete");
    expect(replacedDelete).toMatchObject({ id: old.id, replaced: true });
    expect(moved.steps.indexOf(replace!)).toBeLessThan(moved.steps.indexOf(replacedDelete!));

    // On the wire: the new schedule (same name, other time zone) is created while the old one is
    // still live, and only then is the old one deleted.
    const writes = emu.requests
      .slice(since)
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(writes).toEqual(["POST /v2/schedules 201", `DELETE /v2/schedules/${old.id} 204`]);
    const after = await live();
    expect(after.map((s) => [s.name, s.timezone])).toEqual([[old.name, "UTC"]]);
    expect(after[0].id).toBe(replace!.id);
    expect(after[0].id).not.toBe(old.id);

    await destroy({ program, stateFile, config: config({ timezone: "UTC" }) });
    expect(await live()).toEqual([]);
    expect(emu.responseProblems).toEqual([]);
  });
});
