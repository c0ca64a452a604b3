/**
 * A local emulator of the incident-response platform's public HTTP API: a real HTTP server (node:http)
 * with the API's authentication, roles, errors, rate limits and the shapes of reference.json.
 *
 * ```ts
 * const emulator = await startEmulator({ port: 0 });
 * // emulator.url, emulator.apiKey (global access)
 * const token = await emulator.createApiKey("reader", ["viewer"]);
 * await emulator.close();
 * ```
 * See README.md for the endpoints, the role table, the control surface and how to add a family.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { API_KEYS, type StoredApiKey } from "./auth";
import { Clock } from "./clock";
import { ControlRoutes, standardControlRoutes } from "./control";
import { FAMILIES } from "./families";
import { insertApiKey, renderApiKey } from "./families/apiKeys";
import { accountOwner, renderUser } from "./families/users";
import type { FamilyModule, RouteSpec } from "./family";
import { type FaultController, installFaults } from "./faults";
import { HttpError } from "./http/errors";
import { Pipeline, type RequestContext } from "./http/pipeline";
import { RateLimiter } from "./http/rateLimit";
import { Router } from "./http/router";
import { installStandardStages } from "./http/stages";
import { hashToken, newRequestId, newToken } from "./ids";
import { registerLocalShapes } from "./localTypes";
import type { EmulatorRuntime, RequestLogEntry, ResolvedOptions, ResponseProblem } from "./runtime";
import { reference, refType } from "./shapes";
import { readStateFile, Store } from "./store";

export interface EmulatorOptions {
  /** Port to listen on; 0 (default) = any free port. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** The bootstrap key's token (global access). Default: the one in the state file, else generated. */
  apiKey?: string;
  /** Rate-limit bucket capacity per API key (default 1200). */
  burst?: number;
  /** Rate-limit refill, tokens per second (default 20). */
  refillPerSecond?: number;
  /** Persist the state here (loaded at start, written atomically after every change). */
  stateFile?: string;
  /** Seed users and teams on a fresh start (default true). */
  seed?: boolean;
  /** Time source in ms (tests); the emulator clock adds `clock.advance()` offsets to it. */
  now?: () => number;
  /** Most API keys an account may have (default 5000, as the API). */
  maxApiKeys?: number;
  /** Largest request body accepted, bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Check every successful response against its reference type (default true). */
  validateResponses?: boolean;
  /** Entries kept in `requests` (default 100 000; oldest dropped). */
  requestLogLimit?: number;
  /** `dashboard_url` of the identity response (default `<url>/_emulator`). */
  dashboardUrl?: string;
  /** The families to serve (default `FAMILIES`). */
  families?: readonly FamilyModule[];
}

export interface RunningEmulator {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  url: string;
  port: number;
  /** The bootstrap key's token (global access). */
  apiKey: string;
  /** Stops listening, closes connections, writes the state file. */
  close(): Promise<void>;
  /**
   * Makes a key as the dashboard would (any roles, including `api_keys_manage`; no API rules) and
   * returns its token. Unknown role names throw.
   */
  createApiKey(
    name: string,
    roleNames: string[],
    teamRoleNames?: string[],
    teamIds?: string[],
  ): Promise<string>;
  /** Every answered API request (live array). */
  requests: RequestLogEntry[];
  /** Responses that did not match their reference type (live array; should stay empty). */
  responseProblems: ResponseProblem[];
  /** The in-memory store. */
  store: Store;
  /** The emulator clock (`advance(ms)` to move time). */
  clock: Clock;
  /** The request pipeline (insert stages, e.g. faults, with `pipeline.use(name, fn, {before: "handler"})`). */
  pipeline: Pipeline;
  /** The `/_emulator/...` control routes (extensible). */
  control: ControlRoutes;
  /** Fault injection (also at `/_emulator/faults`). */
  faults: FaultController;
  /** Back to the seeded state (bootstrap key kept), buckets and logs cleared. */
  reset(): Promise<void>;
}

