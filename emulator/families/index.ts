/**
 * The families the emulator serves, in registration order. To add one: write
 * `families/<camelName>.ts` exporting a `defineFamily(...)` value and list it here
 * (see ../README.md "Adding a family").
 */
import type { FamilyModule } from "../family";
import { alertAttributes } from "./alertAttributes";
import { alertRoutes } from "./alertRoutes";
import { alertSources } from "./alertSources";
import { apiKeys } from "./apiKeys";
import { customFieldOptions } from "./customFieldOptions";
import { customFields } from "./customFields";
import { escalationPaths } from "./escalationPaths";
import { identity } from "./identity";
import { incidentRoles } from "./incidentRoles";
import { incidentStatuses } from "./incidentStatuses";
import { incidentTypes } from "./incidentTypes";
import { maintenanceWindows } from "./maintenanceWindows";
import { scheduleSyncRules } from "./scheduleSyncRules";
import { scheduleSyncTargets } from "./scheduleSyncTargets";
import { schedules } from "./schedules";
import { secrets } from "./secrets";
import { severities } from "./severities";
import { teams } from "./teams";
import { users } from "./users";
import { workflows } from "./workflows";

export const FAMILIES: readonly FamilyModule[] = [
  users,
  teams,
  identity,
  apiKeys,
  customFields,
  customFieldOptions,
  alertAttributes,
  alertSources,
  alertRoutes,
  schedules,
  escalationPaths,
  workflows,
  severities,
  incidentStatuses,
  incidentRoles,
  incidentTypes,
  secrets,
  maintenanceWindows,
  scheduleSyncTargets,
  scheduleSyncRules,
];
