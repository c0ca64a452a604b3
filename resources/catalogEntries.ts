/**
 * CatalogEntries: every entry of one catalog type, owned by one resource and keyed by external id
 * (API v3: `GET/POST /v3/catalog_entries`, `DELETE /v3/catalog_entries/{id}`,
 * `POST /v3/catalog_entries/actions/bulk_update`).
 *
 * Creates through POST (the API has no bulk create; a POST with an existing external id updates that
 * entry, so a repeated create never duplicates), changes through `bulk_update` (≤ 250 entries per
 * request, each request atomic), reads through the paginated list (250 per page), deletes (archives)
 * what is no longer declared, and so scales to the API's 50,000 entries per type: a change to every
 * one of 10,000 entries is 40 requests, a refresh 40. An update works from the stored state without
 * reading first. A create or update that fails part-way keeps what it did: the next run goes on. A
 * create refuses a type that already has entries (they are taken over only with `adoptId`); an
 * update that finds the state behind the account (an entry deleted in the dashboard) starts again
 * from the type's entries.
 *
 * ### Normalisation rules (read-back that differs in form is not drift)
 *
 * As CatalogEntry's: **no rank is rank 0**, **aliases are a set**, **label when no literal**.
 */
import { z } from "zod";
import { warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { ApiError } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { idText } from "../provider/inputs";
import { canonicalJson, keepDeclaredSet, omittedWhenEmpty } from "../provider/normalise";
import { cachedList } from "../provider/pagedReads";
import {
  type ApiContext,
  PartialCreateError,
  type Problem,
  type Props,
  type ResourceSpec,
} from "../provider/spec";
import {
  type ApiCatalogEntry,
  attributeValuesPayload,
  BULK_UPDATE_LIMIT,
  CATALOG_ENTRIES_PATH,
  canonicalEntry,
  catalogEntryPayload,
  type DeclaredEntry,
  ENTRIES_LIST,
  entryFromApi,
  entryPath,
  entrySchema,
  MAX_ENTRIES_PER_TYPE,
  managedAttributesField,
  onlyManaged,
  unmanagedValueProblems,
} from "./catalogEntry";

/** Key of an entry without an external id (only ever read: declared entries are keyed by external id). */
const UNKEYED = "id:";

/** Inputs of all the entries of one catalog type (API v3). */
export const catalogEntriesInputs = z.strictObject({
  /**
   * Id of the catalog type whose entries this resource owns: entries of the type that are not
   * declared here are deleted (archived). Changing it replaces the resource.
   */
  catalogTypeId: idText(),
  /**
   * Every entry of the type, by external id (your own id for the entry, unique within the type).
   * At most 50,000 (the API's limit per type).
   */
  entries: z
    .record(
      z
        .string()
        .superRefine(warnUnless((k: string) => k !== "", "is an empty external id"))
        // Our model: keys with this prefix stand for entries that have no external id.
        .refine((k) => !k.startsWith(UNKEYED), `external ids must not start with "${UNKEYED}"`),
      entrySchema,
    )
    // reference: catalog_entries ("Max 50,000 entries per type")
    .refine(
      (e) => Object.keys(e).length <= MAX_ENTRIES_PER_TYPE,
      `at most ${MAX_ENTRIES_PER_TYPE} entries per type`,
    ),
  /**
   * Attribute ids this resource manages in every entry (partial ownership): only their values are
   * written, read back and compared; every other attribute keeps whatever the dashboard or another
   * tool writes. Left out: every attribute is managed, and one without a declared value is cleared.
   */
  managedAttributes: managedAttributesField,
  /** Id of the catalog type whose existing entries to take over (same as `catalogTypeId`). */
  adoptId: z.string().min(1).optional(),
});

export type CatalogEntriesInputs = z.infer<typeof catalogEntriesInputs>;
/** Outputs beyond the inputs. */
export type CatalogEntriesComputed = {
  /** The entry id of each declared entry, by external id. */
  entryIds: Record<string, string>;
};

/** The entries of a type: each with its id, keyed by external id (or `id:<entry id>` when it has none). */
export interface LiveCatalogEntries {
  catalogTypeId: string;
  entries: Record<string, { id: string } & DeclaredEntry>;
}

const keyOf = (e: ApiCatalogEntry) => e.external_id ?? `${UNKEYED}${e.id}`;

/** The entries of a type as this resource reads them, from the API's entries (`pulumi-incident export` too). */
export function liveFromApi(typeId: string, list: ApiCatalogEntry[]): LiveCatalogEntries {
  const entries: LiveCatalogEntries["entries"] = {};
  // The rank as answered (0 included): whether 0 means "no rank" depends on the declaration, which
  // toInputs knows (rule "no rank is rank 0"); an entry declared with rank 0 keeps it.
  for (const e of list) entries[keyOf(e)] = { id: e.id, ...entryFromApi(e, undefined), rank: e.rank };
  return { catalogTypeId: typeId, entries };
}

/** PartialEntryPayloadV3: every field sent, so the entry ends as declared (an omitted rank would be cleared anyway). */
function partialEntryPayload(entryId: string, externalId: string, e: DeclaredEntry): Props {
  return {
    entry_id: entryId,
    name: e.name,
    external_id: externalId,
    aliases: e.aliases ?? [],
    ...(e.rank !== undefined ? { rank: e.rank } : {}),
    attribute_values: attributeValuesPayload(e.attributeValues),
  };
}

/** Runs `work` over `items` with at most `width` in flight (the client's token bucket paces them). */
async function inParallel<T>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (next < items.length && failure === undefined) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  if (failure !== undefined) throw failure;
}

