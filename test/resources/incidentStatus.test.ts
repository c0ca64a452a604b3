import {
  findIncidentStatusByName,
  type IncidentStatusInputs,
  incidentStatusCreatePayload,
  incidentStatusInputs,
  incidentStatusProvider,
  incidentStatusUpdatePayload,
} from "../../resources/incidentStatus";
import { expectCheckFailure, useSettingsEmulator } from "../fixtures/settings/emulator";
import { expectWarned } from "../support/checkWarnings";
import { expectShape } from "../support/emulator";
import { expectReadsByPage, type Managed } from "../support/pagedReads";

const parse = (raw: Record<string, unknown>): IncidentStatusInputs => incidentStatusInputs.parse(raw);
const ae = useSettingsEmulator();
const show = async (id: string) => (await ae.ok("GET", `/v1/incident_statuses/${id}`)).incident_status;

describe("mapping", () => {
  test("create payload carries the category, update payload has none (create-only)", () => {
    const args = parse({ name: "Monitoring", description: "Watching", category: "live" });
    expect(incidentStatusCreatePayload(args)).toEqual({
      name: "Monitoring",
      description: "Watching",
      category: "live",
    });
    expect(incidentStatusUpdatePayload(args)).toEqual({ name: "Monitoring", description: "Watching" });
    expectShape("IncidentStatusesCreatePayloadV1", incidentStatusCreatePayload(args));
    expectShape("IncidentStatusesUpdatePayloadV1", incidentStatusUpdatePayload(args));
    expect(incidentStatusProvider.spec.replaceOnChanges).toEqual(["category"]);
  });
});

describe("check (zero API calls)", () => {
  test.each([
    [{ category: "live" }, "name", /./],
    [{ name: "S" }, "category", /./],
    [
      { name: "S", category: "triage" },
      "category",
      /triage statuses are managed by the service and cannot be created or modified/,
    ],
    [{ name: "S", category: "declined" }, "category", /declined statuses are managed by the service/],
    [{ name: "S", category: "live", rank: 3 }, "rank", /./],
  ])("%j fails at %s", async (inputs, property, reason) => {
    await expectCheckFailure(ae, incidentStatusProvider.check!, inputs, property, reason);
  });

  // No published rule forbids these (issue 28): passed on, warned about at the input path.
  test.each([
    [
      { name: "S", category: "Live" },
      "category",
      /"Live" is not a value the API is known to take.*did you mean "live"/,
    ],
    [{ name: "", category: "live" }, "name", /is empty/],
  ] as [
    Record<string, unknown>,
    string,
    RegExp,
  ][])("%j is passed on with a warning at %s", async (inputs, path, reason) => {
    await expectWarned(incidentStatusProvider, inputs, path, reason);
  });
});

describe("provider against the emulator", () => {
  test("create → no diff → out-of-band change is drift → update → category change replaces → delete", async () => {
    const inputs = parse({ name: "Monitoring", description: "Watching", category: "live" });
    const created = await incidentStatusProvider.create!(inputs);
    expect(created.outs).toMatchObject({ name: "Monitoring", category: "live", rank: expect.any(Number) });
    const read = await incidentStatusProvider.read!(created.id, created.outs);
    expect((await incidentStatusProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);

    await ae.ok("PUT", `/v1/incident_statuses/${created.id}`, { name: "Monitoring", description: "edited" });
    const drifted = await incidentStatusProvider.read!(created.id, read.props!);
    expect((await incidentStatusProvider.diff!(created.id, drifted.props!, inputs)).changes).toBe(true);
    await incidentStatusProvider.update!(created.id, drifted.props!, inputs);
    expect(await show(created.id)).toMatchObject({ description: "Watching", category: "live" });

    const diff = await incidentStatusProvider.diff!(created.id, drifted.props!, {
      ...inputs,
      category: "learning",
    });
    expect(diff).toMatchObject({ changes: true, replaces: ["category"], deleteBeforeReplace: true });

    await incidentStatusProvider.delete!(created.id, drifted.props!);
    expect((await incidentStatusProvider.read!(created.id, drifted.props!)).id).toBe("");
  });

  test("names are unique: a duplicate is a 422 naming `name`", async () => {
    const error = await incidentStatusProvider.create!(
      parse({ name: "Investigating", category: "live" }),
    ).catch((e) => e);
    expect(error.message).toMatch(/name: an incident status named "Investigating" already exists/);
  });

  test("the service's own statuses: found by the lookup, refused for adoption before any write", async () => {
    const triage = await findIncidentStatusByName(ae.dashboard, "Triage");
    expect(triage).toMatchObject({ id: "01STATUSTRIAGE", category: "triage" });
    const mark = ae.emu.requests.length;
    await expect(
      incidentStatusProvider.create!(parse({ name: "Triage", category: "live", adoptId: triage.id })),
    ).rejects.toThrow(
      /01STATUSTRIAGE" is a triage status; statuses of that category are managed by the service/,
    );
    expect(ae.providerCalls(mark).filter((c) => !c.startsWith("GET"))).toEqual([]);
    // The emulator refuses the same write (what the API does).
    const refused = await ae.api("PUT", `/v1/incident_statuses/${triage.id}`, {
      name: "Triage",
      description: "x",
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].message).toMatch(/cannot be configured/);
  });

  test("adoption by id: the existing status is updated; another category is refused", async () => {
    const existing = (
      await ae.ok("POST", "/v1/incident_statuses", { name: "Fixing", description: "old", category: "live" })
    ).incident_status;
    const mark = ae.emu.requests.length;
    const adopted = await incidentStatusProvider.create!(
      parse({ name: "Fixing", description: "new", category: "live", adoptId: existing.id }),
    );
    expect(adopted.id).toBe(existing.id);
    expect(ae.providerCalls(mark).filter((c) => c.startsWith("POST"))).toEqual([]);
    expect(await show(existing.id)).toMatchObject({ description: "new" });
    await expect(
      incidentStatusProvider.create!(parse({ name: "Fixing", category: "closed", adoptId: existing.id })),
    ).rejects.toThrow(/is a live status; its category cannot change: declare category "live"/);
  });
});

describe("reads by page (provider/pagedReads.ts)", () => {
  test("a refresh of 30 statuses: one GET and one list request (unpaginated), the same read-back; a deletion out of band is seen", async () => {
    const objects: Managed[] = [];
    for (let i = 0; i < 30; i++) {
      const category = ["live", "learning", "closed"][i % 3];
      const created = await incidentStatusProvider.create!(
        parse({ name: `Paged ${i}`, description: `d${i}`, category }),
      );
      objects.push({ id: created.id, outs: created.outs });
    }
    const counts = await expectReadsByPage(ae, incidentStatusProvider, objects, (o) =>
      ae.ok("DELETE", `/v1/incident_statuses/${o.id}`),
    );
    expect(counts).toMatchObject({ bound: 2, requests: 2, afterDeletion: 3 });
  });
});
