/**
 * Users (v2, shapes modelled on the reference's UserV2) and teams (v3): seeded, read-only, readable
 * by any valid key.
 */
import { SEED_TEAMS, SEED_USERS } from "../../emulator";
import { expectErrorBody, expectShape, startTestEmulator, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.dispose();
});
afterEach(() => {
  expect(emu.responseProblems).toEqual([]);
});

test("GET /v2/users lists the seeded active users, paginated; include_inactive adds the deactivated", async () => {
  const active = SEED_USERS.filter((u) => u.is_active !== false);
  expect(active.length).toBeLessThan(SEED_USERS.length);
  const r = await emu.call("GET", "/v2/users");
  expect(r.status).toBe(200);
  expectShape("UsersListResultV2", r.body);
  expect(r.body.users.map((u: any) => u.id)).toEqual(active.map((u) => u.id));
  for (const u of r.body.users) expectShape("UserWithStatusV2", u);
  expect(r.body.users.every((u: any) => u.is_active === true)).toBe(true);
  const all = await emu.call("GET", "/v2/users?include_inactive=true");
  expect(all.body.users.map((u: any) => [u.id, u.is_active])).toEqual(
    SEED_USERS.map((u) => [u.id, u.is_active !== false]),
  );
  const page = await emu.call("GET", "/v2/users?page_size=2");
  expect(page.body.users.map((u: any) => u.id)).toEqual(SEED_USERS.slice(0, 2).map((u) => u.id));
  expect(page.body.pagination_meta).toEqual({ page_size: 2, after: SEED_USERS[1]!.id });
  const next = await emu.call("GET", `/v2/users?page_size=2&after=${SEED_USERS[1]!.id}`);
  expect(next.body.users.map((u: any) => u.id)).toEqual(SEED_USERS.slice(2, 4).map((u) => u.id));
});

test("email filters case-insensitively (the provider's getUser lookup)", async () => {
  const r = await emu.call("GET", "/v2/users?email=ADA@example.com&page_size=250");
  expect(r.body.users).toEqual([
    {
      id: "01USERADA",
      name: "Ada Lovelace",
      email: "ada@example.com",
      role: "responder",
      slack_user_id: "U0ADA",
      is_active: true,
    },
  ]);
  expect(r.body.pagination_meta).toEqual({ page_size: 250 });
  expect((await emu.call("GET", "/v2/users?email=nobody@example.com")).body.users).toEqual([]);
});

test("GET /v2/users/{id}", async () => {
  const r = await emu.call("GET", "/v2/users/01USERBOB");
  expectShape("UsersShowResultV2", r.body);
  expect(r.body.user.name).toBe("Bob Barker");
  // A deactivated user is shown by id.
  expect((await emu.call("GET", "/v2/users/01USERFAY")).body.user).toMatchObject({ is_active: false });
  expectErrorBody(await emu.call("GET", "/v2/users/01NOBODY"), 404, "not_found");
});

test("any valid key may read users and teams", async () => {
  const none = await emu.createApiKey("no roles", []);
  expect((await emu.call("GET", "/v2/users", { token: none })).status).toBe(200);
  expect((await emu.call("GET", "/v3/teams", { token: none })).status).toBe(200);
});

test("teams: list and show", async () => {
  const r = await emu.call("GET", "/v3/teams");
  expectShape("TeamsListResultV3", r.body);
  expect(r.body.teams.map((t: any) => t.name)).toEqual(SEED_TEAMS.map((t) => t.name));
  const platform = await emu.call("GET", `/v3/teams/${SEED_TEAMS[0]!.id}`);
  expectShape("TeamsShowResultV3", platform.body);
  expect(platform.body.team.members.map((m: any) => m.name)).toEqual(["Ada Lovelace", "Bob Barker"]);
  expectErrorBody(await emu.call("GET", "/v3/teams/01NOTEAM"), 404, "not_found");
});

test("users are read-only: writing is 405", async () => {
  const r = await emu.call("POST", "/v2/users", { body: { name: "x" } });
  expectErrorBody(r, 405, "method_not_allowed");
});

test("--no-seed: no users, no teams, the bootstrap key still works", async () => {
  const bare = await startTestEmulator({ seed: false });
  try {
    expect((await bare.call("GET", "/v2/users")).body.users).toEqual([]);
    expect((await bare.call("GET", "/v3/teams")).body.teams).toEqual([]);
    const keys = await bare.call("GET", "/v1/api_keys");
    // Without an owner user, keys made outside the API have an empty creator.
    expect(keys.body.api_keys[0].creator).toEqual({});
    expect(bare.responseProblems).toEqual([]);
  } finally {
    await bare.dispose();
  }
});
