/**
 * AlertAttribute: an attribute alerts can carry (`GET/POST /v2/alert_attributes`,
 * `GET/PUT/DELETE /v2/alert_attributes/{id}`). API v2 is the only version of this family.
 *
 * Writes run under the process-wide "alert-config" lock shared with AlertSource: the API keeps one
 * alert configuration per account and rejects whichever of two parallel writes comes second (the
 * official Terraform provider serialises these writes for the same reason).
 *
 * Manages an **alert attribute**: a named, typed value that alert sources set on their alerts
 * (`AlertSource.template.attributes`) and that alert routes filter and group on.
 *
 * ### API version
 *
 * `/v2/alert_attributes` (v2): the only version of this family, not deprecated.
 *
 * ### Adoption
 *
 * `pulumi import` does not work for dynamic providers. To take over an attribute created elsewhere, set
 * `adoptId` to its id (from `GET /v2/alert_attributes`, or `getAlertAttribute({ name }).id`): the first
 * `pulumi up` reads it and updates it to the declared configuration; from then on it is managed.
 *
 * ### Lookup: getAlertAttribute({ name })
 *
 * `incident.getAlertAttribute({ name })` / `getAlertAttributeOutput(...)` finds an attribute by exact
 * name (one `GET /v2/alert_attributes`, read-only) and answers `{ id, name, type, array, required,
 * emoji }`; it fails, suggesting a near name, when there is none.
 *
 * ### Concurrency
 *
 * Create, update and delete run under a process-wide "alert-config" lock shared with `AlertSource`:
 * the account has one alert configuration and the API rejects whichever of two parallel writes comes
 * second (the official Terraform provider serialises these writes too). The Pulumi host runs resources
 * in parallel in one process, so the lock is needed; reads are not serialised.
 *
 * ### Normalisation rules (read-back that differs in form is not drift)
 *
 * - **emoji without colons**: the API stores `fire` for `:fire:`; the declared spelling is kept when
 *   both name the same emoji, and diffs compare emoji without colons.
 */
