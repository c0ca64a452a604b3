/**
 * Identifiers and secrets. Resource ids are ULID-shaped (26 Crockford base32 characters, time first),
 * monotonic within a process, so creation order and id order agree (pagination `after` relies on
 * it). Tokens are opaque random strings; only their SHA-256 is stored.
 */
import { createHash, randomBytes } from "node:crypto";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(ms: number): string {
  let out = "";
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

/** A new ULID-shaped id; strictly greater than every id returned before in this process. */
export function newId(now: number = Date.now()): string {
  const time = Math.max(now, lastTime);
  if (time === lastTime) {
    // Same millisecond: increment the random part (base 32, carry to the left).
    let i = lastRandom.length - 1;
    while (i >= 0 && lastRandom[i] === 31) {
      lastRandom[i] = 0;
      i--;
    }
    if (i >= 0) lastRandom[i]! += 1;
  } else {
    lastTime = time;
    lastRandom = [...randomBytes(16)].map((b) => b % 32);
    lastRandom[0] = lastRandom[0]! % 16; // room to increment without overflow
  }
  return encodeTime(time) + lastRandom.map((d) => CROCKFORD[d]).join("");
}

/** Makes later ids sort after `id` (used after loading a state file written by a faster clock). */
export function advancePast(id: string): void {
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/.test(id)) return;
  let ms = 0;
  for (const c of id.slice(0, 10)) ms = ms * 32 + CROCKFORD.indexOf(c);
  if (ms >= lastTime) {
    lastTime = ms;
    lastRandom = [...id.slice(10)].map((c) => CROCKFORD.indexOf(c));
  }
}

/** A bearer token: `emu_` + 40 random base62-ish characters. */
export function newToken(): string {
  return `emu_${randomBytes(30).toString("base64url")}`;
}

/** The stored form of a token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A request id (returned in `X-Request-Id` and `request_id`). */
export function newRequestId(): string {
  return `req_${randomBytes(12).toString("hex")}`;
}
