/**
 * Several provider processes applying stacks with one API key, simulated in process and in virtual
 * time (no test waits): each process a `TokenBucket` of its own (provider/rateLimiter.ts, as each
 * provider host has) with up to `parallel` requests in flight, all against one bucket of the
 * emulator (emulator/http/rateLimit.ts), each answer read as `ApiClient` reads it
 * (`observeAnswer`; a 429 pauses the process for its Retry-After and is tried again, up to the
 * client's default of 7 attempts).
 */
import { RateLimiter } from "../../emulator";
import { parseRetryAfter, TokenBucket } from "../../provider/rateLimiter";

export interface SharedKeyOptions {
  /** Processes sharing the key. */
  processes: number;
  /** Requests each process makes. */
  requests: number;
  /** Requests in flight at once per process (the engine's parallel steps). */
  parallel?: number;
  burst: number;
  refillPerSecond: number;
  /** Round trip of one request (ms). */
  roundTripMs?: number;
  /** Time a worker spends between two requests (ms): the engine's own work between steps. */
  thinkMs?: number;
  /** When each process starts (ms after the first); default: all at once. */
  startAtMs?: (process: number) => number;
  /** Attempts after which a request fails (ApiClient: maxRetries 6 + 1). */
  maxAttempts?: number;
  /** Told of every answer (to look closer at a run). */
  onAnswer?: (answer: {
    at: number;
    process: number;
    status: number;
    remaining: number;
    rate: number;
  }) => void;
}

export interface ProcessFigures {
  requests: number;
  throttled: number;
  maxAttempts: number;
  failures: number;
  /** When its last request was answered (ms). */
  endedAt: number;
}

export interface SharedKeyRun {
  processes: ProcessFigures[];
  /** When the last request of all was answered (ms). */
  wallMs: number;
  /** What the server's bucket allows for the requests that took a token: max(0, (n − burst) ÷ refill). */
  boundMs: number;
  throttled: number;
  failures: number;
}

/** Virtual time: `sleep` registers a timer; `run` moves the clock from timer to timer once everything runnable has run. */
class VirtualTime {
  now = 0;
  private seq = 0;
  private timers: { at: number; seq: number; resolve: () => void }[] = [];

  readonly sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      this.timers.push({ at: this.now + Math.max(0, ms), seq: this.seq++, resolve });
    });

  async run(done: () => boolean): Promise<void> {
    for (;;) {
      // Pure promise chains only (no I/O, no real timers): one macrotask turn runs them all.
      await new Promise((r) => setImmediate(r));
      if (done()) return;
      if (this.timers.length === 0) throw new Error("simulation stalled: nothing runnable, no timer");
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const at = this.timers[0]!.at;
      this.now = Math.max(this.now, at);
      while (this.timers.length > 0 && this.timers[0]!.at <= at) this.timers.shift()!.resolve();
    }
  }
}

export async function runSharedKey(o: SharedKeyOptions): Promise<SharedKeyRun> {
  const time = new VirtualTime();
  const now = () => time.now;
  const server = new RateLimiter({ burst: o.burst, refillPerSecond: o.refillPerSecond, now });
  const parallel = o.parallel ?? 8;
  const half = (o.roundTripMs ?? 2) / 2;
  const maxAttempts = o.maxAttempts ?? 7;
  let running = 0;
  const processes = Array.from({ length: o.processes }, (_, p) => {
    const figures: ProcessFigures = { requests: 0, throttled: 0, maxAttempts: 0, failures: 0, endedAt: 0 };
    // A provider process starts with the client's defaults; the server's headers correct them.
    const bucket = new TokenBucket({ capacity: 1200, refillPerSecond: 20, now });
    let left = o.requests;
    const worker = async (): Promise<void> => {
      while (left > 0) {
        left--;
        if (o.thinkMs) await time.sleep(o.thinkMs);
        for (let attempt = 1; ; attempt++) {
          await bucket.take(time.sleep);
          await time.sleep(half);
          const answer = server.take("the key");
          await time.sleep(half);
          const status = answer.allowed ? 200 : 429;
          const headers = new Map(Object.entries(answer.headers).map(([k, v]) => [k.toLowerCase(), v]));
          bucket.observeAnswer(status, (name) => headers.get(name));
          o.onAnswer?.({
            at: time.now,
            process: p,
            status,
            remaining: Number(headers.get("x-ratelimit-remaining")),
            rate: bucket.shareRate(),
          });
          figures.requests++;
          figures.endedAt = time.now;
          figures.maxAttempts = Math.max(figures.maxAttempts, attempt);
          if (answer.allowed) break;
          figures.throttled++;
          if (attempt >= maxAttempts) {
            figures.failures++;
            break;
          }
          bucket.pauseFor(parseRetryAfter(headers.get("retry-after")) ?? 1000);
        }
      }
    };
    const start = async (): Promise<void> => {
      running++;
      await time.sleep(o.startAtMs?.(p) ?? 0);
      await Promise.all(Array.from({ length: parallel }, worker));
      running--;
    };
    return { figures, done: start() };
  });
  await time.run(() => running === 0);
  await Promise.all(processes.map((p) => p.done));
  const figures = processes.map((p) => p.figures);
  const counted = figures.reduce((n, f) => n + f.requests - f.throttled, 0);
  return {
    processes: figures,
    wallMs: Math.max(...figures.map((f) => f.endedAt)),
    boundMs: (Math.max(0, counted - o.burst) / o.refillPerSecond) * 1000,
    throttled: figures.reduce((n, f) => n + f.throttled, 0),
    failures: figures.reduce((n, f) => n + f.failures, 0),
  };
}
