/**
 * Fault injection, controlled from tests (`emulator.faults`), over HTTP outside the public API's
 * paths (`/_emulator/faults`), and at start from the command line (`--fault <spec>`, `parseFaultSpec`):
 *   curl -X POST $URL/_emulator/faults -d '{"method":"POST","path":"^/v2/custom_fields$","kind":"reset-after","count":1}'
 *   curl -X POST $URL/_emulator/faults -d '{"spec":"POST ^/v2/custom_fields$ reset-after x1"}'
 *   incident-emulator --fault 'POST ^/v2/custom_fields$ reset-after x1'
 * Kinds: `status` (answer `status`, e.g. 500/502/503, without doing anything), `reset-before` (drop the
 * connection before the handler runs: nothing happens), `reset-after` (the handler commits, then the
 * connection drops: the client never sees the answer), `latency` (`latencyMs` before handling),
 * `rate-limit` (a 429 storm: 429 with Retry-After `retryAfterSeconds`), `unreadable` (the handler
 * commits and answers its 2xx status with a body that cannot be read: `body` = `truncated` JSON,
 * an `html` error page, or `empty`), `hang-before` / `hang-after` (the request is held without an
 * answer until the client goes away, before or after the handler commits: a client killed while
 * waiting; `faults.onFire` tells a test when to kill it).
 */
import type { ControlRoutes } from "./control";
import { HttpError, validationFailed } from "./http/errors";
import type { Pipeline } from "./http/pipeline";
import { CONTROL_PREFIX } from "./http/stages";

export type FaultKind =
  | "status"
  | "reset-before"
  | "reset-after"
  | "latency"
  | "rate-limit"
  | "unreadable"
  | "hang-before"
  | "hang-after";

export const FAULT_KINDS: readonly FaultKind[] = [
  "reset-before",
  "reset-after",
  "status",
  "rate-limit",
  "latency",
  "unreadable",
  "hang-before",
  "hang-after",
];
/** What an `unreadable` fault answers instead of the JSON body. */
export const UNREADABLE_BODIES = ["truncated", "html", "empty"] as const;
export type UnreadableBody = (typeof UNREADABLE_BODIES)[number];
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];
const RULE_FIELDS = ["method", "path", "kind", "count", "status", "latencyMs", "retryAfterSeconds", "body"];

export interface FaultRule {
  /** Upper-case method to match; any when absent. */
  method?: string;
  /** Regular expression matched against the request path. */
  path: string;
  kind: FaultKind;
  /** How many matching requests get the fault (default 1). */
  count?: number;
  status?: number;
  latencyMs?: number;
  retryAfterSeconds?: number;
  /** `unreadable` only: which unreadable body (default `truncated`). */
  body?: UnreadableBody;
}

interface ActiveRule extends Required<Pick<FaultRule, "path" | "kind">> {
  method?: string;
  remaining: number;
  status: number;
  latencyMs: number;
  retryAfterSeconds: number;
  body: UnreadableBody;
  pattern: RegExp;
  fired: number;
}

export class FaultController {
  private rules: ActiveRule[] = [];
  private listeners: ((rule: FaultRule) => void)[] = [];

