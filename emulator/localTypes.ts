/**
 * Shapes the reference lacks, registered in reference.json's format so they are validated the same
 * way. reference.json has the users endpoints only as names (`UsersV2List`, `UsersV2Show` are among
 * its unclaimed client operations) and no result types for them; the user objects are modelled on
 * its `UserV2` type (id, name, email?, role, slack_user_id?) plus `is_active`, which the seed
 * (api-spec.md, "Field names known for other resources") gives newer interfaces of User, wrapped the
 * way every other v2 list/show result is (`{users, pagination_meta}` / `{user}`).
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
