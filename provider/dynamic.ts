/**
 * `pulumi-incident/dynamic`: what the `__provider` text of every resource loads in the
 * dynamic-provider host (provider/shim.ts). Not for programs: the package root is.
 */
import { providers } from "../resources";
import { packageVersion } from "./client";
import type { IncidentProvider } from "./resource";

/** The provider of a resource kind, as the host calls it. */
export function provider(kind: string): IncidentProvider {
  const found = Object.hasOwn(providers, kind) ? providers[kind] : undefined;
  if (!found) {
    throw new Error(
      `The installed pulumi-incident (${packageVersion}) has no resource kind "${kind}": install the version this stack was deployed with, or newer.`,
    );
  }
  return found;
}
