/**
 * IncidentStatus: a status incidents move through (`GET/POST /v1/incident_statuses`,
 * `GET/PUT/DELETE /v1/incident_statuses/{id}`; flat bodies). API v1 is the only version.
 *
 * `category` is create-only (the update payload has none): changing it replaces the status. Only
 * `live`, `learning` and `closed` statuses can be created; triage and declined statuses "cannot be
 * created or modified" (the reference), so those categories are refused at check, and adopting one
 * is refused before any write.
 */
import { z } from "zod";
import { knownValues } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { makeProvider } from "../provider/factory";
import { defineLookup, pickByName } from "../provider/functions";
import { freeText, lookupName, nameText } from "../provider/inputs";
import { walkList } from "../provider/pagedReads";
import type { Props, ResourceSpec } from "../provider/spec";

/** The categories a status can be created with (the create payload's enum). */
export const INCIDENT_STATUS_CATEGORIES = ["live", "learning", "closed"] as const;
/**
 * Categories the service manages itself, which cannot be created or modified (reference:
 * IncidentStatusesCreatePayloadV1.category, "The triage and declined statuses cannot be created or
 * modified").
 */
const MANAGED_CATEGORIES: readonly string[] = ["triage", "declined"];

/** Inputs of an incident status (API v1). */
export const incidentStatusInputs = z.strictObject({
  /** Unique name of the status, e.g. `Monitoring`. */
  name: nameText(),
  /** What the status means (rich text). */
  description: freeText().default(""),
  /**
   * `live` (shown as Active in the app), `learning` (shown as Post-incident) or `closed`. Changing it
   * replaces the status (the API cannot change a status's category). Triage and declined statuses
   * are managed by the service and cannot be created or modified.
   */
  // reference: IncidentStatusesCreatePayloadV1.category enum; another value is warned about
  category: knownValues(INCIDENT_STATUS_CATEGORIES).refine((c) => !MANAGED_CATEGORIES.includes(c), {
    error: (issue) =>
      `${String(issue.input)} statuses are managed by the service and cannot be created or modified; use live, learning or closed`,
  }),
  /** Id of an existing live, learning or closed status to take over (`getIncidentStatus`). */
  adoptId: z.string().min(1).optional(),
});

export type IncidentStatusInputs = z.infer<typeof incidentStatusInputs>;
export interface IncidentStatusComputed {
  /** Order of the status among all statuses (server-assigned). */
  rank: number;
}

/** IncidentStatusV1. */
export interface ApiIncidentStatus {
  id: string;
  name: string;
  description: string;
  category: string;
  rank: number;
  created_at: string;
  updated_at: string;
}

const path = (id: string) => `/v1/incident_statuses/${encodeURIComponent(id)}`;

/** IncidentStatusesCreatePayloadV1. */
export const incidentStatusCreatePayload = (args: IncidentStatusInputs): Props => ({
  name: args.name,
  description: args.description,
  category: args.category,
});
/** IncidentStatusesUpdatePayloadV1: no category (create-only). */
export const incidentStatusUpdatePayload = (args: IncidentStatusInputs): Props => ({
  name: args.name,
  description: args.description,
});

async function listStatuses(client: ApiClient): Promise<ApiIncidentStatus[]> {
  return (
    (
      await client.get<{ incident_statuses: ApiIncidentStatus[] }>(
        "/v1/incident_statuses",
        "list incident statuses",
      )
    ).incident_statuses ?? []
  );
}

/**
 * An incident status (API v1) of category `live`, `learning` or `closed`. Triage and declined
 * statuses belong to the service: look them up with `getIncidentStatus`, do not declare them.
 *
 * Adopt an existing status with `adoptId` (its id from `getIncidentStatus`); its category must be
 * the declared one.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const monitoring = new incident.IncidentStatus("monitoring", {
 *   name: "Monitoring",
 *   description: "A fix is out; watching that it holds",
 *   category: "live", // or "learning", "closed"; triage and declined belong to the service
 * });
 * ```
 */
