/**
 * Shapes the reference lacks, registered in reference.json's format so they are validated the same
 * way. reference.json has the users endpoints only as names (`UsersV2List`, `UsersV2Show` are among
 * its unclaimed client operations) and no result types for them; the user objects are modelled on
 * its `UserV2` type (id, name, email?, role, slack_user_id?) plus `is_active`, which the seed
 * (api-spec.md, "Field names known for other resources") gives newer interfaces of User, wrapped the
 * way every other v2 list/show result is (`{users, pagination_meta}` / `{user}`).
 *
 * Policies and pay configurations, whose create payloads newer clients give only partly
 * (shared/api/NEWER.md), are registered the same way: the payload as read, the rest (read shapes,
 * wrappers, pagination, update payload) the emulator's model, each said where it is registered.
 */
import { type RefField, reference, registerLocalOperation, registerLocalType } from "./shapes";

let registered = false;

export function registerLocalShapes(): void {
  if (registered) return;
  registered = true;
  // UserV2, and whether the user is active (deactivated users are listed with include_inactive).
  registerLocalType("UserWithStatusV2", {
    fields: [
      ...reference().types.UserV2!.fields,
      {
        name: "is_active",
        type: "boolean",
        required: true,
        doc: "Whether the user is active (not deactivated)",
      },
    ],
  });
  registerLocalType("UsersListResultV2", {
    fields: [
      { name: "users", type: "array<object>", required: true, ref: "UserWithStatusV2" },
      { name: "pagination_meta", type: "object", required: true, ref: "PaginationMetaResultV2" },
    ],
  });
  registerLocalType("UsersShowResultV2", {
    fields: [{ name: "user", type: "object", required: true, ref: "UserWithStatusV2" }],
  });
  registerLocalOperation({
    operation_id: "UsersV2List",
    method: "GET",
    path: "/v2/users",
    summary: "List Users V2 (emulator: shape modelled on UserV2)",
    path_params: [],
    query_params: [
      { name: "page_size", type: "integer", required: false, doc: "Integer number of records to return" },
      { name: "after", type: "string", required: false, doc: "A user's ID: return users after it" },
      {
        name: "email",
        type: "string",
        required: false,
        doc: "Only the user with this e-mail (case-insensitive)",
      },
      { name: "slack_user_id", type: "string", required: false, doc: "Only the user with this chat user id" },
      {
        name: "include_inactive",
        type: "boolean",
        required: false,
        doc: "Also list deactivated users (default: active users only)",
      },
    ],
    responses: { "200": "UsersListResultV2" },
  });
  registerPolicyShapes();
  registerPayConfigShapes();
  addSeedRoles();
  registerLocalOperation({
    operation_id: "UsersV2Show",
    method: "GET",
    path: "/v2/users/{id}",
    summary: "Show Users V2 (emulator: shape modelled on UserV2)",
    path_params: [{ name: "id", type: "string" }],
    responses: { "200": "UsersShowResultV2" },
  });
  amendEscalationPaths();
}

/** Adds `fields` to a reference type, leaving the fields it has alone. */
function addFields(type: string, fields: RefField[]): void {
  const t = reference().types[type];
  if (!t) throw new Error(`emulator: ${type} is not a reference type`);
  for (const f of fields) if (!t.fields.some((g) => g.name === f.name)) t.fields.push(f);
}

/** Adds enum values to a field of a reference type. */
function addEnumValues(type: string, field: string, values: string[]): void {
  const f = reference().types[type]?.fields.find((g) => g.name === field);
  if (!f?.enum) throw new Error(`emulator: ${type}.${field} is not an enum of the reference`);
  for (const v of values) if (!f.enum.includes(v)) f.enum.push(v);
}

/**
 * The roles the seed names besides the reference's enums (api-spec.md, Authentication 6: roles
 * assignable to a key; 7: team-scoped roles), newer than the reference's client: `role_names` and
 * `team_role_names` of the create and update payloads take them too. (The provider's ApiKey lists
 * them as well: the emulator stands for the service and shares no code with the provider.)
 */
