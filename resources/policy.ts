/**
 * Policy: a rule the account holds incidents or on-call to, whose breaches the API reports as policy
 * findings (`GET/POST /v2/policies`, `GET/PUT/DELETE /v2/policies/{id}`; flat bodies). API v2 is the
 * only version. The shape is partial (shared/api/NEWER.md "policies": the create payload's top
 * level): what it gives is managed, what it does not is refused by check, never guessed.
 *
 * What is read and managed: `name`, `description`, `policyType` (its values are not published: any
 * text, which the API checks; it "cannot be changed after the policy is created", so a change
 * replaces the policy), `conditions`, `status` (values not published: any text the API checks;
 * `enabled` on create when unset, and then not managed), `expressions`, and the per-type blocks whose
 * keys the reference's example gives: `followUp`, `postMortem`, `debrief` (each `{dueDateConfig,
 * requirements, runOnPrivateIncidents}`), each "set when policy_type is" its name (`follow_up`,
 * `post_mortem`, `debrief`). The inner fields of `dueDateConfig` and `requirements` are not
 * published: they are written as the API's JSON spells them, sent as written and compared as JSON.
 *
 * Not managed (their shapes are not published): `assignmentRules`, `onCallReadiness` and `schedule`:
 * check refuses them, naming the field. A policy that holds one of them (made in the dashboard) is
 * not taken over: an update of it is refused before any write (the update would not send what it
 * holds), and `pulumi-incident export` leaves it out.
 *
 * Not read (the emulator's model, emulator/families/policies.ts): the response wrappers, taken as
 * every v2 collection of the API answers (`{policy}`, `{policies, pagination_meta}`), and the
 * update payload, taken to be the create payload. Names are not documented as unique.
 *
 * Normalisation: conditions and expressions follow the shared engine rules (operation aliases,
 * padded bindings, JSON literals; expressions are a set by reference); `dueDateConfig` and
 * `requirements` compare as JSON (key order does not matter).
 */
import { z } from "zod";
import { passedOn } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { unlessNotFound } from "../provider/errors";
import { makeProvider } from "../provider/factory";
import { defineLookup, LookupError, pickByName } from "../provider/functions";
import { freeText, nameText } from "../provider/inputs";
import { canonicalJson, sortKeysDeep } from "../provider/normalise";
import { itemPath, newestMatching, restApi } from "../provider/restApi";
import type { Problem, Props, ResourceSpec } from "../provider/spec";
import {
  type ConditionGroup,
  canonicalConditionGroups,
  canonicalExpressions,
  conditionGroup,
  conditionGroupsFromApi,
  conditionGroupsPayload,
  type Expression,
  expression,
  expressionsFromApi,
  expressionsPayload,
} from "./shared/engine";

/** JSON whose fields the reference does not publish: an object or a list, sent as written. */
const unpublishedJson = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);

/** The settings of a `follow_up`, `post_mortem` or `debrief` policy (the keys of the reference's example). */
export interface PolicyTypeConfig {
  /**
   * When what the policy asks for falls due. Its fields are not published: write them as the API's
   * JSON spells them (snake_case keys); sent as written, compared as JSON.
   */
  dueDateConfig?: Record<string, unknown> | unknown[];
  /**
   * What the policy requires. Its fields are not published: write them as the API's JSON spells
   * them; sent as written, compared as JSON.
   */
  requirements?: Record<string, unknown> | unknown[];
  /** Whether the policy also applies to private incidents. Unset: not sent (the API's default). */
  runOnPrivateIncidents?: boolean;
}

/** The per-type block's schema (named by its interface in the generated types). */
export const policyTypeConfig: z.ZodType<PolicyTypeConfig, PolicyTypeConfig> = z.strictObject({
  dueDateConfig: unpublishedJson.optional(),
  requirements: unpublishedJson.optional(),
  runOnPrivateIncidents: z.boolean().optional(),
});

/**
 * A field whose shape the reference does not publish: any value is refused by check. Not a rule of
 * the service: the provider's own limit (it manages no field it cannot read back and compare).
 */
const unpublished = (apiName: string) =>
  z
    .never({
      error: `the shape of ${apiName} is not published (the API reference gives only its name), so this provider does not manage it rather than guess it: set it in the dashboard`,
    })
    .optional();

