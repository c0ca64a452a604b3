/**
 * CatalogEntry: one entry of a catalog type, and CatalogEntries: every entry of a type, owned by
 * one resource (API v3: `GET/POST /v3/catalog_entries`, `GET/PUT/DELETE /v3/catalog_entries/{id}`,
 * `POST /v3/catalog_entries/actions/bulk_update`).
 *
 * - Create is an upsert: a POST with the (type, external id) of an existing entry updates it, so a
 *   create repeated after a lost answer or an interrupted run never makes a duplicate.
 * - Attribute values are keyed by attribute id (`CatalogTypeAttribute.id`); a string is a single
 *   value, a list of strings an array value. Values referring to entries of another type name
 *   them by id, external id or alias.
 * - CatalogEntries creates through POST (the API has no bulk create), changes through
 *   `bulk_update` (≤ 250 entries per request, each request atomic), reads through the paginated
 *   list (250 per page), deletes what is no longer declared, and so scales to the API's 50,000
 *   entries per type: a change to every one of 10,000 entries is 40 requests, a refresh 40.
 * - Destroying an entry archives it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ApiClient } from "../provider/client";
import { ApiError } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { defineLookup, LookupError } from "../provider/functions";
import { nameText } from "../provider/inputs";
import { canonicalJson, keepDeclaredSet, omittedWhenEmpty, uniqueSet } from "../provider/normalise";
import { cachedList } from "../provider/pagedReads";
import { IncidentResource, type ResourceArgs, type ResourceOutputs } from "../provider/resource";
import { type ApiContext, PartialCreateError, type Props, type ResourceSpec } from "../provider/spec";

// ---------- API shapes and mapping shared by both kinds ----------

interface ApiBindingValue {
  literal?: string;
  label: string;
}

/** CatalogEntryV3 (the fields this provider uses). */
export interface ApiCatalogEntry {
  id: string;
  catalog_type_id: string;
  name: string;
  external_id?: string;
  aliases: string[];
  rank: number;
  attribute_values: Record<string, { value?: ApiBindingValue; array_value?: ApiBindingValue[] }>;
}

export const CATALOG_ENTRIES_PATH = "/v3/catalog_entries";
const entryPath = (id: string) => `${CATALOG_ENTRIES_PATH}/${encodeURIComponent(id)}`;
/** The API's limits: entries per type, entries per bulk_update request. */
export const MAX_ENTRIES_PER_TYPE = 50_000;
export const BULK_UPDATE_LIMIT = 250;
/** Page size of entry lists (bulk_update's batch size too; the reference states no maximum for this list). */
export const ENTRY_PAGE_SIZE = 250;

/** CatalogV3ListEntries answers CatalogEntryV3, as show does; one type at a time. */
const ENTRIES_LIST = {
  path: CATALOG_ENTRIES_PATH,
  itemsKey: "catalog_entries",
  operation: "list catalog entries",
  pageSize: ENTRY_PAGE_SIZE,
};

/** Attribute values: attribute id → a value (string) or an array value (list of strings). */
const attributeValues = z
  .record(
    z.string().min(1, "attribute ids must not be empty"),
    z.union([z.string(), z.array(z.string())], { error: "must be a string or a list of strings" }),
  )
  .default({});
export type AttributeValues = Record<string, string | string[]>;

/** CatalogEngineParamBindingPayloadV3 per attribute. */
export function attributeValuesPayload(values: AttributeValues): Props {
  return Object.fromEntries(
    Object.entries(values).map(([id, v]) => [
      id,
      Array.isArray(v) ? { array_value: v.map((literal) => ({ literal })) } : { value: { literal: v } },
    ]),
  );
}

/** Attribute values as read: the literal of each value (its label when the API leaves the literal out). */
export function attributeValuesFromApi(values: ApiCatalogEntry["attribute_values"]): AttributeValues {
  const text = (v: ApiBindingValue) => v.literal ?? v.label;
  const out: AttributeValues = {};
  for (const [id, b] of Object.entries(values ?? {})) {
    if (b.array_value !== undefined) out[id] = b.array_value.map(text);
    else if (b.value !== undefined) out[id] = text(b.value);
  }
  return out;
}

