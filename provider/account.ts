/**
 * The account object: an explicit Pulumi provider for one account (an API key and where its API is),
 * so one program can manage several accounts (staging and production, a sandbox beside
 * production). Resources take it as the `provider` resource option, lookups as `{ provider }`;
 * resources and lookups without one keep using the stack's configuration (`incident:apiKey`, …).
 *
 * How it works: a Pulumi provider resource of the package that serves dynamic resources
 * (`pulumi-nodejs`), so the engine starts a dynamic-provider host of its own for it (one process per
 * account) and configures it with these settings instead of the stack's. The key is a secret in the
 * state, and never leaves the host or the program otherwise.
 *
 * This file's declarations are part of the package root's: no zod here.
 */
import * as pulumi from "@pulumi/pulumi";
import { SettingsError } from "./errors";

/** The settings of one account. */
export interface ProviderArgs {
  /** The account's API key (stored as a secret). */
  apiKey: pulumi.Input<string>;
  /** The API's base URL. Default: `https://api.incident.io`. */
  baseUrl?: pulumi.Input<string>;
  /** Seconds one HTTP attempt may take (default 30). */
  requestTimeout?: pulumi.Input<number>;
  /** The longest `Retry-After`, in seconds, the provider waits (default 120). */
  maxRetryAfter?: pulumi.Input<number>;
  /** The forward proxy requests go through, e.g. `http://proxy.corp:3128` (default: `HTTPS_PROXY`). */
  proxy?: pulumi.Input<string>;
  /** How much the provider says: `warn` (default), `info` (a line per API call) or `debug`. */
  logLevel?: pulumi.Input<"warn" | "info" | "debug">;
  /**
   * Claim each alert route, alert source, escalation path, schedule, schedule sync rule and target
   * and workflow this account's resources create or adopt as managed outside the dashboard, which
   * shows it as locked (default false).
   */
  lockInDashboard?: pulumi.Input<boolean>;
}

/** Options of a lookup (`getUser`, `getTeamOutput`, …). */
export interface LookupOptions {
  /** The account to look in (default: the stack's configuration). */
  provider?: Provider;
}

/** Each account object's settings, for the lookups that name it (never an output of the resource). */
const settings = new WeakMap<Provider, pulumi.Output<Record<string, string | undefined>>>();

/**
 * An account: `new incident.Provider("prod", { apiKey: config.requireSecret("prodApiKey") })`, then
 * `{ provider: prod }` on the resources (and lookups) of that account.
 *
 * @example
 * ```ts
 * const config = new pulumi.Config();
 * const staging = new incident.Provider("staging", { apiKey: config.requireSecret("stagingApiKey") });
 * const production = new incident.Provider("production", { apiKey: config.requireSecret("productionApiKey") });
 *
 * for (const [name, provider] of [["staging", staging], ["production", production]] as const) {
 *   const lead = incident.getUserOutput({ email: "ada@example.com" }, { provider });
 *   new incident.Severity(`${name}-major`, { name: "Major", description: `Paged: ${name}` }, { provider });
 *   new incident.Schedule(`${name}-primary`, {
 *     name: "Primary",
 *     timezone: "Europe/London",
 *     rotations: [{ id: "r", name: "Rota", versions: [{
 *       handoverStartAt: "2026-01-05T09:00:00Z", handovers: [{ interval: 1, intervalType: "weekly" }],
 *       users: [{ id: lead.id }], layers: [{ name: "Layer" }],
 *     }] }],
 *   }, { provider });
 * }
 * ```
 */
export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: ProviderArgs, opts?: pulumi.ResourceOptions) {
    const text = (value: pulumi.Input<number> | undefined) =>
      value === undefined ? undefined : pulumi.output(value).apply(String);
    // Named as the stack config names them: the host configures the provider from either alike.
    const inputs: Record<string, pulumi.Input<string | undefined>> = {
      "incident:apiKey": pulumi.secret(args.apiKey),
      "incident:baseUrl": args.baseUrl,
      "incident:requestTimeout": text(args.requestTimeout),
      "incident:maxRetryAfter": text(args.maxRetryAfter),
      "incident:proxy": args.proxy,
      "incident:logLevel": args.logLevel,
      "incident:lockInDashboard":
        args.lockInDashboard === undefined ? undefined : pulumi.output(args.lockInDashboard).apply(String),
      // Tells the host these settings are the account's whole story (no INCIDENT_* fallback).
      "incident:account": name,
    };
    // The package that serves this package's resources (dynamic resources): a host of its own.
    super("pulumi-nodejs", name, inputs, opts);
    settings.set(this, pulumi.output(inputs) as pulumi.Output<Record<string, string | undefined>>);
  }
}

/** The settings of an account object, as the lookups that name it read them. */
export function accountSettings(provider: Provider): pulumi.Output<Record<string, string | undefined>> {
  const found = settings.get(provider);
  if (!found)
    throw new SettingsError(
      "provider",
      "provider: not an incident.Provider (make it with `new incident.Provider(…)`)",
    );
  return found;
}
