/**
 * Manages an **escalation path**: who is paged when an alert or incident escalates, in which order,
 * for how long, and how that changes with conditions (priority, working hours). The path is a real
 * tree: an `ifElse` node holds a `thenPath` and an `elsePath`, each a list of nodes of the same type,
 * to any depth (the Terraform provider had to unroll it to five levels).
 *
 * Every value in a node may be an Input at any depth (`EscalationPathNodeArgs`), so paths can be built
 * by helpers, recursively:
 *
 * ```ts
 * import type * as pulumi from "@pulumi/pulumi";
 * import * as incident from "pulumi-incident";
 *
 * // Page each rota in turn; on a P1, page the rest of the chain at once as well.
 * function chain(rotas: pulumi.Input<string>[]): incident.EscalationPathNodeArgs[] {
 *   const [first, ...rest] = rotas;
 *   if (first === undefined) return [];
 *   return [
 *     { level: { targets: [{ type: "schedule", id: first, urgency: "high", scheduleMode: "currently_on_call" }] } },
 *     ...(rest.length === 0
 *       ? []
 *       : [{ ifElse: { conditions: [{ subject: "escalation.priority", operation: "is_set" }], thenPath: chain(rest), elsePath: [] } }]),
 *   ];
 * }
 *
 * declare const primary: incident.Schedule;
 * declare const secondary: incident.Schedule;
 * new incident.EscalationPath("chain", { name: "Chain", path: chain([primary.id, secondary.id]) });
 * ```
 *
 * ### API version
 *
 * `/v2/escalation_paths` (v2 is the only version; not deprecated). Create `POST`, read `GET /{id}`,
 * update `PUT /{id}` (the whole path is sent), delete `DELETE /{id}` (the API archives it).
 *
 * ### Adoption
 *
 * `pulumi import` does not work for dynamic resources. Set `adoptId` to the path's id (from the
 * dashboard URL or `GET /v2/escalation_paths`): the first `pulumi up` takes the path over and updates
 * it to the declared configuration, with no new object created. Remove `adoptId` afterwards or keep
 * it; it is not compared.
 *
 * ### Lookup: getEscalationPath({ name })
 *
 * `getEscalationPath` / `getEscalationPathOutput` find a path by exact name (`GET /v2/escalation_paths`,
 * every page) and answer `{ id, name, teamIds, path }`. They fail naming the name when there is no
 * such path, and naming the ids when several share it.
 *
 * ### Normalisation rules (read-back that differs in form is not drift)
 *
 * | Rule | What the API does | What the provider does |
 * |---|---|---|
 * | duplicated target users | answers a level's `user` targets twice (Terraform provider v5.44.1) | repeated targets collapse (check rejects declared duplicates, so nothing meaningful is lost) |
 * | empty schedule mode | answers `schedule_mode: ""` on targets that are not schedules | read back as unset |
 * | generated node ids | keeps the position-derived ids sent for nodes without one | a derived id reads back as "no id"; any other id is reported |
 * | labelled conditions, operation aliases, padded bindings, JSON literals | answers subjects/operations/values as labelled objects, `contains_one_of` for `one_of`, trailing empty bindings, re-encoded JSON | the shared engine rules (`resources/shared/engine.ts`) give back the declared spelling |
 * | unordered sets | answers team ids in its own order | compared as a set, read back in the declared order |
 * | omitted vs empty | answers `working_hours: []` when none | read back as omitted when none was declared |
 *
 * | default kind | answers `kind: "standalone"` for a path written without `kind` | read back as unset when unset |
 *
 * ### Schedule targets without a schedule mode
 * `scheduleMode` is optional on a `schedule` target, as in the reference; the API answers `""` for it
 * and it reads back as unset. `selectedRotaId` is still required for the `*_for_rota` modes.
 *
 * ### Reassignment
 * A node `{ escalationPath: { escalationPathId } }` hands the escalation over to another path, which
 * continues from its first node (nodes after it in this path are not reached). The API refuses a path
 * that does not exist, and a path reassigning to itself. plan-report says such a step "reassigns to"
 * the other path, by its name where the stack or the account knows it.
 *
 * ### Templated paths
 * `kind: "templated"` builds the path from an `EscalationPathTemplate` (`templateId`, required then),
 * binding the template's parameters with `paramBindings` (parameter name → binding). Such a path has
 * no nodes or working hours of its own (the API answers `path: []` and no working hours: they are the
 * template's), so check refuses `path` nodes and `workingHours` on it, and refuses `templateId` /
 * `paramBindings` on a standalone path. The API refuses a template it does not have, a binding of a
 * parameter the template does not declare, and a required parameter left unbound (each named in the
 * error as the input). `kind` left out is a standalone path, as before. (The create payload gains
 * these fields as the update payload does: sdk-python models @ be9c2f41 / 7ae3444d.)
 */