  /** Calls `listener` each time a rule fires (with the request it matched, before the fault acts). */
  onFire(listener: (rule: FaultRule & { requestPath: string }) => void): () => void {
    this.listeners.push(listener as (rule: FaultRule) => void);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** Resolves when the next rule of one of `kinds` fires (default: any). */
  nextFire(kinds?: readonly FaultKind[]): Promise<FaultRule & { requestPath: string }> {
    return new Promise((resolve) => {
      const off = this.onFire((rule) => {
        if (kinds && !kinds.includes(rule.kind)) return;
        off();
        resolve(rule);
      });
    });
  }

  /** Internal: tells the listeners. */
  fire(rule: ActiveRule, requestPath: string): void {
    const { pattern: _p, remaining: _r, fired: _f, ...shown } = rule;
    for (const l of [...this.listeners]) l({ ...shown, requestPath } as FaultRule & { requestPath: string });
  }

  /** Arms a rule; throws `FaultSpecError` (naming the bad field) for an invalid one. */
  add(input: FaultRule): void {
    const rule = checkFaultRule(input);
    this.rules.push({
      path: rule.path,
      kind: rule.kind,
      method: rule.method?.toUpperCase(),
      remaining: rule.count ?? 1,
      status: rule.status ?? 503,
      latencyMs: rule.latencyMs ?? 100,
      retryAfterSeconds: rule.retryAfterSeconds ?? 1,
      body: rule.body ?? "truncated",
      pattern: new RegExp(rule.path),
      fired: 0,
    });
  }

  clear(): void {
    this.rules = [];
  }

  list(): object[] {
    return this.rules.map(({ pattern: _p, ...r }) => r);
  }

  /** Takes the first rule matching this request (and counts it down). */
  take(method: string, path: string): ActiveRule | undefined {
    const rule = this.rules.find(
      (r) => r.remaining > 0 && (r.method === undefined || r.method === method) && r.pattern.test(path),
    );
    if (rule) {
      rule.remaining--;
      rule.fired++;
    }
    return rule;
  }
}

/** An invalid fault rule or `--fault` spec; `part` names what is wrong (a field, or a word of the spec). */
export class FaultSpecError extends Error {
  constructor(
    readonly part: string,
    message: string,
  ) {
    super(message);
    this.name = "FaultSpecError";
  }
}

/** Checks a rule given as an object (tests, `POST /_emulator/faults`, a JSON `--fault`). */
export function checkFaultRule(input: unknown): FaultRule {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new FaultSpecError("rule", "a fault rule must be an object like {method, path, kind, count}");
  }
  const r = input as Record<string, unknown>;
  const fail = (field: string, problem: string): never => {
    throw new FaultSpecError(field, `${field}: ${problem}`);
  };
  for (const key of Object.keys(r)) {
    if (!RULE_FIELDS.includes(key) && r[key] !== undefined)
      fail(key, `unknown field (fields: ${RULE_FIELDS.join(", ")})`);
  }
  if (r.method !== undefined && (typeof r.method !== "string" || !METHODS.includes(r.method.toUpperCase()))) {
    fail("method", `must be one of ${METHODS.join(", ")} (got ${JSON.stringify(r.method)})`);
  }
  if (typeof r.path !== "string" || r.path === "") {
    fail("path", "required: a regular expression matched against the request path");
  }
  try {
    new RegExp(r.path as string);
  } catch (error) {
    fail("path", `not a valid regular expression (${(error as Error).message})`);
  }
  if (typeof r.kind !== "string" || !FAULT_KINDS.includes(r.kind as FaultKind)) {
    fail("kind", `must be one of ${FAULT_KINDS.join(", ")} (got ${JSON.stringify(r.kind)})`);
  }
  const integer = (field: string, min: number, max: number, onlyFor?: FaultKind) => {
    const value = r[field];
    if (value === undefined) return;
    if (onlyFor && r.kind !== onlyFor)
      fail(field, `applies only to kind ${onlyFor} (this fault is ${r.kind})`);
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      const what = field === "status" ? "an HTTP status" : "a whole number";
      fail(field, `must be ${what} from ${min} to ${max} (got ${JSON.stringify(value)})`);
    }
  };
  integer("count", 1, Number.MAX_SAFE_INTEGER);
  integer("status", 400, 599, "status");
  integer("latencyMs", 0, 600_000, "latency");
  integer("retryAfterSeconds", 0, 3600, "rate-limit");
  if (r.body !== undefined) {
    if (r.kind !== "unreadable") fail("body", `applies only to kind unreadable (this fault is ${r.kind})`);
    if (!UNREADABLE_BODIES.includes(r.body as UnreadableBody))
      fail("body", `must be one of ${UNREADABLE_BODIES.join(", ")} (got ${JSON.stringify(r.body)})`);
  }
  const rule: FaultRule = { path: r.path as string, kind: r.kind as FaultKind };
  if (r.method !== undefined) rule.method = (r.method as string).toUpperCase();
  if (r.body !== undefined) rule.body = r.body as UnreadableBody;
  for (const field of ["count", "status", "latencyMs", "retryAfterSeconds"] as const) {
    if (r[field] !== undefined) rule[field] = r[field] as number;
  }
  return rule;
}

