/**
 * CatalogTypeAttribute: one attribute of a catalog type's schema (API v3). The schema has no
 * endpoints of its own: it is read with the type (`GET /v3/catalog_types/{id}`) and written whole
 * through `POST /v3/catalog_types/{id}/actions/update_schema` with its current version.
 *
 * ### Concurrency
 *
 * Every attribute write of a type runs under that type's process-wide lock: several attributes of one
 * type changed in one run are written one after another, each on the version the previous one left.
 * A 409 (someone else wrote the schema in between) is answered by reading it again and retrying. A
 * write whose answer is lost is checked against the schema read again (written once, never twice).
 *
 * ### Normalisation rules (read-back that differs in form is not drift)
 *
 * - **empty mode is unset**: the API answers `mode: ""` for an attribute written without a mode.
 */
import { z } from "zod";
import type { ApiClient } from "../provider/client";
import { ApiError } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { defineLookup, LookupError, pickByName } from "../provider/functions";
import { nameText } from "../provider/inputs";
import { namedMutex } from "../provider/mutex";
import { walkList } from "../provider/pagedReads";
import type { ApiContext, Props, ResourceSpec } from "../provider/spec";
import {
  type ApiCatalogAttribute,
  type ApiCatalogType,
  CATALOG_TYPES_LIST,
  showType,
  typePath,
} from "./catalogType";

const MODES = ["api", "dashboard", "backlink", "path"] as const;

/** Inputs of one attribute of a catalog type's schema. */
export const catalogTypeAttributeInputs = z.strictObject({
  /** Id of the catalog type the attribute belongs to. Changing it replaces the attribute. */
  catalogTypeId: z.string().min(1, "must not be empty"),
  /** Name of the attribute, unique within its type, e.g. `Tier`. */
  name: nameText(),
  /**
   * Type of its values: `String`, `Text`, `Number`, `Bool`, or another catalog type's `attributeType`
   * (e.g. `Custom["Team"]`) for values that refer to entries of that type.
   */
  type: z.string().min(1, "must not be empty"),
  /** Whether the attribute holds a list of values. */
  array: z.boolean().default(false),
  /**
   * How the attribute is maintained: `api` (through the API), `dashboard` (edited in the dashboard),
   * `backlink` (derived from another type's attribute that refers to this type: set
   * `backlinkAttribute`), `path` (follows a chain of attributes: set `path`). Left out: the API's default.
   */
  mode: z.enum(MODES).optional(),
  /** For `mode: "backlink"`: id of the attribute (of the other type) this one mirrors. */
  backlinkAttribute: z.string().min(1, "must not be empty").optional(),
  /** For `mode: "path"`: the attribute ids to follow, in order. */
  path: z.array(z.string().min(1, "must not be empty")).min(1, "must not be empty").optional(),
  /** Id of an existing attribute of the type to take over instead of creating one. */
  adoptId: z.string().min(1).optional(),
});

export type CatalogTypeAttributeInputs = z.infer<typeof catalogTypeAttributeInputs>;
/** Outputs beyond the inputs (none: the id is the attribute id, what entries key their values by). */
export type CatalogTypeAttributeComputed = {};

/** An attribute with the type it belongs to. */
export interface LiveCatalogAttribute {
  catalogTypeId: string;
  attribute: ApiCatalogAttribute;
}

/** CatalogTypeAttributePayloadV3 of the declared attribute (`id` for an existing one). */
export function catalogAttributePayload(args: CatalogTypeAttributeInputs, id?: string): Props {
  return {
    ...(id !== undefined ? { id } : {}),
    name: args.name,
    type: args.type,
    array: args.array,
    ...(args.mode !== undefined ? { mode: args.mode } : {}),
    ...(args.backlinkAttribute !== undefined ? { backlink_attribute: args.backlinkAttribute } : {}),
    ...(args.path !== undefined ? { path: args.path.map((attribute_id) => ({ attribute_id })) } : {}),
  };
}

/** The payload form of an attribute as read (unchanged when it is written back with others). */
function attributeAsPayload(a: ApiCatalogAttribute): Props {
  return {
    id: a.id,
    name: a.name,
    type: a.type,
    array: a.array,
    ...(a.mode !== "" ? { mode: a.mode } : {}),
    ...(a.backlink_attribute !== undefined ? { backlink_attribute: a.backlink_attribute } : {}),
    ...(a.path !== undefined ? { path: a.path.map((p) => ({ attribute_id: p.attribute_id })) } : {}),
  };
}

export function catalogAttributeFromApi(
  live: LiveCatalogAttribute,
  _declared?: CatalogTypeAttributeInputs,
): CatalogTypeAttributeInputs {
  const a = live.attribute;
  return {
    catalogTypeId: live.catalogTypeId,
    name: a.name,
    type: a.type,
    array: a.array,
    // Rule "empty mode is unset": the API answers `""` for an attribute written without a mode.
    mode: a.mode === "" ? undefined : (a.mode as CatalogTypeAttributeInputs["mode"]),
    backlinkAttribute: a.backlink_attribute,
    path: a.path?.map((p) => p.attribute_id),
  };
}

