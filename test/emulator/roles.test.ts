/**
 * Team-scoped roles (emulator/roles.ts, `teamScopeRefusal`): the reference's `IdentityV1.team_roles`
 * "apply to requests that operate on resources owned by any of the teams in the 'teams' array". A
 * key whose only role for a family is a team role writes only objects its teams own (`team_ids`,
 * `owning_team_ids`), in every family whose objects name their owners; an account role, or
 * `global_access`, writes any. Reads are not scoped.
 */
import { expectErrorBody, startTestEmulator, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  expect(emu.responseProblems).toEqual([]);
  await emu.dispose();
});

const PAYMENTS = "01TEAMPAYMENTS";
const PLATFORM = "01TEAMPLATFORM";

const rotation = {
  id: "rota-1",
  name: "Primary",
  handover_start_at: "2026-01-01T09:00:00Z",
  handovers: [{ interval: 1, interval_type: "weekly" }],
  layers: [{ name: "Layer 1" }],
  users: [{ id: "01USERCAT" }],
};
const workflow = (owners?: string[]) => ({
  name: "Page on critical",
  trigger: "incident.updated",
  condition_groups: [],
  steps: [{ id: "step-1", name: "slack.post_message", param_bindings: [] }],
  expressions: [],
  once_for: ["incident.url"],
  runs_on_incidents: "newly_created",
  runs_on_incident_modes: ["standard"],
  continue_on_step_error: false,
  ...(owners ? { owning_team_ids: owners } : {}),
});

/** Per family: the team role that writes it, a create body owned by `owners`, an update body (owners as given). */
const FAMILIES: Record<
  string,
  {
    role: string;
    path: string;
    key: string;
    create(owners?: string[]): Record<string, unknown>;
    update(owners?: string[]): Record<string, unknown>;
  }
> = {
  escalation_paths: {
    role: "on_call_editor",
    path: "/v2/escalation_paths",
    key: "escalation_path",
    create: (owners) => ({
      name: "Urgent",
      path: [
        {
          id: "n1",
          type: "level",
          level: { targets: [{ id: "01USERCAT", type: "user", urgency: "high" }], time_to_ack_seconds: 300 },
        },
      ],
      ...(owners ? { team_ids: owners } : {}),
    }),
    update: (owners) => FAMILIES.escalation_paths!.create(owners),
  },
  schedules: {
    role: "schedules_editor",
    path: "/v2/schedules",
    key: "schedule",
    create: (owners) => ({
      schedule: {
        name: "Primary",
        timezone: "UTC",
        config: { rotations: [rotation] },
        ...(owners ? { team_ids: owners } : {}),
      },
    }),
    update: (owners) => ({ schedule: { name: "Renamed", ...(owners ? { team_ids: owners } : {}) } }),
  },
  workflows: {
    role: "workflows_editor",
    path: "/v2/workflows",
    key: "workflow",
    create: (owners) => workflow(owners),
    update: (owners) => {
      const { trigger: _t, ...rest } = workflow(owners);
      return rest;
    },
  },
  secrets: {
    role: "secrets_manage",
    path: "/v2/secrets",
    key: "secret",
    create: (owners) => ({
      name: `Token ${Math.random()}`,
      value: "s3cr3t-value",
      ...(owners ? { owning_team_ids: owners } : {}),
    }),
    update: (owners) => ({
      name: `Renamed ${Math.random()}`,
      ...(owners ? { owning_team_ids: owners } : {}),
    }),
  },
  catalog_types: {
    role: "catalog_editor",
    path: "/v3/catalog_types",
    key: "catalog_type",
    create: (owners) => ({
      name: `Service ${Math.random()}`,
      description: "d",
      ...(owners ? { owning_team_ids: owners } : {}),
    }),
    update: (owners) => ({
      name: `Renamed ${Math.random()}`,
      description: "d",
      ...(owners ? { owning_team_ids: owners } : {}),
    }),
  },
};

describe.each(
  Object.entries(FAMILIES),
)("%s with a Payments key whose only write role is a team role", (_family, f) => {
  let payments: string;
  beforeAll(async () => {
    payments = await emu.createApiKey(`payments ${f.role}`, ["viewer"], [f.role], [PAYMENTS]);
  });
  const as = (token: string) => (method: string, path: string, body?: unknown) =>
    emu.call(method, path, { token, body });

  test("creates, changes and deletes its team's objects", async () => {
    const call = as(payments);
    const created = await call("POST", f.path, f.create([PAYMENTS]));
    expect(created.status).toBe(201);
    const id = created.body[f.key].id;
    expect((await call("PUT", `${f.path}/${id}`, f.update([PAYMENTS, PLATFORM]))).status).toBe(200);
    expect((await call("DELETE", `${f.path}/${id}`)).status).toBe(204);
  });

  test("refuses to create what its teams do not own: another team's, or the whole organisation's", async () => {
    for (const owners of [[PLATFORM], [], undefined]) {
      const refused = await as(payments)("POST", f.path, f.create(owners));
      expectErrorBody(refused, 403, "resource_forbidden", "team_scope_exceeded");
      expect(refused.body.errors[0].message).toContain(PAYMENTS);
    }
  });

  test("refuses to change or delete another team's object, and to give its own away; reads every one", async () => {
    const theirs = (await emu.ok("POST", f.path, { body: f.create([PLATFORM]) }))[f.key];
    const call = as(payments);
    for (const [method, body] of [
      ["PUT", f.update([PAYMENTS])],
      ["PUT", f.update()],
      ["DELETE", undefined],
    ] as const) {
      const refused = await call(method, `${f.path}/${theirs.id}`, body);
      expectErrorBody(refused, 403, "resource_forbidden", "team_scope_exceeded");
      expect(refused.body.errors[0].message).toContain(`owned by teams ${PLATFORM}`);
    }
    expect((await call("GET", `${f.path}/${theirs.id}`)).status).toBe(200);
    expect((await emu.ok("GET", `${f.path}/${theirs.id}`))[f.key].name).toBe(theirs.name);

    const mine = (await call("POST", f.path, f.create([PAYMENTS]))).body[f.key];
    expectErrorBody(
      await call("PUT", `${f.path}/${mine.id}`, f.update([PLATFORM])),
      403,
      "resource_forbidden",
      "team_scope_exceeded",
    );
    // A key holding the account-level role writes any team's objects.
    const accountWide = await emu.createApiKey(`account ${f.role}`, [f.role]);
    expect((await as(accountWide)("DELETE", `${f.path}/${theirs.id}`)).status).toBe(204);
    expect((await as(accountWide)("DELETE", `${f.path}/${mine.id}`)).status).toBe(204);
  });

  test("an object that does not exist is a 404, not a 403", async () => {
    expect((await as(payments)("DELETE", `${f.path}/01NOSUCHOBJECT0000000000000`)).status).toBe(404);
  });
});

test("a workflow update is a full PUT: leaving owning_team_ids out would leave it to no team, refused", async () => {
  const editor = await emu.createApiKey("payments workflows", [], ["workflows_editor"], [PAYMENTS]);
  const created = await emu.call("POST", "/v2/workflows", { token: editor, body: workflow([PAYMENTS]) });
  expect(created.status).toBe(201);
  const { trigger: _t, ...update } = workflow();
  const refused = await emu.call("PUT", `/v2/workflows/${created.body.workflow.id}`, {
    token: editor,
    body: update,
  });
  expectErrorBody(refused, 403, "resource_forbidden", "team_scope_exceeded");
  expect(refused.body.errors[0].message).toContain("the whole organisation");
});
