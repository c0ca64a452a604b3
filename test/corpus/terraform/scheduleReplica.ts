import { dailyRotation, stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/incident_schedule_replica_resource_test.go";

/**
 * `testAccScheduleReplicaResourceConfig`: a schedule, its rotation (the Terraform provider's own
 * `incident_schedule_rotation`; here inline in the Schedule, with the layer id the test reads from
 * the API set instead), and the replica. The external provider's values come from the test's
 * environment (`TF_ACC_REPLICA_*`); these are the examples of this provider's documentation.
 */
const config = (mirrorWindowDays: number): TfResource[] => [
  {
    name: "schedule.test",
    kind: "Schedule",
    inputs: () => ({
      name: stable("Test Schedule for Replica"),
      timezone: "Europe/London",
      // `users = ["NOBODY"]`: a placeholder; a seeded user here.
      rotations: [dailyRotation([{ id: "01USERADA" }], "primary-layer")],
    }),
  },
  {
    name: "schedule_replica.test",
    kind: "ScheduleReplica",
    inputs: (r) => ({
      scheduleId: r.id("schedule.test"),
      replicaProvider: "pagerduty",
      replicaProviderId: "PO8107X",
      replicaFallbackUserId: "PA7AXXN",
      mirrorWindowDays,
      sources: [{ rotationId: "primary", layerId: "primary-layer" }],
    }),
  },
];

/** incident_schedule_replica: a replica mirroring 14 days, then 21. */
export const corpus: TfCorpus = {
  resource: "incident_schedule_replica",
  cases: [
    {
      file,
      test: "TestAccIncidentScheduleReplicaResource",
      configs: [
        { step: "create: 14 days", resources: config(14) },
        { step: "update: 21 days (a replacement here)", resources: config(21) },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentScheduleReplicaResource",
      what: '`incident_schedule_rotation` (the rotation as a resource of its own) and `users = ["NOBODY"]`',
      why: "this provider has no rotation resource: the rotation is written inline in the Schedule (its layer id declared, where the Terraform test reads one off the API), with a seeded user for the placeholder",
    },
    {
      file,
      test: "TestAccIncidentScheduleReplicaResource_InvalidImportID",
      why: "an import expected to fail, not a configuration (its config is the one translated above); the counterpart, an `adoptId` not of the form `<scheduleId>/<replicaId>`, is refused at check",
    },
  ],
};
