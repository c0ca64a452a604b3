import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { closeAllConnections } from "../../provider/client";
import { setCredentials } from "../../provider/credentials";
import {
  type ApiSchedule,
  canonicalSchedule,
  getSchedule,
  keepDeclaredInstant,
  type ScheduleInputs,
  scheduleFieldToInput,
  scheduleFromApi,
  scheduleInputs,
  schedulePayload,
  scheduleProvider,
} from "../../resources/schedule";
import { type MiniServer, startMiniServer } from "../fixtures/escalationPath/miniServer";
import { shapeProblems } from "../fixtures/escalationPath/referenceShape";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const past = iso(Date.now() - 30 * DAY);
const future = iso(Date.now() + 30 * DAY);

const declared: ScheduleInputs = scheduleInputs.parse({
  name: "Platform",
  timezone: "Europe/London",
  teamIds: ["team-b", "team-a"],
  holidaysPublicConfig: { countryCodes: ["GB"] },
  rotations: [
    {
      id: "primary",
      name: "Primary",
      versions: [
        {
          handoverStartAt: "2026-01-05T09:00:00+01:00",
          handovers: [{ interval: 1, intervalType: "weekly" }],
          users: [{ id: "u_1" }, { email: "Bob@Example.com" }],
          layers: [{ name: "Layer 1" }],
          workingIntervals: [{ weekday: "monday", startTime: "09:00", endTime: "17:00" }],
        },
        {
          effectiveFrom: future,
          handoverStartAt: "2026-01-05T08:00:00Z",
          handovers: [
            { interval: 1, intervalType: "daily" },
            { interval: 3, intervalType: "daily" },
          ],
          users: [{ id: "u_2" }],
          layers: [{ id: "primary-l1", name: "Layer 1" }],
          schedulingMode: "fair",
        },
      ],
    },
  ],
});

const people: Record<string, { id: string; name: string; email: string }> = {
  u_1: { id: "u_1", name: "Ada", email: "ada@example.com" },
  u_2: { id: "u_2", name: "Bob", email: "bob@example.com" },
};

/**
 * What the API answers for a payload, with the real read-back quirks: timestamps in UTC, a write
 * time stamped on a version without effective_from, users as full objects, server layer ids, the
 * deprecated `working_interval` mirror, `scheduling_mode: "sequential"` by default, team ids reordered.
 */
function liveFor(payload: any, id = "sch_1", writtenAt = past): ApiSchedule {
  const s = payload.schedule;
  return {
    id,
    name: s.name,
    timezone: s.timezone,
    annotations: {},
    config: {
      rotations: s.config.rotations.map((r: any, i: number) => ({
        id: r.id,
        name: r.name,
        effective_from: r.effective_from ? iso(Date.parse(r.effective_from)) : writtenAt,
        handover_start_at: iso(Date.parse(r.handover_start_at)),
        handovers: r.handovers,
        layers: r.layers.map((l: any, j: number) => ({ id: l.id ?? `lay_${i}_${j}`, name: l.name })),
        users: r.users.map((u: any) => ({
          ...(u.id ? people[u.id] : Object.values(people).find((p) => p.email === u.email.toLowerCase())),
          role: "responder",
        })),
        working_intervals: r.working_intervals ?? [],
        working_interval: r.working_intervals ?? [],
        scheduling_mode: r.scheduling_mode ?? "sequential",
      })),
    },
    holidays_public_config: s.holidays_public_config,
    team_ids: [...s.team_ids].reverse(),
    permalink: `https://app.example/schedules/${id}`,
    created_at: past,
    updated_at: past,
  };
}