/** The per-type blocks: input name → API name, which is also the `policyType` it belongs to. */
const TYPE_BLOCKS = {
  followUp: "follow_up",
  postMortem: "post_mortem",
  debrief: "debrief",
} as const;
type TypeBlock = keyof typeof TYPE_BLOCKS;
/** API fields whose shape is not published: a live policy holding one is not managed. */
const UNPUBLISHED = ["assignment_rules", "on_call_readiness", "schedule"] as const;

/** Inputs of a policy (API v2). */
export const policyInputs = z.strictObject({
  /** Name of the policy, shown in the dashboard. */
  name: nameText(),
  /** What the policy is for. */
  description: freeText(),
  /**
   * What the policy checks, e.g. `follow_up`, `post_mortem`, `debrief`, `shift_conflict`. The API's
   * list of values is not published: it checks the value. Cannot be changed after the policy is
   * created: a change replaces the policy.
   */
  policyType: nameText(),
  /** The incidents the policy applies to: any one group holds (all conditions of a group). Empty: none narrows it. */
  conditions: z.array(conditionGroup).default([]),
  /**
   * Whether the policy is on: `enabled` (what a create without it gives) or another value the API
   * accepts (its list of values is not published: the API checks it). Unset: not managed.
   */
  status: nameText().optional(),
  /** Expressions the conditions can use (`expressions["<reference>"]`). Order does not matter. Empty or unset: none. */
  expressions: z.array(expression).default([]),
  /** Settings of a `follow_up` policy (set only when `policyType` is `follow_up`). */
  followUp: policyTypeConfig.optional(),
  /** Settings of a `post_mortem` policy (set only when `policyType` is `post_mortem`). */
  postMortem: policyTypeConfig.optional(),
  /** Settings of a `debrief` policy (set only when `policyType` is `debrief`). */
  debrief: policyTypeConfig.optional(),
  /** Not managed: its shape is not published. Setting it fails the check. */
  assignmentRules: unpublished("assignment_rules"),
  /** Not managed: its shape is not published. Setting it fails the check. */
  onCallReadiness: unpublished("on_call_readiness"),
  /** Not managed: its shape is not published. Setting it fails the check. */
  schedule: unpublished("schedule"),
  /** Id of an existing policy to take over instead of creating one (`GET /v2/policies`). */
  adoptId: z.string().min(1).optional(),
});

export type PolicyInputs = z.infer<typeof policyInputs>;

export interface PolicyComputed {
  /** The policy's status now (equals `status` when that is set). */
  currentStatus: string;
}

interface ApiTypeConfig {
  due_date_config?: unknown;
  requirements?: unknown;
  run_on_private_incidents?: boolean;
}

/** PolicyV2 (the emulator's model: the create payload's fields plus id and timestamps). */
export interface ApiPolicy {
  id: string;
  name: string;
  description: string;
  policy_type: string;
  conditions: any[];
  status: string;
  expressions: any[];
  follow_up?: ApiTypeConfig;
  post_mortem?: ApiTypeConfig;
  debrief?: ApiTypeConfig;
  assignment_rules?: unknown;
  on_call_readiness?: unknown;
  schedule?: unknown;
  created_at: string;
  updated_at: string;
}

const withoutUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function typeConfigPayload(c: PolicyTypeConfig): ApiTypeConfig {
  return withoutUndefined({
    due_date_config: c.dueDateConfig,
    requirements: c.requirements,
    run_on_private_incidents: c.runOnPrivateIncidents,
  });
}

/**
 * PoliciesCreatePayloadV2 (also the update: the update payload is not read). Conditions and
 * expressions are always sent (an empty list removes them); `status` only when managed.
 */
export function policyPayload(args: PolicyInputs): Props {
  return withoutUndefined({
    name: args.name,
    description: args.description,
    policy_type: args.policyType,
    conditions: conditionGroupsPayload(args.conditions),
    status: args.status,
    expressions: expressionsPayload(args.expressions),
    follow_up: args.followUp && typeConfigPayload(args.followUp),
    post_mortem: args.postMortem && typeConfigPayload(args.postMortem),
    debrief: args.debrief && typeConfigPayload(args.debrief),
  });
}

/** Rule "JSON by meaning": the declared JSON when the live one is the same JSON. */
function keepDeclaredJsonValue<T>(live: T, declared: T | undefined): T {
  return declared !== undefined && canonicalJson(live) === canonicalJson(declared) ? declared : live;
}

