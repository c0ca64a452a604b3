/**
 * A promise-chain mutex for writes the API must not see in parallel. The dynamic-provider host runs
 * every resource of a deployment in one Node process and calls them concurrently, so a module-level
 * lock serialises writes across all resources of the kinds that share it.
 */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private held = 0;

  /** Runs `work` once every earlier holder has finished (whether it succeeded or failed). */
  run<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    return previous.then(async () => {
      this.held++;
      try {
        return await work();
      } finally {
        this.held--;
        release();
      }
    });
  }

  /** True while some work holds the lock (for tests). */
  get locked(): boolean {
    return this.held > 0;
  }
}

const named = new Map<string, Mutex>();

/** One process-wide mutex per name (e.g. "alert-config"), shared by every resource that asks for it. */
export function namedMutex(name: string): Mutex {
  let mutex = named.get(name);
  if (!mutex) {
    mutex = new Mutex();
    named.set(name, mutex);
  }
  return mutex;
}
