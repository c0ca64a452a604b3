import * as path from "node:path";
import { dashboardSchedule } from "../support/dashboard";
import { driverLabel, scenarioTimeoutMs } from "../support/driver";
import { expectCreateBeforeDelete, expectPlannedReplace, harnessFixture } from "../support/harnessFixture";
import { describeLifecycle } from "../support/lifecycle";

const program = path.join(__dirname, "../fixtures/schedule/program");

const weekly = [{ interval: 1, interval_type: "weekly" }];

/** A rotation as read, made writable again: users by id, no empty lists (the API refuses them). */
const writable = (r: any) => {
  const out = { ...r, users: r.users.map((u: any) => ({ id: u.id })) };
  if (out.working_intervals?.length === 0) delete out.working_intervals;
  return out;
};

describeLifecycle("Schedule", {
  program,
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
      await call(
        "POST",
        "/v2/schedules",
        dashboardSchedule({
          name: "Made by hand",
          timezone: "Europe/Berlin",
          handoverStartAt: "2026-01-05T08:00:00Z",
          users: ["01USERADA"],
        }),
      )
    ).schedule.id,
});

/**
 * A time zone change replaces the schedule (the API cannot change it in place), create-before-delete:
 * schedule names are not unique (nothing in the API reference says they are), so the new schedule is
 * created next to the old one, which is deleted only once the new one exists, and whatever pages
 * through the schedule never points at nothing.
 */
describe(`Schedule: a time zone change through the ${driverLabel}`, () => {
  const h = harnessFixture(program);
  const { destroy, preview, up } = h.driver;
  const live = () => h.list("/v2/schedules");

  test(
    "plans and applies a replace, the new schedule created before the old one is deleted",
    async () => {
      const first = await up(h.options());
      expect(first.errors).toEqual([]);
      const [old] = await live();
      expect(old.timezone).toBe("Europe/Berlin");

      expectPlannedReplace(await preview(h.options({ timezone: "UTC" })), ["timezone"]);

      const since = h.emu.requests.length;
      const replace = expectCreateBeforeDelete(
        await up(h.options({ timezone: "UTC" })),
        ["timezone"],
        old.id,
      );

      // On the wire: the new schedule (same name, other time zone) is created while the old one is
      // still live, and only then is the old one deleted.
      expect(h.writesSince(since)).toEqual(["POST /v2/schedules 201", `DELETE /v2/schedules/${old.id} 204`]);
      const after = await live();
      expect(after.map((s) => [s.name, s.timezone])).toEqual([[old.name, "UTC"]]);
      expect(after[0].id).toBe(replace.id);
      expect(after[0].id).not.toBe(old.id);

      await destroy(h.options({ timezone: "UTC" }));
      expect(await live()).toEqual([]);
      expect(h.emu.responseProblems).toEqual([]);
    },
    scenarioTimeoutMs,
  );
});
