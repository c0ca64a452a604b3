import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { accountSettings, type LookupOptions } from "./account";
import type { ApiClient } from "./client";
import { clientFor, programClient, resolveSettings } from "./credentials";
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
  get(args: z.input<A>, opts?: LookupOptions): Promise<R>;
  getOutput(
    args: { [K in keyof z.input<A>]: pulumi.Input<z.input<A>[K]> },
    opts?: LookupOptions,
  ): pulumi.Output<R>;
};

/** The client of a lookup: the account object's settings, else the stack's (config, then environment). */
async function lookupClient(opts: LookupOptions | undefined): Promise<ApiClient> {
  if (!opts?.provider) return programClient(new pulumi.Config("incident"));
  const values = await new Promise<Record<string, string | undefined>>((resolve) =>
    accountSettings(opts.provider!).apply(resolve),
  );
  // An account's own settings only: the environment's key is another account's.
  return clientFor(resolveSettings((key) => values[key], {}));
}

/** Every lookup's arguments, by the lookup's name (`getSeverity`): tools that write programs read them. */
const definedLookups = new Map<string, z.ZodObject<any>>();

/** The arguments schema of the lookup named `name` (as `getSeverity`), once its module is loaded. */
export function lookupArguments(name: string): z.ZodObject<any> | undefined {
  return definedLookups.get(name);
}

export function defineLookup<A extends z.ZodObject<any>, R>(def: LookupDefinition<A, R>): Lookup<A, R> {
  definedLookups.set(def.name, def.args);
  const get = async (args: z.input<A>, opts?: LookupOptions): Promise<R> => {
    const parsed = def.args.safeParse(args);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (i) => `${formatPath(i.path as (string | number)[]) || "args"}: ${i.message}`,
      );
      throw new LookupError(def.name, problems.join("; "));
    }
    try {
      return await def.run(await lookupClient(opts), parsed.data);
    } catch (error) {
      throw oneErrorPerCause(error);
    }
  };
  return {
    get,
    getOutput: (args, opts) =>
      pulumi.output(args).apply((resolved) => {
        const answer = get(resolved as z.input<A>, opts);
        // Handled from the start (the Output hands the rejection on): Node then prints no
        // "rejection was handled asynchronously" warning beside the one error.
        answer.catch(() => undefined);
        return answer;
      }) as pulumi.Output<R>,
  };
}

/** The first error of each cause that every lookup of a program shares (see `oneErrorPerCause`). */
const causes = new Map<string, unknown>();

/**
 * A cause that fails every lookup of a program alike (no key, a rejected key, an API out of reach,
 * a bad setting) is one error object, however many lookups hit it: the Pulumi SDK reports an error
 * object once, so the run says it once. What concerns one lookup (nothing found) stays its own.
 */
export function oneErrorPerCause(error: unknown): unknown {
  let cause: string | undefined;
  if (error instanceof SettingsError) cause = error.message;
  else if (error instanceof ApiError && [0, 401, 403].includes(error.status))
    cause = `${error.status} ${error.type} ${error.hint ?? ""}`;
  if (cause === undefined) return error;
  if (!causes.has(cause)) causes.set(cause, error);
  return causes.get(cause);
}

// Declared in errors.ts, whose declarations the package root reaches without zod.
import { ApiError, LookupError, SettingsError } from "./errors";

export { LookupError };

/**
 * The one object named exactly `name`, or a LookupError from `lookup` naming what was searched
 * (with a near miss, differing only in case or surrounding whitespace, as a hint) or the ids of
 * several objects sharing the name.
 */
export function pickByName<T extends { id: string; name: string }>(
  all: readonly T[],
  name: string,
  lookup: string,
  title: string,
): T {
  const matches = all.filter((o) => o.name === name);
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new LookupError(
      lookup,
      `the ${title} name ${JSON.stringify(name)} is shared by ${matches.length} objects (${matches.map((o) => o.id).join(", ")}): use an id instead`,
    );
  }
  const near = all.find((o) => o.name.trim().toLowerCase() === name.trim().toLowerCase());
  throw new LookupError(
    lookup,
    `no ${title} named ${JSON.stringify(name)}${near ? ` (did you mean ${JSON.stringify(near.name)}?)` : ""}`,
  );
}
