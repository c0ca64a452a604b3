import {
  findSeverityByName,
  type SeverityInputs,
  severityFromApi,
  severityInputs,
  severityPayload,
  severityProvider,
} from "../../resources/severity";
import { expectCheckFailure, useSettingsEmulator } from "../fixtures/settings/emulator";
import { expectWarned } from "../support/checkWarnings";
import { expectShape } from "../support/emulator";
import { expectReadsByPage, type Managed } from "../support/pagedReads";

const parse = (raw: Record<string, unknown>): SeverityInputs => severityInputs.parse(raw);
const canonical = (args: SeverityInputs) => severityProvider.spec.canonical?.(args) ?? args;
const ae = useSettingsEmulator();
const show = async (id: string) => (await ae.ok("GET", `/v1/severities/${id}`)).severity;

describe("mapping", () => {
  test("payload has the reference shape (create and update); an unset rank is not sent", () => {
    const ranked = severityPayload(parse({ name: "Major", description: "Customers notice", rank: 2 }));
    expect(ranked).toEqual({ name: "Major", description: "Customers notice", rank: 2 });
    expectShape("SeveritiesCreatePayloadV1", ranked);
    expectShape("SeveritiesUpdatePayloadV1", ranked);
    expect(severityPayload(parse({ name: "Minor" }))).toEqual({ name: "Minor", description: "" });
  });
});

describe('rule "unmanaged rank" (against the emulator\'s read-back)', () => {
  test("an unset rank reads back unset (the API's rank is `currentRank`), a set one as live", async () => {
    const created = (await ae.ok("POST", "/v1/severities", severityPayload(parse({ name: "Vector" }))))
      .severity;
    expectShape("SeverityV1", created);
    expect(created.rank).toBeGreaterThan(0); // ranked by the API
    expect(severityFromApi(created, parse({ name: "Vector" })).rank).toBeUndefined();
    expect(severityProvider.spec.computed(created, undefined)).toEqual({ currentRank: created.rank });
    // Declared: the live rank is compared, so a different one is drift.
    const declared = parse({ name: "Vector", rank: created.rank + 5 });
    expect(canonical(severityFromApi(created, declared))).not.toEqual(canonical(declared));
    await ae.ok("DELETE", `/v1/severities/${created.id}`);
  });
});

describe("check (zero API calls)", () => {
  test.each([
    [{}, "name"],
    [{ name: "S", rank: 1.5 }, "rank"],
    [{ name: "S", rank: "1" }, "rank"],
    [{ name: "S", description: 5 }, "description"],
    [{ name: "S", level: "high" }, "level"],
  ])("%j fails at %s", async (inputs, property) => {
    await expectCheckFailure(ae, severityProvider.check!, inputs, property);
  });

  // No published rule forbids these (issue 28): passed on, warned about at the input path.
  test.each([
    [{ name: "" }, "name", /is empty/],
    [{ name: "   " }, "name", /is only whitespace/],
    [{ name: "S", rank: -1 }, "rank", /is negative/],
  ] as [
    Record<string, unknown>,
    string,
    RegExp,
  ][])("%j is passed on with a warning at %s", async (inputs, path, reason) => {
    await expectWarned(severityProvider, inputs, path, reason);
  });
});

