/**
 * Emulator family: workflows (API v2). `GET/POST /v2/workflows`, `GET/PUT/DELETE /v2/workflows/{id}`.
 *
 * Read-back reproduces what the real API does to what was written (so the provider's normalisation
 * rules are exercised): step param bindings padded with trailing empty bindings (TF #205), JSON
 * literals re-encoded (keys sorted, `>` as `\u003e`), `one_of` answered as `contains_one_of`,
 * expressions in another order, trigger / subjects / operations / values / once-for answered as
 * labelled objects, once-for and modes in another order, `include_private_incidents` derived from the
 * scope. Delete archives: an archived workflow no longer shows or lists.
 */
import { defineFamily, operation } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import type { Store } from "../store";

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

const PRIVATE_SCOPES = ["all", "none", "owning_teams"];

/** Behaviour checks beyond the reference shapes (those are validated by the framework first). */
export function workflowProblems(body: Json, forCreate: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (forCreate && (typeof body?.trigger !== "string" || body.trigger === "")) {
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
  if (scope !== undefined && include !== undefined && PRIVATE_SCOPES.includes(scope)) {
    if (include !== (scope !== "none")) {
      problems.push({
        field: "include_private_incidents",
        message: `contradicts private_incident_scope "${scope}"`,
      });
    }
  }
  const ids = new Set<string>();
  (Array.isArray(body?.steps) ? body.steps : []).forEach((s: Json, i: number) => {
    if (typeof s?.id === "string") {
      if (ids.has(s.id)) problems.push({ field: `steps.${i}.id`, message: "step ids must be unique" });
      ids.add(s.id);
    }
    (Array.isArray(s?.param_bindings) ? s.param_bindings : []).forEach((b: Json, j: number) => {
      for (const v of [b?.value, ...(Array.isArray(b?.array_value) ? b.array_value : [])]) {
        if (v && v.literal !== undefined && v.reference !== undefined) {
          problems.push({
            field: `steps.${i}.param_bindings.${j}`,
            message: "a binding value sets either literal or reference",
          });
        }
      }
    });
  });
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

/** The `WorkflowsListWorkflowsResultV2` body: every workflow not archived, slim. */
export function listWorkflows(all: Iterable<StoredWorkflow>): Json {
  return {
    workflows: [...all]
      .filter((w) => !w.archived)
      .map((w) => {
        const full = renderWorkflow(w);
        return {
          ...full,
          steps: full.steps.map((s: Json) => ({ label: s.label, name: s.name })),
        };
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
        // Quirk "padded param bindings" (TF #205).
        param_bindings: [...(s.param_bindings ?? []).map(renderBinding), {}, { array_value: [] }],
      }),
    ),
    condition_groups: renderConditionGroups(p.condition_groups),
    // Quirk: expressions come back in another order.
    expressions: [...(p.expressions ?? [])].reverse().map(renderExpression),
    // Quirk: once-for as labelled references, in another order.
    once_for: [...(p.once_for ?? [])]
      .reverse()
      .map((key: string) => ({ key, label: humanLabel(key), type: "String", array: false })),
    runs_on_incidents: p.runs_on_incidents,
    runs_on_incident_modes: [...(p.runs_on_incident_modes ?? [])].reverse(),
    continue_on_step_error: p.continue_on_step_error,
    delay: p.delay && {
      for_seconds: p.delay.for_seconds,
      conditions_apply_over_delay: p.delay.conditions_apply_over_delay,
    },
    state: p.state ?? "active",
    folder: p.folder,
    shortform: p.shortform,
    owning_team_ids: [...(p.owning_team_ids ?? [])].reverse(),
    private_incident_scope: scope,
    include_private_incidents: scope !== "none",
    include_private_escalations: p.include_private_escalations ?? false,
    form_fields: p.form_fields?.map((f: Json, i: number) => ({
      id: f.id ?? `${stored.id}-field-${i}`,
      key: f.key,
      title: f.title,
      type: f.type,
      description: f.description,
      required: f.required ?? false,
      array: f.array ?? false,
    })),
    runs_from: stored.createdAt,
    version: stored.version,
  });
}

