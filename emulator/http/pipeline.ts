/**
 * The request pipeline: an ordered list of named middleware stages, koa-style (`(ctx, next)`).
 * Nothing is written to the socket until the whole chain has finished: stages only set
 * `ctx.response` (and `ctx.responseHeaders`), so a stage placed before another can change or replace
 * what it produced after `await next()` returns.
 *
 * Standard stages, in order (see stages.ts):
 *   request-log → errors → control → authenticate → rate-limit → route → accept → authorize →
 *   body → validate → check-response → handler
 *
 * Hook point for fault injection: insert a stage `{ before: "handler" }`. Code before its
 * `await next()` runs before the handler (nothing changed yet: throwing an `HttpError` or setting
 * `ctx.dropConnection` there simulates a failure with no effect); code after it runs once the
 * handler's changes are committed and persisted (`ctx.committed === true`: replacing the response
 * there simulates "the write happened but the client saw an error" — an unknown outcome).
 */
import type { IncomingMessage } from "node:http";
import type { RouteSpec } from "../family";
import type { Caller } from "../roles";
import type { EmulatorRuntime } from "../runtime";
import type { QueryValues } from "../shapes";

/** What a stage (or the handler) wants sent back. */
export interface PendingResponse {
  status: number;
  /** JSON body; `undefined` = empty body. */
  body?: unknown;
}

export interface RequestContext {
  readonly runtime: EmulatorRuntime;
  readonly req: IncomingMessage;
  readonly requestId: string;
  /** Upper-case method. */
  readonly method: string;
  /** The raw (undecoded) path, without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** `performance.now()` when the request arrived. */
  readonly startedAt: number;

  /** Set by `route`. */
  route?: RouteSpec;
  /** The matched template (`/v2/custom_fields/{id}`). */
  template?: string;
  params: Record<string, string>;
  /** Set by `authenticate`. */
  caller?: Caller;
  /** Set by `body`. */
  rawBody?: Buffer;
  body?: unknown;
  /** Set by `validate`: query parameters parsed per the operation's `query_params`. */
  queryValues: QueryValues;

  /** Headers added to whatever response is sent (request id, rate-limit headers, …). */
  responseHeaders: Record<string, string>;
  response?: PendingResponse;
  /**
   * Sent instead of the response's JSON body, with the response's status (a fault: a proxy or a
   * failing server answered 2xx with a body that cannot be read).
   */
  rawResponseBody?: { contentType: string; text: string };
  /** Close the socket without answering (a fault: the client sees a dropped connection). */
  dropConnection?: boolean;
  /** Close the connection after answering. */
  closeConnection?: boolean;
  /** True once the handler's store changes are committed (and persisted). */
  committed: boolean;
  /** True when the committed handler changed something. */
  changed: boolean;
  /** Free space for stages (e.g. fault injection bookkeeping). */
  locals: Record<string, unknown>;
}

export type Next = () => Promise<void>;
export type Middleware = (ctx: RequestContext, next: Next) => Promise<void> | void;

export interface Stage {
  name: string;
  run: Middleware;
}

/** Where to insert a stage: before or after a named one (default: at the end). */
export interface StagePosition {
  before?: string;
  after?: string;
}

export class Pipeline {
  private stages: Stage[] = [];

  /** Stage names in order. */
  names(): string[] {
    return this.stages.map((s) => s.name);
  }

  has(name: string): boolean {
    return this.stages.some((s) => s.name === name);
  }

  /** Adds a stage (names are unique). */
  use(name: string, run: Middleware, position: StagePosition = {}): this {
    if (this.has(name)) throw new Error(`emulator pipeline: a stage named ${name} exists`);
    const anchor = position.before ?? position.after;
    if (anchor === undefined) {
      this.stages = [...this.stages, { name, run }];
      return this;
    }
    const i = this.stages.findIndex((s) => s.name === anchor);
    if (i < 0) throw new Error(`emulator pipeline: no stage named ${anchor}`);
    const at = position.before !== undefined ? i : i + 1;
    this.stages = [...this.stages.slice(0, at), { name, run }, ...this.stages.slice(at)];
    return this;
  }

  /** Removes a stage; true when it existed. */
  remove(name: string): boolean {
    const before = this.stages.length;
    this.stages = this.stages.filter((s) => s.name !== name);
    return this.stages.length !== before;
  }

  /** Runs the chain (a snapshot of the stages at call time). */
  run(ctx: RequestContext): Promise<void> {
    const stages = this.stages;
    const dispatch = async (i: number): Promise<void> => {
      const stage = stages[i];
      if (!stage) return;
      let called = false;
      await stage.run(ctx, () => {
        if (called) throw new Error(`emulator pipeline: ${stage.name} called next() twice`);
        called = true;
        return dispatch(i + 1);
      });
    };
    return dispatch(0);
  }
}