/** How many creates and deletes are in flight at once: enough to keep the rate limit busy. */
const WRITE_WIDTH = 32;
/** How many bulk_update requests are in flight at once. */
const BULK_WIDTH = 4;

/**
 * Brings the type's entries from `current` to `declared`: POST for new ones (upsert by external id),
 * bulk_update in batches of 250 for changed ones, DELETE for those no longer declared. Answers the
 * entries as they now are; on a failure, throws with what was done so far (`PartialCreateError.live`).
 */
async function converge(
  ctx: ApiContext,
  typeId: string,
  current: LiveCatalogEntries["entries"],
  declared: CatalogEntriesInputs["entries"],
  managed?: readonly string[],
): Promise<LiveCatalogEntries> {
  const result: LiveCatalogEntries["entries"] = { ...current };
  const creates: string[] = [];
  const changes: string[] = [];
  for (const [key, entry] of Object.entries(declared)) {
    const now = current[key];
    if (!now) creates.push(key);
    else {
      const managedNow = { ...now, attributeValues: onlyManaged(now.attributeValues, managed) };
      if (canonicalJson(canonicalEntry(managedNow)) !== canonicalJson(canonicalEntry(entry)))
        changes.push(key);
    }
  }
  const deletes = Object.keys(current).filter((key) => !(key in declared));
  try {
    await inParallel(deletes, WRITE_WIDTH, async (key) => {
      try {
        await ctx.client.delete(entryPath(current[key]!.id), "archive catalog entry");
      } catch (error) {
        if (!(error instanceof ApiError && error.isNotFound)) throw error;
      }
      delete result[key];
    });
    const batches: string[][] = [];
    for (let i = 0; i < changes.length; i += BULK_UPDATE_LIMIT)
      batches.push(changes.slice(i, i + BULK_UPDATE_LIMIT));
    await inParallel(batches, BULK_WIDTH, async (batch) => {
      // Sets the declared values: sent twice, it does no harm.
      await ctx.client.post(
        `${CATALOG_ENTRIES_PATH}/actions/bulk_update`,
        "update catalog entries",
        {
          catalog_type_id: typeId,
          entries: batch.map((key) => partialEntryPayload(current[key]!.id, key, declared[key]!)),
          // Partial ownership: the other attributes keep what they hold.
          ...(managed !== undefined ? { update_attributes: managed } : {}),
        },
        { repeatable: true },
      );
      // Atomic: the whole batch is as declared.
      for (const key of batch) result[key] = { id: current[key]!.id, ...declared[key]! };
    });
    await inParallel(creates, WRITE_WIDTH, async (key) => {
      // An upsert by external id: sent twice, it makes one entry.
      const body = await ctx.client.post<{ catalog_entry: ApiCatalogEntry }>(
        CATALOG_ENTRIES_PATH,
        "create catalog entry",
        catalogEntryPayload({ catalogTypeId: typeId, externalId: key, ...declared[key]! }, true),
        { repeatable: true },
      );
      result[key] = { id: body.catalog_entry.id, ...entryFromApi(body.catalog_entry, declared[key]) };
    });
  } catch (error) {
    throw new PartialCreateError({ catalogTypeId: typeId, entries: result }, error);
  }
  return { catalogTypeId: typeId, entries: result };
}

