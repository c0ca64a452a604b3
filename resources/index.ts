import type { IncidentProvider } from "../provider/factory";
import { alertAttributeProvider } from "./alertAttribute";
import { alertRouteProvider } from "./alertRoute";
import { alertSourceProvider } from "./alertSource";
import { apiKeyProvider } from "./apiKey";
import { catalogEntriesProvider, catalogEntryProvider } from "./catalogEntry";
import { catalogTypeAttributeProvider, catalogTypeProvider } from "./catalogType";
import { customFieldProvider } from "./customField";
import { customFieldOptionProvider } from "./customFieldOption";
import { escalationPathProvider } from "./escalationPath";
import { scheduleProvider } from "./schedule";
import { workflowProvider } from "./workflow";

export * from "./alertAttribute";
export * from "./alertRoute";
export * from "./alertSource";
export * from "./apiKey";
export * from "./catalogEntry";
export * from "./catalogType";
export * from "./customField";
export * from "./customFieldOption";
export * from "./escalationPath";
export * from "./lookups";
export * from "./schedule";
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
  CatalogType: catalogTypeProvider,
  CatalogTypeAttribute: catalogTypeAttributeProvider,
  CatalogEntry: catalogEntryProvider,
  CatalogEntries: catalogEntriesProvider,
};
