/**
 * CatalogEntry: one entry of a catalog type (the mapping of entries is shared with CatalogEntries,
 * catalogEntries.ts, which owns every entry of a type from one resource (API v3: `GET/POST /v3/catalog_entries`, `GET/PUT/DELETE /v3/catalog_entries/{id}`,
 * `POST /v3/catalog_entries/actions/bulk_update`).
 *
 * - Create is an upsert: a POST with the (type, external id) of an existing entry updates it, so a
 *   create repeated after a lost answer never makes a duplicate. So that two resources are never
 *   bound to one entry (each rewriting it on every run), a create first looks for an entry of that
 *   external id and refuses, naming it, when there is one: taking it over is `adoptId`'s job.
 * - Attribute values are keyed by attribute id (`CatalogTypeAttribute.id`); a string is a single
 *   value, a list of strings an array value. Values referring to entries of another type name
 *   them by id, external id or alias.
 * - Destroying an entry archives it.
 * - Partial ownership (`managedAttributes`): only the listed attributes are written (updates send
 *   `update_attributes`), read back and compared; the others keep whatever the dashboard or another
 *   tool writes.
 *
 * ### Normalisation rules (read-back that differs in form is not drift)
 *
 * - **no rank is rank 0**: the API answers `rank: 0` for an entry written without one.
 * - **aliases are a set**: order and repeats carry no meaning.
 * - **label when no literal**: a value read without a literal is its label.
 */
import { z } from "zod";
import type { ApiClient } from "../provider/client";
import { makeProvider } from "../provider/factory";
import { defineLookup, LookupError } from "../provider/functions";
import { idText, nameText } from "../provider/inputs";
import { namedMutex } from "../provider/mutex";
import { canonicalJson, keepDeclaredSet, omittedWhenEmpty, uniqueSet } from "../provider/normalise";
import { cachedList, walkList } from "../provider/pagedReads";
import type { Problem, Props, ResourceSpec } from "../provider/spec";
import { CATALOG_TYPES_LIST } from "./catalogType";

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
export const entryPath = (id: string) => `${CATALOG_ENTRIES_PATH}/${encodeURIComponent(id)}`;
/** The API's limits: entries per type, entries per bulk_update request. */
export const MAX_ENTRIES_PER_TYPE = 50_000;
export const BULK_UPDATE_LIMIT = 250;
/** Page size of entry lists (bulk_update's batch size too; the reference states no maximum for this list). */
export const ENTRY_PAGE_SIZE = 250;

/** CatalogV3ListEntries answers CatalogEntryV3, as show does; one type at a time. */
export const ENTRIES_LIST = {
  path: CATALOG_ENTRIES_PATH,
  itemsKey: "catalog_entries",
  operation: "list catalog entries",
  pageSize: ENTRY_PAGE_SIZE,
};

/** Attribute values: attribute id → a value (string) or an array value (list of strings). */
const attributeValues = z
  .record(
    idText(),
    z.union([z.string(), z.array(z.string())], { error: "must be a string or a list of strings" }),
  )
  .default({});
export type AttributeValues = Record<string, string | string[]>;

/**
 * The attributes a resource manages (partial ownership): attribute ids, a set. Left out, every
 * attribute is managed, and a value not declared is cleared.
 */
export const managedAttributesField = z.array(idText()).optional();

/** The values of the managed attributes only (all of them when `managed` is undefined). */
export function onlyManaged(
  values: AttributeValues,
  managed: readonly string[] | undefined,
): AttributeValues {
  if (managed === undefined) return values;
  return Object.fromEntries(Object.entries(values).filter(([id]) => managed.includes(id)));
}

/**
 * Values declared for attributes `managedAttributes` leaves out: refused, naming each. Our own
 * inputs contradict each other (the value would never be written); the API sees neither.
 */
export function unmanagedValueProblems(
  values: AttributeValues | undefined,
  managed: readonly string[] | undefined,
  at: (string | number)[],
): Problem[] {
  if (managed === undefined) return [];
  return Object.keys(values ?? {})
    .filter((id) => !managed.includes(id))
    .map((id) => ({
      path: [...at, "attributeValues", id],
      message: `attribute ${JSON.stringify(id)} is not in managedAttributes: add it there, or leave its value to the dashboard`,
      dependsOn: [["managedAttributes"]],
    }));
}

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
  aliases: z.array(idText()).optional(),
  /** Position of the entry when its type is ranked. Left out: no rank (answered as 0). */
  rank: z.number().int("must be a whole number").optional(),
  /**
   * Values by attribute id (`CatalogTypeAttribute.id`): a string for a single value, a list of
   * strings for an array attribute. Values referring to entries of another type name them by id,
   * external id or alias.
   */
  attributeValues,
};

export const entrySchema = z.strictObject(entryFields);
export type DeclaredEntry = z.infer<typeof entrySchema>;

/** Canonical form of one entry: aliases as a set, no rank = 0, attribute values by sorted key. */
export function canonicalEntry(e: DeclaredEntry): Props {
  return {
    name: e.name,
    aliases: uniqueSet(e.aliases) ?? [],
    rank: e.rank ?? 0,
    attributeValues: JSON.parse(canonicalJson(e.attributeValues ?? {})),
  };
}

