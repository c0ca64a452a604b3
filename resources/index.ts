import type { IncidentProvider } from "../provider/factory";
import { apiKeyProvider } from "./apiKey";
import { customFieldProvider } from "./customField";
import { customFieldOptionProvider } from "./customFieldOption";

export * from "./apiKey";
export * from "./customField";
export * from "./customFieldOption";

/** Every resource kind's provider, by kind: what the serialized shims call, and what tools can drive directly. */
export const providers: Record<string, IncidentProvider> = {
  CustomField: customFieldProvider,
  CustomFieldOption: customFieldOptionProvider,
  ApiKey: apiKeyProvider,
};
