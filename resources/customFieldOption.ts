/**
 * One option of a select custom field (API v1), as its own resource: `customFieldId` (replaces),
 * `value` (no surrounding whitespace), `sortKey` (unset = the API default 1000, not managed), `adoptId`
 * (the option's id from `GET /v1/custom_field_options?custom_field_id=…`). Output `currentSortKey`.
 * Use either this or the field's inline `options`, not both.
 */
import { z } from "zod";
import { warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { ApiError, unlessNotFound } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { defineLookup, LookupError, pickByName } from "../provider/functions";
import { idText } from "../provider/inputs";
import { walkList } from "../provider/pagedReads";
import type { Props, ResourceSpec } from "../provider/spec";
import { customFieldSpec } from "./customField";
import { customFieldOptionValue } from "./shared/customFieldOptionValue";

/** Inputs of one option of a select custom field (API v1), managed as its own resource. */
export const customFieldOptionInputs = z.strictObject({
  /** The custom field this option belongs to. Changing it replaces the option. */
  customFieldId: idText(),
  /** The option's text: not empty, no surrounding whitespace. */
  value: customFieldOptionValue,
  /** Position among the field's options (lower first). Unset = the API's default (1000) and not managed. */
  // reference: CustomFieldOptionsCreatePayloadV1.sort_key integer; a negative one is our model
  sortKey: z
    .number()
    .int("must be a whole number")
    .superRefine(warnUnless((v: number) => v >= 0, "is negative"))
    .optional(),
  /** Id of an existing option to take over instead of creating one. */
  adoptId: z.string().min(1).optional(),
});

export type CustomFieldOptionInputs = z.infer<typeof customFieldOptionInputs>;
export interface CustomFieldOptionComputed {
  /** The sort key the API holds now (equals `sortKey` when that is set). */
  currentSortKey: number;
}

interface ApiOption {
  id: string;
  custom_field_id: string;
  value: string;
  sort_key: number;
}

const path = (id: string) => `/v1/custom_field_options/${encodeURIComponent(id)}`;

/**
 * One option of a `single_select` / `multi_select` custom field. Use either this resource or the
 * field's inline `options`, not both. Adopt an existing option with `adoptId` (its id from
 * `GET /v1/custom_field_options?custom_field_id=…`).
 */
export const customFieldOptionSpec: ResourceSpec<CustomFieldOptionInputs, ApiOption> = {
  kind: "CustomFieldOption",
  title: "custom field option",
  schemaVersion: 1,
  inputs: customFieldOptionInputs,
  replaceOnChanges: ["customFieldId"],
  secretOutputs: [],
  computedOutputs: ["currentSortKey"],
  idOf: (live) => live.id,
  partOf: "customFieldId",
  // For `pulumi-incident export`: the options of every select field, one walk per field.
  listAll: async (ctx) => {
    const fields = await walkList<{ id: string; field_type: string }>(ctx.client, customFieldSpec.list!);
    const selects = fields.filter((f) => f.field_type === "single_select" || f.field_type === "multi_select");
    const perField = await Promise.all(
      selects.map((f) =>
        walkList<ApiOption>(ctx.client, customFieldOptionSpec.list!, { custom_field_id: f.id }),
      ),
    );
    return perField.flat();
  },
  // CustomFieldOptionsV1List answers CustomFieldOptionV1, as show does, one custom field at a time.
  list: {
    path: "/v1/custom_field_options",
    itemsKey: "custom_field_options",
    operation: "list custom field options",
    pageSize: 250,
    scope: (prior) =>
      typeof prior?.customFieldId === "string" ? { custom_field_id: prior.customFieldId } : undefined,
  },
  toInputs: (live, declared) => ({
    customFieldId: live.custom_field_id,
    value: live.value,
    // An unset sort key is not managed: its live value is an output, not drift.
    sortKey: declared?.sortKey === undefined ? undefined : live.sort_key,
  }),
  computed: (live) => ({ currentSortKey: live.sort_key }),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ custom_field_option: ApiOption }>(
        "/v1/custom_field_options",
        "create custom field option",
        { custom_field_id: args.customFieldId, value: args.value, sort_key: args.sortKey },
      );
      return { live: body.custom_field_option };
    },
    async read(ctx, id) {
      return (await ctx.client.get<{ custom_field_option: ApiOption }>(path(id), "show custom field option"))
        .custom_field_option;
    },
    async update(ctx, id, args, olds: Props) {
      // The API requires a sort key on update: keep the current one when the user does not manage it.
      const sortKey = args.sortKey ?? olds.currentSortKey ?? 1000;
      const body = await ctx.client.put<{ custom_field_option: ApiOption }>(
        path(id),
        "update custom field option",
        {
          value: args.value,
          sort_key: sortKey,
        },
      );
      return { live: body.custom_field_option };
    },
    async delete(ctx, id) {
      await ctx.client.delete(path(id), "delete custom field option");
    },
    recoveryKey: (args) => `${args.customFieldId}/${args.value}`,
    async findCreated(ctx, args) {
      const options = await ctx.client.listAll<ApiOption>(
        "/v1/custom_field_options",
        "custom_field_options",
        "list custom field options",
        { custom_field_id: args.customFieldId },
      );
      return options.find((o) => o.value === args.value);
    },
  },
};

