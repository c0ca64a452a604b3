/**
 * Pending creates: a create whose provider process dies (killed, crashed, the machine lost) before
 * the engine has the answer leaves an object upstream that no state knows of. The engine forgets
 * such a create, and the API offers nothing to tell our object from another of the same name. So
 * before each create the provider writes a small entry (kind, what identifies the object, a hash of
 * the inputs, when, which process). When the create fails for sure, the entry is removed; when it
 * succeeds, the entry gets the new object's id, since the answer still has to reach the engine
 * (the process may die in between), and is removed `ANSWERED_KEEP_MS` later (or by the next create
 * of the same object that reads it, if the process died first). The next create of the same object that finds an entry left by a process that no longer
 * runs takes the object over instead of making a second one: by its id when the create was answered
 * with the same inputs (a create with other inputs is a replacement: the object is the old one),
 * else by looking for it (`findCreated`). Entries older than a day are dropped.
 *
 * Where: `$INCIDENT_JOURNAL_DIR`, else `~/.pulumi-incident/pending-creates`, one folder per API
 * account (a hash of the base URL and the key: no secret is written). A run on another machine
 * does not see the entries: see the README ("When a run is interrupted").
 */
import { createHash, randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const ENV_JOURNAL_DIR = "INCIDENT_JOURNAL_DIR";

export interface PendingCreate {
  kind: string;
  /** What identifies the object among its kind (its name, and what else `findCreated` matches on). */
  key: string;
  /** When the create was sent (ms since the epoch). */
  startedAt: number;
  /** The provider process that sent it. */
  pid: number;
  /** A hash of the inputs the create was sent with. */
  fingerprint: string;
  /** The new object's id, once the API answered the create. */
  createdId?: string;
}

/** Entries older than this are forgotten. */
const MAX_AGE_MS = 24 * 3600 * 1000;
/** How long an answered entry outlives its answer: ample for the answer to reach the engine. */
const ANSWERED_KEEP_MS = 10_000;

function journalDir(account: string): string {
  const root = process.env[ENV_JOURNAL_DIR] || path.join(os.homedir(), ".pulumi-incident", "pending-creates");
  return path.join(root, account);
}

/** The pending creates of one object (kind + key) of one account. */
export class PendingCreates {
  private readonly dir: string;
  /** File-name prefix of this object's entries: the kind and a hash of the key (no parsing to filter). */
  private readonly prefix: string;

  constructor(
    account: string,
    private readonly kind: string,
    private readonly key: string,
    private readonly fingerprint: string,
  ) {
    this.dir = journalDir(account);
    this.prefix = `${kind}-${createHash("sha256").update(key).digest("hex").slice(0, 16)}-`;
  }

  /** Entries left by processes that no longer run: creates whose outcome nobody saw. */
  interrupted(): { file: string; entry: PendingCreate }[] {
    return this.all().filter(({ entry }) => entry.pid !== process.pid && !alive(entry.pid));
  }

  /**
   * Records a create about to be sent. `failed()` removes the record (nothing was made);
   * `answered(id)` keeps it with the new object's id (the answer may yet be lost with the process).
   */
  begin(): { failed(): void; answered(id: string): void } {
    const file = path.join(this.dir, `${this.prefix}${randomUUID()}.json`);
    const entry: PendingCreate = {
      kind: this.kind,
      key: this.key,
      startedAt: Date.now(),
      pid: process.pid,
      fingerprint: this.fingerprint,
    };
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify(entry));
    } catch {
      // Without a journal the create still works; only a crash in its middle goes unrecovered.
      return { failed: () => undefined, answered: () => undefined };
    }
    return {
      failed: () => remove(file),
      answered: (id) => {
        write(file, { ...entry, createdId: id });
        setTimeout(() => remove(file), ANSWERED_KEEP_MS).unref();
      },
    };
  }

  /** The inputs of this create are those of the interrupted one. */
  sameInputs(entry: PendingCreate): boolean {
    return entry.fingerprint === this.fingerprint;
  }

  /** Removes entries (their outcome is now known). */
  clear(entries: { file: string }[]): void {
    for (const e of entries) remove(e.file);
  }

  private all(): { file: string; entry: PendingCreate }[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    const out: { file: string; entry: PendingCreate }[] = [];
    for (const name of names) {
      if (!name.startsWith(this.prefix) || !name.endsWith(".json")) continue;
      const file = path.join(this.dir, name);
      try {
        const entry = JSON.parse(fs.readFileSync(file, "utf8")) as PendingCreate;
        if (Date.now() - entry.startedAt > MAX_AGE_MS) remove(file);
        else if (entry.kind === this.kind && entry.key === this.key) out.push({ file, entry });
      } catch {
        // Half-written by a process killed mid-write, or removed meanwhile: not a create we know.
      }
    }
    return out;
  }
}

function write(file: string, entry: PendingCreate): void {
  try {
    // Written beside, then renamed: a reader never sees half an entry.
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(entry));
    fs.renameSync(`${file}.tmp`, file);
  } catch {
    // The entry without the id still leads the next run to look for the object.
  }
}

function remove(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Already gone.
  }
}

/** Whether a process still runs (a zombie, killed and not yet reaped by its parent, does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return true; // no /proc (not Linux): the signal check above is all there is
  }
}
