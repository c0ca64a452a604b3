/**
 * The in-memory store: named collections of records keyed by `id`, a write journal so a failed
 * request leaves no trace (`transaction`), and the state file (atomic: temp file + rename).
 *
 * Records are deep-frozen when stored: a handler changes a record by storing a new object
 * (`collection.set({...old, name})`), never by mutating what `get` returned, so a rollback is exact.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { advancePast } from "./ids";

/** Anything with an id. */
export interface Entity {
  id: string;
}

interface JournalEntry {
  collection: Collection<Entity>;
  id: string;
  previous: Entity | undefined;
  /** The position the record had (undefined = it did not exist). */
  order: number | undefined;
}

/** Marker/version of the state file format. */
export const STATE_FORMAT = "incident-api-emulator-state";
export const STATE_VERSION = 1;

/** The state file's content. */
export interface StateFile {
  format: typeof STATE_FORMAT;
  version: number;
  saved_at: string;
  /** Collection name → records in creation order. */
  collections: Record<string, Entity[]>;
  /** Non-resource data (bootstrap token, key usage), see `Store.meta`. */
  meta: Record<string, unknown>;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/** A named set of records, in creation order. */
export class Collection<T extends Entity> {
  private readonly records = new Map<string, T>();

  constructor(
    readonly name: string,
    private readonly store: Store,
  ) {}

  get size(): number {
    return this.records.size;
  }

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  /** Every record, in creation order. */
  all(): T[] {
    return [...this.records.values()];
  }

  values(): IterableIterator<T> {
    return this.records.values();
  }

  find(predicate: (record: T) => boolean): T | undefined {
    for (const r of this.records.values()) if (predicate(r)) return r;
    return undefined;
  }

  filter(predicate: (record: T) => boolean): T[] {
    return this.all().filter(predicate);
  }

  /** Inserts or replaces (a replaced record keeps its position). The stored copy is frozen. */
  set(record: T): T {
    const stored = deepFreeze(structuredClone(record));
    this.store.journal(this as unknown as Collection<Entity>, stored.id);
    this.records.set(stored.id, stored);
    return stored;
  }

  /** Removes a record; true when it existed. */
  delete(id: string): boolean {
    if (!this.records.has(id)) return false;
    this.store.journal(this as unknown as Collection<Entity>, id);
    this.records.delete(id);
    return true;
  }

  /** @internal used by the journal and by loading. */
  restore(id: string, previous: T | undefined, order: number | undefined): void {
    if (previous === undefined) {
      this.records.delete(id);
      return;
    }
    if (order === undefined || this.records.has(id)) {
      this.records.set(id, previous);
      return;
    }
    // Re-insert a deleted record at its old position.
    const entries = [...this.records.entries()];
    entries.splice(order, 0, [id, previous]);
    this.records.clear();
    for (const [k, v] of entries) this.records.set(k, v);
  }

  /** @internal */
  positionOf(id: string): number | undefined {
    let i = 0;
    for (const k of this.records.keys()) {
      if (k === id) return i;
      i++;
    }
    return undefined;
  }

  /** @internal */
  load(records: T[]): void {
    this.records.clear();
    for (const r of records) this.records.set(r.id, deepFreeze(r));
  }

  /** @internal */
  clear(): void {
    this.records.clear();
  }
}

export interface StoreOptions {
  /** Persist here (atomic writes); loaded by `loadStateFile`. */
  stateFile?: string;
}

/** All collections, the journal and persistence. */
export class Store {
  private readonly collections = new Map<string, Collection<Entity>>();
  private currentJournal: JournalEntry[] | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Non-resource data that is persisted too (not journaled, not part of `dump()`). */
  readonly meta: Record<string, unknown> = {};
  readonly stateFile?: string;

  constructor(options: StoreOptions = {}) {
    this.stateFile = options.stateFile;
  }

  /** The collection called `name` (created empty on first use). */
  collection<T extends Entity>(name: string): Collection<T> {
    let c = this.collections.get(name);
    if (!c) {
      c = new Collection<Entity>(name, this);
      this.collections.set(name, c);
    }
    return c as unknown as Collection<T>;
  }

  /** Names of the collections that hold records. */
  collectionNames(): string[] {
    return [...this.collections.entries()].filter(([, c]) => c.size > 0).map(([n]) => n);
  }

