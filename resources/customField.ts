/**
 * Manages a custom field (API v2; v1 is deprecated) and, optionally, its select options inline.
 *
 * Arguments: `name` (unique), `description`, `fieldType` (`single_select`, `multi_select`, `text`, `link`,
 * `numeric`; changing it replaces the field, deleting the old one first because names are unique),
 * `catalogTypeId` (replaces), `filterBy`, `fixedFilter`, `groupByCatalogAttributeId`,
 * `helptextCatalogAttributeId`, `options` (ordered option values; unset = options not managed here),
 * `adoptId`. Outputs: every argument, `createdAt`, `updatedAt`, `optionIds` (value → option id).
 * Options are given sort keys 10, 20, …; an update keeps the id of every option still declared, renames
 * an option in place when its position is kept, and never reorders or drops the ones you keep. Adoption:
 * `adoptId` = the field's id (`GET /v2/custom_fields`).
 */
import { z } from "zod";
import { knownValues, passedOn } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { ApiError, unlessNotFound } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { defineLookup, pickByName } from "../provider/functions";
import { freeText, idText, nameText } from "../provider/inputs";
import { caseMappedObject } from "../provider/naming";
import { type ApiContext, PartialCreateError, type Props, type ResourceSpec } from "../provider/spec";
import { customFieldOptionValue } from "./shared/customFieldOptionValue";

const FIELD_TYPES = ["link", "multi_select", "numeric", "single_select", "text"] as const;
const SELECT_TYPES: ReadonlySet<string> = new Set(["single_select", "multi_select"]);

/**
 * Inputs of a custom field (API v2; v1 is deprecated). Select options can be declared inline here
 * (`options`) or as separate `CustomFieldOption` resources; leave `options` unset when you use the latter.
 */
export const customFieldInputs = z.strictObject({
  /** Human readable name of the custom field, unique in the account. */
  name: nameText(),
  /** Description shown to responders. */
  description: freeText(),
  /** Type of the field: `single_select`, `multi_select`, `text`, `link` or `numeric`. Changing it replaces the field. */
  // reference: CustomFieldsCreatePayloadV2.field_type enum
  fieldType: knownValues(FIELD_TYPES),
  /** For catalog-backed fields, the catalog type the options come from. Changing it replaces the field. */
  catalogTypeId: idText().optional(),
  /** For catalog fields: only offer entries whose attribute matches another custom field's value. */
  filterBy: z
    .strictObject({
      /** Attribute of this field's catalog type that points at the other field's catalog type. */
      catalogAttributeId: idText(),
      /** The custom field whose value filters this one. */
      customFieldId: idText(),
    })
    .optional(),
  /** For catalog fields: only offer entries whose attribute references one of these entries. */
  fixedFilter: z
    .strictObject({
      /** Attribute of this field's catalog type to filter on. */
      catalogAttributeId: idText(),
      /** Catalog entry ids the attribute must reference. */
      values: z.array(idText()),
    })
    .optional(),
  /** For catalog fields: the attribute used to group entries. */
  groupByCatalogAttributeId: idText().optional(),
  /** For catalog fields: the attribute that provides help text for options. */
  helptextCatalogAttributeId: idText().optional(),
  /**
   * Ordered option values of a select field, managed inline. Order is kept (sort keys 10, 20, …);
   * an update renames an option in place, adds and removes others, and never reorders or drops the
   * ones you keep. Unset = options are not managed here.
   */
  options: z.array(customFieldOptionValue).optional(),
  /** Id of an existing custom field to take over instead of creating one (`pulumi import` does not work for dynamic resources). */
  adoptId: z.string().min(1).optional(),
});

export type CustomFieldInputs = z.infer<typeof customFieldInputs>;

/** Outputs beyond the inputs. */
export interface CustomFieldComputed {
  /** When the field was created. */
  createdAt: string;
  /** When the field was last updated. */
  updatedAt: string;
  /** Id of each inline option, by value (use them in conditions and workflows). */
  optionIds: Record<string, string>;
}

