/**
 * The deployment: the harness's stand-in for the Pulumi engine's deployment executor and step
 * generator (runs inside the runner child process): a resource monitor object
 * for the SDK's mock machinery (`settings.setMockOptions`) that turns each RegisterResource of a
 * dynamic resource into the engine's steps against the real dynamic-provider host, the refresh
 * pass, the final deletes (dependents first) and the state snapshot.
 *
 * Engine behaviour reproduced (pkg/resource/deploy + pkg/resource/plugin/provider_plugin.go):
 * Check(old inputs, news) → Diff(id, old inputs, old outputs, checked) → same / update / replace
 * (create-then-delete, the old copy deleted with the final deletes; delete-then-create when the diff
 * or the resource option asks) / create; DIFF_UNKNOWN falls back to comparing inputs; replaceOnChanges
 * and ignoreChanges (top-level paths); a resource with init errors is updated even with no diff;
 * preview: no Create/Update/Delete, create/update answer the checked inputs (the host does not
 * support provider previews), unknowns as the sentinel; acceptSecrets=false: secrets stripped from
 * every request and copied back (annotateSecrets) + additionalSecretOutputs; ErrorResourceInitFailed
 * recorded as a half-created resource; stop starting steps after an error (unless continueOnError)
 * and skip the deletes; state written after every step (group commit: a step completes once a
 * snapshot that includes it is on disk; steps that complete while a snapshot is being written share
 * the next one), except a `same` step that changes nothing in the entry (the engine elides that
 * write too: sameSnapshotMutation.mustWrite).
 */
import { randomUUID } from "node:crypto";
import type { ProviderError, ProviderHost, Sdk } from "./host";
import { type Crypter, type LoadedState, type ResourceState, StateWriter } from "./state";
import type { HarnessError, Operation, Step, StepOp } from "./types";
import {
  annotateSecrets,
  changedKeys,
  clone,
  deepEqual,
  forProvider,
  makeSecret,
  markSecretOutputs,
  structSafe,
  UNKNOWN,
  type WireMap,
} from "./wire";

export interface DeploymentOptions {
  operation: Operation;
  project: string;
  stack: string;
  config: Record<string, string>;
  stateFile: string;
  refresh: boolean;
  continueOnError: boolean;
  /** Steps executing at once (the engine's `--parallel`, default 4 × CPUs). */
  parallel: number;
  /** Which config keys are secret (the default provider's state entry keeps them encrypted). */
  secretConfig: string[];
  /** A dry run of a programless operation (the preview pass of `pulumi refresh`): nothing written. */
  dryRun?: boolean;
}

interface Registration {
  urn: string;
  type: string;
  name: string;
  parent?: string;
  custom: boolean;
  inputs: WireMap;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  protect: boolean;
  deleteBeforeReplace: boolean;
  /** The option was set (true or false): then it overrides what the provider says. */
  deleteBeforeReplaceDefined: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  additionalSecretOutputs: string[];
  retainOnDelete: boolean;
  importId: string;
  acceptSecrets: boolean;
}

/** An error already reported in `errors`: the SDK gets it as the RegisterResource failure. */
class StepFailed extends Error {}

const STACK_TYPE = "pulumi:pulumi:Stack";
const PROVIDER_TYPE = "pulumi:providers:pulumi-nodejs";
const isDynamic = (type: string) => type.startsWith("pulumi-nodejs:dynamic");
const unique = (xs: string[]) => [...new Set(xs.filter(Boolean))];

/** One operation (up, preview, refresh, destroy) of one stack, played as the Pulumi engine plays it. */
export class Deployment {
  readonly steps: Step[] = [];
  readonly errors: HarnessError[] = [];
  readonly warnings: string[] = [];
  readonly timings: Record<string, number> = {};
  stackOutputs: WireMap | undefined;
  readonly preview: boolean;

  /** Old state entries still live (not replaced copies), by URN. */
  private readonly olds = new Map<string, ResourceState>();
  /** Old copies awaiting deletion (replaced create-before-delete, or left by an earlier run). */
  private pendingDeletes: ResourceState[] = [];
  /** Resources registered by this run, in registration order. */
  private readonly news = new Map<string, ResourceState>();
  private readonly seen = new Set<string>();
  private readonly inflight = new Set<Promise<unknown>>();
  private hostPromise?: Promise<ProviderHost>;
  /** Registrations wait for this (the refresh of `up --refresh` runs while the program loads). */
  private gate: Promise<unknown> = Promise.resolve();
  private host?: ProviderHost;
  private failed = false;
  readonly providerRef: string;
  private readonly writer: StateWriter;
  /** The snapshot being written (settled), and the next one, shared by every change made before it starts. */
  private writing: Promise<void> = Promise.resolve();
  private nextWrite?: Promise<void>;
  /** Check and Diff run one at a time, as the engine's step generator runs them. */
  private readonly stepGenerator = new Slots(1);

  /** Create/update/delete/read in flight at once: `--parallel`, 4 × CPUs by default. */
  private readonly stepExecutor: Slots;

  constructor(
    private readonly sdk: Sdk,
    private readonly opts: DeploymentOptions,
    loaded: LoadedState,
    crypter: Crypter,
    private readonly t0: number,
  ) {
    this.writer = new StateWriter(opts.stateFile, crypter);
    this.stepExecutor = new Slots(opts.parallel);
    this.preview = opts.operation === "preview" || opts.dryRun === true;
    for (const r of loaded.resources) {
      if (r.type === PROVIDER_TYPE) this.providerEntry = r;
      else if (r.delete) this.pendingDeletes.push(r);
      else this.olds.set(r.urn, r);
    }
    this.providerRef = `urn:pulumi:${opts.stack}::${opts.project}::pulumi:providers:pulumi-nodejs::default`;
  }

  private now(): number {
    return Date.now() - this.t0;
  }

  get ok(): boolean {
    return this.errors.length === 0;
  }

  // ---------------------------------------------------------------- provider host