/** Every entry of a type, or undefined when the type does not exist (any more). */
async function readEntries(client: ApiClient, typeId: string): Promise<LiveCatalogEntries | undefined> {
  try {
    return liveFromApi(
      typeId,
      await cachedList<ApiCatalogEntry>(client, ENTRIES_LIST, { catalog_type_id: typeId }),
    );
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500 || error.status === 429) throw error;
    // The list refuses an unknown type: see whether the type is gone.
    try {
      await client.get(`/v3/catalog_types/${encodeURIComponent(typeId)}`, "show catalog type");
    } catch (show) {
      if ((show as { isNotFound?: boolean }).isNotFound) return undefined;
    }
    throw error;
  }
}

/** The current entries (id and declared form) from the stored outputs. */
function entriesFromState(olds: Props): LiveCatalogEntries["entries"] {
  const ids: Record<string, string> = olds.entryIds ?? {};
  const entries: Record<string, DeclaredEntry> = olds.entries ?? {};
  const out: LiveCatalogEntries["entries"] = {};
  for (const [key, id] of Object.entries(ids)) if (entries[key]) out[key] = { id, ...entries[key]! };
  return out;
}

/**
 * Every entry of one catalog type, owned by one resource and keyed by external id: entries of the
 * type that are not declared are deleted (archived), including ones made in the dashboard. Scales
 * to the API's 50,000 entries per type: new entries are created one request each (the API has no
 * bulk create), changes go 250 to a request (`bulk_update`, each request atomic), a refresh reads
 * 250 entries per request, and an update works from the stored state without reading first.
 *
 * Adopt a type's existing entries: set `adoptId` to the `catalogTypeId`; entries whose external id
 * is declared are taken over, the others deleted.
 *
 * @example
 * ```ts
 * declare const service: incident.CatalogType; // see CatalogType
 * const services = new incident.CatalogEntries("services", {
 *   catalogTypeId: service.id,
 *   entries: { checkout: { name: "Checkout", aliases: ["co"] }, search: { name: "Search" } },
 * });
 * export const checkoutEntryId = services.entryIds.apply((ids) => ids.checkout);
 * ```
 */
