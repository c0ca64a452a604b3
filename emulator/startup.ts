/**
 * The steps `startEmulator` (index.ts) takes, in order, each a named function:
 *
 *   resolveOptions → createRuntime → openState → dashboardKeys → installRequestHandling → serve
 *
 * `createRuntime` builds the parts (clock, store, rate limiter, router of the families' routes,
 * pipeline); `openState` loads the state file or seeds a fresh store, then makes sure of the
 * bootstrap key; `dashboardKeys` makes keys outside the API (what `createApiKey` and
 * `POST /_emulator/api_keys` do); `installRequestHandling` puts the control routes, the standard
 * stages and fault injection in the pipeline; `serve` listens and answers the `RunningEmulator`.
 * Whatever a step needs of a family comes through the family interface (`seed`, `dashboard`).
 */
import type { Server } from "node:http";
import { bootstrapKey, ensureBootstrapKey, type StoredApiKey, storeApiKey } from "./auth";
import { Clock } from "./clock";
import { ControlRoutes, standardControlRoutes } from "./control";
import { FAMILIES } from "./families";
import type { FamilyModule, RouteSpec } from "./family";
import { type FaultController, installFaults } from "./faults";
import { Pipeline } from "./http/pipeline";
import { RateLimiter } from "./http/rateLimit";
import { Router } from "./http/router";
import { closeServer, createServer, listen } from "./http/server";
import { installStandardStages } from "./http/stages";
import { newId, newToken } from "./ids";
import type { EmulatorOptions, RunningEmulator } from "./index";
import type { EmulatorRuntime, RequestLogEntry, ResolvedOptions, ResponseProblem } from "./runtime";
import { refType } from "./shapes";
import { readStateFile, Store } from "./store";

/** The options after defaults; bad values throw. */
export function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`emulator: invalid port ${port}`);
  const burst = options.burst ?? 1200;
  if (!Number.isInteger(burst) || burst < 1)
    throw new Error(`emulator: burst must be an integer ≥ 1 (got ${burst})`);
  const refillPerSecond = options.refillPerSecond ?? 20;
  if (!(typeof refillPerSecond === "number" && refillPerSecond > 0 && Number.isFinite(refillPerSecond))) {
    throw new Error(`emulator: refillPerSecond must be > 0 (got ${refillPerSecond})`);
  }
  if (options.apiKey !== undefined && !/^\S+$/.test(options.apiKey)) {
    throw new Error("emulator: apiKey must be a non-empty string without spaces");
  }
  return {
    host: options.host ?? "127.0.0.1",
    port,
    apiKey: options.apiKey ?? "",
    burst,
    refillPerSecond,
    stateFile: options.stateFile,
    seed: options.seed ?? true,
    maxApiKeys: options.maxApiKeys ?? 5000,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    validateResponses: options.validateResponses ?? true,
    requestLogLimit: options.requestLogLimit ?? 100_000,
    dashboardUrl: options.dashboardUrl,
  };
}

/** Every route of `families` in one router. */
export function routerOf(families: readonly FamilyModule[]): Router<RouteSpec> {
  const router = new Router<RouteSpec>();
  for (const family of families) for (const r of family.routes) router.add(r.method, r.path, r);
  return router;
}

/** The `creator` of what the dashboard makes: the first family that names one, else none (`{}`). */
function dashboardCreator(runtime: EmulatorRuntime): Record<string, unknown> {
  for (const f of runtime.families) {
    const creator = f.dashboard?.creator?.(runtime.store);
    if (creator) return creator;
  }
  return {};
}

/** A key as the API answers it, by the family that renders keys (else its id and name). */
function renderDashboardKey(runtime: EmulatorRuntime, key: StoredApiKey): Record<string, unknown> {
  const render = runtime.families.find((f) => f.dashboard?.renderApiKey)?.dashboard?.renderApiKey;
  return render ? render(runtime.store, key) : { id: key.id, name: key.name };
}

/** Seeds every family (when seeding is on). */
function seedAll(runtime: EmulatorRuntime): void {
  if (!runtime.options.seed) return;
  const now = runtime.clock.now();
  for (const f of runtime.families) f.seed?.(runtime.store, { now, nowIso: runtime.clock.iso(now) });
}

/**
 * The runtime every stage and handler reaches: parts built, store empty, not listening yet (`url`
 * is set by `serve`). `reset` empties the store, seeds it again and keeps the bootstrap key.
 */
export function createRuntime(
  opts: ResolvedOptions,
  families: readonly FamilyModule[] = FAMILIES,
  now?: () => number,
): EmulatorRuntime {
  const clock = new Clock(now);
  const store = new Store({ stateFile: opts.stateFile });
  const limiter = new RateLimiter({
    burst: opts.burst,
    refillPerSecond: opts.refillPerSecond,
    now: () => clock.now(),
  });
  const requests: RequestLogEntry[] = [];
  const responseProblems: ResponseProblem[] = [];
  const runtime: EmulatorRuntime = {
    options: opts,
    store,
    clock,
    limiter,
    router: routerOf(families),
    pipeline: new Pipeline(),
    families,
    requests,
    responseProblems,
    url: "",
    persist: () => store.persist(clock.iso()),
    reset: async () => {
      await store.exclusive(() => {
        const kept = bootstrapKey(store);
        store.clear();
        seedAll(runtime);
        ensureBootstrapKey(store, opts.apiKey, clock.iso(), dashboardCreator(runtime), kept);
      });
      limiter.reset();
      requests.length = 0;
      responseProblems.length = 0;
      runtime.persist();
    },
  };
  return runtime;
}

