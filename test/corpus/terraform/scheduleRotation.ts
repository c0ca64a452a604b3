import { stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/incident_schedule_rotation_acceptance_test.go";

/**
 * `testAccIncidentScheduleRotationConfig` (and `…WithWorkingIntervals`): v7's rotation as a resource
 * of its own, under a schedule. This provider writes a schedule's rotations inline, so each config
 * is the Schedule holding that rotation: `first_interval_starts_at` is the version's
 * `handoverStartAt`, `concurrent_shifts` its number of layers (one person on call per layer), and the
 * `NOBODY` sentinel of the line-up a seeded user each (see notTranslated).
 */
const config = (withWorkingIntervals: boolean): TfResource[] => [
  {
    name: "schedule.test",
    kind: "Schedule",
    inputs: () => ({
      name: stable("acc-rotation-schedule"),
      timezone: "Europe/London",
      rotations: [
        {
          id: "primary",
          name: "Primary",
          versions: [
            withWorkingIntervals
              ? {
                  handoverStartAt: "2024-01-08T09:00:00Z",
                  handovers: [{ interval: 1, intervalType: "daily" }],
                  users: [{ id: "01USERADA" }, { id: "01USERBOB" }, { id: "01USERCAT" }],
                  layers: [{ name: "Layer 1" }, { name: "Layer 2" }],
                  schedulingMode: "sequential",
                  workingIntervals: [
                    { weekday: "monday", startTime: "09:00", endTime: "17:00" },
                    { weekday: "tuesday", startTime: "09:00", endTime: "17:00" },
                  ],
                }
              : {
                  handoverStartAt: "2024-01-08T09:00:00Z",
                  handovers: [{ interval: 1, intervalType: "weekly" }],
                  users: [{ id: "01USERADA" }],
                  layers: [{ name: "Layer 1" }],
                },
          ],
        },
      ],
    }),
  },
];

/** incident_schedule_rotation (v7): a rotation, then two on call at once in working hours, then back. */
export const corpus: TfCorpus = {
  resource: "incident_schedule_rotation",
  cases: [
    {
      file,
      test: "TestAccIncidentScheduleRotation",
      configs: [
        { step: "create: weekly, one person", resources: config(false) },
        {
          step: "update: daily, two on call at once, sequential, Monday and Tuesday working hours",
          resources: config(true),
        },
        { step: "update: back around the clock (working_intervals left out)", resources: config(false) },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentScheduleRotation",
      what: "the rotation as a resource of its own, its `rank`, and the `NOBODY` sentinel in its `users`",
      why: "this provider has no rotation resource (a Schedule holds its rotations inline, in the order written: no rank) and its emulator knows no NOBODY user (a v2 schedule's `users` are user references it checks): a seeded user stands for each NOBODY. The Terraform test shows the service takes NOBODY in a v3 rotation; whether a v2 schedule does is not published",
    },
  ],
};