function typeConfigFromApi(live: ApiTypeConfig, declared: PolicyTypeConfig | undefined): PolicyTypeConfig {
  return withoutUndefined({
    dueDateConfig:
      live.due_date_config === undefined
        ? undefined
        : keepDeclaredJsonValue(
            live.due_date_config as PolicyTypeConfig["dueDateConfig"],
            declared?.dueDateConfig,
          ),
    requirements:
      live.requirements === undefined
        ? undefined
        : keepDeclaredJsonValue(
            live.requirements as PolicyTypeConfig["requirements"],
            declared?.requirements,
          ),
    runOnPrivateIncidents: live.run_on_private_incidents,
  });
}

export function policyFromApi(live: ApiPolicy, declared: PolicyInputs | undefined): PolicyInputs {
  const block = (key: TypeBlock) => {
    const v = live[TYPE_BLOCKS[key]];
    return v === undefined ? undefined : typeConfigFromApi(v, declared?.[key]);
  };
  return withoutUndefined({
    name: live.name,
    description: live.description ?? "",
    policyType: live.policy_type,
    conditions: conditionGroupsFromApi(live.conditions, declared?.conditions),
    // With a declaration, a status left out is not managed; without one (export), it is shown.
    status: declared !== undefined && declared.status === undefined ? undefined : live.status,
    expressions: expressionsFromApi(live.expressions, declared?.expressions),
    followUp: block("followUp"),
    postMortem: block("postMortem"),
    debrief: block("debrief"),
  }) as PolicyInputs;
}

function canonicalTypeConfig(c: PolicyTypeConfig | undefined): unknown {
  if (c === undefined) return undefined;
  return {
    dueDateConfig: c.dueDateConfig === undefined ? undefined : sortKeysDeep(c.dueDateConfig),
    requirements: c.requirements === undefined ? undefined : sortKeysDeep(c.requirements),
    runOnPrivateIncidents: c.runOnPrivateIncidents,
  };
}

/** Canonical form for diffs: engine blocks by meaning, the unpublished JSON by meaning. */
function canonicalPolicy(args: PolicyInputs): Props {
  return {
    ...args,
    conditions: canonicalConditionGroups(args.conditions as ConditionGroup[]),
    expressions: canonicalExpressions(args.expressions as Expression[]),
    followUp: canonicalTypeConfig(args.followUp),
    postMortem: canonicalTypeConfig(args.postMortem),
    debrief: canonicalTypeConfig(args.debrief),
  };
}

/**
 * A per-type block belongs to the policy type of its name (reference-newer: PoliciesCreatePayloadV2,
 * each block "set when policy_type is …"); a repeated expression reference is our model (warned).
 */
export function validatePolicy(args: PolicyInputs): Problem[] {
  const problems: Problem[] = [];
  for (const [key, type] of Object.entries(TYPE_BLOCKS) as [TypeBlock, string][]) {
    if (args[key] !== undefined && args.policyType !== type)
      problems.push({
        path: [key],
        message: `is set only when policyType is ${type} (this policy's type is ${JSON.stringify(args.policyType)})`,
        dependsOn: [["policyType"]],
      });
  }
  const seen = new Set<string>();
  (args.expressions ?? []).forEach((e, i) => {
    if (seen.has(e.reference))
      problems.push({
        path: ["expressions", i, "reference"],
        message: passedOn(`${JSON.stringify(e.reference)} is the reference of another expression too`),
        dependsOn: [["expressions", "*", "reference"]],
        severity: "warning",
      });
    seen.add(e.reference);
  });
  return problems;
}

/** The fields of a live policy whose shape is not published (this provider cannot keep them). */
export function unpublishedFieldsOf(live: ApiPolicy): string[] {
  return UNPUBLISHED.filter((k) => live[k] !== undefined && live[k] !== null);
}

const listPolicies = (client: ApiClient) =>
  client.listAll<ApiPolicy>("/v2/policies", "policies", "list policies", {}, 100);

const rest = restApi<PolicyInputs, ApiPolicy>({
  collection: "/v2/policies",
  key: "policy",
  noun: "policy",
  payload: policyPayload,
});

/**
 * A policy (API v2): a rule incidents are held to (a follow-up, post-mortem or debrief due in time,
 * …), whose breaches the API reports as policy findings. Its `policyType` cannot change: a change
 * replaces the policy.
 *
 * Only part of the policy's shape is published: `assignmentRules`, `onCallReadiness` and
 * `schedule` are refused by check, and a policy holding one of them is not taken over.
 *
 * Adopt an existing policy: set `adoptId` to its id (from `GET /v2/policies`, or `getPolicy`); the
 * first `pulumi up` takes it over and updates it to the declared configuration.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * new incident.Policy("follow-ups", {
 *   name: "Follow-ups are done",
 *   description: "Every follow-up of a major incident is completed",
 *   policyType: "follow_up",
 *   conditions: [
 *     { conditions: [{ subject: "incident.severity", operation: "one_of", paramBindings: [{ arrayValue: [{ reference: "severity.major" }] }] }] },
 *   ],
 *   followUp: { runOnPrivateIncidents: false },
 * });
 * ```
 */
