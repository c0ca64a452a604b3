import { createHash } from "node:crypto";
import {
  type CheckWarning,
  collectingWarnings,
  isWarningIssue,
  resetCheckWarnings,
  sayCheckWarnings,
} from "./checkWarnings";
import { packageVersion } from "./client";
import { configure, currentClient } from "./credentials";
import { type Change, changedKeys, inputChanges, toJson } from "./diff";
import { ApiError, describeApiError, isNotFound, unlessNotFound } from "./errors";
import { LIMITS, tooDeep } from "./inputs";
import { PendingCreates } from "./journal";
import { type FieldRenames, inputPathForApiField, pick } from "./naming";
import { canonicalJson, isSlackChannelId, learnAliases, restoreAliases } from "./normalise";
import { enablePagedReads, invalidateLists, readFromPages } from "./pagedReads";
import { resetRemoteValidation, validateRemotely } from "./remoteValidation";
import type { IncidentProvider as PublicIncidentProvider } from "./resource";
import {
  type ApiContext,
  type Created,
  PartialCreateError,
  type Props,
  READ_ONLY,
  RECOVERED,
  type ResourceSpec,
  WRITE_ALIASES,
} from "./spec";
import { formatPath, isUnder, type Path, touches, unknownPaths } from "./unknowns";

const PROVIDER_KEY = "__provider";
const SCHEMA_KEY = "__schema";
const ALIASES_KEY = WRITE_ALIASES;
/** Every resource accepts this input: take over an existing object instead of creating one. */
export const ADOPT_KEY = "adoptId";

export interface CheckFailure {
  property: string;
  reason: string;
}

export type IncidentProvider = PublicIncidentProvider & {
  spec: ResourceSpec;
  /**
   * What `diff` decides from: the changes of meaning from the stored state `olds` to the checked
   * inputs `news` (normalised by the spec's `canonical` form), each at its nested input path. For
   * review tools (a plan report of nested changes old → new).
   */
  changes(olds: Props, news: Props): Change[];
};

/**
 * The live object, or undefined when it is gone (a 404 or no answer): from this run's pages of the
 * kind's list where it has one (provider/pagedReads.ts), else the resource's read (just the GET).
 * The provider's read and the drift job (cli/drift.ts) read through it.
 */
export async function readLiveObject(
  spec: ResourceSpec,
  ctx: ApiContext,
  id: string,
  prior: Props | undefined,
): Promise<unknown> {
  const paged = spec.list ? await readFromPages(spec.list, ctx, id, prior) : undefined;
  return paged ? paged.live : unlessNotFound(spec.api.read(ctx, id, prior));
}

/** Turns a resource spec into the dynamic provider the host calls. */
/** The inputs a diff compares: every declared input but `adoptId` (it only matters when the object is first taken over). */
export function comparedInputs(spec: ResourceSpec, props: Props): Props {
  return pick(
    props,
    Object.keys(spec.inputs.shape).filter((k) => k !== ADOPT_KEY),
  );
}

/**
 * The canonical form a diff compares (the spec's normalisation rules); the compared inputs as they
 * are when they do not fit it (unknown values in a preview).
 */
export function canonicalInputs(spec: ResourceSpec, props: Props): Props {
  const picked = comparedInputs(spec, props);
  if (!spec.canonical) return picked;
  try {
    return spec.canonical(picked);
  } catch {
    return picked;
  }
}

/**
 * Whether adopting an object needs a write: something differs from the declaration, or a declared
 * input is one the API never answers (so whether the object holds it cannot be known).
 */
export function adoptionWrites(spec: ResourceSpec, declared: Props, differences: readonly Change[]): boolean {
  return differences.length > 0 || (spec.writeOnlyInputs ?? []).some((k) => declared[k] !== undefined);
}

/** Stored props brought to the spec's current schema; the version is in the stored outputs (1 when absent). */
export function migrateStored(spec: ResourceSpec, props: Props, outputs: Props = props): Props {
  const version = typeof outputs[SCHEMA_KEY] === "number" ? outputs[SCHEMA_KEY] : 1;
  return version < spec.schemaVersion && spec.migrate ? spec.migrate(props, version) : props;
}

