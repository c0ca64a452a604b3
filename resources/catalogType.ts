/**
 * CatalogType: a type of the catalog (`GET/POST /v3/catalog_types`, `GET/PUT/DELETE /v3/catalog_types/{id}`),
 * and CatalogTypeAttribute: one attribute of a type's schema, written through
 * `POST /v3/catalog_types/{id}/actions/update_schema` (the schema has no endpoints of its own).
 * API v3 (v2 is deprecated).
 *
 * - `typeName` is create-only ("immutable once created"): changing it replaces the type.
 * - Destroying a type archives it and every entry of it.
 * - The schema is written by read-modify-write with its version: every attribute write of a type
 *   runs under that type's process-wide lock (several attributes of one type changed in one run
 *   are written one after another, each on the version the previous one left), and a 409 (someone
 *   else wrote the schema in between) is answered by reading it again and retrying.
 */
import { z } from "zod";
import { knownValues, warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { makeProvider } from "../provider/factory";
import { defineLookup, LookupError } from "../provider/functions";
import { freeText, idText, lookupName, nameText } from "../provider/inputs";
import { keepDeclaredOrder, omittedWhenEmpty, unorderedSet } from "../provider/normalise";
import { cachedList } from "../provider/pagedReads";
import type { Props, ResourceSpec } from "../provider/spec";

// ---------- API shapes (reference.json) ----------

/** CatalogTypeAttributeV3. */
export interface ApiCatalogAttribute {
  id: string;
  name: string;
  type: string;
  array: boolean;
  mode: string;
  backlink_attribute?: string;
  path?: { attribute_id: string; attribute_name: string }[];
}

/** CatalogTypeV3 (the fields this provider uses). */
export interface ApiCatalogType {
  id: string;
  name: string;
  description: string;
  type_name: string;
  engine_resource_type: string;
  annotations: Record<string, string>;
  categories: string[];
  color: string;
  icon: string;
  ranked: boolean;
  use_name_as_identifier: boolean;
  is_editable: boolean;
  owning_team_ids?: string[];
  source_repo_url?: string;
  schema: { version: number; attributes: ApiCatalogAttribute[] };
}

const CATEGORIES = [
  "customer",
  "issue-tracker",
  "on-call",
  "product-feature",
  "service",
  "team",
  "user",
] as const;
const COLORS = ["blue", "cyan", "green", "orange", "pink", "violet", "yellow"] as const;
const ICONS = [
  "alert", "bolt", "box", "briefcase", "browser", "bulb", "calendar", "clock", "cog", "components",
  "database", "doc", "email", "escalation-path", "files", "flag", "folder", "globe", "money", "server",
  "severity", "star", "status-page", "store", "tag", "user", "users",
] as const; // biome-ignore format: one enum, kept compact

const TYPE_NAME = /^Custom\["[A-Za-z][A-Za-z0-9]*"\]$/;

export const CATALOG_TYPES_PATH = "/v3/catalog_types";
export const typePath = (id: string) => `${CATALOG_TYPES_PATH}/${encodeURIComponent(id)}`;

// ---------- CatalogType ----------

/** Inputs of a catalog type (API v3). */
export const catalogTypeInputs = z.strictObject({
  /** Human-readable name of the type, e.g. `Service`. */
  name: nameText(),
  /** What the type represents. */
  description: freeText(),
  /**
   * How attributes of other types refer to this one: `Custom["Service"]` (letters and digits inside
   * the quotes). Set once: changing it replaces the type. Left out, the API derives it from the name.
   */
  // reference: CatalogCreateTypePayloadV3.type_name ("it must follow the pattern Custom["SomeName"]");
  // which characters the name takes is not published (warned).
  typeName: z
    .string()
    .regex(/^Custom\[".+"\]$/, 'must follow the pattern Custom["SomeName"]')
    .superRefine(
      warnUnless(
        (v: string) => !/^Custom\[".+"\]$/.test(v) || TYPE_NAME.test(v),
        "holds more than letters and digits",
      ),
    )
    .optional(),
  /** Categories the type belongs to (a set): `customer`, `issue-tracker`, `on-call`, `product-feature`, `service`, `team`, `user`. */
  // reference: CatalogCreateTypePayloadV3.categories enum
  categories: z.array(knownValues(CATEGORIES)).optional(),
  /** Display colour in the dashboard. Left out: the API's default, not managed. */
  // reference: CatalogCreateTypePayloadV3.color enum
  color: knownValues(COLORS).optional(),
  /** Display icon in the dashboard (e.g. `server`, `users`). Left out: the API's default, not managed. */
  // reference: CatalogCreateTypePayloadV3.icon enum
  icon: knownValues(ICONS).optional(),
  /** Whether entries are ranked (their `rank` orders them). */
  ranked: z.boolean().default(false),
  /** Whether entries can be referred to by their name, besides their external id and aliases. */
  useNameAsIdentifier: z.boolean().default(false),
  /** URL of the repository where this type is managed. */
  // Any text: the reference publishes no format ("the url of the external repository"), and the
  // Terraform provider's acceptance test TestAccAlertSourceAttributeNavigate applies `""`.
  sourceRepoUrl: z.string().optional(),
  /** Ids of the teams that own the type (a set). */
  owningTeamIds: z.array(idText()).optional(),
  /** Metadata kept on the type (string → string). */
  annotations: z.record(idText(), z.string()).optional(),
  /** Id of an existing catalog type to take over instead of creating one (`pulumi import` does not work for dynamic resources). */
  adoptId: z.string().min(1).optional(),
});

export type CatalogTypeInputs = z.infer<typeof catalogTypeInputs>;
/** Outputs beyond the inputs. */
export type CatalogTypeComputed = {
  /** What an alert attribute's or custom field's `type` names to hold entries of this type: `CatalogEntry["<id>"]`. */
  engineResourceType: string;
  /** What a catalog attribute's `type` names to refer to entries of this type (the type name, e.g. `Custom["Service"]`). */
  attributeType: string;
};

/** CatalogCreateTypePayloadV3 (with `type_name`) / CatalogUpdateTypePayloadV3 (without: create-only). */
export function catalogTypePayload(args: CatalogTypeInputs, create: boolean): Props {
  return {
    name: args.name,
    description: args.description,
    ...(create && args.typeName !== undefined ? { type_name: args.typeName } : {}),
    ...(args.categories !== undefined ? { categories: args.categories } : {}),
    ...(args.color !== undefined ? { color: args.color } : {}),
    ...(args.icon !== undefined ? { icon: args.icon } : {}),
    ranked: args.ranked,
    use_name_as_identifier: args.useNameAsIdentifier,
    ...(args.sourceRepoUrl !== undefined ? { source_repo_url: args.sourceRepoUrl } : {}),
    ...(args.owningTeamIds !== undefined ? { owning_team_ids: args.owningTeamIds } : {}),
    ...(args.annotations !== undefined ? { annotations: args.annotations } : {}),
  };
}

export function catalogTypeFromApi(
  live: ApiCatalogType,
  declared: CatalogTypeInputs | undefined,
): CatalogTypeInputs {
  // Fields left out are not managed (the API keeps or defaults them): unset reads back as unset.
  const managed = <T>(key: keyof CatalogTypeInputs, value: T): T | undefined =>
    declared === undefined || declared[key] !== undefined ? value : undefined;
  const annotations = live.annotations ?? {};
  return {
    name: live.name,
    description: live.description,
    typeName: managed("typeName", live.type_name),
    categories: keepDeclaredOrder(
      omittedWhenEmpty(live.categories, declared?.categories),
      declared?.categories,
    ) as CatalogTypeInputs["categories"] | undefined,
    color: managed("color", live.color as CatalogTypeInputs["color"]),
    icon: managed("icon", live.icon as CatalogTypeInputs["icon"]),
    ranked: live.ranked,
    useNameAsIdentifier: live.use_name_as_identifier,
    sourceRepoUrl: live.source_repo_url,
    owningTeamIds: keepDeclaredOrder(
      omittedWhenEmpty(live.owning_team_ids, declared?.owningTeamIds),
      declared?.owningTeamIds,
    ),
    annotations:
      declared?.annotations === undefined && Object.keys(annotations).length === 0 ? undefined : annotations,
  };
}

export async function showType(client: ApiClient, id: string): Promise<ApiCatalogType | undefined> {
  try {
    return (await client.get<{ catalog_type: ApiCatalogType }>(typePath(id), "show catalog type"))
      .catalog_type;
  } catch (error) {
    if ((error as { isNotFound?: boolean }).isNotFound) return undefined;
    throw error;
  }
}

/** The account's catalog types (unpaginated list; served from this run's cached page when reads by page are on). */
function listTypes(client: ApiClient): Promise<ApiCatalogType[]> {
  return cachedList<ApiCatalogType>(client, CATALOG_TYPES_LIST);
}

/** CatalogV3ListTypes answers CatalogTypeV3, as show does (unpaginated). */
export const CATALOG_TYPES_LIST = {
  path: CATALOG_TYPES_PATH,
  itemsKey: "catalog_types",
  operation: "list catalog types",
};

/**
 * A catalog type (API v3): a kind of thing the catalog holds (services, teams, features…). Its
 * attributes are `CatalogTypeAttribute` resources; its entries `CatalogEntry` or `CatalogEntries`.
 * Destroying it archives it and all its entries.
 *
 * Adopt an existing type: set `adoptId` to its id (`getCatalogType`); the first `pulumi up` takes it
 * over and updates it to the declared configuration (`typeName` cannot change).
 *
 * @example
 * ```ts
 * const service = new incident.CatalogType("service", {
 *   name: "Service", description: "Every service we run", typeName: 'Custom["Service"]', categories: ["service"],
 * });
 * // Alert attributes and custom fields hold its entries through `service.engineResourceType`.
 * ```
 */
export const catalogTypeSpec: ResourceSpec<CatalogTypeInputs, ApiCatalogType> = {
  kind: "CatalogType",
  title: "catalog type",
  schemaVersion: 1,
  inputs: catalogTypeInputs,
  replaceOnChanges: ["typeName"],
  // Type names are unique: the replacement can only be created once the old type is archived.
  deleteBeforeReplace: true,
  secretOutputs: [],
  computedOutputs: ["engineResourceType", "attributeType"],
  canonical: (args) => ({
    ...args,
    categories: unorderedSet(args.categories),
    owningTeamIds: unorderedSet(args.owningTeamIds),
  }),
  idOf: (live) => live.id,
  list: CATALOG_TYPES_LIST,
  toInputs: catalogTypeFromApi,
  computed: (live) => ({ engineResourceType: live.engine_resource_type, attributeType: live.type_name }),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ catalog_type: ApiCatalogType }>(
        CATALOG_TYPES_PATH,
        "create catalog type",
        catalogTypePayload(args, true),
      );
      return { live: body.catalog_type };
    },
    read: (ctx, id) => showType(ctx.client, id),
    async update(ctx, id, args) {
      const body = await ctx.client.put<{ catalog_type: ApiCatalogType }>(
        typePath(id),
        "update catalog type",
        catalogTypePayload(args, false),
      );
      return { live: body.catalog_type };
    },
    // Archives the type and its entries.
    delete: (ctx, id) => ctx.client.delete(typePath(id), "archive catalog type"),
    recoveryKey: (args) => args.typeName ?? args.name,
    async findCreated(ctx, args) {
      const all = await listTypes(ctx.client);
      return args.typeName !== undefined
        ? all.find((t) => t.type_name === args.typeName)
        : all.find((t) => t.name === args.name && t.description === args.description);
    },
  },
};

