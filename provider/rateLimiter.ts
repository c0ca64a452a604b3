/**
 * Client-side token bucket mirroring the server's (capacity 1200, 20 tokens/s by default), so a large
 * apply paces itself instead of provoking 429s. Corrected from the X-RateLimit-* headers and paused
 * by Retry-After. One bucket per API key, shared by every resource in the provider process.
 */
export interface BucketOptions {
  capacity: number;
  refillPerSecond: number;
  now?: () => number;
}

export class TokenBucket {
  capacity: number;
  refillPerSecond: number;
  private tokens: number;
  private updatedAt: number;
  private pausedUntil = 0;
  private readonly now: () => number;
  private queue: Promise<void> = Promise.resolve();

  constructor(options: BucketOptions) {
    this.capacity = options.capacity;
    this.refillPerSecond = options.refillPerSecond;
    this.now = options.now ?? (() => Date.now());
    this.tokens = options.capacity;
    this.updatedAt = this.now();
  }

  /** Tokens available now (fractional). */
  available(): number {
    this.refill();
    return this.tokens;
  }

  /** Milliseconds to wait before one token is available, without taking it. */
  delayForNext(): number {
    this.refill();
    const pause = Math.max(0, this.pausedUntil - this.now());
    const deficit = 1 - this.tokens;
    const refillWait = deficit <= 0 ? 0 : Math.ceil((deficit / this.refillPerSecond) * 1000);
    return Math.max(pause, refillWait);
  }

  /**
   * Until the server has told us how many requests remain, only one request is let through: a
   * fresh process must not spend a burst the server's bucket may no longer have.
   */
  private calibration: "none" | "probing" | "done" = "none";
  private calibrated?: Promise<void>;
  private markCalibrated?: () => void;

  /** Records that the server's view is known (any response, with or without rate-limit headers). */
  calibrate(): void {
    this.calibration = "done";
    this.markCalibrated?.();
  }

  /** Waits for a token and takes it. Callers are served in order (FIFO). */
  take(sleep: (ms: number) => Promise<void> = defaultSleep, calibrationTimeoutMs = 5000): Promise<void> {
    const turn = this.queue.then(async () => {
      if (this.calibration === "none") {
        this.calibration = "probing";
        this.calibrated = new Promise<void>((resolve) => {
          this.markCalibrated = resolve;
        });
      } else if (this.calibration === "probing") {
        // A probe is in flight: wait for its answer (bounded, in case it never comes).
        await untilOrAfter(this.calibrated!, calibrationTimeoutMs, sleep);
        this.calibration = "done";
      }
      for (;;) {
        const wait = this.delayForNext();
        if (wait <= 0) break;
        await sleep(wait);
      }
      this.tokens -= 1;
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Adopts the server's bucket size and refill rate (from X-RateLimit-Limit). */
  reconfigure(capacity: number, refillPerSecond: number): void {
    this.refill();
    this.capacity = capacity;
    this.refillPerSecond = refillPerSecond;
    this.tokens = Math.min(this.tokens, capacity);
  }

  /** Lowers the local count when the server says fewer requests remain (it is the authority). */
  observeRemaining(remaining: number): void {
    if (!Number.isFinite(remaining) || remaining < 0) return;
    this.refill();
    if (remaining < this.tokens) this.tokens = remaining;
  }

  /** After a 429: no request leaves before the server's Retry-After has passed. */
  pauseFor(ms: number): void {
    this.refill();
    this.tokens = Math.min(this.tokens, 0);
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  private refill(): void {
    const now = this.now();
    const elapsed = Math.max(0, now - this.updatedAt) / 1000;
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.refillPerSecond);
    this.updatedAt = now;
  }
}

/**
 * Waits for `done`, at most `ms`. With the real clock the timer is cleared once `done` comes, so it
 * keeps no process alive after its work (a tool, a test run) has ended.
 */
function untilOrAfter(done: Promise<void>, ms: number, sleep: (ms: number) => Promise<void>): Promise<void> {
  if (sleep !== defaultSleep) return Promise.race([done, sleep(ms)]);
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    void done.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Parses Retry-After: integer seconds (what the API sends) or an HTTP date. Returns milliseconds. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