export const incidentStatusSpec: ResourceSpec<IncidentStatusInputs, ApiIncidentStatus> = {
  kind: "IncidentStatus",
  title: "incident status",
  schemaVersion: 1,
  inputs: incidentStatusInputs,
  replaceOnChanges: ["category"],
  // Names are unique: the old status must go before its replacement takes the name.
  deleteBeforeReplace: true,
  secretOutputs: [],
  computedOutputs: ["rank"],
  idOf: (live) => live.id,
  // IncidentStatusesV1List answers IncidentStatusV1, as show does (unpaginated; the service's own
  // statuses too, which only `listAll` leaves out).
  list: { path: "/v1/incident_statuses", itemsKey: "incident_statuses", operation: "list incident statuses" },
  // For `pulumi-incident export`: triage and declined statuses belong to the service (not adoptable).
  listAll: async (ctx) =>
    (
      await walkList(ctx.client, {
        path: "/v1/incident_statuses",
        itemsKey: "incident_statuses",
        operation: "list incident statuses",
      })
    ).filter((s) => s.category !== "triage" && s.category !== "declined"),
  toInputs: (live) => ({
    name: live.name,
    description: live.description,
    category: live.category as IncidentStatusInputs["category"],
  }),
  computed: (live) => ({ rank: live.rank }),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<{ incident_status: ApiIncidentStatus }>(
        "/v1/incident_statuses",
        "create incident status",
        incidentStatusCreatePayload(args),
      );
      return { live: body.incident_status };
    },
    read: async (ctx, id) =>
      (await ctx.client.get<{ incident_status: ApiIncidentStatus }>(path(id), "show incident status"))
        .incident_status,
    async update(ctx, id, args, olds) {
      // Only reachable with another category when adopting (a category change is a replacement).
      if (typeof olds.category === "string" && olds.category !== args.category) {
        const why = MANAGED_CATEGORIES.includes(olds.category)
          ? "statuses of that category are managed by the service and cannot be adopted"
          : `its category cannot change: declare category ${JSON.stringify(olds.category)}`;
        throw new Error(`IncidentStatus: adoptId ${JSON.stringify(id)} is a ${olds.category} status; ${why}`);
      }
      const body = await ctx.client.put<{ incident_status: ApiIncidentStatus }>(
        path(id),
        "update incident status",
        incidentStatusUpdatePayload(args),
      );
      return { live: body.incident_status };
    },
    delete: (ctx, id) => ctx.client.delete(path(id), "delete incident status"),
    async findCreated(ctx, args) {
      return (await listStatuses(ctx.client)).find(
        (s) => s.name === args.name && s.category === args.category,
      );
    },
  },
};

export const incidentStatusProvider = makeProvider(incidentStatusSpec);

// ---------- getIncidentStatus ----------

/** Arguments of `getIncidentStatus`. */
export const getIncidentStatusArgs = z.strictObject({
  /** Exact name of the status (names are unique), e.g. `Triage`. */
  name: lookupName(),
});
export type GetIncidentStatusArgs = z.input<typeof getIncidentStatusArgs>;

/** An incident status of the account. */
export interface GetIncidentStatusResult {
  id: string;
  name: string;
  description: string;
  /** `triage`, `declined`, `live`, `learning`, `closed`, `canceled`, `merged` or `paused`. */
  category: string;
  /** Order among the statuses. */
  rank: number;
}

/** Finds an incident status by exact name: `GET /v1/incident_statuses` (unpaginated). */
export async function findIncidentStatusByName(
  client: ApiClient,
  name: string,
): Promise<GetIncidentStatusResult> {
  const s = pickByName(await listStatuses(client), name, "getIncidentStatus", "incident status");
  return { id: s.id, name: s.name, description: s.description, category: s.category, rank: s.rank };
}

const incidentStatusLookup = defineLookup({
  name: "getIncidentStatus",
  args: getIncidentStatusArgs,
  run: (client, args) => findIncidentStatusByName(client, args.name),
});

/** Finds an incident status by name (including the service's own, e.g. Triage); fails when there is none. */
export const getIncidentStatus = incidentStatusLookup.get;
/** `getIncidentStatus` taking Inputs and answering an Output. */
export const getIncidentStatusOutput = incidentStatusLookup.getOutput;
