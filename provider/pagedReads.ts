/**
 * Reads by page. Where a kind's list endpoint answers the same objects its show endpoint does
 * (`ResourceSpec.list`), a refresh of many objects of that kind walks the list once and serves
 * every read from the pages, instead of one GET per object: 2,000 objects at page size 250 cost
 * 8 requests, not 2,000 (≈ 41 s at the API's 20 requests/s).
 *
 * - Per run: the cache lives in the provider host's process (one per `pulumi up` / `refresh`), is
 *   switched on by the host's `configure` call (`enablePagedReads`), and is keyed by account (base
 *   URL + key), list path and the list's scope query (e.g. the catalog type of catalog entries).
 * - The first read of a key goes to the show endpoint as before (a stack with one object of a kind
 *   never pays for a walk); the second starts the walk, which every later read shares: at most
 *   ⌈objects ÷ page size⌉ + 1 requests per kind and scope.
 * - An object the pages do not hold (made after the walk, or archived) is read with a GET, so a
 *   miss costs what it always did and a deletion is still seen.
 * - Any write to the kind (create, update, delete, successful or not) drops its cached pages and
 *   those of the lists it declares it changes (`ResourceSpec.writesLists`); the next read starts over.
 * - A walk that fails (e.g. a key that may show but not list) is not retried in this run: reads
 *   fall back to GETs.
 */
import type { ApiClient } from "./client";
import type { ApiContext, Props } from "./spec";

/** How a kind's list endpoint serves its reads: set on a spec only when list items equal show bodies. */
export interface ListSpec<Live = any> {
  /**
   * The list path, e.g. `/v2/alert_attributes`. A `{name}` in it is filled from the scope (that key
   * is then left out of the query), e.g. `/v2/schedules/{schedule_id}/sync_rules`: the cached pages
   * are still keyed, and dropped by a write, under the path as written here.
   */
  path: string;
  /** The response key of the items, e.g. `alert_attributes`. */
  itemsKey: string;
  /** Human name of the operation for errors, e.g. "list alert attributes". */
  operation: string;
  /** Page size of a paginated list (`pagination_meta.after`); undefined: one request answers everything. */
  pageSize?: number;
  /** The query a read needs from the object's state (a parent id); undefined: this read cannot use the list. */
  scope?(prior: Props | undefined): Record<string, string> | undefined;
  /** The item holding object `id` (default: the item whose `id` is `id`). */
  find?(items: readonly any[], id: string, prior: Props | undefined): any | undefined;
  /** The live object from its list item (default: the item itself). */
  toLive?(item: any, ctx: ApiContext, prior: Props | undefined): Live | Promise<Live>;
}

interface Walk {
  items?: Promise<any[]>;
  reads: number;
  failed: boolean;
}

let enabled = false;
const walks = new Map<string, Walk>();

/** Switches reads by page on in this process (the provider host calls it through `configure`). */
export function enablePagedReads(on = true): void {
  enabled = on;
  if (!on) walks.clear();
}

export function pagedReadsEnabled(): boolean {
  return enabled;
}

const keyOf = (client: ApiClient, path: string, scope: Record<string, string>) =>
  `${client.account}\n${path}\n${JSON.stringify(Object.entries(scope).sort())}`;

/** The request path and query of a list for a scope: `{name}` in the path is filled from the scope. */
function resolvePath(
  path: string,
  scope: Record<string, string>,
): { path: string; query: Record<string, string> } {
  const inPath = new Set<string>();
  const resolved = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = scope[name];
    if (value === undefined) throw new Error(`list ${path}: no ${name} in the scope`);
    inPath.add(name);
    return encodeURIComponent(value);
  });
  return { path: resolved, query: Object.fromEntries(Object.entries(scope).filter(([k]) => !inPath.has(k))) };
}