  /** Starts the host (once) and configures it with the whole stack config. */
  startHost(start: () => Promise<ProviderHost>, config: Record<string, string> = this.opts.config): void {
    if (this.hostPromise) return;
    const began = this.now();
    this.hostPromise = (async () => {
      const host = await start();
      this.host = host;
      this.timings.hostStartMs = host.startMs;
      await host.getPluginInfo().catch(() => undefined);
      await host.configure(config);
      this.timings.hostReadyAtMs = this.now();
      this.timings.hostReadyMs = this.now() - began;
      return host;
    })();
    // Reported when first needed.
    this.hostPromise.catch(() => undefined);
  }

  private async provider(reg?: { urn: string; name: string; type: string }): Promise<ProviderHost> {
    if (!this.hostPromise) throw new Error("harness: provider host not started");
    try {
      return await this.hostPromise;
    } catch (e) {
      const message = `configuring the dynamic-provider host failed: ${(e as Error).message}`;
      if (!this.errors.some((x) => x.op === "configure")) {
        this.errors.push({ kind: "provider", op: "configure", message, ...this.who(reg) });
      }
      throw new StepFailed(message);
    }
  }

  hostLog(): string {
    return this.host?.log.join("") ?? "";
  }

  hostPid(): number | undefined {
    return this.host?.pid;
  }

  killHost(): void {
    this.host?.kill();
  }

  // ---------------------------------------------------------------- state

  /**
   * The default provider's entry, as the engine keeps it: its inputs are the whole stack config the
   * provider was configured with (secret keys stay secret). refresh, destroy and the refresh pass of
   * `--refresh` configure the provider from it, not from the current config (EnsureProvider).
   */
  private providerEntry?: ResourceState;
  private providerRecorded = false;

  /** The stack config saved with the default provider by the last `up`, if any. */
  static savedConfig(resources: ResourceState[]): Record<string, string> | undefined {
    const entry = resources.find((r) => r.type === PROVIDER_TYPE);
    if (!entry) return undefined;
    const plainConfig: Record<string, string> = {};
    for (const [k, v] of Object.entries(entry.inputs)) plainConfig[k] = String(forProvider(v));
    return plainConfig;
  }

  private recordProvider(): void {
    if (this.preview || this.providerRecorded) return;
    this.providerRecorded = true;
    const inputs: WireMap = {};
    for (const [k, v] of Object.entries(this.opts.config)) {
      inputs[k] = this.opts.secretConfig.includes(k) ? makeSecret(v) : v;
    }
    const old = this.providerEntry;
    const now = new Date().toISOString();
    this.providerEntry = {
      urn: this.providerRef,
      type: PROVIDER_TYPE,
      name: "default",
      custom: true,
      id: old?.id ?? randomUUID(),
      inputs,
      outputs: clone(inputs),
      dependencies: [],
      propertyDependencies: {},
      created: old?.created ?? now,
      modified: now,
    };
  }

  private stateResources(): ResourceState[] {
    const out: ResourceState[] = [...this.news.values()];
    for (const [urn, r] of this.olds) if (!this.news.has(urn)) out.push(r);
    out.push(...this.pendingDeletes);
    // The default provider stays while a resource uses it (destroy removes it with the last one).
    if (this.providerEntry && out.some((r) => r.custom)) out.unshift(this.providerEntry);
    return out;
  }

  private snapshot() {
    return { project: this.opts.project, stack: this.opts.stack, resources: this.stateResources() };
  }

  /**
   * Snapshot after a step (never in preview): resolves once a snapshot taken after this call is on
   * disk. Snapshots are written one at a time; every call made while one is being written joins the
   * next, so n concurrent steps cost far fewer than n writes and none is acknowledged before it is
   * durable.
   */
  persist(): Promise<void> {
    if (this.preview) return Promise.resolve();
    if (!this.nextWrite) {
      const next = this.writing.then(() => {
        this.nextWrite = undefined; // changes from here on need the write after this one
        this.timings.stateWrites = (this.timings.stateWrites ?? 0) + 1;
        return this.writer.writeAsync(this.snapshot());
      });
      this.nextWrite = next;
      this.writing = next.catch(() => undefined);
    }
    return this.nextWrite;
  }

  // ---------------------------------------------------------------- reporting

  private who(r?: { urn: string; name: string; type: string }) {
    return r ? { urn: r.urn, name: r.name, type: r.type } : {};
  }

  private step(
    r: { urn: string; name: string; type: string },
    op: StepOp,
    phase: Step["phase"],
    startMs: number,
    extra: Partial<Step> = {},
  ): Step {
    const s: Step = {
      urn: r.urn,
      name: r.name,
      type: r.type,
      op,
      phase,
      ...extra,
      startMs,
      endMs: this.now(),
    };
    this.steps.push(s);
    return s;
  }

  private providerFailure(
    r: { urn: string; name: string; type: string },
    op: string,
    e: unknown,
  ): StepFailed {
    if (e instanceof StepFailed) return e;
    const pe = e as ProviderError;
    const message = `${r.type} resource '${r.name}': ${op} failed: ${pe?.message ?? String(e)}`;
    const err: HarnessError = { kind: "provider", op, message, ...this.who(r) };
    if (pe?.initFailed) {
      err.id = pe.initFailed.id;
      err.reasons = pe.initFailed.reasons;
    }
    this.errors.push(err);
    this.stepFailed();
    return new StepFailed(message);
  }

  /**
   * A step failed: no new step starts and, unless `continueOnError`, the update ends as the
   * engine's does: it cancels the program rather than waiting for it. The program may never end on
   * its own: its registrations that wait on the failed resource's outputs stay pending (the SDK
   * never settles them), and the provider host's open pipes keep the process alive, so waiting for
   * it hung until the runner's timeout (a check failure with dependents, on a stack that exists).
   */
  private stepFailed(): void {
    this.failed = true;
    if (!this.opts.continueOnError) this.programFailed?.();
  }

  private engineFailure(
    r: { urn: string; name: string; type: string } | undefined,
    message: string,
  ): StepFailed {
    this.errors.push({ kind: "engine", message, ...this.who(r) });
    this.stepFailed();
    return new StepFailed(message);
  }

