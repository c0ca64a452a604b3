/**
 * The harness itself (tools/harness): a data-driven fixture program (test/fixtures/harness/program)
 * and a tiny fixture dynamic provider (test/fixtures/harness/provider.js) whose "remote objects"
 * live in a JSON file, driven through the real dynamic-provider host with the engine's semantics.
 * Each scenario has its own state, "remote" store and call log, so scenarios run concurrently.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as harness from "../tools/harness";
import { startTestEmulator } from "./support/emulator";

const program = path.join(__dirname, "fixtures", "harness", "program");

interface Res {
  name: string;
  args?: Record<string, unknown>;
  opts?: Record<string, unknown>;
}
interface LogEntry {
  op: string;
  id?: string;
  name?: string;
  olds?: Record<string, unknown>;
  news?: Record<string, unknown>;
}

function scenario(label: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `harness-test-${label}-`));
  const dbFile = path.join(dir, "remote.json");
  const logFile = path.join(dir, "calls.jsonl");
  const stateFile = path.join(dir, "state.json");
  const options = (
    resources: Res[],
    extra: Partial<harness.HarnessOptions> = {},
  ): harness.HarnessOptions => ({
    program,
    stateFile,
    ...extra,
    env: { HARNESS_FIXTURE_DB: dbFile, HARNESS_FIXTURE_LOG: logFile, ...extra.env },
    config: { "harness-fixture:spec": JSON.stringify({ resources }), ...extra.config },
  });
  return {
    dir,
    stateFile,
    up: (resources: Res[], extra?: Partial<harness.HarnessOptions> & { refresh?: boolean }) =>
      harness.up({ ...options(resources, extra), refresh: extra?.refresh }),
    preview: (resources: Res[], extra?: Partial<harness.HarnessOptions> & { refresh?: boolean }) =>
      harness.preview({ ...options(resources, extra), refresh: extra?.refresh }),
    refresh: (extra?: Partial<harness.HarnessOptions>) => harness.refresh(options([], extra)),
    destroy: (extra?: Partial<harness.HarnessOptions>) => harness.destroy(options([], extra)),
    /** Provider calls since the last take() (check/diff/create/read/update/delete). */
    take(): LogEntry[] {
      if (!fs.existsSync(logFile)) return [];
      const lines = fs.readFileSync(logFile, "utf8").split("\n").filter(Boolean);
      fs.rmSync(logFile);
      return lines.map((l) => JSON.parse(l));
    },
    remote: (): Record<string, any> =>
      fs.existsSync(dbFile) ? JSON.parse(fs.readFileSync(dbFile, "utf8")).things : {},
    editRemote(f: (things: Record<string, any>) => void): void {
      const db = JSON.parse(fs.readFileSync(dbFile, "utf8"));
      f(db.things);
      fs.writeFileSync(dbFile, JSON.stringify(db));
    },
    state: (passphrase?: string) => harness.readState(stateFile, passphrase),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

const ops = (r: harness.RunResult) => r.steps.map((s) => `${s.op} ${s.name}`);
const writes = (log: LogEntry[]) =>
  log.filter((e) => ["create", "update", "delete"].includes(e.op)).map((e) => `${e.op} ${e.name}`);
const ok = (r: harness.RunResult) => {
  if (!r.ok) throw new Error(`run failed: ${JSON.stringify(r.errors, null, 2)}\n${r.log}`);
  return r;
};
const thing = (name: string, args: Record<string, unknown> = {}, opts?: Record<string, unknown>): Res => ({
  name,
  args: { name: name.toUpperCase(), ...args },
  ...(opts ? { opts } : {}),
});