import { z } from "zod";
import { knownValues, passedOn } from "../provider/checkWarnings";
import { makeProvider } from "../provider/factory";
import { defineLookup, LookupError } from "../provider/functions";
import { idText, nameText } from "../provider/inputs";
import { keepDeclaredOrder, unorderedSet } from "../provider/normalise";
import { walkList } from "../provider/pagedReads";
import { restApi } from "../provider/restApi";
import type { Problem, Props, ResourceSpec } from "../provider/spec";
import {
  type ApiBinding,
  bindingFromApi,
  bindingPayload,
  canonicalBinding,
  type ParamBinding,
  paramBinding,
} from "./shared/engine";
import {
  type AnyNode,
  type ApiNode,
  type ApiRepeatConfig,
  type ApiTarget,
  type ApiWorkingHours,
  canonicalNodes,
  canonicalRepeatConfig,
  type EscalationBranch,
  type EscalationDelay,
  type EscalationLevelSettings,
  type EscalationNodeMembers,
  type EscalationReassign,
  type EscalationRepeat,
  escalationNodeSchemas,
  type escalationTarget,
  generatedNodeId,
  type Io,
  type IoMode,
  nodesFromApi,
  nodesPayload,
  repeatConfigFields,
  targetsFromApi as sharedTargetsFromApi,
  type TimeToAck,
  validateNodes,
  walkNodes,
  workingHoursFromApi,
  workingHoursPayload,
} from "./shared/escalationNodes";

export { generatedNodeId, walkNodes };
export type { ApiNode, EscalationDelay, EscalationRepeat, EscalationReassign, TimeToAck };
export { NODE_KINDS, SCHEDULE_MODES, TARGET_TYPES } from "./shared/escalationNodes";

// ---------- the recursive path, as TypeScript types ----------

/** Who a level (or notify-channel node) pages (the shared schema, also a call route level's). */
export type EscalationTarget = z.output<typeof escalationTarget>;

/** A level: targets paged together (or in turn, with round robin). */
export interface EscalationLevel<M extends IoMode = "out"> extends EscalationLevelSettings<M> {
  /** Users and schedules to page. */
  targets: Io<typeof escalationTarget, M>[];
}

/** Notify channels (Slack or Microsoft Teams). */
export interface EscalationNotifyChannel<M extends IoMode = "out"> extends TimeToAck {
  /** The channels (`slack_channel` / `msteams_channel` targets). */
  targets: Io<typeof escalationTarget, M>[];
}

/** A branch: the conditions choose `thenPath` or `elsePath`, each a path of any depth. */
export interface EscalationIfElse<M extends IoMode = "out">
  extends EscalationBranch<EscalationPathNode<M>, M> {}

/**
 * One node of an escalation path: set exactly one of `level`, `notifyChannel`, `ifElse`, `repeat`,
 * `delay`, `voicemail` or `escalationPath`. `ifElse` holds further paths, to any depth.
 */
export interface EscalationPathNode<M extends IoMode = "out">
  extends EscalationNodeMembers<EscalationLevel<M>, EscalationNotifyChannel<M>, EscalationIfElse<M>, M> {
  /**
   * Id of the node, unique within the path; needed only when a `repeat` node points at it. When
   * omitted, a stable id is derived from the node's position (`node-0`, `node-0-else-1`, …).
   */
  id?: string;
}
/** A node as a program writes it (condition parameter bindings may be omitted). */
type EscalationPathNodeInput = EscalationPathNode<"in">;

// ---------- zod: the same tree, validated recursively (resources/shared/escalationNodes.ts) ----------

const schemas = escalationNodeSchemas({ targets: "concrete" });

/** One node, recursively: if-else branches hold further paths of the same schema. */
export const escalationPathNode = schemas.node as unknown as z.ZodType<
  EscalationPathNode,
  EscalationPathNodeInput
>;

/** `standalone`: the path carries its own nodes; `templated`: it is built from an escalation path template. */
export const ESCALATION_PATH_KINDS = ["standalone", "templated"] as const;

