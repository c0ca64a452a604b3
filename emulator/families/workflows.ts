/**
 * Emulator family: workflows (API v2). `GET/POST /v2/workflows`, `GET/PUT/DELETE /v2/workflows/{id}`.
 *
 * Behaviour beyond the reference shapes (which the framework validates first): the trigger is a
 * non-empty string (create only: the update payload has none, so it never changes), the name is not
 * blank, `delay.for_seconds` is 0 or more, `include_private_incidents` may be sent with
 * `private_incident_scope` only when they agree, step ids are unique, expression references are
 * unique, condition subjects / operations are non-empty and every binding value sets exactly one of
 * literal / reference (./shared/engine.ts). 422 problems name the payload field
 * (`steps.1.param_bindings.0`). An `owning_team_ids` entry that is not a team is a 400
 * `invalid_reference`. An update is a full PUT: every field it carries replaces the stored one, and
 * an optional field it leaves out is cleared.
 *
 * Read-back reproduces what the real API does to what was written (so the provider's normalisation
 * rules are exercised), through the shared engine renderer (./shared/engine.ts): param bindings of
 * steps and conditions padded with trailing empty bindings (TF #205), JSON literals re-encoded (keys
 * sorted, `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026`, TF #242), `one_of` answered as
 * `contains_one_of` (TF #289), subjects / operations / binding values answered as labelled objects,
 * expressions in another order. Besides: the trigger and once-for references answered as labelled
 * objects, once-for, modes and owning team ids (sets) in another order (reversed), no owning teams
 * answered as `owning_team_ids: []` ("omitted vs empty"), `include_private_incidents` derived from the
 * scope, the scope `none` when neither was sent, `state` `active` when none was sent. `version`
 * starts at 1 and counts every update. Delete archives: an archived workflow no longer shows or lists.
 */

import { defineFamily, operation } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import { teamOwnedBy } from "../roles";
import type { Store } from "../store";
import {
  bindingProblems,
  conditionGroupProblems,
  expressionProblems,
  humanLabel,
  renderBindings,
  renderConditionGroups,
  renderExpressions,
} from "./shared/engine";
import { compact } from "./shared/records";
import { requireTeams } from "./teams";

/** A 422 problem: the API field path (`steps.0.param_bindings.1`) and a message. */
export interface FieldProblem {
  field: string;
  message: string;
}

type Json = any;

/** What the emulator keeps for one workflow: the payload as written, plus server fields. */
export interface StoredWorkflow {
  id: string;
  payload: Json;
  trigger: string;
  version: number;
  createdAt: string;
  archived: boolean;
  managedBy: "dashboard" | "external" | "terraform";
}

/** Behaviour checks beyond the reference shapes (those are validated by the framework first). */
export function workflowProblems(body: Json, forCreate: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (forCreate && (typeof body?.trigger !== "string" || body.trigger.trim() === "")) {
    problems.push({ field: "trigger", message: "must be a non-empty string" });
  }
  if (typeof body?.name === "string" && body.name.trim() === "") {
    problems.push({ field: "name", message: "must not be empty" });
  }
  const seconds = body?.delay?.for_seconds;
  if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < 0)) {
    problems.push({ field: "delay.for_seconds", message: "must be an integer greater than or equal to 0" });
  }
  const scope = body?.private_incident_scope;
  const include = body?.include_private_incidents;
  if (scope !== undefined && include !== undefined && include !== (scope !== "none")) {
    problems.push({
      field: "include_private_incidents",
      message: `contradicts private_incident_scope "${scope}"`,
    });
  }
  const ids = new Set<string>();
  (Array.isArray(body?.steps) ? body.steps : []).forEach((s: Json, i: number) => {
    if (typeof s?.id === "string") {
      if (ids.has(s.id)) problems.push({ field: `steps.${i}.id`, message: "step ids must be unique" });
      ids.add(s.id);
    }
    problems.push(...bindingProblems(s?.param_bindings, `steps.${i}.param_bindings`));
  });
  problems.push(...conditionGroupProblems(body?.condition_groups, "condition_groups"));
  problems.push(...expressionProblems(body?.expressions, "expressions"));
  return problems;
}

/** Stores a created workflow (`payload` already validated). */
export function createWorkflow(id: string, payload: Json, now: string): StoredWorkflow {
  const { trigger, annotations: _a, skip_step_upgrades: _s, ...rest } = payload;
  return {
    id,
    payload: rest,
    trigger,
    version: 1,
    createdAt: now,
    archived: false,
    managedBy: "external",
  };
}

/** Applies a full PUT: every field of the update payload replaces the stored one. */
export function updateWorkflow(stored: StoredWorkflow, payload: Json): StoredWorkflow {
  const { trigger: _t, annotations: _a, skip_step_upgrades: _s, ...rest } = payload;
  return { ...stored, payload: rest, version: stored.version + 1 };
}

/** The `WorkflowsShowWorkflowResultV2` body for a stored workflow. */
export function showWorkflow(stored: StoredWorkflow): Json {
  return {
    management_meta: { annotations: {}, managed_by: stored.managedBy },
    workflow: renderWorkflow(stored),
  };
}

