/**
 * Emulator family: catalog entries (API v3). `GET/POST /v3/catalog_entries` (list paginated, by
 * `catalog_type_id`), `GET/PUT/DELETE /v3/catalog_entries/{id}`, `POST /v3/catalog_entries/actions/bulk_update`.
 *
 * Rules (reference.json, SUMMARY.md "catalog_entries"):
 * - Create is an upsert: a POST whose (`catalog_type_id`, `external_id`) matches an entry updates
 *   that entry (same id). At most 50,000 entries per type (422 `catalog_type_id`). `external_id` is
 *   unique within the type (a PUT moving it onto another entry's is a 422).
 * - `attribute_values` keys are attribute ids of the entry's type (422 `attribute_values.<key>`); an
 *   array attribute takes `array_value`, a single one `value`. On read each value carries a `label`:
 *   for an attribute whose type is a catalog type, the name of the entry its literal identifies (id,
 *   external id or alias), else the literal itself. Values of attributes since removed from the
 *   schema are left out.
 * - Update (PUT) replaces every attribute value, or only the keys in `update_attributes`; omitted
 *   `aliases`, `external_id` and `rank` are kept.
 * - bulk_update: 1–250 entries of one type, atomic (one bad entry and nothing changes, 422 naming
 *   `entries.<i>…`); per entry omitted `name` / `aliases` / `external_id` are kept and an omitted
 *   `rank` is cleared (answered as 0). Answers 204.
 * - List: creation order; `identifier` matches id, external id, aliases, and the name when the type
 *   uses names as identifiers; `pagination_meta.total_record_count` is the number of matching entries.
 * - Delete archives: the entry is then 404 and left out of lists. Entries of an archived type are gone too.
 */
import { defineFamily, operation, paginate } from "../family";
import { badRequest, type FieldProblem, notFound, throwIfProblems } from "../http/errors";
import type { Store } from "../store";
import {
  CATALOG_ROLES,
  CATALOG_TYPES,
  findCatalogType,
  renderCatalogType,
  type StoredCatalogType,
} from "./catalogTypes";
import { compact } from "./shared/records";

type Json = any;

export const CATALOG_ENTRIES = "catalog_entries";
/** The API's limit ("We support a maximum of 50,000 entries per type"). */
export const MAX_ENTRIES_PER_TYPE = 50_000;
/** bulk_update's limit ("up to 250 entries at once"). */
export const MAX_BULK_UPDATE = 250;

interface StoredBinding {
  value?: string;
  array_value?: string[];
}

export interface StoredCatalogEntry {
  id: string;
  catalog_type_id: string;
  name: string;
  external_id?: string;
  aliases: string[];
  rank?: number;
  attribute_values: Record<string, StoredBinding>;
  created_at: string;
  updated_at: string;
  archived: boolean;
}

const entries = (store: Store) => store.collection<StoredCatalogEntry>(CATALOG_ENTRIES);

function entriesOf(store: Store, typeId: string): StoredCatalogEntry[] {
  return entries(store).filter((e) => e.catalog_type_id === typeId && !e.archived);
}

function findEntry(store: Store, id: string): StoredCatalogEntry | undefined {
  const e = entries(store).get(id);
  return e && !e.archived && findCatalogType(store, e.catalog_type_id) ? e : undefined;
}

function requireType(store: Store, id: string): StoredCatalogType {
  const t = findCatalogType(store, id);
  if (!t) throw badRequest(`No catalog type with id ${id}`, "invalid_reference");
  return t;
}

/** True when `identifier` names the entry (id, external id, alias; name when the type allows). */
function identifies(e: StoredCatalogEntry, identifier: string, byName: boolean): boolean {
  return (
    e.id === identifier ||
    e.external_id === identifier ||
    e.aliases.includes(identifier) ||
    (byName && e.name === identifier)
  );
}

