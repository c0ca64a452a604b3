/**
 * Emulator family: escalation path templates (API v2; shapes from reference-newer.json,
 * shared/api/NEWER.md). `GET/POST /v2/escalation_path_templates` (paginated, `search` filters by name),
 * `GET/PUT/DELETE /v2/escalation_path_templates/{id}`; flat bodies.
 *
 * Behaviour beyond the reference shapes: the name must not be blank; the tree follows the escalation
 * paths' rules (./escalationPaths.ts: node ids unique, repeats pointing at a node, the node body
 * matching its `type`, retry attempts and intervals, working-hours references, user and schedule
 * targets that exist, a reassignment (`escalation_path` node) to a path that exists), and besides:
 * each target sets exactly one of `id` or `binding` ("id omitted when binding is set"), binding
 * values set one of literal / reference, and a `voicemail` node is refused ("only valid inside a call
 * route's path"). Parameters: unique non-blank names, `allowed_value_types` of `expression`,
 * `literal`, `reference` (the SDK's EngineParamV2AllowedValueTypesItem), a default value's binding
 * well formed. Expressions: the shared engine's checks. 422 problems name the payload field.
 *
 * Read-back: targets and conditions as escalation paths answer them (user targets twice,
 * `schedule_mode: ""`, labelled bindings and conditions), expressions through the shared engine, no
 * working hours answered as `[]`; `has_historical_escalation_path_versions` is true once a path has
 * been built from the template.
 *
 * Delete archives ("Archives a particular escalation path template"), whatever uses it: an archived
 * template no longer shows or lists, and no path can be created or updated to use it (422 on
 * `template_id`); the paths already built from it keep it (their `template_id` reads back
 * unchanged). The reference documents no refusal, and its notes say an archived template still
 * backs earlier path versions (it only cannot back their restore), so the emulator refuses nothing.
 */
import { defineFamily, operation, paginate } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import type { Store } from "../store";
import {
  ESCALATION_PATH_TEMPLATES,
  ESCALATION_PATHS,
  escalationPathProblems,
  escalationPathWorld,
  renderNodes,
  type StoredEscalationPath,
} from "./escalationPaths";
import { bindingProblems, expressionProblems, renderBinding, renderExpressions } from "./shared/engine";
import { compact } from "./shared/records";
import { blankProblems } from "./shared/settings";

type Json = any;

/** EngineParamV2AllowedValueTypesItem (sdk-python @ b980e209). */
const ALLOWED_VALUE_TYPES = new Set(["expression", "literal", "reference"]);

interface StoredTemplate {
  id: string;
  archived: boolean;
  name: string;
  description?: string;
  params: Json[];
  path: Json[];
  expressions: Json[];
  repeat_config?: Json;
  working_hours?: Json[];
}

function problems(store: Store, body: Json) {
  const out: { field: string; message: string }[] = [
    ...blankProblems(body, ["name"]),
    ...escalationPathProblems(body, escalationPathWorld(store), { template: true }),
    ...expressionProblems(body?.expressions, "expressions"),
  ];
  const names = new Set<string>();
  (Array.isArray(body?.params) ? body.params : []).forEach((p: Json, i: number) => {
    const at = `params.${i}`;
    if (typeof p?.name === "string") {
      if (p.name.trim() === "") out.push({ field: `${at}.name`, message: "must not be empty" });
      else if (names.has(p.name))
        out.push({ field: `${at}.name`, message: "parameter names must be unique" });
      names.add(p.name);
    }
    (Array.isArray(p?.allowed_value_types) ? p.allowed_value_types : []).forEach((t: Json, j: number) => {
      if (!ALLOWED_VALUE_TYPES.has(t))
        out.push({
          field: `${at}.allowed_value_types.${j}`,
          message: `must be one of ${[...ALLOWED_VALUE_TYPES].join(", ")}`,
        });
    });
    if (p?.default_value) out.push(...bindingProblems([p.default_value], `${at}.default_value`));
  });
  return out;
}

function stored(id: string, body: Json, archived = false): StoredTemplate {
  return {
    id,
    archived,
    name: body.name,
    description: body.description,
    params: structuredClone(body.params ?? []),
    path: structuredClone(body.path ?? []),
    expressions: structuredClone(body.expressions ?? []),
    repeat_config: body.repeat_config,
    working_hours: body.working_hours,
  };
}

/** The paths (archived ones too) built from a template. */
function pathsOf(store: Store, id: string): StoredEscalationPath[] {
  return store
    .collection<StoredEscalationPath>(ESCALATION_PATHS)
    .filter((p) => p.payload?.kind === "templated" && p.payload?.template_id === id);
}

/** EscalationPathTemplateV2. */
function render(store: Store, t: StoredTemplate): Json {
  return compact({
    id: t.id,
    name: t.name,
    description: t.description,
    params: t.params.map((p) =>
      compact({ ...p, default_value: p.default_value ? renderBinding(p.default_value) : undefined }),
    ),
    path: renderNodes(t.path),
    expressions: renderExpressions(t.expressions),
    has_historical_escalation_path_versions: pathsOf(store, t.id).length > 0,
    repeat_config: t.repeat_config,
    working_hours: t.working_hours ?? [],
  });
}

function findTemplate(store: Store, id: string): StoredTemplate {
  const t = store.collection<StoredTemplate>(ESCALATION_PATH_TEMPLATES).get(id);
  if (!t || t.archived) throw notFound(`No escalation path template with id ${id}`);
  return t;
}

export const escalationPathTemplates = defineFamily({
  name: "escalation_path_templates",
  roles: { read: ["viewer", "on_call_viewer"], write: ["on_call_editor"] },
  collections: [ESCALATION_PATH_TEMPLATES],
  routes: [
    operation("EscalationPathTemplatesV2List", "read", ({ store, query }) => {
      const search = typeof query.search === "string" ? query.search.toLowerCase() : "";
      const live = store
        .collection<StoredTemplate>(ESCALATION_PATH_TEMPLATES)
        .filter((t) => !t.archived && t.name.toLowerCase().includes(search));
      const { page, pagination_meta } = paginate(live, query);
      return {
        body: { escalation_path_templates: page.map((t) => render(store, t)), pagination_meta },
      };
    }),

    operation("EscalationPathTemplatesV2Create", "write", ({ store, body, newId }) => {
      throwIfProblems(problems(store, body));
      const t = store.collection<StoredTemplate>(ESCALATION_PATH_TEMPLATES).set(stored(newId(), body));
      return { body: { escalation_path_template: render(store, t) } };
    }),

    operation("EscalationPathTemplatesV2Show", "read", ({ store, params }) => ({
      body: { escalation_path_template: render(store, findTemplate(store, params.id!)) },
    })),

    operation("EscalationPathTemplatesV2Update", "write", ({ store, params, body }) => {
      const t = findTemplate(store, params.id!);
      throwIfProblems(problems(store, body));
      const next = store.collection<StoredTemplate>(ESCALATION_PATH_TEMPLATES).set(stored(t.id, body));
      return { body: { escalation_path_template: render(store, next) } };
    }),

    operation("EscalationPathTemplatesV2Destroy", "write", ({ store, params }) => {
      const t = findTemplate(store, params.id!);
      store.collection<StoredTemplate>(ESCALATION_PATH_TEMPLATES).set({ ...t, archived: true });
      return {};
    }),
  ],
});
