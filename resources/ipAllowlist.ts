/**
 * IpAllowlist: the account's IP allowlist (`GET /v1/ip_allowlists`, `PUT /v1/ip_allowlists`; the
 * object under `ip_allowlist`). API v1 is the only version of this family, which is newer than
 * reference.json (emulator/reference-newer.json, shared/api/NEWER.md "ip_allowlists").
 *
 * A singleton: the account has exactly one allowlist, with no id, no create and no delete. The
 * resource's id is the fixed string `ip_allowlist`. Its create takes over the account's list: it
 * reads what the list holds (kept in the `previous` output) and writes the declared one; its delete
 * writes `previous` back.
 *
 * Concurrency: every PUT carries the `version` the API last answered (IPAllowlistV1.version). An
 * update sends the version of the state; when the API refuses it (409, or a 422 naming `version`:
 * the list was changed meanwhile), the list is read again and, unless it already holds what is
 * declared (our own write whose answer was lost, retried), written once more with the version read;
 * a second refusal fails naming `version`. Create and delete read the list first and send the
 * version read.
 *
 * Normalisation: the allowlist is compared as a set of `{value, label}` (order carries no meaning).
 * A value compares by its canonical spelling: an IPv6 address (alone or as the address of a CIDR
 * prefix) in its compressed lower-case form (`2001:DB8:0:0::1` = `2001:db8::1`), a prefix without
 * leading zeros; the read-back keeps the declared spelling when the API answers another one of the
 * same meaning. An address and its one-address prefix (`10.0.0.1` and `10.0.0.1/32`) are different
 * values, and a prefix's host bits are kept as written (`10.0.0.1/8` is not `10.0.0.0/8`): the API
 * stores what it is sent. An empty `label` reads as no label.
 *
 * Export: `pulumi-incident export` writes the account's allowlist, unless it is untouched (empty and
 * disabled: nothing to manage), as an `IpAllowlist` adopted by its fixed id (`adoptId:
 * "ip_allowlist"`). An adoption reads the list and writes nothing when it holds the declaration;
 * its `previous` is then the list as read (what it held when taken over), so destroying the exported
 * stack leaves the list as it is. An adoption that differs writes the declaration once, keeping the
 * list as read in `previous`. `adoptId` names no other id: any other value is refused in check.
 *
 * One program: a second `IpAllowlist` of one account is refused by the resource class, in the
 * program, at its declaration (provider/programRules.ts: the provider's check sees one resource at a
 * time, without its name), before it is registered: nothing of it reaches the engine.
 *
 * Two stacks on one account both holding an `IpAllowlist` take the list over from each other: each
 * update overwrites the other's, and a destroy writes back what that stack found, which may be the
 * other's declaration. Keep it in one stack: when an exported stack adopts the list another stack
 * manages, keep one of the two and remove the other's resource from its state without a delete
 * (`pulumi state delete`).
 */
import { isIP } from "node:net";
import { z } from "zod";
import { passedOn } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { ApiError } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { freeText } from "../provider/inputs";
import type { ApiContext, Created, Problem, Props, ResourceSpec } from "../provider/spec";

/** The fixed id of the resource: the account has one allowlist. */
export const IP_ALLOWLIST_ID = "ip_allowlist";
const PATH = "/v1/ip_allowlists";

/** True for an IPv4/IPv6 address or an `address/prefix` CIDR whose prefix length fits the address. */
export function isIpOrCidr(value: string): boolean {
  if (isIP(value) !== 0) return true;
  const match = /^([^/]+)\/(\d{1,3})$/.exec(value);
  if (!match) return false;
  const family = isIP(match[1]!);
  return family !== 0 && Number(match[2]) <= (family === 4 ? 32 : 128);
}

/** The canonical spelling of an address or prefix (compressed lower-case IPv6, prefix as a number). */
export function canonicalIpValue(value: string): string {
  const [address = "", prefix] = value.split("/");
  let canonical = address;
  if (isIP(address) === 6) {
    try {
      canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
    } catch {
      canonical = address.toLowerCase(); // a zone id (`fe80::1%eth0`) is no URL host
    }
  }
  return prefix === undefined ? canonical : `${canonical}/${Number(prefix)}`;
}

