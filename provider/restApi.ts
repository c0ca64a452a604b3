/**
 * The API calls of a kind the API serves as one REST collection: create is a POST to the
 * collection, read, update and delete a GET, PUT and DELETE of `<collection>/<id>`, and every
 * answer holds the object under one key. Written once; a kind whose calls differ in one place
 * spreads these and replaces that one (`{ ...restApi(...), read(ctx, id) { ... } }`).
 */
import type { ApiContext, Created, Props, ResourceSpec } from "./spec";

export interface RestCollection<Args> {
  /** The collection's path, e.g. `/v2/announcement_rules`. */
  collection: string;
  /** The key of the object in every answer, e.g. `announcement_rule`. */
  key: string;
  /** What the operations are called in errors: `create <noun>`, `show <noun>`, ... */
  noun: string;
  /** The create and update payload. */
  payload(args: Args): Props;
}

/** The path of one object of the collection. */
export function itemPath(collection: string, id: string): string {
  return `${collection}/${encodeURIComponent(id)}`;
}

export function restApi<Args extends Props, Live>(
  rest: RestCollection<Args>,
): Pick<ResourceSpec<Args, Live>["api"], "create" | "read" | "update" | "delete"> {
  const { collection, key, noun } = rest;
  return {
    async create(ctx: ApiContext, args: Args): Promise<Created<Live>> {
      const body = await ctx.client.post<Record<string, Live>>(
        collection,
        `create ${noun}`,
        rest.payload(args),
      );
      return { live: body[key]! };
    },
    read: async (ctx: ApiContext, id: string) =>
      (await ctx.client.get<Record<string, Live>>(itemPath(collection, id), `show ${noun}`))[key],
    async update(ctx: ApiContext, id: string, args: Args): Promise<Created<Live>> {
      const body = await ctx.client.put<Record<string, Live>>(
        itemPath(collection, id),
        `update ${noun}`,
        rest.payload(args),
      );
      return { live: body[key]! };
    },
    delete: (ctx: ApiContext, id: string) => ctx.client.delete(itemPath(collection, id), `delete ${noun}`),
  };
}

/**
 * The newest object (by `created_at`) that `matches` accepts. Where names are not unique, the object
 * an interrupted create made is the newest one of its name: `findCreated` recovers it with this.
 */
export function newestMatching<T extends { created_at: string }>(
  all: readonly T[],
  matches: (item: T) => boolean,
): T | undefined {
  return all
    .filter(matches)
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
    .pop();
}
