import { z } from "zod";
import { ApiClient } from "../../provider/client";
import { resolveSettings, setCredentials } from "../../provider/credentials";
import { ApiError } from "../../provider/errors";
import { checkInputs, makeProvider } from "../../provider/factory";
import { PartialCreateError, type Props, RECOVERED, type ResourceSpec } from "../../provider/spec";
import { UNKNOWN } from "../../provider/unknowns";
import { providers } from "../../resources";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import { KIND_SAMPLES, type SampleApi } from "../support/kindSamples";

interface Live {
  id: string;
  name: string;
  kind: string;
  tags: string[];
  nested?: { level: { items: { type: string }[] } };
}

/** An in-memory API behind a minimal spec, to test the generic machinery alone. */
function fixture(extra: Partial<ResourceSpec> = {}) {
  const store = new Map<string, Live>();
  const calls: string[] = [];
  /** The prior state each update was given; `failUpdates` makes that many updates fail with a 503. */
  const updateOlds: Props[] = [];
  const faults = { failUpdates: 0 };
  let next = 1;
  const inputs = z.strictObject({
    name: z.string().min(1, "must not be empty"),
    kind: z.enum(["a", "b"]).default("a"),
    tags: z.array(z.string()).default([]),
    nested: z
      .strictObject({
        level: z.strictObject({ items: z.array(z.strictObject({ type: z.enum(["x", "y"]) })) }),
      })
      .optional(),
    adoptId: z.string().optional(),
  });
  type Args = z.infer<typeof inputs>;
  const spec: ResourceSpec<Args, Live> = {
    kind: "Thing",
    title: "thing",
    schemaVersion: 2,
    migrate: (olds) => ({ ...olds, tags: olds.labels ?? olds.tags ?? [] }),
    inputs,
    replaceOnChanges: ["kind"],
    deleteBeforeReplace: true,
    secretOutputs: [],
    computedOutputs: ["serial"],
    fieldRenames: { label_names: "tags" },
    validate: (args) => (args.name === "forbidden" ? [{ path: ["name"], message: "is reserved" }] : []),
    canonical: (args) => ({ ...args, tags: [...(args.tags ?? [])].sort() }),
    idOf: (live) => live.id,
    toInputs: (live) => ({
      name: live.name,
      kind: live.kind as "a" | "b",
      tags: live.tags,
      nested: live.nested as Args["nested"],
    }),
    computed: (live) => ({ serial: Number(live.id) }),
    api: {
      async create(_ctx, args) {
        calls.push("create");
        if (args.name === "half") {
          const live = { id: String(next++), name: args.name, kind: args.kind, tags: args.tags };
          store.set(live.id, live);
          throw new PartialCreateError(live, new Error("second step failed"));
        }
        if (args.name.startsWith("lost")) {
          // The server commits, then the response is lost.
          const live = { id: String(next++), name: args.name, kind: args.kind, tags: args.tags };
          store.set(live.id, live);
          throw new ApiError({
            operation: "create thing",
            status: 0,
            type: "network_error",
            details: [],
            outcomeUnknown: true,
          });
        }
        if (args.name === "invalid") {
          throw new ApiError({
            operation: "create thing",
            status: 422,
            type: "validation_error",
            requestId: "req-9",
            details: [
              { code: "invalid_value", message: "bad label", field: "label_names.2" },
              { code: "invalid_value", message: "bad", field: "nested.level.items.0.type" },
            ],
          });
        }
        const live = {
          id: String(next++),
          name: args.name,
          kind: args.kind,
          tags: args.tags,
          nested: args.nested,
        };
        store.set(live.id, live);
        return { live };
      },
      async read(_ctx, id) {
        calls.push("read");
        return store.get(id);
      },
      async update(_ctx, id, args, olds) {
        calls.push("update");
        updateOlds.push(olds);
        if (faults.failUpdates > 0) {
          faults.failUpdates--;
          throw new ApiError({ operation: "update thing", status: 503, type: "api_error", details: [] });
        }
        const live = { ...store.get(id)!, name: args.name, tags: args.tags, nested: args.nested };
        store.set(id, live);
        return { live };
      },
      async findCreated(_ctx, args) {
        calls.push("find");
        return [...store.values()].find((t) => t.name === args.name);
      },
      async delete(_ctx, id) {
        calls.push("delete");
        if (!store.delete(id)) {
          throw new ApiError({ operation: "delete thing", status: 404, type: "not_found", details: [] });
        }
      },
    },
  };
  return {
    spec,
    provider: makeProvider({ ...spec, ...extra } as typeof spec),
    store,
    calls,
    updateOlds,
    faults,
  };
}

