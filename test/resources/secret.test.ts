import { hashSecretValue, SECRETS, type StoredSecret } from "../../emulator/families/secrets";
import { enablePagedReads } from "../../provider/pagedReads";
import {
  findSecretByName,
  lastFourOf,
  type SecretInputs,
  secretCreatePayload,
  secretFromApi,
  secretInputs,
  secretProvider,
  secretUpdatePayload,
  secretValueFromApi,
} from "../../resources/secret";
import { expectCheckFailure, useSettingsEmulator } from "../fixtures/settings/emulator";
import { expectWarned } from "../support/checkWarnings";
import { expectShape } from "../support/emulator";
import { expectReadsByPage, type Managed } from "../support/pagedReads";

const parse = (raw: Record<string, unknown>): SecretInputs => secretInputs.parse(raw);
const ae = useSettingsEmulator();
const stored = (id: string) => ae.emu.store.collection<StoredSecret>(SECRETS).get(id)!;
const show = async (id: string) => ae.ok("GET", `/v2/secrets/${id}`);

describe("mapping", () => {
  test("the value is in the create payload only; the update payload is metadata", () => {
    const args = parse({ name: "Hook", value: "s3cr3t-token", owningTeamIds: ["t2", "t1", "t2"] });
    const create = secretCreatePayload(args);
    expect(create).toEqual({ name: "Hook", value: "s3cr3t-token", owning_team_ids: ["t1", "t2"] });
    expectShape("SecretsCreatePayloadV2", create);
    const update = secretUpdatePayload(args);
    expect(update).toEqual({ name: "Hook", owning_team_ids: ["t1", "t2"] });
    expectShape("SecretsUpdatePayloadV2", update);
  });
});

describe('rule "write-only secret value" (vectors)', () => {
  test.each([
    ["declared value, matching last four", { last_four_chars: "oken" }, "s3cr3t-token", "s3cr3t-token"],
    ["short value: no last four answered", {}, "abcd", "abcd"],
    ["rotated elsewhere: other last four", { last_four_chars: "9999" }, "s3cr3t-token", undefined],
    ["rotated elsewhere to a longer value", { last_four_chars: "wxyz" }, "abcd", undefined],
    ["nothing declared (a `get`)", { last_four_chars: "oken" }, undefined, undefined],
  ])("%s", (_title, live, declared, expected) => {
    expect(secretValueFromApi(live, declared)).toBe(expected);
  });
  test("lastFourOf matches what the emulator answers", async () => {
    for (const value of ["abc", "abcd", "abcde", "a long value"]) {
      const created = (await ae.ok("POST", "/v2/secrets", { name: `v-${value}`, value })).secret;
      expect(created.last_four_chars).toBe(lastFourOf(value));
      await ae.ok("DELETE", `/v2/secrets/${created.id}`);
    }
  });
});

describe("check (zero API calls)", () => {
  test.each([
    [{ value: "x" }, "name"],
    [{ name: "S" }, "value"],
    [{ name: "S", value: 1234 }, "value"],
    [{ name: "S", value: "x", owningTeamIds: "01TEAMPLATFORM" }, "owningTeamIds"],
    [{ name: "S", value: "x", lastFourChars: "abcd" }, "lastFourChars"],
  ])("%j fails at %s", async (inputs, property) => {
    await expectCheckFailure(ae, secretProvider.check!, inputs, property);
  });

  // No published rule forbids these (issue 28): passed on, warned about at the input path.
  test.each([
    [{ name: "S", value: "" }, "value", /is empty/],
    [{ name: "S", value: "x", owningTeamIds: [""] }, "owningTeamIds[0]", /is empty/],
  ] as [
    Record<string, unknown>,
    string,
    RegExp,
  ][])("%j is passed on with a warning at %s", async (inputs, path, reason) => {
    await expectWarned(secretProvider, inputs, path, reason);
  });
});