export function makeProvider<Args extends Props>(spec: ResourceSpec<Args>): IncidentProvider {
  const inputKeys = Object.keys(spec.inputs.shape);
  const localKeys = new Set<string>([ADOPT_KEY, ...(spec.localInputs ?? [])]);
  const diffKeys = inputKeys.filter((k) => k !== ADOPT_KEY);

  /**
   * Outputs from a live object. `written`: it is the API's answer to our own create or update, whose
   * answers in another form are remembered (rule "write-time aliases"); a read only applies them.
   * `declared` is undefined for `Xxx.get(name, id)` (nothing declared).
   */
  const buildOutputs = (
    live: unknown,
    declared: Props | undefined,
    prior: Props | undefined,
    extra?: Props,
    written = true,
  ): Props => {
    const mapped = spec.toInputs(live, declared as Args | undefined) as Props;
    const aliases: Record<string, string> = { ...(prior?.[ALIASES_KEY] ?? {}) };
    if (written && declared) learnAliases(mapped, declared, isSlackChannelId, aliases);
    const known = declared !== undefined && Object.keys(aliases).length > 0;
    return toJson({
      ...(known ? restoreAliases(mapped, declared, aliases) : mapped),
      ...(declared ? pick(declared, [...localKeys]) : {}),
      ...spec.computed(live, prior),
      ...(extra ?? {}),
      ...(known ? { [ALIASES_KEY]: aliases } : {}),
      [SCHEMA_KEY]: spec.schemaVersion,
    });
  };

  const changes = (olds: Props, news: Props): Change[] =>
    inputChanges(diffKeys, canonicalInputs(spec, migrate(olds)), canonicalInputs(spec, news));

  const migrate = (olds: Props): Props => migrateStored(spec, olds);

  const context = () => ({ client: currentClient() });
  // A write of this kind (whatever its outcome) makes these lists' cached pages stale (provider/pagedReads.ts).
  const listsWritten = [...(spec.list ? [spec.list.path] : []), ...(spec.writesLists ?? [])];
  const wrote = (ctx: ApiContext) => invalidateLists(ctx.client, listsWritten);
  const readLive = (ctx: ApiContext, id: string, prior: Props | undefined) =>
    readLiveObject(spec, ctx, id, prior);

  return {
    spec: spec as ResourceSpec,

    async configure(req) {
      configure(req);
      // A new run: its skipped server-side validations and its check warnings are said again (once).
      resetRemoteValidation();
      resetCheckWarnings();
      // Only the provider host configures providers: one process per run, so cached pages are per run.
      enablePagedReads();
    },

    async check(olds, news) {
      const { [PROVIDER_KEY]: provider, ...raw } = news;
      const deep = tooDeep(raw);
      if (deep !== undefined) {
        // Refused before anything walks it: no rule may run out of stack on it.
        const failures = [
          {
            property: String(deep[0]),
            reason: `${formatPath(deep.slice(0, 12))}…: nested deeper than ${LIMITS.depth} levels (the API takes no deeper request)`,
          },
        ];
        return { inputs: news, failures };
      }
      const { failures, warnings } = checkInputsAndWarnings(spec, raw);
      sayCheckWarnings(resourceName(spec, raw), warnings.map(warningText));
      const unknown = unknownPaths(raw).length > 0;
      const parsed = failures.length === 0 && !unknown ? spec.inputs.parse(raw) : raw;
      // The API's own validation (provider/remoteValidation.ts), once the local rules pass: skipped
      // with a warning, never failing, where it cannot run (no key, unknown values, 403, faults).
      // Only what will be sent: not an unchanged declaration (a no-change preview makes no call), not
      // an adoption (the object exists as the API accepted it; a write the adoption makes is
      // validated by the API then, and an equal one makes no request at all).
      const unchanged =
        !unknown &&
        Object.keys(comparedInputs(spec, olds ?? {})).length > 0 &&
        changes(olds, parsed).length === 0;
      if (spec.remoteValidation && failures.length === 0 && raw[ADOPT_KEY] === undefined && !unchanged) {
        const args = unknown ? undefined : parsed;
        failures.push(...(await validateRemotely(spec, args, fieldRenames(spec, args))));
      }
      return { inputs: { ...parsed, [PROVIDER_KEY]: provider }, failures };
    },

    changes,

    async diff(_id, olds, news) {
      // A read-only resource (`Xxx.get`) declares nothing: nothing to compare (a refresh's diff).
      if (olds[READ_ONLY] === true) return { changes: false, replaces: [], deleteBeforeReplace: false };
      // Changed keys come from the changes found: an update always names what changes.
      const changed = changedKeys(changes(olds, news));
      const replaces = changed.filter((k) => spec.replaceOnChanges.includes(k));
      return {
        changes: changed.length > 0,
        replaces,
        deleteBeforeReplace: replaces.length > 0 && spec.deleteBeforeReplace === true,
      };
    },

    async create(inputs) {
      const args = stripInternal(inputs) as Args;
      const ctx = context();
      const adoptId = args[ADOPT_KEY as keyof Args] as string | undefined;
      try {
        if (adoptId) {
          // The declaration stands in for the state a read may need (a parent id, inline parts).
          const existing = await readLive(ctx, adoptId, args);
          if (existing === undefined) {
            throw new Error(
              `${spec.kind}: adoptId ${JSON.stringify(adoptId)}: no ${spec.title} with that id exists`,
            );
          }
          // Side-effect free when nothing differs: the object as a read would store it, compared with
          // the declaration by the diff's own rules; written only when they differ.
          const asRead = buildOutputs(existing, args, undefined, undefined, false);
          if (!adoptionWrites(spec, args, changes(asRead, args))) {
            await claimInDashboard(spec, ctx, adoptId);
            return { id: adoptId, outs: asRead };
          }
          const updated = await spec.api.update(ctx, adoptId, args, buildOutputs(existing, args, undefined));
          await claimInDashboard(spec, ctx, adoptId);
          return { id: adoptId, outs: buildOutputs(updated.live, args, undefined, updated.extraOutputs) };
        }
        const created = await createReconciled(spec, ctx, args);
        await claimInDashboard(spec, ctx, spec.idOf(created.live));
        return {
          id: spec.idOf(created.live),
          outs: buildOutputs(created.live, args, undefined, created.extraOutputs),
        };
      } catch (error) {
        if (error instanceof PartialCreateError) {
          // The object exists: hand the engine its id and state so nothing is orphaned.
          const outs = buildOutputs(error.live, args, undefined, error.extraOutputs);
          throw Object.assign(explain(spec, "create", error.cause, args), {
            id: spec.idOf(error.live),
            properties: outs,
            reasons: [String((error.cause as Error)?.message ?? error.cause)],
          });
        }
        throw explain(spec, "create", error, args);
      } finally {
        wrote(ctx);
      }
    },

    async read(id, props) {
      const olds = migrate(props);
      // Every state this provider wrote carries the schema version; props without it come from
      // `Xxx.get(name, id)` (nothing declared, nothing stored), whose outputs are marked read-only.
      const isGet = !(SCHEMA_KEY in props) || props[READ_ONLY] === true;
      const live = await readLive(context(), id, olds).catch((error) => {
        throw explain(spec, "read", error, olds);
      });
      if (live === undefined) {
        // The engine takes an empty id from a get as success with empty outputs; say what is wrong instead.
        if (isGet) throw new Error(`${spec.kind}.get: no ${spec.title} with id ${JSON.stringify(id)} exists`);
        return { id: "" };
      }
      // A recovered object keeps its marker through a refresh until an update has converged it.
      const marker = olds[RECOVERED] === true ? { [RECOVERED]: true } : undefined;
      if (isGet) {
        // What the object holds, as outputs; no inputs: the resource keeps the (empty) ones the
        // program registered, so a refresh shows no change of a read-only resource.
        const outs = buildOutputs(live, undefined, olds, { [READ_ONLY]: true }, false);
        // An input a declaration may leave unmanaged (a severity's rank) reads back unset: what
        // the object holds is its `current…` output.
        for (const key of inputKeys) {
          const current = outs[`current${key.charAt(0).toUpperCase()}${key.slice(1)}`];
          if (outs[key] === undefined && current !== undefined) outs[key] = current;
        }
        return { id, props: outs };
      }
      const outs = buildOutputs(live, pick(olds, inputKeys), olds, marker, false);
      return { id, props: outs, inputs: pick(outs, inputKeys) };
    },

    async update(id, olds, news) {
      const before = migrate(olds);
      const args = stripInternal(news) as Args;
      const ctx = context();
      try {
        const updated = await spec.api.update(ctx, id, args, before);
        return { outs: buildOutputs(updated.live, args, before, updated.extraOutputs) };
      } catch (error) {
        throw explain(spec, "update", error, args);
      } finally {
        wrote(ctx);
      }
    },

    async delete(id, props) {
      const ctx = context();
      try {
        await spec.api.delete(ctx, id, migrate(props));
      } catch (error) {
        if (isNotFound(error)) return; // already gone: the goal is reached
        throw explain(spec, "delete", error, props);
      } finally {
        wrote(ctx);
      }
    },
  };
}