/** The fields one entry declares (both kinds). */
const entryFields = {
  /** Human-readable name of the entry. */
  name: nameText(),
  /** Other names the entry can be referred to by (a set). */
  aliases: z.array(z.string().min(1, "must not be empty")).optional(),
  /** Position of the entry when its type is ranked. Left out: no rank (answered as 0). */
  rank: z.number().int("must be a whole number").optional(),
  /**
   * Values by attribute id (`CatalogTypeAttribute.id`): a string for a single value, a list of
   * strings for an array attribute. Values referring to entries of another type name them by id,
   * external id or alias.
   */
  attributeValues,
};

const entrySchema = z.strictObject(entryFields);
type DeclaredEntry = z.infer<typeof entrySchema>;

/** Canonical form of one entry: aliases as a set, no rank = 0, attribute values by sorted key. */
function canonicalEntry(e: DeclaredEntry): Props {
  return {
    name: e.name,
    aliases: uniqueSet(e.aliases) ?? [],
    rank: e.rank ?? 0,
    attributeValues: JSON.parse(canonicalJson(e.attributeValues ?? {})),
  };
}

/** An entry as read, in the declared spelling where the meaning is equal. */
function entryFromApi(live: ApiCatalogEntry, declared: DeclaredEntry | undefined): DeclaredEntry {
  return {
    name: live.name,
    aliases: keepDeclaredSet(omittedWhenEmpty(live.aliases, declared?.aliases), declared?.aliases),
    // Rule "no rank is rank 0": the API answers 0 for an entry written without a rank.
    rank: live.rank === 0 && declared?.rank === undefined ? undefined : live.rank,
    attributeValues: attributeValuesFromApi(live.attribute_values),
  };
}

// ---------- CatalogEntry ----------

/** Inputs of one catalog entry (API v3). */
export const catalogEntryInputs = z.strictObject({
  /** Id of the entry's catalog type. Changing it replaces the entry. */
  catalogTypeId: z.string().min(1, "must not be empty"),
  ...entryFields,
  /**
   * An id of your own for the entry, unique within its type (e.g. the service's id in your
   * inventory). A create with the external id of an existing entry takes that entry over.
   */
  externalId: z.string().min(1, "must not be empty").optional(),
  /** Id of an existing entry to take over instead of creating one. */
  adoptId: z.string().min(1).optional(),
});

export type CatalogEntryInputs = z.infer<typeof catalogEntryInputs>;
export interface CatalogEntryArgs extends ResourceArgs<z.input<typeof catalogEntryInputs>> {}
/** Outputs beyond the inputs (none: the id is the entry id). */
export type CatalogEntryComputed = {};

/** CatalogCreateEntryPayloadV3 (with `catalog_type_id`) / CatalogUpdateEntryPayloadV3. */
export function catalogEntryPayload(args: CatalogEntryInputs, create: boolean): Props {
  return {
    ...(create ? { catalog_type_id: args.catalogTypeId } : {}),
    name: args.name,
    aliases: args.aliases ?? [],
    ...(args.rank !== undefined ? { rank: args.rank } : {}),
    ...(args.externalId !== undefined ? { external_id: args.externalId } : {}),
    attribute_values: attributeValuesPayload(args.attributeValues),
  };
}

export function catalogEntryFromApi(
  live: ApiCatalogEntry,
  declared: CatalogEntryInputs | undefined,
): CatalogEntryInputs {
  return {
    catalogTypeId: live.catalog_type_id,
    externalId: live.external_id,
    ...entryFromApi(live, declared),
  };
}

async function showEntry(client: ApiClient, id: string): Promise<ApiCatalogEntry | undefined> {
  try {
    return (await client.get<{ catalog_entry: ApiCatalogEntry }>(entryPath(id), "show catalog entry"))
      .catalog_entry;
  } catch (error) {
    if ((error as { isNotFound?: boolean }).isNotFound) return undefined;
    throw error;
  }
}

