import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiClient, closeAllConnections, parseLimitHeader, resetRateLimitState } from "../../provider/client";
import { resolveSettings } from "../../provider/credentials";
import { ApiError } from "../../provider/errors";
import { parseRetryAfter, TokenBucket } from "../../provider/rateLimiter";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

async function serve(handler: Handler): Promise<{ url: string; server: Server; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      hits.push(`${req.method} ${req.url}`);
      handler(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, hits };
}

// A fake clock: sleeping advances it, so waits are measured without waiting.
const sleeps: number[] = [];
let clock = 1_000_000;
const fakeSleep = async (ms: number) => {
  sleeps.push(ms);
  clock += ms;
};

function client(url: string, extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  return new ApiClient({
    apiKey: `key-${Math.random()}`,
    baseUrl: url,
    sleep: fakeSleep,
    now: () => clock,
    backoffBaseMs: 1,
    notify: () => undefined,
    ...extra,
  });
}

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await closeAllConnections();
});

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

afterEach(() => {
  sleeps.length = 0;
  resetRateLimitState();
});

describe("ApiClient", () => {
  test("sends bearer auth, JSON and a versioned user agent", async () => {
    let seen: IncomingMessage | undefined;
    let seenBody = "";
    const { url, server } = await serve((req, res, body) => {
      seen = req;
      seenBody = body;
      json(res, 201, { custom_field: { id: "1" } });
    });
    const c = new ApiClient({ apiKey: "secret-key", baseUrl: `${url}/` });
    const out = await c.post<{ custom_field: { id: string } }>("/v2/custom_fields", "create custom field", {
      name: "x",
    });
    expect(out.custom_field.id).toBe("1");
    expect(seen?.headers.authorization).toBe("Bearer secret-key");
    expect(seen?.headers["content-type"]).toBe("application/json");
    expect(seen?.headers["user-agent"]).toMatch(/^pulumi-incident\/\d+\.\d+\.\d+/);
    expect(JSON.parse(seenBody)).toEqual({ name: "x" });
    server.close();
  });

  test("decodes the error body: status, type, request_id, each errors[] entry with its field", async () => {
    const { url, server } = await serve((_req, res) =>
      json(res, 422, {
        type: "validation_error",
        status: 422,
        request_id: "req-123",
        errors: [
          { code: "is_required", message: "is required", source: { field: "name" } },
          {
            code: "invalid_value",
            message: "bad",
            source: { field: "path.0.if_else.else_path.0.notify_channel" },
          },
        ],
      }),
    );
    const error: any = await client(url)
      .post("/v2/x", "create thing", {})
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(422);
    expect(error.type).toBe("validation_error");
    expect(error.requestId).toBe("req-123");
    expect(error.fields).toEqual(["name", "path.0.if_else.else_path.0.notify_channel"]);
    expect(error.message).toContain("create thing");
    expect(error.message).toContain("req-123");
    expect(error.message).toContain("name: is required");
    expect(error.isNotFound).toBe(false);
    server.close();
  });

  test("404 is distinguishable", async () => {
    const { url, server } = await serve((_req, res) =>
      json(res, 404, {
        type: "not_found",
        status: 404,
        request_id: "r",
        errors: [{ code: "not_found", message: "nope" }],
      }),
    );
    const error: any = await client(url)
      .get("/v2/custom_fields/x", "show custom field")
      .catch((e) => e);
    expect(error.isNotFound).toBe(true);
    server.close();
  });

  test.each([
    ["integer seconds", "3", 3000],
    // An HTTP date has whole seconds: round up so the wait is 5–6 s whatever the millisecond now.
    // Made when the 429 is answered (not when the test is declared: other tests run in between).
    ["an HTTP date", () => new Date(Math.ceil((Date.now() + 5000) / 1000) * 1000).toUTCString(), 5000],
  ])("429 honours Retry-After given as %s, for a POST too", async (_name, retryAfter, expectedMs) => {
    let calls = 0;
    const { url, server } = await serve((_req, res) => {
      calls++;
      if (calls === 1) {
        json(
          res,
          429,
          {
            type: "too_many_requests",
            status: 429,
            request_id: "r1",
            errors: [{ code: "too_many_requests", message: "slow down" }],
          },
          { "retry-after": typeof retryAfter === "function" ? retryAfter() : retryAfter },
        );
      } else json(res, 201, { ok: true });
    });
    const out = await client(url).post<{ ok: boolean }>("/v2/x", "create x", {});
    expect(out.ok).toBe(true);
    expect(calls).toBe(2);
    // The pause covers Retry-After (a date is rounded by the clock: allow a second of slack below).
    const waited = sleeps.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(expectedMs - 100);
    expect(waited).toBeLessThanOrEqual(expectedMs + 1000);
    expect(sleeps).toHaveLength(1);
    server.close();
  });

  test("never repeats a POST after a 5xx: the error says the outcome is unknown", async () => {
    const { url, server, hits } = await serve((_req, res) =>
      json(res, 502, { type: "api_error", status: 502, request_id: "r", errors: [] }),
    );
    const error: any = await client(url)
      .post("/v2/x", "create x", {})
      .catch((e) => e);
    expect(hits).toHaveLength(1);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.outcomeUnknown).toBe(true);
    server.close();
  });

  test.each(["GET", "PUT", "DELETE"] as const)("retries %s on 5xx until it succeeds", async (method) => {
    let calls = 0;
    const { url, server } = await serve((_req, res) => {
      calls++;
      if (calls < 3) json(res, 503, { type: "api_error", status: 503, request_id: "r", errors: [] });
      else json(res, 200, { ok: true });
    });
    const c = client(url);
    await c.request({ method, path: "/v2/x/1", operation: "op", body: method === "PUT" ? {} : undefined });
    expect(calls).toBe(3);
    expect(sleeps.length).toBeGreaterThanOrEqual(2);
    server.close();
  });

  test("does not repeat a POST whose connection was reset (may have reached the server)", async () => {
    const { url, server, hits } = await serve((req) => {
      req.socket.destroy();
    });
    const error: any = await client(url)
      .post("/v2/x", "create x", {})
      .catch((e) => e);
    expect(hits).toHaveLength(1);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.type).toBe("network_error");
    server.close();
  });

  test("retries a POST when the connection was refused (nothing was sent)", async () => {
    const { url, server } = await serve(() => undefined);
    await new Promise<void>((r) => server.close(() => r()));
    const error: any = await client(url, { maxRetries: 2 })
      .post("/v2/x", "create x", {})
      .catch((e) => e);
    expect(error.outcomeUnknown).toBe(false);
    expect(error.message).toContain("(3 attempts; check incident:baseUrl)");
  });

  test("gives up after maxRetries on persistent 5xx for GET", async () => {
    const { url, server, hits } = await serve((_req, res) =>
      json(res, 500, { type: "api_error", status: 500, errors: [] }),
    );
    const error: any = await client(url, { maxRetries: 3 })
      .get("/v2/x", "list x")
      .catch((e) => e);
    expect(hits).toHaveLength(4);
    expect(error.status).toBe(500);
    server.close();
  });

  test("follows pagination_meta.after", async () => {
    const { url, server, hits } = await serve((req, res) => {
      const after = new URL(req.url ?? "", "http://x").searchParams.get("after");
      if (!after) json(res, 200, { items: [1, 2], pagination_meta: { after: "2", page_size: 2 } });
      else json(res, 200, { items: [3], pagination_meta: { page_size: 2 } });
    });
    expect(await client(url).listAll<number>("/v1/things", "items", "list things", {}, 2)).toEqual([1, 2, 3]);
    expect(hits[0]).toContain("page_size=2");
    server.close();
  });

  test("adopts the server's bucket size from X-RateLimit-Limit and its count from Remaining", async () => {
    const { url, server } = await serve((_req, res) =>
      json(res, 200, {}, { "x-ratelimit-limit": "10, 10;window=60", "x-ratelimit-remaining": "3" }),
    );
    const c = client(url);
    await c.get("/v1/identity", "identity");
    expect(c.bucket.capacity).toBe(10);
    expect(c.bucket.refillPerSecond).toBeCloseTo(10 / 60);
    expect(c.bucket.available()).toBeLessThanOrEqual(3.1);
    server.close();
  });

  test("writes one trace line per attempt, without bodies or credentials", async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "trace-")), "t.jsonl");
    const { url, server } = await serve((_req, res) => json(res, 200, { secret: "s3cr3t" }));
    await new ApiClient({ apiKey: "very-secret-key", baseUrl: url, traceFile: file }).get(
      "/v1/identity",
      "identity",
    );
    const text = fs.readFileSync(file, "utf8");
    expect(JSON.parse(text.trim())).toMatchObject({ method: "GET", path: "/v1/identity", status: 200 });
    expect(text).not.toContain("very-secret-key");
    expect(text).not.toContain("s3cr3t");
    server.close();
  });
});