export const policySpec: ResourceSpec<PolicyInputs, ApiPolicy> = {
  kind: "Policy",
  title: "policy",
  schemaVersion: 1,
  inputs: policyInputs,
  validate: validatePolicy,
  replaceOnChanges: ["policyType"],
  secretOutputs: [],
  computedOutputs: ["currentStatus"],
  canonical: canonicalPolicy,
  idOf: (live) => live.id,
  list: { path: "/v2/policies", itemsKey: "policies", operation: "list policies", pageSize: 100 },
  // For `pulumi-incident export`: a policy holding a field whose shape is not published cannot be
  // declared (check refuses the field) nor kept by an update: it is left out.
  listAll: async (ctx) => (await listPolicies(ctx.client)).filter((p) => unpublishedFieldsOf(p).length === 0),
  toInputs: policyFromApi,
  computed: (live) => ({ currentStatus: live.status }),
  api: {
    ...rest,
    async update(ctx, id, args, olds) {
      // The payload cannot carry what a field of unpublished shape holds: refuse before writing
      // rather than risk the API dropping it.
      const live = (await ctx.client.get<{ policy: ApiPolicy }>(itemPath("/v2/policies", id), "show policy"))
        .policy;
      const held = unpublishedFieldsOf(live);
      if (held.length > 0)
        throw new Error(
          `update policy ${id}: it holds ${held.join(", ")}, whose shape is not published: this provider cannot update it without risking losing ${held.length === 1 ? "it" : "them"} (manage this policy in the dashboard)`,
        );
      return rest.update(ctx, id, args, olds);
    },
    async findCreated(ctx, args) {
      // Names are not documented as unique: the newest policy of that name and type is the one a lost create made.
      return newestMatching(
        await listPolicies(ctx.client),
        (p) => p.name === args.name && p.policy_type === args.policyType,
      );
    },
  },
};

export const policyProvider = makeProvider(policySpec);

// ---------- getPolicy ----------

/** Arguments of `getPolicy`. */
export const getPolicyArgs = z
  .strictObject({
    /** Exact name of the policy. */
    name: z.string().min(1, "must not be empty").optional(),
    /** The policy's id. */
    id: z.string().min(1, "must not be empty").optional(),
  })
  .refine((a) => (a.name === undefined) !== (a.id === undefined), "give exactly one of name or id");
export type GetPolicyArgs = z.input<typeof getPolicyArgs>;

/** A policy of the account. */
export interface GetPolicyResult {
  /** The policy's id: use it as an `adoptId`. */
  id: string;
  name: string;
  description: string;
  /** What the policy checks (`follow_up`, `post_mortem`, …). */
  policyType: string;
  /** Whether the policy is on (`enabled`, …). */
  status: string;
}

const policyResult = (p: ApiPolicy): GetPolicyResult => ({
  id: p.id,
  name: p.name,
  description: p.description ?? "",
  policyType: p.policy_type,
  status: p.status,
});

/** Finds a policy by exact name (`GET /v2/policies`, every page) or by id (`GET /v2/policies/{id}`). */
export async function findPolicy(
  client: ApiClient,
  args: { name?: string; id?: string },
): Promise<GetPolicyResult> {
  if (args.id !== undefined) {
    const shown = client.get<{ policy: ApiPolicy }>(itemPath("/v2/policies", args.id), "show policy");
    const policy = (await unlessNotFound(shown))?.policy;
    if (!policy) throw new LookupError("getPolicy", `no policy with id ${JSON.stringify(args.id)}`);
    return policyResult(policy);
  }
  return policyResult(pickByName(await listPolicies(client), args.name!, "getPolicy", "policy"));
}

const policyLookup = defineLookup({ name: "getPolicy", args: getPolicyArgs, run: findPolicy });

/** Finds a policy by name or id; fails when there is none (or when several share the name). */
export const getPolicy = policyLookup.get;
/** `getPolicy` taking Inputs and answering an Output. */
export const getPolicyOutput = policyLookup.getOutput;
