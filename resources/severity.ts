/**
 * Severity: an incident severity (`GET/POST /v1/severities`, `GET/PUT/DELETE /v1/severities/{id}`;
 * flat bodies). API v1 is the only version of this family.
 */
import { z } from "zod";
import { warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { makeProvider } from "../provider/factory";
import { defineLookup, pickByName } from "../provider/functions";
import { freeText, lookupName, nameText } from "../provider/inputs";
import { walkList } from "../provider/pagedReads";
import { newestMatching, restApi } from "../provider/restApi";
import type { Props, ResourceSpec } from "../provider/spec";

/** Inputs of a severity (API v1). */
export const severityInputs = z.strictObject({
  /** Human-readable name of the severity, e.g. `Major`. */
  name: nameText(),
  /** What the severity means, shown to responders choosing one. */
  description: freeText().default(""),
  /**
   * Position among the account's severities: lower numbers are less severe. Unset: the API ranks a
   * new severity after the existing ones, and the rank is not managed (see `currentRank`).
   */
  // reference: SeveritiesCreatePayloadV1.rank integer; a negative one is our model
  rank: z
    .number()
    .int("must be a whole number")
    .superRefine(warnUnless((v: number) => v >= 0, "is negative"))
    .optional(),
  /** Id of an existing severity to take over instead of creating one (`GET /v1/severities`, `getSeverity`). */
  adoptId: z.string().min(1).optional(),
});

export type SeverityInputs = z.infer<typeof severityInputs>;
export interface SeverityComputed {
  /** The rank the API holds now (equals `rank` when that is set). */
  currentRank: number;
}

/** SeverityV1. */
export interface ApiSeverity {
  id: string;
  name: string;
  description: string;
  rank: number;
  created_at: string;
  updated_at: string;
}

/** SeveritiesCreatePayloadV1 / SeveritiesUpdatePayloadV1 (same shape): an unset rank is not sent. */
export function severityPayload(args: SeverityInputs): Props {
  return {
    name: args.name,
    description: args.description,
    ...(args.rank !== undefined ? { rank: args.rank } : {}),
  };
}

export function severityFromApi(live: ApiSeverity, declared: SeverityInputs | undefined): SeverityInputs {
  return {
    name: live.name,
    description: live.description,
    // An unset rank is not managed: its live value is an output (`currentRank`), not drift.
    rank: declared?.rank === undefined ? undefined : live.rank,
  };
}

async function listSeverities(client: ApiClient): Promise<ApiSeverity[]> {
  return (
    (await client.get<{ severities: ApiSeverity[] }>("/v1/severities", "list severities")).severities ?? []
  );
}

/**
 * An incident severity (API v1), e.g. `Minor`, `Major`, `Critical`. Lower ranks are less severe.
 *
 * Adopt an existing severity: set `adoptId` to its id (from `getSeverity`); the first `pulumi up`
 * takes it over and updates it to the declared configuration.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const major = new incident.Severity("major", {
 *   name: "Major",
 *   description: "Many customers notice",
 *   rank: 2, // lower is less severe; leave it out to let the API rank it last
 * });
 * ```
 */
export const severitySpec: ResourceSpec<SeverityInputs, ApiSeverity> = {
  kind: "Severity",
  title: "severity",
  schemaVersion: 1,
  inputs: severityInputs,
  replaceOnChanges: [],
  secretOutputs: [],
  computedOutputs: ["currentRank"],
  idOf: (live) => live.id,
  // SeveritiesV1List answers SeverityV1, as show does (unpaginated).
  list: { path: "/v1/severities", itemsKey: "severities", operation: "list severities" },
  // For `pulumi-incident export`: every severity.
  listAll: async (ctx) =>
    await walkList(ctx.client, {
      path: "/v1/severities",
      itemsKey: "severities",
      operation: "list severities",
    }),
  toInputs: severityFromApi,
  computed: (live) => ({ currentRank: live.rank }),
  api: {
    ...restApi({ collection: "/v1/severities", key: "severity", noun: "severity", payload: severityPayload }),
    async findCreated(ctx, args) {
      // Names are not unique: the newest severity of that name is the one a lost create made.
      return newestMatching(await listSeverities(ctx.client), (s) => s.name === args.name);
    },
  },
};

export const severityProvider = makeProvider(severitySpec);

// ---------- getSeverity ----------

/** Arguments of `getSeverity`. */
export const getSeverityArgs = z.strictObject({
  /** Exact name of the severity. */
  name: lookupName(),
});
export type GetSeverityArgs = z.input<typeof getSeverityArgs>;

/** A severity of the account. */
export interface GetSeverityResult {
  /** The severity's id: use it in conditions and workflow bindings. */
  id: string;
  name: string;
  description: string;
  /** Lower numbers are less severe. */
  rank: number;
}

/** Finds a severity by exact name: `GET /v1/severities` (unpaginated). */
export async function findSeverityByName(client: ApiClient, name: string): Promise<GetSeverityResult> {
  const s = pickByName(await listSeverities(client), name, "getSeverity", "severity");
  return { id: s.id, name: s.name, description: s.description, rank: s.rank };
}

const severityLookup = defineLookup({
  name: "getSeverity",
  args: getSeverityArgs,
  run: (client, args) => findSeverityByName(client, args.name),
});

/** Finds a severity by name; fails when there is none (or several share it). */
export const getSeverity = severityLookup.get;
/** `getSeverity` taking Inputs and answering an Output. */
export const getSeverityOutput = severityLookup.getOutput;
