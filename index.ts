/**
 * pulumi-incident: Pulumi resources for the incident-response platform's public API.
 *
 * The public surface: every resource class with its `XxxArgs` (and nested args types), the lookups,
 * `providers` (what the serialized shims call), the errors, and the provider's configuration entry
 * points. The resources come from resources/generated/ (`npm run generate`), whose modules hold only
 * public declarations, so nothing internal (payload builders, schemas, locks) becomes API by
 * accident, and this file's declarations never load zod. The API emulator is its own entry point,
 * `pulumi-incident/emulator`, so programs that only manage configuration never load it.
 */
import type { IncidentProvider } from "./provider/resource";
import { providers as kindProviders } from "./resources";

// Configuration and errors.
export { packageVersion as version } from "./provider/client";
export {
  configure,
  MissingCredentialsError,
  resolveCredentials,
  setCredentials,
} from "./provider/credentials";
export { ApiError, LookupError } from "./provider/errors";
export type { IncidentProvider } from "./provider/resource";
// Resources, each with its arguments, and the lookups.
export * from "./resources/generated";

/** Every resource kind's provider, by kind: what the serialized shims call, and what tools can drive directly. */
export const providers: Record<string, IncidentProvider> = kindProviders;