/** Every item of a list (all pages), for a scope. */
export async function walkList<T = any>(
  client: ApiClient,
  list: Pick<ListSpec, "path" | "itemsKey" | "operation" | "pageSize">,
  scope: Record<string, string> = {},
): Promise<T[]> {
  const { path, query } = resolvePath(list.path, scope);
  if (list.pageSize !== undefined) {
    return client.listAll<T>(path, list.itemsKey, list.operation, query, list.pageSize);
  }
  const body = await client.get<Record<string, T[]>>(path, list.operation, query);
  return body[list.itemsKey] ?? [];
}

/**
 * The list's items from this run's cache, walking the pages once (when reads by page are on;
 * otherwise a fresh walk every call). For lookups and resources that need a whole list.
 */
export function cachedList<T = any>(
  client: ApiClient,
  list: Pick<ListSpec, "path" | "itemsKey" | "operation" | "pageSize">,
  scope: Record<string, string> = {},
): Promise<T[]> {
  if (!enabled) return walkList<T>(client, list, scope);
  const key = keyOf(client, list.path, scope);
  const walk = walks.get(key) ?? { reads: 0, failed: false };
  walks.set(key, walk);
  walk.reads++;
  if (!walk.items) {
    walk.items = walkList<T>(client, list, scope);
    walk.items.catch(() => {
      if (walks.get(key) === walk) walks.delete(key);
    });
  }
  return walk.items as Promise<T[]>;
}

/**
 * Answers `{ live }` when the cached pages serve this read (`live` undefined never: a miss answers
 * undefined and the caller reads with a GET).
 */
export async function readFromPages<Live>(
  list: ListSpec<Live>,
  ctx: ApiContext,
  id: string,
  prior: Props | undefined,
): Promise<{ live: Live } | undefined> {
  if (!enabled) return undefined;
  const scope = list.scope ? list.scope(prior) : {};
  if (scope === undefined) return undefined;
  const key = keyOf(ctx.client, list.path, scope);
  let walk = walks.get(key);
  if (!walk) {
    walk = { reads: 0, failed: false };
    walks.set(key, walk);
  }
  if (walk.failed) return undefined;
  walk.reads++;
  // The first read of a key is a plain GET: one object of a kind never costs a walk.
  if (!walk.items && walk.reads === 1) return undefined;
  if (!walk.items) walk.items = walkList(ctx.client, list, scope);
  let items: any[];
  try {
    items = await walk.items;
  } catch {
    walk.failed = true;
    walk.items = undefined;
    return undefined;
  }
  const item = list.find ? list.find(items, id, prior) : items.find((i) => i?.id === id);
  if (item === undefined) return undefined;
  return { live: list.toLive ? await list.toLive(item, ctx, prior) : (item as Live) };
}

/** Drops the cached pages of these list paths (every scope) for this account: a write changed them. */
export function invalidateLists(client: ApiClient, paths: readonly string[]): void {
  if (walks.size === 0) return;
  const prefixes = paths.map((p) => `${client.account}\n${p}\n`);
  for (const key of [...walks.keys()]) if (prefixes.some((p) => key.startsWith(p))) walks.delete(key);
}

/**
 * Every object of a kind in the account, as its read answers it (for `pulumi-incident export`): the
 * spec's own `listAll`, else its `list` walked whole when that needs no scope; undefined when the
 * kind cannot be listed.
 */
export async function listEveryObject<Live>(
  spec: { list?: ListSpec<Live>; listAll?(ctx: ApiContext): Promise<Live[]> },
  ctx: ApiContext,
): Promise<Live[] | undefined> {
  if (spec.listAll) return spec.listAll(ctx);
  const list = spec.list;
  if (!list || list.scope) return undefined;
  const items = await walkList(ctx.client, list);
  return Promise.all(items.map((item) => (list.toLive ? list.toLive(item, ctx, undefined) : (item as Live))));
}

/** Reads each id with at most `concurrency` reads at once (the client still keeps to the rate limit). */
export async function readEach<T>(
  ids: readonly string[],
  read: (id: string) => Promise<T | undefined>,
  concurrency = 4,
): Promise<T[]> {
  const out: (T | undefined)[] = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const at = next++;
      out[at] = await read(ids[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
  return out.filter((x): x is T => x !== undefined);
}