const SCHEMA_ATTEMPTS = 4;

/**
 * Read-modify-write of a type's schema under the type's lock: `change` gets the current attributes
 * (payload form) and answers the new list. A 409 (the version moved: someone else wrote) reads
 * again and retries. A write whose outcome is unknown (a 5xx, a reset, a lost answer) is checked
 * by reading the schema: one version on and holding what was sent, it is ours (never written
 * twice: a second add would duplicate the attribute); otherwise it is written again. Answers the
 * type as the API left it.
 */
export function writeSchema(
  ctx: ApiContext,
  typeId: string,
  operation: string,
  change: (attributes: Props[]) => Props[],
): Promise<ApiCatalogType> {
  return namedMutex(`catalog-schema:${ctx.client.account}:${typeId}`).run(async () => {
    for (let attempt = 1; ; attempt++) {
      const type = await showType(ctx.client, typeId);
      if (!type) {
        throw new Error(`catalogTypeId: no catalog type with id ${JSON.stringify(typeId)} exists`);
      }
      const attributes = change(type.schema.attributes.map(attributeAsPayload));
      try {
        const body = await ctx.client.post<{ catalog_type: ApiCatalogType }>(
          `${typePath(typeId)}/actions/update_schema`,
          operation,
          { version: type.schema.version, attributes },
        );
        return body.catalog_type;
      } catch (error) {
        if (error instanceof ApiError && error.outcomeUnknown) {
          const after = await showType(ctx.client, typeId);
          if (after && after.schema.version === type.schema.version + 1 && holds(after, attributes))
            return after;
          if (attempt >= SCHEMA_ATTEMPTS) throw error;
          continue;
        }
        if (!(error instanceof ApiError && error.status === 409) || attempt >= SCHEMA_ATTEMPTS) throw error;
      }
    }
  });
}

/** Whether a schema holds, in order, the attributes sent (by id where one was sent, else by name). */
function holds(type: ApiCatalogType, sent: Props[]): boolean {
  const live = type.schema.attributes;
  return (
    live.length === sent.length &&
    sent.every((a, i) => {
      const l = live[i]!;
      return (
        (a.id === undefined || a.id === l.id) && a.name === l.name && a.type === l.type && a.array === l.array
      );
    })
  );
}

function attributeOf(type: ApiCatalogType, find: (a: ApiCatalogAttribute) => boolean): LiveCatalogAttribute {
  const attribute = type.schema.attributes.find(find);
  if (!attribute) throw new Error(`the catalog type's schema does not hold the attribute just written`);
  return { catalogTypeId: type.id, attribute };
}

/**
 * One attribute of a catalog type's schema. The API has no endpoints for attributes: each write
 * reads the type's schema and writes it back whole with its version, under the type's lock, so
 * any number of attributes of one type can change in one run without losing each other's writes.
 * Its id is what entries key their `attributeValues` by.
 *
 * Adopt an existing attribute: set `adoptId` to its id (from the type's `schema.attributes`).
 *
 * @example
 * ```ts
 * declare const service: incident.CatalogType; // see CatalogType
 * const tier = new incident.CatalogTypeAttribute("tier", { catalogTypeId: service.id, name: "Tier", type: "Number" });
 * ```
 */
