import * as pulumi from "@pulumi/pulumi";
import { declare, type ProgramRule } from "./programRules";
import { shimText } from "./shim";

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
  /** A rule over this kind's resources of one program and account (provider/programRules.ts). */
  programRule?: ProgramRule;
}

/** A kind's dynamic provider, as the package root's `providers` map exposes it. */
export type IncidentProvider = pulumi.dynamic.ResourceProvider & {
  configure(req: pulumi.dynamic.ConfigureRequest): Promise<void>;
};

/**
 * Base class of every resource: a dynamic resource (type `pulumi-nodejs:dynamic/incident:<Kind>`,
 * served by the SDK's dynamic-provider host) whose `__provider` is the kind's shim text
 * (provider/shim.ts), with the spec's computed and secret outputs.
 */
export abstract class IncidentResource extends pulumi.CustomResource {
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
    props.__provider = shimText(spec.kind);
    const type = `pulumi-nodejs:dynamic/incident:${spec.kind}`;
    // Checked against the kind's resources declared before it in this program (a `get` manages
    // nothing): a rule on names alone fails here, before the resource is registered.
    const declared =
      spec.programRule && opts?.id === undefined
        ? declare(
            spec.kind,
            spec.programRule,
            name,
            args as Record<string, unknown>,
            opts?.provider ?? opts?.parent?.getProvider(type),
          )
        : undefined;
    super(type, name, props, { ...opts, additionalSecretOutputs: secretOutputs });
    declared?.(this);
  }
}
