/**
 * Secret: a named credential workflows can use (`GET/POST /v2/secrets`, `GET/PUT/DELETE
 * /v2/secrets/{id}`, `POST /v2/secrets/{id}/actions/rotate`; flat bodies). API v2 only.
 *
 * The value is write-only: set at creation, replaced by the rotate action, never returned (the API
 * answers only its last four characters and a version number). Here it is a secret input and
 * output; changing it rotates the secret in place (a new version). Update changes metadata only.
 * Deleting a secret a workflow still uses is refused by the API: the error says so and what to do.
 */
import { z } from "zod";
import { warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { ApiError } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { defineLookup, pickByName } from "../provider/functions";
import { freeText, idText, LIMITS, lookupName, nameText } from "../provider/inputs";
import { keepDeclaredSet, uniqueSet } from "../provider/normalise";
import { walkList } from "../provider/pagedReads";
import { type ApiContext, type Props, RECOVERED, type ResourceSpec } from "../provider/spec";

/** Inputs of a secret (API v2). */
export const secretInputs = z.strictObject({
  /** Name of the secret, unique among the account's secrets, e.g. `PagerDuty token`. */
  name: nameText(),
  /**
   * The secret's value (write-only: the API never returns it). Pass it as a Pulumi secret
   * (`config.requireSecret(...)`); it is stored encrypted in the state either way. Changing it
   * rotates the secret: the API keeps one current value and retires the previous one.
   */
  value: z
    .string()
    .superRefine(warnUnless((v: string) => v !== "", "is empty"))
    .superRefine(
      warnUnless((v: string) => v.length <= LIMITS.text, `is longer than ${LIMITS.text} characters`),
    ),
  /** What the secret is for. */
  description: freeText().optional(),
  /** Teams that own the secret; empty (the default) means the whole organisation. Order does not matter. */
  owningTeamIds: z.array(idText()).default([]),
  /**
   * Id of an existing secret to take over (`getSecret`). Its value is unknown to this stack: the
   * first `pulumi up` rotates it to the declared value, unless the API's last four characters of
   * the current value already are the declared value's.
   */
  adoptId: z.string().min(1).optional(),
});

export type SecretInputs = z.infer<typeof secretInputs>;
export interface SecretComputed {
  /** The last four characters of the current value (absent when the value has four or fewer). */
  lastFourChars: string | undefined;
  /** The current version: 1 at creation, one more per rotation. */
  version: number;
}

/** SecretV2. */
export interface ApiSecret {
  id: string;
  name: string;
  description?: string;
  owning_team_ids: string[];
  last_four_chars?: string;
  version: number;
  created_at: string;
  updated_at: string;
}

const path = (id: string) => `/v2/secrets/${encodeURIComponent(id)}`;

/** What the API answers as `last_four_chars` for a value. */
export const lastFourOf = (value: string): string | undefined =>
  value.length > 4 ? value.slice(-4) : undefined;

/**
 * Rule "write-only secret value": the API never answers the value, so the read-back keeps the
 * declared one while the API's fingerprint of the current value (its last four characters) is the
 * declared value's; a different fingerprint means the secret was rotated elsewhere, and the value
 * reads back unknown (undefined): drift, which the next `up` repairs by rotating back. A rotation
 * elsewhere to a value with the same last four characters cannot be seen.
 */
export function secretValueFromApi(live: Pick<ApiSecret, "last_four_chars">, declared: string | undefined) {
  if (declared === undefined) return undefined;
  return lastFourOf(declared) === live.last_four_chars ? declared : undefined;
}

/** SecretsCreatePayloadV2. */
export const secretCreatePayload = (args: SecretInputs): Props => ({
  name: args.name,
  value: args.value,
  ...(args.description !== undefined ? { description: args.description } : {}),
  owning_team_ids: uniqueSet(args.owningTeamIds),
});
/** SecretsUpdatePayloadV2: metadata only (the value changes through the rotate action). */
export const secretUpdatePayload = (args: SecretInputs): Props => ({
  name: args.name,
  ...(args.description !== undefined ? { description: args.description } : {}),
  owning_team_ids: uniqueSet(args.owningTeamIds),
});

export function secretFromApi(live: ApiSecret, declared: SecretInputs | undefined): SecretInputs {
  return {
    name: live.name,
    value: secretValueFromApi(live, declared?.value) as string,
    description:
      live.description === "" && declared?.description === undefined ? undefined : live.description,
    owningTeamIds: keepDeclaredSet(live.owning_team_ids, declared?.owningTeamIds) ?? [],
  };
}

/** How many times a rotation whose outcome is unknown is tried. */
const ROTATE_ATTEMPTS = 3;

/**
 * Rotates the secret to `value`. A rotation whose answer is lost (a 5xx, a reset, an unreadable
 * answer) is checked by reading the secret: a later version ending in the value's last four
 * characters is ours (rotating again would only add a version); otherwise it is tried again.
 */
async function rotate(ctx: ApiContext, id: string, value: string, before: ApiSecret): Promise<ApiSecret> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (
        await ctx.client.post<{ secret: ApiSecret }>(`${path(id)}/actions/rotate`, "rotate secret", { value })
      ).secret;
    } catch (error) {
      if (!(error instanceof ApiError && error.outcomeUnknown) || attempt >= ROTATE_ATTEMPTS) throw error;
      const now = (await ctx.client.get<{ secret: ApiSecret }>(path(id), "show secret")).secret;
      if (now.version > before.version && now.last_four_chars === value.slice(-4)) return now;
    }
  }
}