export const customFieldOptionProvider = makeProvider(customFieldOptionSpec);

// ---------- getCustomFieldOption ----------

/** Arguments of `getCustomFieldOption`. */
export const getCustomFieldOptionArgs = z.strictObject({
  /** Id of the select custom field the option belongs to (e.g. from `getCustomField`). */
  customFieldId: z.string().min(1, "must not be empty"),
  /** The option's exact text (values are unique within a field). */
  value: customFieldOptionValue,
});
export type GetCustomFieldOptionArgs = z.input<typeof getCustomFieldOptionArgs>;

/** One option of a select custom field. */
export interface GetCustomFieldOptionResult {
  /** The option's id: use it in conditions and workflow bindings, or as an `adoptId`. */
  id: string;
  /** The custom field the option belongs to. */
  customFieldId: string;
  /** The option's text. */
  value: string;
  /** Position among the field's options (lower first). */
  sortKey: number;
}

/**
 * Finds an option of a custom field by exact value: `GET /v1/custom_field_options?custom_field_id=…`
 * (API v1, paginated, every page read). A field that does not exist is said as such.
 */
export async function findCustomFieldOption(
  client: ApiClient,
  args: { customFieldId: string; value: string },
): Promise<GetCustomFieldOptionResult> {
  let options: ApiOption[];
  try {
    options = await client.listAll<ApiOption>(
      "/v1/custom_field_options",
      "custom_field_options",
      "list custom field options",
      { custom_field_id: args.customFieldId },
    );
  } catch (error) {
    // The list refuses an unknown field (400): say so when the field is indeed not there.
    if (!(error instanceof ApiError && [400, 404, 422].includes(error.status))) throw error;
    const field = await unlessNotFound(
      client.get(`/v2/custom_fields/${encodeURIComponent(args.customFieldId)}`, "show custom field"),
    );
    if (field) throw error;
    throw new LookupError(
      "getCustomFieldOption",
      `no custom field with id ${JSON.stringify(args.customFieldId)}`,
    );
  }
  const o = pickByName(
    options.map((o) => ({ ...o, name: o.value })),
    args.value,
    "getCustomFieldOption",
    `option of custom field ${args.customFieldId}`,
  );
  return { id: o.id, customFieldId: o.custom_field_id, value: o.value, sortKey: o.sort_key };
}

const customFieldOptionLookup = defineLookup({
  name: "getCustomFieldOption",
  args: getCustomFieldOptionArgs,
  run: findCustomFieldOption,
});

/** Finds an option of a select custom field by its value; fails when there is none. */
export const getCustomFieldOption = customFieldOptionLookup.get;
/** `getCustomFieldOption` taking Inputs and answering an Output. */
export const getCustomFieldOptionOutput = customFieldOptionLookup.getOutput;
