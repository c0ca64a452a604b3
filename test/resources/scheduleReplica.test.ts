import {
  type ScheduleReplicaInputs,
  scheduleReplicaCreatePayload,
  scheduleReplicaFromApi,
  scheduleReplicaInputs,
  scheduleReplicaProvider,
} from "../../resources/scheduleReplica";
import { expectCheckFailure, makeSchedule } from "../fixtures/settings/emulator";
import { useAlertEmulator } from "../support/alertEmulator";
import { expectWarned } from "../support/checkWarnings";
import { expectShape } from "../support/emulator";

const parse = (raw: Record<string, unknown>): ScheduleReplicaInputs => scheduleReplicaInputs.parse(raw);
const canonical = scheduleReplicaProvider.spec.canonical!;
const provider = scheduleReplicaProvider;
// Request bodies of the schedules and their replicas held to their exact reference shapes.
const ae = useAlertEmulator({
  strictPaths: /^\/v2\/schedules(\/|$)/,
  dashboardRoles: ["global_access"],
});
let scheduleId: string;
let layerId: string;
beforeAll(async () => {
  scheduleId = await makeSchedule(ae, "Primary");
  layerId = (await ae.ok("GET", `/v2/schedules/${scheduleId}`)).schedule.config.rotations[0].layers[0].id;
});
const declaration = (more: Record<string, unknown> = {}) =>
  parse({
    scheduleId,
    replicaProvider: "pagerduty",
    replicaProviderId: "PO8107X",
    replicaFallbackUserId: "PA7AXXN",
    sources: [{ rotationId: "rota-1", layerId }],
    ...more,
  });
const show = async (id: string) =>
  (await ae.ok("GET", `/v2/schedules/${id.replace("/", "/replicas/")}`)).schedule_replica;

describe("mapping", () => {
  test("the create is wrapped, sources once each, an unset window left out; the shape is the reference's", () => {
    const args = parse({
      scheduleId: "s",
      replicaProvider: "opsgenie",
      replicaProviderId: "9b1c-external",
      replicaFallbackUserId: "fallback-1",
      sources: [
        { rotationId: "r2", layerId: "l1" },
        { rotationId: "r1", layerId: "l1" },
        { rotationId: "r2", layerId: "l1" },
      ],
    });
    const payload = scheduleReplicaCreatePayload(args);
    expect(payload).toEqual({
      schedule_replica: {
        replica_provider: "opsgenie",
        replica_provider_id: "9b1c-external",
        replica_fallback_user_id: "fallback-1",
        sources: [
          { rotation_id: "r1", layer_id: "l1" },
          { rotation_id: "r2", layer_id: "l1" },
        ],
      },
    });
    expectShape("SchedulesCreateScheduleReplicaPayloadV2", payload);
    expect(scheduleReplicaCreatePayload({ ...args, mirrorWindowDays: 30 }).schedule_replica).toMatchObject({
      mirror_window_days: 30,
    });
  });

  test('read-back: "set with repeats" (sources) and "server default" (a window of 14 is unset)', () => {
    const live = {
      id: "01REPLICA",
      schedule_id: "s",
      replica_provider: "pagerduty" as const,
      replica_provider_id: "PO8107X",
      replica_fallback_user_id: "PA7AXXN",
      mirror_window_days: 14,
      sources: [
        { rotation_id: "r1", layer_id: "l1" },
        { rotation_id: "r2", layer_id: "l2" },
      ],
      user_statuses: [{ user_id: "01USERADA" }],
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
    };
    expectShape("ScheduleReplicaV2", live);
    const declared = parse({
      scheduleId: "s",
      replicaProvider: "pagerduty",
      replicaProviderId: "PO8107X",
      replicaFallbackUserId: "PA7AXXN",
      sources: [
        { rotationId: "r2", layerId: "l2" },
        { rotationId: "r1", layerId: "l1" },
        { rotationId: "r2", layerId: "l2" },
      ],
    });
    const read = scheduleReplicaFromApi(live, declared);
    expect(read).toEqual(declared);
    // Nothing declared (a get, an export): the window as it is.
    expect(scheduleReplicaFromApi(live, undefined).mirrorWindowDays).toBe(14);
    expect(canonical(scheduleReplicaFromApi(live, undefined))).toEqual(canonical(declared));
    // Declared 14 and unset compare equal; another window is another replica.
    expect(canonical({ ...declared, mirrorWindowDays: 14 })).toEqual(canonical(declared));
    expect(scheduleReplicaFromApi({ ...live, mirror_window_days: 30 }, declared).mirrorWindowDays).toBe(30);
    expect(scheduleReplicaFromApi({ ...live, sources: live.sources.slice(1) }, declared).sources).toEqual([
      { rotationId: "r2", layerId: "l2" },
    ]);
  });
});