/** Inputs of an escalation path (API v2, the only version). */
export const escalationPathInputs = z.strictObject({
  /** Name of the escalation path, unique in the account. */
  name: nameText(),
  /**
   * `standalone` (the default): the path carries its own nodes (`path`). `templated`: the path is
   * built from an escalation path template (`templateId`), its parameters bound by `paramBindings`;
   * it has no nodes or working hours of its own.
   */
  // reference-newer: EscalationsUpdatePathPayloadV2.kind enum (shared/api/NEWER.md)
  kind: knownValues(ESCALATION_PATH_KINDS).optional(),
  /** A templated path's template: an `EscalationPathTemplate`'s id. Required when `kind` is `templated`. */
  templateId: idText().optional(),
  /**
   * A templated path's values for the template's parameters, by parameter name (e.g.
   * `{ primary: { value: { literal: schedule.id } } }`).
   */
  paramBindings: z.record(z.string(), paramBinding).optional(),
  /**
   * The nodes of the path, in order: levels, channel notifications, branches (to any depth), repeats,
   * delays, reassignments. Required (at least one node) for a standalone path; empty or unset for a
   * templated one.
   */
  path: z.array(escalationPathNode).default([]),
  /** Repeat the whole escalation after a while. */
  repeatConfig: schemas.repeatConfig.optional(),
  /** Named working-hours windows that levels and delays can refer to by id (standalone paths only). */
  workingHours: schemas.workingHours.optional(),
  /** Teams owning the path. Order does not matter. */
  teamIds: z.array(idText()).default([]),
  /** Id of an existing escalation path to take over instead of creating one. */
  adoptId: z.string().min(1).optional(),
});

export type EscalationPathInputs = z.infer<typeof escalationPathInputs>;
export interface EscalationPathComputed {
  /** Users on call for this path right now. */
  currentResponders: { id: string; name: string; email?: string }[];
}

// ---------- the API shapes ----------

export interface ApiEscalationPath {
  id: string;
  name: string;
  /** Newer API (EscalationPathV2 @ sdk-python be9c2f41): always answered; older answers lack it. */
  kind?: string;
  template_id?: string;
  param_bindings?: Record<string, ApiBinding>;
  path: ApiNode[];
  repeat_config?: ApiRepeatConfig;
  working_hours?: ApiWorkingHours[];
  team_ids: string[];
  current_responders?: { id: string; name: string; email?: string }[];
}

/**
 * EscalationsV2ListPaths answers EscalationPathV2, as show does (paginated): reads by page, the
 * export, a lost create's recovery and the lookup read it.
 */
const PATHS_LIST = {
  path: "/v2/escalation_paths",
  itemsKey: "escalation_paths",
  operation: "list escalation paths",
  pageSize: 250,
};

const isTemplated = (args: { kind?: string }) => args.kind === "templated";

// ---------- mapping to the payload ----------

/**
 * The create/update payload (EscalationsCreatePathPayloadV2 / EscalationsUpdatePathPayloadV2). A
 * templated path sends `path: []` (the payload requires it; the API answers a templated path's nodes
 * empty: they come from its template).
 */
export function escalationPathPayload(args: EscalationPathInputs): Props {
  return JSON.parse(
    JSON.stringify({
      name: args.name,
      ...(args.kind !== undefined ? { kind: args.kind } : {}),
      template_id: args.templateId,
      param_bindings:
        args.paramBindings &&
        Object.fromEntries(Object.entries(args.paramBindings).map(([k, b]) => [k, bindingPayload(b)])),
      path: nodesPayload(args.path ?? []),
      repeat_config: repeatConfigFields.toApi(args.repeatConfig),
      working_hours: workingHoursPayload(args.workingHours),
      team_ids: args.teamIds,
    }),
  );
}

// ---------- read-back, with the named normalisation rules (resources/shared/escalationNodes.ts) ----------

/** The shared rules "duplicated target users" and "empty schedule mode", on concrete targets. */
export function targetsFromApi(live: readonly ApiTarget[]): EscalationTarget[] {
  return sharedTargetsFromApi(live) as EscalationTarget[];
}