  /** Errors the program raised itself (not the echo of a failed step). */
  programFailure(e: unknown): void {
    const message = e instanceof Error ? e.message : String(e);
    // The SDK's echo of a step that failed (already reported). With no step failed, the same
    // wording is the program's own failure: an input that could not be serialized (e.g. an Output
    // of a lookup that refused), which the language host reports and ends the run on.
    if (this.failed && /failed to (register new|read) resource|Resource monitor is terminating/.test(message))
      return;
    if (e instanceof StepFailed) return;
    const text = `the program failed: ${message}`;
    if (this.errors.some((x) => x.kind === "program" && x.message === text)) return;
    this.errors.push({ kind: "program", message: text, detail: e instanceof Error ? e.stack : undefined });
    this.failed = true;
    this.programFailed?.();
  }

  /** Settles the wait for the program once it has failed, or a step has (see runProgram). */
  private programFailed?: () => void;

  // ---------------------------------------------------------------- the resource monitor

  urnFor(type: string, name: string, parent?: string): string {
    let qualified = type;
    if (parent) {
      const parentType = parent.split("::")[2];
      if (parentType && parentType !== STACK_TYPE) qualified = `${parentType}$${type}`;
    }
    return `urn:pulumi:${this.opts.stack}::${this.opts.project}::${qualified}::${name}`;
  }

  /** The object handed to `settings.setMockOptions`: the SDK calls it as it calls the engine's monitor. */
  monitor(): Record<string, unknown> {
    const sdk = this.sdk;
    const track = <T>(p: Promise<T>, cb: (err: any, resp?: any) => void, ok: (v: T) => any) => {
      const done = p.then(
        (v) => cb(null, ok(v)),
        (e) => cb(Object.assign(new Error(e instanceof Error ? e.message : String(e)), { code: 2 })),
      );
      this.inflight.add(done);
      done.finally(() => this.inflight.delete(done));
    };
    const features: Record<string, boolean> = {
      secrets: true,
      resourceReferences: true,
      outputValues: false,
      deletedWith: false,
      replaceWith: false,
      aliasSpecs: true,
      transforms: false,
      invokeTransforms: false,
      parameterization: false,
      resourceHooks: false,
      errorHooks: false,
    };
    return {
      // SDK ≥ 3.260 asks for every feature at once; UNIMPLEMENTED makes it fall back to
      // supportsFeature below, as it does with older engines, so one feature table serves every SDK.
      getDeploymentInfo: (_req: any, cb: any) =>
        cb(
          Object.assign(new Error("GetDeploymentInfo is not implemented"), {
            code: sdk.grpc.status.UNIMPLEMENTED,
          }),
        ),
      supportsFeature: (req: any, cb: any) => {
        const resp = new sdk.resproto.SupportsFeatureResponse();
        resp.setHassupport(features[req.getId()] === true);
        cb(null, resp);
      },
      registerResource: (req: any, cb: any) =>
        track(this.onRegister(req), cb, ({ urn, id, outputs }) => {
          const resp = new sdk.resproto.RegisterResourceResponse();
          resp.setUrn(urn);
          resp.setId(id);
          resp.setObject(sdk.structproto.Struct.fromJavaScript(structSafe(outputs)));
          resp.setResult(sdk.resproto.Result.SUCCESS);
          return resp;
        }),
      readResource: (req: any, cb: any) =>
        track(this.onRead(req), cb, ({ urn, outputs }) => {
          const resp = new sdk.resproto.ReadResourceResponse();
          resp.setUrn(urn);
          resp.setProperties(sdk.structproto.Struct.fromJavaScript(structSafe(outputs)));
          return resp;
        }),
      registerResourceOutputs: (req: any, cb: any) => {
        const urn = req.getUrn();
        const outputs = req.getOutputs()?.toJavaScript() ?? {};
        const r = this.news.get(urn);
        if (r) this.news.set(urn, { ...r, outputs }); // entries are immutable once written
        if (urn === this.urnFor(STACK_TYPE, `${this.opts.project}-${this.opts.stack}`)) {
          this.stackOutputs = outputs;
        }
        cb(null, new sdk.emptyproto.Empty());
      },
      invoke: (req: any, cb: any) =>
        cb(Object.assign(new Error(`invoke ${req.getTok()} is not supported by the harness`), { code: 12 })),
      call: (req: any, cb: any) =>
        cb(Object.assign(new Error(`call ${req.getTok()} is not supported by the harness`), { code: 12 })),
      registerPackage: (_req: any, cb: any) => {
        const resp = new sdk.resproto.RegisterPackageResponse();
        resp.setRef("harness-package");
        cb(null, resp);
      },
      signalAndWaitForShutdown: (_req: any, cb: any) => cb(null, new sdk.emptyproto.Empty()),
      close: () => undefined,
    };
  }

  /** Registrations are processed only after `p` settles (e.g. the refresh pass of `up --refresh`). */
  holdRegistrationsUntil(p: Promise<unknown>): void {
    this.gate = p.catch(() => undefined);
  }

