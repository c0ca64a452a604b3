import type { z } from "zod";
import type { ApiClient } from "./client";
import type { FieldRenames } from "./naming";
import type { ListSpec } from "./pagedReads";
import type { ProgramRule } from "./programRules";

/** What a resource's API functions receive. */
export interface ApiContext {
  client: ApiClient;
}

/** A cross-field problem: the input path at fault, the message, and the other paths the rule read. */
export interface Problem {
  path: (string | number)[];
  message: string;
  /**
   * The other input values that decided this problem, as precisely as the rule reads them: a
   * preview skips it when one of them is (or holds, or lies inside) an unknown value, and only then.
   * A path (`"*"` stands for any one segment: `["expressions", "*", "reference"]`), or for what a
   * path cannot say (every node id of a tree, not the target ids beside them) a test of the path of
   * a value left out of the preview's known part.
   */
  dependsOn?: ((string | number)[] | ((leftOut: (string | number)[]) => boolean))[];
  /**
   * `"warning"`: said at preview (a warning in the Pulumi log naming the input path), never a check
   * failure. A rule that no published source states (the seed, shared/api, the service's
   * documentation) is a warning: the value is passed on and the API decides (provider/checkWarnings.ts;
   * its `passedOn(message)` says so).
   */
  severity?: "warning";
}

/** The kinds `POST /v2/managed_resources` claims (ManagedResourcesCreateManagedResourcePayloadV2). */
export type ManagedResourceType =
  | "alert_route"
  | "alert_source"
  | "escalation_path"
  | "schedule"
  | "schedule_sync_rule"
  | "schedule_sync_target"
  | "workflow";

/** Inputs as stored by the engine: the checked user inputs (camelCase). */
export type Props = Record<string, any>;

/** The result of creating an object: the live object plus outputs only the create response carries. */
export interface Created<Live> {
  live: Live;
  /** e.g. a token returned once; kept in state because it cannot be read again. */
  extraOutputs?: Props;
}

/**
 * Everything the generic machinery needs to know about one resource kind. A resource file exports
 * one of these; `makeProvider` turns it into a `pulumi.dynamic.ResourceProvider`.
 */