export function escalationPathFromApi(
  live: ApiEscalationPath,
  declared: EscalationPathInputs | undefined,
): EscalationPathInputs {
  // Rule "default kind": a standalone path (or an answer without `kind`) reads back as the declared
  // spelling: unset when unset.
  const kind =
    live.kind === "templated" || declared?.kind !== undefined
      ? ((live.kind ?? "standalone") as EscalationPathInputs["kind"])
      : undefined;
  const bindings = live.param_bindings ?? {};
  return {
    name: live.name,
    kind,
    templateId: live.template_id || undefined,
    // Rule "omitted vs empty": no bindings declared and none live reads back as omitted.
    paramBindings:
      declared?.paramBindings === undefined && Object.keys(bindings).length === 0
        ? undefined
        : Object.fromEntries(
            Object.entries(bindings).map(([k, b]) => [k, bindingFromApi(b, declared?.paramBindings?.[k])]),
          ),
    path: nodesFromApi(live.path ?? [], declared?.path) as EscalationPathNode[],
    repeatConfig: repeatConfigFields.fromApi(live.repeat_config),
    workingHours: workingHoursFromApi(live.working_hours, declared?.workingHours),
    // Rule "unordered sets": team ids compare as a set and read back in the declared order.
    teamIds: keepDeclaredOrder(live.team_ids ?? [], declared?.teamIds) ?? [],
  };
}

/** Canonical form for diffs: explicit ids everywhere, conditions by meaning, team ids as a set. */
export function canonicalEscalationPath(args: EscalationPathInputs): Props {
  return {
    ...args,
    kind: args.kind ?? "standalone",
    paramBindings:
      args.paramBindings && Object.keys(args.paramBindings).length > 0
        ? Object.fromEntries(
            Object.entries(args.paramBindings)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, b]) => [k, canonicalBinding(b as ParamBinding)]),
          )
        : undefined,
    path: canonicalNodes((args.path ?? []) as AnyNode[]),
    repeatConfig: canonicalRepeatConfig(args.repeatConfig),
    workingHours: args.workingHours?.length ? args.workingHours : undefined,
    teamIds: unorderedSet(args.teamIds ?? []),
  };
}

/**
 * Rules over the whole tree (unique node ids, repeat targets that exist, working-hours references),
 * and what each kind of path takes: a standalone path needs nodes and takes no template; a templated
 * path needs its template and has no nodes or working hours of its own.
 */
export function validateEscalationPath(args: EscalationPathInputs): Problem[] {
  const problems: Problem[] = validateNodes(args as { path?: AnyNode[]; workingHours?: { id: string }[] });
  const kind = [["kind"]];
  // What each kind of path holds beyond the template rule is our model (no published rule): warned.
  const warning = "warning" as const;
  if (isTemplated(args)) {
    // reference-newer: EscalationsUpdatePathPayloadV2.template_id ("required when kind is templated")
    if (args.templateId === undefined)
      problems.push({ path: ["templateId"], message: "is required when kind is templated", dependsOn: kind });
    if ((args.path ?? []).length > 0)
      problems.push({
        path: ["path"],
        message: passedOn(
          "a templated path takes its nodes from its template (templateId): leave path empty",
        ),
        dependsOn: kind,
        severity: warning,
      });
    if (args.workingHours !== undefined && args.workingHours.length > 0)
      problems.push({
        path: ["workingHours"],
        message: passedOn(
          "a templated path takes its working hours from its template: leave workingHours unset",
        ),
        dependsOn: kind,
        severity: warning,
      });
  } else {
    if ((args.path ?? []).length === 0)
      problems.push({
        path: ["path"],
        message: passedOn("a path has no node"),
        dependsOn: kind,
        severity: warning,
      });
    if (args.templateId !== undefined)
      problems.push({
        path: ["templateId"],
        message: passedOn('only a templated path takes a template (set kind: "templated")'),
        dependsOn: kind,
        severity: warning,
      });
    if (args.paramBindings !== undefined && Object.keys(args.paramBindings).length > 0)
      problems.push({
        path: ["paramBindings"],
        message: passedOn('only a templated path binds template parameters (set kind: "templated")'),
        dependsOn: kind,
        severity: warning,
      });
  }
  return problems;
}

// ---------- the API calls ----------