describe("provider against the emulator", () => {
  test("create → no diff → value change rotates → rotation elsewhere is drift, up rotates back → metadata update → delete", async () => {
    const inputs = parse({ name: "Webhook token", value: "first-value-0001", description: "for the hook" });
    const created = await secretProvider.create!(inputs);
    expect(created.outs).toMatchObject({ value: "first-value-0001", lastFourChars: "0001", version: 1 });
    expect(stored(created.id).valueHash).toBe(hashSecretValue("first-value-0001"));
    const read = await secretProvider.read!(created.id, created.outs);
    expect(read.props!.value).toBe("first-value-0001");
    expect((await secretProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);

    // A new value: update in place, by rotation.
    const next = { ...inputs, value: "second-value-0002" };
    expect(await secretProvider.diff!(created.id, read.props!, next)).toMatchObject({
      changes: true,
      replaces: [],
    });
    const mark = ae.emu.requests.length;
    const rotated = await secretProvider.update!(created.id, read.props!, next);
    expect(ae.providerCalls(mark)).toEqual([
      `PUT /v2/secrets/${created.id} 200`,
      `POST /v2/secrets/${created.id}/actions/rotate 200`,
    ]);
    expect(rotated.outs).toMatchObject({ value: "second-value-0002", lastFourChars: "0002", version: 2 });
    expect(stored(created.id).valueHash).toBe(hashSecretValue("second-value-0002"));

    // Rotated in the dashboard: the value reads back unknown (drift); the next update rotates back.
    await ae.ok("POST", `/v2/secrets/${created.id}/actions/rotate`, { value: "dashboard-9999" });
    const drifted = await secretProvider.read!(created.id, rotated.outs);
    expect(drifted.props!.value).toBeUndefined();
    expect(drifted.props!.version).toBe(3);
    expect((await secretProvider.diff!(created.id, drifted.props!, next)).changes).toBe(true);
    const restored = await secretProvider.update!(created.id, drifted.props!, next);
    expect(restored.outs).toMatchObject({ value: "second-value-0002", version: 4 });
    expect(stored(created.id).valueHash).toBe(hashSecretValue("second-value-0002"));

    // Metadata only: no rotation.
    const renamed = { ...next, name: "Webhook token (renamed)", owningTeamIds: ["01TEAMPLATFORM"] };
    const mark2 = ae.emu.requests.length;
    await secretProvider.update!(created.id, restored.outs, renamed);
    expect(ae.providerCalls(mark2)).toEqual([`PUT /v2/secrets/${created.id} 200`]);
    const shown = await show(created.id);
    expect(shown.secret).toMatchObject({
      name: "Webhook token (renamed)",
      version: 4,
      owning_team_ids: ["01TEAMPLATFORM"],
    });
    expect(shown.versions.map((v: any) => v.version)).toEqual([4, 3, 2, 1]);
    expect(JSON.stringify(shown)).not.toContain("second-value");

    expect(await findSecretByName(ae.dashboard, "Webhook token (renamed)")).toMatchObject({
      id: created.id,
      lastFourChars: "0002",
      version: 4,
    });
    await secretProvider.delete!(created.id, restored.outs);
    expect((await secretProvider.read!(created.id, restored.outs)).id).toBe("");
  });

  test("a team that does not exist: the API's 400 names it", async () => {
    const error = await secretProvider.create!(
      parse({ name: "Team secret", value: "abcdef", owningTeamIds: ["01NOSUCHTEAM"] }),
    ).catch((e) => e);
    expect(error.message).toMatch(/400 invalid_request_error: No team with id 01NOSUCHTEAM/);
  });

  test("destroy while a workflow uses the secret: refused with a clear error, nothing lost", async () => {
    const created = await secretProvider.create!(parse({ name: "Used", value: "used-by-a-workflow" }));
    const workflow = (
      await ae.ok("POST", "/v2/workflows", {
        name: "Call the hook",
        trigger: "incident.updated",
        once_for: [],
        condition_groups: [],
        steps: [
          {
            id: "s1",
            name: "http.post",
            param_bindings: [{ value: { literal: `{{ secret["${created.id}"] }}` } }],
          },
        ],
        expressions: [],
        include_private_incidents: false,
        continue_on_step_error: false,
        runs_on_incidents: "newly_created",
        runs_on_incident_modes: ["standard"],
        state: "active",
      })
    ).workflow;
    const error = await secretProvider.delete!(created.id, created.outs).catch((e) => e);
    expect(error.message).toMatch(
      /Secret "Used" delete failed: delete secret: 409 conflict: the secret "Used" is still referenced by a workflow: "Call the hook"/,
    );
    expect(error.message).toMatch(/remove it from the workflow first/);
    expect(stored(created.id)).toBeDefined();
    await ae.ok("DELETE", `/v2/workflows/${workflow.id}`);
    await secretProvider.delete!(created.id, created.outs);
    expect(ae.emu.store.collection(SECRETS).get(created.id)).toBeUndefined();
  });

  test("adoption by id: metadata updated and the value rotated to the declared one", async () => {
    const existing = (await ae.ok("POST", "/v2/secrets", { name: "Legacy", value: "unknown-to-the-stack" }))
      .secret;
    const mark = ae.emu.requests.length;
    const adopted = await secretProvider.create!(
      parse({ name: "Legacy", value: "now-declared-1234", description: "adopted", adoptId: existing.id }),
    );
    expect(adopted.id).toBe(existing.id);
    expect(ae.providerCalls(mark).filter((c) => c.startsWith("POST"))).toEqual([
      `POST /v2/secrets/${existing.id}/actions/rotate 200`,
    ]);
    expect(adopted.outs).toMatchObject({ value: "now-declared-1234", version: 2, description: "adopted" });
    expect(stored(existing.id).valueHash).toBe(hashSecretValue("now-declared-1234"));
    expect(
      secretFromApi((await show(existing.id)).secret, parse({ name: "Legacy", value: "now-declared-1234" }))
        .value,
    ).toBe("now-declared-1234");
  });

  test("duplicate name: the 422 names the input property", async () => {
    const error = await secretProvider.create!(parse({ name: "Legacy", value: "abcdef" })).catch((e) => e);
    expect(error.message).toMatch(/name: a secret named "Legacy" already exists/);
  });
});

describe("reads by page (provider/pagedReads.ts)", () => {
  test("a refresh of 260 secrets: ⌈listed ÷ 250⌉ + 1 requests, the same read-back (a rotation elsewhere is drift from the pages too); a deletion out of band is seen", async () => {
    const objects: Managed[] = [];
    for (let i = 0; i < 260; i++) {
      const created = await secretProvider.create!(parse({ name: `Paged ${i}`, value: `paged-value-${i}` }));
      objects.push({ id: created.id, outs: created.outs });
    }
    // Rotated elsewhere: `version` and `lastFourChars` change, the value reads back unknown (drift).
    await ae.ok("POST", `/v2/secrets/${objects[5]!.id}/actions/rotate`, { value: "rotated-by-hand" });
    const counts = await expectReadsByPage(ae, secretProvider, objects, (o) =>
      ae.ok("DELETE", `/v2/secrets/${o.id}`),
    );
    expect(counts.listed).toBeGreaterThan(250);
    expect(counts).toMatchObject({ bound: 3, requests: 3, afterDeletion: 4 });
    enablePagedReads();
    try {
      const rotated = await Promise.all(objects.slice(4, 7).map((o) => secretProvider.read!(o.id, o.outs)));
      expect(rotated[1]!.props).toMatchObject({ version: 2, lastFourChars: "hand" });
      expect(rotated[1]!.props!.value).toBeUndefined();
      expect(rotated[0]!.props).toMatchObject({ version: 1, value: "paged-value-4" });
    } finally {
      enablePagedReads(false);
    }
  });
});