// ---------- engine read-back (quirks) ----------

const OPERATION_ALIAS: Record<string, string> = { one_of: "contains_one_of" };

function renderConditionGroups(groups: Json[] | undefined): Json[] {
  return (groups ?? []).map((g) => ({
    conditions: (g.conditions ?? []).map((c: Json) => ({
      subject: { reference: c.subject, label: humanLabel(c.subject) },
      // Quirk "operation aliases".
      operation: {
        value: OPERATION_ALIAS[c.operation] ?? c.operation,
        label: humanLabel(c.operation),
      },
      param_bindings: (c.param_bindings ?? []).map(renderBinding),
    })),
  }));
}

function renderBinding(b: Json): Json {
  return compact({
    value: b.value ? renderValue(b.value) : undefined,
    array_value: b.array_value ? b.array_value.map(renderValue) : undefined,
  });
}

function renderValue(v: Json): Json {
  if (v.literal !== undefined) {
    const literal = reencodeJson(v.literal);
    return { literal, label: v.literal };
  }
  return { reference: v.reference, label: humanLabel(v.reference ?? "") };
}

/** Quirk "canonical JSON literals": a JSON literal is stored parsed and re-encoded on read. */
export function reencodeJson(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return text;
  try {
    return JSON.stringify(sortKeys(JSON.parse(trimmed)))
      .replace(/</g, "\\u003c")
      .replace(/>/g, "\\u003e")
      .replace(/&/g, "\\u0026");
  } catch {
    return text;
  }
}

function sortKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  }
  return v;
}

function renderExpression(e: Json): Json {
  const returns = { array: false, type: "String" };
  return compact({
    label: e.label,
    reference: e.reference,
    root_reference: e.root_reference,
    returns,
    else_branch: e.else_branch ? { result: renderBinding(e.else_branch.result) } : undefined,
    operations: (e.operations ?? []).map((op: Json) =>
      compact({
        operation_type: op.operation_type,
        returns: op.branches?.returns ?? op.parse?.returns ?? op.cast?.returns ?? returns,
        branches: op.branches && {
          branches: op.branches.branches.map((b: Json) => ({
            condition_groups: renderConditionGroups(b.condition_groups),
            result: renderBinding(b.result),
          })),
          returns: op.branches.returns,
        },
        filter: op.filter && { condition_groups: renderConditionGroups(op.filter.condition_groups) },
        navigate: op.navigate && {
          reference: op.navigate.reference,
          reference_label: humanLabel(op.navigate.reference),
        },
        parse: op.parse && { source: op.parse.source, returns: op.parse.returns },
        // Not in the reference's read shape, but the real API keeps them: echoed as written.
        cast: op.cast,
        concatenate: op.concatenate,
      }),
    ),
  });
}

function humanLabel(reference: string): string {
  const last = String(reference).split(".").pop() ?? String(reference);
  const words = last.replace(/[_[\]"]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function compact(obj: Record<string, unknown>): Json {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return out;
}

// ---------- the emulator family ----------

export const WORKFLOWS = "workflows";

function findWorkflow(store: Store, id: string): StoredWorkflow | undefined {
  const w = store.collection<StoredWorkflow>(WORKFLOWS).get(id);
  return w && !w.archived ? w : undefined;
}

export const workflows = defineFamily({
  name: "workflows",
  collections: [WORKFLOWS],
  routes: [
    operation("WorkflowsV2ListWorkflows", "read", ({ store }) => ({
      body: listWorkflows(store.collection<StoredWorkflow>(WORKFLOWS).values()),
    })),

    operation("WorkflowsV2CreateWorkflow", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(workflowProblems(body, true));
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
