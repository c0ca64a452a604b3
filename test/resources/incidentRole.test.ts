import {
  findIncidentRoleByName,
  type IncidentRoleInputs,
  incidentRoleInputs,
  incidentRolePayload,
  incidentRoleProvider,
} from "../../resources/incidentRole";
import { expectCheckFailure, useSettingsEmulator } from "../fixtures/settings/emulator";
import { expectShape } from "../support/emulator";
import { expectReadsByPage, type Managed } from "../support/pagedReads";

const parse = (raw: Record<string, unknown>): IncidentRoleInputs => incidentRoleInputs.parse(raw);
const ae = useSettingsEmulator();
const show = async (id: string) => (await ae.ok("GET", `/v2/incident_roles/${id}`)).incident_role;

describe("mapping", () => {
  test("payload has the reference shape (create and update: every field, always)", () => {
    const payload = incidentRolePayload(parse({ name: "Comms", shortform: "comms" }));
    expect(payload).toEqual({ name: "Comms", description: "", instructions: "", shortform: "comms" });
    expectShape("IncidentRolesCreatePayloadV2", payload);
    expectShape("IncidentRolesUpdatePayloadV2", payload);
  });
});

describe("check (zero API calls)", () => {
  test.each([
    [{ shortform: "c" }, "name"],
    [{ name: "Comms" }, "shortform"],
    [{ name: "Comms", shortform: 1 }, "shortform"],
    [{ name: "Comms", shortform: "c", instructions: null }, "instructions"],
    [{ name: "Comms", shortform: "c", required: true }, "required"],
  ])("%j fails at %s", async (inputs, property) => {
    await expectCheckFailure(ae, incidentRoleProvider.check!, inputs, property);
  });
});

describe("provider against the emulator", () => {
  test("create → no diff → out-of-band change is drift → update → delete; lookup", async () => {
    const inputs = parse({
      name: "Comms lead",
      description: "Talks",
      instructions: "Post updates",
      shortform: "comms",
    });
    const created = await incidentRoleProvider.create!(inputs);
    expect(created.outs).toMatchObject({ shortform: "comms", roleType: "custom" });
    const read = await incidentRoleProvider.read!(created.id, created.outs);
    expect((await incidentRoleProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);

    await ae.ok("PUT", `/v2/incident_roles/${created.id}`, {
      ...incidentRolePayload(inputs),
      instructions: "edited",
    });
    const drifted = await incidentRoleProvider.read!(created.id, read.props!);
    expect((await incidentRoleProvider.diff!(created.id, drifted.props!, inputs)).changes).toBe(true);
    await incidentRoleProvider.update!(created.id, drifted.props!, inputs);
    expect(await show(created.id)).toMatchObject({ instructions: "Post updates" });

    expect(await findIncidentRoleByName(ae.dashboard, "Comms lead")).toMatchObject({
      id: created.id,
      roleType: "custom",
    });
    await expect(findIncidentRoleByName(ae.dashboard, "comms lead ")).rejects.toThrow(
      /did you mean "Comms lead"/,
    );
    await incidentRoleProvider.delete!(created.id, drifted.props!);
    expect((await incidentRoleProvider.read!(created.id, drifted.props!)).id).toBe("");
  });

  test("adoption of the service's Reporter role (empty shortform and instructions): its texts become managed", async () => {
    const reporter = await findIncidentRoleByName(ae.dashboard, "Reporter");
    expect(reporter).toMatchObject({ roleType: "reporter", shortform: "", instructions: "" });
    const mark = ae.emu.requests.length;
    const adopted = await incidentRoleProvider.create!(
      parse({ name: "Reporter", description: "Who reported it", shortform: "", adoptId: reporter.id }),
    );
    expect(adopted.id).toBe(reporter.id);
    expect(adopted.outs.roleType).toBe("reporter");
    expect(ae.providerCalls(mark).filter((c) => c.startsWith("POST"))).toEqual([]);
    expect(await show(reporter.id)).toMatchObject({ description: "Who reported it", role_type: "reporter" });
  });
});

describe("reads by page (provider/pagedReads.ts)", () => {
  test("a refresh of 30 roles: one GET and one list request (unpaginated), the same read-back; a deletion out of band is seen", async () => {
    const objects: Managed[] = [];
    for (let i = 0; i < 30; i++) {
      const created = await incidentRoleProvider.create!(
        parse({ name: `Paged ${i}`, description: `d${i}`, instructions: `i${i}`, shortform: `p${i}` }),
      );
      objects.push({ id: created.id, outs: created.outs });
    }
    const counts = await expectReadsByPage(ae, incidentRoleProvider, objects, (o) =>
      ae.ok("DELETE", `/v2/incident_roles/${o.id}`),
    );
    expect(counts).toMatchObject({ bound: 2, requests: 2, afterDeletion: 3 });
  });
});