/** The `WorkflowsListWorkflowsResultV2` body: every workflow not archived, slim (`WorkflowSlimV2`). */
export function listWorkflows(all: Iterable<StoredWorkflow>): Json {
  return {
    workflows: [...all]
      .filter((w) => !w.archived)
      .map((w) => {
        const { form_fields: _f, ...full } = renderWorkflow(w);
        return { ...full, steps: full.steps.map((s: Json) => ({ label: s.label, name: s.name })) };
      }),
  };
}

/** `WorkflowV2` with the API's read-back quirks. */
export function renderWorkflow(stored: StoredWorkflow): Json {
  const p = stored.payload;
  const scope: string = p.private_incident_scope ?? (p.include_private_incidents === true ? "all" : "none");
  return compact({
    id: stored.id,
    name: p.name,
    trigger: { name: stored.trigger, label: humanLabel(stored.trigger) },
    steps: (p.steps ?? []).map((s: Json) =>
      compact({
        id: s.id,
        name: s.name,
        label: humanLabel(s.name),
        for_each: s.for_each,
        // Quirk "padded param bindings" (TF #205), JSON literals re-encoded.
        param_bindings: renderBindings(s.param_bindings),
      }),
    ),
    // Quirks "operation aliases", labelled subjects / operations / values, padded bindings.
    condition_groups: renderConditionGroups(p.condition_groups),
    // Quirk: expressions come back in another order.
    expressions: renderExpressions(p.expressions),
    // Quirk: once-for as labelled references, in another order.
    once_for: [...(p.once_for ?? [])]
      .reverse()
      .map((key: string) => ({ key, label: humanLabel(key), type: "String", array: false })),
    runs_on_incidents: p.runs_on_incidents,
    // Quirk: a set, answered in another order.
    runs_on_incident_modes: [...(p.runs_on_incident_modes ?? [])].reverse(),
    continue_on_step_error: p.continue_on_step_error,
    delay: p.delay && {
      for_seconds: p.delay.for_seconds,
      conditions_apply_over_delay: p.delay.conditions_apply_over_delay,
    },
    state: p.state ?? "active",
    folder: p.folder,
    shortform: p.shortform,
    // Quirks "omitted vs empty" (none: `[]`) and a set in another order.
    owning_team_ids: [...(p.owning_team_ids ?? [])].reverse(),
    private_incident_scope: scope,
    include_private_incidents: scope !== "none",
    include_private_escalations: p.include_private_escalations ?? false,
    form_fields: p.form_fields?.map((f: Json, i: number) =>
      compact({
        id: f.id ?? `${stored.id}-field-${i}`,
        key: f.key,
        title: f.title,
        type: f.type,
        description: f.description,
        required: f.required ?? false,
        array: f.array ?? false,
      }),
    ),
    runs_from: stored.createdAt,
    version: stored.version,
  });
}

// ---------- the emulator family ----------

export const WORKFLOWS = "workflows";

function findWorkflow(store: Store, id: string): StoredWorkflow | undefined {
  const w = store.collection<StoredWorkflow>(WORKFLOWS).get(id);
  return w && !w.archived ? w : undefined;
}

export const workflows = defineFamily({
  name: "workflows",
  roles: {
    read: ["viewer", "workflows_viewer"],
    write: ["workflows_editor", "private_workflows_editor"],
    teamWrite: ["workflows_editor", "private_workflows_editor"],
    // An update is a full PUT: `owning_team_ids` omitted leaves none.
    teamOwned: teamOwnedBy(
      findWorkflow,
      (w) => w.payload.owning_team_ids,
      (body) => body.owning_team_ids ?? [],
    ),
  },
  collections: [WORKFLOWS],
  routes: [
    operation("WorkflowsV2ListWorkflows", "read", ({ store }) => ({
      body: listWorkflows(store.collection<StoredWorkflow>(WORKFLOWS).values()),
    })),

    operation("WorkflowsV2CreateWorkflow", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(workflowProblems(body, true));
      requireTeams(store, body.owning_team_ids);
      const stored = store.collection<StoredWorkflow>(WORKFLOWS).set(createWorkflow(newId(), body, nowIso));
      return { body: showWorkflow(stored) };
    }),

    operation("WorkflowsV2ShowWorkflow", "read", ({ store, params }) => {
      const w = findWorkflow(store, params.id!);
      if (!w) throw notFound(`No workflow with id ${params.id}`);
      return { body: showWorkflow(w) };
    }),

    operation("WorkflowsV2UpdateWorkflow", "write", ({ store, params, body }) => {
      const w = findWorkflow(store, params.id!);
      if (!w) throw notFound(`No workflow with id ${params.id}`);
      throwIfProblems(workflowProblems(body, false));
      requireTeams(store, body.owning_team_ids);
      const stored = store.collection<StoredWorkflow>(WORKFLOWS).set(updateWorkflow(w, body));
      return { body: showWorkflow(stored) };
    }),

    operation("WorkflowsV2DestroyWorkflow", "write", ({ store, params }) => {
      const w = findWorkflow(store, params.id!);
      if (!w) throw notFound(`No workflow with id ${params.id}`);
      store.collection<StoredWorkflow>(WORKFLOWS).set({ ...w, archived: true });
      return {};
    }),
  ],
});