describe("TokenBucket", () => {
  test("allows the burst, then paces at the refill rate", async () => {
    let now = 0;
    const bucket = new TokenBucket({ capacity: 3, refillPerSecond: 2, now: () => now });
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      now += ms;
    };
    bucket.calibrate();
    for (let i = 0; i < 3; i++) await bucket.take(sleep);
    expect(waits).toEqual([]);
    await bucket.take(sleep);
    expect(waits).toEqual([500]);
    await bucket.take(sleep);
    expect(waits).toEqual([500, 500]);
  });

  test("a fresh bucket lets one probe through, then waits for the server's count", async () => {
    let now = 0;
    const bucket = new TokenBucket({ capacity: 100, refillPerSecond: 1, now: () => now });
    const order: string[] = [];
    // The calibration timeout never fires here; refill waits advance the fake clock.
    const sleep = (ms: number) =>
      ms === 60_000
        ? new Promise<void>(() => undefined)
        : new Promise<void>((r) =>
            setTimeout(() => {
              now += ms;
              r();
            }, 1),
          );
    await bucket.take(sleep, 60_000);
    order.push("probe");
    const second = bucket.take(sleep, 60_000).then(() => order.push("second"));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(["probe"]);
    bucket.observeAnswer(200, (name) => (name === "x-ratelimit-remaining" ? "0" : undefined)); // nearly empty
    await second;
    expect(now).toBe(1000); // it waited for one token to refill
    expect(order).toEqual(["probe", "second"]);
    expect(bucket.available()).toBeLessThan(1);
  });

  test("a Retry-After pause holds every caller", async () => {
    let now = 0;
    const bucket = new TokenBucket({ capacity: 100, refillPerSecond: 100, now: () => now });
    bucket.pauseFor(2000);
    expect(bucket.delayForNext()).toBe(2000);
    now += 2000;
    expect(bucket.delayForNext()).toBe(0);
  });

  test("server-reported remaining lowers but never raises the local count of a process alone", () => {
    const bucket = new TokenBucket({ capacity: 10, refillPerSecond: 1, now: () => 0 });
    bucket.observe(4, true);
    expect(bucket.available()).toBe(4);
    bucket.observe(8, true);
    expect(bucket.available()).toBe(4);
  });
});