export const catalogTypeProvider = makeProvider(catalogTypeSpec);

// ---------- getCatalogType ----------

/** Arguments of `getCatalogType`: exactly one of `name` and `typeName`. */
export const getCatalogTypeArgs = z
  .strictObject({
    /** Exact name of the type, e.g. `Service`. */
    name: lookupName().optional(),
    /** Its type name, e.g. `Custom["Service"]`. */
    typeName: z.string().min(1, "must not be empty").optional(),
  })
  .refine(
    (a) => (a.name === undefined) !== (a.typeName === undefined),
    "set exactly one of name and typeName",
  );
export type GetCatalogTypeArgs = z.input<typeof getCatalogTypeArgs>;

/** A catalog type of the account. */
export interface GetCatalogTypeResult {
  id: string;
  name: string;
  description: string;
  /** e.g. `Custom["Service"]`: what other types' attributes name to refer to its entries. */
  typeName: string;
  /** `CatalogEntry["<id>"]`: what alert attributes and custom fields name to hold its entries. */
  engineResourceType: string;
  /** Its attributes: id, name, type, array. */
  attributes: { id: string; name: string; type: string; array: boolean }[];
}

/** Finds a catalog type by exact name or type name: `GET /v3/catalog_types` (unpaginated). */
export async function findCatalogType(client: ApiClient, args: z.infer<typeof getCatalogTypeArgs>) {
  if ((args.name === undefined) === (args.typeName === undefined)) {
    throw new LookupError("getCatalogType", "set exactly one of name and typeName");
  }
  const all = await listTypes(client);
  const matches = all.filter((t) =>
    args.typeName !== undefined ? t.type_name === args.typeName : t.name === args.name,
  );
  const what =
    args.typeName !== undefined
      ? `type name ${JSON.stringify(args.typeName)}`
      : `name ${JSON.stringify(args.name)}`;
  if (matches.length === 0) throw new LookupError("getCatalogType", `no catalog type with ${what}`);
  if (matches.length > 1) {
    throw new LookupError(
      "getCatalogType",
      `${matches.length} catalog types have ${what}: look it up by typeName`,
    );
  }
  const t = matches[0]!;
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    typeName: t.type_name,
    engineResourceType: t.engine_resource_type,
    attributes: t.schema.attributes.map((a) => ({ id: a.id, name: a.name, type: a.type, array: a.array })),
  } satisfies GetCatalogTypeResult;
}

const catalogTypeLookup = defineLookup({
  name: "getCatalogType",
  args: getCatalogTypeArgs,
  run: findCatalogType,
});

/** Finds a catalog type by name or type name; fails when there is none or more than one. */
export const getCatalogType = catalogTypeLookup.get;
/** `getCatalogType` taking Inputs and answering an Output. */
export const getCatalogTypeOutput = catalogTypeLookup.getOutput;