export const SEED_ROLES: readonly string[] = [
  "documents_viewer",
  "heartbeats_ping",
  "investigations_editor",
  "pay_configs_editor",
  "pay_configs_viewer",
  "pay_reports_editor",
  "pay_reports_viewer",
  "policies_viewer",
  "policy_findings_manage",
  "status_page_viewer",
  "telemetry_data_source_update",
  "telemetry_query_restricted",
  "telemetry_viewer",
];
/** The team-scoped roles the seed names besides the reference's enum (Authentication 7). */
export const SEED_TEAM_ROLES: readonly string[] = [
  "heartbeats_ping",
  "telemetry_data_source_update",
  "telemetry_query_restricted",
];

/** The seed's roles in every role enum of the reference: the payloads, the key's roles, the identity. */
function addSeedRoles(): void {
  for (const payload of ["APIKeysCreatePayloadV1", "APIKeysUpdatePayloadV1"]) {
    addEnumValues(payload, "role_names", [...SEED_ROLES]);
    addEnumValues(payload, "team_role_names", [...SEED_TEAM_ROLES]);
  }
  addEnumValues("APIKeyRoleV1", "name", [...SEED_ROLES]);
  addEnumValues("APIKeyTeamRoleV1", "name", [...SEED_TEAM_ROLES]);
  addEnumValues("IdentityV1", "roles", [...SEED_ROLES]);
  addEnumValues("IdentityV1", "team_roles", [...SEED_TEAM_ROLES]);
}

/**
 * The knock-on change to escalation paths that shared/api/NEWER.md records with the escalation path
 * templates (sdk-python `openapi.json` @ a8b5b232; models EscalationPathV2 @ be9c2f41,
 * EscalationsCreatePathPayloadV2 @ be9c2f41, EscalationsUpdatePathPayloadV2 and
 * EscalationPathNodePayloadV2 @ 7ae3444d): the create and update payloads gain `kind`
 * (standalone|templated), `template_id` ("required when kind is templated") and `param_bindings`
 * (param name → EngineParamBindingPayloadV2); a node's `type` gains `escalation_path` (reassign to
 * another path) with its `escalation_path` body; the path answered gains `kind` (required),
 * `template_id` and `param_bindings` (EngineParamBindingV2). Added to the reference's own types (which
 * predate them), never replacing a field they have.
 */
function amendEscalationPaths(): void {
  const kind = (required: boolean): RefField => ({
    name: "kind",
    type: "string",
    required,
    enum: ["standalone", "templated"],
    doc: "Whether this path carries its own nodes, or is built from an escalation path template.",
  });
  const templateId: RefField = {
    name: "template_id",
    type: "string",
    required: false,
    doc: "For a templated path, the template to build it from. Required when kind is templated.",
  };
  const bindings = (ref: string): RefField => ({
    name: "param_bindings",
    type: "map<string,object>",
    required: false,
    ref,
    doc: "For a templated path, the values bound to the template's declared parameters, keyed by parameter name.",
  });
  for (const payload of ["EscalationsCreatePathPayloadV2", "EscalationsUpdatePathPayloadV2"])
    addFields(payload, [kind(false), templateId, bindings("EngineParamBindingPayloadV2")]);
  addFields("EscalationPathV2", [kind(true), templateId, bindings("EngineParamBindingV2")]);
  for (const node of ["EscalationPathNodePayloadV2", "EscalationPathNodeV2"]) {
    addEnumValues(node, "type", ["escalation_path"]);
    addFields(node, [
      { name: "escalation_path", type: "object", required: false, ref: "EscalationPathNodeEscalationPathV2" },
    ]);
  }
}

