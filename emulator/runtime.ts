/**
 * What every stage, handler and control route can reach: one object per running emulator.
 */
import type { Clock } from "./clock";
import type { FamilyModule, RouteSpec } from "./family";
import type { Pipeline } from "./http/pipeline";
import type { RateLimiter } from "./http/rateLimit";
import type { Router } from "./http/router";
import type { ShapeProblem } from "./shapes";
import type { Store } from "./store";

/** One answered API request (control requests under `/_emulator` are not logged). */
export interface RequestLogEntry {
  requestId: string;
  /** RFC 3339, emulator clock. */
  time: string;
  method: string;
  /** Path without the query string. */
  path: string;
  /** The query string without `?` (`""` when none). */
  query: string;
  status: number;
  /** The calling key's id, when the request was authenticated. */
  apiKeyId?: string;
  /** Matched route template (`/v2/custom_fields/{id}`), when one matched. */
  route?: string;
  /** Wall-clock milliseconds spent answering. */
  ms: number;
}

/** A response whose body did not match its reference type (should never happen: tests assert none). */
export interface ResponseProblem {
  requestId: string;
  method: string;
  path: string;
  type: string;
  problems: ShapeProblem[];
}

/** The options after defaults. */
export interface ResolvedOptions {
  host: string;
  port: number;
  apiKey: string;
  burst: number;
  refillPerSecond: number;
  stateFile?: string;
  seed: boolean;
  maxApiKeys: number;
  maxBodyBytes: number;
  validateResponses: boolean;
  requestLogLimit: number;
  dashboardUrl?: string;
}

export interface EmulatorRuntime {
  readonly options: ResolvedOptions;
  readonly store: Store;
  readonly clock: Clock;
  readonly limiter: RateLimiter;
  readonly router: Router<RouteSpec>;
  readonly pipeline: Pipeline;
  readonly families: readonly FamilyModule[];
  readonly requests: RequestLogEntry[];
  readonly responseProblems: ResponseProblem[];
  /** Base URL (`http://127.0.0.1:PORT`), set once listening. */
  url: string;
  /** Writes the state file when one is configured. */
  persist(): void;
  /** Empties the store and seeds it again (bootstrap key kept), clears buckets and logs. */
  reset(): Promise<void>;
}
