import * as pulumi from "@pulumi/pulumi";
import { shimProvider } from "./shim";
import type { ResourceSpec } from "./spec";

/** Input type of a resource: every property (deeply) may be a Pulumi Input. Doc comments carry over. */
export type ResourceArgs<T> = { [K in keyof T]: pulumi.Input<DeepInput<T[K]>> };
type DeepInput<T> = T extends (infer U)[]
  ? pulumi.Input<DeepInput<U>>[]
  : T extends object
    ? { [K in keyof T]: pulumi.Input<DeepInput<T[K]>> }
    : T;

/** Output properties of a resource, typed. */
export type ResourceOutputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

/** One shim object per kind, so the SDK's serialization cache hits (≈1 ms instead of ≈20 ms). */
function shimFor(kind: string): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) {
    shim = shimProvider(kind);
    shims.set(kind, shim);
  }
  return shim;
}

/** Base class of every resource: wires the spec's shim, computed outputs and secret outputs. */
export abstract class IncidentResource extends pulumi.dynamic.Resource {
  /** Version of the stored shape; newer code migrates older state. */
  declare readonly __schema: pulumi.Output<number>;

  protected constructor(
    spec: Pick<ResourceSpec, "kind" | "computedOutputs" | "secretOutputs">,
    name: string,
    args: object,
    opts?: pulumi.CustomResourceOptions,
  ) {
    const props: Record<string, unknown> = { ...args };
    // Outputs must be present as keys for the SDK to expose them (value comes from the provider).
    for (const key of [...spec.computedOutputs, "__schema"]) if (!(key in props)) props[key] = undefined;
    const secretOutputs = [...(opts?.additionalSecretOutputs ?? []), ...spec.secretOutputs];
    super(
      shimFor(spec.kind),
      name,
      props,
      { ...opts, additionalSecretOutputs: secretOutputs },
      "incident",
      spec.kind,
    );
  }
}
