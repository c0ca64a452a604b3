/**
 * A Pulumi program run in this process under the SDK's mocks, each resource made for real by its
 * kind's provider (`check`, then `create`; `read` for a `Xxx.get`) against the emulator: the account
 * the program makes and the stack export an `up` would leave, with no engine and no child process.
 * For the fast lane's tests of the CLI tools (drift, export), which need an account and its state;
 * what the engine decides is the engine lane's (test/engine/).
 *
 * Not an engine: no update, no delete; resources are made in the order their inputs resolve, as the
 * SDK registers them. A preview (`previewOf`) is the providers' check and diff of each resource
 * against the state a run left, as the engine's preview calls them, and makes nothing. Secret outputs (each kind's `secretOutputs`) are written
 * to the export as ciphertext, as `pulumi stack export` keeps them: their plaintext is never in it.
 */
import { randomBytes } from "node:crypto";
import type * as pulumiType from "@pulumi/pulumi";
import { providers } from "../../resources";
import type { TestEmulator } from "./emulator";

const TYPE_PREFIX = "pulumi-nodejs:dynamic/incident:";
/** The marker `pulumi stack export` puts on a secret value. */
const SECRET_SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

export interface InProcessResource {
  urn: string;
  type: string;
  name: string;
  id: string;
  inputs: Record<string, any>;
  outputs: Record<string, any>;
}

export interface InProcessStack {
  resources: InProcessResource[];
  /** A preview (`previewOf`): what would change, `<op> <type> <name>` (empty: no change). */
  changes: string[];
  /** The stack's outputs, secrets included (as `pulumi stack output --show-secrets` gives them). */
  outputs: Record<string, any>;
  /** The state as `pulumi stack export` writes it: secret values as ciphertext. */
  exportDocument(): { version: 3; deployment: { resources: unknown[] } };
}

export interface InProcessOptions {
  emu: TestEmulator;
  /** The project name: the namespace of the program's config. */
  project: string;
  stack?: string;
  /** The program's config, without the namespace (`variant`). */
  config?: Record<string, string>;
  /**
   * A preview over this stack (the state an `up` left): each resource is checked and diffed against
   * its state by its kind's provider, as the engine's preview does, and nothing is made
   * (`InProcessStack.changes` lists what would change).
   */
  previewOf?: InProcessStack;
}

/** Inputs as a provider receives them: the engine strips secret wrappers (the host accepts none). */
function unwrapSecrets(v: unknown): any {
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (o["4dabf18193072939515e22adb298388d"] === SECRET_SIG["4dabf18193072939515e22adb298388d"])
      return unwrapSecrets(o.value);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, unwrapSecrets(x)]));
  }
  return v;
}

const ciphertext = () => ({ ...SECRET_SIG, ciphertext: `v1:${randomBytes(24).toString("base64")}` });

/** Runs `program` (a directory holding index.ts, or a file) once; answers what it made. */
export async function runInProcess(program: string, o: InProcessOptions): Promise<InProcessStack> {
  const stack = o.stack ?? "dev";
  process.env.INCIDENT_API_KEY = o.emu.apiKey;
  process.env.INCIDENT_BASE_URL = o.emu.url;
  const resources: InProcessResource[] = [];
  const changes: string[] = [];
  let outputs: Record<string, any> = {};
  let failure: unknown;
  let pulumi!: typeof pulumiType;
  // A fresh SDK and program per run: the mocks and the program's module state are this run's own.
  jest.isolateModules(() => {
    pulumi = require("@pulumi/pulumi");
  });
  await pulumi.runtime.setMocks(
    {
      async newResource(args) {
        try {
          if (!args.type.startsWith(TYPE_PREFIX)) return { id: `${args.name}-id`, state: args.inputs };
          const kind = args.type.slice(TYPE_PREFIX.length);
          const provider = providers[kind];
          if (!provider) throw new Error(`no provider for ${args.type}`);
          let id: string;
          let outs: Record<string, any>;
          let inputs: Record<string, any> = unwrapSecrets(args.inputs);
          if (o.previewOf) {
            // The engine's preview: check against the old inputs, diff against the old state.
            const old = o.previewOf.resources.find((r) => r.type === args.type && r.name === args.name);
            if (!old) {
              changes.push(`create ${kind} ${args.name}`);
              return { id: "", state: inputs };
            }
            const checked = await provider.check!(old.inputs, inputs);
            if (checked.failures?.length)
              throw new Error(`${kind} ${args.name}: ${JSON.stringify(checked.failures)}`);
            const diff = await provider.diff!(old.id, old.outputs, checked.inputs);
            if (diff.changes)
              changes.push(`${diff.replaces?.length ? "replace" : "update"} ${kind} ${args.name}`);
            resources.push({ ...old, inputs: checked.inputs });
            return { id: old.id, state: old.outputs };
          }
          if (args.id !== undefined && args.id !== "") {
            const read = await provider.read!(args.id, inputs);
            if (!read.id) throw new Error(`${kind}.get: no object with id ${args.id}`);
            ({ id } = read);
            outs = read.props ?? {};
            inputs = (read as { inputs?: Record<string, any> }).inputs ?? {};
          } else {
            const checked = await provider.check!({}, inputs);
            if (checked.failures?.length)
              throw new Error(`${kind} ${args.name}: ${JSON.stringify(checked.failures)}`);
            inputs = checked.inputs;
            ({ id, outs } = await provider.create(inputs));
          }
          const urn = `urn:pulumi:${stack}::${o.project}::${args.type}::${args.name}`;
          resources.push({ urn, type: args.type, name: args.name, id, inputs, outputs: outs });
          return { id, state: outs };
        } catch (e) {
          failure ??= e;
          throw e;
        }
      },
      call: () => ({}),
    },
    o.project,
    stack,
    false,
  );
  for (const [key, value] of Object.entries(o.config ?? {}))
    pulumi.runtime.setConfig(`${o.project}:${key}`, value);
  jest.isolateModules(() => {
    // The program's `@pulumi/pulumi` must be the SDK instance the mocks are set on.
    jest.doMock("@pulumi/pulumi", () => pulumi);
    const exported = require(program);
    outputs = exported;
  });
  await pulumi.runtime.disconnect();
  if (failure) throw failure;
  const resolved: Record<string, any> = {};
  for (const [key, value] of Object.entries(outputs)) {
    // Outputs inside plain objects too (`{ schedules: { a: schedule.id } }`), as the engine resolves them.
    const lifted = pulumi.Output.isInstance(value) ? value : pulumi.output(value as never);
    resolved[key] = await new Promise((done) => (lifted as pulumiType.Output<unknown>).apply(done));
  }
  if (o.previewOf) {
    for (const old of o.previewOf.resources)
      if (!resources.some((r) => r.urn === old.urn)) changes.push(`delete ${old.type} ${old.name}`);
  }
  return {
    resources,
    changes,
    outputs: resolved,
    exportDocument: () => ({
      version: 3,
      deployment: {
        resources: resources.map((r) => {
          const secret = new Set(providers[r.type.slice(TYPE_PREFIX.length)]!.spec.secretOutputs);
          const hide = (props: Record<string, any>) =>
            Object.fromEntries(
              Object.entries(props).map(([k, v]) => [k, secret.has(k) && v !== undefined ? ciphertext() : v]),
            );
          return {
            urn: r.urn,
            custom: true,
            id: r.id,
            type: r.type,
            inputs: hide(r.inputs),
            outputs: hide(r.outputs),
          };
        }),
      },
    }),
  };
}
