/**
 * The standard pipeline stages (see pipeline.ts for the order and the fault-injection hook point).
 */

import { performance } from "node:perf_hooks";
import { authenticate, callerOf } from "../auth";
import type { HandlerContext } from "../family";
import { newId } from "../ids";
import { allows, rolesAllowing, teamScopeRefusal } from "../roles";
import { checkResponse, parseQuery, validateAgainst } from "../shapes";
import { acceptsJson } from "./accept";
import { ClientClosedError, readBody } from "./body";
import { forbidden, HttpError } from "./errors";
import { checkBodyLimits } from "./limits";
import type { Middleware, Pipeline } from "./pipeline";

/** Control routes live under this prefix (outside the public API paths). */
export const CONTROL_PREFIX = "/_emulator";

/** Records every answered API request in `runtime.requests` (oldest dropped past the limit). */
export const requestLog: Middleware = async (ctx, next) => {
  try {
    await next();
  } finally {
    if (!ctx.locals.control) {
      const { requests, options, clock } = ctx.runtime;
      const raw = ctx.req.url ?? "";
      const q = raw.indexOf("?");
      requests.push({
        requestId: ctx.requestId,
        time: clock.iso(),
        method: ctx.method,
        path: ctx.path,
        query: q >= 0 ? raw.slice(q + 1) : "",
        status: ctx.dropConnection ? 0 : (ctx.response?.status ?? 500),
        ...(ctx.caller ? { apiKeyId: ctx.caller.keyId } : {}),
        ...(ctx.template ? { route: ctx.template } : {}),
        ms: Math.round((performance.now() - ctx.startedAt) * 1000) / 1000,
      });
      const excess = requests.length - options.requestLogLimit;
      if (excess > 0) requests.splice(0, excess);
    }
  }
};

/** Turns a thrown `HttpError` into the documented error body; anything else into a 500 `api_error`. */
export const errors: Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    if (error instanceof HttpError) {
      Object.assign(ctx.responseHeaders, error.headers);
      ctx.response = { status: error.status, body: error.body(ctx.requestId) };
      if (error.closeConnection) ctx.closeConnection = true;
      return;
    }
    if (error instanceof ClientClosedError) {
      ctx.dropConnection = true;
      return;
    }
    console.error(`emulator: ${ctx.method} ${ctx.path} (${ctx.requestId}) failed:`, error);
    const internal = new HttpError(500, [
      { code: "api_error", message: "Internal error in the emulator (reported on its standard error)" },
    ]);
    ctx.response = { status: 500, body: internal.body(ctx.requestId) };
  }
  if (!ctx.response && !ctx.dropConnection) {
    const internal = new HttpError(500, [{ code: "api_error", message: "No response was produced" }]);
    ctx.response = { status: 500, body: internal.body(ctx.requestId) };
  }
};

/** 401 unless the request carries a valid bearer token; records the key's last use. */
export const authenticateStage: Middleware = async (ctx, next) => {
  const { store, clock } = ctx.runtime;
  const header = ctx.req.headers.authorization;
  const key = authenticate(store, Array.isArray(header) ? header[0] : header, clock.now());
  ctx.caller = callerOf(key);
  if (!store.meta.last_used_at) store.meta.last_used_at = {};
  (store.meta.last_used_at as Record<string, string>)[key.id] = clock.iso();
  await next();
};

/** The per-key token bucket: rate-limit headers on every authenticated response, 429 when empty. */
export const rateLimit: Middleware = async (ctx, next) => {
  const decision = ctx.runtime.limiter.take(ctx.caller!.keyId);
  Object.assign(ctx.responseHeaders, decision.headers);
  if (!decision.allowed) {
    throw new HttpError(
      429,
      [
        {
          code: "too_many_requests",
          message: `Rate limit exceeded: retry after ${decision.retryAfterSeconds} second(s)`,
        },
      ],
      { rateLimit: decision.body },
    );
  }
  await next();
};

/** 404 for unknown paths, 405 (with `Allow`) for a known path with another method. */
export const route: Middleware = async (ctx, next) => {
  const match = ctx.runtime.router.match(ctx.method, ctx.path);
  if (match.kind === "not_found") {
    throw new HttpError(404, [{ code: "not_found", message: `No such endpoint: ${ctx.method} ${ctx.path}` }]);
  }
  if (match.kind === "method_not_allowed") {
    throw new HttpError(
      405,
      [
        {
          code: "method_not_allowed",
          message: `${ctx.method} is not supported here; allowed: ${match.allowed.join(", ")}`,
        },
      ],
      { headers: { Allow: match.allowed.join(", ") } },
    );
  }
  ctx.route = match.route;
  ctx.params = match.params;
  ctx.template = match.template;
  await next();
};

