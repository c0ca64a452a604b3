/**
 * API keys (v1) and identity: CRUD with reference shapes, the role rules, rotation with a grace
 * period (on the fake clock), and team-scoped managers.
 */
import { SEED_TEAMS } from "../../emulator";
import { expectErrorBody, expectShape, startTestEmulator, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;

beforeEach(async () => {
  emu = await startTestEmulator();
});
afterEach(async () => {
  expect(emu.responseProblems).toEqual([]);
  await emu.dispose();
});

const PLATFORM = SEED_TEAMS[0]!.id;
const PAYMENTS = SEED_TEAMS[1]!.id;

function keyBody(extra: Record<string, unknown> = {}) {
  return { name: "ci", role_names: ["viewer"], team_ids: [], team_role_names: [], ...extra };
}

async function create(extra: Record<string, unknown> = {}, token?: string) {
  const r = await emu.call("POST", "/v1/api_keys", { body: keyBody(extra), token });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.body as { api_key: any; token: string };
}

describe("CRUD", () => {
  test("create: 201 {api_key, token}; roles as {name, description}; creator is the calling key", async () => {
    const r = await emu.call("POST", "/v1/api_keys", {
      body: keyBody({
        name: "deployer",
        role_names: ["viewer", "manage_settings"],
        team_ids: [PLATFORM],
        team_role_names: ["schedules_editor"],
        comments: "for CI",
      }),
    });
    expect(r.status).toBe(201);
    expectShape("APIKeysCreateResultV1", r.body);
    const k = r.body.api_key;
    const now = new Date(emu.time()).toISOString();
    expect(k).toEqual({
      id: expect.any(String),
      name: "deployer",
      comments: "for CI",
      created_at: now,
      token_last_issued_at: now,
      creator: { api_key: { id: emu.requests.at(-1)!.apiKeyId, name: "Emulator bootstrap key" } },
      roles: [
        { name: "manage_settings", description: expect.any(String) },
        { name: "viewer", description: expect.any(String) },
      ],
      team_ids: [PLATFORM],
      team_roles: [{ name: "schedules_editor", description: expect.any(String) }],
      last_used_at: undefined,
    });
    expect(k.last_used_at).toBeUndefined();
    expect(typeof r.body.token).toBe("string");
    expect(JSON.stringify(await emu.call("GET", `/v1/api_keys/${k.id}`))).not.toContain(r.body.token);
  });

  test("the new token works with the key's roles; last_used_at then appears", async () => {
    const { api_key, token } = await create({ role_names: ["viewer"] });
    const id = await emu.call("GET", "/v1/identity", { token });
    expectShape("UtilitiesIdentityResultV1", id.body);
    expect(id.body.identity).toMatchObject({ name: "ci", roles: ["viewer"], team_roles: [], teams: [] });
    expect((await emu.call("GET", "/v2/custom_fields", { token })).status).toBe(200);
    expectErrorBody(
      await emu.call("POST", "/v2/custom_fields", {
        token,
        body: { name: "n", description: "", field_type: "text" },
      }),
      403,
      "resource_forbidden",
    );
    const shown = await emu.call("GET", `/v1/api_keys/${api_key.id}`);
    expectShape("APIKeysShowResultV1", shown.body);
    expect(shown.body.api_key.last_used_at).toBe(new Date(emu.time()).toISOString());
  });

  test("list is paginated and includes the bootstrap key", async () => {
    for (let i = 0; i < 4; i++) await create({ name: `k${i}` });
    const first = await emu.call("GET", "/v1/api_keys?page_size=2");
    expectShape("APIKeysListResultV1", first.body);
    expect(first.body.api_keys.map((k: any) => k.name)).toEqual(["Emulator bootstrap key", "k0"]);
    const names: string[] = [];
    let after: string | undefined;
    do {
      const r = await emu.call("GET", `/v1/api_keys?page_size=2${after ? `&after=${after}` : ""}`);
      names.push(...r.body.api_keys.map((k: any) => k.name));
      after = r.body.pagination_meta.after;
    } while (after);
    expect(names).toEqual(["Emulator bootstrap key", "k0", "k1", "k2", "k3"]);
  });

  test("update is a full PUT: every field required, comments omitted = cleared", async () => {
    const { api_key } = await create({ comments: "x" });
    expectErrorBody(
      await emu.call("PUT", `/v1/api_keys/${api_key.id}`, { body: { name: "n", role_names: [] } }),
      422,
      "validation_error",
      "is_required",
      "team_ids",
    );
    emu.tick(1000);
    const r = await emu.call("PUT", `/v1/api_keys/${api_key.id}`, {
      body: {
        name: "renamed",
        role_names: ["catalog_viewer"],
        team_ids: [PAYMENTS],
        team_role_names: ["secrets_use"],
      },
    });
    expect(r.status).toBe(200);
    expectShape("APIKeysUpdateResultV1", r.body);
    expect(r.body.api_key).toMatchObject({
      id: api_key.id,
      name: "renamed",
      roles: [{ name: "catalog_viewer" }],
      team_ids: [PAYMENTS],
      team_roles: [{ name: "secrets_use" }],
      created_at: api_key.created_at,
      token_last_issued_at: api_key.token_last_issued_at,
    });
    expect(r.body.api_key.comments).toBeUndefined();
  });

  test("delete: 204, the token stops working, then 404", async () => {
    const { api_key, token } = await create();
    const del = await emu.call("DELETE", `/v1/api_keys/${api_key.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expectErrorBody(await emu.call("GET", "/v1/identity", { token }), 401, "authentication_error");
    expectErrorBody(await emu.call("GET", `/v1/api_keys/${api_key.id}`), 404, "not_found");
  });
});

describe("role rules", () => {
  test("every endpoint needs api_keys_manage (or global_access)", async () => {
    const settings = await emu.createApiKey("settings", ["manage_settings", "viewer"]);
    expectErrorBody(await emu.call("GET", "/v1/api_keys", { token: settings }), 403, "resource_forbidden");
    expectErrorBody(
      await emu.call("POST", "/v1/api_keys", { token: settings, body: keyBody() }),
      403,
      "resource_forbidden",
    );
    const manager = await emu.createApiKey("manager", ["api_keys_manage", "viewer"]);
    expect((await emu.call("GET", "/v1/api_keys", { token: manager })).status).toBe(200);
    expect((await emu.call("POST", "/v1/api_keys", { token: manager, body: keyBody() })).status).toBe(201);
  });

  test("api_keys_manage cannot be assigned via the API (422 naming role_names), even with global access", async () => {
    const r = await emu.call("POST", "/v1/api_keys", { body: keyBody({ role_names: ["api_keys_manage"] }) });
    expectErrorBody(r, 422, "validation_error", "invalid_value", "role_names");
    const t = await emu.call("POST", "/v1/api_keys", {
      body: keyBody({ team_ids: [PLATFORM], team_role_names: ["api_keys_manage"] }),
    });
    expectErrorBody(t, 422, "validation_error", "invalid_value", "team_role_names");
  });

  test("a caller can only assign roles it holds (unless global_access)", async () => {
    const manager = await emu.createApiKey("manager", ["api_keys_manage", "viewer"]);
    const r = await emu.call("POST", "/v1/api_keys", {
      token: manager,
      body: keyBody({ role_names: ["viewer", "manage_settings"] }),
    });
    expectErrorBody(r, 403, "resource_forbidden", "role_not_held");
    expect(r.body.errors[0].message).toContain("manage_settings");
    const team = await emu.call("POST", "/v1/api_keys", {
      token: manager,
      body: keyBody({ team_ids: [PLATFORM], team_role_names: ["schedules_editor"] }),
    });
    expectErrorBody(team, 403, "resource_forbidden", "role_not_held");
    // global_access may assign anything but api_keys_manage
    expect(
      (await emu.call("POST", "/v1/api_keys", { body: keyBody({ role_names: ["global_access"] }) })).status,
    ).toBe(201);
  });

  test("a key cannot edit itself", async () => {
    const manager = await emu.createApiKey("manager", ["api_keys_manage", "viewer"]);
    const me = (await emu.call("GET", "/v1/identity", { token: manager })).body.identity;
    const id = emu.requests.at(-1)!.apiKeyId!;
    expect(me.name).toBe("manager");
    const r = await emu.call("PUT", `/v1/api_keys/${id}`, {
      token: manager,
      body: keyBody({ name: "still me", role_names: ["viewer"] }),
    });
    expectErrorBody(r, 403, "resource_forbidden", "cannot_edit_self");
  });

  test("team_ids and team_role_names go together; teams must exist", async () => {
    expectErrorBody(
      await emu.call("POST", "/v1/api_keys", { body: keyBody({ team_ids: [PLATFORM] }) }),
      422,
      "validation_error",
      "invalid_value",
      "team_role_names",
    );
    expectErrorBody(
      await emu.call("POST", "/v1/api_keys", { body: keyBody({ team_role_names: ["secrets_use"] }) }),
      422,
      "validation_error",
      "invalid_value",
      "team_ids",
    );
    expectErrorBody(
      await emu.call("POST", "/v1/api_keys", {
        body: keyBody({ team_ids: ["01NOTEAM"], team_role_names: ["secrets_use"] }),
      }),
      400,
      "invalid_request_error",
      "invalid_reference",
    );
  });

  test("at most maxApiKeys keys", async () => {
    const small = await startTestEmulator({ maxApiKeys: 3 });
    try {
      expect((await small.call("POST", "/v1/api_keys", { body: keyBody() })).status).toBe(201);
      expect((await small.call("POST", "/v1/api_keys", { body: keyBody() })).status).toBe(201);
      const r = await small.call("POST", "/v1/api_keys", { body: keyBody() });
      expectErrorBody(r, 422, "validation_error", "api_key_limit_reached");
      expect(small.store.collection("api_keys").size).toBe(3);
      expect(small.responseProblems).toEqual([]);
    } finally {
      await small.dispose();
    }
  });

  test("a team-scoped manager sees and manages only keys of its teams", async () => {
    const teamManager = await emu.createApiKey(
      "team manager",
      ["viewer"],
      ["api_keys_manage", "secrets_use"],
      [PLATFORM],
    );
    const theirs = await create({
      name: "platform key",
      team_ids: [PLATFORM],
      team_role_names: ["secrets_use"],
    });
    const other = await create({
      name: "payments key",
      team_ids: [PAYMENTS],
      team_role_names: ["secrets_use"],
    });
    const list = await emu.call("GET", "/v1/api_keys", { token: teamManager });
    expect(list.body.api_keys.map((k: any) => k.name).sort()).toEqual(["platform key", "team manager"]);
    expectErrorBody(
      await emu.call("GET", `/v1/api_keys/${other.api_key.id}`, { token: teamManager }),
      404,
      "not_found",
    );
    expectErrorBody(
      await emu.call("DELETE", `/v1/api_keys/${other.api_key.id}`, { token: teamManager }),
      404,
      "not_found",
    );
    expect(
      (await emu.call("DELETE", `/v1/api_keys/${theirs.api_key.id}`, { token: teamManager })).status,
    ).toBe(204);
    const made = await emu.call("POST", "/v1/api_keys", {
      token: teamManager,
      body: keyBody({ name: "scoped", team_ids: [PLATFORM], team_role_names: ["secrets_use"] }),
    });
    expect(made.status).toBe(201);
    const unscoped = await emu.call("POST", "/v1/api_keys", {
      token: teamManager,
      body: keyBody({ name: "unscoped" }),
    });
    expectErrorBody(unscoped, 403, "resource_forbidden", "team_scope_exceeded");
  });
});

describe("rotation", () => {
  test("201 {api_key, token}; the old token works for the grace period, then 401", async () => {
    const { api_key, token: oldToken } = await create();
    emu.tick(5_000);
    const r = await emu.call("POST", `/v1/api_keys/${api_key.id}/actions/rotate`, {
      body: { grace_period_minutes: 10 },
    });
    expect(r.status).toBe(201);
    expectShape("APIKeysRotateResultV1", r.body);
    const newToken = r.body.token as string;
    expect(newToken).not.toBe(oldToken);
    expect(r.body.api_key.token_last_issued_at).toBe(new Date(emu.time()).toISOString());
    expect(r.body.api_key.created_at).toBe(api_key.created_at);

    expect((await emu.call("GET", "/v1/identity", { token: oldToken })).status).toBe(200);
    expect((await emu.call("GET", "/v1/identity", { token: newToken })).status).toBe(200);
    emu.tick(10 * 60_000 - 1);
    expect((await emu.call("GET", "/v1/identity", { token: oldToken })).status).toBe(200);
    emu.tick(1);
    expectErrorBody(await emu.call("GET", "/v1/identity", { token: oldToken }), 401, "authentication_error");
    expect((await emu.call("GET", "/v1/identity", { token: newToken })).status).toBe(200);
  });

  test("grace 0: the old token stops at once; a second rotation keeps the first grace", async () => {
    const { api_key, token: t1 } = await create();
    const t2 = (
      await emu.call("POST", `/v1/api_keys/${api_key.id}/actions/rotate`, {
        body: { grace_period_minutes: 0 },
      })
    ).body.token;
    expectErrorBody(await emu.call("GET", "/v1/identity", { token: t1 }), 401, "authentication_error");
    const t3 = (
      await emu.call("POST", `/v1/api_keys/${api_key.id}/actions/rotate`, {
        body: { grace_period_minutes: 1 },
      })
    ).body.token;
    const t4 = (
      await emu.call("POST", `/v1/api_keys/${api_key.id}/actions/rotate`, {
        body: { grace_period_minutes: 5 },
      })
    ).body.token;
    for (const t of [t2, t3, t4])
      expect((await emu.call("GET", "/v1/identity", { token: t })).status).toBe(200);
    emu.tick(60_000);
    expect((await emu.call("GET", "/v1/identity", { token: t2 })).status).toBe(401);
    expect((await emu.call("GET", "/v1/identity", { token: t3 })).status).toBe(200);
    emu.tick(4 * 60_000);
    expect((await emu.call("GET", "/v1/identity", { token: t3 })).status).toBe(401);
    expect((await emu.call("GET", "/v1/identity", { token: t4 })).status).toBe(200);
  });

  test("grace_period_minutes is required, 0–60", async () => {
    const { api_key } = await create();
    const path = `/v1/api_keys/${api_key.id}/actions/rotate`;
    expectErrorBody(
      await emu.call("POST", path, { body: {} }),
      422,
      "validation_error",
      "is_required",
      "grace_period_minutes",
    );
    expectErrorBody(
      await emu.call("POST", path, { body: { grace_period_minutes: 61 } }),
      422,
      "validation_error",
      "invalid_value",
      "grace_period_minutes",
    );
    expectErrorBody(
      await emu.call("POST", path, { body: { grace_period_minutes: -1 } }),
      422,
      "validation_error",
      "invalid_value",
      "grace_period_minutes",
    );
    expectErrorBody(
      await emu.call("POST", "/v1/api_keys/01NOPE/actions/rotate", { body: { grace_period_minutes: 1 } }),
      404,
      "not_found",
    );
  });

  test("the caller must hold every role of the key it rotates", async () => {
    const manager = await emu.createApiKey("manager", ["api_keys_manage", "viewer"]);
    const powerful = await create({ role_names: ["manage_settings"] });
    const r = await emu.call("POST", `/v1/api_keys/${powerful.api_key.id}/actions/rotate`, {
      token: manager,
      body: { grace_period_minutes: 0 },
    });
    expectErrorBody(r, 403, "resource_forbidden", "role_not_held");
    const plain = await create({ role_names: ["viewer"] });
    expect(
      (
        await emu.call("POST", `/v1/api_keys/${plain.api_key.id}/actions/rotate`, {
          token: manager,
          body: { grace_period_minutes: 0 },
        })
      ).status,
    ).toBe(201);
  });
});

describe("identity", () => {
  test("name, roles, team roles, teams (with names) and dashboard_url", async () => {
    const token = await emu.createApiKey(
      "scoped",
      ["viewer", "catalog_viewer"],
      ["schedules_reader"],
      [PLATFORM, PAYMENTS],
    );
    const r = await emu.call("GET", "/v1/identity", { token });
    expect(r.status).toBe(200);
    expectShape("UtilitiesIdentityResultV1", r.body);
    expect(r.body.identity).toEqual({
      name: "scoped",
      roles: ["catalog_viewer", "viewer"],
      team_roles: ["schedules_reader"],
      teams: [
        { id: PLATFORM, name: "Platform" },
        { id: PAYMENTS, name: "Payments" },
      ],
      dashboard_url: `${emu.url}/_emulator`,
    });
  });

  test("createApiKey rejects unknown role names", async () => {
    await expect(emu.createApiKey("typo", ["veiwer"])).rejects.toThrow(/veiwer/);
  });
});