/** How many times a create whose outcome is unknown is looked for and tried again. */
const CREATE_ATTEMPTS = 4;

/**
 * A POST that failed after it may have reached the server (connection reset, 5xx, an unreadable
 * 2xx body) is never blindly repeated: the object it may have made is looked for first (by its
 * unique name or other key) and, if found, taken over and brought to the declared configuration.
 * A create whose provider process died before the answer (killed host) is found the same way by
 * the next run, through the pending-creates journal (provider/journal.ts). No duplicates, no orphans.
 */
/**
 * With `incident:lockInDashboard`, claims a created or adopted object of a claimable kind as managed
 * externally, so the dashboard shows it is managed as code. Never in a preview (only create calls
 * it). A claim that fails does not fail the create (the object exists and is in the state): it is
 * said as a warning, and the object stays editable in the dashboard.
 */
async function claimInDashboard(spec: ResourceSpec<any>, ctx: ApiContext, id: string): Promise<void> {
  if (!spec.claimAs || !ctx.client.lockInDashboard) return;
  try {
    await ctx.client.post(
      "/v2/managed_resources",
      "lock in the dashboard",
      {
        resource_id: spec.claimId ? spec.claimId(id) : id,
        resource_type: spec.claimAs,
        annotations: { "incident.io/pulumi-incident/version": packageVersion },
      },
      // Claiming twice claims once.
      { repeatable: true },
    );
  } catch (error) {
    ctx.client.warn(
      `incident: ${spec.title} ${id} was made but not locked in the dashboard (incident:lockInDashboard): ` +
        `${(error as Error).message}; it stays editable there`,
    );
  }
}

