import * as pulumi from "@pulumi/pulumi";
import { shimProvider } from "./shim";

/*
 * This file's declarations are part of the package root's (the generated resource classes extend
 * IncidentResource), which must not load zod: it types what it needs of a spec structurally.
 */

/** What the resource class needs of its kind's ResourceSpec (provider/spec.ts). */
export interface ResourceClassSpec {
  kind: string;
  inputs: { shape: object };
  computedOutputs: readonly string[];
  secretOutputs: readonly string[];
}

/** A kind's dynamic provider, as the package root's `providers` map exposes it. */
export type IncidentProvider = pulumi.dynamic.ResourceProvider & {
  configure(req: pulumi.dynamic.ConfigureRequest): Promise<void>;
};

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

  /**
   * Looks up an existing object by its API id and exposes it as a resource of this class, read-only:
   * `const path = incident.EscalationPath.get("payments", "01HPATHID")`. The stack records it but
   * never updates or deletes it; `pulumi refresh` reads it again.
   *
   * What a dynamic resource's read gives back: the object's current settings as outputs, in this
   * package's argument names. It cannot give back what the API never returns: an API key's `token`
   * (`tokenAvailable` is false), an alert source's write-only options (`emailOptions`,
   * `httpCustomOptions`, `autoResolveIncidentAlerts`, `disabled`), or `adoptId`. An id that does not
   * exist fails the run with `Kind.get: no … with id "…" exists` (left to the engine, a dynamic
   * provider's read of a missing id would succeed with empty outputs). To manage an existing object
   * instead, declare it with `adoptId` (`pulumi import` does not work for dynamic resources).
   */
  static get<T extends IncidentResource>(
    this: new (
      name: string,
      args: never,
      opts?: pulumi.CustomResourceOptions,
    ) => T,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass get was called on
    return new this(name, {} as never, { ...opts, id });
  }

  protected constructor(
    spec: ResourceClassSpec,
    name: string,
    args: object,
    opts?: pulumi.CustomResourceOptions,
  ) {
    const props: Record<string, unknown> = { ...args };
    // Outputs must be present as keys for the SDK to expose them (value comes from the provider);
    // a `get` declares no inputs, so every input is an output to seed too.
    const outputs = [
      ...(opts?.id === undefined ? [] : Object.keys(spec.inputs.shape)),
      ...spec.computedOutputs,
    ];
    for (const key of [...outputs, "__schema"]) if (!(key in props)) props[key] = undefined;
    // An input that is also a secret output (a Secret's value) is a secret input too: else the
    // state's inputs would hold it in plaintext.
    for (const key of spec.secretOutputs)
      if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
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
