/**
 * API keys as stored, and bearer authentication. Tokens are stored as SHA-256 hashes; a key has one
 * current token and, after a rotation with a grace period, older tokens that expire.
 */
import { HttpError } from "./http/errors";
import { hashToken } from "./ids";
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
