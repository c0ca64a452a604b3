/**
 * Which resource kind a state entry or plan step is, from its type token
 * (`pulumi-nodejs:dynamic/incident:<Kind>`), and that kind's ResourceSpec (resources/index.ts): the
 * review tools take every rule from the spec, so a new kind needs no edit here.
 */
import { ADOPT_KEY, type IncidentProvider } from "../provider/factory";
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

/** The inputs the provider compares (every declared input but `adoptId`), as `diff` picks them. */
export function comparedInputs(spec: ResourceSpec, props: Props): Props {
  const out: Props = {};
  for (const key of Object.keys(spec.inputs.shape))
    if (key !== ADOPT_KEY && props[key] !== undefined) out[key] = props[key];
  return out;
}

/** Stored inputs brought to the spec's current schema, as the provider's diff and read do. */
export function migrated(spec: ResourceSpec, inputs: Props, outputs: Props | undefined): Props {
  const version = typeof outputs?.__schema === "number" ? outputs.__schema : spec.schemaVersion;
  return version < spec.schemaVersion && spec.migrate ? spec.migrate(inputs, version) : inputs;
}

/**
 * The canonical form the provider's diff compares (the spec's normalisation rules); raw inputs when
 * they do not fit it (unknown values in a preview), as the provider's diff falls back.
 */
export function canonicalInputs(spec: ResourceSpec, props: Props): Props {
  const picked = comparedInputs(spec, props);
  if (!spec.canonical) return picked;
  try {
    return spec.canonical(picked);
  } catch {
    return picked;
  }
}
