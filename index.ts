/**
 * pulumi-incident: Pulumi resources for the incident-response platform's public API.
 *
 * The public surface, listed name by name so that nothing internal (payload builders, schemas, locks)
 * becomes API by accident: every resource class and its `XxxArgs`, the lookups, `providers` (what
 * the serialized shims call), the errors, and the provider's configuration entry points. The API
 * emulator is its own entry point, `pulumi-incident/emulator`, so programs that only manage
 * configuration never load it.
 */

// Configuration and errors.
export { packageVersion as version } from "./provider/client";
export {
  configure,
  MissingCredentialsError,
  resolveCredentials,
  setCredentials,
} from "./provider/credentials";
export { ApiError } from "./provider/errors";
export type { IncidentProvider } from "./provider/factory";
export { LookupError } from "./provider/functions";
/** Every resource kind's provider, by kind: what the serialized shims call, and what tools can drive directly. */
export { providers } from "./resources";
// Resources, each with its arguments, and the lookups.
export {
  AlertAttribute,
  type AlertAttributeArgs,
  type GetAlertAttributeArgs,
  type GetAlertAttributeResult,
  getAlertAttribute,
  getAlertAttributeOutput,
} from "./resources/alertAttribute";
export { AlertRoute, type AlertRouteArgs } from "./resources/alertRoute";
export {
  AlertSource,
  type AlertSourceArgs,
  type GetAlertSourcesArgs,
  type GetAlertSourcesItem,
  type GetAlertSourcesResult,
  getAlertSources,
  getAlertSourcesOutput,
} from "./resources/alertSource";
export { ApiKey, type ApiKeyArgs } from "./resources/apiKey";
export {
  CustomField,
  type CustomFieldArgs,
  type GetCustomFieldArgs,
  type GetCustomFieldResult,
  getCustomField,
  getCustomFieldOutput,
} from "./resources/customField";
export { CustomFieldOption, type CustomFieldOptionArgs } from "./resources/customFieldOption";
export {
  EscalationPath,
  type EscalationPathArgs,
  type EscalationPathNodeArgs,
  type EscalationPathResult,
  getEscalationPath,
  getEscalationPathOutput,
} from "./resources/escalationPath";
export {
  type GetUserArgs,
  type GetUserResult,
  getUser,
  getUserOutput,
} from "./resources/lookups";
export {
  getSchedule,
  getScheduleOutput,
  Schedule,
  type ScheduleArgs,
  type ScheduleResult,
} from "./resources/schedule";
export { Workflow, type WorkflowArgs } from "./resources/workflow";
