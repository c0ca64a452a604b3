/**
 * pulumi-incident: Pulumi resources for the incident-response platform's public API.
 *
 * The public surface: every resource class with its `XxxArgs` (and nested args types), the lookups
 * (`getX` / `getXOutput` with their argument and result types), the account object (`Provider`)
 * and the errors. The resources come
 * from resources/generated/ (`npm run generate`), whose modules hold only public declarations, so
 * nothing internal (payload builders, schemas, locks, the providers) becomes API by accident, and
 * this file's declarations never load zod. The API emulator is its own entry point,
 * `pulumi-incident/emulator`; what the dynamic-provider host loads is `pulumi-incident/dynamic`.
 */
import { providers as kindProviders } from "./resources";

// The account object: several accounts in one program.
export { type LookupOptions, Provider, type ProviderArgs } from "./provider/account";
export { packageVersion as version } from "./provider/client";
export { MissingCredentialsError } from "./provider/credentials";
export { ApiError, LookupError, SettingsError } from "./provider/errors";
// Resources, each with its arguments, and the lookups.
export * from "./resources/generated";

// State written by releases up to 0.1.0 holds a `__provider` that loads the package root and calls
// `providers[kind]` (provider/shim.ts): kept reachable there, but not part of the API (not
// enumerated, not in the declarations).
Object.defineProperty(exports, "providers", { value: kindProviders, enumerable: false });