interface ApiCustomField {
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
interface ApiOption {
  id: string;
  custom_field_id: string;
  value: string;
  sort_key: number;
}
/** The live object: the field, plus its options when they are managed inline. */
export interface LiveCustomField {
  field: ApiCustomField;
  options?: ApiOption[];
}

const SORT_STEP = 10;

// Sub-objects whose API form differs only in key case: mapped both ways from one field list.
const filterByFields = caseMappedObject<NonNullable<CustomFieldInputs["filterBy"]>>([
  "catalogAttributeId",
  "customFieldId",
]);
const fixedFilterFields = caseMappedObject<NonNullable<CustomFieldInputs["fixedFilter"]>>([
  "catalogAttributeId",
  "values",
]);

export function customFieldPayload(args: CustomFieldInputs, forCreate: boolean): Props {
  return {
    name: args.name,
    description: args.description,
    ...(forCreate ? { field_type: args.fieldType, catalog_type_id: args.catalogTypeId } : {}),
    filter_by: filterByFields.toApi(args.filterBy),
    fixed_filter: fixedFilterFields.toApi(args.fixedFilter),
    group_by_catalog_attribute_id: args.groupByCatalogAttributeId,
    helptext_catalog_attribute_id: args.helptextCatalogAttributeId,
  };
}

export function customFieldFromApi(
  live: LiveCustomField,
  declared: CustomFieldInputs | undefined,
): CustomFieldInputs {
  const f = live.field;
  return {
    name: f.name,
    description: f.description,
    fieldType: f.field_type as CustomFieldInputs["fieldType"],
    catalogTypeId: f.catalog_type_id,
    filterBy: filterByFields.fromApi(f.filter_by),
    fixedFilter: fixedFilterFields.fromApi(f.fixed_filter),
    groupByCatalogAttributeId: f.group_by_catalog_attribute_id,
    helptextCatalogAttributeId: f.helptext_catalog_attribute_id,
    // Inline options are reported only when they are managed here.
    options:
      declared?.options !== undefined && live.options
        ? sortedOptions(live.options).map((o) => o.value)
        : undefined,
  };
}

function sortedOptions(options: ApiOption[]): ApiOption[] {
  return options
    .map((o, i) => ({ o, i }))
    .sort((a, b) => a.o.sort_key - b.o.sort_key || a.i - b.i)
    .map(({ o }) => o);
}

async function listOptions(ctx: ApiContext, fieldId: string): Promise<ApiOption[]> {
  return ctx.client.listAll<ApiOption>(
    "/v1/custom_field_options",
    "custom_field_options",
    "list custom field options",
    {
      custom_field_id: fieldId,
    },
  );
}

/** One step of bringing the live options to the declared list. */
export type OptionStep =
  | { op: "create"; value: string; sortKey: number }
  | { op: "update"; id: string; value: string; sortKey: number }
  | { op: "delete"; id: string };

/**
 * Plans the option changes: keep options whose value is still declared (same id), rename in place
 * an option whose position is kept but value changed, delete the rest, create the new ones, and give
 * every declared option the sort key of its position.
 */
export function planOptions(existing: ApiOption[], declared: readonly string[]): OptionStep[] {
  const live = sortedOptions(existing);
  const used = new Set<string>();
  const assigned: (ApiOption | undefined)[] = declared.map((value) => {
    const match = live.find((o) => o.value === value && !used.has(o.id));
    if (match) used.add(match.id);
    return match;
  });
  declared.forEach((_, i) => {
    const samePosition = live[i];
    if (
      !assigned[i] &&
      samePosition &&
      !used.has(samePosition.id) &&
      !declared.includes(samePosition.value)
    ) {
      assigned[i] = samePosition;
      used.add(samePosition.id);
    }
  });
  const steps: OptionStep[] = live
    .filter((o) => !used.has(o.id))
    .map((o) => ({ op: "delete" as const, id: o.id }));
  declared.forEach((value, i) => {
    const sortKey = (i + 1) * SORT_STEP;
    const current = assigned[i];
    if (!current) steps.push({ op: "create", value, sortKey });
    else if (current.value !== value || current.sort_key !== sortKey)
      steps.push({ op: "update", id: current.id, value, sortKey });
  });
  return steps;
}

async function applyOptions(ctx: ApiContext, fieldId: string, steps: OptionStep[]): Promise<void> {
  for (const step of steps) {
    if (step.op === "delete") {
      await ctx.client.delete(
        `/v1/custom_field_options/${encodeURIComponent(step.id)}`,
        "delete custom field option",
      );
    } else if (step.op === "update") {
      await ctx.client.put(
        `/v1/custom_field_options/${encodeURIComponent(step.id)}`,
        "update custom field option",
        {
          value: step.value,
          sort_key: step.sortKey,
        },
      );
    } else {
      await createOption(ctx, fieldId, step.value, step.sortKey);
    }
  }
}

/** A create whose outcome is unknown (response lost, 5xx) is looked for before it is tried again. */
async function createOption(ctx: ApiContext, fieldId: string, value: string, sortKey: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.client.post("/v1/custom_field_options", "create custom field option", {
        custom_field_id: fieldId,
        value,
        sort_key: sortKey,
      });
      return;
    } catch (error) {
      if (!(error instanceof ApiError) || !error.outcomeUnknown || attempt >= 3) throw error;
      if ((await listOptions(ctx, fieldId)).some((o) => o.value === value)) return;
    }
  }
}

