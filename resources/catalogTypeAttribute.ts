/**
 * CatalogTypeAttribute: one attribute of a catalog type's schema (API v3). The schema has no
 * endpoints of its own: it is read with the type (`GET /v3/catalog_types/{id}`) and written whole
 * through `POST /v3/catalog_types/{id}/actions/update_schema` with its current version.
 *
 * ### Concurrency
 *
 * Every attribute write of a type runs under that type's process-wide lock, and the writes of one
 * type that meet there are batched: the attributes of a type created, changed or deleted together in
 * one run are applied to one read of the schema and written in one request (8 attributes: 2 requests
 * to create, not 16; 2 to delete, not 24). The first change of a batch waits until no other change of
 * its type has come for 60 ms (at most 1 s), since the engine sends them spaced out. Each attribute keeps its own outcome: one the API refuses
 * fails alone, the others are written. A 409 (someone else wrote the schema in between) is answered
 * by reading it again and retrying. A write whose answer is lost is checked against the schema read
 * again (written once, never twice).
 *
 * ### Normalisation rules (read-back that differs in form is not drift)
 *
 * - **empty mode is unset**: the API answers `mode: ""` for an attribute written without a mode.
 */
import { z } from "zod";
import { knownValues, passedOn } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { ApiError } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { defineLookup, LookupError, pickByName } from "../provider/functions";
import { idText, lookupName, nameText } from "../provider/inputs";
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
  // Our URL's path parameter (`/v3/catalog_types/{id}/actions/update_schema`): an empty one names no type.
  catalogTypeId: z.string().min(1, "must not be empty"),
  /** Name of the attribute, unique within its type, e.g. `Tier`. */
  name: nameText(),
  /**
   * Type of its values: `String`, `Text`, `Number`, `Bool`, or another catalog type's `attributeType`
   * (e.g. `Custom["Team"]`) for values that refer to entries of that type.
   */
  type: idText(),
  /** Whether the attribute holds a list of values. */
  array: z.boolean().default(false),
  /**
   * How the attribute is maintained: `api` (through the API), `dashboard` (edited in the dashboard),
   * `backlink` (derived from another type's attribute that refers to this type: set
   * `backlinkAttribute`), `path` (follows a chain of attributes: set `path`). Left out: the API's default.
   */
  // reference: CatalogTypeAttributePayloadV3.mode enum
  mode: knownValues(MODES).optional(),
  /** For `mode: "backlink"`: id of the attribute (of the other type) this one mirrors. */
  backlinkAttribute: idText().optional(),
  /** For `mode: "path"`: the attribute ids to follow, in order. */
  path: z.array(idText()).optional(),
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
 * How the first change of a type whose schema no write holds waits for the others of its run before
 * the schema is read: until no change of that type has come for SCHEMA_BATCH_QUIET_MS, and at most
 * SCHEMA_BATCH_MAX_WAIT_MS. The engine sends a type's attributes as calls of their own, spaced by
 * its own work between steps (under the real CLI with a file backend, ≈20–30 ms apart, interleaved
 * with other kinds' calls): a fixed 20 ms window caught one or two of them (`npm run bench --
 * --kinds catalog-attributes --objects 400`: 486 requests to create 400 attributes of 50 types;
 * 186 with this wait). Deletes gain little: the engine runs at most 4 × CPUs steps at once, spread
 * over many types, so few deletes of one type are ever in flight together.
 */
export const SCHEMA_BATCH_QUIET_MS = 60;
export const SCHEMA_BATCH_MAX_WAIT_MS = 1000;

/** A change of a type's schema waiting for the type's next write. */
interface SchemaChange {
  operation: string;
  /** The new attributes from the current ones (payload form); throws when it cannot apply. */
  change: (attributes: Props[]) => Props[];
  /** A type that is gone leaves nothing to do (a delete) instead of failing. */
  goneIsDone: boolean;
  resolve(type: ApiCatalogType | undefined): void;
  reject(error: unknown): void;
}

/** The changes of a type that arrived since its last write began. */
interface Batch {
  changes: SchemaChange[];
  /** When the latest of them arrived (ms, performance.now()). */
  lastArrival: number;
}

/** Per type (account and id): its batch waiting for the type's next write. */
const waiting = new Map<string, Batch>();

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Read-modify-write of a type's schema under the type's lock: `change` gets the current attributes
 * (payload form) and answers the new list. A 409 (the version moved: someone else wrote) reads
 * again and retries. A write whose outcome is unknown (a 5xx, a reset, a lost answer) is checked
 * by reading the schema: one version on and holding what was sent, it is ours (never written
 * twice: a second add would duplicate the attribute); otherwise it is written again. Answers the
 * type as the API left it (undefined: the type is gone and `goneIsDone`).
 *
 * Batched: the changes of one type that wait for its lock (the attributes of a type created,
 * updated or deleted in one run, each a call of its own in the one provider process) are applied
 * together, in the order they arrived, to one read of the schema and written in one request, so
 * 8 attributes cost 2 requests, not 16 (24 to delete). Each change keeps its own outcome: one that
 * cannot apply (an update of an attribute that is gone) fails alone; a batch the API refuses (400,
 * 404, 422: nothing was written) is written again one change at a time, so each gets the answer
 * it would have had alone; a batch whose outcome stays unknown fails every change of it, which the
 * factory then recovers one by one as before (an attribute is found by name, never added twice).
 */
function writeSchemaOf(
  ctx: ApiContext,
  typeId: string,
  operation: string,
  change: (attributes: Props[]) => Props[],
  goneIsDone: boolean,
): Promise<ApiCatalogType | undefined> {
  const key = `catalog-schema:${ctx.client.account}:${typeId}`;
  return new Promise((resolve, reject) => {
    const item: SchemaChange = { operation, change, goneIsDone, resolve, reject };
    const waitingBatch = waiting.get(key);
    // A write is due that has not yet read the schema: this change goes with it.
    if (waitingBatch) {
      waitingBatch.changes.push(item);
      waitingBatch.lastArrival = performance.now();
      return;
    }
    const batch: Batch = { changes: [item], lastArrival: performance.now() };
    waiting.set(key, batch);
    const mutex = namedMutex(key);
    // Nothing holds the schema: wait for the rest of the run's changes to stop coming. Otherwise
    // the ones that come while the current write is under way gather until it ends.
    const gather = !mutex.locked;
    void mutex.run(async () => {
      if (gather) await quietOrMaxWait(batch);
      waiting.delete(key);
      await writeBatch(ctx, typeId, batch.changes);
    });
  });
}

/** Until no change has joined the batch for SCHEMA_BATCH_QUIET_MS, or SCHEMA_BATCH_MAX_WAIT_MS. */
async function quietOrMaxWait(batch: Batch): Promise<void> {
  const started = performance.now();
  for (;;) {
    const now = performance.now();
    const quietUntil = batch.lastArrival + SCHEMA_BATCH_QUIET_MS;
    const deadline = Math.min(quietUntil, started + SCHEMA_BATCH_MAX_WAIT_MS);
    if (now >= deadline) return;
    await sleep(deadline - now);
  }
}

/** Writes a batch of changes, answering each; never throws. */
async function writeBatch(ctx: ApiContext, typeId: string, changes: SchemaChange[]): Promise<void> {
  try {
    await writeChanges(ctx, typeId, changes);
  } catch (error) {
    // Refused for what was sent (nothing written): 400 or 422 naming a field, or 404 (the type went).
    const refused =
      error instanceof ApiError && !error.outcomeUnknown && [400, 404, 422].includes(error.status);
    if (changes.length > 1 && refused) {
      // Nothing was written: each change alone, for its own answer (which one the API refuses).
      for (const c of changes) await writeBatch(ctx, typeId, [c]);
      return;
    }
    for (const c of changes) c.reject(error);
  }
}

/** One read-modify-write (with its retries) of every change of a batch; throws the write's failure. */
async function writeChanges(ctx: ApiContext, typeId: string, changes: SchemaChange[]): Promise<void> {
  const operation =
    changes.length === 1
      ? changes[0]!.operation
      : `write catalog type schema (${changes.length} attribute changes)`;
  for (let attempt = 1; ; attempt++) {
    const type = await showType(ctx.client, typeId);
    if (!type) {
      const gone = new Error(`catalogTypeId: no catalog type with id ${JSON.stringify(typeId)} exists`);
      for (const c of changes) c.goneIsDone ? c.resolve(undefined) : c.reject(gone);
      return;
    }
    const before = type.schema.attributes.map(attributeAsPayload);
    let attributes = before;
    const applied: SchemaChange[] = [];
    const failed: [SchemaChange, unknown][] = [];
    for (const c of changes) {
      try {
        attributes = c.change(attributes);
        applied.push(c);
      } catch (error) {
        failed.push([c, error]);
      }
    }
    const settle = (written: ApiCatalogType) => {
      for (const c of applied) c.resolve(written);
      for (const [c, error] of failed) c.reject(error);
    };
    // Nothing to write (every change failed, or a delete of an attribute already gone).
    if (JSON.stringify(attributes) === JSON.stringify(before)) return settle(type);
    try {
      const body = await ctx.client.post<{ catalog_type: ApiCatalogType }>(
        `${typePath(typeId)}/actions/update_schema`,
        operation,
        { version: type.schema.version, attributes },
      );
      return settle(body.catalog_type);
    } catch (error) {
      if (error instanceof ApiError && error.outcomeUnknown) {
        const after = await showType(ctx.client, typeId);
        if (after && after.schema.version === type.schema.version + 1 && holds(after, attributes))
          return settle(after);
        if (attempt >= SCHEMA_ATTEMPTS) throw error;
        continue;
      }
      if (!(error instanceof ApiError && error.status === 409) || attempt >= SCHEMA_ATTEMPTS) throw error;
    }
  }
}

/** `writeSchemaOf` for a change that needs the type (a create or an update). */
export async function writeSchema(
  ctx: ApiContext,
  typeId: string,
  operation: string,
  change: (attributes: Props[]) => Props[],
): Promise<ApiCatalogType> {
  return (await writeSchemaOf(ctx, typeId, operation, change, false))!;
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
    // The reference says what each is for ("if this is a backlink", "if this is an path"), not that
    // it is required: warned.
    if (args.mode === "backlink" && args.backlinkAttribute === undefined) {
      problems.push({
        path: ["backlinkAttribute"],
        message: passedOn('is not set, and mode is "backlink"'),
        dependsOn: [["mode"]],
        severity: "warning" as const,
      });
    }
    if (args.mode === "path" && (args.path ?? []).length === 0) {
      problems.push({
        path: ["path"],
        message: passedOn('names no attribute, and mode is "path"'),
        dependsOn: [["mode"]],
        severity: "warning" as const,
      });
    }
    return problems;
  },
  idOf: (live) => live.attribute.id,
  partOf: "catalogTypeId",
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
      // A type that is gone (archived) took its attributes with it: nothing to do.
      await writeSchemaOf(
        ctx,
        olds.catalogTypeId,
        "remove catalog type attribute",
        (attributes) => attributes.filter((a) => a.id !== id),
        true,
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
  name: lookupName(),
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