export type { StoredApiKey } from "./auth";
export { Clock } from "./clock";
export { type ControlContext, type ControlHandler, ControlRoutes } from "./control";
export { FAMILIES } from "./families";
export { SEED_TEAMS } from "./families/teams";
export { SEED_USERS } from "./families/users";
export {
  DEFAULT_PAGE_SIZE,
  defineFamily,
  type FamilyModule,
  type Handler,
  type HandlerContext,
  type HandlerResult,
  operation,
  paginate,
  type RouteSpec,
} from "./family";
export { FaultController, type FaultKind, type FaultRule } from "./faults";
export {
  badRequest,
  conflict,
  type FieldProblem,
  forbidden,
  HttpError,
  notFound,
  throwIfProblems,
  validationFailed,
} from "./http/errors";
export type { Middleware, Next, PendingResponse, RequestContext, StagePosition } from "./http/pipeline";
export { Pipeline } from "./http/pipeline";
export { limitHeader, RateLimiter } from "./http/rateLimit";
export { type Access, type Caller, type FamilyRoles, ROLE_TABLE } from "./roles";
export type { EmulatorRuntime, RequestLogEntry, ResponseProblem } from "./runtime";
export {
  assertShape,
  checkResponse,
  refOperation,
  refType,
  type ShapeProblem,
  type ValidateOptions,
  validateAgainst,
} from "./shapes";
export { Collection, type Entity, Store } from "./store";

