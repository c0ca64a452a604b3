/**
 * Public types of the test harness (see README.md). Shared by the parent API (index.ts) and the
 * child process that plays the engine (runner.ts); no runtime code here.
 */

export interface HarnessOptions {
  /** Absolute path to the program: a .ts/.js file, or a directory (Pulumi.yaml `main`, package.json `main`, index.ts/js). */
  program: string;
  /** JSON state file, created if absent. */
  stateFile: string;
  /** Project name. Default: `name:` of the program's Pulumi.yaml, else "harness". */
  project?: string;
  /** Stack name. Default "dev". */
  stack?: string;
  /** Stack config, namespaced keys: {"incident:apiKey": "...", "incident:baseUrl": "http://127.0.0.1:1234"}. */
  config?: Record<string, string>;
  /** Which config keys are secret. */
  secretConfig?: string[];
  /** Extra environment for the program and the provider host. */
  env?: Record<string, string>;
  /** Passphrase of the state's secrets (AES-256-GCM). Default "harness-demo-passphrase". */
  passphrase?: string;
  /**
   * `pulumi up --continue-on-error`: after a failed step, keep processing independent resources and
   * still run the deletes. Default false (the engine's default: stop starting new steps, no deletes).
   */
  continueOnError?: boolean;
  /** Kill the run (runner and host) after this many ms. Default 120000. */
  timeoutMs?: number;
  /** `--parallel`: steps (create, update, delete, read) executing at once. Default 4 × CPUs, as the CLI. */
  parallel?: number;
  /** `up --skip-preview`. Default false: `up` runs a preview first, as `pulumi up` does. */
  skipPreview?: boolean;
  /** `--expect-no-changes` (preview, up): the run fails when any step is not `same`. */
  expectNoChanges?: boolean;
  /**
   * Kill the provider host (SIGKILL to its process group) when this promise resolves, as a crash or
   * an out-of-memory kill would: in-flight RPCs fail, the run goes on as the engine's would.
   */
  killHostWhen?: Promise<unknown>;
}

export type Operation = "up" | "preview" | "refresh" | "destroy";

export type StepOp =
  | "create"
  | "update"
  | "replace"
  | "delete"
  | "same"
  | "read"
  | "read-drift"
  | "refresh-delete";

export interface Step {
  urn: string;
  name: string;
  type: string;
  op: StepOp;
  /** refresh: the refresh pass (standalone or --refresh); update: the program's registrations; delete: final deletes. */
  phase: "refresh" | "update" | "delete";
  /** update/replace: top-level input keys that differ; read-drift: output or input keys that drifted. */
  changedKeys?: string[];
  /** replace: the keys that forced the replacement. */
  replaceKeys?: string[];
  /** replace: deleted the old object before creating the new one. */
  deleteBeforeReplace?: boolean;
  /** read-drift: output keys that changed / input keys that changed. */
  changedOutputKeys?: string[];
  changedInputKeys?: string[];
  /** delete: the old copy of a resource replaced create-before-delete (deleted with the final deletes). */
  replaced?: boolean;
  /** The resource id after the step (before it, for delete/refresh-delete); "" for a create in preview. */
  id?: string;
  /** The step failed (its error is in RunResult.errors). */
  failed?: boolean;
  error?: string;
  /** Offsets from the start of the run (runner clock), ms. */
  startMs: number;
  endMs: number;
}

export interface ApiCall {
  method: string;
  path: string;
  status: number;
  ms: number;
  /** "provider": written by the dynamic-provider host; "program": by the program (lookups). */
  from: "provider" | "program";
  [extra: string]: unknown;
}

export interface HarnessError {
  /** check: a check failure (one per property); provider: a provider RPC failed; program: the program threw; engine: the harness itself. */
  kind: "check" | "provider" | "program" | "engine";
  message: string;
  urn?: string;
  name?: string;
  type?: string;
  /** The provider operation that failed (check, diff, create, update, delete, read, configure). */
  op?: string;
  /** check failures: the property and reason exactly as the provider returned them. */
  property?: string;
  reason?: string;
  /** A create/update that failed after creating the object (ErrorResourceInitFailed). */
  id?: string;
  reasons?: string[];
  /** program errors: the stack trace. */
  detail?: string;
}

export interface RunResult {
  operation: Operation;
  ok: boolean;
  steps: Step[];
  /** Stack exports; secret values (or parts) shown as "[secret]", unknown values (preview) as UNKNOWN. */
  outputs: Record<string, unknown>;
  /** The plaintext of the exports that are or contain secrets (like `pulumi stack output --show-secrets`). */
  secretOutputs: Record<string, unknown>;
  /** One line per HTTP request made during the run (INCIDENT_TRACE_FILE), provider and program. */
  apiCalls: ApiCall[];
  errors: HarnessError[];
  warnings: string[];
  /** Wall time of the whole run as the caller sees it (child process included). */
  durationMs: number;
  /** Number of successful steps per op ("delete-replaced" for old copies of replacements), plus "failed". */
  counts: Record<string, number>;
  /** Where the time went (runner clock, ms). */
  timings: Record<string, number>;
  /** Console output of the program and the provider host (for debugging). */
  log: string;
}

/**
 * What the state keeps of one resource beside its values, as the engine's checkpoint does: the
 * in-memory entry (state.ts `ResourceState`, wire values) and the decrypted view (`StateResource`)
 * share it.
 */
export interface StateEntry {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  id?: string;
  parent?: string;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  additionalSecretOutputs?: string[];
  protect?: boolean;
  retainOnDelete?: boolean;
  external?: boolean;
  /** Set when a create/update failed after the object was created (the engine's half-created resource). */
  initErrors?: string[];
  /** An old copy of a replaced resource, awaiting deletion (its delete has not run yet). */
  delete?: boolean;
  /** Deleted ahead of a delete-before-create replacement it depends on; recreated when registered. */
  pendingReplacement?: boolean;
}

/** One resource in the decrypted view of the state (readState). */
export interface StateResource extends StateEntry {
  /** Plain values (secrets decrypted). */
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** Top-level keys whose value is (or contains) a secret. */
  secretInputs: string[];
  secretOutputs: string[];
  /** The serialized provider exactly as stored (in outputs; inputs hold the same text). */
  provider?: string;
  /** Bytes of the serialized provider text as stored in this resource (inputs + outputs). */
  providerBytes?: number;
}

export interface HarnessState {
  project?: string;
  stack?: string;
  resources: StateResource[];
  /** Size of the state file in bytes. */
  bytes: number;
}