export const catalogTypeAttributeSpec: ResourceSpec<CatalogTypeAttributeInputs, LiveCatalogAttribute> = {
  kind: "CatalogTypeAttribute",
  title: "catalog type attribute",
  schemaVersion: 1,
  inputs: catalogTypeAttributeInputs,
  replaceOnChanges: ["catalogTypeId"],
  secretOutputs: [],
  computedOutputs: [],
  validate(args) {
    const problems = [];
    if (args.mode === "backlink" && args.backlinkAttribute === undefined) {
      problems.push({
        path: ["backlinkAttribute"],
        message: 'is required when mode is "backlink"',
        dependsOn: [["mode"]],
      });
    }
    if (args.mode === "path" && args.path === undefined) {
      problems.push({ path: ["path"], message: 'is required when mode is "path"', dependsOn: [["mode"]] });
    }
    return problems;
  },
  idOf: (live) => live.attribute.id,
  // For `pulumi-incident export`: every attribute of every catalog type, as a read answers it.
  listAll: async (ctx) =>
    (await walkList<ApiCatalogType>(ctx.client, CATALOG_TYPES_LIST)).flatMap((type) =>
      type.schema.attributes.map((attribute) => ({ catalogTypeId: type.id, attribute })),
    ),
  // Reads come from the type (list == show); many attributes, or attributes and types, share one walk.
  list: {
    ...CATALOG_TYPES_LIST,
    scope: (prior) => (typeof prior?.catalogTypeId === "string" ? {} : undefined),
    find: (types: ApiCatalogType[], id, prior) => {
      const type = types.find((t) => t.id === prior?.catalogTypeId);
      const attribute = type?.schema.attributes.find((a) => a.id === id);
      return type && attribute ? { catalogTypeId: type.id, attribute } : undefined;
    },
  },
  toInputs: catalogAttributeFromApi,
  computed: () => ({}),
  api: {
    async create(ctx, args) {
      const type = await writeSchema(ctx, args.catalogTypeId, "add catalog type attribute", (attributes) => [
        ...attributes,
        catalogAttributePayload(args),
      ]);
      return { live: attributeOf(type, (a) => a.name === args.name) };
    },
    async read(ctx, id, prior) {
      const typeId = prior?.catalogTypeId;
      if (typeof typeId !== "string") {
        throw new Error(
          `CatalogTypeAttribute ${JSON.stringify(id)}: reading it needs its catalogTypeId (from state)`,
        );
      }
      const type = await showType(ctx.client, typeId);
      const attribute = type?.schema.attributes.find((a) => a.id === id);
      return type && attribute ? { catalogTypeId: typeId, attribute } : undefined;
    },
    async update(ctx, id, args) {
      const type = await writeSchema(
        ctx,
        args.catalogTypeId,
        "update catalog type attribute",
        (attributes) => {
          if (!attributes.some((a) => a.id === id)) {
            throw new Error(
              `no attribute with id ${JSON.stringify(id)} on catalog type ${args.catalogTypeId}`,
            );
          }
          return attributes.map((a) => (a.id === id ? catalogAttributePayload(args, id) : a));
        },
      );
      return { live: attributeOf(type, (a) => a.id === id) };
    },
    async delete(ctx, id, olds) {
      // A type that is gone (archived) took its attributes with it.
      if (!(await showType(ctx.client, olds.catalogTypeId))) return;
      await writeSchema(ctx, olds.catalogTypeId, "remove catalog type attribute", (attributes) =>
        attributes.filter((a) => a.id !== id),
      );
    },
    recoveryKey: (args) => `${args.catalogTypeId}/${args.name}`,
    async findCreated(ctx, args) {
      const type = await showType(ctx.client, args.catalogTypeId);
      const attribute = type?.schema.attributes.find((a) => a.name === args.name);
      return type && attribute ? { catalogTypeId: type.id, attribute } : undefined;
    },
  },
};

export const catalogTypeAttributeProvider = makeProvider(catalogTypeAttributeSpec);

// ---------- getCatalogTypeAttribute ----------

/** Arguments of `getCatalogTypeAttribute`. */
export const getCatalogTypeAttributeArgs = z.strictObject({
  /** Id of the catalog type (e.g. from `getCatalogType`). */
  catalogTypeId: z.string().min(1, "must not be empty"),
  /** Exact name of the attribute (names are unique within a type). */
  name: nameText(),
});
export type GetCatalogTypeAttributeArgs = z.input<typeof getCatalogTypeAttributeArgs>;

/** One attribute of a catalog type's schema. */
export interface GetCatalogTypeAttributeResult {
  /** The attribute's id: what entries key their `attributeValues` by; also an `adoptId`. */
  id: string;
  /** The catalog type the attribute belongs to. */
  catalogTypeId: string;
  name: string;
  /** Type of its values (`String`, `Number`, `Custom["Team"]`, …). */
  type: string;
  /** Whether it holds a list of values. */
  array: boolean;
  /** `api`, `dashboard`, `backlink` or `path`; unset when the API answers none. */
  mode: string | undefined;
}

/** Finds an attribute of a catalog type by exact name: `GET /v3/catalog_types/{id}` (its schema). */
export async function findCatalogTypeAttribute(
  client: ApiClient,
  args: { catalogTypeId: string; name: string },
): Promise<GetCatalogTypeAttributeResult> {
  const type = await showType(client, args.catalogTypeId);
  if (!type) {
    throw new LookupError(
      "getCatalogTypeAttribute",
      `no catalog type with id ${JSON.stringify(args.catalogTypeId)}`,
    );
  }
  const a = pickByName(
    type.schema.attributes,
    args.name,
    "getCatalogTypeAttribute",
    `attribute of catalog type ${type.id}`,
  );
  return {
    id: a.id,
    catalogTypeId: type.id,
    name: a.name,
    type: a.type,
    array: a.array,
    mode: a.mode === "" ? undefined : a.mode,
  };
}

const catalogTypeAttributeLookup = defineLookup({
  name: "getCatalogTypeAttribute",
  args: getCatalogTypeAttributeArgs,
  run: findCatalogTypeAttribute,
});

/** Finds an attribute of a catalog type by name; fails when there is none. */
export const getCatalogTypeAttribute = catalogTypeAttributeLookup.get;
/** `getCatalogTypeAttribute` taking Inputs and answering an Output. */
export const getCatalogTypeAttributeOutput = catalogTypeAttributeLookup.getOutput;
