/**
 * The client's token bucket when several provider processes spend one API key's bucket at once
 * (stacks applied together with one key: issue 30). Simulated in virtual time against the
 * emulator's own bucket (test/support/sharedKey.ts): each process a bucket of its own, eight
 * requests in flight at most, the answers' X-RateLimit-* and Retry-After read as the client reads
 * them. The bound is what the server's bucket allows for the requests it counted.
 */
import { runSharedKey, type SharedKeyRun } from "../support/sharedKey";

const RATE_TARGET = 1.15;

function summary(run: SharedKeyRun) {
  return {
    ratio: run.wallMs / run.boundMs,
    failures: run.failures,
    throttled: run.throttled,
    maxAttempts: Math.max(...run.processes.map((p) => p.maxAttempts)),
  };
}

describe("processes sharing one API key's bucket", () => {
  test("four at once with the service's bucket (1200, 20/s): none fails, a few 429s, together within 1.15 × the bound", async () => {
    const run = await runSharedKey({ processes: 4, requests: 500, burst: 1200, refillPerSecond: 20 });
    const s = summary(run);
    expect(s.failures).toBe(0);
    // At most the requests in flight when the burst runs out (4 processes × 8), each tried once more.
    expect(s.throttled).toBeLessThanOrEqual(32);
    expect(s.maxAttempts).toBeLessThanOrEqual(3);
    expect(s.ratio).toBeLessThanOrEqual(RATE_TARGET);
    // Shares converge: each process ends close to the others.
    const ends = run.processes.map((p) => p.endedAt);
    expect(Math.max(...ends) - Math.min(...ends)).toBeLessThanOrEqual(0.15 * run.wallMs);
  });

  test("four at once on a small bucket (50, 5/s), where the rounding of the counts weighs most", async () => {
    const s = summary(await runSharedKey({ processes: 4, requests: 100, burst: 50, refillPerSecond: 5 }));
    expect(s.failures).toBe(0);
    expect(s.throttled).toBeLessThanOrEqual(32);
    expect(s.ratio).toBeLessThanOrEqual(RATE_TARGET);
  });

  test("started 3 s apart: a process that ends leaves its share to the others", async () => {
    const run = await runSharedKey({
      processes: 4,
      requests: 500,
      burst: 1200,
      refillPerSecond: 20,
      startAtMs: (p) => p * 3000,
    });
    const s = summary(run);
    expect(s.failures).toBe(0);
    expect(s.throttled).toBeLessThanOrEqual(32);
    expect(s.ratio).toBeLessThanOrEqual(RATE_TARGET);
  });

  test("alone, a process paces the server's bucket exactly, as before: no 429, the bound", async () => {
    const run = await runSharedKey({ processes: 1, requests: 2000, burst: 1200, refillPerSecond: 20 });
    expect(run.throttled).toBe(0);
    expect(run.wallMs / run.boundMs).toBeLessThanOrEqual(1.01);
  });
});
