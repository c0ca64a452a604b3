import * as path from "node:path";
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
