/**
 * The lookups added with the account-settings resources, against the in-process emulator (seeded
 * teams, incident types, statuses and roles): getTeam (by name or id), getIncidentType (by name or
 * the default), and through the program-side entry points (credentials from the environment, the
 * arguments checked before any call): getTeam, getIncidentType, getIncidentStatus, getIncidentRole,
 * getSeverity, getSecret. getUser (by e-mail, Slack user id or id) is covered by lookups.test.ts.
 */
import { ENV_API_KEY, ENV_BASE_URL } from "../../provider/credentials";
import { getIncidentRole } from "../../resources/incidentRole";
import { getIncidentStatus } from "../../resources/incidentStatus";
import { findIncidentType, findTeam, getIncidentType, getTeam } from "../../resources/lookups";
import { getSecret } from "../../resources/secret";
import { getSeverity } from "../../resources/severity";
import { useSettingsEmulator } from "../fixtures/settings/emulator";

const ae = useSettingsEmulator();
beforeAll(() => {
  process.env[ENV_API_KEY] = ae.dashboardKey;
  process.env[ENV_BASE_URL] = ae.emu.url;
});
afterAll(() => {
  delete process.env[ENV_API_KEY];
  delete process.env[ENV_BASE_URL];
});

test("getTeam: by name, by id; a near miss and an unknown id are named", async () => {
  expect(await findTeam(ae.dashboard, { name: "Platform" })).toEqual({
    id: "01TEAMPLATFORM",
    name: "Platform",
    memberIds: ["01USERADA", "01USERBOB"],
    catalogEntryId: "01CATENTRYPLATFORM",
  });
  expect((await findTeam(ae.dashboard, { id: "01TEAMPAYMENTS" })).name).toBe("Payments");
  await expect(findTeam(ae.dashboard, { name: "platform" })).rejects.toThrow(
    'getTeam: no team named "platform" (did you mean "Platform"?)',
  );
  await expect(findTeam(ae.dashboard, { id: "01NOTEAM" })).rejects.toThrow(
    'getTeam: no team with id "01NOTEAM"',
  );
});

test("getIncidentType: by name or the default", async () => {
  expect(await findIncidentType(ae.dashboard, { default: true })).toMatchObject({
    id: "01TYPEDEFAULT",
    isDefault: true,
    owningTeamIds: [],
  });
  expect(await findIncidentType(ae.dashboard, { name: "Security incident" })).toMatchObject({
    id: "01TYPESECURITY",
    createInTriage: "always",
    privateIncidentsOnly: true,
    owningTeamIds: ["01TEAMIDENTITY"],
  });
  await expect(findIncidentType(ae.dashboard, { name: "Security" })).rejects.toThrow(
    'getIncidentType: no incident type named "Security"',
  );
});

test("program-side entry points: credentials from the environment; bad arguments refused before any call", async () => {
  expect((await getTeam({ name: "Identity" })).id).toBe("01TEAMIDENTITY");
  expect((await getIncidentType({ name: "Default" })).id).toBe("01TYPEDEFAULT");
  expect(await getIncidentStatus({ name: "Declined" })).toMatchObject({
    id: "01STATUSDECLINED",
    category: "declined",
  });
  expect(await getIncidentRole({ name: "Incident Lead" })).toMatchObject({
    id: "01ROLELEAD",
    roleType: "lead",
  });
  await ae.ok("POST", "/v1/severities", { name: "SEV1", description: "All hands", rank: 3 });
  expect(await getSeverity({ name: "SEV1" })).toMatchObject({ rank: 3 });
  await ae.ok("POST", "/v2/secrets", { name: "Lookup me", value: "abcdefgh" });
  expect(await getSecret({ name: "Lookup me" })).toMatchObject({ lastFourChars: "efgh", version: 1 });

  const mark = ae.emu.requests.length;
  await expect(getTeam({ name: "Platform", id: "01TEAMPLATFORM" })).rejects.toThrow(
    /give exactly one of name or id/,
  );
  await expect(getIncidentType({})).rejects.toThrow(/give exactly one of name or default/);
  await expect(getSeverity({ name: "" })).rejects.toThrow(/getSeverity: name: must not be empty/);
  expect(ae.emu.requests.length).toBe(mark);
});