describe("check (zero API calls)", () => {
  const ok = {
    scheduleId: "s",
    replicaProvider: "pagerduty",
    replicaProviderId: "PO8107X",
    replicaFallbackUserId: "PA7AXXN",
    sources: [{ rotationId: "r", layerId: "l" }],
  };
  test.each([
    [{ ...ok, scheduleId: undefined }, "scheduleId", /./],
    [{ ...ok, replicaProviderId: undefined }, "replicaProviderId", /./],
    [{ ...ok, sources: [{ rotationId: "r" }] }, "sources", /layerId/],
    [{ ...ok, mirrorWindowDays: 91 }, "mirrorWindowDays", /at most 90/],
    [{ ...ok, mirrorWindowDays: 7.5 }, "mirrorWindowDays", /whole number/],
    [{ ...ok, adoptId: "01REPLICA" }, "adoptId", /<scheduleId>\/<replicaId>/],
    [{ ...ok, adoptId: "other/01REPLICA" }, "adoptId", /not scheduleId s/],
  ])("%j fails at %s", async (inputs, property, reason) => {
    await expectCheckFailure(ae, provider.check!, inputs, property, reason);
  });

  // No published rule forbids these (issue 28): passed on, warned about at the input path.
  test.each([
    [
      { ...ok, replicaProvider: "victorops" },
      "replicaProvider",
      /"victorops" is not a value the API is known to take/,
    ],
    [
      { ...ok, replicaProviderId: "https://acme.pagerduty.com/schedules/PO8107X" },
      "replicaProviderId",
      /does not look like the external schedule's id/,
    ],
    [{ ...ok, replicaFallbackUserId: "" }, "replicaFallbackUserId", /is empty/],
    [{ ...ok, sources: [] }, "sources", /names no rotation layer/],
    [{ ...ok, mirrorWindowDays: 0 }, "mirrorWindowDays", /is less than 1 day/],
  ] as [
    Record<string, unknown>,
    string,
    RegExp,
  ][])("%j is passed on with a warning at %s", async (inputs, path, reason) => {
    await expectWarned(provider, inputs, path, reason);
  });
});