const ipAllowlistItem = z.strictObject({
  /** An IPv4 or IPv6 address (`203.0.113.7`, `2001:db8::1`) or CIDR prefix (`198.51.100.0/24`). */
  // reference-newer: IPAllowlistItemV1.value ("IP or CIDR")
  value: z
    .string()
    .refine(
      isIpOrCidr,
      "must be an IPv4 or IPv6 address or a CIDR prefix (e.g. 203.0.113.7, 198.51.100.0/24)",
    ),
  /** What the address is, shown beside it in the dashboard, e.g. `Office VPN`. */
  label: freeText().optional(),
});

/** Inputs of the IP allowlist (API v1). */
export const ipAllowlistInputs = z.strictObject({
  /**
   * The addresses and CIDR prefixes allowed to use the account (order carries no meaning; each
   * value once). Empty only while `enabled` is false.
   */
  allowlist: z.array(ipAllowlistItem),
  /**
   * Whether the allowlist is enforced. `true` with an empty `allowlist` is warned about (it may lock
   * everyone out of the account; the API decides what it means).
   */
  enabled: z.boolean(),
  /**
   * Take the account's allowlist over as it is, writing nothing when it already holds what is
   * declared (`pulumi-incident export` writes this): its `previous` is then the list as read, so a
   * destroy leaves the list as it is. The allowlist's id is always `ip_allowlist`.
   */
  adoptId: z.string().min(1).optional(),
});

export type IpAllowlistInputs = z.infer<typeof ipAllowlistInputs>;

/** What the allowlist held before this resource took it over (restored by its delete). */
export interface IpAllowlistPrevious {
  allowlist: { value: string; label?: string }[];
  enabled: boolean;
}

export interface IpAllowlistComputed {
  /** The allowlist's version, as the API last answered it (sent with the next write). */
  version: number;
  /** When the allowlist was last changed (RFC 3339), when the API says. */
  updatedAt?: string;
  /** What the account's allowlist held before this resource took it over: its delete writes it back. */
  previous: IpAllowlistPrevious;
}

/** IPAllowlistItemV1. */
export interface ApiIpAllowlistItem {
  value: string;
  label?: string;
}

/** IPAllowlistV1. */
export interface ApiIpAllowlist {
  allowlist: ApiIpAllowlistItem[];
  enabled: boolean;
  version: number;
  updated_at?: string;
}

/**
 * Cross-field rules. Refused: an `adoptId` other than the allowlist's (our own input). Warned (no
 * published rule): a value given twice (by meaning), an enabled list with nothing allowed.
 */
export function ipAllowlistProblems(args: IpAllowlistInputs): Problem[] {
  const problems: Problem[] = [];
  const seen = new Map<string, number>();
  args.allowlist.forEach((item, i) => {
    if (typeof item?.value !== "string") return;
    const key = canonicalIpValue(item.value);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push({
        path: ["allowlist", i, "value"],
        message: passedOn(`${JSON.stringify(item.value)} is already allowed by allowlist[${earlier}].value`),
        dependsOn: [["allowlist", "*", "value"]],
        severity: "warning",
      });
    } else seen.set(key, i);
  });
  if (args.adoptId !== undefined && args.adoptId !== IP_ALLOWLIST_ID) {
    problems.push({
      path: ["adoptId"],
      message: `the account has one allowlist, whose id is ${JSON.stringify(IP_ALLOWLIST_ID)}: adoptId names no other`,
    });
  }
  if (args.enabled === true && args.allowlist?.length === 0) {
    problems.push({
      path: ["enabled"],
      message: passedOn(
        "an enabled allowlist with no entries may lock everyone out of the account: add the addresses to allow, or set enabled: false",
      ),
      dependsOn: [["allowlist"]],
      severity: "warning",
    });
  }
  return problems;
}

const items = (list: readonly ApiIpAllowlistItem[]): ApiIpAllowlistItem[] =>
  list.map((item) => ({
    value: item.value,
    ...(item.label !== undefined && item.label !== "" ? { label: item.label } : {}),
  }));

/** IPAllowlistsUpdateIPAllowlistPayloadV1 without its version. */
export function ipAllowlistPayload(args: {
  allowlist: readonly ApiIpAllowlistItem[];
  enabled: boolean;
}): Props {
  return { allowlist: items(args.allowlist), enabled: args.enabled };
}

