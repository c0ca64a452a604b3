/**
 * The child process that plays the engine for one operation (the SDK runtime keeps global state, so
 * every run gets a fresh process): `node runner.js <options.json>` (index.ts transpiles it once), cwd =
 * the program's directory. Writes `<work>/result.json` and exits.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Deployment } from "./deployment";
import { loadSdk, ProviderHost, spawnHost } from "./host";
import { loadState } from "./state";
import { readTrace } from "./trace";
import type { Operation, RunResult } from "./types";
import { containsSecrets, masked, plain, type WireMap } from "./wire";

export interface RunnerOptions {
  operation: Operation;
  refresh: boolean;
  programFile?: string;
  programDir: string;
  project: string;
  stack: string;
  config: Record<string, string>;
  secretConfig: string[];
  stateFile: string;
  passphrase: string;
  continueOnError: boolean;
  parallel: number;
  /** The preview pass of `pulumi refresh`: reads and diffs, nothing written. */
  dryRun: boolean;
  /** The caller's extra env (already in this process's env; re-applied last for the host). */
  env: Record<string, string>;
  /** Temp directory of this run: traces, host pid, result. */
  work: string;
  /** ts-node registration for TypeScript programs (as the CLI's language host registers it). */
  tsNode?: { path: string; options: Record<string, unknown> };
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const o: RunnerOptions = JSON.parse(fs.readFileSync(process.argv[2]!, "utf8"));
  const resultFile = path.join(o.work, "result.json");
  const hostTrace = path.join(o.work, "provider-trace.jsonl");
  const programTrace = path.join(o.work, "program-trace.jsonl");
  const timings: Record<string, number> = { runnerStartMs: Math.round(t0 - performance.timeOrigin) };

  // The provider host gets the caller's environment, not the program's PULUMI_* settings.
  const hostEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_PROJECT: o.project,
    PULUMI_NODEJS_PROJECT: o.project,
    PULUMI_CONFIG: "{}",
    ...o.env,
    INCIDENT_TRACE_FILE: hostTrace,
  };

  // Start the host first: it boots (≈0.5 s) while the SDK, the state and the program load.
  let spawned: ReturnType<typeof spawnHost> | undefined;
  const extraHosts: ReturnType<typeof spawnHost>[] = [];
  try {
    const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [o.programDir] }));
    spawned = spawnHost(sdkDir, o.programDir, hostEnv);
    if (spawned.child.pid) fs.writeFileSync(path.join(o.work, "host.pid"), String(spawned.child.pid));
  } catch {
    // reported below when the SDK cannot be loaded
  }

  // What the language host sets for the program.
  Object.assign(process.env, {
    PULUMI_CONFIG: JSON.stringify(o.config),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(o.secretConfig),
    PULUMI_NODEJS_PROJECT: o.project,
    PULUMI_NODEJS_STACK: o.stack,
    PULUMI_NODEJS_ORGANIZATION: "organization",
    PULUMI_NODEJS_DRY_RUN: String(o.operation === "preview"),
    PULUMI_NODEJS_ROOT_DIRECTORY: o.programDir,
    INCIDENT_TRACE_FILE: programTrace,
  });

  let deployment: Deployment | undefined;
  const result: RunResult = {
    operation: o.operation,
    ok: false,
    steps: [],
    outputs: {},
    secretOutputs: {},
    apiCalls: [],
    errors: [],
    warnings: [],
    durationMs: 0,
    counts: {},
    timings,
    log: "",
  };
  try {
    const sdk = loadSdk(o.programDir);
    const loaded = loadState(o.stateFile, o.passphrase);
    if (loaded.project && loaded.project !== o.project) {
      result.warnings.push(`state was written for project ${loaded.project}, running as ${o.project}`);
    }
    deployment = new Deployment(
      sdk,
      {
        operation: o.operation,
        project: o.project,
        stack: o.stack,
        config: o.config,
        stateFile: o.stateFile,
        refresh: o.refresh,
        continueOnError: o.continueOnError,
        parallel: o.parallel,
        secretConfig: o.secretConfig,
        dryRun: o.dryRun,
      },
      loaded,
      loaded.crypter,
      t0,
    );
    const host = spawned;
    // refresh and destroy configure the provider from the config saved in the state by the last
    // `up`, not from the current config (the engine's EnsureProvider from the state).
    const saved = Deployment.savedConfig(loaded.resources);
    const programless = o.operation === "refresh" || o.operation === "destroy";
    deployment.startHost(
      () => {
        if (!host) throw new Error("the dynamic-provider host could not be started");
        return ProviderHost.connect(sdk, host);
      },
      programless ? (saved ?? o.config) : o.config,
    );
    // The refresh pass of `--refresh` too: a second provider, configured from the state, when the
    // config changed since.
    let refreshHost: Promise<ProviderHost> | undefined;
    if (o.refresh && !programless && saved && JSON.stringify(saved) !== JSON.stringify(o.config)) {
      const second = spawnHost(
        path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [o.programDir] })),
        o.programDir,
        hostEnv,
      );
      extraHosts.push(second);
      refreshHost = ProviderHost.connect(sdk, second).then(async (h) => {
        await h.configure(saved);
        return h;
      });
    }
    timings.sdkLoadedAtMs = Date.now() - t0;

    switch (o.operation) {
      case "refresh":
        await deployment.refresh(true);
        break;
      case "destroy":
        await deployment.destroyAll();
        break;
      default: {
        const file = o.programFile;
        if (!file) throw new Error(`no program entry point found in ${o.programDir}`);
        // --refresh: the refresh pass completes before any registration is processed; the program
        // loads meanwhile (same order of effects as the CLI, less waiting).
        const refreshed = o.refresh ? deployment.refresh(false, refreshHost) : Promise.resolve();
        // Observed below; marked handled now so that a program failing first (e.g. its provider
        // host was killed) does not leave it rejected unobserved, which would crash the runner.
        refreshed.catch(() => undefined);
        deployment.holdRegistrationsUntil(refreshed);
        if (o.tsNode) require(o.tsNode.path).register(o.tsNode.options);
        // A program whose registrations wait on a failed resource can stall with nothing left to
        // run (the SDK leaves their promises pending): the language host then exits and the engine
        // ends the update with the errors it has. `beforeExit` is that moment here.
        await Promise.race([
          deployment.runProgram(() => require(file)),
          stalled.then(() => {
            // No deletes after this: the program did not finish registering what it declares.
            throw new Error(
              "the program stopped with registrations still pending (after an earlier failure)",
            );
          }),
        ]);
        await refreshed;
        await deployment.deleteUnregistered();
      }
    }
    await deployment.finish();
  } catch (e) {
    result.errors.push({ kind: "engine", message: e instanceof Error ? e.message : String(e) });
    try {
      await deployment?.finish();
    } catch (e2) {
      result.errors.push({ kind: "engine", message: `writing the state failed: ${(e2 as Error).message}` });
    }
  } finally {
    deployment?.killHost();
    for (const h of extraHosts) {
      try {
        if (h.child.pid) process.kill(-h.child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    if (spawned?.child.pid) {
      try {
        process.kill(-spawned.child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }

  if (deployment) {
    result.steps = deployment.steps;
    result.errors = [...deployment.errors, ...result.errors];
    result.warnings.push(...deployment.warnings);
    Object.assign(timings, deployment.timings);
    const outputs: WireMap = deployment.stackOutputs ?? {};
    result.outputs = masked(outputs);
    for (const [k, v] of Object.entries(outputs)) if (containsSecrets(v)) result.secretOutputs[k] = plain(v);
    result.log = deployment.hostLog();
  }
  result.apiCalls = [...readTrace(hostTrace, "provider"), ...readTrace(programTrace, "program")];
  for (const s of result.steps) {
    const key = s.failed ? "failed" : s.replaced ? "delete-replaced" : s.op;
    result.counts[key] = (result.counts[key] ?? 0) + 1;
  }
  if (result.errors.length === 0 && unhandled.length > 0) {
    const e = unhandled[0];
    result.errors.push({
      kind: "program",
      message: `unhandled rejection in the program: ${e instanceof Error ? e.message : String(e)}`,
      detail: e instanceof Error ? e.stack : undefined,
    });
  }
  result.ok = result.errors.length === 0;
  timings.runnerTotalMs = Date.now() - t0;
  result.durationMs = timings.runnerTotalMs;
  fs.writeFileSync(resultFile, JSON.stringify(result));
}

/** Resolves when the event loop has nothing left to do while the run is still going. */
const stalled = new Promise<void>((resolve) => process.once("beforeExit", () => resolve()));
// The SDK's echo of a registration that failed (a dependent's input was a failed output) is
// reported once, by the step that failed, and must not crash the run; any other unhandled
// rejection is the program's error.
const unhandled: unknown[] = [];
process.on("unhandledRejection", (e) => unhandled.push(e));

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => {
    // Lingering handles of the program (timers, sockets) must not keep the run alive.
    setImmediate(() => process.exit());
  });