  /** Waits for every RegisterResource/ReadResource still being processed. */
  async drain(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  private registration(req: any): Registration {
    const type: string = req.getType();
    const name: string = req.getName();
    const parent: string | undefined = req.getParent() || undefined;
    const propertyDependencies: Record<string, string[]> = {};
    req.getPropertydependenciesMap().forEach((v: any, k: string) => {
      propertyDependencies[k] = v.getUrnsList();
    });
    return {
      urn: this.urnFor(type, name, parent),
      type,
      name,
      parent,
      custom: req.getCustom(),
      inputs: req.getObject()?.toJavaScript() ?? {},
      dependencies: unique(req.getDependenciesList()),
      propertyDependencies,
      protect: req.getProtect() === true,
      deleteBeforeReplace: req.getDeletebeforereplace() === true,
      deleteBeforeReplaceDefined: req.getDeletebeforereplacedefined?.() === true,
      ignoreChanges: req.getIgnorechangesList(),
      replaceOnChanges: req.getReplaceonchangesList(),
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      retainOnDelete: req.getRetainondelete() === true,
      importId: req.getImportid(),
      acceptSecrets: req.getAcceptsecrets(),
    };
  }

  private newState(
    reg: Registration,
    id: string | undefined,
    inputs: WireMap,
    outputs: WireMap,
    same = false,
  ): ResourceState {
    const old = this.olds.get(reg.urn);
    const now = new Date().toISOString();
    const r: ResourceState = {
      urn: reg.urn,
      type: reg.type,
      name: reg.name,
      custom: reg.custom,
      id,
      parent: reg.parent,
      inputs,
      outputs,
      dependencies: reg.dependencies,
      propertyDependencies: reg.propertyDependencies,
      created: old?.created ?? now,
      modified: (same && old?.modified) || now, // a same step keeps the timestamps, as the engine does
    };
    if (reg.custom) r.provider = this.providerRef;
    if (reg.additionalSecretOutputs.length) r.additionalSecretOutputs = reg.additionalSecretOutputs;
    if (reg.protect) r.protect = true;
    if (reg.retainOnDelete) r.retainOnDelete = true;
    return r;
  }

  private forProgram(reg: Registration, outputs: WireMap): WireMap {
    const out = clone(outputs);
    markSecretOutputs(out, reg.additionalSecretOutputs);
    return reg.acceptSecrets ? out : forProvider(out);
  }

  private async onRegister(req: any): Promise<{ urn: string; id: string; outputs: WireMap }> {
    await this.gate;
    const reg = this.registration(req);
    if (this.seen.has(reg.urn)) {
      throw this.engineFailure(reg, `Duplicate resource URN '${reg.urn}'; try giving it a unique name`);
    }
    this.seen.add(reg.urn);
    if (!reg.custom) {
      // Components (and the stack) have no provider: recorded as registered, outputs come later.
      const old = this.olds.get(reg.urn);
      this.news.set(reg.urn, this.newState(reg, undefined, reg.inputs, old?.outputs ?? {}));
      return { urn: reg.urn, id: "", outputs: {} };
    }
    if (this.failed && !this.opts.continueOnError) {
      // The engine stops starting steps after an error; the old state entry stays as it is.
      throw new StepFailed(`the update was stopped after an earlier error (${reg.name} not processed)`);
    }
    if (!isDynamic(reg.type)) {
      throw this.engineFailure(
        reg,
        `${reg.type} resource '${reg.name}': the harness drives only dynamic resources (pulumi-nodejs:dynamic*)`,
      );
    }
    if (reg.importId) {
      throw this.engineFailure(
        reg,
        `${reg.type} resource '${reg.name}': import is not supported for dynamic resources (pulumi/pulumi#16175)`,
      );
    }
    this.recordProvider();
    const { id, outputs } = await this.stepCustom(reg);
    return { urn: reg.urn, id, outputs: this.forProgram(reg, outputs) };
  }

  private async stepCustom(reg: Registration): Promise<{ id: string; outputs: WireMap }> {
    const start = this.now();
    const old = this.olds.get(reg.urn);
    const news = old ? applyIgnoreChanges(reg.inputs, old.inputs, reg.ignoreChanges) : reg.inputs;
    const host = await this.provider(reg);

    const checked = await this.check(reg, old ? old.inputs : {}, news);

    if (!old) return this.create(reg, checked, start);
    if (!old.id) throw this.engineFailure(reg, `${reg.urn} has no id in the state`);

    let diff: Awaited<ReturnType<ProviderHost["diff"]>>;
    try {
      diff = await this.stepGenerator.run(() =>
        host.diff(
          reg.urn,
          old.id!,
          forProvider(old.inputs),
          forProvider(old.outputs),
          forProvider(checked),
          reg.ignoreChanges,
        ),
      );
    } catch (e) {
      throw this.providerFailure(reg, "diff", e);
    }
    const inputChanges = changedKeys(old.inputs, checked);
    let changes = diff.changes;
    if (changes === "unknown") changes = inputChanges.length ? "some" : "none";
    const keys = diff.diffs.length ? [...diff.diffs].sort() : inputChanges;
    const replaces = [...diff.replaces];
    if (changes === "some") {
      // replaceOnChanges is matched against the keys the provider reports (applyReplaceOnChanges):
      // the Node dynamic-provider host reports none, so for dynamic resources it has no effect.
      for (const k of diff.diffs)
        if (matchesAny(k, reg.replaceOnChanges) && !replaces.includes(k)) replaces.push(k);
    }

    if (changes === "none" && !old.initErrors?.length) {
      // A same step re-marks secret outputs (same-named secret inputs, additionalSecretOutputs).
      const outputs = this.finishOutputs(reg, clone(old.outputs), checked);
      const state = this.newState(reg, old.id, checked, outputs, true);
      this.news.set(reg.urn, state);
      if (!sameEntry(old, state)) await this.persist();
      this.step(reg, "same", "update", start, { id: old.id });
      return { id: old.id, outputs };
    }
    if (old.pendingReplacement) {
      // Deleted already, as a dependent of a delete-before-create replacement: only the create is left.
      const extra = { changedKeys: keys, replaceKeys: replaces.sort(), deleteBeforeReplace: true };
      this.olds.delete(reg.urn);
      return this.create(reg, await this.check(reg, {}, reg.inputs), start, "replace", extra);
    }
    if (changes === "some" && replaces.length) {
      return this.replace(reg, old, keys, replaces.sort(), diff.deleteBeforeReplace, start);
    }
    return this.update(reg, old, checked, keys, start);
  }

  /** Check(olds, news), one at a time; check failures fail the resource, each reported with its property. */
  private async check(reg: Registration, olds: WireMap, news: WireMap): Promise<WireMap> {
    const host = await this.provider(reg);
    try {
      const r = await this.stepGenerator.run(() => host.check(reg.urn, forProvider(olds), forProvider(news)));
      if (r.failures.length) {
        for (const f of r.failures) {
          const where = f.property ? `: property ${f.property}` : "";
          this.errors.push({
            kind: "check",
            op: "check",
            message: `${reg.type} resource '${reg.name}'${where} has a problem: ${f.reason}`,
            property: f.property,
            reason: f.reason,
            ...this.who(reg),
          });
        }
        this.stepFailed();
        throw new StepFailed(`${reg.type} resource '${reg.name}' has check failures`);
      }
      annotateSecrets(r.inputs, news);
      return r.inputs;
    } catch (e) {
      throw this.providerFailure(reg, "check", e);
    }
  }

  private finishOutputs(reg: Registration, props: WireMap, inputs: WireMap): WireMap {
    annotateSecrets(props, inputs);
    markSecretOutputs(props, reg.additionalSecretOutputs);
    return props;
  }

  private async create(
    reg: Registration,
    checked: WireMap,
    start: number,
    op: StepOp = "create",
    extra: Partial<Step> = {},
  ): Promise<{ id: string; outputs: WireMap }> {
    if (this.preview) {
      // The host does not support provider previews: the engine hands back the inputs as the state.
      this.step(reg, op, "update", start, { ...extra, id: "" });
      return { id: "", outputs: clone(checked) };
    }
    const host = await this.provider(reg);
    try {
      const r = await this.stepExecutor.run(() => host.create(reg.urn, forProvider(checked)));
      if (!r.id) {
        throw new Error(
          `plugin for package 'pulumi-nodejs' returned empty resource.ID from create '${reg.urn}'`,
        );
      }
      const outputs = this.finishOutputs(reg, r.properties, checked);
      this.news.set(reg.urn, this.newState(reg, r.id, checked, outputs));
      await this.persist();
      this.step(reg, op, "update", start, { ...extra, id: r.id });
      return { id: r.id, outputs };
    } catch (e) {
      const pe = e as ProviderError;
      if (pe?.initFailed?.id) {
        // Created but failed to initialise: recorded as the engine records a half-created resource.
        const outputs = this.finishOutputs(reg, pe.initFailed.properties, checked);
        const state = this.newState(reg, pe.initFailed.id, checked, outputs);
        state.initErrors = pe.initFailed.reasons.length ? pe.initFailed.reasons : [pe.message];
        this.news.set(reg.urn, state);
        await this.persist();
      }
      const failure = this.providerFailure(reg, "create", e);
      this.step(reg, op, "update", start, {
        ...extra,
        id: pe?.initFailed?.id,
        failed: true,
        error: failure.message,
      });
      throw failure;
    }
  }

  private async update(
    reg: Registration,
    old: ResourceState,
    checked: WireMap,
    keys: string[],
    start: number,
  ): Promise<{ id: string; outputs: WireMap }> {
    const id = old.id!;
    if (this.preview) {
      this.step(reg, "update", "update", start, { id, changedKeys: keys });
      return { id, outputs: clone(checked) };
    }
    const host = await this.provider(reg);
    try {
      const props = await this.stepExecutor.run(() =>
        host.update(
          reg.urn,
          id,
          forProvider(old.inputs),
          forProvider(old.outputs),
          forProvider(checked),
          reg.ignoreChanges,
        ),
      );
      const outputs = this.finishOutputs(reg, props, checked);
      this.news.set(reg.urn, this.newState(reg, id, checked, outputs));
      await this.persist();
      this.step(reg, "update", "update", start, { id, changedKeys: keys });
      return { id, outputs };
    } catch (e) {
      const pe = e as ProviderError;
      if (pe?.initFailed) {
        const outputs = this.finishOutputs(reg, pe.initFailed.properties, checked);
        const state = this.newState(reg, id, checked, outputs);
        state.initErrors = pe.initFailed.reasons.length ? pe.initFailed.reasons : [pe.message];
        this.news.set(reg.urn, state);
        await this.persist();
      }
      const failure = this.providerFailure(reg, "update", e);
      this.step(reg, "update", "update", start, {
        id,
        changedKeys: keys,
        failed: true,
        error: failure.message,
      });
      throw failure;
    }
  }

  private async replace(
    reg: Registration,
    old: ResourceState,
    keys: string[],
    replaceKeys: string[],
    providerDeleteBeforeReplace: boolean,
    start: number,
  ): Promise<{ id: string; outputs: WireMap }> {
    // A defined deleteBeforeReplace option overrides what the provider says (source_eval.go).
    const deleteBeforeReplace = reg.deleteBeforeReplaceDefined
      ? reg.deleteBeforeReplace
      : providerDeleteBeforeReplace;
    const extra = { changedKeys: keys, replaceKeys, deleteBeforeReplace };
    // Protect blocks a replace only when the program keeps it: unprotecting and replacing in one `up`
    // is allowed. A preview reports the error and goes on; an update stops (step_generator.go).
    if (old.protect && reg.protect) {
      const message = `unable to replace resource "${reg.urn}" as it is currently marked for protection`;
      // The preview fails but is shown whole: no `failed` flag, so the plan goes on.
      if (this.preview) this.errors.push({ kind: "engine", message, ...this.who(reg) });
      else {
        this.step(reg, "replace", "update", start, { ...extra, failed: true, error: message });
        throw this.engineFailure(reg, message);
      }
    }
    // The replacement is created from the program's own inputs, checked again with no old inputs
    // (ignoreChanges does not apply to a new object: step_generator.go).
    const fresh = await this.check(reg, {}, reg.inputs);
    if (deleteBeforeReplace) await this.deleteDependentsFirst(old);
    if (this.preview) {
      // The plan lists the old copy's delete too: first for a delete-before-create, else with the final deletes.
      if (deleteBeforeReplace) this.step(old, "delete", "update", start, { id: old.id, replaced: true });
      const planned = await this.create(reg, fresh, start, "replace", extra);
      if (!deleteBeforeReplace) {
        this.olds.delete(reg.urn);
        this.pendingDeletes.push({ ...old, protect: false, delete: true });
      }
      return planned;
    }
    if (!deleteBeforeReplace) {
      // Create-before-delete: the old copy is deleted with the final deletes.
      const condemn = () => {
        this.olds.delete(reg.urn);
        // A protected resource gets here only when the program dropped `protect` (checked above).
        this.pendingDeletes.push({ ...old, protect: false, delete: true });
        return this.persist();
      };
      try {
        const created = await this.create(reg, fresh, start, "replace", extra);
        await condemn();
        return created;
      } catch (e) {
        // A half-created replacement took the URN: keep the old copy, condemned, in the state.
        if (this.news.has(reg.urn) && this.olds.get(reg.urn) === old) await condemn();
        throw e;
      }
    }
    try {
      await this.deleteOldCopy(reg, old);
    } catch (e) {
      this.step(reg, "replace", "update", start, { ...extra, failed: true, error: (e as Error).message });
      throw e;
    }
    return this.create(reg, fresh, start, "replace", extra);
  }

  /** Deletes the old copy of a resource replaced delete-before-create (a `delete` step marked `replaced`). */
  private async deleteOldCopy(
    r: { urn: string; name: string; type: string },
    old: ResourceState,
    pendingReplacement = false,
  ): Promise<void> {
    const start = this.now();
    const host = await this.provider(r);
    try {
      if (!old.retainOnDelete) {
        await this.stepExecutor.run(() =>
          host.delete(old.urn, old.id!, forProvider(old.inputs), forProvider(old.outputs)),
        );
      }
    } catch (e) {
      const failure = this.providerFailure(r, "delete", e);
      this.step(old, "delete", "update", start, {
        id: old.id,
        replaced: true,
        failed: true,
        error: failure.message,
      });
      throw failure;
    }
    if (this.olds.get(old.urn) === old) {
      // A dependent deleted first stays in the state, marked, until the program recreates it.
      if (pendingReplacement) this.olds.set(old.urn, { ...old, pendingReplacement: true });
      else this.olds.delete(old.urn);
    }
    await this.persist();
    this.step(old, "delete", "update", start, { id: old.id, replaced: true });
  }

  /**
   * Before a delete-before-create replacement, the engine finds the resources of the old state that
   * depend on it (calculateDependentReplacements): each is diffed with the dependent properties
   * unknown, and those that would be replaced are deleted first, dependents before what they depend
   * on, then recreated when the program registers them. In a preview only the diffs run.
   */
  private async deleteDependentsFirst(root: ResourceState): Promise<void> {
    const replaceSet = new Set([root.urn]);
    const toReplace: ResourceState[] = [];
    const host = await this.provider(root);
    for (const d of this.dependingOn(root)) {
      if (!d.custom || d.external || !d.id || this.seen.has(d.urn)) continue;
      let dependent = false;
      const inputs: WireMap = {};
      for (const [k, v] of Object.entries(d.inputs)) {
        const onReplaced = (d.propertyDependencies?.[k] ?? []).some((u) => replaceSet.has(u));
        dependent ||= onReplaced;
        inputs[k] = onReplaced ? UNKNOWN : v;
      }
      if (!dependent) continue;
      let diff: Awaited<ReturnType<ProviderHost["diff"]>>;
      try {
        diff = await this.stepGenerator.run(() =>
          host.diff(d.urn, d.id!, forProvider(d.inputs), forProvider(d.outputs), forProvider(inputs), []),
        );
      } catch (e) {
        throw this.providerFailure(d, "diff", e);
      }
      if (diff.changes === "some" && diff.replaces.length) {
        toReplace.push(d);
        replaceSet.add(d.urn);
      }
    }
    if (this.preview) return;
    for (const d of toReplace.reverse()) await this.deleteOldCopy(d, d, true);
  }

  /** The old state's resources that depend on `root`, directly or not, in dependency order. */
  private dependingOn(root: ResourceState): ResourceState[] {
    const all = [...this.olds.values()];
    const found: ResourceState[] = [];
    const reached = new Set([root.urn]);
    for (const r of all) {
      const on = [r.parent, ...(r.dependencies ?? []), ...Object.values(r.propertyDependencies ?? {}).flat()];
      if (r.urn !== root.urn && on.some((u) => u && reached.has(u))) {
        reached.add(r.urn);
        found.push(r);
      }
    }
    return found;
  }

  private async onRead(req: any): Promise<{ urn: string; outputs: WireMap }> {
    await this.gate;
    const start = this.now();
    const type: string = req.getType();
    const name: string = req.getName();
    const parent: string | undefined = req.getParent() || undefined;
    const urn = this.urnFor(type, name, parent);
    const r = { urn, name, type };
    if (this.seen.has(urn)) throw this.engineFailure(r, `Duplicate resource URN '${urn}'`);
    this.seen.add(urn);
    if (!isDynamic(type)) throw this.engineFailure(r, `${type}: the harness reads only dynamic resources`);
    const id: string = req.getId();
    const props: WireMap = req.getProperties()?.toJavaScript() ?? {};
    const aso: string[] = req.getAdditionalsecretoutputsList();
    const host = await this.provider(r);
    let read: Awaited<ReturnType<ProviderHost["read"]>>;
    try {
      read = await this.stepExecutor.run(() => host.read(urn, id, forProvider(props), forProvider(props)));
    } catch (e) {
      throw this.providerFailure(r, "read", e);
    }
    // An empty id from the dynamic-provider host still answers the serialized provider: the engine
    // records the read with no other outputs (it does not fail).
    const outputs = read.id ? read.properties : { __provider: read.properties.__provider };
    annotateSecrets(outputs, props);
    markSecretOutputs(outputs, aso);
    const now = new Date().toISOString();
    this.news.set(urn, {
      urn,
      type,
      name,
      custom: true,
      id: read.id || id,
      parent,
      inputs: props,
      outputs,
      dependencies: unique(req.getDependenciesList()),
      propertyDependencies: {},
      external: true,
      provider: this.providerRef,
      ...(aso.length ? { additionalSecretOutputs: aso } : {}),
      created: now,
      modified: now,
    });
    await this.persist();
    this.step(r, "read", "update", start, { id: read.id || id });
    return { urn, outputs: req.getAcceptsecrets() ? outputs : forProvider(outputs) };
  }

  // ---------------------------------------------------------------- program run

  /** Runs the program (already resolved) inside the SDK's Stack, as the language host does. */
  async runProgram(load: () => unknown): Promise<void> {
    const began = this.now();
    const settings = this.sdk.settings;
    settings.setMockOptions(this.monitor(), this.opts.project, this.opts.stack, this.preview, "organization");
    const onError = (e: unknown) => this.programFailure(e);
    process.on("unhandledRejection", onError);
    process.on("uncaughtException", onError);
    // A program that failed (an uncaught error, e.g. a lookup refused) ends the run as the language
    // host ends it, and a failed step as the engine ends the update (stepFailed): the Stack itself
    // may never complete (a registration waits on the failed output), and registrations still
    // waiting on failed outputs are not waited for; the steps already under way finish (drain), so
    // nothing created is left out of the state.
    const failed = new Promise<void>((resolve) => {
      this.programFailed = resolve;
    });
    // A step that failed while the program loaded.
    if (this.failed && !this.opts.continueOnError) this.programFailed?.();
    try {
      const run = this.sdk.stack.runInPulumiStack(async () => {
        const codeBegan = this.now();
        let exported: any = load();
        if (typeof exported === "function") exported = exported();
        else if (exported?.__esModule && typeof exported.default === "function") {
          const named = Object.keys(exported).filter((k) => k !== "default");
          if (named.length) throw new Error("expected a default export or named exports but not both");
          exported = exported.default();
        }
        try {
          return await exported;
        } finally {
          // The program's own code: its top level and exported function (where it declares its
          // resources; a synchronous declaration holds every registration back until it ends).
          this.timings.programCodeMs = this.now() - codeBegan;
        }
      });
      await Promise.race([run, failed]);
    } catch (e) {
      this.programFailure(e);
    }
    await Promise.race([settings.waitForRPCs(), failed]);
    await this.drain();
    // Let rejections of failed registrations reach the handlers before deciding.
    await new Promise((r) => setImmediate(r));
    this.timings.programMs = this.now() - began;
  }

  /** After a successful program: delete what is no longer declared (and replaced old copies). */
  async deleteUnregistered(): Promise<void> {
    if (this.failed && !this.opts.continueOnError) return;
    // A program that failed may not have declared everything: never delete after that.
    if (this.errors.some((e) => e.kind === "program")) return;
    const gone = [...this.olds.values()].filter((r) => !this.seen.has(r.urn));
    await this.deleteAll([...gone, ...this.pendingDeletes]);
  }

  /** `pulumi destroy`: everything in the state, dependents first. */
  async destroyAll(): Promise<void> {
    await this.deleteAll([...this.olds.values(), ...this.pendingDeletes]);
    this.stackOutputs = {};
  }

  /**
   * Deletes dependents first, as the engine schedules them: a resource is deleted once every
   * candidate that depends on it (its children, its dependencies and property dependencies) is
   * gone; independent deletes run in parallel. After a failed delete no new delete starts (those in
   * flight finish). Linear in the candidates and their edges.
   */
  private async deleteAll(candidates: ResourceState[]): Promise<void> {
    const began = this.now();
    const byUrn = new Map<string, ResourceState[]>();
    for (const c of candidates) {
      const list = byUrn.get(c.urn);
      if (list) list.push(c);
      else byUrn.set(c.urn, [c]);
    }
    /** r → the candidates r depends on (each waits for r). */
    const dependencies = new Map<ResourceState, Set<ResourceState>>();
    /** How many candidates that depend on r are still to be deleted. */
    const waitingFor = new Map<ResourceState, number>();
    for (const r of candidates) {
      const on = new Set<ResourceState>();
      const urns = [
        r.parent,
        ...(r.dependencies ?? []),
        ...Object.values(r.propertyDependencies ?? {}).flat(),
      ];
      for (const urn of urns) {
        if (!urn || urn === r.urn) continue;
        for (const d of byUrn.get(urn) ?? []) on.add(d);
      }
      dependencies.set(r, on);
      for (const d of on) waitingFor.set(d, (waitingFor.get(d) ?? 0) + 1);
    }
    const notStarted = new Set(candidates);
    let running = 0;
    let stopped = false;
    await new Promise<void>((resolve) => {
      const start = (r: ResourceState) => {
        notStarted.delete(r);
        running++;
        this.deleteOne(r).then(
          () => {
            running--;
            for (const d of dependencies.get(r)!) {
              const left = waitingFor.get(d)! - 1;
              waitingFor.set(d, left);
              if (left === 0 && !stopped && notStarted.has(d)) start(d);
            }
            settle();
          },
          () => {
            running--;
            stopped = true; // the engine stops at the first failed delete
            settle();
          },
        );
      };
      const settle = () => {
        if (running) return;
        // Nothing in flight: done, or a dependency cycle (impossible in a valid state; do not hang).
        if (stopped || !notStarted.size) return resolve();
        for (const r of [...notStarted]) start(r);
      };
      for (const r of candidates) if (!waitingFor.get(r)) start(r);
      settle();
    });
    this.timings.deletesMs = this.now() - began;
  }

  private async deleteOne(r: ResourceState): Promise<void> {
    const start = this.now();
    if (r.custom && !r.external) {
      if (r.protect) {
        const message = `unable to delete resource "${r.urn}" as it is currently marked for protection`;
        this.step(r, "delete", "delete", start, { id: r.id, failed: true, error: message });
        throw this.engineFailure(r, message);
      }
      if (!this.preview && !r.retainOnDelete) {
        const host = await this.provider(r);
        try {
          await this.stepExecutor.run(() =>
            host.delete(r.urn, r.id!, forProvider(r.inputs), forProvider(r.outputs)),
          );
        } catch (e) {
          const failure = this.providerFailure(r, "delete", e);
          this.step(r, "delete", "delete", start, { id: r.id, failed: true, error: failure.message });
          throw failure;
        }
      }
      this.step(r, "delete", "delete", start, r.delete ? { id: r.id, replaced: true } : { id: r.id });
    }
    if (this.preview) return;
    if (r.delete) this.pendingDeletes = this.pendingDeletes.filter((x) => x !== r);
    else if (this.olds.get(r.urn) === r) this.olds.delete(r.urn);
    if (this.news.get(r.urn) === r) this.news.delete(r.urn);
    await this.persist();
  }

  // ---------------------------------------------------------------- refresh

  /**
   * Read every custom resource of the state; drop the ones gone, rewrite outputs and inputs. Each
   * read is followed by the provider's Diff of the refreshed state against the old inputs (what an
   * `up` of an unchanged program would change, RefreshStep.Apply): a standalone refresh reports drift
   * only when that Diff finds changes (a Diff that throws fails the refresh). Inside `--refresh`, the
   * steps listed are the entries whose state changed. `host`: the provider configured from the
   * config saved in the state, when that differs from the current one.
   */
  async refresh(standalone: boolean, refreshHost?: Promise<ProviderHost>): Promise<void> {
    const began = this.now();
    const targets = [...this.olds.values(), ...this.pendingDeletes].filter(
      (r) => r.custom && r.id && isDynamic(r.type) && !r.pendingReplacement,
    );
    if (!targets.length) return;
    const host = refreshHost ? await refreshHost : await this.provider();
    await Promise.all(
      targets.map(async (r) => {
        const start = this.now();
        try {
          const read = await this.stepExecutor.run(() =>
            host.read(r.urn, r.id!, forProvider(r.outputs), forProvider(r.inputs)),
          );
          if (!read.id) {
            this.step(r, "refresh-delete", "refresh", start, { id: r.id });
            if (r.delete) this.pendingDeletes = this.pendingDeletes.filter((x) => x !== r);
            else this.olds.delete(r.urn);
            return;
          }
          const outputs = read.properties;
          annotateSecrets(outputs, r.outputs);
          markSecretOutputs(outputs, r.additionalSecretOutputs);
          const inputs = read.inputs ?? r.inputs;
          if (read.inputs) annotateSecrets(inputs, r.inputs);
          const diff = await this.stepGenerator.run(() =>
            host.diff(r.urn, read.id, forProvider(inputs), forProvider(outputs), forProvider(r.inputs), []),
          );
          const changedOutputKeys = changedKeys(r.outputs, outputs);
          const changedInputKeys = read.inputs ? changedKeys(r.inputs, inputs) : [];
          const stateChanged = changedOutputKeys.length > 0 || changedInputKeys.length > 0;
          const id = r.id;
          // Entries are immutable once written: the refreshed entry replaces the old one (in a
          // preview too: the program is diffed against the refreshed state; nothing is written).
          const next: ResourceState = { ...r, id: read.id, outputs, inputs };
          delete next.initErrors;
          if (r.delete) this.pendingDeletes[this.pendingDeletes.indexOf(r)] = next;
          else this.olds.set(r.urn, next);
          if (stateChanged) next.modified = new Date().toISOString();
          if (!this.preview) this.writer.prepare(next); // serialized now, while the other reads wait
          // Drift is what the provider's Diff finds (RefreshStep.ResultOp), in a standalone refresh
          // and inside `--refresh` alike: an output-only change (a server-computed field) is not
          // drift; the engine counts no change for it (`--expect-no-changes` passes).
          // DIFF_UNKNOWN: the engine compares the inputs (diffResource).
          const drift = diff.changes === "unknown" ? changedInputKeys.length > 0 : diff.changes === "some";
          if (drift) {
            this.step(r, "read-drift", "refresh", start, {
              id,
              changedKeys: unique([...changedOutputKeys, ...changedInputKeys]).sort(),
              changedOutputKeys,
              changedInputKeys,
            });
          } else if (standalone) {
            this.step(r, "same", "refresh", start, { id });
          }
        } catch (e) {
          const failure = this.providerFailure(r, "read", e);
          this.step(r, "read-drift", "refresh", start, { id: r.id, failed: true, error: failure.message });
        }
      }),
    );
    await this.persist();
    this.timings.refreshMs = this.now() - began;
  }

  /** Final snapshot (the stack's outputs and any elided same steps included), after the pending ones. */
  async finish(): Promise<void> {
    if (this.preview) return;
    for (let w = this.writing; ; w = this.writing) {
      await w;
      if (w === this.writing) break; // no write was queued meanwhile
    }
    const snapshot = this.snapshot();
    if (this.writer.unchanged(snapshot)) return; // the last snapshot written is this one
    this.timings.stateWrites = (this.timings.stateWrites ?? 0) + 1;
    this.writer.write(snapshot);
  }
}

/**
 * A same step's new entry equals the old one (timestamps aside, and init errors, which a same step
 * never has): the engine elides that checkpoint write (sameSnapshotMutation.mustWrite).
 */
function sameEntry(old: ResourceState, next: ResourceState): boolean {
  const strip = ({ created: _c, modified: _m, ...rest }: ResourceState) => rest;
  const a = strip(old);
  const b = strip(next);
  const deps = (r: ResourceState) => [...(r.dependencies ?? [])].sort();
  return deepEqual({ ...a, dependencies: deps(old) }, { ...b, dependencies: deps(next) });
}

/** `replaceOnChanges` paths match a top-level key by their first segment; "*" matches all. */
function matchesAny(key: string, paths: string[]): boolean {
  return paths.some((p) => p === "*" || p === key || parsePropertyPath(p)[0] === key);
}

/**
 * A property path as the engine parses it (resource.ParsePropertyPath): `a.b[0]["c.d"]`, with `*`
 * (or `[*]`) matching any key or element.
 */
export function parsePropertyPath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  const re = /([^.[\]]+)|\[(\d+|\*)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(m[2] === "*" ? "*" : Number(m[2]));
    else out.push(JSON.parse(`"${m[3]}"`));
  }
  return out;
}

