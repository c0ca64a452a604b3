/**
 * Pending creates: a create whose provider process dies (killed, crashed, the machine lost) while
 * the API holds it leaves an object upstream that no state knows of. The engine forgets such a
 * create, and the API offers nothing to tell our object from another of the same name. So before
 * each create the provider writes a small entry (kind, what identifies the object, a hash of the
 * inputs, when, which process), and removes it as soon as the create's outcome is known: the API
 * answered (made, or refused), or a create whose answer was lost was found or known not to exist.
 * Nothing is left for a timer to clear: the engine ends the provider's process with SIGKILL right
 * after every run, so no later cleanup would ever run.
 *
 * The next create of the same object that finds an entry left by a process that no longer runs
 * takes the object over (`findCreated`) instead of making a second one. Entries that an earlier
 * release kept after the answer (with the new object's id) are settled: that create was answered.
 * Entries older than a day are dropped. What this cannot cover: a process killed in the instant
 * between the API's answer and the host's reply to the engine.
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
  /** The ids of the kind's objects before the create was sent (ResourceSpec `existingIds`), if needed. */
  existedBefore?: string[];
  /** Written by releases up to 0.1.0 once the API answered: such an entry is settled. */
  createdId?: string;
}

/** Entries older than this are forgotten. */
const MAX_AGE_MS = 24 * 3600 * 1000;

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
    const left = this.all().filter(({ entry }) => entry.pid !== process.pid && !alive(entry.pid));
    // An answered create (an entry an earlier release kept with the object's id) is settled.
    this.clear(left.filter(({ entry }) => entry.createdId !== undefined));
    return left.filter(({ entry }) => entry.createdId === undefined);
  }

  /**
   * Records a create about to be sent (with the ids of the kind's objects before it, when the kind
   * needs them to find it); `settled()` removes the record once its outcome is known.
   */
  begin(existedBefore?: string[]): { settled(): void } {
    const file = path.join(this.dir, `${this.prefix}${randomUUID()}.json`);
    const entry: PendingCreate = {
      kind: this.kind,
      key: this.key,
      startedAt: Date.now(),
      pid: process.pid,
      fingerprint: this.fingerprint,
      ...(existedBefore ? { existedBefore } : {}),
    };
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify(entry));
    } catch {
      // Without a journal the create still works; only a crash in its middle goes unrecovered.
      return { settled: () => undefined };
    }
    return { settled: () => remove(file) };
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