async function createReconciled<Args extends Props>(
  spec: ResourceSpec<Args>,
  ctx: ApiContext,
  args: Args,
): Promise<Created<unknown>> {
  const key = spec.api.recoveryKey?.(args) ?? String(args.name ?? "");
  const fingerprint = createHash("sha256").update(canonicalJson(args)).digest("hex");
  const journal = new PendingCreates(ctx.client.account, spec.kind, key, fingerprint);
  const recover = async (found: unknown): Promise<Created<unknown>> => {
    // It was created: converge it (a multi-step create may have stopped half-way). If that fails,
    // the object still exists: the engine must record it (half-created), never orphan it, and the
    // next update (the engine retries half-created objects) still knows it was recovered.
    try {
      return await spec.api.update(ctx, spec.idOf(found), args, { [RECOVERED]: true });
    } catch (updateError) {
      throw new PartialCreateError(found, updateError, { [RECOVERED]: true });
    }
  };

  // Creates of this object that an earlier run sent and never saw answered (its process died).
  const interrupted = journal.interrupted();
  if (interrupted.length > 0) {
    // What existed before the first of them: every object made since is a candidate.
    const first = interrupted.reduce((a, b) => (b.entry.startedAt < a.entry.startedAt ? b : a));
    const found = spec.api.findCreated
      ? await spec.api.findCreated(ctx, args, first.entry.existedBefore)
      : undefined;
    journal.clear(interrupted);
    if (found !== undefined) return recover(found);
  }

  const existedBefore = await spec.api.existingIds?.(ctx, args);
  for (let attempt = 1; ; attempt++) {
    const pending = journal.begin(existedBefore);
    try {
      const created = await spec.api.create(ctx, args);
      pending.settled();
      return created;
    } catch (error) {
      const unknownOutcome = error instanceof ApiError && error.outcomeUnknown;
      if (!unknownOutcome) {
        pending.settled();
        throw await explainConflict(spec, ctx, args, error);
      }
      // Outcome unknown: the entry stays until the object is found or known not to exist, so a
      // run that dies from here on still leaves the next one a trace.
      if (!spec.api.findCreated || attempt >= CREATE_ATTEMPTS) throw error;
      const found = await spec.api.findCreated(ctx, args, existedBefore).catch((lookup) => {
        throw lostThenLookup(error as ApiError, lookup);
      });
      pending.settled();
      if (found !== undefined) return recover(found);
    }
  }
}

