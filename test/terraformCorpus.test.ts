/**
 * Configurations others wrote for the service: the official Terraform provider's acceptance-test
 * configurations, translated (test/corpus/terraform/, one file per Terraform resource). Each is what
 * the service accepts, so each must pass here as the engine would run it, against the in-process
 * emulator: check (no failure), create, read back (the provider's diff of what it reads against the
 * declared inputs: no change), and delete. A test's configurations are applied in the order of its
 * steps (the later ones as updates, or replacements where the diff says so, as `pulumi up` would),
 * then destroyed; every later configuration is also applied afresh and destroyed, so each one is
 * created once. Referenced objects come from the same configuration (as in Terraform) or, for what
 * the Terraform test reads through data sources, from the account (seeded users and teams, or what
 * the case's `prepare` makes in the dashboard).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { closeAllConnections } from "../provider/client";
import { setCredentials } from "../provider/credentials";
import type { IncidentProvider } from "../provider/factory";
import { providers } from "../resources";
import type { TfCase, TfConfig, TfCorpus, TfRefs, TfResource } from "./corpus/terraform/types";
import { startTestEmulator, type TestEmulator } from "./support/emulator";
import type { SampleApi } from "./support/kindSamples";

const CORPUS_DIR = path.join(__dirname, "corpus", "terraform");

/** Every Terraform resource's corpus: each file of test/corpus/terraform/ but types.ts (no list to keep). */
const corpora: TfCorpus[] = fs
  .readdirSync(CORPUS_DIR)
  .filter((f) => f.endsWith(".ts") && f !== "types.ts")
  .sort()
  .map((f) => (require(path.join(CORPUS_DIR, f)) as { corpus: TfCorpus }).corpus);

let emu: TestEmulator;
let api: SampleApi;

beforeAll(async () => {
  // Real time on both sides: the configurations' times are relative to now (maintenance windows,
  // rotation versions), and the provider judges them by its own clock too.
  emu = await startTestEmulator({ now: () => Date.now(), burst: 10_000_000, refillPerSecond: 10_000_000 });
  setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url });
});
afterAll(async () => {
  await closeAllConnections();
  await emu.dispose();
});
afterEach(() => {
  expect(emu.responseProblems).toEqual([]);
});

/** A clean account (seeded users and teams) and a dashboard key for what the case makes beforehand. */
async function freshAccount(): Promise<void> {
  await emu.reset();
  const dashboardKey = await emu.createApiKey("dashboard", ["global_access"]);
  api = { emu, call: (method, urlPath, body) => emu.ok(method, urlPath, { token: dashboardKey, body }) };
}

type Props = Record<string, any>;

/** A resource as the state holds it after a step: its kind, id, outputs and checked inputs. */
interface Applied {
  kind: string;
  id: string;
  outs: Props;
  inputs: Props;
  /** The wave it was applied in: the engine's order (what it refers to is in earlier waves). */
  wave: number;
}

/** The resources of a stack, by Terraform name. */
type Stack = Map<string, Applied>;

const providerOf = (kind: string): IncidentProvider => {
  const provider = providers[kind];
  if (!provider) throw new Error(`no provider for kind ${kind}`);
  return provider;
};

/** Runs `op`, naming the step, resource and operation in its error. */
async function doing<T>(what: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    const e = error as Error;
    throw Object.assign(new Error(`${what}: ${e.message}`), { cause: error });
  }
}

/** A reference to a resource of the configuration not applied yet: the resource waits for a later wave. */
class NotYetApplied extends Error {}

const refsOf = (stack: Stack, given: Record<string, string>): TfRefs => {
  const applied = (name: string) => {
    const a = stack.get(name);
    if (!a) throw new NotYetApplied(name);
    return a;
  };
  return {
    id: (name) => applied(name).id,
    out: (name, key) => applied(name).outs[key],
    given: (key) => {
      if (given[key] === undefined) throw new Error(`nothing prepared as ${key}`);
      return given[key];
    },
    hoursFromNow: (hours) => new Date(Math.floor(Date.now() / 1000) * 1000 + hours * 3_600_000).toISOString(),
  };
};

/** The waves of a stack, the last first, each its resources (by name). */
const wavesLastFirst = (stack: Stack): [string, Applied][][] => {
  const last = Math.max(-1, ...[...stack.values()].map((a) => a.wave));
  const waves = Array.from({ length: last + 1 }, (_, wave) => [...stack].filter(([, a]) => a.wave === wave));
  return waves.reverse();
};

/** Applies one declared resource against its state (if any): create, no-op, update or replace. */
async function applyOne(
  r: TfResource,
  raw: Props,
  prior: Applied | undefined,
  at: string,
  wave: number,
): Promise<Applied> {
  const provider = providerOf(r.kind);
  const olds = prior?.kind === r.kind ? prior.outs : {};
  const checked = await doing(`${at}: check`, () => provider.check!(olds, { ...raw, __provider: "shim" }));
  expect({ at, failures: checked.failures ?? [] }).toEqual({ at, failures: [] });
  const inputs = checked.inputs;
  const create = async (what: string) => {
    const created = await doing(`${at}: ${what}`, () => provider.create!(inputs));
    return { kind: r.kind, id: created.id, outs: created.outs, inputs, wave };
  };
  if (prior === undefined || prior.kind !== r.kind) return create("create");
  const diff = await doing(`${at}: diff`, () => provider.diff!(prior.id, prior.outs, inputs));
  if (!diff.changes) return { ...prior, inputs, wave };
  if ((diff.replaces ?? []).length === 0) {
    const updated = await doing(`${at}: update`, () => provider.update!(prior.id, prior.outs, inputs));
    return { kind: r.kind, id: prior.id, outs: updated.outs ?? {}, inputs, wave };
  }
  // A replacement: the old one goes first when the kind says so (unique names), else after.
  const remove = () => doing(`${at}: delete (replaced)`, () => provider.delete!(prior.id, prior.outs));
  if (diff.deleteBeforeReplace) await remove();
  const replacement = await create("create (replacement)");
  if (!diff.deleteBeforeReplace) await remove();
  return replacement;
}