describe("harness: lifecycle through the real dynamic-provider host", () => {
  const s = scenario("lifecycle");
  afterAll(() => s.cleanup());
  const base = () => [
    thing("a", { value: "1", kind: "blue" }),
    thing("b", { ref: { $ref: "a.remoteId" } }),
    thing("c", { value: "x" }, { dependsOn: ["b"] }),
  ];

  test("create, then a second run is all same with zero API calls", async () => {
    const first = ok(await s.up(base()));
    expect(ops(first).sort()).toEqual(["create a", "create b", "create c"]);
    // b waits for a (its ref is a's output), c for b (dependsOn).
    const at = (n: string) => first.steps.find((x) => x.name === n)!;
    expect(at("b").startMs).toBeGreaterThanOrEqual(at("a").endMs);
    expect(at("c").startMs).toBeGreaterThanOrEqual(at("b").endMs);
    expect(first.counts).toEqual({ create: 3 });
    expect(first.apiCalls.map((c) => `${c.method} ${c.path} ${c.from}`)).toEqual([
      "POST /things provider",
      "POST /things provider",
      "POST /things provider",
    ]);
    const ids = Object.keys(s.remote());
    expect(ids).toHaveLength(3);
    expect(first.outputs.a).toMatchObject({ value: "1", version: 1, token: "[secret]" });
    expect((first.outputs.b as any).remoteId).toBe((first.outputs as any).b.id);
    // b's ref is a's remoteId: the dependency reached the provider as a plain value.
    expect(s.remote()[(first.outputs as any).b.id].ref).toBe((first.outputs as any).a.id);
    s.take();

    const second = ok(await s.up(base()));
    expect(ops(second).sort()).toEqual(["same a", "same b", "same c"]);
    expect(second.apiCalls).toEqual([]);
    expect(writes(s.take())).toEqual([]);
    expect(second.outputs).toEqual(first.outputs);

    // Dependencies are recorded from the RegisterResource requests.
    const state = s.state();
    const byName = Object.fromEntries(state.resources.map((r) => [r.name, r]));
    expect(byName.b!.dependencies).toEqual([byName.a!.urn]);
    expect(byName.b!.propertyDependencies.ref).toEqual([byName.a!.urn]);
    expect(byName.c!.dependencies).toEqual([byName.b!.urn]);
    expect(byName.a!.provider).toContain("exports.handler");
    expect(byName.a!.providerBytes).toBeGreaterThan(2 * byName.a!.provider!.length - 1);
  });

  test("a changed input is an update with the changed keys", async () => {
    const r = ok(await s.up([thing("a", { value: "2", kind: "blue" }), ...base().slice(1)]));
    expect(ops(r).sort()).toEqual(["same b", "same c", "update a"]);
    expect(r.steps.find((x) => x.name === "a")!.changedKeys).toEqual(["value"]);
    expect(r.apiCalls.map((c) => c.method)).toEqual(["PUT"]);
    expect(writes(s.take())).toEqual(["update A"]);
    expect(r.outputs.a).toMatchObject({ value: "2", version: 2 });
  });

  test("a replace-on-change input replaces: create the new object, update dependents, delete the old one last", async () => {
    const before = s.state().resources.find((r) => r.name === "a")!.id;
    const r = ok(await s.up([thing("a", { value: "2", kind: "green" }), ...base().slice(1)]));
    const a = r.steps.find((x) => x.name === "a")!;
    expect(a).toMatchObject({ op: "replace", replaceKeys: ["kind"], deleteBeforeReplace: false });
    expect(r.steps.find((x) => x.name === "b")).toMatchObject({ op: "update", changedKeys: ["ref"] });
    expect(writes(s.take())).toEqual(["create A", "update B", "delete A"]);
    const after = s.state().resources.find((r) => r.name === "a")!;
    expect(after.id).not.toBe(before);
    expect(Object.keys(s.remote())).not.toContain(before);
    expect(s.state().resources.filter((x) => x.delete)).toEqual([]);
  });

  test("deleteBeforeReplace (asked by the diff, or the resource option) deletes the old object first", async () => {
    const byDiff = ok(
      await s.up([thing("a", { value: "2", kind: "red", exclusive: true }), ...base().slice(1)]),
    );
    expect(byDiff.steps.find((x) => x.name === "a" && x.op === "replace")).toMatchObject({
      deleteBeforeReplace: true,
    });
    // The old copy's delete is a step of its own, before the replacement (as the engine reports it).
    expect(ops(byDiff).filter((o) => o.endsWith(" a"))).toEqual(["delete a", "replace a"]);
    expect(writes(s.take())).toEqual(["delete A", "create A", "update B"]);

    const byOption = ok(
      await s.up([
        thing("a", { value: "2", kind: "red", exclusive: true }),
        thing("b", { ref: { $ref: "a.remoteId" } }),
        thing("c", { value: "x", kind: "square" }, { dependsOn: ["b"], deleteBeforeReplace: true }),
      ]),
    );
    expect(byOption.steps.find((x) => x.name === "c" && x.op === "replace")).toMatchObject({
      deleteBeforeReplace: true,
    });
    expect(writes(s.take())).toEqual(["delete C", "create C"]);
  });

  test("resources removed from the program are deleted, dependents before their dependencies", async () => {
    const r = ok(await s.up([]));
    expect(ops(r)).toEqual(["delete c", "delete b", "delete a"]);
    expect(writes(s.take())).toEqual(["delete C", "delete B", "delete A"]);
    expect(s.remote()).toEqual({});
    expect(s.state().resources.map((x) => x.type)).toEqual(["pulumi:pulumi:Stack"]);
    const gone = ok(await s.destroy());
    expect(gone.steps).toEqual([]);
    expect(s.state().resources).toEqual([]);
  });
});

