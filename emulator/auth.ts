/**
 * API keys as stored, and bearer authentication. Tokens are stored as SHA-256 hashes; a key has one
 * current token and, after a rotation with a grace period, older tokens that expire.
 */
import { HttpError } from "./http/errors";
import { hashToken, newId, newToken } from "./ids";
import type { Caller } from "./roles";
import type { Store } from "./store";

/** The store collection of API keys. */
export const API_KEYS = "api_keys";

export interface StoredToken {
  /** SHA-256 (hex) of the token. */
  hash: string;
  /** Unix ms after which the token no longer works (absent: the current token). */
  expires_at?: number;
}

export interface StoredApiKey {
  id: string;
  name: string;
  comments?: string;
  role_names: string[];
  team_role_names: string[];
  team_ids: string[];
  created_at: string;
  token_last_issued_at: string;
  /** `ActorV1`: `{api_key: {id, name}}` or `{user: UserV1}` or `{}`. */
  creator: Record<string, unknown>;
  tokens: StoredToken[];
  /** The key `startEmulator` made from `apiKey` (its token is kept in `store.meta`). */
  bootstrap?: boolean;
}

/** Role names as a key stores them: each once, sorted. */
export function uniqueSorted(list: readonly string[]): string[] {
  return [...new Set(list)].sort();
}

/** Each once, in the order given (team ids). */
export function uniqueInOrder(list: readonly string[]): string[] {
  return [...new Set(list)];
}

/** A key to store (`storeApiKey`): the API's create payload plus what only the emulator sets. */
export interface NewKeyInput {
  name: string;
  role_names: readonly string[];
  team_role_names?: readonly string[];
  team_ids?: readonly string[];
  comments?: string;
  creator: Record<string, unknown>;
  /** Use this token instead of a generated one (the bootstrap key). */
  token?: string;
  bootstrap?: boolean;
}

/** Stores a new key (no permission checks: callers decide). Returns it and its token. */
export function storeApiKey(
  store: Store,
  input: NewKeyInput,
  nowIso: string,
): { key: StoredApiKey; token: string } {
  const token = input.token ?? newToken();
  const key: StoredApiKey = {
    id: newId(),
    name: input.name,
    ...(input.comments !== undefined ? { comments: input.comments } : {}),
    role_names: uniqueSorted(input.role_names),
    team_role_names: uniqueSorted(input.team_role_names ?? []),
    team_ids: uniqueInOrder(input.team_ids ?? []),
    created_at: nowIso,
    token_last_issued_at: nowIso,
    creator: input.creator,
    tokens: [{ hash: hashToken(token) }],
    ...(input.bootstrap ? { bootstrap: true } : {}),
  };
  return { key: store.collection<StoredApiKey>(API_KEYS).set(key), token };
}

/**
 * Makes sure the bootstrap key exists, has global access and answers to `token` (and only to it):
 * `keep` is the key to keep (its id survives a reset); a new one gets `creator`.
 */
export function ensureBootstrapKey(
  store: Store,
  token: string,
  nowIso: string,
  creator: Record<string, unknown>,
  keep?: StoredApiKey,
): void {
  const keys = store.collection<StoredApiKey>(API_KEYS);
  const existing = keep ?? keys.find((k) => k.bootstrap === true);
  if (existing) {
    keys.set({ ...existing, role_names: ["global_access"], tokens: [{ hash: hashToken(token) }] });
  } else {
    storeApiKey(
      store,
      {
        name: "Emulator bootstrap key",
        role_names: ["global_access"],
        creator,
        token,
        bootstrap: true,
        comments: "Made by the emulator at start (global access)",
      },
      nowIso,
    );
  }
  store.meta.bootstrap_token = token;
}

/** The bootstrap key, if there is one. */
export function bootstrapKey(store: Store): StoredApiKey | undefined {
  return store.collection<StoredApiKey>(API_KEYS).find((k) => k.bootstrap === true);
}

/** The caller view of a key. */
export function callerOf(key: StoredApiKey): Caller {
  return {
    keyId: key.id,
    name: key.name,
    roles: new Set(key.role_names),
    teamRoles: new Set(key.team_role_names),
    teamIds: [...key.team_ids],
  };
}

/** The key a token belongs to, if the token is valid at `now` (ms). */
export function findKeyByToken(store: Store, token: string, now: number): StoredApiKey | undefined {
  const hash = hashToken(token);
  for (const key of store.collection<StoredApiKey>(API_KEYS).values()) {
    for (const t of key.tokens) {
      if (t.hash === hash && (t.expires_at === undefined || now < t.expires_at)) return key;
    }
  }
  return undefined;
}

/**
 * Checks the Authorization header: 401 `missing_authorization_material` without one, 401
 * `authentication_error` for anything that is not a valid bearer token of a key.
 */
export function authenticate(store: Store, header: string | undefined, now: number): StoredApiKey {
  const challenge = { "WWW-Authenticate": 'Bearer realm="incident-api-emulator"' };
  if (header === undefined || header.trim() === "") {
    throw new HttpError(
      401,
      [
        {
          code: "missing_authorization_material",
          message: "No API key was provided: send it as an Authorization: Bearer <API key> header",
        },
      ],
      { headers: challenge },
    );
  }
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) {
    throw new HttpError(
      401,
      [
        {
          code: "authentication_error",
          message: "The Authorization header must have the form: Bearer <API key>",
        },
      ],
      { headers: challenge },
    );
  }
  const key = findKeyByToken(store, m[1]!, now);
  if (!key) {
    throw new HttpError(
      401,
      [{ code: "authentication_error", message: "The API key is not valid (unknown, deleted or expired)" }],
      { headers: challenge },
    );
  }
  return key;
}
