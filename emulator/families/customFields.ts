/**
 * Emulator family: custom fields (API v2). `GET/POST /v2/custom_fields`,
 * `GET/PUT/DELETE /v2/custom_fields/{id}`.
 *
 * - ids, `created_at` and `updated_at` are server-generated; `updated_at` moves on every update;
 * - `field_type` (and `catalog_type_id`) are create-only: a PUT body carrying them is tolerated
 *   (unknown fields are ignored) and they keep their values;
 * - update is a full replacement of the update payload: optional fields omitted are cleared;
 * - names are unique (422 on `name`) and must not be blank;
 * - deleting a field deletes its options (custom field options family).
 */
import { defineFamily, operation } from "../family";
import { type FieldProblem, notFound, throwIfProblems } from "../http/errors";
import { SETTINGS_ROLES } from "../roles";
import type { Store } from "../store";

export const CUSTOM_FIELDS = "custom_fields";

/** `CustomFieldV2` as stored (rendered as is). */
export interface StoredCustomField {
  id: string;
  name: string;
  description: string;
  field_type: string;
  catalog_type_id?: string;
  filter_by?: { catalog_attribute_id: string; custom_field_id: string };
  fixed_filter?: { catalog_attribute_id: string; values: string[] };
  group_by_catalog_attribute_id?: string;
  helptext_catalog_attribute_id?: string;
  created_at: string;
  updated_at: string;
}

/** The update payload's optional fields (cleared when a PUT omits them). */
const OPTIONAL = [
  "filter_by",
  "fixed_filter",
  "group_by_catalog_attribute_id",
  "helptext_catalog_attribute_id",
] as const;

/** `CustomFieldV2`. */
export function renderCustomField(f: StoredCustomField): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: f.id,
    name: f.name,
    description: f.description,
    field_type: f.field_type,
    created_at: f.created_at,
    updated_at: f.updated_at,
  };
  if (f.catalog_type_id !== undefined) out.catalog_type_id = f.catalog_type_id;
  for (const k of OPTIONAL) if (f[k] !== undefined) out[k] = structuredClone(f[k]);
  return out;
}

function nameProblems(store: Store, name: string, selfId?: string): FieldProblem[] {
  if (name.trim() === "") return [{ field: "name", message: "must not be empty" }];
  const taken = store
    .collection<StoredCustomField>(CUSTOM_FIELDS)
    .find((f) => f.id !== selfId && f.name === name);
  return taken
    ? [{ field: "name", message: `a custom field named ${JSON.stringify(name)} already exists` }]
    : [];
}

function optionalFields(body: Record<string, unknown>): Partial<StoredCustomField> {
  const out: Record<string, unknown> = {};
  for (const k of OPTIONAL) if (body[k] !== undefined && body[k] !== null) out[k] = body[k];
  return out as Partial<StoredCustomField>;
}

export function findCustomField(store: Store, id: string): StoredCustomField | undefined {
  return store.collection<StoredCustomField>(CUSTOM_FIELDS).get(id);
}

/** Hook for families whose records belong to a custom field (options): called when one is deleted. */
export const onCustomFieldDeleted: ((store: Store, fieldId: string) => void)[] = [];

export const customFields = defineFamily({
  name: "custom_fields",
  roles: SETTINGS_ROLES,
  collections: [CUSTOM_FIELDS],
  routes: [
    operation("CustomFieldsV2List", "read", ({ store }) => ({
      body: {
        custom_fields: store.collection<StoredCustomField>(CUSTOM_FIELDS).all().map(renderCustomField),
      },
    })),

    operation("CustomFieldsV2Create", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(nameProblems(store, body.name));
      const field: StoredCustomField = {
        id: newId(),
        name: body.name,
        description: body.description,
        field_type: body.field_type,
        ...(typeof body.catalog_type_id === "string" ? { catalog_type_id: body.catalog_type_id } : {}),
        ...optionalFields(body),
        created_at: nowIso,
        updated_at: nowIso,
      };
      const stored = store.collection<StoredCustomField>(CUSTOM_FIELDS).set(field);
      return { body: { custom_field: renderCustomField(stored) } };
    }),

    operation("CustomFieldsV2Show", "read", ({ store, params }) => {
      const f = findCustomField(store, params.id!);
      if (!f) throw notFound(`No custom field with id ${params.id}`);
      return { body: { custom_field: renderCustomField(f) } };
    }),

    operation("CustomFieldsV2Update", "write", ({ store, params, body, nowIso }) => {
      const f = findCustomField(store, params.id!);
      if (!f) throw notFound(`No custom field with id ${params.id}`);
      throwIfProblems(nameProblems(store, body.name, f.id));
      const next: StoredCustomField = {
        id: f.id,
        name: body.name,
        description: body.description,
        field_type: f.field_type,
        ...(f.catalog_type_id !== undefined ? { catalog_type_id: f.catalog_type_id } : {}),
        ...optionalFields(body),
        created_at: f.created_at,
        updated_at: nowIso,
      };
      const stored = store.collection<StoredCustomField>(CUSTOM_FIELDS).set(next);
      return { body: { custom_field: renderCustomField(stored) } };
    }),

    operation("CustomFieldsV2Delete", "write", ({ store, params }) => {
      if (!findCustomField(store, params.id!)) throw notFound(`No custom field with id ${params.id}`);
      store.collection(CUSTOM_FIELDS).delete(params.id!);
      for (const hook of onCustomFieldDeleted) hook(store, params.id!);
      return {};
    }),
  ],
});