describe("harness: --expect-no-changes", () => {
  test("passes when everything is the same and fails, naming the step, when something changes", async () => {
    const s = scenario("expect");
    ok(await s.up([thing("a", { value: "1" })]));
    ok(await s.preview([thing("a", { value: "1" })], { expectNoChanges: true }));
    const changed = await s.preview([thing("a", { value: "2" })], { expectNoChanges: true });
    expect(changed.ok).toBe(false);
    expect(changed.errors.map((e) => e.message)).toEqual([
      "no changes were expected but changes were proposed: update a",
    ]);
    s.cleanup();
  });
});

describe("harness: refresh", () => {
  const s = scenario("refresh");
  afterAll(() => s.cleanup());
  // Every create takes 300 ms: independent resources must be created in parallel.
  const spec = () => [
    thing("a", { value: "1", delayMs: 300 }),
    thing("b", { value: "2", delayMs: 300 }),
    thing("c", { value: "3", delayMs: 300 }),
  ];

  test("refresh detects an out-of-band change and an out-of-band deletion; up restores", async () => {
    const first = ok(await s.up(spec()));
    const creates = first.steps.filter((x) => x.op === "create");
    expect(creates).toHaveLength(3);
    expect(Math.max(...creates.map((x) => x.startMs))).toBeLessThan(Math.min(...creates.map((x) => x.endMs)));
    const id = (n: string) => (first.outputs as any)[n].id as string;
    s.editRemote((things) => {
      things[id("a")].value = "changed by hand";
      delete things[id("b")];
    });
    s.take();

    const refreshed = ok(await s.refresh());
    expect(ops(refreshed).sort()).toEqual(["read-drift a", "refresh-delete b", "same c"]);
    expect(refreshed.steps.find((x) => x.name === "a")).toMatchObject({
      changedKeys: ["value"],
      changedOutputKeys: ["value"],
      changedInputKeys: ["value"],
    });
    // `pulumi refresh` previews first: every object is read twice.
    expect(refreshed.apiCalls.map((c) => `${c.method} ${c.status}`).sort()).toEqual([
      "GET 200",
      "GET 200",
      "GET 200",
      "GET 200",
      "GET 404",
      "GET 404",
    ]);
    const state = s.state();
    expect(state.resources.map((r) => r.name)).not.toContain("b");
    expect(state.resources.find((r) => r.name === "a")!.inputs.value).toBe("changed by hand");

    const restored = ok(await s.up(spec()));
    expect(ops(restored).sort()).toEqual(["create b", "same c", "update a"]);
    expect(s.remote()[id("a")].value).toBe("1");
  });

  test("up --refresh and preview --refresh see drift before diffing", async () => {
    const id = s.state().resources.find((r) => r.name === "c")!.id!;
    s.editRemote((things) => {
      things[id].value = "drifted";
    });
    const before = fs.readFileSync(s.stateFile, "utf8");
    const pre = ok(await s.preview(spec(), { refresh: true }));
    expect(ops(pre).sort()).toEqual(["read-drift c", "same a", "same b", "update c"]);
    expect(fs.readFileSync(s.stateFile, "utf8")).toBe(before);

    const r = ok(await s.up(spec(), { refresh: true }));
    expect(ops(r)).toContain("read-drift c");
    expect(r.steps.find((x) => x.op === "update")).toMatchObject({ name: "c", changedKeys: ["value"] });
    expect(s.remote()[id].value).toBe("3");
  });
});