export interface ResourceSpec<Args extends Props = Props, Live = any> {
  /** Resource kind: names the class, the type token (`pulumi-nodejs:dynamic/incident:<kind>`) and the providers map entry. */
  kind: string;
  /** How error messages name the API object ("custom field"). */
  title: string;
  /** Bumped when the stored shape changes; `migrate` upgrades older state. */
  schemaVersion: number;
  migrate?(olds: Props, fromVersion: number): Props;
  /** The camelCase input schema: validation, defaults, TypeScript type and documentation in one. */
  inputs: z.ZodObject<any>;
  /**
   * Rules that involve several fields, run after the schema; paths are input paths. A problem is a
   * refusal only where a published rule forbids the value (its source named in a comment beside the
   * rule); otherwise it is a warning (`severity: "warning"`). In a preview
   * they run on the known parts of the inputs (unknown values left out): a problem whose `path`, or
   * any of its `dependsOn` paths (the other fields the rule read), is or holds an unknown value is
   * not reported.
   */
  validate?(args: Args): Problem[];
  /**
   * The API's own check of a payload, which writes nothing (`POST …/actions/validate`): `check` runs
   * it once the inputs pass the schema and `validate`, every value is known and an API key is set
   * (provider/remoteValidation.ts). Its 422 answers are check failures at the input path of each
   * field it names (`fieldRenames`); when it cannot run (no key, values unknown in a preview, a key
   * that may not call it, the API unreachable) a warning says it was skipped, and check passes.
   * Only a declaration that will be sent is validated: not one equal to the stored inputs (a
   * no-change preview makes no request), nor an adoption (`adoptId`: one that writes is validated
   * by the API's update).
   */
  remoteValidation?: {
    /** The validate endpoint, e.g. `/v1/incident_templates/actions/validate`. */
    path: string;
    /** What errors call it, e.g. `validate incident template`. */
    operation: string;
    /** The body it takes (the create payload). */
    payload(args: Args): Props;
  };
  /** Maps the live API object to the input shape, keeping the declared spelling where meaning is equal. */
  toInputs(live: Live, declared: Args | undefined): Args;
  /** Computed outputs (never inputs) from the live object; `prior` is the previous state, if any. */
  computed(live: Live, prior: Props | undefined): Props;
  /** Names of every computed output (typed on the class, seeded so the SDK registers them). */
  computedOutputs: readonly string[];
  /**
   * Outputs the state keeps in clear that change when a write-only secret input changes (a Secret's
   * `version` and `lastFourChars`): `pulumi-incident drift`, which cannot read the encrypted input
   * in a stack export, compares these instead.
   */
  secretFingerprints?: readonly string[];
  /** Canonical form for comparing two input objects (normalisation rules for diffs). */
  canonical?(args: Args): Props;
  /** Inputs that cannot change in place. */
  replaceOnChanges: readonly string[];
  /** Delete the old object before creating its replacement (e.g. when names must be unique). */
  deleteBeforeReplace?: boolean;
  /** Outputs the engine must store as secrets. */
  secretOutputs: readonly string[];
  /**
   * Inputs the API never answers (the read-back keeps what was declared: rule "write-only value"). An
   * adoption cannot tell whether the live object holds them, so it writes when one is declared.
   */
  writeOnlyInputs?: readonly string[];
  /**
   * The kind's `resource_type` in `POST /v2/managed_resources` (the seven claimable kinds): with
   * `incident:lockInDashboard`, a create or an adoption claims the object as managed externally.
   */
  claimAs?: ManagedResourceType;
  /** The API id a claim names, from the resource's id (default: the id itself). */
  claimId?(id: string): string;
  /** Inputs that configure the provider's own behaviour, not the API object: kept as declared on refresh. */
  localInputs?: readonly string[];
  /**
   * API field paths whose input path differs beyond case, for the fields an error names (422):
   * prefix → input path (`role_names` → `roles`; provider/naming.ts). A function of the inputs when
   * the payload reshapes them (a schedule's flattened rotations): given the operation's inputs, or
   * the state on read and delete.
   */
  fieldRenames?: FieldRenames | ((inputs: Props) => FieldRenames);
  idOf(live: Live): string;
  /**
   * Reads by page (provider/pagedReads.ts): set only where the list endpoint answers what the show
   * endpoint does; a refresh of many objects then walks the list once instead of one GET each.
   * Where a kind leaves it out, its file says why the list cannot serve reads.
   */
  list?: ListSpec<Live>;
  /**
   * Every object of this kind in the account, as `api.read` answers it, for `pulumi-incident export`
   * (cli/export). Default: the `list` walked whole, when it needs no scope. Objects the service owns,
   * which a stack cannot manage, are left out here.
   */
  listAll?(ctx: ApiContext): Promise<Live[]>;
  /** Why `pulumi-incident export` leaves this kind out (e.g. another kind exports its objects). */
  notExported?: string;
  /**
   * The input holding the id of the object this one is a part of and cannot move from (an option's
   * field, an override's schedule, an entry's catalog type): `pulumi-incident export --split-by team`
   * declares a part in the project of its whole.
   */
  partOf?: string;
  /** Other list paths whose contents this kind's writes change (their cached pages are dropped too). */
  writesLists?: readonly string[];
  /**
   * A rule over this kind's resources of one program and account, applied by the program process
   * (provider/programRules.ts): what check cannot see, as it sees one resource at a time and not its
   * name (a second resource for the account's one object; two that the API would let overwrite each
   * other).
   */
  programRule?: ProgramRule;
  api: {
    create(ctx: ApiContext, args: Args): Promise<Created<Live>>;
    /**
     * The live object: just the GET. A NotFound answer (404) means it no longer exists: the factory
     * takes it as gone (as it does `undefined`).
     */
    read(ctx: ApiContext, id: string, prior: Props | undefined): Promise<Live | undefined>;
    update(ctx: ApiContext, id: string, args: Args, olds: Props): Promise<Created<Live>>;
    delete(ctx: ApiContext, id: string, olds: Props): Promise<void>;
    /**
     * Finds the object an interrupted create may have made (by its unique name or other key).
     * `existedBefore`: what `existingIds` answered before that create was sent, when the kind has it.
     */
    findCreated?(ctx: ApiContext, args: Args, existedBefore?: readonly string[]): Promise<Live | undefined>;
    /**
     * For a create whose object carries nothing the create sent (a sync target's new Slack user
     * group: the API answers neither its name nor its handle): the ids of the kind's objects before
     * the create is sent, kept with its pending-create record (provider/journal.ts) and handed to
     * `findCreated`, which then takes the object made since. Undefined when not needed for `args`.
     */
    existingIds?(ctx: ApiContext, args: Args): Promise<string[] | undefined>;
    /**
     * What `findCreated` matches on, as text (default: the name): a pending create recorded under
     * this key is looked for by the next create with the same key (provider/journal.ts).
     */
    recoveryKey?(args: Args): string;
  };
}

/**
 * Outputs key of the answers the API gave to our own writes in another form (rule "write-time
 * aliases", provider/normalise.ts): declared text → answered text.
 */
export const WRITE_ALIASES = "__writeAliases";

/**
 * Marks the `olds` passed to `update` when a create's response was lost and the object was found
 * again: whatever only the create response carried (a token) must be obtained another way.
 */
export const RECOVERED = "__recoveredAfterLostCreate";
/** Marks the outputs of a read-only resource (`Xxx.get(name, id)`): it declares nothing. */
export const READ_ONLY = "__readOnly";

/** Thrown by a spec's create when the object exists but a later step failed: the engine keeps it. */
export class PartialCreateError<Live = any> extends Error {
  constructor(
    readonly live: Live,
    readonly cause: unknown,
    /** Kept with the half-created object's state (e.g. the RECOVERED marker, until an update succeeds). */
    readonly extraOutputs?: Props,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "PartialCreateError";
  }
}
