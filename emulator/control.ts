/**
 * The control surface: HTTP endpoints under `/_emulator/...`, outside the public API paths. They take
 * no API key, are not rate-limited and are not logged in `requests`. Bodies and errors are JSON (the
 * API's error format). Extend with `ControlRoutes.add` (e.g. fault injection).
 *
 * | endpoint                            | what it does                                                        |
 * |-------------------------------------|---------------------------------------------------------------------|
 * | GET    /_emulator                   | index: these endpoints, the families and every API route            |
 * | GET    /_emulator/health            | `{ok: true}`                                                        |
 * | GET    /_emulator/requests          | the request log `{requests: [...]}` (`?since=<n>`: entries from n)  |
 * | DELETE /_emulator/requests          | clears the request log                                              |
 * | GET    /_emulator/response_problems | responses that did not match their reference type (should be none)  |
 * | GET    /_emulator/state             | every collection's records                                          |
 * | POST   /_emulator/reset             | back to the seeded state (bootstrap key kept), buckets and logs cleared |
 * | POST   /_emulator/api_keys          | `{name, role_names, team_role_names?, team_ids?}` → 201 `{api_key, token}`: a key made "in the dashboard" (any roles, incl. api_keys_manage) |
 * | GET    /_emulator/clock             | `{now, offset_seconds}`                                             |
 * | POST   /_emulator/clock             | `{advance_seconds}`: moves the emulator clock forward               |
 *
 * Families add their own (`defineFamily({control})`, installed by startup.ts), e.g.
 * `POST /_emulator/call_routes` (families/callRoutes.ts).
 */
import { readBody } from "./http/body";
import { HttpError } from "./http/errors";
import type { Middleware, RequestContext } from "./http/pipeline";
import { Router } from "./http/router";
import { CONTROL_PREFIX } from "./http/stages";
import type { EmulatorRuntime } from "./runtime";

export interface ControlContext {
  runtime: EmulatorRuntime;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body (`{}` when empty). */
  body: any;
  request: RequestContext;
}

export type ControlHandler = (
  ctx: ControlContext,
) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>;

interface ControlRoute {
  handler: ControlHandler;
  description: string;
}

export class ControlRoutes {
  private readonly router = new Router<ControlRoute>();
  private readonly listing: { method: string; path: string; description: string }[] = [];

  /** Adds `METHOD /_emulator/...`. */
  add(method: string, path: string, description: string, handler: ControlHandler): this {
    if (!path.startsWith(`${CONTROL_PREFIX}/`) && path !== CONTROL_PREFIX) {
      throw new Error(`control routes live under ${CONTROL_PREFIX}/ (got ${path})`);
    }
    this.router.add(method, path, { handler, description });
    this.listing.push({ method: method.toUpperCase(), path, description });
    return this;
  }

  list(): { method: string; path: string; description: string }[] {
    return [...this.listing];
  }

  /** The pipeline stage: answers control paths, passes everything else on. */
  middleware(): Middleware {
    return async (ctx, next) => {
      if (ctx.path !== CONTROL_PREFIX && !ctx.path.startsWith(`${CONTROL_PREFIX}/`)) return next();
      ctx.locals.control = true;
      const match = this.router.match(ctx.method, ctx.path);
      if (match.kind === "not_found") {
        throw new HttpError(404, [
          { code: "not_found", message: `No control endpoint ${ctx.method} ${ctx.path}` },
        ]);
      }
      if (match.kind === "method_not_allowed") {
        throw new HttpError(
          405,
          [{ code: "method_not_allowed", message: `Allowed: ${match.allowed.join(", ")}` }],
          { headers: { Allow: match.allowed.join(", ") } },
        );
      }
      const raw = await readBody(ctx.req, ctx.runtime.options.maxBodyBytes);
      let body: unknown = {};
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw.toString("utf8"));
        } catch {
          throw new HttpError(400, [{ code: "invalid_json", message: "The request body is not valid JSON" }]);
        }
      }
      const result = await match.route.handler({
        runtime: ctx.runtime,
        params: match.params,
        query: ctx.query,
        body: body ?? {},
        request: ctx,
      });
      const status = result.status ?? 200;
      ctx.response = { status, body: status === 204 ? undefined : result.body };
    };
  }
}