describe("harness: failures", () => {
  test("a check failure is reported with its property and nothing is created", async () => {
    const s = scenario("check");
    const r = await s.up([thing("a", { name: "" }), thing("b", { name: "x".repeat(41) })]);
    expect(r.ok).toBe(false);
    const failures = r.errors.map((e) => ({
      kind: e.kind,
      name: e.name,
      property: e.property,
      reason: e.reason,
    }));
    expect(failures.sort((x, y) => String(x.name).localeCompare(String(y.name)))).toEqual([
      { kind: "check", name: "a", property: "name", reason: "name is required" },
      { kind: "check", name: "b", property: "name", reason: "name must be at most 40 characters" },
    ]);
    expect(r.errors[0]!.message).toContain("property name");
    expect(writes(s.take())).toEqual([]);
    expect(r.steps).toEqual([]);
    expect(s.state().resources.filter((x) => x.custom)).toEqual([]);
    s.cleanup();
  });

  test("a create that fails after creating the object records the half-created resource", async () => {
    const s = scenario("partial");
    const spec = [thing("a", { failOn: "partial-create" })];
    const r = await s.up(spec);
    expect(r.ok).toBe(false);
    expect(r.errors).toHaveLength(1);
    const id = Object.keys(s.remote())[0]!;
    expect(r.errors[0]).toMatchObject({ kind: "provider", op: "create", name: "a", id });
    expect(r.errors[0]!.message).toContain("did not become ready");
    const a = s.state().resources.find((x) => x.name === "a")!;
    expect(a).toMatchObject({ id, initErrors: ["timed out waiting for the thing to become ready"] });
    expect(a.outputs.remoteId).toBe(id);

    // The next run updates it even though nothing changed (the engine's rule for init errors).
    s.take();
    const next = ok(await s.up(spec));
    expect(ops(next)).toEqual(["update a"]);
    expect(next.steps[0]!.changedKeys).toEqual([]);
    expect(s.state().resources.find((x) => x.name === "a")!.initErrors).toBeUndefined();
    expect(Object.keys(s.remote())).toEqual([id]);
    s.cleanup();
  });

  test("an error in one resource loses no state: others kept, no deletes run", async () => {
    const s = scenario("error");
    ok(await s.up([thing("a"), thing("b", { value: "1" }), thing("d")]));
    const before = Object.fromEntries(s.state().resources.map((r) => [r.name, r]));
    s.take();

    const r = await s.up([thing("a"), thing("b", { value: "2", failOn: "update" })]);
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      expect.objectContaining({
        kind: "provider",
        op: "update",
        name: "b",
        message: expect.stringContaining("failed to update"),
      }),
    ]);
    expect(r.steps.find((x) => x.name === "b")).toMatchObject({ op: "update", failed: true });
    expect(r.counts.failed).toBe(1);
    // d was removed from the program, but the engine runs no deletes after a failed step.
    expect(writes(s.take())).toEqual(["update B"]);
    const after = Object.fromEntries(s.state().resources.map((x) => [x.name, x]));
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(after.b!.outputs).toEqual(before.b!.outputs);
    expect(after.d).toEqual(before.d);
    expect(Object.keys(s.remote())).toHaveLength(3);

    // A program that throws: reported once, and again no deletes.
    const spec = JSON.stringify({ resources: [thing("a")], throw: "boom" });
    const thrown = await s.up([], { config: { "harness-fixture:spec": spec } });
    expect(thrown.ok).toBe(false);
    expect(thrown.errors.map((e) => `${e.kind}: ${e.message}`)).toEqual([
      "program: the program failed: boom",
    ]);
    expect(writes(s.take()).filter((w) => w.startsWith("delete"))).toEqual([]);
    expect(Object.keys(s.remote())).toHaveLength(3);
    s.cleanup();
  });
});