beforeAll(() => setCredentials({ apiKey: "test", baseUrl: "http://127.0.0.1:9" }));

describe("check", () => {
  test("applies defaults and keeps __provider", async () => {
    const { provider, calls } = fixture();
    const out = await provider.check!({}, { name: "n", __provider: "text" });
    expect(out.failures).toEqual([]);
    expect(out.inputs).toEqual({ name: "n", kind: "a", tags: [], __provider: "text" });
    expect(calls).toEqual([]);
  });

  test("one failure per bad property, named by the input path", async () => {
    const { spec } = fixture();
    const failures = checkInputs(spec, {
      name: "",
      kind: "c",
      tags: "x",
      nested: { level: { items: [{ type: "x" }, { type: "q" }] } },
    });
    expect(failures.map((f) => f.property).sort()).toEqual(["kind", "name", "nested", "tags"]);
    expect(failures.find((f) => f.property === "nested")?.reason).toMatch(
      /^nested\.level\.items\[1\]\.type: /,
    );
    expect(failures.find((f) => f.property === "name")?.reason).toBe("name: must not be empty");
  });

  test("a missing required field and an unknown property are named, with a suggestion for a near miss", () => {
    const { spec } = fixture();
    const failures = checkInputs(spec, { Name: "x" });
    expect(failures).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ property: "name" }),
        expect.objectContaining({ property: "Name", reason: expect.stringContaining('did you mean "name"') }),
      ]),
    );
  });

  test("unknown preview values are skipped, not reported", async () => {
    const { provider } = fixture();
    const out = await provider.check!({}, { name: UNKNOWN, kind: UNKNOWN, tags: [UNKNOWN], __provider: "p" });
    expect(out.failures).toEqual([]);
  });

  test("a real error beside an unknown value is still reported", async () => {
    const { provider } = fixture();
    const out = await provider.check!({}, { name: UNKNOWN, kind: "zzz", __provider: "p" });
    expect(out.failures?.map((f) => f.property)).toEqual(["kind"]);
  });

  test("cross-field rules run after the schema", async () => {
    const { provider } = fixture();
    const out = await provider.check!({}, { name: "forbidden", __provider: "p" });
    expect(out.failures).toEqual([{ property: "name", reason: "name: is reserved" }]);
  });
});