async function readField(ctx: ApiContext, id: string, withOptions: boolean): Promise<LiveCustomField> {
  const body = await ctx.client.get<{ custom_field: ApiCustomField }>(
    `/v2/custom_fields/${encodeURIComponent(id)}`,
    "show custom field",
  );
  return { field: body.custom_field, options: withOptions ? await listOptions(ctx, id) : undefined };
}

/**
 * A custom field (API v2) with, optionally, its select options managed inline.
 *
 * Adopt an existing field: set `adoptId` to its id (from the dashboard URL or `GET /v2/custom_fields`);
 * the first `pulumi up` takes it over and updates it to the declared configuration.
 *
 * @example
 * ```ts
 * const team = new incident.CustomField("affected-team", {
 *   name: "Affected team", description: "Which team's systems are affected?",
 *   fieldType: "single_select", options: ["Payments", "Identity", "Search"],
 * });
 * ```
 */
export const customFieldSpec: ResourceSpec<CustomFieldInputs, LiveCustomField> = {
  kind: "CustomField",
  title: "custom field",
  schemaVersion: 1,
  inputs: customFieldInputs,
  replaceOnChanges: ["fieldType", "catalogTypeId"],
  // Names are unique: the replacement can only be created once the old field is gone.
  deleteBeforeReplace: true,
  secretOutputs: [],
  computedOutputs: ["createdAt", "updatedAt", "optionIds"],
  validate(args) {
    // Options on another field type: our model (the API refuses them when it must), warned.
    if (args.options !== undefined && !SELECT_TYPES.has(args.fieldType)) {
      return [
        {
          path: ["options"],
          message: passedOn(
            `are for single_select and multi_select fields (this field is ${args.fieldType})`,
          ),
          dependsOn: [["fieldType"]],
          severity: "warning",
        },
      ];
    }
    // Our model: inline options are keyed by their value (`optionIds`), so each value is given once.
    const seen = new Set<string>();
    for (const [i, value] of (args.options ?? []).entries()) {
      if (seen.has(value))
        return [{ path: ["options", i], message: `duplicate option value ${JSON.stringify(value)}` }];
      seen.add(value);
    }
    return [];
  },
  idOf: (live) => live.field.id,
  // CustomFieldsV2List answers CustomFieldV2, as show does (unpaginated); inline options are still
  // listed per field, as a read always did.
  list: {
    path: "/v2/custom_fields",
    itemsKey: "custom_fields",
    operation: "list custom fields",
    toLive: async (field: ApiCustomField, ctx, prior) => ({
      field,
      options: prior?.options !== undefined ? await listOptions(ctx, field.id) : undefined,
    }),
  },
  // Inline options are written through the options endpoints.
  writesLists: ["/v1/custom_field_options"],
  toInputs: customFieldFromApi,
  computed: (live) => ({
    createdAt: live.field.created_at,
    updatedAt: live.field.updated_at,
    optionIds: Object.fromEntries((live.options ?? []).map((o) => [o.value, o.id])),
  }),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ custom_field: ApiCustomField }>(
        "/v2/custom_fields",
        "create custom field",
        customFieldPayload(args, true),
      );
      const field = body.custom_field;
      if (args.options === undefined) return { live: { field } };
      try {
        await applyOptions(ctx, field.id, planOptions([], args.options));
      } catch (error) {
        throw new PartialCreateError(
          { field, options: await listOptions(ctx, field.id).catch(() => []) },
          error,
        );
      }
      return { live: (await unlessNotFound(readField(ctx, field.id, true))) ?? { field } };
    },
    read: (ctx, id, prior) => readField(ctx, id, prior?.options !== undefined),
    async update(ctx, id, args) {
      const body = await ctx.client.put<{ custom_field: ApiCustomField }>(
        `/v2/custom_fields/${encodeURIComponent(id)}`,
        "update custom field",
        customFieldPayload(args, false),
      );
      if (args.options === undefined) return { live: { field: body.custom_field } };
      await applyOptions(ctx, id, planOptions(await listOptions(ctx, id), args.options));
      return { live: { field: body.custom_field, options: await listOptions(ctx, id) } };
    },
    async delete(ctx, id) {
      await ctx.client.delete(`/v2/custom_fields/${encodeURIComponent(id)}`, "delete custom field");
    },
    async findCreated(ctx, args) {
      const body = await ctx.client.get<{ custom_fields: ApiCustomField[] }>(
        "/v2/custom_fields",
        "list custom fields",
      );
      const field = body.custom_fields.find((f) => f.name === args.name);
      return field && { field };
    },
  },
};

