/**
 * Shared by the emulator tests: an emulator on a free port with a controllable clock, a tiny
 * HTTP client (undici) that returns status, headers and the parsed body, and the families on disk.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Agent, request } from "undici";
import {
  checkResponse,
  type EmulatorOptions,
  type FamilyModule,
  type RunningEmulator,
  startEmulator,
} from "../../emulator";
import { isFamilyModule } from "../../emulator/family";
import { closeAllConnections } from "../../provider/client";

/** emulator/families/ in the sources. */
export const FAMILIES_DIR = path.join(__dirname, "..", "..", "emulator", "families");

/**
 * The families the files of emulator/families/ define, in file name order, read here from disk
 * (not through the emulator's own discovery), so tests that name "every family" need no list.
 */
export function familiesOnDisk(): FamilyModule[] {
  return fs
    .readdirSync(FAMILIES_DIR)
    .filter((f) => f.endsWith(".ts") && f !== "index.ts")
    .sort()
    .flatMap((f) => Object.values(require(path.join(FAMILIES_DIR, f)) as object).filter(isFamilyModule));
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or undefined for an empty body. */
  body: any;
  text: string;
}

export interface CallOptions {
  /** Bearer token; `null` sends no Authorization header. Default: the emulator's bootstrap key. */
  token?: string | null;
  body?: unknown;
  /** Sent as is (instead of JSON-encoding `body`). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestEmulator extends RunningEmulator {
  /** The fake clock (ms); `tick(ms)` moves it. */
  time(): number;
  tick(ms: number): void;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** `call` that must succeed (a 2xx status), else throws with the answer; answers the parsed body. */
  ok(method: string, path: string, options?: CallOptions): Promise<any>;
  dispose(): Promise<void>;
}

/** 2026-01-01T00:00:00Z: the fake clock's start. */
export const T0 = Date.UTC(2026, 0, 1);

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  let now = T0;
  const emulator = await startEmulator({ port: 0, now: () => now, ...options });
  const agent = new Agent({ keepAliveTimeout: 1000, connections: 8 });
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Reply> => {
    const token = o.token === undefined ? emulator.apiKey : o.token;
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (token !== null) headers.authorization ??= `Bearer ${token}`;
    let payload: string | Buffer | undefined = o.rawBody;
    if (payload === undefined && o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await request(`${emulator.url}${path}`, {
      method: method as any,
      headers,
      body: payload,
      dispatcher: agent,
    });
    const text = await res.body.text();
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(", ") : String(v);
    let body: any;
    if (text !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    return { status: res.statusCode, headers: flat, body, text };
  };
  return Object.assign(emulator, {
    time: () => now,
    tick: (ms: number) => {
      now += ms;
    },
    call,
    ok: async (method: string, path: string, o?: CallOptions) => {
      const reply = await call(method, path, o);
      if (reply.status >= 300) throw new Error(`${method} ${path} → ${reply.status}: ${reply.text}`);
      return reply.body;
    },
    dispose: async () => {
      await emulator.close();
      await agent.close();
    },
  });
}

/**
 * An emulator for the tests of one file (or `describe`): started before them (a generous rate
 * limit), closed after them with the API client's connections; each test ends with no response off
 * its reference type. Answers a getter.
 */
export function emulatorForTests(options: EmulatorOptions = {}): () => TestEmulator {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ burst: 100_000, refillPerSecond: 100_000, ...options });
  });
  afterAll(async () => {
    await closeAllConnections();
    await emu.dispose();
  });
  afterEach(() => expect(emu.responseProblems).toEqual([]));
  return () => emu;
}

/**
 * Makes the emulator record every request body sent to a path matching `paths` that does not have
 * exactly its reference type's shape, unknown fields included (the emulator itself ignores unknown
 * fields; the provider must not send them), checked before the emulator's own validation. Answers
 * the list of problems, which grows as requests come in (tests expect it empty).
 */
export function recordOffShapeRequests(emu: TestEmulator, paths: RegExp): string[] {
  const problems: string[] = [];
  emu.pipeline.use(
    `strict-requests ${paths.source}`,
    async (ctx, next) => {
      if (paths.test(ctx.path) && ctx.route?.requestType && ctx.body !== undefined) {
        for (const p of checkResponse(ctx.route.requestType, ctx.body)) {
          problems.push(`${ctx.method} ${ctx.path} ${p.path || "<root>"}: ${p.message}`);
        }
      }
      await next();
    },
    { before: "validate" },
  );
  return problems;
}

/** Fails with the problems when `value` does not have exactly the reference type's shape. */
export function expectShape(typeName: string, value: unknown): void {
  const problems = checkResponse(typeName, value);
  if (problems.length > 0) {
    throw new Error(
      `not a ${typeName}: ${problems.map((p) => `${p.path || "<root>"}: ${p.message}`).join("; ")}\n${JSON.stringify(value, null, 1)}`,
    );
  }
}

/** The documented error body, exactly these keys (plus rate_limit on 429). */
export function expectErrorBody(
  reply: Reply,
  status: number,
  type: string,
  code?: string,
  field?: string,
): void {
  if (reply.status !== status) {
    throw new Error(`expected ${status} ${type}, got ${reply.status}: ${reply.text}`);
  }
  const b = reply.body;
  const keys = Object.keys(b).sort();
  const expected =
    status === 429
      ? ["errors", "rate_limit", "request_id", "status", "type"]
      : ["errors", "request_id", "status", "type"];
  if (JSON.stringify(keys) !== JSON.stringify(expected)) throw new Error(`error body keys ${keys.join(",")}`);
  if (b.type !== type || b.status !== status) throw new Error(`error body ${reply.text}`);
  if (typeof b.request_id !== "string" || b.request_id !== reply.headers["x-request-id"]) {
    throw new Error(`request_id ${b.request_id} vs header ${reply.headers["x-request-id"]}`);
  }
  if (!Array.isArray(b.errors) || b.errors.length === 0) throw new Error(`no errors[] in ${reply.text}`);
  for (const e of b.errors) {
    if (typeof e.code !== "string" || typeof e.message !== "string")
      throw new Error(`bad error entry ${JSON.stringify(e)}`);
    const extra = Object.keys(e).filter((k) => !["code", "message", "source"].includes(k));
    if (extra.length > 0) throw new Error(`unexpected error entry keys ${extra.join(",")}`);
  }
  if (
    code !== undefined &&
    !b.errors.some((e: any) => e.code === code && (field === undefined || e.source?.field === field))
  ) {
    throw new Error(`no error with code ${code}${field ? ` on ${field}` : ""}: ${reply.text}`);
  }
}
