/**
 * Emulator family: policies (API v2; a partial shape, shared/api/NEWER.md "policies").
 * `GET/POST /v2/policies` (paginated), `GET/PUT/DELETE /v2/policies/{id}`; flat bodies.
 *
 * What is read: PoliciesCreatePayloadV2's top level (required name, description, policy_type,
 * conditions; optional status, expressions, assignment_rules and one block per policy type,
 * `follow_up`, `post_mortem`, `debrief`, `on_call_readiness`, `schedule`, each "set when policy_type
 * is …"). What is the emulator's model, not read (../localTypes.ts): the response wrappers, chosen as
 * every v2 family of the reference has them (`{policy}` for create, show and update,
 * `{policies, pagination_meta}` for the list, as announcement rules and escalation path templates),
 * the read shape (the payload's fields plus `id`, `created_at`, `updated_at`), the update payload
 * (the create payload), and the status codes (201 create, 204 delete).
 *
 * Behaviour beyond the shapes, from the fields' documentation:
 * - `policy_type` "cannot be changed after the policy is created": an update naming another type is
 *   refused (422 on `policy_type`). Its values are not read: any non-blank text is taken;
 * - `status` "defaults to enabled on create; settable on update": a create without it is `enabled`,
 *   an update without it keeps it. Its values are not read: any non-blank text is taken;
 * - a per-type block (`follow_up`, `post_mortem`, `debrief`, `on_call_readiness`, `schedule`) is
 *   "set when policy_type is" its name: one set for another type is refused (422 on the block);
 * - `due_date_config` and `requirements` (shapes not published) must be JSON objects or lists and
 *   are stored as written; `assignment_rules`, `on_call_readiness` and `schedule` (shapes not
 *   published) are stored as written and kept by an update that omits them;
 * - `name` and `policy_type` must not be blank (names are not documented as unique);
 * - conditions and expressions go through the shared engine (./shared/engine.ts) and read back as
 *   it answers them.
 * Delete removes the policy (204).
 */
import { defineFamily, operation, paginate } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import { registerLocalShapes } from "../localTypes";
import type { Store } from "../store";
import {
  conditionGroupProblems,
  expressionProblems,
  renderConditionGroups,
  renderExpressions,
} from "./shared/engine";
import { compact } from "./shared/records";
import { blankProblems } from "./shared/settings";

registerLocalShapes();

export const POLICIES = "policies";

/** The per-type blocks: each set only when `policy_type` is its name. */
export const POLICY_TYPE_BLOCKS = ["follow_up", "post_mortem", "debrief", "on_call_readiness", "schedule"];
/** Fields an update that omits them keeps (documented for status; the others' shapes are not published). */
const KEPT = ["status", "assignment_rules", "on_call_readiness", "schedule"];

type Json = any;

interface StoredPolicy {
  id: string;
  /** The written payload with the omitted fields filled in (defaults, or kept from before). */
  payload: Json;
  created_at: string;
  updated_at: string;
}

const isJsonContainer = (v: unknown) => typeof v === "object" && v !== null;

function problems(body: Json, current: StoredPolicy | undefined) {
  const out: { field: string; message: string }[] = [...blankProblems(body, ["name", "policy_type"])];
  if (typeof body.status === "string" && body.status.trim() === "")
    out.push({ field: "status", message: "must not be blank" });
  if (current && body.policy_type !== current.payload.policy_type)
    out.push({
      field: "policy_type",
      message: `cannot be changed after the policy is created (it is ${current.payload.policy_type})`,
    });
  for (const block of POLICY_TYPE_BLOCKS)
    if (body[block] !== undefined && body[block] !== null && body.policy_type !== block)
      out.push({ field: block, message: `is set only when policy_type is ${block}` });
  for (const block of ["follow_up", "post_mortem", "debrief"])
    for (const key of ["due_date_config", "requirements"]) {
      const v = body[block]?.[key];
      if (v !== undefined && !isJsonContainer(v))
        out.push({ field: `${block}.${key}`, message: "must be an object or a list" });
    }
  out.push(...conditionGroupProblems(body.conditions, "conditions"));
  out.push(...expressionProblems(body.expressions, "expressions"));
  return out;
}

/** The stored payload: what was written, omitted fields as the API fills them in. */
function stored(body: Json, before: Json | undefined): Json {
  const kept = Object.fromEntries(KEPT.map((k) => [k, body[k] ?? before?.[k]]));
  return compact({
    ...body,
    ...kept,
    status: kept.status ?? "enabled",
    expressions: body.expressions ?? [],
  });
}

/** `PolicyV2` (the emulator's model: the payload's fields, as written, plus id and timestamps). */
function render(p: StoredPolicy): Json {
  const b = p.payload;
  return compact({
    id: p.id,
    name: b.name,
    description: b.description,
    policy_type: b.policy_type,
    conditions: renderConditionGroups(b.conditions),
    status: b.status,
    expressions: renderExpressions(b.expressions),
    assignment_rules: b.assignment_rules,
    follow_up: b.follow_up,
    post_mortem: b.post_mortem,
    debrief: b.debrief,
    on_call_readiness: b.on_call_readiness,
    schedule: b.schedule,
    created_at: p.created_at,
    updated_at: p.updated_at,
  });
}

function policy(store: Store, id: string): StoredPolicy {
  const p = store.collection<StoredPolicy>(POLICIES).get(id);
  if (!p) throw notFound(`No policy with id ${id}`);
  return p;
}

export const policies = defineFamily({
  name: "policies",
  // `policies_viewer` reads (the seed's role list; the reference's API key payload does not list it
  // yet); no policy editor role is listed: settings managers write.
  roles: { read: ["viewer", "policies_viewer"], write: ["manage_settings"] },
  collections: [POLICIES],
  routes: [
    operation("PoliciesV2List", "read", ({ store, query }) => {
      const { page, pagination_meta } = paginate(store.collection<StoredPolicy>(POLICIES).all(), query);
      return { body: { policies: page.map(render), pagination_meta } };
    }),
    operation("PoliciesV2Create", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(problems(body, undefined));
      const p = store.collection<StoredPolicy>(POLICIES).set({
        id: newId(),
        payload: stored(body, undefined),
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { body: { policy: render(p) } };
    }),
    operation("PoliciesV2Show", "read", ({ store, params }) => ({
      body: { policy: render(policy(store, params.id!)) },
    })),
    operation("PoliciesV2Update", "write", ({ store, params, body, nowIso }) => {
      const current = policy(store, params.id!);
      throwIfProblems(problems(body, current));
      const p = store
        .collection<StoredPolicy>(POLICIES)
        .set({ ...current, payload: stored(body, current.payload), updated_at: nowIso });
      return { body: { policy: render(p) } };
    }),
    operation("PoliciesV2Destroy", "write", ({ store, params }) => {
      policy(store, params.id!);
      store.collection<StoredPolicy>(POLICIES).delete(params.id!);
      return {};
    }),
  ],
});