/** A string field of a local type (`doc` says where it comes from). */
const str = (name: string, required: boolean, doc: string) => ({ name, type: "string", required, doc });
/** The list, create, show, update and destroy operations of a v2 collection the reference lacks. */
function registerCollection(c: {
  tag: string;
  path: string;
  payload: string;
  listResult: string;
  showResult: string;
  summary: string;
}): void {
  const page = [
    { name: "page_size", type: "integer", required: false, doc: "Integer number of records to return" },
    { name: "after", type: "string", required: false, doc: "A record's ID: return records after it" },
  ];
  const id = [{ name: "id", type: "string" }];
  const op = (action: string, method: string, itemPath: boolean, rest: Record<string, unknown>) =>
    registerLocalOperation({
      operation_id: `${c.tag}V2${action}`,
      method,
      path: itemPath ? `${c.path}/{id}` : c.path,
      summary: `${action} ${c.summary} V2 (emulator: ${c.summary}'s shape is partial, see shared/api/NEWER.md)`,
      path_params: itemPath ? id : [],
      ...rest,
    } as never);
  op("List", "GET", false, { query_params: page, responses: { "200": c.listResult } });
  op("Create", "POST", false, { request_body: c.payload, responses: { "201": c.showResult } });
  op("Show", "GET", true, { responses: { "200": c.showResult } });
  op("Update", "PUT", true, { request_body: c.payload, responses: { "200": c.showResult } });
  op("Destroy", "DELETE", true, { responses: {} });
}

/**
 * Policies (`/v2/policies`): PoliciesCreatePayloadV2 as shared/api/NEWER.md gives it (top level
 * only). The update payload is taken to be the create payload; the read shape, the response
 * wrappers (`{policy}`, `{policies, pagination_meta}`, the convention of every v2 family) and
 * pagination are the emulator's model: not read. `due_date_config` and `requirements` of the
 * per-type blocks, and `on_call_readiness`, `schedule`, `assignment_rules`, have no published shape
 * (`any`).
 */
function registerPolicyShapes(): void {
  const typeBlock = (required: boolean) => [
    { name: "due_date_config", type: "any", required: false, doc: "Shape not published" },
    { name: "requirements", type: "any", required: false, doc: "Shape not published" },
    {
      name: "run_on_private_incidents",
      type: "boolean",
      required,
      doc: "Whether private incidents are covered",
    },
  ];
  registerLocalType("PolicyTypeConfigPayloadV2", { fields: typeBlock(false) });
  registerLocalType("PolicyTypeConfigV2", { fields: typeBlock(false) });
  const common = (payload: boolean) => [
    str("name", true, "Name of the policy"),
    str("description", true, "What the policy is for"),
    str("policy_type", true, "Cannot be changed after the policy is created (values not read)"),
    {
      name: "conditions",
      type: "array<object>",
      required: true,
      ref: payload ? "ConditionGroupPayloadV2" : "ConditionGroupV2",
    },
    str("status", !payload, "Defaults to enabled on create; settable on update (values not read)"),
    {
      name: "expressions",
      type: "array<object>",
      required: !payload,
      ref: payload ? "ExpressionPayloadV2" : "ExpressionV2",
    },
    { name: "assignment_rules", type: "any", required: false, doc: "Shape not published" },
    ...["follow_up", "post_mortem", "debrief"].map((name) => ({
      name,
      type: "object",
      required: false,
      ref: payload ? "PolicyTypeConfigPayloadV2" : "PolicyTypeConfigV2",
      doc: `Set when policy_type is ${name}`,
    })),
    { name: "on_call_readiness", type: "any", required: false, doc: "Shape not published" },
    { name: "schedule", type: "any", required: false, doc: "Shape not published" },
  ];
  registerLocalType("PoliciesCreatePayloadV2", { fields: common(true) });
  registerLocalType("PolicyV2", {
    fields: [
      str("id", true, "Unique identifier of the policy"),
      ...common(false),
      { name: "created_at", type: "string", required: true, format: "date-time" },
      { name: "updated_at", type: "string", required: true, format: "date-time" },
    ],
  });
  registerLocalType("PoliciesShowResultV2", {
    fields: [{ name: "policy", type: "object", required: true, ref: "PolicyV2" }],
  });
  registerLocalType("PoliciesListResultV2", {
    fields: [
      { name: "policies", type: "array<object>", required: true, ref: "PolicyV2" },
      { name: "pagination_meta", type: "object", required: true, ref: "PaginationMetaResultV2" },
    ],
  });
  registerCollection({
    tag: "Policies",
    path: "/v2/policies",
    payload: "PoliciesCreatePayloadV2",
    listResult: "PoliciesListResultV2",
    showResult: "PoliciesShowResultV2",
    summary: "Policies",
  });
}