describe("harness: a program's own failure", () => {
  test("a lookup that finds nothing ends the run with the lookup's error, as the engine does (not a stall)", async () => {
    const emu = await startTestEmulator();
    const stateFile = path.join(os.tmpdir(), `harness-lookup-${process.pid}.json`);
    try {
      // The fixture looks up the alert attribute "Lifecycle service", which this account lacks.
      const r = await harness.up({
        program: path.join(__dirname, "fixtures", "alertSource", "program"),
        stateFile,
        config: { "incident:apiKey": emu.apiKey, "incident:baseUrl": emu.url },
        secretConfig: ["incident:apiKey"],
      });
      expect(r.ok).toBe(false);
      const messages = r.errors.map((e) => e.message).join("\n");
      expect(messages).toMatch(/getAlertAttribute: no alert attribute named "Lifecycle service"/);
      expect(messages).not.toMatch(/timed out|registrations still pending/);
      expect(r.steps.filter((s) => s.type === "incident:index:AlertSource")).toEqual([]);
    } finally {
      await emu.dispose();
      fs.rmSync(stateFile, { force: true });
    }
  });
});

describe("harness: preview and secrets", () => {
  test("preview makes no create/update/delete and hands unknowns to check/diff as the sentinel", async () => {
    const s = scenario("preview");
    ok(await s.up([thing("b", { ref: "static" }), thing("z")]));
    const stateBefore = fs.readFileSync(s.stateFile, "utf8");
    const remoteBefore = s.remote();
    s.take();

    const r = ok(
      await s.preview([thing("a", { value: "new" }), thing("b", { ref: { $ref: "a.remoteId" } })]),
    );
    expect(ops(r).sort()).toEqual(["create a", "delete z", "update b"]);
    expect(r.steps.find((x) => x.name === "a")!.id).toBe("");
    const log = s.take();
    expect(writes(log)).toEqual([]);
    const b = log.filter((e) => e.name === "B");
    expect(b.map((e) => e.op)).toEqual(["check", "diff"]);
    for (const e of b) expect(e.news!.ref).toBe(harness.UNKNOWN);
    // In the program: a's computed outputs are unknown, its inputs known, applies not run.
    expect(r.outputs.a).toMatchObject({ value: "new", remoteId: harness.UNKNOWN, id: harness.UNKNOWN });
    expect(r.outputs.applied).toBe(harness.UNKNOWN);
    expect(r.apiCalls).toEqual([]);
    expect(fs.readFileSync(s.stateFile, "utf8")).toBe(stateBefore);
    expect(s.remote()).toEqual(remoteBefore);
    s.cleanup();
  });

  test("a secret input stays secret in the outputs and is never plaintext in the state file", async () => {
    const s = scenario("secret");
    const secret = "s3cr3t-from-the-program";
    const configSecret = "s3cr3t-from-config";
    const r = ok(
      await s.up(
        [thing("a", { secretToken: { $secret: secret } }), thing("b", { value: { $configSecret: "tok" } })],
        {
          config: { "harness-fixture:tok": configSecret },
          // The stack config is kept in the state with the default provider, plaintext unless
          // secret (as the engine keeps it): the spec carries the program's secret literal.
          secretConfig: ["harness-fixture:tok", "harness-fixture:spec"],
        },
      ),
    );
    expect(r.outputs.a).toMatchObject({ secretToken: "[secret]", token: "[secret]" });
    expect(r.outputs.b).toMatchObject({ value: "[secret]" });
    expect((r.secretOutputs.a as any).secretToken).toBe(secret);
    expect((r.secretOutputs.b as any).value).toBe(configSecret);

    const raw = fs.readFileSync(s.stateFile, "utf8");
    const tokens = Object.values(s.remote()).map((t: any) => t.token as string);
    expect(tokens).toHaveLength(2);
    for (const plaintext of [secret, configSecret, ...tokens]) expect(raw).not.toContain(plaintext);
    const state = s.state();
    const a = state.resources.find((x) => x.name === "a")!;
    expect(a.secretInputs).toEqual(["secretToken"]);
    expect(a.secretOutputs).toEqual(["secretToken", "token"]);
    expect(a.inputs.secretToken).toBe(secret);
    expect(state.resources.find((x) => x.name === "b")!.secretOutputs).toEqual(["token", "value"]);
    expect(() => s.state("wrong passphrase")).toThrow(/passphrase/);

    // Secrets come back from the state as secrets on the next run (same step).
    const again = ok(
      await s.up(
        [thing("a", { secretToken: { $secret: secret } }), thing("b", { value: { $configSecret: "tok" } })],
        {
          config: { "harness-fixture:tok": configSecret },
          // The stack config is kept in the state with the default provider, plaintext unless
          // secret (as the engine keeps it): the spec carries the program's secret literal.
          secretConfig: ["harness-fixture:tok", "harness-fixture:spec"],
        },
      ),
    );
    expect(ops(again).sort()).toEqual(["same a", "same b"]);
    expect(again.outputs).toEqual(r.outputs);
    s.cleanup();
  });
});

