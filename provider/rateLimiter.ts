/**
 * Client-side token bucket mirroring the server's (capacity 1200, 20 tokens/s by default), so a large
 * apply paces itself instead of provoking 429s. Corrected from the X-RateLimit-* headers and paused
 * by Retry-After. One bucket per API key, shared by every resource in the provider process.
 *
 * The server's bucket is per API key, and other processes may spend it too: stacks applied at once
 * with one key, each in its own provider process (issue 30). Each of them alone would refill at the
 * server's whole rate, so together they asked K times what the server gives: every other request
 * was answered 429, and some failed after seven of them. Each answer's X-RateLimit-Remaining says
 * what is left of the shared bucket, so the others' spending since the previous answer is what the
 * count fell by beyond this process's own request and the refill (`observe`). While others spend
 * it, this bucket refills at a rate of its own, adjusted as TCP adjusts its window (additive
 * increase, multiplicative decrease): down by half, at most once a second, when the server's count
 * falls below a small reserve or a 429 comes; up by a fifth of the server's rate per second
 * otherwise. The processes converge on equal shares of the refill that keep a few tokens in the
 * server's bucket: no 429 storm, and the bucket's tokens, not the processes' rates, absorb the
 * sawtooth, so nothing of the rate is lost. Alone, a process refills at the server's rate, as
 * before.
 */
export interface BucketOptions {
  capacity: number;
  refillPerSecond: number;
  now?: () => number;
}

/** Time constant of the others' spending rate (ms). */
export const OTHERS_WINDOW_MS = 2000;
/** Others share the bucket when they spend more than this part of its refill rate (the counts' rounding stays below). */
const OTHERS_PRESENT = 0.1;
/** Seconds of refill kept in the server's bucket while others share it: below that, slow down. */
export const RESERVE_SECONDS = 0.5;
/** Slowing down: the rate is multiplied by this, at most once per `DECREASE_INTERVAL_MS`. */
const DECREASE = 0.5;
const DECREASE_INTERVAL_MS = 1000;
/** Speeding up: this part of the server's rate more per second, while the server has tokens to spare. */
const INCREASE_PER_SECOND = 0.2;
/** The least part of the server's rate a process keeps. */
export const MIN_SHARE = 0.05;
/** Above this many seconds of refill in the server's bucket, a shared process may claim its part of them. */
const SPARE_SECONDS = 2;
/** Shared, a process saves at most this many seconds of its rate while idle. */
const SHARED_SAVING_SECONDS = 1;
/** A wait for the refill is slept in slices at most this long, so a raised rate is seen. */
const REFILL_WAIT_SLICE_MS = 250;

export class TokenBucket {
  capacity: number;
  refillPerSecond: number;
  private tokens: number;
  private updatedAt: number;
  private pausedUntil = 0;
  private readonly now: () => number;
  private queue: Promise<void> = Promise.resolve();
  /** This process's refill rate (tokens/s): the server's when alone, its share when others spend too. */
  private rate: number;
  private lastDecrease = Number.NEGATIVE_INFINITY;
  /** The others' spending of the shared bucket (tokens/s) as of `othersAt`. */
  private othersRate = 0;
  private othersAt = 0;
  /** This process's own spending (tokens/s) as of `ownAt`. */
  private ownRate = 0;
  private ownAt = 0;
  /** The server's last count (X-RateLimit-Remaining) and when it came. */
  private lastCount?: { remaining: number; at: number };
  /** Requests that took a token here and have no answer yet. */
  private inFlight = 0;
  /** Others spent the server's bucket too, as of the last answer. */
  private isShared = false;

  constructor(options: BucketOptions) {
    this.capacity = options.capacity;
    this.refillPerSecond = options.refillPerSecond;
    this.rate = options.refillPerSecond;
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
    const refillWait = deficit <= 0 ? 0 : Math.ceil((deficit / this.shareRate()) * 1000);
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
        // Shared, a refill wait shrinks when an answer raises this process's rate meanwhile: sleep it
        // in slices (a Retry-After pause is fixed, and so is the rate of a process alone).
        const pause = this.pausedUntil - this.now();
        await sleep(this.isShared && wait > pause ? Math.min(wait, REFILL_WAIT_SLICE_MS) : wait);
      }
      this.tokens -= 1;
      this.inFlight++;
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

