/**
 * A local emulator of the incident-response platform's public HTTP API: a real HTTP server (node:http)
 * with the API's authentication, roles, errors, rate limits and the shapes of reference.json.
 *
 * ```ts
 * const emulator = await startEmulator({ port: 0 });
 * // emulator.url, emulator.apiKey (global access)
 * const token = await emulator.createApiKey("reader", ["viewer"]);
 * await emulator.close();
 * ```
 * See README.md for the endpoints, the role table, the control surface and how to add a family.
 */
import type { Clock } from "./clock";
import type { ControlRoutes } from "./control";
import { FAMILIES } from "./families";
import type { FamilyModule } from "./family";
import type { FaultController } from "./faults";
import type { Pipeline } from "./http/pipeline";
import { registerLocalShapes } from "./localTypes";
import { type FamilyRoles, roleTable } from "./roles";
import type { RequestLogEntry, ResponseProblem } from "./runtime";
import { reference } from "./shapes";
import {
  createRuntime,
  dashboardKeys,
  installRequestHandling,
  openState,
  resolveOptions,
  serve,
} from "./startup";
import type { Store } from "./store";

export interface EmulatorOptions {
  /** Port to listen on; 0 (default) = any free port. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** The bootstrap key's token (global access). Default: the one in the state file, else generated. */
  apiKey?: string;
  /** Rate-limit bucket capacity per API key (default 1200). */
  burst?: number;
  /** Rate-limit refill, tokens per second (default 20). */
  refillPerSecond?: number;
  /** Persist the state here (loaded at start, written atomically after every change). */
  stateFile?: string;
  /** Seed users and teams on a fresh start (default true). */
  seed?: boolean;
  /** Time source in ms (tests); the emulator clock adds `clock.advance()` offsets to it. */
  now?: () => number;
  /** Most API keys an account may have (default 5000, as the API). */
  maxApiKeys?: number;
  /** Largest request body accepted, bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Check every successful response against its reference type (default true). */
  validateResponses?: boolean;
  /** Entries kept in `requests` (default 100 000; oldest dropped). */
  requestLogLimit?: number;
  /** `dashboard_url` of the identity response (default `<url>/_emulator`). */
  dashboardUrl?: string;
  /** The families to serve (default `FAMILIES`). */
  families?: readonly FamilyModule[];
}

export interface RunningEmulator {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  url: string;
  port: number;
  /** The bootstrap key's token (global access). */
  apiKey: string;
  /** Stops listening, closes connections, writes the state file. */
  close(): Promise<void>;
  /**
   * Makes a key as the dashboard would (any roles, including `api_keys_manage`; no API rules) and
   * returns its token. Unknown role names throw.
   */
  createApiKey(
    name: string,
    roleNames: string[],
    teamRoleNames?: string[],
    teamIds?: string[],
  ): Promise<string>;
  /** Every answered API request (live array). */
  requests: RequestLogEntry[];
  /** Responses that did not match their reference type (live array; should stay empty). */
  responseProblems: ResponseProblem[];
  /** The in-memory store. */
  store: Store;
  /** The emulator clock (`advance(ms)` to move time). */
  clock: Clock;
  /** The request pipeline (insert stages, e.g. faults, with `pipeline.use(name, fn, {before: "handler"})`). */
  pipeline: Pipeline;
  /** The `/_emulator/...` control routes (extensible). */
  control: ControlRoutes;
  /** Fault injection (also at `/_emulator/faults`). */
  faults: FaultController;
  /** Back to the seeded state (bootstrap key kept), buckets and logs cleared. */
  reset(): Promise<void>;
}

export type { StoredApiKey } from "./auth";
export { Clock } from "./clock";
export { type ControlContext, type ControlHandler, ControlRoutes } from "./control";
export { discoverFamilies, FAMILIES } from "./families";
export {
  type EntryWindow,
  type EvaluateOptions,
  mergeOverrides,
  type OverrideInput,
  type RotationVersion,
  type ScheduleEntries,
  type ScheduleEntriesConfig,
  type ScheduleEntry,
  scheduleEntries,
  uncovered,
} from "./families/shared/scheduleEntries";
export { SEED_TEAMS } from "./families/teams";
export { SEED_USERS } from "./families/users";
export {
  type DashboardHooks,
  DEFAULT_PAGE_SIZE,
  defineFamily,
  type FamilyModule,
  type Handler,
  type HandlerContext,
  type HandlerResult,
  operation,
  paginate,
  type RouteSpec,
} from "./family";
export { FaultController, type FaultKind, type FaultRule } from "./faults";
export {
  badRequest,
  conflict,
  type FieldProblem,
  forbidden,
  HttpError,
  notFound,
  throwIfProblems,
  validationFailed,
} from "./http/errors";
export type { Middleware, Next, PendingResponse, RequestContext, StagePosition } from "./http/pipeline";
export { Pipeline } from "./http/pipeline";
export { limitHeader, RateLimiter } from "./http/rateLimit";
export { type Access, ANY_KEY_READS, type Caller, type FamilyRoles, SETTINGS_ROLES } from "./roles";
export type { EmulatorRuntime, RequestLogEntry, ResponseProblem } from "./runtime";
export {
  assertShape,
  checkResponse,
  refOperation,
  refType,
  type ShapeProblem,
  type ValidateOptions,
  validateAgainst,
} from "./shapes";
export {
  type OpsgenieAccount,
  type PagerDutyAccount,
  type RunningSourceEmulator,
  type SourceEmulatorOptions,
  startSourceEmulator,
} from "./sources";
export { Collection, type Entity, Store } from "./store";

/** The role table of the families served by default (each family declares its row). */
export const ROLE_TABLE: Readonly<Record<string, FamilyRoles>> = roleTable(FAMILIES);

/** Starts an emulator (listening when the promise resolves). The steps are in startup.ts. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  reference();
  registerLocalShapes();
  const runtime = createRuntime(resolveOptions(options), options.families ?? FAMILIES, options.now);
  openState(runtime, options.apiKey);
  const makeKey = dashboardKeys(runtime);
  const { control, faults } = installRequestHandling(runtime, makeKey);
  return serve(runtime, { control, faults, makeKey });
}