/** The `--fault` syntax (also `{"spec": "…"}` at `POST /_emulator/faults`), word by word. */
export const FAULT_SPEC_SYNTAX = `[METHOD] PATH KIND [xCOUNT] [OPTION=VALUE ...]   (or a JSON rule)
  METHOD  ${METHODS.join(", ")}; any method when left out
  PATH    regular expression matched against the request path, starting with ^ or /
  KIND    ${FAULT_KINDS.join(", ")}, or an HTTP status 400-599 (= status)
  xCOUNT  how many matching requests get the fault (default 1), e.g. x3
  OPTION  status=503 (kind status), latency=250ms (kind latency), retry-after=2s (kind rate-limit),
          body=truncated|html|empty (kind unreadable)`;

/**
 * Parses a fault written as a user types it, `POST ^/v2/alert_sources$ reset-after x1`, or a JSON
 * rule (`{"path": …}`). Throws `FaultSpecError` whose message starts with the bad word.
 */
export function parseFaultSpec(spec: string): FaultRule {
  const text = spec.trim();
  if (text.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new FaultSpecError("json", `not valid JSON (${(error as Error).message})`);
    }
    return checkFaultRule(parsed);
  }
  const words = text.split(/\s+/).filter((w) => w !== "");
  const fail = (word: string, problem: string): never => {
    throw new FaultSpecError(word, `"${word}": ${problem}`);
  };
  if (words.length === 0)
    throw new FaultSpecError("", "empty: expected [METHOD] PATH KIND [xCOUNT] [OPTION=VALUE ...]");
  const rule: Record<string, unknown> = {};
  /** Which word gave each field (so a range error names what the user typed). */
  const wordOf: Record<string, string> = {};
  const set = (field: string, value: unknown, word: string) => {
    if (rule[field] !== undefined) fail(word, `${field} given twice`);
    rule[field] = value;
    wordOf[field] = word;
  };
  let i = 0;
  const first = words[0] as string;
  if (!first.startsWith("^") && !first.startsWith("/")) {
    if (!METHODS.includes(first.toUpperCase())) {
      fail(
        first,
        `neither a method (${METHODS.join(", ")}) nor a path (a regular expression starting with ^ or /)`,
      );
    }
    set("method", first.toUpperCase(), first);
    i++;
  }
  const path = words[i++];
  if (path === undefined)
    throw new FaultSpecError("", "missing the path (a regular expression starting with ^ or /)");
  if (!path.startsWith("^") && !path.startsWith("/")) {
    fail(path, "not a path: a regular expression matched against the request path, starting with ^ or /");
  }
  set("path", path, path);
  const kind = words[i++];
  if (kind === undefined) {
    throw new FaultSpecError(
      "",
      `missing the kind after the path (${FAULT_KINDS.join(", ")}, or an HTTP status)`,
    );
  }
  if (/^\d+$/.test(kind)) {
    set("kind", "status", kind);
    set("status", Number(kind), kind);
  } else if (FAULT_KINDS.includes(kind as FaultKind)) {
    set("kind", kind, kind);
  } else {
    fail(kind, `unknown kind (${FAULT_KINDS.join(", ")}, or an HTTP status 400-599)`);
  }
  for (const word of words.slice(i)) {
    const count = /^x(\d+)$/i.exec(word) ?? /^count=(\d+)$/i.exec(word);
    const option = /^([a-z-]+)=(\d+)(ms|s)?$/i.exec(word);
    const bodyOption = /^body=([a-z]+)$/i.exec(word);
    const name = option?.[1]?.toLowerCase();
    if (count) set("count", Number(count[1]), word);
    else if (bodyOption) set("body", bodyOption[1]!.toLowerCase(), word);
    else if (name === "status" && option?.[3] === undefined) set("status", Number(option?.[2]), word);
    else if (name === "latency" && option?.[3] !== "s") set("latencyMs", Number(option?.[2]), word);
    else if (name === "retry-after" && option?.[3] !== "ms")
      set("retryAfterSeconds", Number(option?.[2]), word);
    else fail(word, "unknown; after the kind come xCOUNT, status=CODE, latency=MSms, retry-after=SECONDSs");
  }
  try {
    return checkFaultRule(rule);
  } catch (error) {
    if (!(error instanceof FaultSpecError)) throw error;
    const word = wordOf[error.part] ?? error.part;
    throw new FaultSpecError(word, `"${word}": ${error.message.replace(/^[A-Za-z]+: /, "")}`);
  }
}

