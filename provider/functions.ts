import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { ApiClient } from "./client";
import { programClient } from "./credentials";
import { formatPath } from "./unknowns";

/**
 * Lookups ("data sources") run in the Pulumi program, not in the provider host: they read with the
 * stack's credentials (config `incident:apiKey` / `incident:baseUrl`, else the environment) and never
 * write. Each lookup comes as `getX(args)` (a Promise) and `getXOutput(args)` (an Output), the
 * shapes of Pulumi's own SDKs.
 */
export interface LookupDefinition<A extends z.ZodObject<any>, R> {
  /** e.g. "getUser": used in error messages. */
  name: string;
  args: A;
  run(client: ApiClient, args: z.infer<A>): Promise<R>;
}

export type Lookup<A extends z.ZodObject<any>, R> = {
  get(args: z.input<A>): Promise<R>;
  getOutput(args: { [K in keyof z.input<A>]: pulumi.Input<z.input<A>[K]> }): pulumi.Output<R>;
};

export function defineLookup<A extends z.ZodObject<any>, R>(def: LookupDefinition<A, R>): Lookup<A, R> {
  const get = async (args: z.input<A>): Promise<R> => {
    const parsed = def.args.safeParse(args);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (i) => `${formatPath(i.path as (string | number)[]) || "args"}: ${i.message}`,
      );
      throw new Error(`${def.name}: ${problems.join("; ")}`);
    }
    return def.run(programClient(new pulumi.Config("incident")), parsed.data);
  };
  return {
    get,
    getOutput: (args) =>
      pulumi.output(args).apply((resolved) => get(resolved as z.input<A>)) as pulumi.Output<R>,
  };
}

// Declared in errors.ts, whose declarations the package root reaches without zod.
export { LookupError } from "./errors";