/**
 * ignoreChanges (processIgnoreChanges): for each path, the new inputs take the old value at that
 * path (or lose it when the old inputs have none), at any depth; `*` segments match every key.
 */
function applyIgnoreChanges(news: WireMap, olds: WireMap, ignore: string[]): WireMap {
  if (!ignore.length) return news;
  let out: WireMap = clone(news);
  for (const p of ignore) {
    const path = parsePropertyPath(p);
    if (path.length === 1 && path[0] === "*") return clone(olds);
    out = ignoreAt(out, olds, path) as WireMap;
  }
  return out;
}

function ignoreAt(news: any, olds: any, path: Array<string | number>): any {
  const [head, ...rest] = path;
  if (head === undefined) return clone(olds);
  const container = (v: any) => v !== null && typeof v === "object";
  if (!container(news)) return news;
  const keys = head === "*" ? Object.keys(news) : [String(head)];
  const out = Array.isArray(news) ? [...news] : { ...news };
  for (const k of keys) {
    const oldValue = container(olds) ? olds[k] : undefined;
    if (!rest.length) {
      if (oldValue === undefined) delete (out as any)[k];
      else (out as any)[k] = clone(oldValue);
    } else if (k in out) {
      (out as any)[k] = ignoreAt((out as any)[k], oldValue, rest);
    }
  }
  return out;
}

/** At most `size` tasks at once, the others wait in order. */
class Slots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly size: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
