/**
 * Issue 10, part 3: in a preview some inputs are unknown (the engine's sentinel). The cross-field
 * rules must still run on the known parts, so a preview fails where the `up` would fail, and must
 * not report a problem that depends on an unknown value.
 */
import { setCredentials } from "../provider/credentials";
import { UNKNOWN } from "../provider/unknowns";
import { providers } from "../resources";

beforeAll(() => setCredentials({ apiKey: "preview", baseUrl: "http://127.0.0.1:9" }));

async function failures(kind: string, inputs: Record<string, unknown>): Promise<string[]> {
  const result = await providers[kind]!.check!({}, { ...inputs, __provider: "shim" });
  return (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
}

const route = {
  name: UNKNOWN,
  alertSources: [{ alertSourceId: UNKNOWN }],
  escalationConfig: { autoCancelEscalations: true, escalationTargets: [] },
  incidentConfig: { enabled: true },
};

describe("cross-field rules run on the known parts of an input", () => {
  test("AlertRoute: unknown name and source id, incident creation enabled without a template", async () => {
    expect(await failures("AlertRoute", route)).toEqual([
      "incidentConfig: incidentConfig.template: is required when incident creation is enabled",
    ]);
  });

  test("ApiKey: unknown team ids, api_keys_manage granted", async () => {
    expect(
      await failures("ApiKey", {
        name: "CI",
        roles: ["api_keys_manage"],
        teamRoles: ["schedules_reader"],
        teamIds: UNKNOWN,
      }),
    ).toEqual(["roles: roles[0]: api_keys_manage cannot be granted through the API"]);
  });

  test("Schedule: one unknown timestamp, a duplicate rotation id elsewhere", async () => {
    const version = {
      handoverStartAt: "2026-01-05T09:00:00Z",
      handovers: [{ interval: 1, intervalType: "weekly" }],
      users: [{ id: UNKNOWN }],
      layers: [{ name: "L1" }],
    };
    expect(
      await failures("Schedule", {
        name: "On-call",
        timezone: "Europe/London",
        rotations: [
          { id: "r1", name: "A", versions: [{ ...version, handoverStartAt: UNKNOWN }] },
          { id: "r1", name: "B", versions: [version] },
        ],
      }),
    ).toEqual(['rotations: rotations[1].id: duplicate rotation id "r1"']);
  });

  test("Workflow: a rule that reads an unknown value is not reported (forEach names an unknown expression list)", async () => {
    expect(
      await failures("Workflow", {
        name: "w",
        trigger: "incident.updated",
        steps: [
          { id: "s", name: "n", forEach: "teams" },
          { id: "s", name: "n" },
        ],
        expressions: UNKNOWN,
      }),
    ).toEqual(['steps: steps[1].id: duplicate step id "s"']);
  });

  test("AlertSource: a rule whose other field is unknown is not reported", async () => {
    expect(
      await failures("AlertSource", {
        name: "s",
        sourceType: "http",
        template: { title: "t", description: "" },
        autoResolveIncidentAlerts: true,
        autoResolveTimeoutMinutes: UNKNOWN,
      }),
    ).toEqual([]);
  });

  test("an unknown value the rules need decides nothing (sourceType unknown: no option rule runs)", async () => {
    expect(
      await failures("AlertSource", {
        name: "s",
        sourceType: UNKNOWN,
        template: { title: "t", description: "" },
        httpCustomOptions: { transformExpression: "x", deduplicationKeyPath: "y" },
      }),
    ).toEqual([]);
  });
});
