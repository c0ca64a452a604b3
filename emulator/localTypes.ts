/**
 * Shapes the reference lacks, registered in reference.json's format so they are validated the same
 * way. reference.json has the users endpoints only as names (`UsersV2List`, `UsersV2Show` are among
 * its unclaimed client operations) and no result types for them; the user objects are modelled on
 * its `UserV2` type (id, name, email?, role, slack_user_id?) plus `is_active`, which the seed
 * (api-spec.md, "Field names known for other resources") gives newer interfaces of User, wrapped the
 * way every other v2 list/show result is (`{users, pagination_meta}` / `{user}`).
 */
import { reference, registerLocalOperation, registerLocalType } from "./shapes";

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
}
