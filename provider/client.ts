import { createHash } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { Agent, type Dispatcher, EnvHttpProxyAgent, request } from "undici";
import { ApiError, type ApiErrorInit, decodeErrorBody } from "./errors";
import { maskUrl } from "./masking";
import { parseRetryAfter, TokenBucket } from "./rateLimiter";

export { parseLimitHeader } from "./rateLimiter";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface ClientOptions {
  apiKey: string;
  /**
   * What the `Authorization` header holds before the key (default `Bearer `): another API's scheme
   * for `pulumi-incident migrate`'s source clients (`Token token=`, `GenieKey `).
   */
  authScheme?: string;
  /** The `Accept` header (default `application/json`): PagerDuty versions its API by it. */
  accept?: string;
  baseUrl: string;
  /** Per-attempt timeout for headers and body, in milliseconds (`incident:requestTimeout`). */
  timeoutMs?: number;
  /** The longest Retry-After waited for, in milliseconds (`incident:maxRetryAfter`); longer fails at once. */
  maxRetryAfterMs?: number;
  /** The setting the base URL came from, named in errors that suggest checking it. */
  baseUrlSetting?: string;
  /** Tells the user about a wait longer than `LONG_WAIT_MS` (default: the Pulumi log). */
  notify?: (message: string) => void;
  /** How many times a retryable failure is tried again. */
  maxRetries?: number;
  /** Backoff base and cap for 5xx/network retries (429 follows Retry-After). */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Bucket assumed before the server's headers say otherwise. */
  burst?: number;
  refillPerSecond?: number;
  /** Appends one JSON line per HTTP attempt (no bodies, no headers). Defaults to $INCIDENT_TRACE_FILE. */
  traceFile?: string;
  sleep?: (ms: number) => Promise<void>;
  /** Clock for the token bucket (tests pair it with `sleep`). */
  now?: () => number;
  /**
   * The forward proxy every request goes through (`incident:proxy`); absent: `HTTPS_PROXY` /
   * `HTTP_PROXY`, if set. `NO_PROXY` names the hosts reached directly, either way.
   */
  proxy?: string;
  /** The setting the proxy came from, named in errors that suggest checking it. */
  proxySetting?: string;
  /**
   * How much the client says (`incident:logLevel`): `warn` (default: long waits only), `info` (also
   * one line per API call: method, path, status, request id, time), `debug` (also every wait).
   */
  logLevel?: LogLevel;
  /**
   * `incident:lockInDashboard`: claim each object of a claimable kind as managed externally when it
   * is created or adopted (`POST /v2/managed_resources`), so the dashboard shows it is managed as code.
   */
  lockInDashboard?: boolean;
  /** Where those lines go (default: standard error, which Pulumi shows in its output). */
  log?: (line: string) => void;
}

export const LOG_LEVELS = ["warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface RequestSpec {
  method: HttpMethod;
  path: string;
  /** Human name of the operation for error messages, e.g. "create custom field". */
  operation: string;
  query?: Record<string, string | number | boolean | string[] | undefined>;
  body?: unknown;
  /**
   * A POST that sets a state rather than making an object (an upsert by a key, a bulk update, a
   * versioned schema write): sending it twice does no harm, so a 5xx, a reset or a lost answer is
   * retried as for a PUT instead of failing with an unknown outcome.
   */
  repeatable?: boolean;
  /** How many times a retryable failure of this request is tried again (default: the client's). */
  maxRetries?: number;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  requestId?: string;
}

/** Waits at least this long are said on the console. */
export const LONG_WAIT_MS = 5000;
/** A timed-out attempt is tried once more (idempotent requests only): a hung server costs two timeouts, not seven. */
const TIMEOUT_RETRIES = 1;
const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
]);

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(["GET", "PUT", "DELETE"]);
const RETRYABLE_STATUS: ReadonlySet<number> = new Set([408, 500, 502, 503, 504]);
// Network errors raised before any byte of the request reached the server: safe to repeat, even a POST.
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
]);

const buckets = new Map<string, TokenBucket>();
const agents = new Map<string, Dispatcher>();

