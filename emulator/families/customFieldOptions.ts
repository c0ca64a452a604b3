/**
 * Emulator family: custom field options (API v1). `GET/POST /v1/custom_field_options`,
 * `GET/PUT/DELETE /v1/custom_field_options/{id}`.
 *
 * - list needs `custom_field_id` (422 `is_required` without it; 400 when no such field); paginated
 *   with `page_size` / `after`, in creation order;
 * - create: `sort_key` defaults to 1000; the field must exist (400) and be a select field (422 on
 *   `custom_field_id`); `custom_field_id` is create-only;
 * - update: `value` and `sort_key` both required (full PUT);
 * - `value` must not be empty, start or end with whitespace, or contain tabs or newlines, and is
 *   unique within its field (422 on `value`);
 * - the options of a deleted custom field are deleted with it.
 */
import { defineFamily, operation, paginate } from "../family";
import { badRequest, type FieldProblem, notFound, throwIfProblems } from "../http/errors";
import { SETTINGS_ROLES } from "../roles";
import type { Store } from "../store";
import { findCustomField, onCustomFieldDeleted, type StoredCustomField } from "./customFields";

export const CUSTOM_FIELD_OPTIONS = "custom_field_options";

/** Sort key given to an option created without one. */
export const DEFAULT_SORT_KEY = 1000;

const SELECT_TYPES = new Set(["single_select", "multi_select"]);

/** `CustomFieldOptionV1` as stored (rendered as is). */
export interface StoredCustomFieldOption {
  id: string;
  custom_field_id: string;
  value: string;
  sort_key: number;
}

export function renderOption(o: StoredCustomFieldOption): Record<string, unknown> {
  return { id: o.id, custom_field_id: o.custom_field_id, value: o.value, sort_key: o.sort_key };
}

function options(store: Store) {
  return store.collection<StoredCustomFieldOption>(CUSTOM_FIELD_OPTIONS);
}

function valueProblems(store: Store, fieldId: string, value: string, selfId?: string): FieldProblem[] {
  if (value === "") return [{ field: "value", message: "must not be empty" }];
  if (value.trim() !== value) return [{ field: "value", message: "must not start or end with whitespace" }];
  if (/[\t\n\r]/.test(value)) return [{ field: "value", message: "must not contain tabs or newlines" }];
  const taken = options(store).find(
    (o) => o.custom_field_id === fieldId && o.id !== selfId && o.value === value,
  );
  return taken
    ? [{ field: "value", message: `the field already has an option ${JSON.stringify(value)}` }]
    : [];
}

function requireField(store: Store, id: string): StoredCustomField {
  const field = findCustomField(store, id);
  if (!field) throw badRequest(`No custom field with id ${id}`, "invalid_reference");
  return field;
}

onCustomFieldDeleted.push((store, fieldId) => {
  for (const o of options(store).filter((x) => x.custom_field_id === fieldId)) options(store).delete(o.id);
});

export const customFieldOptions = defineFamily({
  name: "custom_field_options",
  roles: SETTINGS_ROLES,
  collections: [CUSTOM_FIELD_OPTIONS],
  routes: [
    operation("CustomFieldOptionsV1List", "read", ({ store, query }) => {
      const fieldId = query.custom_field_id as string;
      requireField(store, fieldId);
      const { page, pagination_meta } = paginate(
        options(store).filter((o) => o.custom_field_id === fieldId),
        query,
      );
      return { body: { custom_field_options: page.map(renderOption), pagination_meta } };
    }),

    operation("CustomFieldOptionsV1Create", "write", ({ store, body, newId }) => {
      const field = requireField(store, body.custom_field_id);
      const problems: FieldProblem[] = [];
      if (!SELECT_TYPES.has(field.field_type)) {
        problems.push({
          field: "custom_field_id",
          message: `options can only be added to single_select and multi_select fields (this one is ${field.field_type})`,
        });
      }
      problems.push(...valueProblems(store, field.id, body.value));
      throwIfProblems(problems);
      const stored = options(store).set({
        id: newId(),
        custom_field_id: field.id,
        value: body.value,
        sort_key: body.sort_key ?? DEFAULT_SORT_KEY,
      });
      return { body: { custom_field_option: renderOption(stored) } };
    }),

    operation("CustomFieldOptionsV1Show", "read", ({ store, params }) => {
      const o = options(store).get(params.id!);
      if (!o) throw notFound(`No custom field option with id ${params.id}`);
      return { body: { custom_field_option: renderOption(o) } };
    }),

    operation("CustomFieldOptionsV1Update", "write", ({ store, params, body }) => {
      const o = options(store).get(params.id!);
      if (!o) throw notFound(`No custom field option with id ${params.id}`);
      throwIfProblems(valueProblems(store, o.custom_field_id, body.value, o.id));
      const stored = options(store).set({ ...o, value: body.value, sort_key: body.sort_key });
      return { body: { custom_field_option: renderOption(stored) } };
    }),

    operation("CustomFieldOptionsV1Delete", "write", ({ store, params }) => {
      if (!options(store).delete(params.id!)) throw notFound(`No custom field option with id ${params.id}`);
      return {};
    }),
  ],
});
