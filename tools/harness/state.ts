/**
 * The harness's state file: one JSON document per stack, like a Pulumi checkpoint. Secret values are
 * stored as `{[SIG]: SECRET_SIG, ciphertext}` (AES-256-GCM, key derived with scrypt from the
 * passphrase and a per-state salt), as the passphrase secrets manager stores them; everything else is
 * plain JSON. Written atomically (temp file + rename) after every step, so a failure never loses
 * the entries already recorded.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { HarnessState, StateEntry, StateResource } from "./types";
import { isSecret, plain, SECRET_SIG, SIG, secretKeys, type Wire, type WireMap } from "./wire";

export const DEFAULT_PASSPHRASE = "harness-demo-passphrase";
const KIND = "pulumi-harness-state";

/** One resource as the engine keeps it in memory: wire values, secrets still marked (decrypted). */
export interface ResourceState extends StateEntry {
  inputs: WireMap;
  outputs: WireMap;
  /** The provider reference (the default provider of the package). */
  provider?: string;
  created?: string;
  modified?: string;
}

export interface LoadedState {
  project?: string;
  stack?: string;
  resources: ResourceState[];
  crypter: Crypter;
}

export class Crypter {
  private readonly key: Buffer;
  constructor(
    passphrase: string,
    readonly salt: Buffer,
  ) {
    this.key = scryptSync(passphrase, salt, 32);
  }
  encrypt(text: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `v1:${nonce.toString("base64")}:${body.toString("base64")}`;
  }
  decrypt(ciphertext: string): string {
    const [version, nonce, body] = ciphertext.split(":");
    if (version !== "v1" || !nonce || !body) throw new Error("state: malformed ciphertext");
    const raw = Buffer.from(body, "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(nonce, "base64"));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    try {
      return Buffer.concat([decipher.update(raw.subarray(0, raw.length - 16)), decipher.final()]).toString(
        "utf8",
      );
    } catch {
      throw new Error("state: incorrect passphrase (cannot decrypt the state's secrets)");
    }
  }
}

function mapSecrets(v: Wire, f: (secret: Record<string, any>) => Wire): Wire {
  if (v && typeof v === "object" && !Array.isArray(v) && v[SIG] === SECRET_SIG) return f(v);
  if (Array.isArray(v)) return v.map((x) => mapSecrets(x, f));
  if (v && typeof v === "object") {
    const out: WireMap = {};
    for (const [k, x] of Object.entries(v)) out[k] = mapSecrets(x, f);
    return out;
  }
  return v;
}

const encryptValues = (v: Wire, c: Crypter): Wire =>
  mapSecrets(v, (s) => ({ [SIG]: SECRET_SIG, ciphertext: c.encrypt(JSON.stringify(s.value ?? null)) }));
const decryptValues = (v: Wire, c: Crypter): Wire =>
  mapSecrets(v, (s) =>
    "ciphertext" in s ? { [SIG]: SECRET_SIG, value: JSON.parse(c.decrypt(s.ciphertext)) } : s,
  );

const crypterCache = new Map<string, Crypter>();
function crypterFor(passphrase: string, salt: Buffer): Crypter {
  const key = `${passphrase}\n${salt.toString("base64")}`;
  let c = crypterCache.get(key);
  if (!c) {
    c = new Crypter(passphrase, salt);
    crypterCache.set(key, c);
  }
  return c;
}

export function loadState(file: string, passphrase = DEFAULT_PASSPHRASE): LoadedState {
  if (!fs.existsSync(file)) {
    return { resources: [], crypter: crypterFor(passphrase, randomBytes(16)) };
  }
  const doc = JSON.parse(fs.readFileSync(file, "utf8"));
  if (doc.kind !== KIND) throw new Error(`${file} is not a harness state file`);
  const crypter = crypterFor(passphrase, Buffer.from(doc.secretsProvider.salt, "base64"));
  if (crypter.decrypt(doc.secretsProvider.check) !== "harness") {
    throw new Error("state: incorrect passphrase");
  }
  const resources = (doc.resources as ResourceState[]).map((r) => ({
    ...r,
    inputs: decryptValues(r.inputs ?? {}, crypter),
    outputs: decryptValues(r.outputs ?? {}, crypter),
  }));
  return { project: doc.project, stack: doc.stack, resources, crypter };
}

/**
 * Writes the state file. Each resource's entry (secrets encrypted) is serialized once and reused by
 * every later snapshot until the engine replaces that entry (a `ResourceState` is never mutated once
 * it has been written: it is frozen here; a change is a new object), so a snapshot costs one
 * concatenation and one write instead of re-encrypting and re-serializing the whole stack — as the
 * engine's caching secrets manager reuses ciphertexts. The text is the same as
 * `JSON.stringify(doc, null, 2)`.
 */
const SEPARATOR = Buffer.from(",\n    ");
const TAIL = Buffer.from("\n  ]\n}\n");

export class StateWriter {
  private readonly entries = new WeakMap<ResourceState, Buffer>();
  private check?: string;
  private writes = 0;