describe("mapping", () => {
  test("payload has the reference shapes (create and update), every version sent", () => {
    const payload = schedulePayload(declared);
    expect(shapeProblems(payload.schedule, "ScheduleCreatePayloadV2")).toEqual([]);
    expect(shapeProblems(payload.schedule, "ScheduleUpdatePayloadV2")).toEqual([]);
    expect(payload.schedule.config.rotations).toHaveLength(2);
    expect(payload.schedule.config.rotations[1]).toMatchObject({
      id: "primary",
      name: "Primary",
      effective_from: future,
      scheduling_mode: "fair",
    });
    expect(payload.schedule.config.rotations[0].users).toEqual([{ id: "u_1" }, { email: "Bob@Example.com" }]);
  });

  test("update sends the live layer ids of layers declared without one (fetch first)", () => {
    const live = liveFor(schedulePayload(declared));
    const payload = schedulePayload(declared, live);
    expect(payload.schedule.config.rotations[0].layers).toEqual([{ id: "lay_0_0", name: "Layer 1" }]);
    expect(payload.schedule.config.rotations[1].layers).toEqual([{ id: "primary-l1", name: "Layer 1" }]);
  });

  test("the emulated read-back has the reference shape and reads back as declared (no diff)", async () => {
    const live = liveFor(schedulePayload(declared));
    expect(shapeProblems(live, "ScheduleV2")).toEqual([]);
    const back = scheduleFromApi(live, declared);
    expect(back).toEqual(JSON.parse(JSON.stringify(declared)));
    const d = await scheduleProvider.diff!("sch_1", { ...back }, { ...declared });
    expect(d.changes).toBe(false);
  });

  test("422 fields of the flattened rotations name the input path", () => {
    expect(scheduleFieldToInput("schedule.config.rotations.1.handovers.1.interval", declared)).toBe(
      "rotations.0.versions.1.handovers.1.interval",
    );
    expect(scheduleFieldToInput("config.rotations.0.name", declared)).toBe("rotations.0.name");
    expect(scheduleFieldToInput("schedule.timezone", declared)).toBe("timezone");
  });
});