describe("header parsing", () => {
  test("Retry-After: seconds, fractional seconds, HTTP date, garbage", () => {
    expect(parseRetryAfter("7")).toBe(7000);
    expect(parseRetryAfter("0.5")).toBe(500);
    expect(
      parseRetryAfter("Wed, 21 Oct 2015 07:28:10 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT")),
    ).toBe(10_000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
  test("X-RateLimit-Limit", () => {
    expect(parseLimitHeader("1200, 1200;window=60")).toEqual({ capacity: 1200, refillPerSecond: 20 });
    expect(parseLimitHeader("1200")).toBeUndefined();
    expect(parseLimitHeader(undefined)).toBeUndefined();
  });
});

describe("a 2xx whose body cannot be read (issue 10)", () => {
  const bodies: [string, string, string][] = [
    ["truncated JSON", "application/json", '{"custom_field":{"id":"01'],
    ["an HTML page", "text/html", "<html><body>502 Bad Gateway</body></html>"],
    ["an empty body", "application/json", ""],
  ];

  test.each(
    bodies,
  )("a create answered 201 with %s: outcome unknown, never repeated", async (_what, type, text) => {
    const { url, server, hits } = await serve((_req, res) => {
      res.writeHead(201, { "content-type": type });
      res.end(text);
    });
    const error: any = await client(url)
      .post("/v2/custom_fields", "create custom field", {})
      .catch((e) => e);
    expect(hits).toHaveLength(1);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.type).toBe("unreadable_response");
    expect(error.message).toContain(
      "create custom field failed with 201 unreadable_response: the API answered 201 with",
    );
    server.close();
  });

  test.each(bodies)("a read answered 200 with %s is tried again", async (_what, type, text) => {
    let calls = 0;
    const { url, server } = await serve((_req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(200, { "content-type": type });
        res.end(text);
      } else json(res, 200, { custom_fields: [] });
    });
    expect(await client(url).get("/v2/custom_fields", "list custom fields")).toEqual({ custom_fields: [] });
    expect(calls).toBe(2);
    server.close();
  });

  test("a delete needs no body", async () => {
    const { url, server } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>ok</html>");
    });
    await client(url).delete("/v2/custom_fields/x", "delete custom field");
    server.close();
  });
});

