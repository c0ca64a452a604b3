/**
 * A source emulator: a vendor's read-only API (PagerDuty REST v2, Opsgenie REST v2) over an account
 * given as data, served by the main emulator's HTTP machinery (runtime, pipeline, router, server,
 * request log): what `pulumi-incident migrate` reads in tests, and what anyone can point it at.
 *
 * ```ts
 * import { startSourceEmulator } from "pulumi-incident/emulator"; // in this repo: "../emulator"
 * const pd = await startSourceEmulator({ vendor: "pagerduty", account, apiKey: "pd-read-only" });
 * // GET ${pd.url}/schedules with `Authorization: Token token=pd-read-only`
 * await pd.close();
 * ```
 *
 * Stages, in order: request-log (the main emulator's) → errors (the vendor's error body) →
 * authenticate (the vendor's `Authorization` form; 401) → route (404 for an unknown path, 405 for
 * any method but GET: only the read side is served) → handler, whose body is checked against the
 * vendor's shapes (`responseProblems`).
 */
import { HttpError } from "../http/errors";
import { Router } from "../http/router";
import { requestLog } from "../http/stages";
import type { RequestLogEntry, ResponseProblem } from "../runtime";
import { createRuntime, listenOn, resolveOptions } from "../startup";
import { SourceError, type SourceRoute, type SourceVendor } from "./family";
import { shapeProblems, type VendorShapes } from "./shapes";

export interface SourceEmulatorOptions<Account> {
  vendor: SourceVendor<Account>;
  shapes: VendorShapes;
  /** The account served, as the fixtures hold it (see the vendor's README section). */
  account: Account;
  /** The read-only key requests must carry (default `source-read-only-key`). */
  apiKey?: string;
  port?: number;
  host?: string;
  /** Time source (tests): rendered schedules and timelines default to "now". */
  now?: () => number;
}

export interface RunningSourceEmulator {
  url: string;
  apiKey: string;
  /** Every answered request (method, path, query, status). */
  requests: RequestLogEntry[];
  /** Response bodies that did not have the vendor's documented shape (tests assert none). */
  responseProblems: ResponseProblem[];
  close(): Promise<void>;
}

export async function serveSource<Account>(
  options: SourceEmulatorOptions<Account>,
): Promise<RunningSourceEmulator> {
  const { vendor, shapes, account } = options;
  const apiKey = options.apiKey ?? "source-read-only-key";
  const runtime = createRuntime(
    resolveOptions({ port: options.port, host: options.host, seed: false }),
    [],
    options.now,
  );
  const router = new Router<SourceRoute<Account>>();
  for (const family of vendor.families) for (const r of family.routes) router.add(r.method, r.path, r);
  const expected = vendor.authorization(apiKey);

  runtime.pipeline
    .use("request-log", requestLog)
    .use("errors", async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        const status = error instanceof SourceError || error instanceof HttpError ? error.status : 500;
        const message = error instanceof Error ? error.message : String(error);
        if (status === 500) console.error(`source emulator: ${ctx.method} ${ctx.path} failed:`, error);
        ctx.response = { status, body: vendor.errorBody(status, message, ctx.requestId) };
      }
    })
    .use("authenticate", async (ctx, next) => {
      if (ctx.req.headers.authorization !== expected) throw new SourceError(401, "Unauthorized");
      await next();
    })
    .use("route", async (ctx, next) => {
      const match = router.match(ctx.method, ctx.path);
      if (match.kind === "not_found") throw new SourceError(404, "Not Found");
      if (match.kind === "method_not_allowed") {
        ctx.responseHeaders.Allow = match.allowed.join(", ");
        throw new SourceError(405, `${ctx.method} is not served: this emulator is read-only`);
      }
      ctx.params = match.params;
      ctx.template = match.template;
      ctx.locals.route = match.route;
      await next();
    })
    .use("handler", async (ctx) => {
      const route = ctx.locals.route as SourceRoute<Account>;
      const body = route.handler({
        params: ctx.params,
        query: ctx.query,
        account,
        now: runtime.clock.now(),
        baseUrl: runtime.url,
      });
      ctx.response = { status: 200, body };
      const shape = route.response;
      if (shape) {
        const value = (body as Record<string, unknown>)[shape.key];
        const items = shape.list ? (Array.isArray(value) ? value : [value]) : [value];
        const problems = items.flatMap((item, i) =>
          shapeProblems(shapes, shape.type, item, shape.list ? `${shape.key}.${i}` : shape.key),
        );
        if (problems.length > 0)
          runtime.responseProblems.push({
            requestId: ctx.requestId,
            method: ctx.method,
            path: ctx.path,
            type: shape.type,
            problems: problems.map((p) => ({ path: p.path, code: "invalid_shape", message: p.message })),
          });
      }
    });

  const { close } = await listenOn(runtime);
  return {
    url: runtime.url,
    apiKey,
    requests: runtime.requests,
    responseProblems: runtime.responseProblems,
    close,
  };
}