  /**
   * What one answer says of the server's bucket: `remaining` (X-RateLimit-Remaining, after this
   * request) and whether this request took a token (`counted`: every answer but a 429). Lowers the
   * local count to the server's (it is the authority), counts what others spent since the previous
   * answer, and adjusts this process's rate while they do.
   */
  observe(remaining: number, counted: boolean): void {
    if (!Number.isFinite(remaining) || remaining < 0) return;
    this.refill();
    const now = this.now();
    const previous = this.lastCount;
    this.lastCount = { remaining, at: now };
    if (counted) {
      this.ownRate = decayed(this.ownRate, this.ownAt, now) + 1 / (OTHERS_WINDOW_MS / 1000);
      this.ownAt = now;
    }
    if (previous) {
      const elapsed = Math.max(0, now - previous.at) / 1000;
      const expected =
        Math.min(this.capacity, previous.remaining + elapsed * this.refillPerSecond) - (counted ? 1 : 0);
      // Signed: a count that lags, or is rounded down, is made up by the next one.
      this.othersRate = this.othersRateAt(now) + (expected - remaining) / (OTHERS_WINDOW_MS / 1000);
      this.othersAt = now;
      // A 429 says so too: alone, this bucket's count would have matched the server's.
      this.isShared = this.shared(now) || !counted;
      if (this.isShared) {
        if (!counted || remaining < RESERVE_SECONDS * this.refillPerSecond) this.slowDown(now);
        else
          this.rate = Math.min(
            this.refillPerSecond,
            this.rate + INCREASE_PER_SECOND * this.refillPerSecond * elapsed,
          );
      } else {
        this.rate = this.refillPerSecond;
      }
    }
    if (!previous && !counted) this.isShared = true;
    if (remaining < this.tokens) this.tokens = remaining;
    if (this.isShared && counted) {
      // Not all of what remains: this process's part of the recent spending (the others spend the rest).
      const own = decayed(this.ownRate, this.ownAt, now);
      const mine = (own / (own + Math.max(0, this.othersRateAt(now)))) * remaining - this.inFlight;
      if (mine < this.tokens) this.tokens = mine;
    }
    if (this.isShared && remaining > SPARE_SECONDS * this.refillPerSecond) {
      // Tokens pile up in the server's bucket (a stack sharing it ended): claim this process's part.
      const part = (this.rate / this.refillPerSecond) * (remaining - RESERVE_SECONDS * this.refillPerSecond);
      this.tokens = Math.max(this.tokens, Math.min(this.capacity, part - this.inFlight));
    }
  }

  /** Others spend the server's bucket too. */
  private shared(now: number): boolean {
    return this.othersRateAt(now) > OTHERS_PRESENT * this.refillPerSecond;
  }

  private slowDown(now: number): void {
    if (now - this.lastDecrease < DECREASE_INTERVAL_MS) return;
    this.lastDecrease = now;
    this.rate = Math.max(MIN_SHARE * this.refillPerSecond, this.rate * DECREASE);
  }

  /**
   * Reads one answer's rate-limit headers (`header(name)`: a header by its lower-case name): the
   * server's bucket size and refill rate (X-RateLimit-Limit) and its count (X-RateLimit-Remaining;
   * a 429 took no token). Any answer, with or without them, ends the calibration.
   */
  observeAnswer(status: number, header: (name: string) => string | undefined): void {
    const limit = parseLimitHeader(header("x-ratelimit-limit"));
    if (limit && (this.capacity !== limit.capacity || this.refillPerSecond !== limit.refillPerSecond))
      this.reconfigure(limit.capacity, limit.refillPerSecond);
    this.inFlight = Math.max(0, this.inFlight - 1);
    const remaining = header("x-ratelimit-remaining");
    if (remaining !== undefined) this.observe(Number(remaining), status !== 429);
    this.calibrate();
  }

  /** A request that took a token got no answer (a network error): the calibration ends all the same. */
  unanswered(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.calibrate();
  }

  /** The others' spending rate now (tokens/s), decayed since it was last counted. */
  private othersRateAt(now: number): number {
    return decayed(this.othersRate, this.othersAt, now);
  }

  /** The rate this process refills at now (tokens/s): the server's, or its share while others spend too. */
  shareRate(): number {
    return this.rate;
  }

  /** After a 429: no request leaves before the server's Retry-After has passed. */
  pauseFor(ms: number): void {
    this.refill();
    // The server's bucket is empty: pace from nothing once the pause is over (and no further back).
    this.tokens = 0;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  private refill(): void {
    const now = this.now();
    const elapsed = Math.max(0, now - this.updatedAt) / 1000;
    // Shared, an idle process saves at most a second of its rate: a batch after a quiet spell must
    // not spend what the others' pace counts on.
    const ceiling = this.isShared ? Math.max(1, this.rate * SHARED_SAVING_SECONDS) : this.capacity;
    // Shared, a Retry-After pause saves nothing either: the others wait out theirs too, and all
    // would spend the same refill at its end.
    const paused = this.isShared ? Math.max(0, Math.min(now, this.pausedUntil) - this.updatedAt) / 1000 : 0;
    if (this.tokens < ceiling)
      this.tokens = Math.min(ceiling, this.tokens + (elapsed - paused) * this.shareRate());
    this.updatedAt = now;
  }
}

/** A rate counted at `at`, decayed to `now` (time constant `OTHERS_WINDOW_MS`). */
function decayed(rate: number, at: number, now: number): number {
  return rate * Math.exp(-Math.max(0, now - at) / OTHERS_WINDOW_MS);
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

/** `X-RateLimit-Limit: 1200, 1200;window=60` → capacity 1200, 20 tokens per second. */
export function parseLimitHeader(
  value: string | undefined,
): { capacity: number; refillPerSecond: number } | undefined {
  if (!value) return undefined;
  const entries = value.split(",").map((s) => s.trim());
  const capacity = Number.parseInt(entries[0] ?? "", 10);
  const windowed = entries
    .map((e) => /^(\d+)\s*;\s*window=(\d+)/.exec(e))
    .find((m): m is RegExpExecArray => m !== null);
  if (!Number.isFinite(capacity) || !windowed) return undefined;
  const refillPerSecond = Number(windowed[1]) / Number(windowed[2]);
  if (!(refillPerSecond > 0)) return undefined;
  return { capacity, refillPerSecond };
}