/**
 * Pay configurations (`/v2/pay_configs`): PayConfigsCreatePayloadV2 as shared/api/NEWER.md gives it,
 * the rules inline (their own `one_off_rules` / `weekly_rules` endpoints are not served). The rules'
 * payload keys are the example's; the update payload is taken to be the create payload; the read
 * shape (the payload's fields, each rule with its `id`), the wrappers (`{pay_config}`,
 * `{pay_configs, pagination_meta}`) and pagination are the emulator's model: not read.
 */
function registerPayConfigShapes(): void {
  const oneOff = (withId: boolean) => [
    ...(withId ? [str("id", true, "Server-assigned")] : [str("id", false, "An existing rule's id")]),
    str("name", true, "Name of the rule"),
    { name: "start_at", type: "string", required: true, format: "date-time" },
    { name: "end_at", type: "string", required: true, format: "date-time" },
    { name: "rate_cents", type: "integer", required: true },
  ];
  const weekly = (withId: boolean) => [
    ...(withId ? [str("id", true, "Server-assigned")] : [str("id", false, "An existing rule's id")]),
    { name: "weekdays", type: "array<string>", required: true },
    str("start_time", true, "HH:MM"),
    str("end_time", true, "HH:MM"),
    { name: "rate_cents", type: "integer", required: true },
  ];
  registerLocalType("PayConfigOneOffRulePayloadV2", { fields: oneOff(false) });
  registerLocalType("PayConfigWeeklyRulePayloadV2", { fields: weekly(false) });
  registerLocalType("PayConfigOneOffRuleV2", { fields: oneOff(true) });
  registerLocalType("PayConfigWeeklyRuleV2", { fields: weekly(true) });
  const common = (payload: boolean) => [
    str("name", true, "Name of the pay configuration"),
    str("currency", true, "ISO 4217 code"),
    {
      name: "base_rate_cents",
      type: "integer",
      required: true,
      doc: "Rate paid for any time no rule covers",
    },
    str("rate_time_unit", true, "hour or day (the Terraform provider's pay_config docs)"),
    str("timezone", true, "IANA time zone the rules are interpreted in"),
    {
      name: "one_off_rules",
      type: "array<object>",
      required: !payload,
      ref: payload ? "PayConfigOneOffRulePayloadV2" : "PayConfigOneOffRuleV2",
    },
    {
      name: "weekly_rules",
      type: "array<object>",
      required: !payload,
      ref: payload ? "PayConfigWeeklyRulePayloadV2" : "PayConfigWeeklyRuleV2",
      doc: "In the order they should be evaluated",
    },
  ];
  registerLocalType("PayConfigsCreatePayloadV2", { fields: common(true) });
  registerLocalType("PayConfigV2", {
    fields: [
      str("id", true, "Unique identifier of the pay configuration"),
      ...common(false),
      { name: "created_at", type: "string", required: true, format: "date-time" },
      { name: "updated_at", type: "string", required: true, format: "date-time" },
    ],
  });
  registerLocalType("PayConfigsShowResultV2", {
    fields: [{ name: "pay_config", type: "object", required: true, ref: "PayConfigV2" }],
  });
  registerLocalType("PayConfigsListResultV2", {
    fields: [
      { name: "pay_configs", type: "array<object>", required: true, ref: "PayConfigV2" },
      { name: "pagination_meta", type: "object", required: true, ref: "PaginationMetaResultV2" },
    ],
  });
  registerCollection({
    tag: "PayConfigs",
    path: "/v2/pay_configs",
    payload: "PayConfigsCreatePayloadV2",
    listResult: "PayConfigsListResultV2",
    showResult: "PayConfigsShowResultV2",
    summary: "Pay configs",
  });
}