export const catalogEntriesSpec: ResourceSpec<CatalogEntriesInputs, LiveCatalogEntries> = {
  kind: "CatalogEntries",
  title: "catalog entries",
  schemaVersion: 1,
  inputs: catalogEntriesInputs,
  replaceOnChanges: ["catalogTypeId"],
  // The replacement owns another type: the old type's entries go first.
  deleteBeforeReplace: true,
  secretOutputs: [],
  computedOutputs: ["entryIds"],
  localInputs: ["managedAttributes"],
  validate(args) {
    const problems: Problem[] = Object.entries(args.entries ?? {}).flatMap(([key, entry]) =>
      unmanagedValueProblems(entry?.attributeValues, args.managedAttributes, ["entries", key]),
    );
    // Our own input (`adoptId` names the type whose entries to take over).
    if (args.adoptId !== undefined && args.adoptId !== args.catalogTypeId) {
      problems.push({
        path: ["adoptId"],
        message: "must be the catalogTypeId (the type whose entries to take over)",
        dependsOn: [["catalogTypeId"]],
      });
    }
    return problems;
  },
  canonical: (args) => ({
    ...args,
    entries: Object.fromEntries(Object.entries(args.entries ?? {}).map(([k, e]) => [k, canonicalEntry(e)])),
  }),
  idOf: (live) => live.catalogTypeId,
  partOf: "catalogTypeId",
  // `pulumi-incident export` reads the entries as CatalogEntry objects and writes a type's entries
  // as one CatalogEntries above a threshold (cli/export/catalog.ts).
  notExported:
    "read as CatalogEntry objects; a type's entries are one CatalogEntries above 50 (--catalog-entries)",
  // Its read is a walk of the type's entries (no list spec needed); its writes change that list.
  writesLists: [CATALOG_ENTRIES_PATH],
  toInputs: (live, declared) => ({
    catalogTypeId: live.catalogTypeId,
    entries: Object.fromEntries(
      Object.entries(live.entries).map(([key, { id: _id, ...e }]) => {
        const mine = declared?.entries?.[key];
        return [
          key,
          {
            ...e,
            aliases: keepDeclaredSet(omittedWhenEmpty(e.aliases, mine?.aliases), mine?.aliases),
            attributeValues: onlyManaged(e.attributeValues, declared?.managedAttributes),
            rank: e.rank === 0 && mine?.rank === undefined ? undefined : e.rank,
          },
        ];
      }),
    ),
  }),
  computed: (live) => ({
    entryIds: Object.fromEntries(Object.entries(live.entries).map(([k, e]) => [k, e.id])),
  }),
  api: {
    async create(ctx, args) {
      const current = await readEntries(ctx.client, args.catalogTypeId);
      if (!current)
        throw new Error(
          `catalogTypeId: no catalog type with id ${JSON.stringify(args.catalogTypeId)} exists`,
        );
      // This resource owns every entry of the type and deletes those it does not declare: entries
      // the type already has (made in the dashboard, or by another resource) are taken over only
      // when the user says so (adoptId), never by a create.
      const existing = Object.entries(current.entries);
      if (existing.length > 0) {
        const named = existing
          .slice(0, 3)
          .map(
            ([key, e]) =>
              `${key.startsWith(UNKEYED) ? "" : `${JSON.stringify(key)} `}(${JSON.stringify(e.name)}, id ${e.id})`,
          );
        throw new Error(
          `catalogTypeId: the catalog type already has ${existing.length} entr${existing.length === 1 ? "y" : "ies"}, ` +
            `e.g. ${named.join(", ")}; CatalogEntries owns every entry of its type and deletes those it does not declare: ` +
            `set adoptId to the catalogTypeId to take them over, or give these entries a type of their own`,
        );
      }
      return {
        live: await converge(ctx, args.catalogTypeId, current.entries, args.entries, args.managedAttributes),
      };
    },
    read: (ctx, id) => readEntries(ctx.client, id),
    async update(ctx, id, args, olds) {
      // From the state, not a fresh walk: a change to every entry costs only its bulk_update requests.
      try {
        return {
          live: await converge(ctx, id, entriesFromState(olds), args.entries, args.managedAttributes),
        };
      } catch (error) {
        const cause = error instanceof PartialCreateError ? error.cause : error;
        // The state is behind the account (an entry deleted in the dashboard since the last
        // refresh): start again from what the type holds, remaking missing entries by external id.
        if (!(cause instanceof ApiError && (cause.status === 404 || cause.status === 422))) throw cause;
        const live = await readEntries(ctx.client, id);
        if (!live) throw cause;
        try {
          return { live: await converge(ctx, id, live.entries, args.entries, args.managedAttributes) };
        } catch (again) {
          throw again instanceof PartialCreateError ? again.cause : again;
        }
      }
    },
    // A create cut off by a killed provider process (pending creates): the type holds only entries
    // this declaration names, which that create made.
    async findCreated(ctx, args) {
      const current = await readEntries(ctx.client, args.catalogTypeId);
      if (!current || Object.keys(current.entries).length === 0) return undefined;
      return Object.keys(current.entries).every((key) => key in args.entries) ? current : undefined;
    },
    async delete(ctx, id, olds) {
      try {
        await converge(ctx, id, entriesFromState(olds), {});
      } catch (error) {
        throw error instanceof PartialCreateError ? error.cause : error;
      }
    },
  },
};

export const catalogEntriesProvider = makeProvider(catalogEntriesSpec);