export const packageVersion: string = readPackageVersion();

/**
 * The API client: undici with a keep-alive pool per base URL, bearer auth, JSON, a client-side
 * token bucket per API key, Retry-After handling, and retries only where repeating cannot duplicate.
 */
export class ApiClient {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly authScheme: string;
  private readonly accept: string;
  private readonly options: Required<
    Pick<
      ClientOptions,
      "timeoutMs" | "maxRetries" | "backoffBaseMs" | "backoffCapMs" | "maxRetryAfterMs" | "baseUrlSetting"
    >
  >;
  private readonly notify: (message: string) => void;
  private readonly traceFile?: string;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly bucketKey: string;
  private readonly defaultBurst: number;
  private readonly defaultRefill: number;
  private readonly now?: () => number;
  private readonly proxy?: string;
  private readonly proxySetting?: string;
  private readonly logLevel: LogLevel;
  /** Whether creates and adoptions claim their objects in the dashboard (`incident:lockInDashboard`). */
  readonly lockInDashboard: boolean;
  private readonly log: (line: string) => void;

  constructor(options: ClientOptions) {
    this.apiKey = options.apiKey;
    this.authScheme = options.authScheme ?? "Bearer ";
    this.accept = options.accept ?? "application/json";
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.options = {
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 6,
      backoffBaseMs: options.backoffBaseMs ?? 250,
      backoffCapMs: options.backoffCapMs ?? 10_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
      baseUrlSetting: options.baseUrlSetting ?? "incident:baseUrl",
    };
    this.notify = options.notify ?? logWarning;
    this.lockInDashboard = options.lockInDashboard === true;
    this.traceFile = options.traceFile ?? process.env.INCIDENT_TRACE_FILE;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.bucketKey = createHash("sha256").update(`${this.baseUrl}\n${this.apiKey}`).digest("hex");
    this.defaultBurst = options.burst ?? 1200;
    this.defaultRefill = options.refillPerSecond ?? 20;
    this.now = options.now;
    this.proxy = options.proxy;
    this.proxySetting = options.proxySetting;
    this.logLevel = options.logLevel ?? "warn";
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /** Names the account (base URL and key) without revealing the key: a hash. */
  get account(): string {
    return this.bucketKey.slice(0, 24);
  }

  /** The token bucket shared by every client using this key against this base URL. */
  get bucket(): TokenBucket {
    let bucket = buckets.get(this.bucketKey);
    if (!bucket) {
      bucket = new TokenBucket({
        capacity: this.defaultBurst,
        refillPerSecond: this.defaultRefill,
        now: this.now,
      });
      buckets.set(this.bucketKey, bucket);
    }
    return bucket;
  }

  /** Says something the user should act on (the Pulumi log's warning, or the `notify` given). */
  warn(message: string): void {
    this.notify(message);
  }

  async get<T>(
    path: string,
    operation: string,
    query?: RequestSpec["query"],
    options: Pick<RequestSpec, "maxRetries"> = {},
  ): Promise<T> {
    return (await this.request<T>({ method: "GET", path, operation, query, ...options })).body;
  }
  async post<T>(
    path: string,
    operation: string,
    body: unknown,
    options: { repeatable?: boolean } = {},
  ): Promise<T> {
    return (await this.request<T>({ method: "POST", path, operation, body, ...options })).body;
  }
  async put<T>(path: string, operation: string, body: unknown): Promise<T> {
    return (await this.request<T>({ method: "PUT", path, operation, body })).body;
  }
  async delete(path: string, operation: string, query?: RequestSpec["query"]): Promise<void> {
    await this.request({ method: "DELETE", path, operation, query });
  }

  /** Follows `pagination_meta.after` until the last page. */
  async listAll<T>(
    path: string,
    itemsKey: string,
    operation: string,
    query: RequestSpec["query"] = {},
    pageSize = 250,
  ): Promise<T[]> {
    const items: T[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10_000; page++) {
      const body = await this.get<Record<string, any>>(path, operation, {
        ...query,
        page_size: pageSize,
        after,
      });
      items.push(...((body[itemsKey] as T[]) ?? []));
      after = body.pagination_meta?.after;
      if (!after || (body[itemsKey] ?? []).length === 0) break;
    }
    return items;
  }

  async request<T>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const url = this.url(spec);
    const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const idempotent = IDEMPOTENT.has(spec.method) || spec.repeatable === true;
    let lastError: ApiError | undefined;
    let timeouts = 0;
    let attempts = 0;
    const maxRetries = spec.maxRetries ?? this.options.maxRetries;
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      attempts = attempt + 1;
      await this.bucket.take(this.sleep);
      const started = Date.now();
      let status = 0;
      try {
        const res = await request(url, {
          method: spec.method,
          dispatcher: agentFor(this.baseUrl, this.proxy),
          headers: {
            authorization: `${this.authScheme}${this.apiKey}`,
            accept: this.accept,
            "user-agent": `pulumi-incident/${packageVersion}`,
            ...(payload === undefined ? {} : { "content-type": "application/json" }),
          },
          body: payload,
          headersTimeout: this.options.timeoutMs,
          bodyTimeout: this.options.timeoutMs,
        });
        status = res.statusCode;
        const text = await res.body.text();
        this.bucket.observeAnswer(status, (name) => headerValue(res.headers[name]));
        const requestIdHeader = headerValue(res.headers["x-request-id"]);
        this.trace(spec, status, started, attempt, undefined, requestIdHeader);
        const parsed = parseJson(text);
        if (status >= 200 && status < 300) {
          // A DELETE (or a 204) carries nothing to read; any other 2xx must carry a JSON object.
          const readable = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
          if (readable || status === 204 || spec.method === "DELETE") {
            return { status, body: (parsed ?? {}) as T, requestId: requestIdHeader };
          }
          const init = unreadable(
            spec,
            status,
            text,
            headerValue(res.headers["content-type"]),
            requestIdHeader,
          );
          // The server did what was asked, but the answer is lost: a create's outcome is unknown
          // (the object may exist); reading or writing the same state again is safe.
          if (!idempotent) throw new ApiError({ ...init, outcomeUnknown: true, attempts });
          // A repeatable POST that keeps failing so may still have made something: said so.
          lastError = new ApiError({ ...init, outcomeUnknown: spec.method === "POST" });
          if (attempt < maxRetries)
            await this.wait(this.backoff(attempt), spec, attempts, init.details[0]?.message ?? "");
          continue;
        }
        const init: ApiErrorInit = decodeErrorBody(spec.operation, status, parsed ?? text, requestIdHeader);
        if (status === 429) {
          const retryAfter = parseRetryAfter(headerValue(res.headers["retry-after"]));
          init.retryAfterSeconds = retryAfter === undefined ? undefined : retryAfter / 1000;
          if (retryAfter !== undefined && retryAfter > this.options.maxRetryAfterMs) {
            throw new ApiError({
              ...init,
              attempts,
              hint:
                `the API asked to wait ${Math.round(retryAfter / 1000)} s (Retry-After), longer than ` +
                `incident:maxRetryAfter / INCIDENT_MAX_RETRY_AFTER allows (${this.options.maxRetryAfterMs / 1000} s): ` +
                "run again later, or raise that setting",
            });
          }
          lastError = new ApiError(init);
          // The server refused the request before doing anything: repeating is safe for every method.
          const pause = retryAfter ?? this.backoff(attempt);
          if (pause >= LONG_WAIT_MS) {
            this.notify(
              `incident: ${spec.operation}: rate limited by the API; waiting ${Math.round(pause / 1000)} s (Retry-After) before attempt ${attempts + 1}`,
            );
          }
          this.bucket.pauseFor(pause);
          continue;
        }
        if (RETRYABLE_STATUS.has(status)) {
          if (!idempotent) {
            throw new ApiError({ ...init, outcomeUnknown: true, attempts });
          }
          lastError = new ApiError({ ...init, outcomeUnknown: spec.method === "POST" });
          if (attempt < maxRetries)
            await this.wait(this.backoff(attempt), spec, attempts, `the API answered ${status}`);
          continue;
        }
        throw new ApiError({ ...init, attempts, hint: this.hintFor(init) });
      } catch (error) {
        if (error instanceof ApiError) throw error;
        this.bucket.unanswered();
        const code = networkCode(error);
        this.trace(spec, status, started, attempt, code);
        const notSent = NOT_SENT_CODES.has(code);
        const timedOut = TIMEOUT_CODES.has(code);
        const init: ApiErrorInit = {
          operation: spec.operation,
          status: 0,
          type: timedOut ? "timeout" : "network_error",
          details: [
            {
              code,
              message: timedOut
                ? `no answer from ${maskUrl(this.baseUrl)} within ${this.options.timeoutMs / 1000} s (incident:requestTimeout / INCIDENT_REQUEST_TIMEOUT)`
                : maskUrl(`${(error as Error).message ?? String(error)} (${this.baseUrl})`),
            },
          ],
          // A POST that may have reached the server may have acted (a repeatable one too).
          outcomeUnknown: !notSent && spec.method === "POST",
          attempts,
          hint: this.networkHint(),
        };
        if (!notSent && !idempotent) throw new ApiError(init);
        lastError = new ApiError(init);
        if (timedOut && ++timeouts > TIMEOUT_RETRIES) break;
        if (attempt < maxRetries)
          await this.wait(this.backoff(attempt), spec, attempts, init.details[0]!.message);
      }
    }
    throw new ApiError({
      operation: spec.operation,
      status: lastError?.status ?? 0,
      type: lastError?.type ?? "retries_exhausted",
      requestId: lastError?.requestId,
      details: lastError?.details ?? [],
      outcomeUnknown: lastError?.outcomeUnknown,
      attempts,
      hint: lastError?.hint,
    });
  }

  /** Sleeps before another attempt, saying so when the wait is long. */
  private async wait(ms: number, spec: RequestSpec, attempts: number, why: string): Promise<void> {
    if (this.logLevel === "debug" && ms < LONG_WAIT_MS)
      this.log(`incident: ${spec.operation}: ${why}; waiting ${ms} ms before attempt ${attempts + 1}`);
    if (ms >= LONG_WAIT_MS) {
      this.notify(
        `incident: ${spec.operation}: ${why}; waiting ${Math.round(ms / 1000)} s before attempt ${attempts + 1}`,
      );
    }
    await this.sleep(ms);
  }

  /** What to check when the API could not be reached: the URL, and the proxy in between if any. */
  private networkHint(): string {
    const url = `check ${this.options.baseUrlSetting}${this.options.baseUrlSetting === "default" ? " (not set: the default URL is used; set incident:baseUrl)" : ""}`;
    const proxy = this.proxy
      ? { url: this.proxy, setting: this.proxySetting ?? "incident:proxy" }
      : environmentProxy(this.baseUrl);
    if (!proxy) return url;
    const shown = maskUrl(proxy.url);
    return `${url}, and the proxy it goes through: ${proxy.setting} (${shown})`;
  }

  /** The setting to check for an answer that points at one. */
  private hintFor({ status, details }: ApiErrorInit): string | undefined {
    if (status === 401) return "check incident:apiKey / INCIDENT_API_KEY";
    // The v3 alert routes API answers this to accounts not yet migrated to it (not a missing role).
    if (status === 403 && details.some((d) => d.code === "api_not_yet_available"))
      return "this account has not been migrated to this version of the API yet (v3 alert routes): use it once it has";
    if (status === 403)
      return "the API key lacks a role this needs: check incident:apiKey and the key's roles";
    if (status === 404 || status === 405)
      return `check ${this.options.baseUrlSetting} (${maskUrl(this.baseUrl)}) if every request answers ${status}`;
    return undefined;
  }

  private url(spec: RequestSpec): string {
    const url = new URL(this.baseUrl + spec.path);
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(v));
    }
    return url.toString();
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.options.backoffCapMs, this.options.backoffBaseMs * 2 ** attempt);
    // "Full jitter": spreads retries of parallel resources so they do not arrive together.
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  /**
   * One attempt, to the trace file (INCIDENT_TRACE_FILE: a JSON line) and, at `info` and above, as a
   * line on the console. Neither holds a header or a body: never the key, never a secret.
   */
  private trace(
    spec: RequestSpec,
    status: number,
    started: number,
    attempt: number,
    error?: string,
    requestId?: string,
  ): void {
    const ms = Date.now() - started;
    if (this.logLevel !== "warn") {
      const query = new URL(this.url(spec)).search;
      this.log(
        `incident: ${spec.method} ${spec.path}${query} → ${error ?? status} in ${ms} ms` +
          `${requestId ? ` (request ${requestId})` : ""}${attempt > 0 ? ` (attempt ${attempt + 1})` : ""}`,
      );
    }
    if (!this.traceFile) return;
    const line = { method: spec.method, path: spec.path, status, ms, attempt, error, at: started };
    try {
      appendFileSync(this.traceFile, `${JSON.stringify(line)}\n`);
    } catch {
      // Tracing is diagnostics only; never fail a request because of it.
    }
  }
}