/**
 * Applies one configuration to the stack as `pulumi up` would: in waves (a resource once what it
 * refers to is applied; a wave's resources at once), each resource checked against its state, if
 * any, then created, updated or replaced as the provider's diff says; resources the configuration no
 * longer holds are deleted (dependents first). Then every resource is read back, and the diff of
 * what the read gives against the declared inputs must show no change. Answers the new stack.
 */
async function apply(config: TfConfig, before: Stack, given: Record<string, string>): Promise<Stack> {
  const stack: Stack = new Map();
  const refs = refsOf(stack, given);
  let pending = config.resources;
  for (let wave = 0; pending.length > 0; wave++) {
    const ready: [TfResource, Props][] = [];
    for (const r of pending) {
      try {
        ready.push([r, r.inputs(refs)]);
      } catch (error) {
        if (!(error instanceof NotYetApplied)) throw error;
      }
    }
    if (ready.length === 0)
      throw new Error(
        `step "${config.step}": ${pending.map((r) => r.name).join(", ")} refer to no declared resource`,
      );
    const applied = await Promise.all(
      ready.map(([r, raw]) =>
        applyOne(r, raw, before.get(r.name), `step "${config.step}", ${r.kind} ${r.name}`, wave),
      ),
    );
    for (const [i, [r]] of ready.entries()) stack.set(r.name, applied[i]!);
    pending = pending.filter((r) => !stack.has(r.name));
  }
  const gone: Stack = new Map([...before].filter(([name, a]) => stack.get(name)?.kind !== a.kind));
  await destroy(gone, `step "${config.step}"`, "delete (no longer declared)");
  await Promise.all(
    [...stack].map(async ([name, a]) => {
      const provider = providerOf(a.kind);
      const at = `step "${config.step}", ${a.kind} ${name}`;
      const read = await doing(`${at}: read`, () => provider.read!(a.id, a.outs));
      expect({ at, id: read.id }).toEqual({ at, id: a.id });
      const props = read.props ?? {};
      expect({ at, changes: provider.changes(props, a.inputs) }).toEqual({ at, changes: [] });
      expect({ at, diff: (await provider.diff!(a.id, props, a.inputs)).changes }).toEqual({
        at,
        diff: false,
      });
      a.outs = props;
    }),
  );
  return stack;
}

/** Deletes every resource of the stack, dependents first (the last wave first, a wave at once). */
async function destroy(stack: Stack, when: string, what = "delete"): Promise<void> {
  for (const wave of wavesLastFirst(stack)) {
    await Promise.all(
      wave.map(([name, a]) =>
        doing(`${when}, ${a.kind} ${name}: ${what}`, () => providerOf(a.kind).delete!(a.id, a.outs)),
      ),
    );
  }
}

async function run(c: TfCase): Promise<void> {
  await freshAccount();
  const given = c.prepare ? await c.prepare(api) : {};
  // As the test's steps apply them: the first configuration creates, the later ones update.
  let stack: Stack = new Map();
  for (const config of c.configs) stack = await apply(config, stack, given);
  await destroy(stack, `destroy after "${c.configs[c.configs.length - 1]!.step}"`);
  // Every later configuration is created afresh too.
  for (const config of c.configs.slice(1))
    await destroy(await apply(config, new Map(), given), `destroy after "${config.step}"`);
}

test("the corpus covers Terraform resources of kinds this provider has, and says why anything is left out", () => {
  expect(corpora.length).toBeGreaterThan(0);
  for (const corpus of corpora) {
    expect(corpus.cases.length + corpus.notTranslated.length).toBeGreaterThan(0);
    for (const c of corpus.cases) {
      for (const config of c.configs) {
        for (const r of config.resources) expect(Object.keys(providers)).toContain(r.kind);
        // A resource is its name in the stack (across kinds, unlike a Terraform address).
        const names = config.resources.map((r) => r.name);
        expect({ at: `${c.test} ${config.step}`, names: new Set(names).size }).toEqual({
          at: `${c.test} ${config.step}`,
          names: names.length,
        });
      }
    }
    for (const n of corpus.notTranslated) expect(n.why.trim()).not.toBe("");
  }
});

describe.each(corpora.map((corpus) => [corpus.resource, corpus] as const))("%s", (_resource, corpus) => {
  for (const c of corpus.cases) {
    const title = `${path.basename(c.file)} ${c.test}`;
    if (c.waitsOn) test.skip(`${title} (waits on: ${c.waitsOn})`, () => run(c));
    else test(title, () => run(c));
  }
});