describe("provider against the emulator", () => {
  test("create → read (no diff) → out-of-band change is drift → update → delete; lookup", async () => {
    const inputs = parse({ name: "Critical", description: "Everything is down", rank: 30 });
    const created = await severityProvider.create!(inputs);
    expect(created.outs).toMatchObject({ name: "Critical", rank: 30, currentRank: 30 });
    const read = await severityProvider.read!(created.id, created.outs);
    const mark = ae.emu.requests.length;
    expect((await severityProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);
    expect(ae.emu.requests.length).toBe(mark);

    await ae.ok("PUT", `/v1/severities/${created.id}`, { name: "Critical", description: "edited", rank: 31 });
    const drifted = await severityProvider.read!(created.id, read.props!);
    expect(drifted.props).toMatchObject({ description: "edited", rank: 31 });
    expect((await severityProvider.diff!(created.id, drifted.props!, inputs)).changes).toBe(true);
    await severityProvider.update!(created.id, drifted.props!, inputs);
    expect(await show(created.id)).toMatchObject({ description: "Everything is down", rank: 30 });

    expect(await findSeverityByName(ae.dashboard, "Critical")).toEqual({
      id: created.id,
      name: "Critical",
      description: "Everything is down",
      rank: 30,
    });
    await expect(findSeverityByName(ae.dashboard, "critical")).rejects.toThrow(/did you mean "Critical"/);

    await severityProvider.delete!(created.id, drifted.props!);
    expect((await ae.api("GET", `/v1/severities/${created.id}`)).status).toBe(404);
    expect((await severityProvider.read!(created.id, drifted.props!)).id).toBe("");
  });

  test("an unset rank is not managed: a rank changed in the dashboard is no drift, and an update keeps it", async () => {
    const inputs = parse({ name: "Unranked", description: "d" });
    const created = await severityProvider.create!(inputs);
    await ae.ok("PUT", `/v1/severities/${created.id}`, { name: "Unranked", description: "d", rank: 77 });
    const read = await severityProvider.read!(created.id, created.outs);
    expect(read.props).toMatchObject({ currentRank: 77 });
    expect(read.props!.rank).toBeUndefined();
    expect((await severityProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);
    await severityProvider.update!(created.id, read.props!, { ...inputs, description: "changed" });
    expect(await show(created.id)).toMatchObject({ description: "changed", rank: 77 });
    await severityProvider.delete!(created.id, read.props!);
  });

  test("Severity.get (a read with nothing declared): the outputs carry the rank the severity holds", async () => {
    const existing = (
      await ae.ok("POST", "/v1/severities", { name: "Read only", description: "d", rank: 42 })
    ).severity;
    const read = await severityProvider.read!(existing.id, {});
    expect(read.props).toMatchObject({ name: "Read only", description: "d", rank: 42, currentRank: 42 });
    // Read-only: no inputs given back, and its refresh's diff is never a change.
    expect(read.inputs).toBeUndefined();
    expect((await severityProvider.diff!(existing.id, read.props!, {})).changes).toBe(false);
  });

  test("two severities of one name: the lookup names both ids", async () => {
    const a = (await ae.ok("POST", "/v1/severities", { name: "Twin", description: "" })).severity;
    const b = (await ae.ok("POST", "/v1/severities", { name: "Twin", description: "" })).severity;
    await expect(findSeverityByName(ae.dashboard, "Twin")).rejects.toThrow(
      new RegExp(`shared by 2 objects \\(${a.id}, ${b.id}\\)`),
    );
  });

  test("adoption by id: no create, the existing severity is updated to the declaration", async () => {
    const existing = (await ae.ok("POST", "/v1/severities", { name: "Minor", description: "old" })).severity;
    const mark = ae.emu.requests.length;
    const adopted = await severityProvider.create!(
      parse({ name: "Minor", description: "new", adoptId: existing.id }),
    );
    expect(adopted.id).toBe(existing.id);
    expect(ae.providerCalls(mark).filter((c) => c.startsWith("POST"))).toEqual([]);
    expect(await show(existing.id)).toMatchObject({ description: "new", rank: existing.rank });
    await expect(
      severityProvider.create!(parse({ name: "Minor", adoptId: "01NOSUCHSEVERITY" })),
    ).rejects.toThrow(/adoptId "01NOSUCHSEVERITY": no severity with that id exists/);
  });
});

describe("reads by page (provider/pagedReads.ts)", () => {
  test("a refresh of 30 severities: one GET and one list request (unpaginated), the same read-back; a deletion out of band is seen", async () => {
    const objects: Managed[] = [];
    for (let i = 0; i < 30; i++) {
      // Half of them declare their rank (compared), half leave it unmanaged.
      const inputs = parse({ name: `Paged ${i}`, description: `d${i}`, ...(i % 2 ? { rank: 100 + i } : {}) });
      const created = await severityProvider.create!(inputs);
      objects.push({ id: created.id, outs: created.outs });
    }
    const counts = await expectReadsByPage(ae, severityProvider, objects, (o) =>
      ae.ok("DELETE", `/v1/severities/${o.id}`),
    );
    expect(counts).toMatchObject({ bound: 2, requests: 2, afterDeletion: 3 });
  });
});
