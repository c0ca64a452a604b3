/**
 * Emulator family: the IP allowlist (API v1), a singleton of the account: `GET /v1/ip_allowlists`,
 * `PUT /v1/ip_allowlists` (IPAllowlistV1 under `ip_allowlist`; no id, no create, no delete).
 *
 * Behaviour beyond the reference shapes: a fresh account holds an empty, disabled list at version 1.
 * A PUT must name the current `version` (optimistic concurrency): another version answers 409
 * conflict naming `version`, and nothing changes; a PUT that is taken bumps the version by one and
 * sets `updated_at`. Every `allowlist[].value` must be an IPv4 or IPv6 address or CIDR prefix (422
 * naming `allowlist.<i>.value`); values are stored and answered as sent (no respelling).
 */
import { BlockList, isIP } from "node:net";
import { defineFamily, operation } from "../family";
import { HttpError, throwIfProblems } from "../http/errors";
import { SETTINGS_ROLES } from "../roles";
import type { Store } from "../store";

export const IP_ALLOWLISTS = "ip_allowlists";
/** The store key of the account's one allowlist. */
const SINGLETON = "ip_allowlist";

/** `IPAllowlistItemV1`. */
export interface StoredIpAllowlistItem {
  value: string;
  label?: string;
}

/** `IPAllowlistV1` as stored, plus the store key (not rendered). */
export interface StoredIpAllowlist {
  id: string;
  allowlist: StoredIpAllowlistItem[];
  enabled: boolean;
  version: number;
  updated_at?: string;
}

const initial = (): StoredIpAllowlist => ({ id: SINGLETON, allowlist: [], enabled: false, version: 1 });

/** The account's allowlist (the initial one when the store was not seeded). */
function current(store: Store): StoredIpAllowlist {
  return store.collection<StoredIpAllowlist>(IP_ALLOWLISTS).get(SINGLETON) ?? initial();
}

function render(stored: StoredIpAllowlist): Record<string, unknown> {
  const { id: _id, ...rest } = stored;
  return rest;
}

/** True for an IPv4/IPv6 address or an `address/prefix` CIDR whose prefix fits the family. */
export function isIpOrCidr(value: string): boolean {
  if (isIP(value) !== 0) return true;
  const match = /^([^/]+)\/(\d{1,3})$/.exec(value);
  if (!match) return false;
  const family = isIP(match[1]!);
  const prefix = Number(match[2]);
  if (family === 0 || prefix > (family === 4 ? 32 : 128)) return false;
  try {
    new BlockList().addSubnet(match[1]!, prefix, family === 4 ? "ipv4" : "ipv6");
    return true;
  } catch {
    return false;
  }
}

export const ipAllowlists = defineFamily({
  name: "ip_allowlists",
  roles: SETTINGS_ROLES,
  collections: [IP_ALLOWLISTS],
  seed(store) {
    store.collection<StoredIpAllowlist>(IP_ALLOWLISTS).set(initial());
  },
  routes: [
    operation("IPAllowlistsV1ShowIPAllowlist", "read", ({ store }) => ({
      body: { ip_allowlist: render(current(store)) },
    })),
    operation("IPAllowlistsV1UpdateIPAllowlist", "write", ({ store, body, nowIso }) => {
      const items = body.allowlist as StoredIpAllowlistItem[];
      throwIfProblems(
        items.flatMap((item, i) =>
          isIpOrCidr(item.value)
            ? []
            : [{ field: `allowlist.${i}.value`, message: "must be an IP address or a CIDR prefix" }],
        ),
      );
      const now = current(store);
      if (body.version !== now.version) {
        throw new HttpError(409, [
          {
            code: "conflict",
            field: "version",
            message: `version ${body.version} is not the current version of the IP allowlist (${now.version}): it was changed meanwhile`,
          },
        ]);
      }
      const saved = store.collection<StoredIpAllowlist>(IP_ALLOWLISTS).set({
        id: SINGLETON,
        allowlist: items.map((item) => ({
          value: item.value,
          ...(item.label !== undefined ? { label: item.label } : {}),
        })),
        enabled: body.enabled,
        version: now.version + 1,
        updated_at: nowIso,
      });
      return { body: { ip_allowlist: render(saved) } };
    }),
  ],
});