/** A line on the console: the Pulumi log where the engine listens, else standard error. */
export function logWarning(message: string): void {
  try {
    // Loaded lazily: the client also runs where no Pulumi runtime is set up (tools, tests).
    const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
    void pulumi.log.warn(message).catch(() => undefined);
  } catch {
    process.stderr.write(`${message}\n`);
  }
}

const POOL = { keepAliveTimeout: 30_000, connections: 32 };

/**
 * The proxy the environment names for a URL's scheme (`HTTPS_PROXY` / `HTTP_PROXY`, either case),
 * and the setting it came from; undefined when none is set.
 */
export function environmentProxy(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
): { url: string; setting: string } | undefined {
  const names = url.startsWith("https:") ? ["HTTPS_PROXY", "https_proxy"] : ["HTTP_PROXY", "http_proxy"];
  for (const name of names) if (env[name]) return { url: env[name]!, setting: name };
  return undefined;
}

/**
 * One keep-alive pool per base URL (and proxy): a plain pool, or undici's own proxy agent when a
 * proxy is set, explicitly or through the environment (which also honours `NO_PROXY`).
 */
function agentFor(baseUrl: string, proxy: string | undefined): Dispatcher {
  const key = `${baseUrl} ${proxy ?? ""}`;
  let agent = agents.get(key);
  if (!agent) {
    agent =
      proxy !== undefined
        ? new EnvHttpProxyAgent({ ...POOL, httpProxy: proxy, httpsProxy: proxy })
        : environmentProxy(baseUrl)
          ? new EnvHttpProxyAgent(POOL)
          : new Agent(POOL);
    agents.set(key, agent);
  }
  return agent;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A 2xx whose body cannot be read (truncated, an HTML page from a proxy, empty). */
function unreadable(
  spec: RequestSpec,
  status: number,
  text: string,
  contentType: string | undefined,
  requestId: string | undefined,
): ApiErrorInit {
  const what =
    text.trim() === ""
      ? "an empty body"
      : contentType && !/json/i.test(contentType)
        ? `a ${contentType.split(";")[0]} body instead of JSON`
        : `a body that is not complete JSON (${text.length} bytes)`;
  return {
    operation: spec.operation,
    status,
    type: "unreadable_response",
    requestId,
    details: [{ code: "unreadable_body", message: `the API answered ${status} with ${what}` }],
  };
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function networkCode(error: unknown): string {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code ?? "network_error";
}

function readPackageVersion(): string {
  for (const rel of ["..", path.join("..", "..")]) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(__dirname, rel, "package.json"), "utf8"));
      if (pkg.name === "pulumi-incident") return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return "0.0.0";
}

/** Closes pooled connections (tests and the demo call it so the process can exit promptly). */
export async function closeAllConnections(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close()));
}

/** Forgets every bucket (tests). */
export function resetRateLimitState(): void {
  buckets.clear();
}