/**
 * Loads the state file, or seeds a fresh store; then the bootstrap key: `apiKey` when given, else
 * the token the state file kept, else a new one (written back to `runtime.options.apiKey`). Persists.
 */
export function openState(runtime: EmulatorRuntime, apiKey: string | undefined): void {
  const { store, options } = runtime;
  const state = options.stateFile ? readStateFile(options.stateFile) : undefined;
  if (state) store.fromState(state);
  else seedAll(runtime);
  const kept = store.meta.bootstrap_token;
  const token = apiKey ?? (typeof kept === "string" ? kept : newToken());
  ensureBootstrapKey(store, token, runtime.clock.iso(), dashboardCreator(runtime));
  runtime.options.apiKey = token;
  runtime.persist();
}

const roleEnum = (field: string): string[] =>
  refType("APIKeysCreatePayloadV1")?.fields.find((f) => f.name === field)?.enum ?? [];

/** Makes a key as the dashboard would: any roles the API knows (unknown names throw), no API rules. */
export type DashboardKeyMaker = (
  name: string,
  roleNames: string[],
  teamRoleNames?: string[],
  teamIds?: string[],
) => Promise<{ apiKey: Record<string, unknown>; token: string }>;

/** The runtime's `DashboardKeyMaker` (in a store transaction, persisted). */
export function dashboardKeys(runtime: EmulatorRuntime): DashboardKeyMaker {
  return async (name, roleNames, teamRoleNames = [], teamIds = []) => {
    const unknown = [
      ...roleNames.filter((r) => !roleEnum("role_names").includes(r)),
      ...teamRoleNames.filter((r) => !roleEnum("team_role_names").includes(r)),
    ];
    if (unknown.length > 0) throw new Error(`emulator: unknown role name(s): ${unknown.join(", ")}`);
    const { store, clock } = runtime;
    const { result } = await store.transaction(() =>
      storeApiKey(
        store,
        {
          name,
          role_names: roleNames,
          team_role_names: teamRoleNames,
          team_ids: teamIds,
          creator: dashboardCreator(runtime),
        },
        clock.iso(),
      ),
    );
    runtime.persist();
    return { apiKey: renderDashboardKey(runtime, result.key), token: result.token };
  };
}

/** Control routes, the standard stages and fault injection, in the runtime's pipeline. */
export function installRequestHandling(
  runtime: EmulatorRuntime,
  makeKey: DashboardKeyMaker,
): { control: ControlRoutes; faults: FaultController } {
  const control = standardControlRoutes(new ControlRoutes(), makeKey);
  // The families' own control routes (what only the dashboard makes), in a store transaction.
  for (const family of runtime.families)
    for (const route of family.control ?? [])
      control.add(route.method, route.path, route.description, async ({ runtime: rt, body, params }) => {
        const { result, changed } = await rt.store.transaction(() =>
          route.handler({ store: rt.store, body, params, newId: () => newId(), nowIso: rt.clock.iso() }),
        );
        if (changed) rt.persist();
        return result;
      });
  installStandardStages(runtime.pipeline, control.middleware());
  const faults = installFaults(runtime.pipeline, control);
  return { control, faults };
}

/** The host part of a URL to `host` (a wildcard address is reached through loopback). */
export function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Listens on the runtime's host and port and sets `runtime.url`; `close` stops the server once
 * (however often it is called), then runs `after` (the main emulator writes its state).
 */
export async function listenOn(
  runtime: EmulatorRuntime,
  after: () => Promise<void> = async () => undefined,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer(runtime);
  const port = await listen(server, runtime.options.port, runtime.options.host);
  runtime.url = `http://${urlHost(runtime.options.host)}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    port,
    close: () => {
      closing ??= closeServer(server).then(after);
      return closing;
    },
  };
}

/** Listens, sets `runtime.url` and answers the running emulator (`close` also writes the state). */
export async function serve(
  runtime: EmulatorRuntime,
  parts: { control: ControlRoutes; faults: FaultController; makeKey: DashboardKeyMaker },
): Promise<RunningEmulator> {
  const { port, close } = await listenOn(runtime, () => runtime.store.exclusive(() => runtime.persist()));
  return {
    url: runtime.url,
    port,
    apiKey: runtime.options.apiKey,
    requests: runtime.requests,
    responseProblems: runtime.responseProblems,
    store: runtime.store,
    clock: runtime.clock,
    pipeline: runtime.pipeline,
    control: parts.control,
    faults: parts.faults,
    reset: runtime.reset,
    createApiKey: async (name, roleNames, teamRoleNames, teamIds) =>
      (await parts.makeKey(name, roleNames, teamRoleNames, teamIds)).token,
    close,
  };
}