/** An entry as read, in the declared spelling where the meaning is equal. */
export function entryFromApi(live: ApiCatalogEntry, declared: DeclaredEntry | undefined): DeclaredEntry {
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
  catalogTypeId: idText(),
  ...entryFields,
  /**
   * An id of your own for the entry, unique within its type (e.g. the service's id in your
   * inventory). A create with the external id of an existing entry takes that entry over.
   */
  externalId: idText().optional(),
  /**
   * Attribute ids this resource manages (partial ownership): only their values are written, read
   * back and compared; every other attribute keeps whatever the dashboard or another tool writes.
   * Left out: every attribute is managed, and one without a declared value is cleared.
   */
  managedAttributes: managedAttributesField,
  /** Id of an existing entry to take over instead of creating one. */
  adoptId: z.string().min(1).optional(),
});

export type CatalogEntryInputs = z.infer<typeof catalogEntryInputs>;
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
    // Partial ownership: the API replaces only these keys (a create has nothing else to keep).
    ...(!create && args.managedAttributes !== undefined ? { update_attributes: args.managedAttributes } : {}),
  };
}

export function catalogEntryFromApi(
  live: ApiCatalogEntry,
  declared: CatalogEntryInputs | undefined,
): CatalogEntryInputs {
  const read = entryFromApi(live, declared);
  return {
    catalogTypeId: live.catalog_type_id,
    externalId: live.external_id,
    ...read,
    attributeValues: onlyManaged(read.attributeValues, declared?.managedAttributes),
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

/** Why a create of an entry whose external id is taken is refused. */
export function boundMessage(taken: ApiCatalogEntry): string {
  return (
    `externalId: the catalog type already has an entry with external id ${JSON.stringify(taken.external_id)} ` +
    `(${JSON.stringify(taken.name)}, id ${taken.id}), made in the dashboard or managed by another resource: ` +
    `set adoptId: ${JSON.stringify(taken.id)} to take it over (then nothing else may manage it), or use another externalId`
  );
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

/**
 * One entry of a catalog type (API v3). To manage every entry of a type from one declaration
 * (thousands of entries, undeclared ones removed), use `CatalogEntries` instead; do not mix the two
 * on one type. Destroying it archives the entry.
 *
 * Adopt an existing entry: set `adoptId` to its id (`getCatalogEntry`). A create whose `externalId`
 * an entry of the type already has fails and names that entry, rather than take it over silently.
 *
 * @example
 * ```ts
 * declare const service: incident.CatalogType; // see CatalogType
 * declare const tierAttributeId: string; // the id of a CatalogTypeAttribute of the type
 * const checkout = new incident.CatalogEntry("checkout", {
 *   catalogTypeId: service.id, name: "Checkout", externalId: "checkout", aliases: ["co"],
 *   attributeValues: { [tierAttributeId]: "1" },
 * });
 * ```
 */
export const catalogEntrySpec: ResourceSpec<CatalogEntryInputs, ApiCatalogEntry> = {
  kind: "CatalogEntry",
  title: "catalog entry",
  schemaVersion: 1,
  inputs: catalogEntryInputs,
  replaceOnChanges: ["catalogTypeId"],
  secretOutputs: [],
  computedOutputs: [],
  localInputs: ["managedAttributes"],
  validate: (args) => unmanagedValueProblems(args.attributeValues, args.managedAttributes, []),
  canonical: (args) => ({
    ...args,
    ...canonicalEntry(args),
    ...(args.managedAttributes !== undefined ? { managedAttributes: uniqueSet(args.managedAttributes) } : {}),
  }),
  idOf: (live) => live.id,
  partOf: "catalogTypeId",
  // For `pulumi-incident export`: the entries of every catalog type, one walk per type.
  listAll: async (ctx) => {
    const types = await walkList<{ id: string }>(ctx.client, CATALOG_TYPES_LIST);
    const perType = await Promise.all(
      types.map((t) => walkList<ApiCatalogEntry>(ctx.client, ENTRIES_LIST, { catalog_type_id: t.id })),
    );
    return perType.flat();
  },
  list: {
    ...ENTRIES_LIST,
    scope: (prior) =>
      typeof prior?.catalogTypeId === "string" ? { catalog_type_id: prior.catalogTypeId } : undefined,
  },
  toInputs: catalogEntryFromApi,
  computed: () => ({}),
  api: {
    async create(ctx, args) {
      const post = async () =>
        (
          await ctx.client.post<{ catalog_entry: ApiCatalogEntry }>(
            CATALOG_ENTRIES_PATH,
            "create catalog entry",
            catalogEntryPayload(args, true),
            // With an external id the create is an upsert: sent twice, it makes one entry.
            { repeatable: args.externalId !== undefined },
          )
        ).catalog_entry;
      const externalId = args.externalId;
      if (externalId === undefined) return { live: await post() };
      // Look, then make, one resource at a time per external id: two resources of one run with the
      // same external id must not both pass the look.
      return namedMutex(`catalog-entry:${ctx.client.account}:${args.catalogTypeId}:${externalId}`).run(
        async () => {
          const taken = (await entriesByIdentifier(ctx.client, args.catalogTypeId, externalId)).find(
            (e) => e.external_id === externalId,
          );
          if (taken) throw new Error(boundMessage(taken));
          return { live: await post() };
        },
      );
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