import { z } from "zod";
import { warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { makeProvider } from "../provider/factory";
import { defineLookup, pickByName } from "../provider/functions";
import { idText, lookupName, nameText } from "../provider/inputs";
import type { Props, ResourceSpec } from "../provider/spec";
import { alertConfigLock } from "./shared/alertConfigLock";

/** Inputs of an alert attribute (API v2). */
export const alertAttributeInputs = z.strictObject({
  /** Unique name of the attribute, e.g. `Service`. */
  name: nameText(),
  /**
   * Engine type of the attribute's values: `String`, `Number`, `Bool`, `Timestamp`, or a catalog type
   * `CatalogEntry["<catalog type id>"]`.
   */
  type: idText(),
  /** Whether the attribute holds a list of values. */
  array: z.boolean().default(false),
  /** Whether every alert must carry this attribute. */
  required: z.boolean().default(false),
  /**
   * Emoji shown next to the attribute in chat messages, e.g. `fire` (`:fire:` is accepted: the API
   * stores emoji without colons).
   */
  emoji: z
    .string()
    .superRefine(warnUnless((e: string) => stripColons(e) !== "", "names no emoji"))
    .optional(),
  /** Id of an existing alert attribute to take over instead of creating one (`pulumi import` does not work for dynamic resources). */
  adoptId: z.string().min(1).optional(),
});

export type AlertAttributeInputs = z.infer<typeof alertAttributeInputs>;
/** Outputs beyond the inputs (none: the id is the resource id). */
export type AlertAttributeComputed = {};

/** AlertAttributeV2. */
export interface ApiAlertAttribute {
  id: string;
  name: string;
  type: string;
  array: boolean;
  required: boolean;
  emoji?: string;
}

const path = (id: string) => `/v2/alert_attributes/${encodeURIComponent(id)}`;

/** Rule "emoji without colons": `:fire:` and `fire` are the same emoji; the API stores `fire`. */
export function stripColons(emoji: string): string {
  return emoji.trim().replace(/^:+|:+$/g, "");
}

/** AlertAttributesCreatePayloadV2 / AlertAttributesUpdatePayloadV2 (same shape). */
export function alertAttributePayload(args: AlertAttributeInputs): Props {
  return {
    name: args.name,
    type: args.type,
    array: args.array,
    required: args.required,
    ...(args.emoji !== undefined ? { emoji: stripColons(args.emoji) } : {}),
  };
}

export function alertAttributeFromApi(
  live: ApiAlertAttribute,
  declared: AlertAttributeInputs | undefined,
): AlertAttributeInputs {
  const emoji =
    live.emoji === undefined || live.emoji === ""
      ? undefined
      : declared?.emoji !== undefined && stripColons(declared.emoji) === live.emoji
        ? declared.emoji
        : live.emoji;
  return { name: live.name, type: live.type, array: live.array, required: live.required, emoji };
}

/**
 * An alert attribute (API v2): a named, typed value alert sources set on their alerts and alert
 * routes filter and group on.
 *
 * Adopt an existing attribute: set `adoptId` to its id (from `GET /v2/alert_attributes` or
 * `getAlertAttribute`); the first `pulumi up` takes it over and updates it to the declared configuration.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const service = new incident.AlertAttribute("service", {
 *   name: "Service",
 *   type: 'CatalogEntry["01HCATALOGTYPESERVICE"]', // or "String", "Number", …
 *   array: false,
 *   required: false,
 *   emoji: "gear", // ":gear:" is accepted too
 * });
 * ```
 */
export const alertAttributeSpec: ResourceSpec<AlertAttributeInputs, ApiAlertAttribute> = {
  kind: "AlertAttribute",
  title: "alert attribute",
  schemaVersion: 1,
  inputs: alertAttributeInputs,
  // Every field is in the update payload: nothing needs a replacement.
  replaceOnChanges: [],
  secretOutputs: [],
  computedOutputs: [],
  canonical: (args) => ({ ...args, emoji: args.emoji === undefined ? undefined : stripColons(args.emoji) }),
  idOf: (live) => live.id,
  // AlertAttributesV2List answers AlertAttributeV2, as show does (unpaginated).
  list: { path: "/v2/alert_attributes", itemsKey: "alert_attributes", operation: "list alert attributes" },
  toInputs: alertAttributeFromApi,
  computed: () => ({}),
  api: {
    create: (ctx, args) =>
      alertConfigLock.run(async () => {
        const body = await ctx.client.post<{ alert_attribute: ApiAlertAttribute }>(
          "/v2/alert_attributes",
          "create alert attribute",
          alertAttributePayload(args),
        );
        return { live: body.alert_attribute };
      }),
    async read(ctx, id) {
      return (await ctx.client.get<{ alert_attribute: ApiAlertAttribute }>(path(id), "show alert attribute"))
        .alert_attribute;
    },
    update: (ctx, id, args) =>
      alertConfigLock.run(async () => {
        const body = await ctx.client.put<{ alert_attribute: ApiAlertAttribute }>(
          path(id),
          "update alert attribute",
          alertAttributePayload(args),
        );
        return { live: body.alert_attribute };
      }),
    delete: (ctx, id) => alertConfigLock.run(() => ctx.client.delete(path(id), "delete alert attribute")),
    async findCreated(ctx, args) {
      return (await listAlertAttributes(ctx.client)).find((a) => a.name === args.name);
    },
  },
};

export const alertAttributeProvider = makeProvider(alertAttributeSpec);

// ---------- getAlertAttribute ----------

async function listAlertAttributes(client: ApiClient): Promise<ApiAlertAttribute[]> {
  const body = await client.get<{ alert_attributes: ApiAlertAttribute[] }>(
    "/v2/alert_attributes",
    "list alert attributes",
  );
  return body.alert_attributes ?? [];
}

/** Arguments of `getAlertAttribute`. */
export const getAlertAttributeArgs = z.strictObject({
  /** Exact name of the alert attribute (names are unique in an account). */
  name: lookupName(),
});
export type GetAlertAttributeArgs = z.input<typeof getAlertAttributeArgs>;

/** An alert attribute of the account. */
export interface GetAlertAttributeResult {
  /** The attribute's id: use it in alert source templates (`alertAttributeId`) and alert routes. */
  id: string;
  name: string;
  /** Engine type of its values. */
  type: string;
  /** Whether it holds a list of values. */
  array: boolean;
  /** Whether every alert must carry it. */
  required: boolean;
  /** Emoji shown in chat messages (without colons), if any. */
  emoji: string | undefined;
}

/** Finds an alert attribute by exact name: `GET /v2/alert_attributes` (API v2, unpaginated). */
export async function findAlertAttributeByName(
  client: ApiClient,
  name: string,
): Promise<GetAlertAttributeResult> {
  const all = await listAlertAttributes(client);
  const found = pickByName(all, name, "getAlertAttribute", "alert attribute");
  return {
    id: found.id,
    name: found.name,
    type: found.type,
    array: found.array,
    required: found.required,
    emoji: found.emoji,
  };
}

const alertAttributeLookup = defineLookup({
  name: "getAlertAttribute",
  args: getAlertAttributeArgs,
  run: (client, args) => findAlertAttributeByName(client, args.name),
});

/** Finds an alert attribute by name; fails when there is none. */
export const getAlertAttribute = alertAttributeLookup.get;
/** `getAlertAttribute` taking Inputs and answering an Output. */
export const getAlertAttributeOutput = alertAttributeLookup.getOutput;