describe("provider against the emulator", () => {
  test("create → read no diff → out-of-band delete is gone → every change replaces, create first → delete", async () => {
    const inputs = declaration({
      sources: [
        { rotationId: "rota-1", layerId },
        { rotationId: "rota-1", layerId },
      ],
    });
    const created = await provider.create!(inputs);
    const replicaId = created.id.split("/")[1]!;
    expect(created.id).toBe(`${scheduleId}/${replicaId}`);
    expect(created.outs).toMatchObject({ replicaId, sources: inputs.sources });
    expect(created.outs.mirrorWindowDays).toBeUndefined();
    expect(await show(created.id)).toMatchObject({ mirror_window_days: 14, replica_provider: "pagerduty" });
    const read = await provider.read!(created.id, created.outs);
    expect(read.id).toBe(created.id);
    expect((await provider.diff!(created.id, read.props!, inputs)).changes).toBe(false);

    for (const [key, value] of Object.entries({
      scheduleId: "01OTHERSCHEDULE",
      replicaProvider: "jsm",
      replicaProviderId: "PO0000X",
      replicaFallbackUserId: "POTHER",
      sources: [],
      mirrorWindowDays: 30,
    })) {
      const diff = await provider.diff!(created.id, read.props!, { ...inputs, [key]: value });
      expect({ key, replaces: diff.replaces, deleteBeforeReplace: diff.deleteBeforeReplace }).toEqual({
        key,
        replaces: [key],
        deleteBeforeReplace: false,
      });
    }
    // Create-before-delete: two replicas of one schedule, onto the same external schedule, at once.
    const replacement = await provider.create!({ ...inputs, mirrorWindowDays: 30 });
    await provider.delete!(created.id, read.props!);
    expect((await provider.read!(created.id, read.props!)).id).toBe("");
    expect(await show(replacement.id)).toMatchObject({ mirror_window_days: 30 });

    // Deleted out of band: read as gone; deleting it again is done.
    await ae.ok("DELETE", `/v2/schedules/${replacement.id.replace("/", "/replicas/")}`);
    expect((await provider.read!(replacement.id, replacement.outs)).id).toBe("");
    await provider.delete!(replacement.id, replacement.outs);
  });

  test("API refusals name the input: a rotation or a layer not in the schedule (422); an unknown schedule (404)", async () => {
    const rotation = await provider.create!(
      declaration({ sources: [{ rotationId: "nope", layerId }] }),
    ).catch((e) => e);
    expect(rotation.message).toMatch(/sources\[0\]\.rotationId: no rotation nope/);
    const layer = await provider.create!(
      declaration({ sources: [{ rotationId: "rota-1", layerId: "01NOLAYER" }] }),
    ).catch((e) => e);
    expect(layer.message).toMatch(/sources\[0\]\.layerId: no layer 01NOLAYER/);
    const schedule = await provider.create!(declaration({ scheduleId: "01NOSCHEDULE" })).catch((e) => e);
    expect(schedule.message).toMatch(/404/);
  });

  test("a schedule with a replica cannot be deleted (the reference); once the replica is gone it can", async () => {
    const other = await makeSchedule(ae, "Mirrored");
    const otherLayer = (await ae.ok("GET", `/v2/schedules/${other}`)).schedule.config.rotations[0].layers[0]
      .id;
    const replica = await provider.create!(
      declaration({ scheduleId: other, sources: [{ rotationId: "rota-1", layerId: otherLayer }] }),
    );
    expect((await ae.api("DELETE", `/v2/schedules/${other}`)).status).toBe(422);
    await provider.delete!(replica.id, replica.outs);
    expect((await ae.api("DELETE", `/v2/schedules/${other}`)).status).toBe(204);
    expect((await ae.api("GET", `/v2/schedules/${replica.id.replace("/", "/replicas/")}`)).status).toBe(404);
  });

  test("adoption by id (`<scheduleId>/<replicaId>`) writes nothing; one that differs is refused, naming the inputs", async () => {
    const existing = (
      await ae.ok("POST", `/v2/schedules/${scheduleId}/replicas`, {
        schedule_replica: {
          replica_provider: "pagerduty",
          replica_provider_id: "PO8107X",
          replica_fallback_user_id: "PA7AXXN",
          sources: [{ rotation_id: "rota-1", layer_id: layerId }],
        },
      })
    ).schedule_replica;
    const adoptId = `${scheduleId}/${existing.id}`;
    const mark = ae.emu.requests.length;
    const adopted = await provider.create!(declaration({ adoptId }));
    expect(adopted.id).toBe(adoptId);
    expect(ae.providerCalls(mark).filter((c) => !c.startsWith("GET"))).toEqual([]);
    expect((await provider.diff!(adopted.id, adopted.outs, declaration())).changes).toBe(false);

    const refused = await provider.create!(
      declaration({ adoptId, mirrorWindowDays: 60, replicaFallbackUserId: "POTHER" }),
    ).catch((e) => e);
    expect(refused.message).toMatch(
      /differs from the declaration in replicaFallbackUserId, mirrorWindowDays/,
    );
    expect(ae.providerCalls(mark).filter((c) => !c.startsWith("GET"))).toEqual([]);
    await provider.delete!(adopted.id, adopted.outs);
  });
});
