/**
 * Rules over the resources of one program: what a provider's check cannot see, since it sees one
 * resource at a time and not its name (a second IpAllowlist of one account; two ScheduleOverrides of
 * one layer whose windows overlap). The program process sees every resource with its name: the
 * resource class (provider/resource.ts) hands each managed resource of a kind that declares a
 * `programRule` to `declare`, which compares it with those of the same kind and account declared
 * before it in this program. A rule that reads no input runs at construction, before the resource
 * is registered (an error then stops the program there, and the engine never sees the resource); a
 * rule that reads inputs runs once they are known (in a preview: when they are known): a warning is
 * said on the resource (`pulumi.log`), an error fails the program (thrown where the values resolve).
 *
 * This file's declarations are part of the package root's (through provider/resource.ts): it loads
 * no zod.
 */
import * as pulumi from "@pulumi/pulumi";
import { IncidentError } from "./errors";

/** A resource of the program as a rule sees it: its name and the inputs the rule reads, resolved. */
export interface DeclaredResource {
  name: string;
  values: Record<string, unknown>;
}

export interface ProgramProblem {
  /** An error fails the program (naming both resources); a warning is said on the later one. */
  severity: "error" | "warning";
  message: string;
}

/** A rule over the resources of one kind, one account and one program (ResourceSpec `programRule`). */
export interface ProgramRule {
  /** The inputs the rule reads (none: it runs at construction, on the names alone). */
  reads: readonly string[];
  /** What `resource` and `earlier`, declared before it, make together (nothing: no problem). */
  between(resource: DeclaredResource, earlier: DeclaredResource): ProgramProblem | undefined;
}

/** A program rule's error: raised in the program, at the resource's declaration. */
export class ProgramRuleError extends IncidentError {
  constructor(message: string) {
    super(message);
    this.name = "ProgramRuleError";
  }
}

/**
 * How a rule that reads inputs fails the program: thrown where its values resolve, it is the
 * program's unhandled error, which the engine shows and which fails the preview or update
 * (test/engine/cli.test.ts). Tests under the SDK's mocks replace `raise` to see it.
 */
export const programRuleFailure = {
  raise(error: ProgramRuleError): void {
    throw error;
  },
};

/** The resources declared so far, per deployment (the SDK's resource monitor), kind and account. */
const declared = new WeakMap<object, Map<string, DeclaredResource[]>>();
/** Where there is no monitor (nothing is registered anyway): one registry. */
const NO_MONITOR = {};
/** A key per account object (the stack's own: 0). */
const accountKeys = new WeakMap<object, number>();
let accounts = 0;

function earlierOf(kind: string, account: unknown): DeclaredResource[] {
  const monitor = (pulumi.runtime.getMonitor() as object | undefined) ?? NO_MONITOR;
  const inDeployment = declared.get(monitor) ?? new Map<string, DeclaredResource[]>();
  declared.set(monitor, inDeployment);
  let accountKey = 0;
  if (typeof account === "object" && account !== null) {
    accountKey = accountKeys.get(account) ?? ++accounts;
    accountKeys.set(account, accountKey);
  }
  const key = `${kind} ${accountKey}`;
  const list = inDeployment.get(key) ?? [];
  inDeployment.set(key, list);
  return list;
}

/**
 * Before the resource is registered: a rule that reads no input is applied now, and an error
 * thrown (the resource is then never registered). Answers what to call once it is registered.
 */
export function declare(
  kind: string,
  rule: ProgramRule,
  name: string,
  args: Record<string, unknown>,
  /** The account object the resource names (its `provider`), or undefined for the stack's. */
  account: unknown,
): (resource: pulumi.Resource) => void {
  const earlier = earlierOf(kind, account);
  if (rule.reads.length === 0) {
    const self = { name, values: {} };
    for (const other of earlier) {
      const problem = rule.between(self, other);
      if (problem?.severity === "error") throw new ProgramRuleError(problem.message);
      if (problem) void pulumi.log.warn(problem.message);
    }
    earlier.push(self);
    return () => undefined;
  }
  return (resource) => {
    const reads = rule.reads.map((key) => args[key]);
    pulumi.all(reads).apply((values) => {
      // Applies run only on known values: in a preview, once every value it reads is known.
      const self = { name, values: Object.fromEntries(rule.reads.map((key, i) => [key, values[i]])) };
      earlier.push(self);
      for (const other of earlier.slice(0, -1)) {
        const problem = rule.between(self, other);
        // An error fails the program (`programRuleFailure`): `pulumi.log.error` alone is shown, but
        // the run still succeeds (seen with the real CLI: exit 0).
        if (problem?.severity === "error") programRuleFailure.raise(new ProgramRuleError(problem.message));
        else if (problem) void pulumi.log.warn(problem.message, resource);
      }
    });
  };
}