function resolveOptions(options: EmulatorOptions): ResolvedOptions {
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

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

const ACCOUNT_ROLES = (): string[] =>
  refType("APIKeysCreatePayloadV1")?.fields.find((f) => f.name === "role_names")?.enum ?? [];
const TEAM_ROLES = (): string[] =>
  refType("APIKeysCreatePayloadV1")?.fields.find((f) => f.name === "team_role_names")?.enum ?? [];

/** Starts an emulator (listening when the promise resolves). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  reference();
  registerLocalShapes();
  const opts = resolveOptions(options);
  const clock = new Clock(options.now);
  const store = new Store({ stateFile: opts.stateFile });
  const limiter = new RateLimiter({
    burst: opts.burst,
    refillPerSecond: opts.refillPerSecond,
    now: () => clock.now(),
  });
  const families = options.families ?? FAMILIES;
  const router = new Router<RouteSpec>();
  for (const family of families) for (const r of family.routes) router.add(r.method, r.path, r);
  const pipeline = new Pipeline();
  const control = new ControlRoutes();
  const requests: RequestLogEntry[] = [];
  const responseProblems: ResponseProblem[] = [];

  const creatorForDashboardKeys = (): Record<string, unknown> => {
    const owner = accountOwner(store);
    return owner ? { user: renderUser(owner) } : {};
  };

  const seedAll = () => {
    if (!opts.seed) return;
    const now = clock.now();
    for (const f of families) f.seed?.(store, { now, nowIso: clock.iso(now) });
  };

  /** Makes sure the bootstrap key exists, has global access and answers to `token`. */
  const ensureBootstrapKey = (token: string, keep?: StoredApiKey) => {
    const keys = store.collection<StoredApiKey>(API_KEYS);
    const existing = keep ?? keys.find((k) => k.bootstrap === true);
    if (existing) {
      keys.set({ ...existing, role_names: ["global_access"], tokens: [{ hash: hashToken(token) }] });
    } else {
      insertApiKey(
        store,
        {
          name: "Emulator bootstrap key",
          role_names: ["global_access"],
          creator: creatorForDashboardKeys(),
          token,
          bootstrap: true,
          comments: "Made by the emulator at start (global access)",
        },
        clock.iso(),
      );
    }
    store.meta.bootstrap_token = token;
  };

  const state = opts.stateFile ? readStateFile(opts.stateFile) : undefined;
  if (state) store.fromState(state);
  else seedAll();
  const bootstrapToken =
    options.apiKey ??
    (typeof store.meta.bootstrap_token === "string" ? (store.meta.bootstrap_token as string) : newToken());
  ensureBootstrapKey(bootstrapToken);
  opts.apiKey = bootstrapToken;

  const runtime: EmulatorRuntime = {
    options: opts,
    store,
    clock,
    limiter,
    router,
    pipeline,
    families,
    requests,
    responseProblems,
    url: "",
    persist: () => store.persist(clock.iso()),
    reset: async () => {
      await store.exclusive(() => {
        const bootstrap = store.collection<StoredApiKey>(API_KEYS).find((k) => k.bootstrap === true);
        store.clear();
        seedAll();
        ensureBootstrapKey(bootstrapToken, bootstrap);
      });
      limiter.reset();
      requests.length = 0;
      responseProblems.length = 0;
      runtime.persist();
    },
  };
  runtime.persist();

  const makeKey = async (
    name: string,
    roleNames: string[],
    teamRoleNames: string[] = [],
    teamIds: string[] = [],
  ) => {
    const badRoles = roleNames.filter((r) => !ACCOUNT_ROLES().includes(r));
    const badTeamRoles = teamRoleNames.filter((r) => !TEAM_ROLES().includes(r));
    if (badRoles.length > 0 || badTeamRoles.length > 0) {
      throw new Error(`emulator: unknown role name(s): ${[...badRoles, ...badTeamRoles].join(", ")}`);
    }
    const { result } = await store.transaction(() =>
      insertApiKey(
        store,
        {
          name,
          role_names: roleNames,
          team_role_names: teamRoleNames,
          team_ids: teamIds,
          creator: creatorForDashboardKeys(),
        },
        clock.iso(),
      ),
    );
    runtime.persist();
    return { apiKey: renderApiKey(store, result.key), token: result.token };
  };

  standardControlRoutes(control, makeKey);
  installStandardStages(pipeline, control.middleware());
  const faults = installFaults(pipeline, control);

  const send = (ctx: RequestContext, res: http.ServerResponse) => {
    if (res.headersSent || res.destroyed) return;
    if (ctx.dropConnection) {
      ctx.req.socket.destroy();
      return;
    }
    const response = ctx.response ?? {
      status: 500,
      body: new HttpError(500, [{ code: "api_error", message: "No response was produced" }]).body(
        ctx.requestId,
      ),
    };
    const headers: Record<string, string> = { ...ctx.responseHeaders, "X-Request-Id": ctx.requestId };
    let payload: string | undefined;
    if (ctx.rawResponseBody && response.status !== 204 && response.status !== 304) {
      payload = ctx.rawResponseBody.text;
      headers["Content-Type"] = ctx.rawResponseBody.contentType;
      headers["Content-Length"] = String(Buffer.byteLength(payload));
    } else if (response.body !== undefined && response.status !== 204 && response.status !== 304) {
      payload = JSON.stringify(response.body);
      headers["Content-Type"] = "application/json; charset=utf-8";
      headers["Content-Length"] = String(Buffer.byteLength(payload));
    } else if (response.status !== 204 && response.status !== 304) {
      headers["Content-Length"] = "0";
    }
    if (ctx.closeConnection) headers.Connection = "close";
    res.writeHead(response.status, headers);
    res.end(payload);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const ctx: RequestContext = {
      runtime,
      req,
      requestId: newRequestId(),
      method: (req.method ?? "GET").toUpperCase(),
      path: q >= 0 ? raw.slice(0, q) : raw,
      query: new URLSearchParams(q >= 0 ? raw.slice(q + 1) : ""),
      startedAt: performance.now(),
      params: {},
      queryValues: {},
      responseHeaders: {},
      committed: false,
      changed: false,
      locals: {},
    };
    try {
      await pipeline.run(ctx);
    } catch (error) {
      console.error(`emulator: unhandled error for ${ctx.method} ${ctx.path}:`, error);
      ctx.response = {
        status: 500,
        body: new HttpError(500, [{ code: "api_error", message: "Internal error in the emulator" }]).body(
          ctx.requestId,
        ),
      };
    }
    send(ctx, res);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error("emulator: failed to answer a request:", error);
      if (!res.headersSent) res.destroy();
    });
  });
  server.on("clientError", (_error, socket) => {
    if (socket.writable)
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  runtime.url = `http://${urlHost(opts.host)}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: runtime.url,
    port,
    apiKey: bootstrapToken,
    requests,
    responseProblems,
    store,
    clock,
    pipeline,
    control,
    faults,
    reset: runtime.reset,
    createApiKey: async (name, roleNames, teamRoleNames, teamIds) =>
      (await makeKey(name, roleNames, teamRoleNames, teamIds)).token,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => store.exclusive(() => runtime.persist()));
      return closing;
    },
  };
}
