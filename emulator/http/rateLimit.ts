/**
 * The service's rate limit: a token bucket per API key, capacity `burst`, refilled continuously at
 * `refillPerSecond` (defaults 1200 and 20/s: "1200 requests per minute"). No fixed reset boundary.
 *
 * Headers on every API-key-authenticated response:
 * - `X-RateLimit-Limit`: the binding quota, then each limit with its window: `1200, 1200;window=60`
 * - `X-RateLimit-Remaining`: whole requests available now
 * - `X-RateLimit-Used`: requests spent (capacity − remaining)
 * - `X-RateLimit-Reset`: Unix seconds at which the bucket is full again
 * and on a 429 also `Retry-After` (integer seconds until one request is allowed).
 */
import type { RateLimitBody } from "./errors";

export interface RateLimitOptions {
  burst: number;
  refillPerSecond: number;
  now: () => number;
  /** `rate_limit.name` in 429 bodies. */
  name?: string;
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  /** On a refusal: what the 429 body's `rate_limit` says. */
  body?: RateLimitBody;
  /** On a refusal: whole seconds to wait. */
  retryAfterSeconds?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * `X-RateLimit-Limit` for a bucket: `<burst>, <n>;window=<seconds>` with n/seconds = the refill rate;
 * n = burst when burst/refill is a whole number of seconds (`1200, 1200;window=60`), otherwise the
 * smallest whole window that makes n whole (`10, 3;window=1` for 3/s).
 */
export function limitHeader(burst: number, refillPerSecond: number): string {
  const window = burst / refillPerSecond;
  if (Number.isInteger(window)) return `${burst}, ${burst};window=${window}`;
  for (let w = 1; w <= 3600; w++) {
    const n = refillPerSecond * w;
    if (Math.abs(n - Math.round(n)) < 1e-9) return `${burst}, ${Math.round(n)};window=${w}`;
  }
  return `${burst}, ${Math.max(1, Math.round(refillPerSecond * 60))};window=60`;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  readonly burst: number;
  readonly refillPerSecond: number;
  private readonly now: () => number;
  private readonly name: string;
  private readonly limit: string;

  constructor(options: RateLimitOptions) {
    if (!(options.burst >= 1) || !Number.isInteger(options.burst))
      throw new Error("burst must be an integer ≥ 1");
    if (!(options.refillPerSecond > 0)) throw new Error("refillPerSecond must be > 0");
    this.burst = options.burst;
    this.refillPerSecond = options.refillPerSecond;
    this.now = options.now;
    this.name = options.name ?? "api_key_requests";
    this.limit = limitHeader(this.burst, this.refillPerSecond);
  }

  private bucket(key: string, now: number): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.burst, at: now };
      this.buckets.set(key, b);
    }
    const elapsed = Math.max(0, now - b.at) / 1000;
    b.tokens = Math.min(this.burst, b.tokens + elapsed * this.refillPerSecond);
    b.at = Math.max(b.at, now);
    return b;
  }

  /** Takes one token from `key`'s bucket if there is one; says what to answer either way. */
  take(key: string): RateDecision {
    const now = this.now();
    const b = this.bucket(key, now);
    // (a tolerance for floating-point refill arithmetic)
    const allowed = b.tokens >= 1 - 1e-9;
    if (allowed) b.tokens = Math.max(0, b.tokens - 1);
    const remaining = Math.max(0, Math.floor(b.tokens + 1e-9));
    const fullInMs = ((this.burst - b.tokens) / this.refillPerSecond) * 1000;
    const headers: Record<string, string> = {
      "X-RateLimit-Limit": this.limit,
      "X-RateLimit-Remaining": String(remaining),
      "X-RateLimit-Used": String(this.burst - remaining),
      "X-RateLimit-Reset": String(Math.ceil((now + fullInMs) / 1000)),
    };
    if (allowed) return { allowed, headers };
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - b.tokens) / this.refillPerSecond - 1e-9));
    headers["Retry-After"] = String(retryAfterSeconds);
    return {
      allowed,
      headers,
      retryAfterSeconds,
      body: {
        name: this.name,
        limit: this.burst,
        remaining,
        retry_after: new Date(now + retryAfterSeconds * 1000).toISOString(),
      },
    };
  }

  /** Forgets every bucket (all full again). */
  reset(): void {
    this.buckets.clear();
  }
}
