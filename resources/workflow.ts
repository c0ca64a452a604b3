/**
 * Manages a **workflow**: a trigger (e.g. `incident.updated`), condition groups that decide whether it
 * runs, expressions that compute values, and the steps it runs (each step an engine step such as
 * `slack.post_message` with its parameter bindings), plus when and on which incidents it runs.
 *
 * ### API version
 *
 * Workflows exist only as **API v2** (`/v2/workflows`), which the reference does not mark deprecated.
 * `PUT /v2/workflows/{id}` is a full replacement: every update sends the whole declared workflow.
 * `DELETE /v2/workflows/{id}` **archives** the workflow: it stops running and no longer lists or shows.
 *
 * ### Adoption
 *
 * `pulumi import` does not work for dynamic resources. To take over a workflow made in the dashboard,
 * declare it with `adoptId: "<workflow id>"` (the id is in the dashboard URL, or in `GET /v2/workflows`).
 * The first `up` reads it and updates it to your declaration (the trigger must match: it cannot change).
 * A create whose response was lost (network failure) is recovered by finding the workflow by name and
 * trigger instead of creating a duplicate.
 *
 * ### Normalisation rules (no false drift)
 *
 * | Rule | What the API does | What the provider does |
 * |---|---|---|
 * | padded param bindings (TF #205) | step parameter bindings come back with trailing empty bindings | trailing empty bindings are dropped (inner ones kept: they mean “parameter unset”) |
 * | canonical JSON literals | JSON literals in bindings come back re-encoded (keys sorted, `>` as `\u003e`) | compared by meaning; your text is kept when the meaning is equal |
 * | operation aliases (TF #289) | may answer `contains_one_of` for `one_of` (and back) | your spelling is kept |
 * | engine labels | trigger, subjects, operations, binding values and once-for references come back as `{name/reference/value, label}` objects | read back as the plain reference you wrote; labels are dropped |
 * | unordered sets | `onceFor`, `runsOnIncidentModes`, `owningTeamIds`, expressions come back in another order | compared as sets; your order is kept |
 * | omitted vs empty | unset `owningTeamIds` reads back as `[]` | unset stays unset |
 * | private incident scope | always answers both `private_incident_scope` and the derived, deprecated `include_private_incidents` | only the field you wrote is reported; unset scope and `none` are the same; an out-of-band scope change is still drift |
 * | defaulted booleans | `include_private_escalations` is always answered | `false` reads back as unset when you left it unset |
 *
 * ### Step upgrades
 * `skipStepUpgrades: true` sends the API's `skip_step_upgrades` with every update, so an update does not
 * upgrade the workflow's steps to their latest versions (TF provider #165/#308). It is write-only: the
 * state keeps what you declared.
 */