/**
 * A create refused because an object with the same unique name exists (409, or a 422 saying it
 * "already exists"): names the existing object's id, to adopt it (`adoptId`) if it is this stack's
 * (a run interrupted where no journal was kept: another machine) or to rename or delete it.
 */
async function explainConflict<Args extends Props>(
  spec: ResourceSpec<Args>,
  ctx: ApiContext,
  args: Args,
  error: unknown,
): Promise<unknown> {
  if (!(error instanceof ApiError) || !spec.api.findCreated) return error;
  const exists =
    error.status === 409 || (error.status === 422 && /already exist|taken|unique/i.test(error.message));
  if (!exists) return error;
  const found = await spec.api.findCreated(ctx, args).catch(() => undefined);
  if (found === undefined) return error;
  const id = spec.idOf(found);
  return new ApiError({
    ...error.init,
    details: [...error.details, { code: "adopt_hint", message: adoptHint(spec, id) }],
  });
}

function adoptHint(spec: ResourceSpec, id: string): string {
  return (
    `If it is this stack's (a run that was interrupted on another machine made it), set ` +
    `\`adoptId: "${id}"\` on this ${spec.kind} to take it over; otherwise rename one of them or delete it.`
  );
}

/** Schema validation with failures named by the user's input path (`checkInputsAndWarnings`). */
export function checkInputs(spec: ResourceSpec, raw: Props): CheckFailure[] {
  return checkInputsAndWarnings(spec, raw).failures;
}

/** `kind "name"` (or the kind alone), as check warnings name a resource. */
function resourceName(spec: ResourceSpec, raw: Props): string {
  return typeof raw.name === "string" && raw.name !== ""
    ? `${spec.kind} ${JSON.stringify(raw.name)}`
    : spec.kind;
}

const warningText = (w: CheckWarning) => ({ text: `${formatPath(w.path) || "inputs"}: ${w.message}` });

/**
 * Schema validation with failures named by the user's input path, and the warnings of the rules
 * that have no published source (provider/checkWarnings.ts). Unknown (preview) values are skipped by
 * the schema; the cross-field rules still run on the known parts (`knownPart`).
 */