describe("harness: resource options and programs", () => {
  test("ignoreChanges, replaceOnChanges, retainOnDelete and protect", async () => {
    const s = scenario("options");
    const spec = (v: string) => [
      thing("a", { value: v }, { ignoreChanges: ["value"] }),
      thing("k", { value: v }, { replaceOnChanges: ["value"] }),
      thing("p", {}, { protect: true }),
      thing("r", {}, { retainOnDelete: true }),
    ];
    ok(await s.up(spec("1")));
    s.take();
    const changed = ok(await s.up(spec("2")));
    // replaceOnChanges is matched against the keys the provider reports, and the Node
    // dynamic-provider host reports none: for a dynamic resource it changes nothing (the engine's
    // applyReplaceOnChanges; test/engine/parity.test.ts shows the real CLI doing the same).
    expect(ops(changed).sort()).toEqual(["same a", "same p", "same r", "update k"]);
    expect(changed.counts).toEqual({ same: 3, update: 1 });
    expect(writes(s.take())).toEqual(["update K"]);

    // The preview of `up` already fails on the protected resource: nothing is written.
    const previewed = await s.up([thing("a", { value: "2" }, { ignoreChanges: ["value"] })]);
    expect(previewed.ok).toBe(false);
    expect(previewed.errors).toEqual([
      expect.objectContaining({ kind: "engine", name: "p", message: expect.stringContaining("protection") }),
    ]);
    expect(writes(s.take())).toEqual([]);

    const removed = await s.up([thing("a", { value: "2" }, { ignoreChanges: ["value"] })], {
      skipPreview: true,
    });
    expect(removed.ok).toBe(false);
    expect(removed.errors).toEqual([
      expect.objectContaining({ kind: "engine", name: "p", message: expect.stringContaining("protection") }),
    ]);
    // k deleted, r dropped from the state without a provider call, p kept.
    expect(writes(s.take()).sort()).toEqual(["delete K"]);
    expect(
      s
        .state()
        .resources.filter((x) => x.custom && !x.type.startsWith("pulumi:providers:"))
        .map((x) => x.name)
        .sort(),
    ).toEqual(["a", "p"]);
    expect(
      Object.values(s.remote())
        .map((t: any) => t.name)
        .sort(),
    ).toEqual(["A", "P", "R"]);
    s.cleanup();
  });

  test("a TypeScript program: Pulumi.yaml main, default-exported async function, stack name", async () => {
    const s = scenario("typescript");
    const r = ok(
      await harness.up({
        program: path.join(__dirname, "fixtures", "harness", "ts-program"),
        stateFile: s.stateFile,
        stack: "qa",
        config: { "harness-ts-fixture:value": "typed value" },
        env: { HARNESS_FIXTURE_DB: path.join(s.dir, "remote.json") },
      }),
    );
    expect(r.steps.map((x) => x.urn)).toEqual([
      "urn:pulumi:qa::harness-ts-fixture::pulumi-nodejs:dynamic/fixture:Thing::typed",
    ]);
    expect(r.outputs).toEqual({
      remoteId: expect.stringMatching(/^thing-/),
      version: 1,
      stack: "qa",
      project: "harness-ts-fixture",
      dryRun: false,
    });
    expect(Object.values(s.remote())[0]).toMatchObject({ name: "Typed", value: "typed value" });
    s.cleanup();
  });
});
