/**
 * The emulator's clock: timestamps, rate-limit refill and API key grace periods all read it, so tests
 * can pass their own time source (`EmulatorOptions.now`) or move time forward (`advance`, or
 * `POST /_emulator/clock`) instead of sleeping.
 */
export class Clock {
  private offsetMs = 0;

  constructor(private readonly base: () => number = Date.now) {}

  /** Milliseconds since the epoch. */
  now(): number {
    return this.base() + this.offsetMs;
  }

  /** RFC 3339 (UTC, millisecond precision). */
  iso(ms: number = this.now()): string {
    return new Date(ms).toISOString();
  }

  /** Moves time forward (or back, with a negative value). */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** How far `advance` has moved time. */
  get offset(): number {
    return this.offsetMs;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