import { z } from "zod";
import { knownValues, warningProblem, warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { makeProvider } from "../provider/factory";
import { defineLookup, pickByName } from "../provider/functions";
import { idText, lookupName, nameText } from "../provider/inputs";
import { compact } from "../provider/naming";
import { keepDeclaredOrder, omittedWhenEmpty, unorderedSet } from "../provider/normalise";
import { readEach, walkList } from "../provider/pagedReads";
import type { Problem, Props, ResourceSpec } from "../provider/spec";
import {
  type ApiBinding,
  bindingPayload,
  bindingsFromApi,
  canonicalBinding,
  canonicalConditionGroups,
  canonicalExpressions,
  conditionGroup,
  conditionGroupsFromApi,
  conditionGroupsPayload,
  expression,
  expressionsFromApi,
  expressionsPayload,
  isEmptyBinding,
  paramBinding,
} from "./shared/engine";

/** Incident modes a workflow can run on. */
export const WORKFLOW_INCIDENT_MODES = ["retrospective", "standard", "test"] as const;
/** Which incidents a workflow applies to. */
export const WORKFLOW_RUNS_ON = ["newly_created", "newly_created_and_active"] as const;
/** Which private incidents a workflow acts on. */
export const WORKFLOW_PRIVATE_SCOPES = ["all", "none", "owning_teams"] as const;
/**
 * States a user can set. The API also reports `error` (a workflow it could not run); that is never
 * written, so a live `error` shows as drift and the next `up` sets the declared state again.
 */
export const WORKFLOW_STATES = ["active", "disabled", "draft"] as const;

/** The private incident scope the API applies when none is sent (rule "private incident scope"). */
const DEFAULT_PRIVATE_SCOPE = "none";

/** One step of the workflow. */
export const workflowStep = z.strictObject({
  /** Unique id of this step within the workflow (any short string you choose, e.g. `notify`). */
  id: idText(),
  /** The engine step to run, e.g. `slack.post_message` or `pagerduty.escalate`. */
  name: nameText(),
  /**
   * The step's parameters, in the step's parameter order. JSON literals are compared by meaning;
   * trailing empty bindings the API adds on read are ignored.
   */
  paramBindings: z.array(paramBinding).default([]),
  /** Reference of an expression returning a list: the step runs once per item. */
  forEach: idText().optional(),
});
export type WorkflowStep = z.infer<typeof workflowStep>;

/**
 * Inputs of a workflow (API v2, the only version of the workflows API). The trigger cannot be
 * changed in place: the API accepts it on create only, so changing it replaces the workflow.
 */
export const workflowInputs = z.strictObject({
  /** Name of the workflow, shown in the dashboard. */
  name: nameText(),
  /** What starts the workflow, e.g. `incident.updated`. Create-only in the API: changing it replaces the workflow. */
  trigger: idText(),
  /** Steps executed in order. */
  steps: z.array(workflowStep).default([]),
  /** The workflow runs when any one group holds (all conditions of a group must hold). Empty = always. */
  conditionGroups: z.array(conditionGroup).default([]),
  /** Expressions that make values available to steps (`expressions["<reference>"]`). Order does not matter. */
  expressions: z.array(expression).default([]),
  /** Run at most once for each distinct value of these references, e.g. `incident.url`. Order does not matter. */
  onceFor: z.array(idText()).default([]),
  /** Which incidents the workflow applies to: only newly created ones, or also already active ones. */
  // reference: WorkflowsCreateWorkflowPayloadV2.runs_on_incidents enum
  runsOnIncidents: knownValues(WORKFLOW_RUNS_ON).default("newly_created"),
  /** Incident modes the workflow runs on. Order does not matter. */
  // reference: WorkflowsCreateWorkflowPayloadV2.runs_on_incident_modes enum
  runsOnIncidentModes: z
    .array(knownValues(WORKFLOW_INCIDENT_MODES))
    .superRefine(warnUnless((v: unknown[]) => v.length > 0, "names no mode"))
    .default(["standard"]),
  /** Keep running later steps when one fails. */
  continueOnStepError: z.boolean().default(false),
  /** Delay between the trigger firing and the workflow running. */
  delay: z
    .strictObject({
      /** Seconds to wait (0 or more). */
      // seed: Limits 8 ("workflow for_seconds is at least 0")
      forSeconds: z.number().int("must be a whole number").min(0, "must be 0 or more"),
      /** Check the conditions again when the delay is over. */
      conditionsApplyOverDelay: z.boolean().default(false),
    })
    .optional(),
  /** `active`, `draft` or `disabled`. */
  // reference: WorkflowV2.state enum
  state: knownValues(WORKFLOW_STATES).default("active"),
  /** Folder the dashboard shows the workflow in. */
  folder: idText().optional(),
  /** For manually triggered workflows: the shortform that triggers it (e.g. `page-the-ceo`). */
  shortform: idText().optional(),
  /** Teams that own the workflow. Order does not matter. Unset = not managed here. */
  owningTeamIds: z.array(idText()).optional(),
  /**
   * Which private incidents the workflow acts on: `all`, `owning_teams` (those an owning team can
   * see) or `none`. Unset = `none` (unless the deprecated `includePrivateIncidents` is set).
   */
  // reference: WorkflowsCreateWorkflowPayloadV2.private_incident_scope enum
  privateIncidentScope: knownValues(WORKFLOW_PRIVATE_SCOPES).optional(),
  /**
   * DEPRECATED: use `privateIncidentScope`. `true` = act on private incidents, `false` = do not.
   * May be set together with `privateIncidentScope` only when they agree.
   */
  includePrivateIncidents: z.boolean().optional(),
  /** Act on private escalations too. Unset = `false`. */
  includePrivateEscalations: z.boolean().optional(),
  /**
   * Ask the API not to upgrade the workflow's steps to their latest versions when it is updated
   * (the API's write-only, update-only `skip_step_upgrades`; TF provider #165/#308). Sent with every
   * update; never read back.
   */
  skipStepUpgrades: z.boolean().optional(),
  /** Id of an existing workflow to take over instead of creating one (from the dashboard URL or `GET /v2/workflows`). */
  adoptId: z.string().min(1).optional(),
});

export type WorkflowInputs = z.infer<typeof workflowInputs>;

/** Outputs beyond the inputs. */
export interface WorkflowComputed {
  /** Revision of the workflow; the API increments it on every change. */
  version: number;
  /** Human-readable label of the trigger (e.g. `Incident updated`). */
  triggerLabel: string;
  /** The time from which the workflow runs on incidents, when the API reports one. */
  runsFrom: string | undefined;
  /** The API's `include_private_incidents` as it is now (derived from the scope). */
  currentIncludePrivateIncidents: boolean;
  /** Who manages the workflow according to the API (`dashboard`, `external`, `terraform`). */
  managedBy: string | undefined;
}

interface ApiWorkflowV2 {
  id: string;
  name: string;
  trigger: { name: string; label: string };
  steps: { id: string; name: string; label: string; param_bindings: ApiBinding[]; for_each?: string }[];
  condition_groups: any[];
  expressions: any[];
  once_for: { key: string; label: string; type: string; array: boolean }[];
  runs_on_incidents: string;
  runs_on_incident_modes: string[];
  continue_on_step_error: boolean;
  delay?: { for_seconds: number; conditions_apply_over_delay: boolean };
  state: string;
  folder?: string;
  shortform?: string;
  owning_team_ids?: string[];
  private_incident_scope: string;
  include_private_incidents: boolean;
  include_private_escalations: boolean;
  runs_from?: string;
  version: number;
}
/** The live object: the workflow and its management metadata. */
export interface LiveWorkflow {
  workflow: ApiWorkflowV2;
  managementMeta?: { managed_by: string; annotations?: Record<string, string> };
}

/** The private incident scope the user means, from either spelling (undefined: the API default). */
export function effectivePrivateScope(
  args: Pick<WorkflowInputs, "privateIncidentScope" | "includePrivateIncidents">,
) {
  if (args.privateIncidentScope !== undefined) return args.privateIncidentScope;
  if (args.includePrivateIncidents !== undefined) return args.includePrivateIncidents ? "all" : "none";
  return undefined;
}

/** The API payload (create when `forCreate`, else update: full PUT without the create-only trigger). */
export function workflowPayload(args: WorkflowInputs, forCreate: boolean): Props {
  return compact({
    name: args.name,
    ...(forCreate ? { trigger: args.trigger } : {}),
    steps: args.steps.map((s) =>
      compact({
        id: s.id,
        name: s.name,
        param_bindings: s.paramBindings.map(bindingPayload),
        for_each: s.forEach,
      }),
    ),
    condition_groups: conditionGroupsPayload(args.conditionGroups),
    expressions: expressionsPayload(args.expressions),
    once_for: args.onceFor,
    runs_on_incidents: args.runsOnIncidents,
    runs_on_incident_modes: args.runsOnIncidentModes,
    continue_on_step_error: args.continueOnStepError,
    delay: args.delay && {
      for_seconds: args.delay.forSeconds,
      conditions_apply_over_delay: args.delay.conditionsApplyOverDelay,
    },
    state: args.state,
    folder: args.folder,
    shortform: args.shortform,
    owning_team_ids: args.owningTeamIds,
    // The non-deprecated field is always sent (the deprecated one only when the user set it), so an
    // omitted scope means `none` on create and on update alike.
    private_incident_scope: effectivePrivateScope(args) ?? DEFAULT_PRIVATE_SCOPE,
    include_private_incidents: args.includePrivateIncidents,
    include_private_escalations: args.includePrivateEscalations ?? false,
    ...(forCreate ? {} : { skip_step_upgrades: args.skipStepUpgrades }),
  });
}

/**
 * Read-back mapped to the inputs. Named rules applied:
 * - "padded param bindings" + "canonical JSON literals" (steps, conditions, expressions: shared engine);
 * - "operation aliases" (conditions: shared engine);
 * - "engine labels": the API answers trigger, subjects, operations, values and once-for references as
 *   `{reference|value|name, label}` objects: read back as the plain reference the user wrote;
 * - "unordered sets": `onceFor`, `runsOnIncidentModes`, `owningTeamIds`, expressions (by reference);
 * - "omitted vs empty": unset `owningTeamIds` and an empty live list are the same;
 * - "private incident scope": the deprecated `include_private_incidents` is always echoed, derived from
 *   the scope: it reads back only when the user wrote it, the scope only when the user wrote it or it is
 *   not the default `none`;
 * - "defaulted booleans": `includePrivateEscalations` false reads back as unset when unset.
 */
export function workflowFromApi(live: LiveWorkflow, declared: WorkflowInputs | undefined): WorkflowInputs {
  const w = live.workflow;
  const scope = w.private_incident_scope as WorkflowInputs["privateIncidentScope"];
  const declaredScope = declared?.privateIncidentScope;
  const declaredInclude = declared?.includePrivateIncidents;
  let privateIncidentScope: WorkflowInputs["privateIncidentScope"];
  let includePrivateIncidents: boolean | undefined;
  if (declaredScope !== undefined) privateIncidentScope = scope;
  else if (declaredInclude !== undefined) {
    // Written the deprecated way: `true` means any scope that includes private incidents.
    includePrivateIncidents = w.include_private_incidents;
  } else if (scope !== DEFAULT_PRIVATE_SCOPE) privateIncidentScope = scope;
  if (declaredScope !== undefined && declaredInclude !== undefined) {
    includePrivateIncidents = w.include_private_incidents;
  }
  return {
    name: w.name,
    trigger: w.trigger.name,
    steps: w.steps.map((s, i) => {
      const mine = declared?.steps.find((d) => d.id === s.id) ?? declared?.steps[i];
      return {
        id: s.id,
        name: s.name,
        paramBindings: bindingsFromApi(s.param_bindings, mine?.paramBindings),
        ...(s.for_each ? { forEach: s.for_each } : {}),
      };
    }),
    conditionGroups: conditionGroupsFromApi(w.condition_groups, declared?.conditionGroups),
    expressions: expressionsFromApi(w.expressions, declared?.expressions),
    onceFor:
      keepDeclaredOrder(
        w.once_for.map((r) => r.key),
        declared?.onceFor,
      ) ?? [],
    runsOnIncidents: w.runs_on_incidents as WorkflowInputs["runsOnIncidents"],
    runsOnIncidentModes: keepDeclaredOrder(
      w.runs_on_incident_modes,
      declared?.runsOnIncidentModes,
    ) as WorkflowInputs["runsOnIncidentModes"],
    continueOnStepError: w.continue_on_step_error,
    delay: w.delay && {
      forSeconds: w.delay.for_seconds,
      conditionsApplyOverDelay: w.delay.conditions_apply_over_delay,
    },
    state: w.state as WorkflowInputs["state"],
    folder: w.folder === "" && declared?.folder === undefined ? undefined : w.folder,
    shortform: w.shortform === "" && declared?.shortform === undefined ? undefined : w.shortform,
    owningTeamIds: omittedWhenEmpty(
      keepDeclaredOrder(w.owning_team_ids, declared?.owningTeamIds),
      declared?.owningTeamIds,
    ),
    privateIncidentScope,
    includePrivateIncidents,
    includePrivateEscalations:
      declared?.includePrivateEscalations === undefined && !w.include_private_escalations
        ? undefined
        : w.include_private_escalations,
  };
}

/** Canonical form for diffs: sets sorted, padded bindings trimmed, JSON literals by meaning, scope resolved. */
export function canonicalWorkflow(args: WorkflowInputs): Props {
  return {
    ...args,
    steps: (args.steps ?? []).map((s) => ({
      ...s,
      paramBindings: trimBindings(s.paramBindings ?? []).map(canonicalBinding),
    })),
    conditionGroups: canonicalConditionGroups(args.conditionGroups),
    expressions: canonicalExpressions(args.expressions),
    onceFor: setOf(args.onceFor ?? []),
    runsOnIncidentModes: setOf(args.runsOnIncidentModes ?? []),
    owningTeamIds: args.owningTeamIds?.length ? setOf(args.owningTeamIds) : undefined,
    // Both spellings of the private incident scope compare by what they mean.
    privateIncidentScope:
      args.privateIncidentScope ??
      (args.includePrivateIncidents === undefined ? DEFAULT_PRIVATE_SCOPE : undefined),
    includePrivateIncidents:
      args.includePrivateIncidents ??
      (args.privateIncidentScope ? args.privateIncidentScope !== "none" : false),
    includePrivateEscalations: args.includePrivateEscalations ?? false,
  };
}

/** A set compared regardless of order; a preview's unknown value (not a list) is compared as is. */
function setOf<T>(values: readonly T[] | unknown): T[] | unknown {
  return Array.isArray(values) ? unorderedSet(values) : values;
}

function trimBindings(bindings: WorkflowStep["paramBindings"]): WorkflowStep["paramBindings"] {
  let end = bindings.length;
  while (end > 0 && isEmptyBinding(bindings[end - 1]!)) end--;
  return bindings.slice(0, end);
}

/**
 * Cross-field rules, with the input path of each problem. Refused where published (each names its
 * source); warned: repeated expression references and modes, a `forEach` naming no expression.
 */
export function validateWorkflow(args: WorkflowInputs): Problem[] {
  const problems: Problem[] = [];
  const warn = (...args: Parameters<typeof warningProblem>) => problems.push(warningProblem(...args));
  // reference: workflows ("include_private_incidents is deprecated in favour of private_incident_scope;
  // contradictory values fail validation")
  if (args.privateIncidentScope !== undefined && args.includePrivateIncidents !== undefined) {
    const agrees = args.includePrivateIncidents === (args.privateIncidentScope !== "none");
    if (!agrees) {
      problems.push({
        path: ["includePrivateIncidents"],
        message: `contradicts privateIncidentScope ${JSON.stringify(args.privateIncidentScope)} (deprecated: set only privateIncidentScope)`,
        dependsOn: [["privateIncidentScope"]],
      });
    }
  }
  // reference: StepConfigPayloadV2.id ("Unique ID of this step in a workflow")
  const stepIds = new Set<string>();
  args.steps.forEach((s, i) => {
    if (stepIds.has(s.id))
      problems.push({ path: ["steps", i, "id"], message: `duplicate step id ${JSON.stringify(s.id)}` });
    stepIds.add(s.id);
  });
  const refs = new Set<string>();
  args.expressions.forEach((e, i) => {
    if (refs.has(e.reference))
      warn(
        ["expressions", i, "reference"],
        `${JSON.stringify(e.reference)} is the reference of another expression too`,
      );
    refs.add(e.reference);
  });
  args.steps.forEach((s, i) => {
    if (s.forEach !== undefined && !refs.has(s.forEach))
      warn(
        ["steps", i, "forEach"],
        `names no expression of this workflow (known: ${[...refs].join(", ") || "none"})`,
        [["expressions", "*", "reference"]],
      );
  });
  const seen = new Set<string>();
  args.runsOnIncidentModes.forEach((m, i) => {
    if (seen.has(m)) warn(["runsOnIncidentModes", i], `names mode ${m} twice`);
    seen.add(m);
  });
  return problems;
}

const path = (id: string) => `/v2/workflows/${encodeURIComponent(id)}`;

interface ShowResult {
  workflow: ApiWorkflowV2;
  management_meta?: LiveWorkflow["managementMeta"];
}
const toLive = (body: ShowResult): LiveWorkflow => ({
  workflow: body.workflow,
  managementMeta: body.management_meta,
});

/**
 * A workflow (API v2): a trigger, conditions, expressions and steps the platform runs on incidents.
 * Changing `trigger` replaces the workflow (the API accepts it on create only); destroying it archives
 * it. Adopt an existing workflow with `adoptId` (its id from the dashboard URL or `GET /v2/workflows`).
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const team = incident.getCustomFieldOutput({ name: "Affected Team" });
 *
 * new incident.Workflow("notify-critical", {
 *   name: "Notify on critical incidents",
 *   trigger: "incident.updated",
 *   conditionGroups: [
 *     {
 *       conditions: [
 *         {
 *           subject: "incident.severity",
 *           operation: "one_of",
 *           paramBindings: [{ arrayValue: [{ literal: "01SEVCRITICAL" }] }],
 *         },
 *       ],
 *     },
 *   ],
 *   steps: [
 *     {
 *       id: "post",
 *       name: "slack.post_message",
 *       paramBindings: [
 *         { value: { reference: "incident.slack_channel" } },
 *         { value: { literal: JSON.stringify({ type: "doc", content: [{ type: "paragraph" }] }) } },
 *       ],
 *     },
 *   ],
 *   onceFor: ["incident.url"],
 *   runsOnIncidents: "newly_created_and_active",
 *   runsOnIncidentModes: ["standard"],
 *   delay: { forSeconds: 60, conditionsApplyOverDelay: true },
 *   state: "active",
 *   folder: "Paging",
 *   privateIncidentScope: "none",
 * });
 * ```
 */
export const workflowSpec: ResourceSpec<WorkflowInputs, LiveWorkflow> = {
  kind: "Workflow",
  title: "workflow",
  schemaVersion: 1,
  claimAs: "workflow",
  inputs: workflowInputs,
  // The API takes the trigger on create only (the update payload has no trigger field).
  replaceOnChanges: ["trigger"],
  // Names are not unique for workflows: the replacement can exist next to the old one for a moment.
  deleteBeforeReplace: false,
  secretOutputs: [],
  // Write-only: what the user declared is what the state keeps.
  localInputs: ["skipStepUpgrades"],
  computedOutputs: ["version", "triggerLabel", "runsFrom", "currentIncludePrivateIncidents", "managedBy"],
  validate: validateWorkflow,
  canonical: canonicalWorkflow,
  idOf: (live) => live.workflow.id,
  // For `pulumi-incident export`: the list answers slim workflows, so each is shown.
  listAll: async (ctx) => {
    const slim = await walkList<{ id: string }>(ctx.client, {
      path: "/v2/workflows",
      itemsKey: "workflows",
      operation: "list workflows",
    });
    return readEach(
      slim.map((w) => w.id),
      async (id) => toLive(await ctx.client.get<ShowResult>(path(id), "show workflow")),
    );
  },
  // No reads by page (ResourceSpec.list): WorkflowsV2List answers WorkflowSlimV2 (no steps,
  // conditions or expressions) and show adds `management_meta`.
  toInputs: workflowFromApi,
  computed: (live) => ({
    version: live.workflow.version,
    triggerLabel: live.workflow.trigger.label,
    runsFrom: live.workflow.runs_from,
    currentIncludePrivateIncidents: live.workflow.include_private_incidents,
    managedBy: live.managementMeta?.managed_by,
  }),
  api: {
    async create(ctx, args) {
      const body = await ctx.client.post<ShowResult>(
        "/v2/workflows",
        "create workflow",
        workflowPayload(args, true),
      );
      return { live: toLive(body) };
    },
    async read(ctx, id) {
      return toLive(await ctx.client.get<ShowResult>(path(id), "show workflow"));
    },
    async update(ctx, id, args) {
      const body = await ctx.client.put<ShowResult>(
        path(id),
        "update workflow",
        workflowPayload(args, false),
      );
      return { live: toLive(body) };
    },
    async delete(ctx, id) {
      // The API archives the workflow: it no longer runs, lists or shows.
      await ctx.client.delete(path(id), "delete workflow");
    },
    recoveryKey: (args) => `${args.name}/${args.trigger}`,
    async findCreated(ctx, args) {
      const body = await ctx.client.get<{
        workflows: { id: string; name: string; trigger: { name: string } }[];
      }>("/v2/workflows", "list workflows");
      const found = body.workflows.find((w) => w.name === args.name && w.trigger?.name === args.trigger);
      if (!found) return undefined;
      return toLive(await ctx.client.get<ShowResult>(path(found.id), "show workflow"));
    },
  },
};

export const workflowProvider = makeProvider(workflowSpec);

// ---------- getWorkflow ----------

/** Arguments of `getWorkflow`. */
export const getWorkflowArgs = z.strictObject({
  /** Exact name of the workflow. */
  name: lookupName(),
});
export type GetWorkflowArgs = z.input<typeof getWorkflowArgs>;

/** A workflow of the account (archived workflows are not listed). */
export interface GetWorkflowResult {
  /** The workflow's id: use it as an `adoptId`. */
  id: string;
  name: string;
  /** Name of the trigger, e.g. `incident.updated`. */
  trigger: string;
  /** `active`, `disabled`, `draft` or `error`. */
  state: string;
  /** Folder shown in the dashboard, if any. */
  folder: string | undefined;
  /** Teams that own the workflow. */
  owningTeamIds: string[];
}

/** Finds a workflow by exact name: `GET /v2/workflows` (API v2, unpaginated). */
export async function findWorkflowByName(client: ApiClient, name: string): Promise<GetWorkflowResult> {
  const body = await client.get<{ workflows: ApiWorkflowV2[] }>("/v2/workflows", "list workflows");
  const w = pickByName(body.workflows ?? [], name, "getWorkflow", "workflow");
  return {
    id: w.id,
    name: w.name,
    trigger: w.trigger.name,
    state: w.state,
    folder: w.folder,
    owningTeamIds: w.owning_team_ids ?? [],
  };
}

const workflowLookup = defineLookup({
  name: "getWorkflow",
  args: getWorkflowArgs,
  run: (client, args) => findWorkflowByName(client, args.name),
});

/** Finds a workflow by name; fails when there is none (or several share it). */
export const getWorkflow = workflowLookup.get;
/** `getWorkflow` taking Inputs and answering an Output. */
export const getWorkflowOutput = workflowLookup.getOutput;