/**
 * An escalation path (API v2, the only version the API has): who is paged, in which order, with
 * branches on conditions to any depth. The path is a real tree: `ifElse.thenPath` / `elsePath` hold
 * nodes of the same type.
 *
 * Adopt an existing path: set `adoptId` to its id (from the dashboard URL or
 * `GET /v2/escalation_paths`); the first `pulumi up` takes it over and updates it to the declared
 * configuration.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const ada = incident.getUserOutput({ email: "ada@example.com" });
 * declare const primary: incident.Schedule; // see Schedule
 *
 * new incident.EscalationPath("payments", {
 *   name: "Payments on-call",
 *   teamIds: ["01TEAMPAYMENTS"],
 *   workingHours: [
 *     {
 *       id: "office",
 *       name: "Office hours",
 *       timezone: "Europe/London",
 *       weekdayIntervals: [{ weekday: "monday", startTime: "09:00", endTime: "17:30" }],
 *     },
 *   ],
 *   path: [
 *     {
 *       id: "start", // only needed because the repeat node below points at it
 *       level: {
 *         targets: [
 *           { type: "schedule", id: primary.id, urgency: "high", scheduleMode: "currently_on_call" },
 *         ],
 *         timeToAckSeconds: 300,
 *         retryConfig: { attempts: 3, intervalSeconds: 120 },
 *       },
 *     },
 *     {
 *       ifElse: {
 *         conditions: [
 *           { subject: "escalation.priority", operation: "one_of", paramBindings: [{ arrayValue: [{ literal: "P1" }] }] },
 *         ],
 *         thenPath: [{ level: { targets: [{ type: "user", id: ada.id, urgency: "high" }] } }],
 *         elsePath: [
 *           { delay: { delayWeekdayIntervalConfigId: "office", delayIntervalCondition: "active" } },
 *           { notifyChannel: { targets: [{ type: "slack_channel", id: "C0123", urgency: "low" }] } },
 *         ],
 *       },
 *     },
 *     { repeat: { repeatTimes: 2, toNode: "start" } },
 *   ],
 * });
 * ```
 */
export const escalationPathSpec: ResourceSpec<EscalationPathInputs, ApiEscalationPath> = {
  kind: "EscalationPath",
  title: "escalation path",
  schemaVersion: 1,
  claimAs: "escalation_path",
  inputs: escalationPathInputs,
  // Every field is updatable in place (PUT sends the whole path).
  replaceOnChanges: [],
  secretOutputs: [],
  computedOutputs: ["currentResponders"],
  validate: validateEscalationPath,
  canonical: canonicalEscalationPath,
  idOf: (live) => live.id,
  list: PATHS_LIST,
  toInputs: escalationPathFromApi,
  computed: (live) => ({
    currentResponders: (live.current_responders ?? []).map((u) => ({
      id: u.id,
      name: u.name,
      email: u.email,
    })),
  }),
  api: {
    ...restApi({
      collection: "/v2/escalation_paths",
      key: "escalation_path",
      noun: "escalation path",
      payload: escalationPathPayload,
    }),
    async findCreated(ctx, args) {
      return (await walkList<ApiEscalationPath>(ctx.client, PATHS_LIST)).find((p) => p.name === args.name);
    },
  },
};

export const escalationPathProvider = makeProvider(escalationPathSpec);

// ---------- lookup ----------

/** What `getEscalationPath` answers. */
export interface EscalationPathResult {
  id: string;
  name: string;
  teamIds: string[];
  path: EscalationPathNode[];
}

const escalationPathLookup = defineLookup({
  name: "getEscalationPath",
  args: z.strictObject({
    /** Exact name of the escalation path. */
    name: nameText(),
  }),
  async run(client, args): Promise<EscalationPathResult> {
    const all = await walkList<ApiEscalationPath>(client, PATHS_LIST);
    const found = all.filter((p) => p.name === args.name);
    if (found.length === 0)
      throw new LookupError("getEscalationPath", `no escalation path is named ${JSON.stringify(args.name)}`);
    if (found.length > 1)
      throw new LookupError(
        "getEscalationPath",
        `${found.length} escalation paths are named ${JSON.stringify(args.name)}: ${found.map((p) => p.id).join(", ")}`,
      );
    const p = found[0] as ApiEscalationPath;
    const inputs = escalationPathFromApi(p, undefined);
    return { id: p.id, name: p.name, teamIds: inputs.teamIds, path: inputs.path };
  },
});
/** Finds an escalation path by its exact name (read-only; uses the stack's credentials). */
export const getEscalationPath = escalationPathLookup.get;
/** `getEscalationPath` as an Output. */
export const getEscalationPathOutput = escalationPathLookup.getOutput;