  /** @internal records the previous value of a record about to change. */
  journal(collection: Collection<Entity>, id: string): void {
    if (!this.currentJournal) return;
    this.currentJournal.push({
      collection,
      id,
      previous: collection.get(id),
      order: collection.has(id) ? collection.positionOf(id) : undefined,
    });
  }

  /** True while a transaction is open. */
  get inTransaction(): boolean {
    return this.currentJournal !== undefined;
  }

  /**
   * Runs `fn` so that either all of its changes stay or none do: when it throws (or rejects), every
   * record it set or deleted is put back. Returns `fn`'s result and whether anything changed.
   * Transactions run one at a time (queued), so concurrent requests never interleave their writes;
   * keep `fn` quick (simulated latency belongs in a pipeline middleware, outside the transaction).
   */
  transaction<R>(fn: () => R | Promise<R>): Promise<{ result: R; changed: boolean }> {
    const run = async (): Promise<{ result: R; changed: boolean }> => {
      const journal: JournalEntry[] = [];
      this.currentJournal = journal;
      try {
        const result = await fn();
        return { result, changed: journal.length > 0 };
      } catch (error) {
        for (const e of journal.reverse()) e.collection.restore(e.id, e.previous, e.order);
        throw error;
      } finally {
        this.currentJournal = undefined;
      }
    };
    const turn = this.queue.then(run);
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Runs `fn` in the transaction queue (after every pending transaction), without a journal. */
  exclusive<R>(fn: () => R | Promise<R>): Promise<R> {
    const turn = this.queue.then(fn);
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Every collection's records (a deep copy), for tests and `GET /_emulator/state`. */
  dump(): Record<string, Entity[]> {
    const out: Record<string, Entity[]> = {};
    for (const name of [...this.collections.keys()].sort()) {
      const c = this.collections.get(name)!;
      if (c.size > 0) out[name] = structuredClone(c.all());
    }
    return out;
  }

  /** Removes every record and the meta data. */
  clear(): void {
    for (const c of this.collections.values()) c.clear();
    for (const k of Object.keys(this.meta)) delete this.meta[k];
  }

  /** The state file content for the current state. */
  toState(now: string): StateFile {
    return {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      saved_at: now,
      collections: this.dump(),
      meta: structuredClone(this.meta),
    };
  }

  /** Replaces the whole state (from a state file). */
  fromState(state: StateFile): void {
    this.clear();
    for (const [name, records] of Object.entries(state.collections)) {
      this.collection(name).load(records);
      for (const r of records) advancePast(r.id);
    }
    Object.assign(this.meta, state.meta ?? {});
  }

  /** Writes the state file atomically (temp file in the same directory, then rename). */
  persist(now: string): void {
    if (!this.stateFile) return;
    const file = path.resolve(this.stateFile);
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      writeFileSync(tmp, `${JSON.stringify(this.toState(now), null, 1)}\n`, { mode: 0o600 });
      renameSync(tmp, file);
    } catch (error) {
      try {
        if (existsSync(tmp)) unlinkSync(tmp);
      } catch {
        // nothing more to clean up
      }
      throw error;
    }
  }
}

/**
 * Reads a state file; `undefined` when it does not exist. A file that exists but is not a state
 * file of this format is an error (never silently replaced).
 */
export function readStateFile(file: string): StateFile | undefined {
  const resolved = path.resolve(file);
  if (!existsSync(resolved)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolved, "utf8"));
  } catch (error) {
    throw new Error(`emulator: state file ${resolved} is not valid JSON: ${(error as Error).message}`);
  }
  const s = parsed as Partial<StateFile>;
  if (
    !s ||
    typeof s !== "object" ||
    s.format !== STATE_FORMAT ||
    typeof s.collections !== "object" ||
    s.collections === null
  ) {
    throw new Error(`emulator: ${resolved} is not an emulator state file (format ${STATE_FORMAT})`);
  }
  if (s.version !== STATE_VERSION) {
    throw new Error(`emulator: state file ${resolved} has version ${s.version}, expected ${STATE_VERSION}`);
  }
  for (const [name, records] of Object.entries(s.collections)) {
    if (!Array.isArray(records) || records.some((r) => !r || typeof (r as Entity).id !== "string")) {
      throw new Error(
        `emulator: state file ${resolved}: collection ${name} is not a list of records with ids`,
      );
    }
  }
  return { ...(s as StateFile), meta: s.meta ?? {} };
}