/** A rule written back in the `--fault` syntax. */
export function describeFaultRule(rule: FaultRule): string {
  return [
    rule.method ?? "",
    rule.path,
    rule.kind === "status" ? String(rule.status ?? 503) : rule.kind,
    `x${rule.count ?? 1}`,
    rule.latencyMs !== undefined ? `latency=${rule.latencyMs}ms` : "",
    rule.retryAfterSeconds !== undefined ? `retry-after=${rule.retryAfterSeconds}s` : "",
    rule.body !== undefined ? `body=${rule.body}` : "",
  ]
    .filter((w) => w !== "")
    .join(" ");
}

/** The unreadable body answered instead of `body` (its JSON). */
function unreadableBody(kind: UnreadableBody, body: unknown): { contentType: string; text: string } {
  const json = JSON.stringify(body ?? {});
  switch (kind) {
    case "truncated":
      return {
        contentType: "application/json; charset=utf-8",
        text: json.slice(0, Math.ceil(json.length / 2)),
      };
    case "html":
      return {
        contentType: "text/html; charset=utf-8",
        text: "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>",
      };
    case "empty":
      return { contentType: "application/json; charset=utf-8", text: "" };
  }
}

/** Resolves once the client's connection is gone (it gave up, or its process was killed). */
function untilClientGone(req: import("node:http").IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    const socket = req.socket;
    if (socket.destroyed) return resolve();
    socket.once("close", () => resolve());
  });
}

export function installFaults(pipeline: Pipeline, control: ControlRoutes): FaultController {
  const faults = new FaultController();
  pipeline.use(
    "faults",
    async (ctx, next) => {
      const rule = faults.take(ctx.method, ctx.path);
      if (!rule) return next();
      faults.fire(rule, ctx.path);
      switch (rule.kind) {
        case "status":
          throw new HttpError(rule.status, [{ code: "injected_fault", message: `injected ${rule.status}` }]);
        case "rate-limit":
          throw new HttpError(429, [{ code: "too_many_requests", message: "injected rate limit" }], {
            headers: { "retry-after": String(rule.retryAfterSeconds) },
          });
        case "reset-before":
          ctx.dropConnection = true;
          return;
        case "latency":
          await new Promise((r) => setTimeout(r, rule.latencyMs));
          return next();
        case "reset-after":
          await next();
          ctx.dropConnection = true;
          return;
        case "unreadable":
          await next();
          if (ctx.response && ctx.response.status >= 200 && ctx.response.status < 300) {
            ctx.rawResponseBody = unreadableBody(rule.body, ctx.response.body);
          }
          return;
        case "hang-before":
          await untilClientGone(ctx.req);
          ctx.dropConnection = true;
          return;
        case "hang-after":
          await next();
          await untilClientGone(ctx.req);
          ctx.dropConnection = true;
          return;
      }
    },
    { before: "handler" },
  );
  control
    .add("GET", `${CONTROL_PREFIX}/faults`, "active fault rules", () => ({ body: { faults: faults.list() } }))
    .add(
      "POST",
      `${CONTROL_PREFIX}/faults`,
      'add a fault rule {method,path,kind,count,status,latencyMs,retryAfterSeconds} or {spec: "POST ^/v2/… reset-after x1"}',
      ({ body }) => {
        try {
          const b = body as Record<string, unknown>;
          const keys = b && typeof b === "object" ? Object.keys(b) : [];
          faults.add(
            keys.length === 1 && typeof b.spec === "string" ? parseFaultSpec(b.spec) : (body as FaultRule),
          );
        } catch (error) {
          if (error instanceof FaultSpecError)
            throw validationFailed([{ field: error.part, message: error.message }]);
          throw error;
        }
        return { status: 201, body: { faults: faults.list() } };
      },
    )
    .add("DELETE", `${CONTROL_PREFIX}/faults`, "clear every fault rule", () => {
      faults.clear();
      return { status: 204 };
    });
  return faults;
}
