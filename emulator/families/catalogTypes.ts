/**
 * Emulator family: catalog types (API v3) and their schema. `GET/POST /v3/catalog_types`
 * (unpaginated), `GET/PUT/DELETE /v3/catalog_types/{id}`, `POST /v3/catalog_types/{id}/actions/update_schema`
 * (reference family `catalog_type_attributes`: it has no endpoints of its own).
 *
 * Rules (reference.json, SUMMARY.md "catalog_types" / "catalog_type_attributes"):
 * - `type_name` is create-only ("immutable once created") and must follow `Custom["SomeName"]`
 *   (422 on `type_name`); it is unique in the account. Left out, it is derived from the name
 *   (`Custom["KubernetesCluster"]` for "Kubernetes cluster"). A PUT carrying it is tolerated and ignored.
 * - `engine_resource_type` is `CatalogEntry["<type id>"]` (what an alert attribute's `type` names).
 * - Create and update never touch the schema; `update_schema` replaces the whole attribute list
 *   and must carry the current `schema.version` (409 `conflict` when stale, so two writers doing
 *   read-modify-write cannot lose each other's attributes); the version goes up by one per change.
 *   An attribute `id` that is not one of the type's attributes is a 422; one left out is a new
 *   attribute; attributes left out of the list are removed. Attribute names are unique within a type.
 *   An attribute's `type` is `String`, `Text`, `Number`, `Bool` or the `type_name` of a catalog type.
 * - Delete archives the type and its entries: both are then 404 and left out of lists.
 */
import { defineFamily, operation } from "../family";
import { conflict, type FieldProblem, notFound, throwIfProblems } from "../http/errors";
import { type FamilyRoles, teamOwnedBy } from "../roles";
import type { Store } from "../store";
import { compact } from "./shared/records";
import { requireTeams } from "./teams";

type Json = any;

export const CATALOG_TYPES = "catalog_types";

/** Catalog types and entries: read by viewer and catalog_viewer, written by catalog_editor (also as a team role). */
export const CATALOG_ROLES: FamilyRoles = {
  read: ["viewer", "catalog_viewer"],
  write: ["catalog_editor"],
  teamWrite: ["catalog_editor"],
};

export interface StoredCatalogAttribute {
  id: string;
  name: string;
  type: string;
  array: boolean;
  mode: string;
  backlink_attribute?: string;
  path?: { attribute_id: string }[];
}

export interface StoredCatalogType {
  id: string;
  name: string;
  description: string;
  type_name: string;
  annotations: Record<string, string>;
  categories: string[];
  color: string;
  icon: string;
  ranked: boolean;
  use_name_as_identifier: boolean;
  owning_team_ids?: string[];
  source_repo_url?: string;
  schema: { version: number; attributes: StoredCatalogAttribute[] };
  created_at: string;
  updated_at: string;
  archived: boolean;
}

/** Attribute types every catalog understands besides other catalog types. */
export const PRIMITIVE_ATTRIBUTE_TYPES: readonly string[] = ["String", "Text", "Number", "Bool"];

const TYPE_NAME = /^Custom\["[A-Za-z][A-Za-z0-9]*"\]$/;

/** `Custom["KubernetesCluster"]` for "Kubernetes cluster". */
export function derivedTypeName(name: string): string {
  const words = name.match(/[A-Za-z0-9]+/g) ?? [];
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return `Custom["${/^[A-Za-z]/.test(joined) ? joined : `Type${joined}`}"]`;
}

export function findCatalogType(store: Store, id: string): StoredCatalogType | undefined {
  const t = store.collection<StoredCatalogType>(CATALOG_TYPES).get(id);
  return t && !t.archived ? t : undefined;
}

export function activeCatalogTypes(store: Store): StoredCatalogType[] {
  return store.collection<StoredCatalogType>(CATALOG_TYPES).filter((t) => !t.archived);
}

function typeProblems(store: Store, body: Json, selfId?: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (body.name.trim() === "") problems.push({ field: "name", message: "must not be empty" });
  if (selfId === undefined && typeof body.type_name === "string") {
    if (!TYPE_NAME.test(body.type_name)) {
      problems.push({ field: "type_name", message: 'must follow the pattern Custom["SomeName"]' });
    } else if (activeCatalogTypes(store).some((t) => t.type_name === body.type_name)) {
      problems.push({ field: "type_name", message: `a catalog type ${body.type_name} already exists` });
    }
  }
  return problems;
}

function settableFields(body: Json, previous?: StoredCatalogType): Partial<StoredCatalogType> {
  return {
    name: body.name,
    description: body.description,
    annotations: body.annotations ?? previous?.annotations ?? {},
    categories: body.categories ?? previous?.categories ?? [],
    color: body.color ?? previous?.color ?? "blue",
    icon: body.icon ?? previous?.icon ?? "box",
    ranked: body.ranked ?? previous?.ranked ?? false,
    use_name_as_identifier: body.use_name_as_identifier ?? previous?.use_name_as_identifier ?? false,
    owning_team_ids: body.owning_team_ids ?? previous?.owning_team_ids,
    source_repo_url: body.source_repo_url ?? previous?.source_repo_url,
  };
}