/** The stored bindings of a payload's `attribute_values`, with its problems (field paths under `prefix`). */
function bindingsOf(
  type: StoredCatalogType,
  values: Record<string, Json>,
  prefix: string,
  problems: FieldProblem[],
): Record<string, StoredBinding> {
  const attributes = new Map(type.schema.attributes.map((a) => [a.id, a]));
  const out: Record<string, StoredBinding> = {};
  for (const [key, binding] of Object.entries(values)) {
    const attribute = attributes.get(key);
    const field = `${prefix}attribute_values.${key}`;
    if (!attribute) {
      problems.push({ field, message: `no attribute with id ${key} on catalog type ${type.name}` });
      continue;
    }
    if (attribute.array && binding.value !== undefined) {
      problems.push({
        field: `${field}.value`,
        message: `attribute ${attribute.name} is an array: use array_value`,
      });
    } else if (!attribute.array && binding.array_value !== undefined) {
      problems.push({
        field: `${field}.array_value`,
        message: `attribute ${attribute.name} is not an array: use value`,
      });
    }
    out[key] = compact({
      value: binding.value?.literal,
      array_value: binding.array_value?.flatMap((v: Json) => (v.literal === undefined ? [] : [v.literal])),
    });
  }
  return out;
}

/** An entry's name for a literal that identifies it, for attributes whose type is a catalog type. */
function labeller(store: Store): (type: string, literal: string) => string {
  const types = new Map<string, StoredCatalogType | undefined>();
  return (typeName, literal) => {
    if (!types.has(typeName)) {
      const all = store.collection<StoredCatalogType>(CATALOG_TYPES).filter((t) => !t.archived);
      types.set(
        typeName,
        all.find((t) => t.type_name === typeName),
      );
    }
    const target = types.get(typeName);
    if (!target) return literal;
    const found = entriesOf(store, target.id).find((e) =>
      identifies(e, literal, target.use_name_as_identifier),
    );
    return found?.name ?? literal;
  };
}

/** CatalogEntryV3. */
export function renderCatalogEntry(
  type: StoredCatalogType,
  e: StoredCatalogEntry,
  label: (type: string, literal: string) => string,
): Json {
  const values: Record<string, Json> = {};
  for (const attribute of type.schema.attributes) {
    const b = e.attribute_values[attribute.id];
    if (!b) continue;
    const one = (literal: string) => ({ literal, label: label(attribute.type, literal) });
    values[attribute.id] = compact({
      value: b.value === undefined ? undefined : one(b.value),
      array_value: b.array_value?.map(one),
    });
  }
  return compact({
    id: e.id,
    catalog_type_id: e.catalog_type_id,
    name: e.name,
    external_id: e.external_id,
    aliases: e.aliases,
    rank: e.rank ?? 0,
    attribute_values: values,
    created_at: e.created_at,
    updated_at: e.updated_at,
  });
}

function showEntry(store: Store, e: StoredCatalogEntry): Json {
  const type = findCatalogType(store, e.catalog_type_id)!;
  return {
    catalog_entry: renderCatalogEntry(type, e, labeller(store)),
    catalog_type: renderCatalogType(type),
  };
}

function nameProblem(name: unknown, field: string): FieldProblem[] {
  return typeof name === "string" && name.trim() === "" ? [{ field, message: "must not be empty" }] : [];
}

function externalIdTaken(store: Store, typeId: string, externalId: unknown, selfId: string): boolean {
  return (
    typeof externalId === "string" &&
    entriesOf(store, typeId).some((e) => e.external_id === externalId && e.id !== selfId)
  );
}