  constructor(
    readonly file: string,
    private readonly crypter: Crypter,
  ) {}

  /** Serializes (and freezes) an entry ahead of the next write, e.g. while waiting for the API. */
  prepare(r: ResourceState): void {
    this.entry(r);
  }

  /** The entries of the last snapshot written, to skip writing an identical one. */
  private last?: { project?: string; stack?: string; resources: readonly ResourceState[] };

  /** Whether `state` has exactly the entries (the same objects, in order) of the last snapshot written. */
  unchanged(state: { project?: string; stack?: string; resources: readonly ResourceState[] }): boolean {
    const last = this.last;
    return (
      last !== undefined &&
      last.project === state.project &&
      last.stack === state.stack &&
      last.resources.length === state.resources.length &&
      last.resources.every((r, i) => r === state.resources[i])
    );
  }

  private entry(r: ResourceState): Buffer {
    let bytes = this.entries.get(r);
    if (bytes === undefined) {
      const doc = {
        ...r,
        inputs: encryptValues(r.inputs, this.crypter),
        outputs: encryptValues(r.outputs, this.crypter),
      };
      bytes = Buffer.from(JSON.stringify(doc, null, 2).replace(/\n/g, "\n    "));
      Object.freeze(r);
      this.entries.set(r, bytes);
    }
    return bytes;
  }

  /** The state document, as `JSON.stringify(doc, null, 2)` would print it, from the cached entries. */
  bytes(state: { project?: string; stack?: string; resources: readonly ResourceState[] }): Buffer {
    this.check ??= this.crypter.encrypt("harness");
    const head = JSON.stringify(
      {
        kind: KIND,
        version: 1,
        project: state.project,
        stack: state.stack,
        secretsProvider: {
          type: "passphrase",
          cipher: "aes-256-gcm",
          kdf: "scrypt",
          salt: this.crypter.salt.toString("base64"),
          check: this.check,
        },
      },
      null,
      2,
    );
    if (!state.resources.length) return Buffer.from(`${head.slice(0, -2)},\n  "resources": []\n}\n`);
    const parts: Buffer[] = [Buffer.from(`${head.slice(0, -2)},\n  "resources": [\n    `)];
    state.resources.forEach((r, i) => {
      if (i) parts.push(SEPARATOR);
      parts.push(this.entry(r));
    });
    parts.push(TAIL);
    return Buffer.concat(parts);
  }

  /** Atomic write (temp file + rename). */
  write(state: { project?: string; stack?: string; resources: readonly ResourceState[] }): void {
    const text = this.bytes(state);
    const written = { ...state, resources: [...state.resources] };
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}-${this.writes++}.tmp`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, this.file);
    this.last = written;
  }

  /** The same, without blocking the event loop during the I/O (the text is taken synchronously). */
  async writeAsync(state: {
    project?: string;
    stack?: string;
    resources: readonly ResourceState[];
  }): Promise<void> {
    const text = this.bytes(state);
    const written = { ...state, resources: [...state.resources] };
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}-${this.writes++}.tmp`;
    await fs.promises.writeFile(tmp, text);
    await fs.promises.rename(tmp, this.file);
    this.last = written;
  }
}

const PROVIDER_KEY = "__provider";

/** The decrypted view of a state file, for tests. */
/** The optional per-resource fields of the state that readState shows (the engine's names). */
export const STATE_FLAGS = [
  "additionalSecretOutputs",
  "protect",
  "retainOnDelete",
  "external",
  "initErrors",
  "delete",
  "pendingReplacement",
] as const;

export function readState(stateFile: string, passphrase = DEFAULT_PASSPHRASE): HarnessState {
  if (!fs.existsSync(stateFile)) return { resources: [], bytes: 0 };
  const bytes = fs.statSync(stateFile).size;
  const loaded = loadState(stateFile, passphrase);
  const resources = loaded.resources.map((r): StateResource => {
    const providerIn = r.inputs[PROVIDER_KEY];
    const providerOut = r.outputs[PROVIDER_KEY];
    const text = (v: Wire) => (typeof v === "string" ? v : isSecret(v) ? String(v.value) : undefined);
    const provider = text(providerOut) ?? text(providerIn);
    const view: StateResource = {
      urn: r.urn,
      type: r.type,
      name: r.name,
      custom: r.custom,
      id: r.id,
      parent: r.parent,
      inputs: plain(r.inputs),
      outputs: plain(r.outputs),
      dependencies: r.dependencies ?? [],
      propertyDependencies: r.propertyDependencies ?? {},
      secretInputs: secretKeys(r.inputs),
      secretOutputs: secretKeys(r.outputs),
    };
    if (provider !== undefined) {
      view.provider = provider;
      view.providerBytes =
        Buffer.byteLength(text(providerIn) ?? "") + Buffer.byteLength(text(providerOut) ?? "");
    }
    for (const k of STATE_FLAGS) {
      if (r[k] !== undefined) (view as any)[k] = r[k];
    }
    return view;
  });
  return { project: loaded.project, stack: loaded.stack, resources, bytes };
}