/** CatalogTypeV3. */
export function renderCatalogType(t: StoredCatalogType): Json {
  const byId = new Map(t.schema.attributes.map((a) => [a.id, a.name]));
  return compact({
    id: t.id,
    name: t.name,
    description: t.description,
    type_name: t.type_name,
    engine_resource_type: `CatalogEntry["${t.id}"]`,
    annotations: t.annotations,
    categories: t.categories,
    color: t.color,
    icon: t.icon,
    ranked: t.ranked,
    use_name_as_identifier: t.use_name_as_identifier,
    is_editable: true,
    owning_team_ids: t.owning_team_ids,
    source_repo_url: t.source_repo_url,
    schema: {
      version: t.schema.version,
      attributes: t.schema.attributes.map((a) =>
        compact({
          id: a.id,
          name: a.name,
          type: a.type,
          array: a.array,
          mode: a.mode,
          backlink_attribute: a.backlink_attribute,
          path: a.path?.map((p) => ({
            attribute_id: p.attribute_id,
            attribute_name: byId.get(p.attribute_id) ?? "",
          })),
        }),
      ),
    },
    created_at: t.created_at,
    updated_at: t.updated_at,
  });
}

function schemaProblems(store: Store, t: StoredCatalogType, attributes: Json[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const existing = new Set(t.schema.attributes.map((a) => a.id));
  const typeNames = new Set([
    ...PRIMITIVE_ATTRIBUTE_TYPES,
    ...activeCatalogTypes(store).map((x) => x.type_name),
  ]);
  const names = new Set<string>();
  attributes.forEach((a, i) => {
    if (a.id !== undefined && !existing.has(a.id)) {
      problems.push({ field: `attributes.${i}.id`, message: `no attribute with id ${a.id} on this type` });
    }
    if (a.name.trim() === "") problems.push({ field: `attributes.${i}.name`, message: "must not be empty" });
    if (names.has(a.name)) {
      problems.push({ field: `attributes.${i}.name`, message: `another attribute is named "${a.name}"` });
    }
    names.add(a.name);
    if (!typeNames.has(a.type)) {
      problems.push({
        field: `attributes.${i}.type`,
        message: `unknown attribute type ${JSON.stringify(a.type)} (String, Text, Number, Bool or a catalog type's type_name)`,
      });
    }
  });
  return problems;
}

export const catalogTypes = defineFamily({
  name: "catalog_types",
  // Types name their owners (`owning_team_ids`; omitted on update: unchanged); entries do not.
  roles: {
    ...CATALOG_ROLES,
    teamOwned: teamOwnedBy(
      findCatalogType,
      (t) => t.owning_team_ids,
      (body) => body.owning_team_ids,
    ),
  },
  collections: [CATALOG_TYPES],
  routes: [
    operation("CatalogV3ListTypes", "read", ({ store }) => ({
      body: { catalog_types: activeCatalogTypes(store).map(renderCatalogType) },
    })),

    operation("CatalogV3CreateType", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(typeProblems(store, body));
      requireTeams(store, body.owning_team_ids);
      const stored = store.collection<StoredCatalogType>(CATALOG_TYPES).set({
        id: newId(),
        ...(settableFields(body) as Omit<StoredCatalogType, "id">),
        type_name: body.type_name ?? derivedTypeName(body.name),
        schema: { version: 1, attributes: [] },
        created_at: nowIso,
        updated_at: nowIso,
        archived: false,
      });
      return { body: { catalog_type: renderCatalogType(stored) } };
    }),

    operation("CatalogV3ShowType", "read", ({ store, params }) => {
      const t = findCatalogType(store, params.id!);
      if (!t) throw notFound(`No catalog type with id ${params.id}`);
      return { body: { catalog_type: renderCatalogType(t) } };
    }),

    operation("CatalogV3UpdateType", "write", ({ store, params, body, nowIso }) => {
      const t = findCatalogType(store, params.id!);
      if (!t) throw notFound(`No catalog type with id ${params.id}`);
      throwIfProblems(typeProblems(store, body, t.id));
      requireTeams(store, body.owning_team_ids);
      const stored = store
        .collection<StoredCatalogType>(CATALOG_TYPES)
        .set({ ...t, ...settableFields(body, t), updated_at: nowIso });
      return { body: { catalog_type: renderCatalogType(stored) } };
    }),

    operation("CatalogV3UpdateTypeSchema", "write", ({ store, params, body, newId, nowIso }) => {
      const t = findCatalogType(store, params.id!);
      if (!t) throw notFound(`No catalog type with id ${params.id}`);
      if (body.version !== t.schema.version) {
        throw conflict(
          `schema version ${body.version} is stale: the type's schema is at version ${t.schema.version} (read it again)`,
        );
      }
      throwIfProblems(schemaProblems(store, t, body.attributes));
      const attributes: StoredCatalogAttribute[] = body.attributes.map(
        (a: Json) =>
          compact({
            id: a.id ?? newId(),
            name: a.name,
            type: a.type,
            array: a.array,
            mode: a.mode ?? "",
            backlink_attribute: a.backlink_attribute,
            path: a.path?.map((p: Json) => ({ attribute_id: p.attribute_id })),
          }) as StoredCatalogAttribute,
      );
      const stored = store.collection<StoredCatalogType>(CATALOG_TYPES).set({
        ...t,
        schema: { version: t.schema.version + 1, attributes },
        updated_at: nowIso,
      });
      return { body: { catalog_type: renderCatalogType(stored) } };
    }),

    operation("CatalogV3DestroyType", "write", ({ store, params }) => {
      const t = findCatalogType(store, params.id!);
      if (!t) throw notFound(`No catalog type with id ${params.id}`);
      store.collection<StoredCatalogType>(CATALOG_TYPES).set({ ...t, archived: true });
      return {};
    }),
  ],
});