export const customFieldProvider = makeProvider(customFieldSpec);

// ---------- getCustomField ----------

/** Arguments of `getCustomField`. */
export const getCustomFieldArgs = z.strictObject({
  /** Exact name of the custom field (names are unique in an account). */
  name: z.string().min(1, "must not be empty"),
});
export type GetCustomFieldArgs = z.input<typeof getCustomFieldArgs>;

/** A custom field of the account. */
export interface GetCustomFieldResult {
  /** The field's id: use it in conditions (`incident.custom_field["<id>"]`) and workflow bindings. */
  id: string;
  name: string;
  description: string;
  /** `single_select`, `multi_select`, `text`, `link` or `numeric`. */
  fieldType: string;
  /** For catalog-backed fields, the catalog type. */
  catalogTypeId: string | undefined;
  createdAt: string;
  updatedAt: string;
}

interface ApiCustomFieldV2 {
  id: string;
  name: string;
  description: string;
  field_type: string;
  catalog_type_id?: string;
  created_at: string;
  updated_at: string;
}

/** Finds a custom field by exact name: `GET /v2/custom_fields` (API v2; v1 is deprecated; unpaginated). */
export async function findCustomFieldByName(client: ApiClient, name: string): Promise<GetCustomFieldResult> {
  const body = await client.get<{ custom_fields: ApiCustomFieldV2[] }>(
    "/v2/custom_fields",
    "list custom fields",
  );
  const fields = body.custom_fields ?? [];
  const field = pickByName(fields, name, "getCustomField", "custom field");
  return {
    id: field.id,
    name: field.name,
    description: field.description,
    fieldType: field.field_type,
    catalogTypeId: field.catalog_type_id,
    createdAt: field.created_at,
    updatedAt: field.updated_at,
  };
}

const customFieldLookup = defineLookup({
  name: "getCustomField",
  args: getCustomFieldArgs,
  run: (client, args) => findCustomFieldByName(client, args.name),
});

/** Finds a custom field by name; fails when there is none. */
export const getCustomField = customFieldLookup.get;
/** `getCustomField` taking Inputs and answering an Output. */
export const getCustomFieldOutput = customFieldLookup.getOutput;
