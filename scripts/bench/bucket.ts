/**
 * The server's bucket as the bench reasons about it: the bound a number of requests costs, and how
 * long until the emulator's bucket is full again (each phase starts with a full one, as the bound
 * assumes).
 */
import type { RunningEmulator } from "../../emulator";

/** The bound of `requests` against one bucket (seconds): the burst is free, the rest at the refill rate, plus one round trip. */
export function rateBound(requests: number, burst: number, refill: number, rttMs: number): number {
  return requests === 0 ? 0 : Math.max(0, (requests - burst) / refill) + rttMs / 1000;
}

/**
 * Milliseconds until the emulator's bucket of its bootstrap key is full again, replayed from its
 * request log (every answered request but a 429 took a token; the bucket refills continuously).
 */
export function untilFullMs(
  emulator: RunningEmulator,
  burst: number,
  refill: number,
  now = Date.now(),
): number {
  let tokens = burst;
  let at: number | undefined;
  for (const r of emulator.requests) {
    const t = Date.parse(r.time);
    if (at !== undefined) tokens = Math.min(burst, tokens + ((t - at) / 1000) * refill);
    at = t;
    if (r.status !== 429) tokens = Math.max(0, tokens - 1);
  }
  if (at !== undefined) tokens = Math.min(burst, tokens + ((now - at) / 1000) * refill);
  return Math.ceil(((burst - tokens) / refill) * 1000);
}

/** Waits until the emulator's bucket is full again (plus half a second). */
export function untilFull(emulator: RunningEmulator, burst: number, refill: number): Promise<void> {
  return new Promise((r) => setTimeout(r, untilFullMs(emulator, burst, refill) + 500));
}
