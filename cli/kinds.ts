/**
 * Which resource kind a state entry or plan step is, from its type token
 * (`pulumi-nodejs:dynamic/incident:<Kind>`), and that kind's ResourceSpec (resources/index.ts): the
 * review tools take every rule from the spec, so a new kind needs no edit here.
 */
import { type IncidentProvider, migrateStored } from "../provider/factory";
import type { Props, ResourceSpec } from "../provider/spec";
import { providers } from "../resources";

export const TYPE_PREFIX = "pulumi-nodejs:dynamic/incident:";

/** `EscalationPath` for `pulumi-nodejs:dynamic/incident:EscalationPath`; undefined for other types. */
export function kindOf(type: string): string | undefined {
  return type.startsWith(TYPE_PREFIX) ? type.slice(TYPE_PREFIX.length) : undefined;
}

export function providerOf(type: string): IncidentProvider | undefined {
  const kind = kindOf(type);
  return kind === undefined ? undefined : providers[kind];
}

export function specOf(type: string): ResourceSpec | undefined {
  return providerOf(type)?.spec;
}

/** The resource's name: the last part of its URN. */
export function nameOf(urn: string): string {
  return urn.split("::").pop() ?? urn;
}

// The forms the provider's diff compares, from the factory itself (one place for the rules).
export { canonicalInputs, comparedInputs } from "../provider/factory";

/** Stored inputs brought to the spec's current schema (the version is in the stored outputs), as the provider does. */
export function migrated(spec: ResourceSpec, inputs: Props, outputs: Props | undefined): Props {
  return migrateStored(spec, inputs, outputs ?? inputs);
}