function stringList(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw new HttpError(422, [{ code: "invalid_type", message: "must be an array of strings", field }]);
  }
  return value as string[];
}

/**
 * The standard control routes. `createApiKey` is the emulator's own helper (any roles, no API rules).
 */
export function standardControlRoutes(
  routes: ControlRoutes,
  createApiKey: (
    name: string,
    roleNames: string[],
    teamRoleNames?: string[],
    teamIds?: string[],
  ) => Promise<{ apiKey: unknown; token: string }>,
): ControlRoutes {
  return routes
    .add("GET", CONTROL_PREFIX, "this index", ({ runtime }) => ({
      body: {
        url: runtime.url,
        control: routes.list(),
        families: runtime.families.map((f) => f.name),
        routes: runtime.router.list().map(([method, path]) => `${method} ${path}`),
        pipeline: runtime.pipeline.names(),
      },
    }))
    .add("GET", `${CONTROL_PREFIX}/health`, "liveness", () => ({ body: { ok: true } }))
    .add("GET", `${CONTROL_PREFIX}/requests`, "the request log (?since=<index>)", ({ runtime, query }) => {
      const since = Number(query.get("since") ?? 0);
      const from = Number.isInteger(since) && since > 0 ? since : 0;
      return { body: { requests: runtime.requests.slice(from), total: runtime.requests.length } };
    })
    .add("DELETE", `${CONTROL_PREFIX}/requests`, "clear the request log", ({ runtime }) => {
      runtime.requests.length = 0;
      return { status: 204 };
    })
    .add(
      "GET",
      `${CONTROL_PREFIX}/response_problems`,
      "responses that did not match their reference type",
      ({ runtime }) => ({ body: { response_problems: runtime.responseProblems } }),
    )
    .add("GET", `${CONTROL_PREFIX}/state`, "every collection's records", ({ runtime }) => ({
      body: { collections: runtime.store.dump() },
    }))
    .add("POST", `${CONTROL_PREFIX}/reset`, "back to the seeded state", async ({ runtime }) => {
      await runtime.reset();
      return { body: { ok: true } };
    })
    .add("POST", `${CONTROL_PREFIX}/api_keys`, "create an API key with any roles", async ({ body }) => {
      if (typeof body?.name !== "string" || body.name.trim() === "") {
        throw new HttpError(422, [{ code: "is_required", message: "is required", field: "name" }]);
      }
      try {
        const created = await createApiKey(
          body.name,
          stringList(body.role_names, "role_names"),
          stringList(body.team_role_names, "team_role_names"),
          stringList(body.team_ids, "team_ids"),
        );
        return { status: 201, body: { api_key: created.apiKey, token: created.token } };
      } catch (error) {
        if (error instanceof HttpError) throw error;
        throw new HttpError(422, [{ code: "invalid_value", message: (error as Error).message }]);
      }
    })
    .add("GET", `${CONTROL_PREFIX}/clock`, "the emulator clock", ({ runtime }) => ({
      body: { now: runtime.clock.iso(), offset_seconds: runtime.clock.offset / 1000 },
    }))
    .add(
      "POST",
      `${CONTROL_PREFIX}/clock`,
      "move the clock forward ({advance_seconds})",
      ({ runtime, body }) => {
        const s = body?.advance_seconds;
        if (typeof s !== "number" || !Number.isFinite(s) || s < 0) {
          throw new HttpError(422, [
            { code: "invalid_value", message: "must be a number of seconds ≥ 0", field: "advance_seconds" },
          ]);
        }
        runtime.clock.advance(s * 1000);
        return { body: { now: runtime.clock.iso(), offset_seconds: runtime.clock.offset / 1000 } };
      },
    );
}