export function checkInputsAndWarnings(
  spec: ResourceSpec,
  raw: Props,
): { failures: CheckFailure[]; warnings: CheckWarning[] } {
  const unknown = unknownPaths(raw);
  const warnings: CheckWarning[] = [];
  const withWarnings = collectingWarnings(() => spec.inputs.safeParse(raw));
  const issues = withWarnings.success ? [] : withWarnings.error.issues;
  for (const issue of issues)
    if (isWarningIssue(issue) && !related(issue.path as Path, unknown))
      warnings.push({ path: issue.path as Path, message: issue.message });
  // Warnings aside, the parse as every other caller sees it (no warning issues: the data when valid).
  const result = issues.some((i) => !isWarningIssue(i)) ? withWarnings : spec.inputs.safeParse(raw);
  const failures: CheckFailure[] = [];
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = issue.path as Path;
      if (isWarningIssue(issue)) continue;
      // An issue about an unknown value, or about a container holding one, is decided at apply time.
      if (related(path, unknown)) continue;
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) {
          const full = [...path, key];
          failures.push({
            property: String(full[0]),
            reason: `${formatPath(full)}: unknown property for ${spec.kind}${suggest(key, spec)}`,
          });
        }
        continue;
      }
      const property = path.length > 0 ? String(path[0]) : spec.kind;
      failures.push({ property, reason: `${formatPath(path) || spec.kind}: ${issue.message}` });
    }
  }
  if (failures.length > 0 || !spec.validate) return { failures, warnings };
  const known =
    unknown.length === 0 && result.success ? { data: result.data, removed: [] } : knownPart(spec, raw);
  if (known === undefined) return { failures, warnings };
  for (const problem of spec.validate(known.data as Props)) {
    // Skipped only when a value the rule read is unknown (dependsOn says which: its own path, and
    // the others as precisely as it reads them), not when something else in the same field is.
    const read = [problem.path, ...(problem.dependsOn ?? [])];
    if (read.some((p) => known.removed.some((r) => (typeof p === "function" ? p(r) : touches(p, r)))))
      continue;
    if (problem.severity === "warning") {
      warnings.push({ path: problem.path, message: problem.message });
      continue;
    }
    failures.push({
      property: String(problem.path[0] ?? spec.kind),
      reason: `${formatPath(problem.path)}: ${problem.message}`,
    });
  }
  return { failures, warnings };
}

/** True when `path` is at, under, or above one of `paths`. */
function related(path: Path, paths: Path[]): boolean {
  return isUnder(path, paths) || paths.some((p) => isUnder(p, [path]));
}

/**
 * The known part of inputs that hold unknown values: each unknown value is left out (an object key
 * deleted; a list holding one as a whole), and where the schema then misses a required value the
 * enclosing object is left out too, up to the whole input. Answers the parsed known part (defaults
 * applied) and the paths left out, or undefined when nothing checkable is left.
 */
function knownPart(spec: ResourceSpec, raw: Props): { data: Props; removed: Path[] } | undefined {
  const data = structuredClone(raw);
  const removed: Path[] = [];
  const drop = (path: Path) => {
    // Leave out the nearest object key: a list element takes its whole list with it.
    let at = path.length;
    while (at > 0 && typeof path[at - 1] === "number") at--;
    const target = path.slice(0, Math.max(at, 0));
    if (target.length === 0) return false;
    const parent = target.slice(0, -1).reduce<any>((o, k) => o?.[k], data);
    if (parent && typeof parent === "object") delete parent[target[target.length - 1] as string];
    removed.push(target);
    return true;
  };
  for (const path of unknownPaths(raw)) if (!drop(path.map(asIndex))) return undefined;
  const standIns = new Map<string, number>();
  for (let round = 0; round < 32; round++) {
    const parsed = spec.inputs.safeParse(data);
    if (parsed.success) return { data: parsed.data as Props, removed };
    const issues = parsed.error.issues;
    // A problem unrelated to the unknowns: the schema already reported it (or cannot be decided here).
    if (issues.some((i) => !related(i.path as Path, removed))) return undefined;
    for (const issue of issues) {
      const p = issue.path as Path;
      // A required value that is unknown: a stand-in of its type keeps its object checkable (every
      // problem that involves it is still left out, as its path stays in `removed`).
      const key = formatPath(p);
      const parent = p.slice(0, -1).reduce<any>((o, k) => o?.[k], data);
      if (
        removed.some((r) => formatPath(r) === key) &&
        p.length > 0 &&
        parent &&
        typeof parent === "object"
      ) {
        const leaf = p[p.length - 1] as string;
        // A stand-in of the expected type; a string that fails its format tries the next candidate.
        const tried = standIns.get(key) ?? -1;
        const standIn = leaf in parent ? STRING_STAND_INS[tried + 1] : placeholder(issue);
        if (standIn !== undefined && (!(leaf in parent) || typeof parent[leaf] === "string")) {
          if (leaf in parent) standIns.set(key, tried + 1);
          parent[leaf] = standIn;
          continue;
        }
      }
      if (!drop(p.slice(0, -1))) return undefined;
    }
  }
  return undefined;
}