/** Entries of a type matching an identifier (id, external id, alias; name when the type allows it). */
async function entriesByIdentifier(
  client: ApiClient,
  typeId: string,
  identifier: string,
): Promise<ApiCatalogEntry[]> {
  const body = await client.get<{ catalog_entries: ApiCatalogEntry[] }>(
    CATALOG_ENTRIES_PATH,
    "find catalog entry",
    {
      catalog_type_id: typeId,
      identifier,
      page_size: ENTRY_PAGE_SIZE,
    },
  );
  return body.catalog_entries ?? [];
}

export const catalogEntrySpec: ResourceSpec<CatalogEntryInputs, ApiCatalogEntry> = {
  kind: "CatalogEntry",
  title: "catalog entry",
  schemaVersion: 1,
  inputs: catalogEntryInputs,
  replaceOnChanges: ["catalogTypeId"],
  secretOutputs: [],
  computedOutputs: [],
  canonical: (args) => ({ ...args, ...canonicalEntry(args) }),
  idOf: (live) => live.id,
  list: {
    ...ENTRIES_LIST,
    scope: (prior) =>
      typeof prior?.catalogTypeId === "string" ? { catalog_type_id: prior.catalogTypeId } : undefined,
  },
  toInputs: catalogEntryFromApi,
  computed: () => ({}),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ catalog_entry: ApiCatalogEntry }>(
        CATALOG_ENTRIES_PATH,
        "create catalog entry",
        catalogEntryPayload(args, true),
      );
      return { live: body.catalog_entry };
    },
    read: (ctx, id) => showEntry(ctx.client, id),
    async update(ctx, id, args) {
      const body = await ctx.client.put<{ catalog_entry: ApiCatalogEntry }>(
        entryPath(id),
        "update catalog entry",
        catalogEntryPayload(args, false),
      );
      return { live: body.catalog_entry };
    },
    // Archives the entry.
    delete: (ctx, id) => ctx.client.delete(entryPath(id), "archive catalog entry"),
    recoveryKey: (args) => `${args.catalogTypeId}/${args.externalId ?? args.name}`,
    async findCreated(ctx, args) {
      if (args.externalId !== undefined) {
        const found = await entriesByIdentifier(ctx.client, args.catalogTypeId, args.externalId);
        return found.find((e) => e.external_id === args.externalId);
      }
      const all = await cachedList<ApiCatalogEntry>(ctx.client, ENTRIES_LIST, {
        catalog_type_id: args.catalogTypeId,
      });
      return all.find((e) => e.name === args.name && e.external_id === undefined);
    },
  },
};

export const catalogEntryProvider = makeProvider(catalogEntrySpec);

/**
 * One entry of a catalog type (API v3). To manage every entry of a type from one declaration
 * (thousands of entries, undeclared ones removed), use `CatalogEntries` instead; do not mix the two
 * on one type. Destroying it archives the entry.
 *
 * Adopt an existing entry: set `adoptId` to its id (`getCatalogEntry`), or give its `externalId`
 * (a create with the external id of an existing entry takes it over).
 */
export interface CatalogEntry extends ResourceOutputs<CatalogEntryInputs & CatalogEntryComputed> {}
export class CatalogEntry extends IncidentResource {
  constructor(name: string, args: CatalogEntryArgs, opts?: pulumi.CustomResourceOptions) {
    super(catalogEntrySpec, name, args, opts);
  }
}

// ---------- CatalogEntries ----------

/** Key of an entry without an external id (only ever read: declared entries are keyed by external id). */
const UNKEYED = "id:";

/** Inputs of all the entries of one catalog type (API v3). */
export const catalogEntriesInputs = z.strictObject({
  /**
   * Id of the catalog type whose entries this resource owns: entries of the type that are not
   * declared here are deleted (archived). Changing it replaces the resource.
   */
  catalogTypeId: z.string().min(1, "must not be empty"),
  /**
   * Every entry of the type, by external id (your own id for the entry, unique within the type).
   * At most 50,000 (the API's limit per type).
   */
  entries: z
    .record(
      z
        .string()
        .min(1, "external ids must not be empty")
        .refine((k) => !k.startsWith(UNKEYED), `external ids must not start with "${UNKEYED}"`),
      entrySchema,
    )
    .refine(
      (e) => Object.keys(e).length <= MAX_ENTRIES_PER_TYPE,
      `at most ${MAX_ENTRIES_PER_TYPE} entries per type`,
    ),
  /** Id of the catalog type whose existing entries to take over (same as `catalogTypeId`). */
  adoptId: z.string().min(1).optional(),
});