describe("logs a user can turn up (incident:logLevel)", () => {
  test("info: one line per API call (method, path and query, status, time, request id); warn: none; never the key", async () => {
    let calls = 0;
    const { url } = await serve((_req, res) => {
      calls++;
      if (calls === 1) return json(res, 503, {}, { "x-request-id": "req_first" });
      json(res, 200, { users: [] }, { "x-request-id": "req_second" });
    });
    const lines: string[] = [];
    const key = "secret-key-0123456789";
    await client(url, { apiKey: key, logLevel: "info", log: (l) => lines.push(l) }).get(
      "/v2/users",
      "list users",
      {
        email: "ada@example.com",
      },
    );
    expect(lines).toEqual([
      expect.stringMatching(
        /^incident: GET \/v2\/users\?email=ada%40example\.com → 503 in \d+ ms \(request req_first\)$/,
      ),
      expect.stringMatching(
        /^incident: GET \/v2\/users\?email=ada%40example\.com → 200 in \d+ ms \(request req_second\) \(attempt 2\)$/,
      ),
    ]);
    expect(lines.join("\n")).not.toContain(key);

    const quiet: string[] = [];
    await client(url, { logLevel: "warn", log: (l) => quiet.push(l) }).get("/v2/users", "list users");
    expect(quiet).toEqual([]);
  });

  test("debug: every wait too; a network error is the line's outcome", async () => {
    const lines: string[] = [];
    await client("http://127.0.0.1:9", { logLevel: "debug", log: (l) => lines.push(l), maxRetries: 1 })
      .get("/v2/users", "list users")
      .catch(() => undefined);
    expect(lines).toEqual([
      expect.stringMatching(/^incident: GET \/v2\/users → ECONNREFUSED in \d+ ms$/),
      expect.stringMatching(/^incident: list users: .*ECONNREFUSED.*; waiting \d+ ms before attempt 2$/),
      expect.stringMatching(/^incident: GET \/v2\/users → ECONNREFUSED in \d+ ms \(attempt 2\)$/),
    ]);
  });

  test("the setting: incident:logLevel, else INCIDENT_LOG_LEVEL; anything else names the setting", () => {
    const base = { "incident:apiKey": "k" } as Record<string, string>;
    expect(resolveSettings((k) => ({ ...base, "incident:logLevel": "INFO" })[k], {}).logLevel).toBe("info");
    expect(resolveSettings((k) => base[k], { INCIDENT_LOG_LEVEL: "debug" }).logLevel).toBe("debug");
    expect(resolveSettings((k) => base[k], {}).logLevel).toBeUndefined();
    expect(() => resolveSettings((k) => ({ ...base, "incident:logLevel": "verbose" })[k], {})).toThrow(
      'incident:logLevel must be one of warn, info, debug (got "verbose")',
    );
  });
});