describe("diff", () => {
  const olds = { name: "n", kind: "a", tags: ["x", "y"], serial: 1, __provider: "old", __schema: 2 };
  test("always answers changes; no change when only computed outputs or __provider differ", async () => {
    const { provider } = fixture();
    const out = await provider.diff!("1", olds, {
      name: "n",
      kind: "a",
      tags: ["x", "y"],
      __provider: "new",
    });
    expect(out).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });
  test("canonical form: set order is not a change", async () => {
    const { provider } = fixture();
    expect((await provider.diff!("1", olds, { name: "n", kind: "a", tags: ["y", "x"] })).changes).toBe(false);
  });
  test("an update in place", async () => {
    const { provider } = fixture();
    expect(await provider.diff!("1", olds, { name: "m", kind: "a", tags: ["x", "y"] })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });
  test("a replace-on-change field replaces, delete-before-replace as the spec says", async () => {
    const { provider } = fixture();
    expect(await provider.diff!("1", olds, { name: "n", kind: "b", tags: ["x", "y"] })).toEqual({
      changes: true,
      replaces: ["kind"],
      deleteBeforeReplace: true,
    });
  });
  test("an unknown value counts as a change (and a replace for a replace field)", async () => {
    const { provider } = fixture();
    const out = await provider.diff!("1", olds, { name: "n", kind: UNKNOWN, tags: ["x", "y"] });
    expect(out.replaces).toEqual(["kind"]);
  });
  test("adoptId never causes a diff", async () => {
    const { provider } = fixture();
    expect((await provider.diff!("1", olds, { ...olds, adoptId: "77" })).changes).toBe(false);
  });
  test("older state is migrated before comparing", async () => {
    const { provider } = fixture();
    const v1 = { name: "n", kind: "a", labels: ["x"], __schema: 1 };
    expect((await provider.diff!("1", v1, { name: "n", kind: "a", tags: ["x"] })).changes).toBe(false);
  });
});

describe("create / read / update / delete", () => {
  test("create returns the id and every normalised input plus computed outputs", async () => {
    const { provider } = fixture();
    const out = await provider.create({ name: "n", kind: "a", tags: ["t"], __provider: "p" });
    expect(out).toEqual({ id: "1", outs: { name: "n", kind: "a", tags: ["t"], serial: 1, __schema: 2 } });
  });

  test("read reports live values as props and inputs (drift), and an empty id when gone", async () => {
    const { provider, store } = fixture();
    const { id, outs } = await provider.create({ name: "n", kind: "a", tags: [] });
    store.get(id)!.name = "changed by hand";
    const read = await provider.read!(id, outs);
    expect(read.props?.name).toBe("changed by hand");
    expect(read.inputs).toEqual({ name: "changed by hand", kind: "a", tags: [] });
    store.delete(id);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });

  test("update returns the new outputs", async () => {
    const { provider } = fixture();
    const { id, outs } = await provider.create({ name: "n", kind: "a", tags: [] });
    const updated = await provider.update!(id, outs, { name: "m", kind: "a", tags: ["z"] });
    expect(updated.outs).toMatchObject({ name: "m", tags: ["z"], serial: 1 });
  });

  test("delete treats 404 as done", async () => {
    const { provider, calls } = fixture();
    await expect(provider.delete!("404", { name: "n" })).resolves.toBeUndefined();
    expect(calls).toEqual(["delete"]);
  });

  test("adoption takes the existing object over instead of creating one", async () => {
    const { provider, store, calls } = fixture();
    store.set("42", { id: "42", name: "old", kind: "a", tags: [] });
    const out = await provider.create({ name: "declared", kind: "a", tags: [], adoptId: "42" });
    expect(out.id).toBe("42");
    expect(store.get("42")?.name).toBe("declared");
    expect(calls).toEqual(["read", "update"]);
    expect(out.outs.adoptId).toBe("42");
  });

  test("adopting an object that already holds the declaration writes nothing (compared as the diff compares)", async () => {
    const { provider, store, calls } = fixture();
    store.set("42", { id: "42", name: "same", kind: "b", tags: ["y", "x"] });
    // Tags in another order: equal by the spec's canonical form, as a diff would judge them.
    const out = await provider.create({ name: "same", kind: "b", tags: ["x", "y"], adoptId: "42" });
    expect(calls).toEqual(["read"]);
    expect(out.id).toBe("42");
    expect(out.outs).toMatchObject({ name: "same", kind: "b", adoptId: "42", serial: 42 });
    // The stored state is what a read stores: the next diff sees no change.
    expect(
      (await provider.diff!("42", out.outs, { name: "same", kind: "b", tags: ["x", "y"] })).changes,
    ).toBe(false);
  });

  test("adopting an object that differs in one field updates it once", async () => {
    const { provider, store, calls } = fixture();
    store.set("42", { id: "42", name: "same", kind: "a", tags: ["old"] });
    await provider.create({ name: "same", kind: "a", tags: ["new"], adoptId: "42" });
    expect(calls).toEqual(["read", "update"]);
    expect(store.get("42")?.tags).toEqual(["new"]);
  });

  test("a declared write-only input is written on adoption: the API never says whether the object holds it", async () => {
    const { provider, store, calls } = fixture({ writeOnlyInputs: ["tags"] });
    store.set("42", { id: "42", name: "same", kind: "a", tags: ["x"] });
    await provider.create({ name: "same", kind: "a", tags: ["x"], adoptId: "42" });
    expect(calls).toEqual(["read", "update"]);
  });

  test("adopting an id that does not exist fails clearly and creates nothing", async () => {
    const { provider, store } = fixture();
    await expect(provider.create({ name: "x", kind: "a", tags: [], adoptId: "nope" })).rejects.toThrow(
      'Thing: adoptId "nope": no thing with that id exists',
    );
    expect(store.size).toBe(0);
  });

  test("a partial create hands the engine the id and state (nothing orphaned)", async () => {
    const { provider } = fixture();
    const error = await provider.create({ name: "half", kind: "a", tags: [] }).catch((e) => e);
    expect(error.id).toBe("1");
    expect(error.properties).toMatchObject({ name: "half", serial: 1 });
    expect(error.reasons).toEqual(["second step failed"]);
  });

  test("a create whose response was lost is found again, not repeated: no duplicate", async () => {
    const { provider, store, calls } = fixture();
    const out = await provider.create({ name: "lost", kind: "a", tags: ["t"] });
    expect(store.size).toBe(1);
    expect(out.id).toBe([...store.keys()][0]);
    expect(calls).toEqual(["create", "find", "update"]);
  });

  test("a lost create found again whose converging update fails: recorded as half-created, marked recovered until an update succeeds", async () => {
    const { provider, store, calls, updateOlds, faults } = fixture();
    faults.failUpdates = 1;
    const error = await provider.create({ name: "lost-then-503", kind: "a", tags: ["t"] }).catch((e) => e);
    expect(calls).toEqual(["create", "find", "update"]);
    // The engine gets the object (nothing orphaned) and the marker, so the next update knows the
    // state never saw a create response (e.g. an API key's token, an alert route's version).
    expect(store.size).toBe(1);
    expect(error.id).toBe([...store.keys()][0]);
    expect(error.properties).toMatchObject({ name: "lost-then-503", [RECOVERED]: true });
    // A refresh in between keeps the marker.
    const refreshed = await provider.read!(error.id, error.properties);
    expect(refreshed.props?.[RECOVERED]).toBe(true);
    expect(refreshed.inputs?.[RECOVERED]).toBeUndefined();
    // The engine retries the half-created object with an update: it sees the marker; success clears it.
    const updated = await provider.update!(error.id, refreshed.props!, {
      name: "lost-then-503",
      kind: "a",
      tags: ["t"],
    });
    expect(updateOlds.at(-1)?.[RECOVERED]).toBe(true);
    expect(updated.outs?.[RECOVERED]).toBeUndefined();
    expect((await provider.read!(error.id, updated.outs!)).props?.[RECOVERED]).toBeUndefined();
  });

  test("a 422 names the user's input paths, the operation and the request id", async () => {
    const { provider } = fixture();
    const error = await provider.create({ name: "invalid", kind: "a", tags: [] }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toContain("tags[2]: bad label");
    expect(error.message).toContain("nested.level.items[0].type: bad");
    expect(error.message).toContain("request_id req-9");
    expect(error.message).toContain('Thing "invalid" create failed');
  });
});

describe("a read is just the GET: a 404 from it means gone, everywhere the factory reads", () => {
  /** The fixture with a read that answers 404 for an id the store does not hold, as the API does. */
  function fixtureWith404() {
    const f = fixture();
    const spec: ResourceSpec = {
      ...f.spec,
      api: {
        ...f.spec.api,
        async read(_ctx, id) {
          f.calls.push("read");
          const live = f.store.get(id);
          if (!live)
            throw new ApiError({ operation: "show thing", status: 404, type: "not_found", details: [] });
          return live;
        },
      },
    } as ResourceSpec;
    return { ...f, provider: makeProvider(spec) };
  }

  test("refresh of a deleted object drops it (empty id)", async () => {
    const { provider, store } = fixtureWith404();
    const { id, outs } = await provider.create({ name: "n", kind: "a", tags: [] });
    store.delete(id);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });

  test("Xxx.get of an id that does not exist says so", async () => {
    const { provider } = fixtureWith404();
    await expect(provider.read!("nope", {})).rejects.toThrow('Thing.get: no thing with id "nope" exists');
  });

  test("adopting an id that does not exist fails clearly and creates nothing", async () => {
    const { provider, store } = fixtureWith404();
    await expect(provider.create({ name: "x", kind: "a", tags: [], adoptId: "nope" })).rejects.toThrow(
      'Thing: adoptId "nope": no thing with that id exists',
    );
    expect(store.size).toBe(0);
  });

  test("any other read failure is reported, named", async () => {
    const f = fixture();
    const spec = {
      ...f.spec,
      api: {
        ...f.spec.api,
        read: async () => {
          throw new ApiError({ operation: "show thing", status: 500, type: "api_error", details: [] });
        },
      },
    } as ResourceSpec;
    await expect(makeProvider(spec).read!("1", { name: "n", __schema: 2 })).rejects.toThrow(
      'Thing "n" read failed: show thing: 500 api_error',
    );
  });
});

describe("changes: what diff decides from, at nested input paths (for plan reports)", () => {
  test("nested paths with old and new, after the canonical form; diff names exactly their keys", async () => {
    const { provider } = fixture();
    const olds = { name: "n", kind: "a", tags: ["x", "y"], nested: { level: { items: [{ type: "x" }] } } };
    const news = { name: "n", kind: "a", tags: ["y", "x"], nested: { level: { items: [{ type: "y" }] } } };
    expect(provider.changes({ ...olds, serial: 1, __schema: 2 }, news)).toEqual([
      { path: ["nested", "level", "items", 0, "type"], kind: "changed", old: "x", new: "y" },
    ]);
    expect((await provider.diff!("1", olds, news)).changes).toBe(true);
    expect(provider.changes(olds, { ...olds, tags: ["y", "x"] })).toEqual([]);
  });
});

describe("the dashboard lock (incident:lockInDashboard): creates and adoptions claim their objects", () => {
  let emu: TestEmulator;
  let api: SampleApi;
  beforeAll(async () => {
    emu = await startTestEmulator({ burst: 100_000, refillPerSecond: 100_000 });
  });
  afterAll(async () => {
    setCredentials({});
    await emu.dispose();
  });
  beforeEach(async () => {
    await emu.reset();
    const key = await emu.createApiKey("dashboard", ["global_access"]);
    api = { emu, call: (method, urlPath, body) => emu.ok(method, urlPath, { token: key, body }) };
  });
  const claims = () =>
    emu.store
      .collection<{
        id: string;
        resource_id: string;
        resource_type: string;
        managed_by: string;
        annotations: object;
      }>("managed_resources")
      .all();
  const claimable = Object.entries(providers).filter(([, p]) => p.spec.claimAs !== undefined);

  test("the seven kinds the API can claim are the kinds that claim", () => {
    expect(claimable.map(([, p]) => p.spec.claimAs).sort()).toEqual([
      "alert_route",
      "alert_source",
      "escalation_path",
      "schedule",
      "schedule_sync_rule",
      "schedule_sync_target",
      "workflow",
    ]);
  });

  test.each(
    claimable.map(([kind]) => kind),
  )("%s: create claims it as managed externally; check and diff send nothing", async (kind) => {
    const provider = providers[kind]!;
    const prepared = await KIND_SAMPLES[kind]!.prepare(api);
    setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url, lockInDashboard: "true" });
    const mark = emu.requests.length;
    const { inputs } = await provider.check!({}, prepared.inputs);
    await provider.diff!("x", inputs, inputs);
    expect(emu.requests.slice(mark)).toEqual([]);
    const { id } = await provider.create(inputs);
    const apiId = provider.spec.claimId ? provider.spec.claimId(id) : id;
    expect(claims()).toEqual([
      {
        id: `${provider.spec.claimAs}:${apiId}`,
        resource_id: apiId,
        resource_type: provider.spec.claimAs,
        managed_by: "external",
        annotations: { "incident.io/pulumi-incident/version": expect.any(String) },
      },
    ]);
  });

  test("adoption claims too; without the setting nothing is claimed", async () => {
    const provider = providers.AlertSource!;
    const prepared = await KIND_SAMPLES.AlertSource!.prepare(api);
    setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url });
    const { inputs } = await provider.check!({}, prepared.inputs);
    const made = await provider.create(inputs);
    expect(claims()).toEqual([]);
    setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url, lockInDashboard: "true" });
    await provider.create({ ...inputs, adoptId: made.id });
    expect(claims().map((c) => c.resource_id)).toEqual([made.id]);
  });

  test("a claim the API refuses does not fail the create: the object is kept, and a warning says it is not locked", async () => {
    const warnings: string[] = [];
    const warn = jest
      .spyOn(ApiClient.prototype, "warn")
      .mockImplementation((m: string) => void warnings.push(m));
    try {
      const provider = providers.Workflow!;
      const prepared = await KIND_SAMPLES.Workflow!.prepare(api);
      setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url, lockInDashboard: "true" });
      emu.faults.add({ path: "^/v2/managed_resources$", kind: "status", status: 403 });
      const { inputs } = await provider.check!({}, prepared.inputs);
      const { id } = await provider.create(inputs);
      expect(id).toBeTruthy();
      expect(claims()).toEqual([]);
      expect(warnings).toEqual([
        expect.stringMatching(
          new RegExp(`workflow ${id} was made but not locked in the dashboard .*stays editable`),
        ),
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  test("a setting that is not true or false is an error naming it", () => {
    expect(() =>
      resolveSettings((k) => ({ "incident:lockInDashboard": "yes" })[k], { INCIDENT_API_KEY: "k" }),
    ).toThrow('incident:lockInDashboard must be true or false (got "yes")');
    expect(
      resolveSettings(() => undefined, { INCIDENT_API_KEY: "k", INCIDENT_LOCK_IN_DASHBOARD: "TRUE" }),
    ).toMatchObject({
      lockInDashboard: true,
    });
  });
});