async function listSecrets(client: ApiClient): Promise<ApiSecret[]> {
  return client.listAll<ApiSecret>("/v2/secrets", "secrets", "list secrets");
}

/**
 * A secret (API v2): a named credential for workflows, e.g. the token of an outgoing webhook.
 * `value` is write-only and secret; only `lastFourChars` and `version` are read back. Changing
 * `value` rotates the secret in place. A rotation made elsewhere shows as drift on `value` (when its
 * last four characters differ) and the next `up` rotates back to the declared value.
 *
 * Adopt an existing secret with `adoptId` (its id from `getSecret`); its value is rotated to the
 * declared one (unless its last four characters already match).
 *
 * @example
 * ```ts
 * import * as pulumi from "@pulumi/pulumi";
 * import * as incident from "pulumi-incident";
 *
 * const config = new pulumi.Config();
 * const token = new incident.Secret("deploy-hook", {
 *   name: "Deploy webhook token",
 *   value: config.requireSecret("deployHookToken"), // changing it rotates the secret
 *   owningTeamIds: [incident.getTeamOutput({ name: "Platform" }).id],
 * });
 * export const version = token.version;
 * ```
 */
export const secretSpec: ResourceSpec<SecretInputs, ApiSecret> = {
  kind: "Secret",
  title: "secret",
  schemaVersion: 1,
  inputs: secretInputs,
  replaceOnChanges: [],
  secretOutputs: ["value"],
  computedOutputs: ["lastFourChars", "version"],
  // A rotation made elsewhere changes both; the value itself is encrypted in a stack export.
  secretFingerprints: ["lastFourChars", "version"],
  fieldRenames: { owning_team_ids: "owningTeamIds" },
  // Rule "set with repeats": the owning teams are a set.
  canonical: (args) => ({
    ...args,
    owningTeamIds: Array.isArray(args.owningTeamIds) ? uniqueSet(args.owningTeamIds) : args.owningTeamIds,
  }),
  idOf: (live) => live.id,
  // SecretsV2List answers SecretV2, as show does (paginated). Show also answers the `versions`
  // (metadata of past values), which the list lacks: no read needs them. The read keeps only
  // `secret` (SecretV2), and what drift is seen by, `version` and `last_four_chars` (rule
  // "write-only secret value", `secretFingerprints`), are in every list item: a rotation made
  // elsewhere shows from the pages exactly as from a GET, so no read fetches the show endpoint.
  list: { path: "/v2/secrets", itemsKey: "secrets", operation: "list secrets", pageSize: 250 },
  // For `pulumi-incident export`: every secret (the values are never read).
  listAll: async (ctx) =>
    await walkList(ctx.client, {
      path: "/v2/secrets",
      itemsKey: "secrets",
      operation: "list secrets",
      pageSize: 25,
    }),
  toInputs: secretFromApi,
  computed: (live) => ({ lastFourChars: live.last_four_chars, version: live.version }),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ secret: ApiSecret }>(
        "/v2/secrets",
        "create secret",
        secretCreatePayload(args),
      );
      return { live: body.secret };
    },
    read: async (ctx, id) => (await ctx.client.get<{ secret: ApiSecret }>(path(id), "show secret")).secret,
    async update(ctx, id, args, olds) {
      const body = await ctx.client.put<{ secret: ApiSecret }>(
        path(id),
        "update secret",
        secretUpdatePayload(args),
      );
      // A recovered create wrote the declared value; otherwise the value is rotated when it is not
      // (known to be) the declared one: changed, rotated elsewhere (read back unknown), or adopted.
      if (olds[RECOVERED] === true || olds.value === args.value) return { live: body.secret };
      return { live: await rotate(ctx, id, args.value, body.secret) };
    },
    async delete(ctx, id) {
      try {
        await ctx.client.delete(path(id), "delete secret");
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          throw new ApiError({
            ...error.init,
            hint: "a workflow still uses this secret: remove it from the workflow first (in the same program, give the workflow a reference to the secret's id or `dependsOn` it, so the workflow is changed before the secret is deleted)",
          });
        }
        throw error;
      }
    },
    async findCreated(ctx, args) {
      return (await listSecrets(ctx.client)).find((s) => s.name === args.name);
    },
  },
};

export const secretProvider = makeProvider(secretSpec);

// ---------- getSecret ----------

/** Arguments of `getSecret`. */
export const getSecretArgs = z.strictObject({
  /** Exact name of the secret (names are unique). */
  name: lookupName(),
});
export type GetSecretArgs = z.input<typeof getSecretArgs>;

/** A secret's metadata (never its value). */
export interface GetSecretResult {
  id: string;
  name: string;
  description: string | undefined;
  owningTeamIds: string[];
  lastFourChars: string | undefined;
  version: number;
}

/** Finds a secret by exact name: `GET /v2/secrets` (paginated). */
export async function findSecretByName(client: ApiClient, name: string): Promise<GetSecretResult> {
  const s = pickByName(await listSecrets(client), name, "getSecret", "secret");
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    owningTeamIds: s.owning_team_ids,
    lastFourChars: s.last_four_chars,
    version: s.version,
  };
}

const secretLookup = defineLookup({
  name: "getSecret",
  args: getSecretArgs,
  run: (client, args) => findSecretByName(client, args.name),
});

/** Finds a secret's metadata by name; fails when there is none. */
export const getSecret = secretLookup.get;
/** `getSecret` taking Inputs and answering an Output. */
export const getSecretOutput = secretLookup.getOutput;