/** 406 when the Accept header rules out application/json. */
export const accept: Middleware = async (ctx, next) => {
  const header = ctx.req.headers.accept;
  if (!acceptsJson(header)) {
    throw new HttpError(406, [
      {
        code: "not_acceptable",
        message: `This endpoint only produces application/json (Accept: ${header})`,
      },
    ]);
  }
  await next();
};

/** 403 when the key's roles do not allow the route. */
export const authorize: Middleware = async (ctx, next) => {
  const r = ctx.route!;
  if (!allows(ctx.caller!, r.family?.roles, r.access)) {
    throw new HttpError(403, [
      {
        code: "resource_forbidden",
        message: `This API key may not ${r.access === "write" ? "change" : "read"} ${r.family?.name ?? "this resource"}: it needs one of the roles ${rolesAllowing(r.family?.roles, r.access).join(", ")}`,
      },
    ]);
  }
  await next();
};

/** Reads the body (413 past the limit) and parses JSON for routes with a request type (400 if bad). */
export const body: Middleware = async (ctx, next) => {
  ctx.rawBody = await readBody(ctx.req, ctx.runtime.options.maxBodyBytes);
  if (ctx.route?.requestType) {
    const text = ctx.rawBody.toString("utf8");
    if (text.trim() === "") {
      ctx.body = {};
    } else {
      try {
        ctx.body = JSON.parse(text);
      } catch (error) {
        throw new HttpError(400, [
          {
            code: "invalid_json",
            message: `The request body is not valid JSON: ${(error as Error).message}`,
          },
        ]);
      }
    }
    if (typeof ctx.body !== "object" || ctx.body === null || Array.isArray(ctx.body)) {
      throw new HttpError(400, [
        { code: "invalid_request_error", message: "The request body must be a JSON object" },
      ]);
    }
    checkBodyLimits(ctx.body);
  }
  await next();
};

/** 422 for query parameters and bodies that do not match the operation's reference types. */
export const validate: Middleware = async (ctx, next) => {
  const r = ctx.route!;
  const query = parseQuery(r.queryParams, ctx.query);
  ctx.queryValues = query.values;
  const problems = [...query.problems];
  if (r.requestType) problems.push(...validateAgainst(r.requestType, ctx.body));
  if (problems.length > 0) {
    throw new HttpError(
      422,
      problems.map((p) => ({ code: p.code, message: p.message, field: p.path })),
    );
  }
  await next();
};

/**
 * 403 for a write that only the key's team roles allow, to an object none of its teams owns (or
 * would own after it): roles.ts, `teamScopeRefusal`. After validation, so the body is known.
 */
export const teamScope: Middleware = async (ctx, next) => {
  const r = ctx.route!;
  const roles = r.family?.roles;
  if (r.access === "write" && roles?.teamOwned) {
    const refusal = teamScopeRefusal(ctx.caller!, roles, ctx.runtime.store, ctx.params, ctx.body);
    if (refusal) throw forbidden(refusal, "team_scope_exceeded");
  }
  await next();
};

/** Checks successful JSON responses against the route's reference response type. */
export const checkResponseStage: Middleware = async (ctx, next) => {
  await next();
  const r = ctx.route;
  const res = ctx.response;
  if (!ctx.runtime.options.validateResponses || !r?.responseType || !res) return;
  if (res.status < 200 || res.status >= 300 || res.body === undefined) return;
  const problems = checkResponse(r.responseType, res.body);
  if (problems.length > 0) {
    ctx.runtime.responseProblems.push({
      requestId: ctx.requestId,
      method: ctx.method,
      path: ctx.path,
      type: r.responseType,
      problems,
    });
  }
};

/** Runs the route's handler in a store transaction; commits and persists on success. */
export const handler: Middleware = async (ctx) => {
  const r = ctx.route!;
  const { runtime } = ctx;
  const now = runtime.clock.now();
  const hctx: HandlerContext = {
    params: ctx.params,
    query: ctx.queryValues,
    rawQuery: ctx.query,
    body: ctx.body,
    caller: ctx.caller!,
    store: runtime.store,
    now,
    nowIso: runtime.clock.iso(now),
    newId: () => newId(),
    runtime,
    requestId: ctx.requestId,
  };
  const { result, changed } = await runtime.store.transaction(() => r.handler(hctx));
  if (changed) runtime.persist();
  ctx.committed = true;
  ctx.changed = changed;
  const status = result.status ?? r.status;
  ctx.response = { status, body: status === 204 ? undefined : result.body };
};

/** Installs the standard stages, in order. `control` is the control-route middleware. */
export function installStandardStages(pipeline: Pipeline, control: Middleware): void {
  pipeline
    .use("request-log", requestLog)
    .use("errors", errors)
    .use("control", control)
    .use("authenticate", authenticateStage)
    .use("rate-limit", rateLimit)
    .use("route", route)
    .use("accept", accept)
    .use("authorize", authorize)
    .use("body", body)
    .use("validate", validate)
    .use("team-scope", teamScope)
    .use("check-response", checkResponseStage)
    .use("handler", handler);
}
