/**
 * pulumi-incident: Pulumi resources for the incident-response platform's public API.
 * Every resource class, the provider of every kind (for tools and tests), and the provider's
 * configuration entry points.
 */
export { ApiClient, closeAllConnections, packageVersion as version } from "./provider/client";
export { configure, resolveCredentials, setCredentials } from "./provider/credentials";
export { ApiError } from "./provider/errors";
export type { IncidentProvider } from "./provider/factory";
export type { ResourceSpec } from "./provider/spec";
export * from "./resources";