/** A list as a set of `{value, label}` by meaning: sorted canonical members. */
function memberKeys(list: readonly ApiIpAllowlistItem[]): string[] {
  return items(list)
    .map((item) => JSON.stringify([canonicalIpValue(item.value), item.label ?? null]))
    .sort();
}

/** Same members (by meaning, order aside) and the same `enabled`? */
function holds(live: ApiIpAllowlist, wanted: { allowlist: readonly ApiIpAllowlistItem[]; enabled: boolean }) {
  return (
    live.enabled === wanted.enabled &&
    JSON.stringify(memberKeys(live.allowlist)) === JSON.stringify(memberKeys(wanted.allowlist))
  );
}

export function ipAllowlistFromApi(
  live: ApiIpAllowlist,
  declared: IpAllowlistInputs | undefined,
): IpAllowlistInputs {
  const declaredItems = declared?.allowlist ?? [];
  const mapped = items(live.allowlist ?? []).map((item) => {
    // The declared spelling of a value of the same meaning (rule "write-time aliases", by meaning).
    const index = declaredItems.findIndex((d) => canonicalIpValue(d.value) === canonicalIpValue(item.value));
    const spelled = index >= 0 ? { ...item, value: declaredItems[index]!.value } : item;
    return { item: spelled, index: index >= 0 ? index : Number.MAX_SAFE_INTEGER };
  });
  // Declared members first, in the declared order; others after, as the API answers them.
  mapped.sort((a, b) => a.index - b.index);
  return { allowlist: mapped.map((m) => m.item), enabled: live.enabled };
}

/** Canonical form for diffs: the members as a set of `{value, label}` by meaning. */
export function ipAllowlistCanonical(args: IpAllowlistInputs): Props {
  return {
    ...args,
    allowlist: Array.isArray(args.allowlist)
      ? items(args.allowlist)
          .map((item) => ({ ...item, value: canonicalIpValue(item.value) }))
          .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
      : args.allowlist,
  };
}

async function showAllowlist(client: ApiClient): Promise<ApiIpAllowlist> {
  return (await client.get<{ ip_allowlist: ApiIpAllowlist }>(PATH, "show IP allowlist")).ip_allowlist;
}

/** A refusal of the version sent: 409, or a 422 naming `version`. */
function isVersionConflict(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 409 || (error.status === 422 && error.details.some((d) => d.field === "version")))
  );
}

/**
 * PUTs `wanted` with the version of `base` (read first when absent). A version refused: read again;
 * when the list already holds `wanted` (our own write, its answer lost and the PUT retried), done;
 * otherwise written once more with the version read; a second refusal fails naming `version`.
 */
export async function putAllowlist(
  ctx: ApiContext,
  wanted: { allowlist: readonly ApiIpAllowlistItem[]; enabled: boolean },
  operation: string,
  version?: number,
): Promise<ApiIpAllowlist> {
  let sent = version ?? (await showAllowlist(ctx.client)).version;
  for (let attempt = 1; ; attempt++) {
    try {
      const body = await ctx.client.put<{ ip_allowlist: ApiIpAllowlist }>(PATH, operation, {
        ...ipAllowlistPayload(wanted),
        version: sent,
      });
      return body.ip_allowlist;
    } catch (error) {
      if (!isVersionConflict(error)) throw error;
      const again = await showAllowlist(ctx.client);
      if (holds(again, wanted)) return again;
      if (attempt >= 2) {
        throw new Error(
          `IpAllowlist: ${operation}: the API refused version ${sent} twice (the allowlist is being ` +
            `changed elsewhere at the same time; it is now at version ${again.version}): run again ` +
            `once the other change is done`,
        );
      }
      sent = again.version;
    }
  }
}

const asPrevious = (live: ApiIpAllowlist): IpAllowlistPrevious => ({
  allowlist: items(live.allowlist ?? []),
  enabled: live.enabled,
});

/** What a delete restores when the state holds no `previous` (a fresh account's allowlist). */
const EMPTY: IpAllowlistPrevious = { allowlist: [], enabled: false };