export type CatalogEntriesInputs = z.infer<typeof catalogEntriesInputs>;
export interface CatalogEntriesArgs extends ResourceArgs<z.input<typeof catalogEntriesInputs>> {}
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

function liveFromApi(typeId: string, list: ApiCatalogEntry[]): LiveCatalogEntries {
  const entries: LiveCatalogEntries["entries"] = {};
  for (const e of list) entries[keyOf(e)] = { id: e.id, ...entryFromApi(e, undefined) };
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
): Promise<LiveCatalogEntries> {
  const result: LiveCatalogEntries["entries"] = { ...current };
  const creates: string[] = [];
  const changes: string[] = [];
  for (const [key, entry] of Object.entries(declared)) {
    const now = current[key];
    if (!now) creates.push(key);
    else if (canonicalJson(canonicalEntry(now)) !== canonicalJson(canonicalEntry(entry))) changes.push(key);
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
      await ctx.client.post(`${CATALOG_ENTRIES_PATH}/actions/bulk_update`, "update catalog entries", {
        catalog_type_id: typeId,
        entries: batch.map((key) => partialEntryPayload(current[key]!.id, key, declared[key]!)),
      });
      // Atomic: the whole batch is as declared.
      for (const key of batch) result[key] = { id: current[key]!.id, ...declared[key]! };
    });
    await inParallel(creates, WRITE_WIDTH, async (key) => {
      const body = await ctx.client.post<{ catalog_entry: ApiCatalogEntry }>(
        CATALOG_ENTRIES_PATH,
        "create catalog entry",
        catalogEntryPayload({ catalogTypeId: typeId, externalId: key, ...declared[key]! }, true),
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
  validate(args) {
    if (args.adoptId !== undefined && args.adoptId !== args.catalogTypeId) {
      return [
        {
          path: ["adoptId"],
          message: "must be the catalogTypeId (the type whose entries to take over)",
          dependsOn: [["catalogTypeId"]],
        },
      ];
    }
    return [];
  },
  canonical: (args) => ({
    ...args,
    entries: Object.fromEntries(Object.entries(args.entries ?? {}).map(([k, e]) => [k, canonicalEntry(e)])),
  }),
  idOf: (live) => live.catalogTypeId,
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
      // Entries the type already has are taken over by external id; undeclared ones are deleted.
      const current = await readEntries(ctx.client, args.catalogTypeId);
      if (!current)
        throw new Error(
          `catalogTypeId: no catalog type with id ${JSON.stringify(args.catalogTypeId)} exists`,
        );
      return { live: await converge(ctx, args.catalogTypeId, current.entries, args.entries) };
    },
    read: (ctx, id) => readEntries(ctx.client, id),
    async update(ctx, id, args, olds) {
      // From the state, not a fresh walk: a change to every entry costs only its bulk_update requests.
      try {
        return { live: await converge(ctx, id, entriesFromState(olds), args.entries) };
      } catch (error) {
        throw error instanceof PartialCreateError ? error.cause : error;
      }
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

/**
 * Every entry of one catalog type, owned by one resource and keyed by external id: entries of the
 * type that are not declared are deleted (archived), including ones made in the dashboard. Scales
 * to the API's 50,000 entries per type: new entries are created one request each (the API has no
 * bulk create), changes go 250 to a request (`bulk_update`, each request atomic), a refresh reads
 * 250 entries per request, and an update works from the stored state without reading first.
 *
 * Adopt a type's existing entries: set `adoptId` to the `catalogTypeId`; entries whose external id
 * is declared are taken over, the others deleted.
 */
export interface CatalogEntries extends ResourceOutputs<CatalogEntriesInputs & CatalogEntriesComputed> {}
export class CatalogEntries extends IncidentResource {
  constructor(name: string, args: CatalogEntriesArgs, opts?: pulumi.CustomResourceOptions) {
    super(catalogEntriesSpec, name, args, opts);
  }
}

// ---------- getCatalogEntry / getCatalogEntries ----------

/** An entry of a catalog type. */
export interface GetCatalogEntryResult {
  id: string;
  catalogTypeId: string;
  name: string;
  externalId: string | undefined;
  aliases: string[];
  rank: number;
  /** Values by attribute id: a string, or a list of strings for array attributes. */
  attributeValues: AttributeValues;
}

function entryResult(e: ApiCatalogEntry): GetCatalogEntryResult {
  return {
    id: e.id,
    catalogTypeId: e.catalog_type_id,
    name: e.name,
    externalId: e.external_id,
    aliases: e.aliases,
    rank: e.rank,
    attributeValues: attributeValuesFromApi(e.attribute_values),
  };
}

/** Arguments of `getCatalogEntry`. */
export const getCatalogEntryArgs = z.strictObject({
  /** Id of the entry's catalog type. */
  catalogTypeId: z.string().min(1, "must not be empty"),
  /** The entry's id, external id, one of its aliases, or its exact name. */
  identifier: z.string().min(1, "must not be empty"),
});
export type GetCatalogEntryArgs = z.input<typeof getCatalogEntryArgs>;

/**
 * Finds an entry by identifier: `GET /v3/catalog_entries?identifier=` (id, external id, alias, and
 * name where the type allows), then by exact name among all the type's entries.
 */
export async function findCatalogEntry(client: ApiClient, args: z.infer<typeof getCatalogEntryArgs>) {
  const direct = await entriesByIdentifier(client, args.catalogTypeId, args.identifier);
  let matches = direct;
  if (matches.length === 0) {
    const all = await cachedList<ApiCatalogEntry>(client, ENTRIES_LIST, {
      catalog_type_id: args.catalogTypeId,
    });
    matches = all.filter((e) => e.name === args.identifier);
  }
  if (matches.length === 0) {
    throw new LookupError(
      "getCatalogEntry",
      `no entry of catalog type ${args.catalogTypeId} has id, external id, alias or name ${JSON.stringify(args.identifier)}`,
    );
  }
  if (matches.length > 1) {
    throw new LookupError(
      "getCatalogEntry",
      `${matches.length} entries match ${JSON.stringify(args.identifier)} (${matches.map((e) => e.id).join(", ")}): use the id or external id`,
    );
  }
  return entryResult(matches[0]!);
}

const catalogEntryLookup = defineLookup({
  name: "getCatalogEntry",
  args: getCatalogEntryArgs,
  run: findCatalogEntry,
});

/** Finds a catalog entry by id, external id, alias or name; fails when none or several match. */
export const getCatalogEntry = catalogEntryLookup.get;
/** `getCatalogEntry` taking Inputs and answering an Output. */
export const getCatalogEntryOutput = catalogEntryLookup.getOutput;

/** Arguments of `getCatalogEntries`. */
export const getCatalogEntriesArgs = z.strictObject({
  /** Id of the catalog type. */
  catalogTypeId: z.string().min(1, "must not be empty"),
});
export type GetCatalogEntriesArgs = z.input<typeof getCatalogEntriesArgs>;

/** Every entry of a type: `GET /v3/catalog_entries` page by page (250 per request). */
export async function listCatalogEntries(client: ApiClient, args: z.infer<typeof getCatalogEntriesArgs>) {
  const all = await cachedList<ApiCatalogEntry>(client, ENTRIES_LIST, {
    catalog_type_id: args.catalogTypeId,
  });
  return { entries: all.map(entryResult) };
}

const catalogEntriesLookup = defineLookup({
  name: "getCatalogEntries",
  args: getCatalogEntriesArgs,
  run: listCatalogEntries,
});

/** Every entry of a catalog type. */
export const getCatalogEntries = catalogEntriesLookup.get;
/** `getCatalogEntries` taking Inputs and answering an Output. */
export const getCatalogEntriesOutput = catalogEntriesLookup.getOutput;
