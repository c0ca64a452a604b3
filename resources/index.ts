import type { IncidentProvider } from "../provider/factory";
import { alertAttributeProvider } from "./alertAttribute";
import { alertRouteProvider } from "./alertRoute";
import { alertSourceProvider } from "./alertSource";
import { apiKeyProvider } from "./apiKey";
import { customFieldProvider } from "./customField";
import { customFieldOptionProvider } from "./customFieldOption";
import { escalationPathProvider } from "./escalationPath";
import { incidentRoleProvider } from "./incidentRole";
import { incidentStatusProvider } from "./incidentStatus";
import { maintenanceWindowProvider } from "./maintenanceWindow";
import { scheduleProvider } from "./schedule";
import { scheduleSyncRuleProvider } from "./scheduleSyncRule";
import { scheduleSyncTargetProvider } from "./scheduleSyncTarget";
import { secretProvider } from "./secret";
import { severityProvider } from "./severity";
import { workflowProvider } from "./workflow";

export * from "./alertAttribute";
export * from "./alertRoute";
export * from "./alertSource";
export * from "./apiKey";
export * from "./customField";
export * from "./customFieldOption";
export * from "./escalationPath";
export * from "./incidentRole";
export * from "./incidentStatus";
export * from "./lookups";
export * from "./maintenanceWindow";
export * from "./schedule";
export * from "./scheduleSyncRule";
export * from "./scheduleSyncTarget";
export * from "./secret";
export * from "./severity";
export * from "./workflow";

/** Every resource kind's provider, by kind: what the serialized shims call, and what tools can drive directly. */
export const providers: Record<string, IncidentProvider> = {
  AlertAttribute: alertAttributeProvider,
  AlertRoute: alertRouteProvider,
  AlertSource: alertSourceProvider,
  CustomField: customFieldProvider,
  CustomFieldOption: customFieldOptionProvider,
  ApiKey: apiKeyProvider,
  EscalationPath: escalationPathProvider,
  Schedule: scheduleProvider,
  Workflow: workflowProvider,
  Severity: severityProvider,
  IncidentStatus: incidentStatusProvider,
  IncidentRole: incidentRoleProvider,
  Secret: secretProvider,
  MaintenanceWindow: maintenanceWindowProvider,
  ScheduleSyncTarget: scheduleSyncTargetProvider,
  ScheduleSyncRule: scheduleSyncRuleProvider,
};