/**
 * The account's IP allowlist (API v1): the addresses and CIDR prefixes allowed to use the
 * account, and whether it is enforced.
 *
 * A singleton: every account has exactly one allowlist, so declare at most one `IpAllowlist` per
 * account (two resources, in one program or in two stacks, would overwrite each other). A second
 * one in a program, for the same account, is refused where it is declared, naming the first (two
 * accounts of one program, each its own `provider`, have one each). Its id is the fixed string
 * `ip_allowlist`.
 *
 * Creating the resource takes over the account's allowlist: it reads what the list holds, keeps it
 * in the `previous` output, and writes the declared list. Deleting the resource (`pulumi destroy`,
 * or removing it from the program) writes `previous` back: the account is left with the list it
 * had before the stack managed it. With `adoptId: "ip_allowlist"` (what `pulumi-incident export`
 * writes), the list is taken over as it is: nothing is written when it holds the declaration, and
 * `previous` is the list as read, so a destroy leaves it as it is.
 *
 * Every write carries the allowlist's `version`: when it was changed elsewhere meanwhile, the list
 * is read again and written once more; a second conflict fails naming `version`.
 *
 * `enabled: true` with an empty `allowlist` is refused before anything is sent (it would lock
 * everyone out), and so is a value given twice. Order carries no meaning.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const allowlist = new incident.IpAllowlist("allowlist", {
 *   enabled: true,
 *   allowlist: [
 *     { value: "203.0.113.7", label: "Office" },
 *     { value: "198.51.100.0/24", label: "VPN" },
 *     { value: "2001:db8::/48" },
 *   ],
 * });
 * ```
 */
export const ipAllowlistSpec: ResourceSpec<IpAllowlistInputs, ApiIpAllowlist> = {
  kind: "IpAllowlist",
  title: "IP allowlist",
  schemaVersion: 1,
  inputs: ipAllowlistInputs,
  validate: ipAllowlistProblems,
  // The account has one allowlist: a second resource for it in one program would rewrite the first
  // one's list on every `up --refresh`, and the first the second's. Refused at its declaration.
  programRule: {
    reads: [],
    between: (second, first) => ({
      severity: "error",
      message:
        `IpAllowlist ${JSON.stringify(second.name)}: the account has one IP allowlist, and IpAllowlist ` +
        `${JSON.stringify(first.name)} of this program manages it already: declare it once (two resources ` +
        "would each rewrite the other's list on every `pulumi up --refresh`)",
    }),
  },
  replaceOnChanges: [],
  secretOutputs: [],
  computedOutputs: ["version", "updatedAt", "previous"],
  idOf: () => IP_ALLOWLIST_ID,
  // No list endpoint: the account's one allowlist, for `pulumi-incident export` (adopted by its
  // fixed id; its first `up` writes nothing and keeps the list as read in `previous`).
  // An untouched list (empty and off) holds nothing to manage: the export leaves it out.
  listAll: async (ctx) => {
    const live = await showAllowlist(ctx.client);
    return live.allowlist.length === 0 && !live.enabled ? [] : [live];
  },
  toInputs: ipAllowlistFromApi,
  canonical: ipAllowlistCanonical,
  // On an adoption (`adoptId`) or an import nothing is stored yet: the list as read is what it held.
  computed: (live, prior) => ({
    version: live.version,
    updatedAt: live.updated_at,
    previous: (prior?.previous as IpAllowlistPrevious | undefined) ?? asPrevious(live),
  }),
  api: {
    async create(ctx, args): Promise<Created<ApiIpAllowlist>> {
      const before = await showAllowlist(ctx.client);
      const live = await putAllowlist(ctx, args, "update IP allowlist", before.version);
      return { live, extraOutputs: { previous: asPrevious(before) } };
    },
    read: async (ctx) => await showAllowlist(ctx.client),
    async update(ctx, _id, args, olds) {
      const version = typeof olds.version === "number" ? olds.version : undefined;
      const live = await putAllowlist(ctx, args, "update IP allowlist", version);
      // Kept through every update (an adoption's olds hold the list as read before this write).
      return { live, extraOutputs: olds.previous !== undefined ? { previous: olds.previous } : {} };
    },
    async delete(ctx, _id, olds) {
      const previous = (olds.previous as IpAllowlistPrevious | undefined) ?? EMPTY;
      await putAllowlist(ctx, previous, "restore IP allowlist");
    },
    // One allowlist per account: a create whose answer was lost is found by reading it.
    recoveryKey: () => IP_ALLOWLIST_ID,
  },
};

export const ipAllowlistProvider = makeProvider(ipAllowlistSpec);
