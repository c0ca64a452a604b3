/**
 * ApiKey: the roles the service names are accepted (the seed's Authentication 6 and 7 besides the
 * reference's enums), on create and on update, by the check and by the emulator; a key the provider
 * makes with a pay-config role manages pay configurations.
 */
import { setCredentials } from "../../provider/credentials";
import { apiKeyProvider } from "../../resources/apiKey";
import { payConfigProvider } from "../../resources/payConfig";
import { checkWarned, expectWarned } from "../support/checkWarnings";
import { startTestEmulator, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
  setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url });
});
afterAll(async () => {
  await emu.dispose();
});
afterEach(() => expect(emu.responseProblems).toEqual([]));

/** The seed's Authentication 6: role names assignable to a key (`role_names` on create and update). */
const SEED_ROLES = [
  "act_on_behalf_of_users",
  "api_keys_manage",
  "call_transcripts_viewer",
  "documents_viewer",
  "heartbeats_ping",
  "incident_workload_private_viewer",
  "incident_workload_viewer",
  "investigations_editor",
  "notification_methods_manage",
  "notification_methods_unredacted_viewer",
  "on_call_viewer",
  "pay_configs_editor",
  "pay_configs_viewer",
  "pay_reports_editor",
  "pay_reports_viewer",
  "policies_viewer",
  "policy_findings_manage",
  "postmortems_manage",
  "private_escalation_workflows_editor",
  "private_workflows_editor",
  "secrets_manage",
  "secrets_use",
  "status_page_publisher",
  "status_page_viewer",
  "telemetry_data_source_update",
  "telemetry_query_restricted",
  "telemetry_viewer",
  "workflows_editor",
  "workflows_viewer",
  "catalog_editor",
  "catalog_viewer",
  "global_access",
  "incident_creator",
  "incident_editor",
  "incident_memberships_editor",
  "investigation_download",
  "manage_settings",
  "post_incident_flow_opt_out",
  "security_settings_editor",
  "team_memberships_manage",
  "viewer",
];
/** The seed's Authentication 7: team-scoped roles (`team_role_names`). */
const SEED_TEAM_ROLES = [
  "api_keys_manage",
  "catalog_editor",
  "heartbeats_ping",
  "private_workflows_editor",
  "secrets_manage",
  "secrets_use",
  "telemetry_data_source_update",
  "telemetry_query_restricted",
  "workflows_editor",
];
/**
 * The reference (APIKeysV1Create's description) says `api_keys_manage` "cannot be assigned via the
 * API": the check passes it on (the seed lists it as assignable), the API (and the emulator) refuse it.
 */
const assignable = (roles: string[]) => roles.filter((r) => r !== "api_keys_manage");

const check = (inputs: Record<string, unknown>) =>
  apiKeyProvider.check!({}, { name: "Seed roles", ...inputs, __provider: "shim" });

describe("the seed's roles (issue 28)", () => {
  test.each(SEED_ROLES)("role %s passes check", async (role) => {
    expect((await check({ roles: [role] })).failures ?? []).toEqual([]);
  });

  test.each(SEED_TEAM_ROLES)("team role %s passes check", async (role) => {
    expect((await check({ teamRoles: [role], teamIds: ["01TEAMPLATFORM"] })).failures ?? []).toEqual([]);
  });

  test("every seed role and team role is created and updated, and reads back with no diff", async () => {
    const declared = {
      name: "Every seed role",
      roles: assignable(SEED_ROLES),
      teamRoles: assignable(SEED_TEAM_ROLES),
      teamIds: ["01TEAMPLATFORM"],
    };
    const checked = await check(declared);
    expect(checked.failures ?? []).toEqual([]);
    const created = await apiKeyProvider.create!(checked.inputs);
    const shown = (await emu.ok("GET", `/v1/api_keys/${created.id}`)).api_key;
    expect(shown.roles.map((r: any) => r.name).sort()).toEqual([...declared.roles].sort());
    expect(shown.team_roles.map((r: any) => r.name).sort()).toEqual([...declared.teamRoles].sort());
    const read = await apiKeyProvider.read!(created.id, created.outs);
    expect((await apiKeyProvider.diff!(created.id, read.props!, checked.inputs)).changes).toBe(false);

    // An update from none of them to all of them (and back) is accepted too.
    const bare = (await check({ name: "Every seed role" })).inputs;
    await apiKeyProvider.update!(created.id, read.props!, bare);
    expect((await emu.ok("GET", `/v1/api_keys/${created.id}`)).api_key.roles).toEqual([]);
    await apiKeyProvider.update!(created.id, read.props!, checked.inputs);
    const again = (await emu.ok("GET", `/v1/api_keys/${created.id}`)).api_key;
    expect(again.roles.map((r: any) => r.name).sort()).toEqual([...declared.roles].sort());
    await apiKeyProvider.delete!(created.id, read.props!);
  });

  test("a key the provider makes with pay_configs_editor creates a pay configuration with its token", async () => {
    const checked = await check({ name: "Pay admin", roles: ["pay_configs_editor"] });
    expect(checked.failures ?? []).toEqual([]);
    const key = await apiKeyProvider.create!(checked.inputs);
    const token = key.outs.token as string;
    expect(typeof token).toBe("string");
    try {
      setCredentials({ apiKey: token, baseUrl: emu.url });
      const made = await payConfigProvider.create!({
        name: "Made with the pay key",
        currency: "GBP",
        baseRateCents: 500,
        rateTimeUnit: "hour",
        timezone: "Europe/London",
        oneOffRules: [],
        weeklyRules: [],
      });
      expect((await emu.ok("GET", `/v2/pay_configs/${made.id}`)).pay_config.name).toBe(
        "Made with the pay key",
      );
      await payConfigProvider.delete!(made.id, made.outs);
    } finally {
      setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url });
    }
    await apiKeyProvider.delete!(key.id, key.outs);
  });
});

describe("roles the service does not name (issue 28)", () => {
  test("a role outside the known lists passes with a warning naming the nearest known role", async () => {
    await expectWarned(
      apiKeyProvider,
      { name: "Typo", roles: ["pay_config_editor"] },
      "roles[0]",
      /"pay_config_editor" is not a value the API is known to take: did you mean "pay_configs_editor"\?/,
    );
    await expectWarned(
      apiKeyProvider,
      { name: "Typo", teamRoles: ["schedule_editor"], teamIds: ["01TEAMPLATFORM"] },
      "teamRoles[0]",
      /did you mean "schedules_editor"/,
    );
  });

  test("api_keys_manage: the reference says it cannot be assigned, the seed lists it: warned and sent; the API refuses it", async () => {
    await expectWarned(
      apiKeyProvider,
      { name: "Manager", roles: ["viewer", "api_keys_manage"] },
      "roles[1]",
      /cannot be assigned via the API \(APIKeysV1Create\)/,
    );
    const checked = await checkWarned(apiKeyProvider, { name: "Manager", roles: ["api_keys_manage"] });
    const error = await apiKeyProvider.create!(checked.inputs).catch((e) => e);
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/roles: the api_keys_manage role cannot be assigned via the API/);
  });

  test("teamRoles without teamIds (and the reverse) is refused: the reference says they go together", async () => {
    const { failures } = await checkWarned(apiKeyProvider, { name: "T", teamRoles: ["secrets_use"] });
    expect(failures).toEqual([
      expect.objectContaining({
        property: "teamIds",
        reason: "teamIds: must not be empty when teamRoles is set",
      }),
    ]);
  });
});