describe("normalisation rules", () => {
  test('rule "timestamps by instant"', () => {
    expect(keepDeclaredInstant("2026-01-05T08:00:00Z", "2026-01-05T09:00:00+01:00")).toBe(
      "2026-01-05T09:00:00+01:00",
    );
    expect(keepDeclaredInstant("2026-01-05T08:00:01Z", "2026-01-05T09:00:00+01:00")).toBe(
      "2026-01-05T08:00:01Z",
    );
  });

  test('rule "first version in effect from creation": the stamped write time reads back unset', () => {
    const back = scheduleFromApi(liveFor(schedulePayload(declared)), declared);
    expect(back.rotations[0]?.versions[0]?.effectiveFrom).toBeUndefined();
  });

  test('rule "users by e-mail": a user declared by e-mail reads back by e-mail', () => {
    const back = scheduleFromApi(liveFor(schedulePayload(declared)), declared);
    expect(back.rotations[0]?.versions[0]?.users).toEqual([{ id: "u_1" }, { email: "Bob@Example.com" }]);
    // Someone else in that place is drift, reported by id.
    const live = liveFor(schedulePayload(declared));
    (live.config as any).rotations[0].users[1] = {
      id: "u_9",
      name: "Eve",
      email: "eve@example.com",
      role: "viewer",
    };
    expect(scheduleFromApi(live, declared).rotations[0]?.versions[0]?.users[1]).toEqual({ id: "u_9" });
  });

  test('rule "server-assigned layer ids": omitted ids stay omitted, declared ids are compared', () => {
    const back = scheduleFromApi(liveFor(schedulePayload(declared)), declared);
    expect(back.rotations[0]?.versions[0]?.layers).toEqual([{ name: "Layer 1" }]);
    expect(back.rotations[0]?.versions[1]?.layers).toEqual([{ id: "primary-l1", name: "Layer 1" }]);
  });

  test('rule "default scheduling mode": "sequential" answered for an omitted mode reads back unset', () => {
    const back = scheduleFromApi(liveFor(schedulePayload(declared)), declared);
    expect(back.rotations[0]?.versions[0]?.schedulingMode).toBeUndefined();
    expect(back.rotations[0]?.versions[1]?.schedulingMode).toBe("fair");
  });

  test('rule "superseded versions": versions the API dropped once a later one took effect read back as declared', () => {
    const args = scheduleInputs.parse({
      ...declared,
      rotations: [
        {
          ...declared.rotations[0],
          versions: [
            declared.rotations[0]?.versions[0],
            { ...declared.rotations[0]?.versions[1], effectiveFrom: past },
          ],
        },
      ],
    });
    const live = liveFor(schedulePayload(args));
    (live.config as any).rotations.shift(); // the API prunes the superseded first version
    expect(scheduleFromApi(live, args)).toEqual(JSON.parse(JSON.stringify(args)));
  });

  test('rule "holidays unmanaged when omitted" (TF #271)', () => {
    const args = scheduleInputs.parse({ ...declared, holidaysPublicConfig: undefined });
    const live = liveFor(schedulePayload(args));
    live.holidays_public_config = { country_codes: ["DE"] }; // set in the dashboard
    expect(scheduleFromApi(live, args).holidaysPublicConfig).toBeUndefined();
    // Declared holidays are compared.
    expect(scheduleFromApi(live, declared).holidaysPublicConfig).toEqual({ countryCodes: ["DE"] });
  });

  test('rule "unordered sets": team ids', () => {
    expect(canonicalSchedule({ ...declared, teamIds: ["a", "b"] })).toEqual(
      canonicalSchedule({ ...declared, teamIds: ["b", "a"] }),
    );
  });

  test("a time zone change replaces the schedule; other changes are in place", async () => {
    const tz = await scheduleProvider.diff!("sch_1", { ...declared }, { ...declared, timezone: "UTC" });
    expect(tz).toMatchObject({ changes: true, replaces: ["timezone"] });
    const name = await scheduleProvider.diff!("sch_1", { ...declared }, { ...declared, name: "Other" });
    expect(name).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("check", () => {
  beforeAll(() => setCredentials({ apiKey: "check", baseUrl: "http://127.0.0.1:9" }));
  const version = {
    handoverStartAt: "2026-01-05T09:00:00Z",
    handovers: [{ interval: 1, intervalType: "weekly" }],
    users: [{ id: "u_1" }],
    layers: [{ name: "L" }],
  };
  const base = { name: "s", timezone: "UTC", rotations: [{ id: "r", name: "R", versions: [version] }] };
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["bad time zone", { ...base, timezone: "Mars/Base" }, "timezone", /^timezone: must be an IANA time zone/],
    [
      "bad handover interval type",
      {
        ...base,
        rotations: [
          {
            id: "r",
            name: "R",
            versions: [{ ...version, handovers: [{ interval: 1, intervalType: "monthly" }] }],
          },
        ],
      },
      "rotations",
      /^rotations\[0\]\.versions\[0\]\.handovers\[0\]\.intervalType: /,
    ],
    [
      "timestamp without offset",
      {
        ...base,
        rotations: [{ id: "r", name: "R", versions: [{ ...version, handoverStartAt: "2026-01-05 09:00" }] }],
      },
      "rotations",
      /^rotations\[0\]\.versions\[0\]\.handoverStartAt: must be an RFC 3339 timestamp/,
    ],
    [
      "user with id and email",
      {
        ...base,
        rotations: [
          { id: "r", name: "R", versions: [{ ...version, users: [{ id: "u", email: "a@b.co" }] }] },
        ],
      },
      "rotations",
      /^rotations\[0\]\.versions\[0\]\.users\[0\]: set exactly one of id or email/,
    ],
    [
      "empty working intervals",
      { ...base, rotations: [{ id: "r", name: "R", versions: [{ ...version, workingIntervals: [] }] }] },
      "rotations",
      /workingIntervals: omit workingIntervals instead/,
    ],
    [
      "later version without effectiveFrom",
      { ...base, rotations: [{ id: "r", name: "R", versions: [version, version] }] },
      "rotations",
      /^rotations\[0\]\.versions\[1\]\.effectiveFrom: required on every version but the first/,
    ],
    [
      "versions out of order",
      {
        ...base,
        rotations: [
          {
            id: "r",
            name: "R",
            versions: [
              { ...version, effectiveFrom: "2026-03-01T00:00:00Z" },
              { ...version, effectiveFrom: "2026-02-01T00:00:00Z" },
            ],
          },
        ],
      },
      "rotations",
      /^rotations\[0\]\.versions\[1\]\.effectiveFrom: must be later/,
    ],
    [
      "duplicate rotation ids",
      {
        ...base,
        rotations: [
          { id: "r", name: "R", versions: [version] },
          { id: "r", name: "S", versions: [version] },
        ],
      },
      "rotations",
      /^rotations\[1\]\.id: duplicate rotation id "r"/,
    ],
    [
      "bad country code",
      { ...base, holidaysPublicConfig: { countryCodes: ["gbr"] } },
      "holidaysPublicConfig",
      /^holidaysPublicConfig\.countryCodes\[0\]: must be an ISO 3166-1 alpha-2 code/,
    ],
    ["unknown property", { ...base, time_zone: "UTC" }, "time_zone", /unknown property/],
  ];
  test.each(cases)("%s", async (_title, inputs, property, reason) => {
    const result = await scheduleProvider.check!({}, { ...inputs, __provider: "shim" });
    const failures = result.failures ?? [];
    expect(failures.map((f) => f.property)).toContain(property);
    expect(failures.map((f) => f.reason).join("\n")).toMatch(new RegExp(reason.source, "m"));
  });

  test("a valid schedule passes", async () => {
    expect((await scheduleProvider.check!({}, { ...base, __provider: "shim" })).failures).toEqual([]);
  });
});

describe("provider against the emulator family", () => {
  let server: MiniServer;
  const program = (over: Record<string, unknown> = {}) => ({
    name: "Checkout",
    timezone: "Europe/Berlin",
    teamIds: ["t-2", "t-1"],
    rotations: [
      {
        id: "primary",
        name: "Primary",
        versions: [
          {
            handoverStartAt: "2026-01-05T09:00:00+01:00",
            handovers: [{ interval: 1, intervalType: "weekly" }],
            users: [{ id: "01USERADA" }, { email: "Bob@example.com" }],
            layers: [{ name: "Layer 1" }],
            workingIntervals: [{ weekday: "monday", startTime: "09:00", endTime: "17:00" }],
          },
          {
            effectiveFrom: future,
            handoverStartAt: "2026-01-05T09:00:00+01:00",
            handovers: [{ interval: 2, intervalType: "daily" }],
            users: [{ id: "01USERBOB" }],
            layers: [{ name: "Layer 1" }],
          },
        ],
      },
    ],
    ...over,
  });
  const checked = async (inputs: Record<string, unknown>) => {
    const r = await scheduleProvider.check!({}, { ...inputs, __provider: "shim" });
    expect(r.failures).toEqual([]);
    return r.inputs;
  };

  beforeAll(async () => {
    server = await startMiniServer();
    setCredentials({ apiKey: "test-key", baseUrl: server.url });
  });
  afterAll(async () => {
    await server.close();
    await closeAllConnections();
  });
  afterEach(() => expect(server.responseProblems).toEqual([]));

  test("create → no diff; out-of-band edit is drift; update restores, keeping layer ids; delete", async () => {
    const inputs = await checked(program());
    const created = await scheduleProvider.create!(inputs);
    const layerId = created.outs.layerIds.primary["Layer 1"];
    expect(layerId).toMatch(/^01LAYER/);
    expect(created.outs.permalink).toContain(created.id);
    const before = server.calls.length;
    expect((await scheduleProvider.diff!(created.id, created.outs, await checked(program()))).changes).toBe(
      false,
    );
    expect(server.calls.length).toBe(before);
    const read = await scheduleProvider.read!(created.id, created.outs);
    expect((await scheduleProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);

    // Dashboard edits: a user swapped, holidays added (holidays are not managed here: no drift).
    const stored = server.schedules.get(created.id)!;
    stored.schedule.config.rotations[0].users = [{ id: "01USERCAT" }];
    stored.schedule.holidays_public_config = { country_codes: ["DE"] };
    const drifted = await scheduleProvider.read!(created.id, read.props!);
    expect(drifted.inputs!.rotations[0].versions[0].users).toEqual([{ id: "01USERCAT" }]);
    expect(drifted.inputs!.holidaysPublicConfig).toBeUndefined();
    expect((await scheduleProvider.diff!(created.id, drifted.props!, inputs)).changes).toBe(true);

    const updated = await scheduleProvider.update!(created.id, drifted.props!, inputs);
    expect((await scheduleProvider.diff!(created.id, updated.outs!, inputs)).changes).toBe(false);
    const after = server.schedules.get(created.id)!.schedule;
    expect(after.config.rotations).toHaveLength(2); // the future version was sent again
    expect(after.config.rotations[0].layers[0].id).toBe(layerId); // layer ids kept (fetched first)
    expect(after.holidays_public_config).toEqual({ country_codes: ["DE"] }); // omitted = unchanged

    await scheduleProvider.delete!(created.id, updated.outs!);
    expect((await scheduleProvider.read!(created.id, updated.outs!)).id).toBe("");
  });

  test("the API refuses a time zone change: the provider replaces instead", async () => {
    const inputs = await checked(program({ name: "TZ" }));
    const created = await scheduleProvider.create!(inputs);
    const moved = await checked(program({ name: "TZ", timezone: "UTC" }));
    expect(await scheduleProvider.diff!(created.id, created.outs, moved)).toMatchObject({
      replaces: ["timezone"],
    });
    // Proof the emulator reproduces the API: an in-place update is rejected on the field.
    await expect(scheduleProvider.update!(created.id, created.outs, moved)).rejects.toThrow(
      /timezone: cannot be changed/,
    );
  });

  test("a 422 on a flattened rotation version names rotations[i].versions[j]", async () => {
    const inputs = await checked(
      program({
        name: "Bad user",
        rotations: [
          {
            id: "r",
            name: "R",
            versions: [
              {
                handoverStartAt: "2026-01-05T09:00:00Z",
                handovers: [{ interval: 1, intervalType: "daily" }],
                users: [{ id: "01USERNOBODY" }],
                layers: [{ name: "L" }],
              },
            ],
          },
        ],
      }),
    );
    await expect(scheduleProvider.create!(inputs)).rejects.toThrow(
      /rotations\[0\]\.versions\[0\]\.users\[0\]: no such user/,
    );
  });

  test("adoptId takes over an existing schedule", async () => {
    const made = (await scheduleProvider.create!(await checked(program({ name: "Elsewhere" })))).id;
    const inputs = await checked(program({ name: "Adopted", adoptId: made }));
    const adopted = await scheduleProvider.create!(inputs);
    expect(adopted.id).toBe(made);
    expect(server.schedules.get(made)!.schedule.name).toBe("Adopted");
    expect((await scheduleProvider.diff!(made, adopted.outs, inputs)).changes).toBe(false);
  });

  test("getSchedule finds a schedule by name, with its rotations", async () => {
    const made = await scheduleProvider.create!(await checked(program({ name: "Find me" })));
    process.env.INCIDENT_API_KEY = "test-key";
    process.env.INCIDENT_BASE_URL = server.url;
    const found = await getSchedule({ name: "Find me" });
    expect(found).toMatchObject({
      id: made.id,
      timezone: "Europe/Berlin",
      rotations: [{ id: "primary", name: "Primary" }],
    });
    await expect(getSchedule({ name: "Nope" })).rejects.toThrow(/getSchedule: no schedule is named "Nope"/);
  });
});

/**
 * Lifecycle through the real dynamic-provider host (test/harness). Skipped until the harness is in
 * the tree; it drives test/fixtures/schedule/program against the API stand-in.
 */
const harnessPath = path.join(__dirname, "../harness/index.ts");
(fs.existsSync(harnessPath) ? describe : describe.skip)("lifecycle through the harness", () => {
  const program = path.join(__dirname, "../fixtures/schedule/program");
  const stateFile = path.join(os.tmpdir(), `schedule-lifecycle-${process.pid}.json`);
  let server: MiniServer;
  let harness: any;
  const config = (over: Record<string, string> = {}) => ({
    "incident:apiKey": "lifecycle-key",
    "incident:baseUrl": server.url,
    ...over,
  });
  const ops = (result: any) => (result.steps ?? []).map((s: any) => s.op ?? s.kind);

  beforeAll(async () => {
    harness = require(harnessPath);
    server = await startMiniServer();
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(stateFile, { force: true });
  });

  test("create → same → out-of-band drift → restore → update → destroy; adoption", async () => {
    const first = await harness.up({ program, stateFile, config: config() });
    expect(first.errors ?? []).toEqual([]);
    const id = [...server.schedules.keys()][0] as string;
    const second = await harness.up({ program, stateFile, config: config() });
    expect(ops(second).filter((o: string) => o !== "same")).toEqual([]);
    expect((second.apiCalls ?? []).filter((c: any) => c.method !== "GET")).toEqual([]);

    server.schedules.get(id)!.schedule.config.rotations[0].handovers = [
      { interval: 5, interval_type: "daily" },
    ];
    expect(ops(await harness.refresh({ program, stateFile, config: config() }))).toContain("read-drift");
    await harness.up({ program, stateFile, config: config() });
    expect(server.schedules.get(id)!.schedule.config.rotations[0].handovers).toEqual([
      { interval: 1, interval_type: "weekly" },
    ]);

    await harness.up({ program, stateFile, config: config({ "schedule-lifecycle:variant": "updated" }) });
    expect(server.schedules.get(id)!.schedule.config.rotations).toHaveLength(2);
    expect(server.schedules.get(id)!.schedule.config.rotations[0].users).toHaveLength(3);

    await harness.destroy({ program, stateFile, config: config() });
    expect([...server.schedules.values()].every((s) => s.archived)).toBe(true);

    server.schedules.set(id, { ...server.schedules.get(id)!, archived: false });
    await harness.up({ program, stateFile, config: config({ "schedule-lifecycle:adoptId": id }) });
    expect([...server.schedules.values()].filter((s) => !s.archived).map((s) => s.id)).toEqual([id]);
    await harness.destroy({ program, stateFile, config: config() });
  });
});