export const catalogEntries = defineFamily({
  name: "catalog_entries",
  roles: CATALOG_ROLES,
  collections: [CATALOG_ENTRIES],
  routes: [
    operation("CatalogV3ListEntries", "read", ({ store, query }) => {
      const type = requireType(store, String(query.catalog_type_id));
      const identifier = typeof query.identifier === "string" ? query.identifier : undefined;
      const all = entriesOf(store, type.id).filter(
        (e) => identifier === undefined || identifies(e, identifier, type.use_name_as_identifier),
      );
      const { page, pagination_meta } = paginate(all, query);
      const label = labeller(store);
      return {
        body: {
          catalog_entries: page.map((e) => renderCatalogEntry(type, e, label)),
          catalog_type: renderCatalogType(type),
          pagination_meta: { ...pagination_meta, total_record_count: all.length },
        },
      };
    }),

    operation("CatalogV3CreateEntry", "write", ({ store, body, newId, nowIso }) => {
      const type = requireType(store, body.catalog_type_id);
      const problems = nameProblem(body.name, "name");
      const attribute_values = bindingsOf(type, body.attribute_values, "", problems);
      throwIfProblems(problems);
      const existing =
        body.external_id === undefined
          ? undefined
          : entriesOf(store, type.id).find((e) => e.external_id === body.external_id);
      if (!existing && entriesOf(store, type.id).length >= MAX_ENTRIES_PER_TYPE) {
        throwIfProblems([
          {
            field: "catalog_type_id",
            message: `a catalog type holds at most ${MAX_ENTRIES_PER_TYPE} entries`,
          },
        ]);
      }
      const stored = entries(store).set({
        ...(existing ?? { id: newId(), created_at: nowIso, archived: false }),
        catalog_type_id: type.id,
        name: body.name,
        ...compact({ external_id: body.external_id, rank: body.rank }),
        aliases: body.aliases ?? existing?.aliases ?? [],
        attribute_values,
        updated_at: nowIso,
      } as StoredCatalogEntry);
      return { body: { catalog_entry: showEntry(store, stored).catalog_entry } };
    }),

    operation("CatalogV3ShowEntry", "read", ({ store, params }) => {
      const e = findEntry(store, params.id!);
      if (!e) throw notFound(`No catalog entry with id ${params.id}`);
      return { body: showEntry(store, e) };
    }),

    operation("CatalogV3UpdateEntry", "write", ({ store, params, body, nowIso }) => {
      const e = findEntry(store, params.id!);
      if (!e) throw notFound(`No catalog entry with id ${params.id}`);
      const type = findCatalogType(store, e.catalog_type_id)!;
      const problems = nameProblem(body.name, "name");
      if (externalIdTaken(store, type.id, body.external_id, e.id)) {
        problems.push({
          field: "external_id",
          message: `another entry of this type has external id ${body.external_id}`,
        });
      }
      const given = bindingsOf(type, body.attribute_values, "", problems);
      throwIfProblems(problems);
      const stored = entries(store).set({
        ...e,
        name: body.name,
        external_id: body.external_id ?? e.external_id,
        aliases: body.aliases ?? e.aliases,
        rank: body.rank ?? e.rank,
        attribute_values: merged(e.attribute_values, given, body.update_attributes),
        updated_at: nowIso,
      });
      return { body: showEntry(store, stored) };
    }),

    operation("CatalogV3DestroyEntry", "write", ({ store, params }) => {
      const e = findEntry(store, params.id!);
      if (!e) throw notFound(`No catalog entry with id ${params.id}`);
      entries(store).set({ ...e, archived: true });
      return {};
    }),

    operation("CatalogV3BulkUpdateEntries", "write", ({ store, body, nowIso }) => {
      const type = requireType(store, body.catalog_type_id);
      const problems: FieldProblem[] = [];
      if (body.entries.length === 0 || body.entries.length > MAX_BULK_UPDATE) {
        problems.push({ field: "entries", message: `must hold 1 to ${MAX_BULK_UPDATE} entries` });
      }
      const updates = body.entries.map((u: Json, i: number) => {
        const prefix = `entries.${i}.`;
        const e = findEntry(store, u.entry_id);
        if (!e || e.catalog_type_id !== type.id) {
          problems.push({
            field: `${prefix}entry_id`,
            message: `no entry with id ${u.entry_id} in this catalog type`,
          });
        }
        problems.push(...nameProblem(u.name, `${prefix}name`));
        if (e && externalIdTaken(store, type.id, u.external_id, e.id)) {
          problems.push({
            field: `${prefix}external_id`,
            message: `another entry has external id ${u.external_id}`,
          });
        }
        return { e, given: bindingsOf(type, u.attribute_values, prefix, problems), u };
      });
      throwIfProblems(problems);
      for (const { e, given, u } of updates) {
        entries(store).set({
          ...e!,
          name: u.name ?? e!.name,
          aliases: u.aliases ?? e!.aliases,
          external_id: u.external_id ?? e!.external_id,
          rank: u.rank,
          attribute_values: merged(e!.attribute_values, given, body.update_attributes),
          updated_at: nowIso,
        });
      }
      return {};
    }),
  ],
});

/** The attribute values after an update: all replaced, or only the keys in `update_attributes`. */
function merged(
  current: Record<string, StoredBinding>,
  given: Record<string, StoredBinding>,
  only: string[] | undefined,
): Record<string, StoredBinding> {
  if (only === undefined) return given;
  const out = { ...current };
  for (const key of only) {
    if (given[key] === undefined) delete out[key];
    else out[key] = given[key]!;
  }
  return out;
}
