/**
 * The per-key token bucket and its headers, with a fake clock: burst 5, refill 1 token/s. Nothing
 * here depends on how fast the machine is: time only moves when the test moves it.
 */
import { limitHeader, RateLimiter } from "../../emulator";
import { parseLimitHeader } from "../../provider/client";
import { expectErrorBody, startTestEmulator, T0, type TestEmulator } from "../support/emulator";

let emu: TestEmulator;

beforeEach(async () => {
  emu = await startTestEmulator({ burst: 5, refillPerSecond: 1 });
});
afterEach(async () => {
  expect(emu.responseProblems).toEqual([]);
  await emu.dispose();
});

const seconds = (ms: number) => ms / 1000;

test("headers count down from the burst; Reset is when the bucket is full again", async () => {
  for (let i = 1; i <= 5; i++) {
    const r = await emu.call("GET", "/v2/custom_fields");
    expect(r.status).toBe(200);
    expect(r.headers["x-ratelimit-limit"]).toBe("5, 5;window=5");
    expect(r.headers["x-ratelimit-remaining"]).toBe(String(5 - i));
    expect(r.headers["x-ratelimit-used"]).toBe(String(i));
    // i tokens spent, 1 per second back: full again i seconds from now.
    expect(r.headers["x-ratelimit-reset"]).toBe(String(seconds(T0) + i));
    expect(r.headers["retry-after"]).toBeUndefined();
  }
});

test("429 when empty: Retry-After in whole seconds, the headers, and the rate_limit body", async () => {
  for (let i = 0; i < 5; i++) expect((await emu.call("GET", "/v2/custom_fields")).status).toBe(200);
  const r = await emu.call("GET", "/v2/custom_fields");
  expectErrorBody(r, 429, "too_many_requests", "too_many_requests");
  expect(r.headers["retry-after"]).toBe("1");
  expect(r.headers["x-ratelimit-remaining"]).toBe("0");
  expect(r.headers["x-ratelimit-used"]).toBe("5");
  expect(r.headers["x-ratelimit-limit"]).toBe("5, 5;window=5");
  expect(r.headers["x-ratelimit-reset"]).toBe(String(seconds(T0) + 5));
  expect(r.body.rate_limit).toEqual({
    name: expect.any(String),
    limit: 5,
    remaining: 0,
    retry_after: new Date(T0 + 1000).toISOString(),
  });
  // A refused request costs nothing: still empty, still 1 s to wait.
  const again = await emu.call("GET", "/v2/custom_fields");
  expect(again.status).toBe(429);
  expect(again.headers["retry-after"]).toBe("1");
});

test("continuous refill: part of a second is not enough, a whole token is", async () => {
  for (let i = 0; i < 5; i++) await emu.call("GET", "/v2/custom_fields");
  emu.tick(600);
  const early = await emu.call("GET", "/v2/custom_fields");
  expect(early.status).toBe(429);
  // 0.6 token in the bucket: 0.4 s to go, rounded up to whole seconds.
  expect(early.headers["retry-after"]).toBe("1");
  expect(early.body.rate_limit.retry_after).toBe(new Date(T0 + 600 + 1000).toISOString());
  emu.tick(400);
  const ok = await emu.call("GET", "/v2/custom_fields");
  expect(ok.status).toBe(200);
  expect(ok.headers["x-ratelimit-remaining"]).toBe("0");
  // Empty at T0+1s: full again 5 s later.
  expect(ok.headers["x-ratelimit-reset"]).toBe(String(seconds(T0) + 1 + 5));
});

test("the bucket never holds more than the burst", async () => {
  emu.tick(3_600_000);
  const r = await emu.call("GET", "/v2/custom_fields");
  expect(r.headers["x-ratelimit-remaining"]).toBe("4");
});

test("one bucket per API key; errors after authentication count too", async () => {
  const other = await emu.createApiKey("other", ["global_access"]);
  for (let i = 0; i < 5; i++) expect((await emu.call("GET", "/v2/nothing")).status).toBe(404);
  expect((await emu.call("GET", "/v2/custom_fields")).status).toBe(429);
  const r = await emu.call("GET", "/v2/custom_fields", { token: other });
  expect(r.status).toBe(200);
  expect(r.headers["x-ratelimit-remaining"]).toBe("4");
});

test("unauthenticated requests carry no rate-limit headers and spend nothing", async () => {
  for (let i = 0; i < 10; i++) {
    const r = await emu.call("GET", "/v2/custom_fields", { token: "wrong" });
    expect(r.status).toBe(401);
    expect(r.headers["x-ratelimit-limit"]).toBeUndefined();
  }
  expect((await emu.call("GET", "/v2/custom_fields")).headers["x-ratelimit-remaining"]).toBe("4");
});

test("a rotated key keeps its bucket (the limit is per key, not per token)", async () => {
  const created = await emu.call("POST", "/v1/api_keys", {
    body: { name: "rotating", role_names: ["viewer"], team_ids: [], team_role_names: [] },
  });
  const first = created.body.token as string;
  for (let i = 0; i < 3; i++) await emu.call("GET", "/v2/custom_fields", { token: first });
  emu.tick(0);
  const rotated = await emu.call("POST", `/v1/api_keys/${created.body.api_key.id}/actions/rotate`, {
    body: { grace_period_minutes: 5 },
  });
  expect(rotated.status).toBe(201);
  const r = await emu.call("GET", "/v2/custom_fields", { token: rotated.body.token });
  expect(r.headers["x-ratelimit-remaining"]).toBe("1");
});

test("control endpoints are not rate-limited", async () => {
  for (let i = 0; i < 8; i++) expect((await emu.call("GET", "/_emulator/health")).status).toBe(200);
});

describe("X-RateLimit-Limit", () => {
  test.each([
    [1200, 20, "1200, 1200;window=60"],
    [5, 1, "5, 5;window=5"],
    [10, 3, "10, 3;window=1"],
    [10, 0.5, "10, 10;window=20"],
    [7, 2.5, "7, 5;window=2"],
  ])("burst %d, refill %d/s → %s", (burst, refill, header) => {
    expect(limitHeader(burst, refill)).toBe(header);
    // The provider's client reads the same bucket back from it.
    expect(parseLimitHeader(header)).toEqual({ capacity: burst, refillPerSecond: refill });
  });

  test("the default bucket is the service's: 1200, 20/s", async () => {
    const dflt = await startTestEmulator();
    try {
      const r = await dflt.call("GET", "/v1/identity");
      expect(r.headers["x-ratelimit-limit"]).toBe("1200, 1200;window=60");
      expect(r.headers["x-ratelimit-remaining"]).toBe("1199");
    } finally {
      await dflt.dispose();
    }
  });
});

test("RateLimiter arithmetic with fractional refill", () => {
  let now = 0;
  const limiter = new RateLimiter({ burst: 2, refillPerSecond: 20, now: () => now });
  expect(limiter.take("k").allowed).toBe(true);
  expect(limiter.take("k").allowed).toBe(true);
  const refused = limiter.take("k");
  expect(refused.allowed).toBe(false);
  expect(refused.retryAfterSeconds).toBe(1);
  now += 50; // exactly one token at 20/s
  expect(limiter.take("k").allowed).toBe(true);
  expect(limiter.take("k").allowed).toBe(false);
});