/** Strings tried in turn for an unknown string that must have a format (timestamp, clock, e-mail, zone). */
const STRING_STAND_INS = ["unknown", "2026-01-01T00:00:00Z", "00:00", "unknown@example.com", "UTC"];

/** A value of the type a schema issue expected (for a required value that is unknown in a preview). */
function placeholder(issue: { code: string; expected?: unknown; values?: unknown[] }): unknown {
  if (issue.code === "invalid_value" && Array.isArray(issue.values)) return issue.values[0];
  if (issue.code !== "invalid_type") return undefined;
  switch (issue.expected) {
    case "string":
      return STRING_STAND_INS[0];
    case "number":
      return 1;
    case "boolean":
      return false;
    case "array":
      return [];
    default:
      return undefined;
  }
}

const asIndex = (seg: string | number): string | number =>
  typeof seg === "string" && /^\d+$/.test(seg) ? Number(seg) : seg;

function suggest(key: string, spec: ResourceSpec): string {
  const lower = key.toLowerCase().replace(/_/g, "");
  const match = Object.keys(spec.inputs.shape).find((k) => k.toLowerCase() === lower);
  return match ? ` (did you mean "${match}"?)` : "";
}

/**
 * Rewrites an API error for the user: the resource (kind and name), the provider operation, the
 * API operation, each field as the user's input path, the request id, the attempts made and the
 * setting to check. `props`: the inputs (or state) of the resource, for its name and field renames.
 */
export function explain(spec: ResourceSpec, operation: string, error: unknown, props?: Props): Error {
  if (!(error instanceof ApiError)) return error instanceof Error ? error : new Error(String(error));
  const renames = fieldRenames(spec, props);
  const details = error.details.map((d) =>
    d.field ? { ...d, field: inputPathForApiField(d.field, renames) } : d,
  );
  const name = props?.name;
  const who = typeof name === "string" && name !== "" ? `${spec.kind} ${JSON.stringify(name)}` : spec.kind;
  const message = `${who} ${operation} failed: ${error.operation}: ${describeApiError({ ...error.init, details })}`;
  return new ApiError({ ...error.init, details }, message);
}

function fieldRenames(spec: ResourceSpec, props: Props | undefined): FieldRenames {
  if (typeof spec.fieldRenames !== "function") return spec.fieldRenames ?? {};
  try {
    return spec.fieldRenames(props ?? {});
  } catch {
    // Inputs of another shape (an older state): the fields keep their API names, camelCased.
    return {};
  }
}

/**
 * The lookup that follows a create whose answer was lost failed too: the error is the create's
 * (what the user asked for), saying its answer was lost and then what the lookup hit.
 */
function lostThenLookup(create: ApiError, lookup: unknown): unknown {
  if (!(lookup instanceof ApiError)) return lookup;
  const lost = create.details.map((d) => d.message).join("; ") || create.type;
  return new ApiError({
    ...lookup.init,
    operation: create.operation,
    outcomeUnknown: true,
    details: [
      { code: "outcome_unknown", message: `its answer was lost (${lost}); it may exist` },
      ...lookup.details.map((d) => ({ ...d, message: `then ${lookup.operation}, to find it: ${d.message}` })),
    ],
  });
}

function stripInternal(props: Props): Props {
  const { [PROVIDER_KEY]: _p, [SCHEMA_KEY]: _s, ...rest } = props;
  return rest;
}
