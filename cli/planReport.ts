/**
 * `pulumi-incident plan-report`: what a `pulumi preview --json` document (the engine's
 * PreviewDigest) really changes, for a pull request comment. Per resource the operation and every
 * nested input change old → new, compared as the provider compares (the spec's normalisation, so
 * form-only differences never show); `__provider` and secrets never printed; escalation paths drawn
 * before and after as Mermaid flowcharts; who gets paged and what opens an incident, before and
 * after; replacements and deletions first; a preview that failed or stopped said before anything.
 *
 * The document is checked first (`digestSchema`, then the parts of each kind's inputs the summaries
 * read, `READERS`): a document of another shape is refused with the step and the field
 * (`PlanInputError`), never read half-way. The Markdown is built with cli/markdown.ts's builder:
 * every piece of user text (names, descriptions, literals, ids, error messages) is escaped where it
 * enters, so none can change the comment's structure.
 */
import { z } from "zod";
import { tooDeep } from "../provider/inputs";
import type { Props } from "../provider/spec";
import { formatPath, type Path } from "../provider/unknowns";
import type { Names, PendingTarget, TargetLike } from "./describe";
import { exportedResources } from "./drift";
import { escalationFlowchart, type PagingChange, type PathNode, pagingLine, pathMarks } from "./escalation";
import { canonicalInputs, kindOf, migrated, providerOf } from "./kinds";
import {
  type Block,
  callout,
  codeList,
  count,
  details,
  fenced,
  headingBlock,
  type Inline,
  type InlineValue,
  inlineCode,
  list,
  md,
  paragraph,
  renderBlocks,
  stackLabel,
  strong,
  tableBlock,
} from "./markdown";
import { type PagedFirstReport, pagedFirstBlocks } from "./pagedFirst";
import { diffValues, inputChanges, maskChanges, type PropertyChange } from "./propertyChanges";
import { type ShiftsReport, shiftsBlocks } from "./shifts";
import { changeSummary, READERS } from "./summaries";
import { decode, UNKNOWN } from "./values";

/** The operations a report shows, in the order it shows them. */
export const OPERATIONS = ["replace", "delete", "create", "update", "import", "read"] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface ResourceChange {
  urn: string;
  /** The resource's name in the program. */
  name: string;
  /** The incident kind (`EscalationPath`), or the whole type token for other resources. */
  kind: string;
  op: Operation;
  /** replace: the inputs that cannot change in place. */
  replaceReasons?: string[];
  /** replace: the old object is deleted before the new one exists. */
  deleteBeforeReplace?: boolean;
  /** Nested input changes (values masked: secrets, unknowns). */
  changes: PropertyChange[];
  /** Who gets paged / what opens an incident, in words (alert routes, escalation paths, schedules). */
  summary?: string[];
  /** Escalation paths: who gets paged differently, per group of priorities, step by step. */
  paging?: PagingChange[];
  /** Escalation paths: Mermaid flowcharts before and after, changed nodes marked. */
  diagrams?: { before?: string; after?: string };
}

/**
 * `complete`: the engine finished the preview. `failed`: it reported errors (the steps are what it
 * planned before it stopped). `incomplete`: the document ends before the engine's summary (a
 * cancelled preview, a cut file) or the engine flags resources that may be corrupt.
 */
export type PreviewStatus = "complete" | "failed" | "incomplete";

export interface PlanReport {
  project?: string;
  stack?: string;
  status: PreviewStatus;
  /** Why the preview is not complete, in words. */
  statusReason?: string;
  /** Resources per operation, as the engine counts them (`changeSummary`). */
  counts: Record<string, number>;
  resources: ResourceChange[];
  diagnostics: { severity: string; urn?: string; message: string }[];
  /** Ids of the stack's resources in the plan as `Kind name`, and users' ids as their e-mail. */
  names: Record<string, string>;
  /** `--shifts`: the shifts that change hands and the coverage gaps, per schedule (cli/shifts.ts). */
  shifts?: ShiftsReport;
  /** `--shifts`: who is paged first, before and after, per escalation path (cli/pagedFirst.ts). */
  pagedFirst?: PagedFirstReport;
}

/** A document plan-report cannot read: says which step (index and URN) and which field. */
export class PlanInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlanInputError";
  }
}

// ---------------------------------------------------------------------------------- the document

/** Every operation `pulumi preview --json` writes (the engine's StepOp). */
const STEP_OPS = [
  "same",
  "create",
  "update",
  "delete",
  "replace",
  "create-replacement",
  "delete-replaced",
  "read",
  "read-replacement",
  "refresh",
  "discard",
  "discard-replaced",
  "remove-pending-replace",
  "import",
  "import-replacement",
] as const;

const OP_OF: Partial<Record<(typeof STEP_OPS)[number], Operation>> = {
  create: "create",
  update: "update",
  delete: "delete",
  replace: "replace",
  "create-replacement": "replace",
  "delete-replaced": "replace",
  import: "import",
  "import-replacement": "import",
  read: "read",
  "read-replacement": "read",
};

/** The states each operation needs: what the report reads to say what it changes. */
const NEEDS: Partial<Record<(typeof STEP_OPS)[number], ("oldState" | "newState")[]>> = {
  create: ["newState"],
  update: ["oldState", "newState"],
  replace: ["oldState", "newState"],
  delete: ["oldState"],
  "create-replacement": ["newState"],
  "delete-replaced": ["oldState"],
  import: ["newState"],
  "import-replacement": ["newState"],
  read: ["newState"],
  "read-replacement": ["newState"],
};

interface UrnParts {
  stack: string;
  project: string;
  /** The resource's own type (the last of a parent chain `a$b`). */
  type: string;
  name: string;
}

/** `urn:pulumi:STACK::PROJECT::TYPE::NAME` (the name may itself hold `::`). */
function urnParts(urn: string): UrnParts | undefined {
  if (!urn.startsWith("urn:pulumi:")) return undefined;
  const parts = urn.slice("urn:pulumi:".length).split("::");
  if (parts.length < 4 || parts[2] === "") return undefined;
  return {
    stack: parts[0]!,
    project: parts[1]!,
    type: parts[2]!.split("$").pop()!,
    name: parts.slice(3).join("::"),
  };
}

const props = z.record(z.string(), z.unknown());
const stateSchema = z.object({
  urn: z.string().nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  inputs: props.nullish(),
  outputs: props.nullish(),
  propertyDependencies: z.record(z.string(), z.array(z.string()).nullish()).nullish(),
});
type DigestState = z.infer<typeof stateSchema>;

const stepSchema = z
  .object({
    op: z.enum(STEP_OPS),
    urn: z
      .string()
      .refine((u) => urnParts(u) !== undefined, "not a Pulumi URN (urn:pulumi:STACK::PROJECT::TYPE::NAME)"),
    oldState: stateSchema.nullish(),
    newState: stateSchema.nullish(),
    replaceReasons: z.array(z.string()).nullish(),
  })
  .superRefine((s, ctx) => {
    for (const side of NEEDS[s.op] ?? [])
      if (!s[side])
        ctx.addIssue({ code: "custom", path: [side], message: `the ${s.op} step has no ${side}` });
    const type = urnParts(s.urn)?.type;
    const declared = s.newState?.type;
    if (type && declared && declared !== type)
      ctx.addIssue({
        code: "custom",
        path: ["newState", "type"],
        message: `${JSON.stringify(declared)} is not the type the URN names (${JSON.stringify(type)})`,
      });
  });
type DigestStep = z.infer<typeof stepSchema>;

/** The parts of a PreviewDigest plan-report reads. */
const digestSchema = z.object({
  steps: z.array(stepSchema).nullish(),
  diagnostics: z
    .array(
      z.object({
        severity: z.string().nullish(),
        urn: z.string().nullish(),
        message: z.string().nullish(),
      }),
    )
    .nullish(),
  changeSummary: z.record(z.string(), z.number().int().nonnegative()).nullish(),
  maybeCorrupt: z.boolean().nullish(),
});
type Digest = z.infer<typeof digestSchema>;

/** Text from the document in a one-line error message: line breaks and controls as JSON escapes. */
const oneLineText = (text: string) => JSON.stringify(text).slice(1, -1);

/** Where in the document: `steps[3] (urn:…) newState.inputs.path[0]`. */
function where(doc: unknown, path: Path): string {
  const steps = (doc as { steps?: unknown })?.steps;
  if (path[0] === "steps" && typeof path[1] === "number") {
    const urn = Array.isArray(steps) ? (steps[path[1]] as { urn?: unknown } | undefined)?.urn : undefined;
    const field = formatPath(path.slice(2));
    return `steps[${path[1]}]${typeof urn === "string" ? ` (${oneLineText(urn)})` : ""}${field ? ` ${oneLineText(field)}` : ""}`;
  }
  return formatPath(path) || "the document";
}

/**
 * The innermost problem of an issue: a part that may be unknown or secret (`maybe`) is a union of
 * the part's schema and those; its first branch says what is wrong inside the part.
 */
function innermost(issue: z.core.$ZodIssue, at: Path = []): { path: Path; message: string } {
  const path = [...at, ...(issue.path as Path)];
  if (issue.code === "invalid_union") {
    const inner = issue.errors[0]?.[0];
    if (inner) return innermost(inner, path);
  }
  return { path, message: issue.message };
}

function refused(what: string, doc: unknown, error: z.ZodError): PlanInputError {
  const problems = error.issues.slice(0, 5).map((i) => {
    const { path, message } = innermost(i);
    return `${where(doc, path)}: ${message}`;
  });
  const more = error.issues.length > 5 ? ` (and ${count(error.issues.length - 5, "more problem")})` : "";
  return new PlanInputError(`${what}: ${problems.join("; ")}${more}`);
}

function readDigest(doc: unknown): Digest {
  const what = "not a `pulumi preview --json` document";
  if (!doc || typeof doc !== "object" || Array.isArray(doc))
    throw new PlanInputError(`${what}: it is not a JSON object`);
  const record = doc as Record<string, unknown>;
  if (!("steps" in record) && !("diagnostics" in record) && !("changeSummary" in record))
    throw new PlanInputError(`${what}: it has no \`steps\` list`);
  const parsed = digestSchema.safeParse(doc);
  if (!parsed.success) throw refused(what, doc, parsed.error);
  (parsed.data.steps ?? []).forEach((s, i) => {
    for (const side of ["oldState", "newState"] as const)
      for (const field of ["inputs", "outputs"] as const) {
        const deep = tooDeep(s[side]?.[field]);
        if (deep)
          throw new PlanInputError(
            `${what}: ${where(doc, ["steps", i, side, field, ...deep])}: nested too deep to read`,
          );
      }
  });
  return parsed.data;
}

const exportSchema = z.array(
  z.object({
    urn: z.string(),
    type: z.string().nullish(),
    id: z.string().nullish(),
    delete: z.boolean().nullish(),
    outputs: props.nullish(),
  }),
);

/** The resources of a `pulumi stack export` (`--state`), checked as far as the report reads them. */
function readState(state: unknown): z.infer<typeof exportSchema> {
  const what = "--state: not a `pulumi stack export` document";
  let resources: unknown;
  try {
    resources = exportedResources(state);
  } catch (error) {
    throw new PlanInputError(`--state: ${(error as Error).message}`);
  }
  const parsed = exportSchema.safeParse(resources);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [index, ...field] = issue.path as Path;
    const urn = (resources as { urn?: unknown }[])[index as number]?.urn;
    throw new PlanInputError(
      `${what}: deployment.resources[${String(index)}]${typeof urn === "string" ? ` (${oneLineText(urn)})` : ""}${field.length ? ` ${oneLineText(formatPath(field))}` : ""}: ${issue.message}`,
    );
  }
  parsed.data.forEach((r, i) => {
    if (tooDeep(r.outputs))
      throw new PlanInputError(
        `${what}: deployment.resources[${i}] (${oneLineText(r.urn)}) outputs: nested too deep to read`,
      );
  });
  return parsed.data;
}

// ---------------------------------------------------------------------------------- the report

/**
 * Reads a PreviewDigest (the parsed JSON of `pulumi preview --json`). `state` (a `pulumi stack
 * export`, optional) names the ids of resources the plan leaves unchanged too (the digest lists
 * only those it changes). Throws PlanInputError for a document of another shape.
 */
/**
 * The names of ids the plan and the state do not give, looked up by the caller in the account
 * (`plan-report --resolve`): users as their e-mail, schedules as their name.
 */
export type AccountNames = Record<string, string>;

/** Who a target names, by its id: what `--resolve` looks up. */
export interface UnnamedTarget {
  type: "user" | "schedule";
  id: string;
}

/** The users and schedules that the plan's resources target and that neither the plan nor the state names. */
export function unnamedTargets(
  digest: unknown,
  state?: unknown,
  options: { scheduleUsers?: boolean } = {},
): UnnamedTarget[] {
  const d = readDigest(digest);
  const steps = d.steps ?? [];
  const known = knownNames(steps, state === undefined ? [] : readState(state), {});
  const found = new Map<string, UnnamedTarget>();
  const unnamed = (type: UnnamedTarget["type"], id: unknown) => {
    if (typeof id === "string" && id !== UNKNOWN && !known.has(id)) found.set(id, { type, id });
  };
  eachObject(
    steps.filter((s) => kindOf(typeOf(s))).flatMap((s) => [s.oldState?.inputs, s.newState?.inputs]),
    (o) => {
      if (o.type === "user" || o.type === "schedule") unnamed(o.type, o.id);
    },
  );
  // --shifts: the people of the schedules and overrides the plan changes (shown where the service
  // does not name them: shifts computed here).
  if (options.scheduleUsers)
    for (const s of steps)
      for (const inputs of [s.oldState?.inputs, s.newState?.inputs]) {
        const kind = kindOf(typeOf(s));
        if (kind === "ScheduleOverride") unnamed("user", (inputs?.user as Props | undefined)?.id);
        if (kind === "Schedule")
          eachObject([inputs?.rotations], (o) => {
            if (Array.isArray(o.users)) for (const u of o.users) unnamed("user", (u as Props | null)?.id);
          });
      }
  return [...found.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** Ids' names; later sources win: a resource of the plan over one of the state over a user over the account's. */
function knownNames(
  steps: DigestStep[],
  exported: z.infer<typeof exportSchema>,
  account: AccountNames,
): Map<string, string> {
  return new Map([
    ...Object.entries(account),
    ...usersOf(exported.filter((r) => r.type && kindOf(r.type)).map((r) => r.outputs)),
    ...usersOf(
      steps.filter((s) => kindOf(typeOf(s))).flatMap((s) => [s.oldState?.outputs, s.newState?.outputs]),
    ),
    ...stateNames(exported),
    ...namesOf(steps),
  ]);
}

/** A resource of this provider as the plan changes it: its inputs decoded (secrets masked), `__provider` left out. */
export interface PlannedResource {
  urn: string;
  name: string;
  kind: string;
  op: Operation;
  /** The object's id before the change (update, replace, delete). */
  id?: string;
  olds?: Props;
  news?: Props;
  /** The stored outputs before the change. */
  oldOutputs?: Props;
  /** URNs the new inputs depend on. */
  dependsOn: string[];
}

/** The resources of this provider the plan changes, in the document's order (one per URN). */
export function plannedResources(digest: unknown): PlannedResource[] {
  const steps = readDigest(digest).steps ?? [];
  const out = new Map<string, PlannedResource>();
  for (const s of steps) {
    const op = OP_OF[s.op];
    const kind = kindOf(typeOf(s));
    if (!op || !kind) continue;
    const read = (state: DigestState | null | undefined, field: "inputs" | "outputs") =>
      state?.[field] ? (decode(withoutProvider(state[field])) as Props) : undefined;
    const known = out.get(s.urn);
    const id = s.oldState?.id && s.oldState.id !== UNKNOWN ? s.oldState.id : undefined;
    out.set(s.urn, {
      urn: s.urn,
      name: nameOf(s.urn),
      kind,
      op: known?.op === "replace" ? "replace" : op,
      ...((id ?? known?.id) ? { id: id ?? known?.id } : {}),
      olds: read(s.oldState, "inputs") ?? known?.olds,
      news: (op !== "delete" ? read(s.newState, "inputs") : undefined) ?? known?.news,
      oldOutputs: read(s.oldState, "outputs") ?? known?.oldOutputs,
      dependsOn: [
        ...new Set([
          ...(known?.dependsOn ?? []),
          ...Object.values(s.newState?.propertyDependencies ?? {}).flatMap((d) => d ?? []),
        ]),
      ],
    });
  }
  return [...out.values()];
}

/** The resources of this provider a `pulumi stack export` holds: kind, name, id and outputs. */
export function stateResources(state: unknown): { kind: string; name: string; id: string; outputs: Props }[] {
  return readState(state).flatMap((r) => {
    const kind = r.type ? kindOf(r.type) : undefined;
    return kind && r.id && !r.delete
      ? [{ kind, name: nameOf(r.urn), id: r.id, outputs: (decode(r.outputs ?? {}) as Props) ?? {} }]
      : [];
  });
}

export function planReport(digest: unknown, state?: unknown, account: AccountNames = {}): PlanReport {
  const d = readDigest(digest);
  const steps = d.steps ?? [];
  const exported = state === undefined ? [] : readState(state);
  const known = knownNames(steps, exported, account);
  const byId: Record<string, string> = Object.fromEntries(known);
  const names: Names = (id) => known.get(id);
  const planned = new Map<string, { step: DigestStep; index: number }[]>();
  steps.forEach((s, index) => {
    if (!OP_OF[s.op] || isEngineResource(s)) return;
    planned.set(s.urn, [...(planned.get(s.urn) ?? []), { step: s, index }]);
  });
  const resources = [...planned.values()].map((group) => {
    try {
      return resourceChange(group, names, steps);
    } catch (error) {
      if (error instanceof PlanInputError) throw error;
      // Not expected past the checks above: still one line naming the step, never a stack.
      const { step, index } = group[0]!;
      throw new PlanInputError(
        `could not read steps[${index}] (${oneLineText(step.urn)}): ${oneLineText(String((error as Error)?.message ?? error))}`,
      );
    }
  });
  resources.sort((a, b) => OPERATIONS.indexOf(a.op) - OPERATIONS.indexOf(b.op) || a.urn.localeCompare(b.urn));
  const urn = steps.map((s) => urnParts(s.urn)).find((u) => u !== undefined);
  const diagnostics = (d.diagnostics ?? [])
    .filter((x) => x.severity === "error" || x.severity === "warning")
    .map((x) => ({
      severity: x.severity!,
      ...(x.urn ? { urn: x.urn } : {}),
      message: clean(x.message ?? ""),
    }));
  const errors = diagnostics.filter((x) => x.severity === "error").length;
  const [status, statusReason]: [PreviewStatus, string | undefined] =
    errors > 0
      ? ["failed", `the engine reported ${count(errors, "error")}`]
      : !d.changeSummary
        ? ["incomplete", "the document ends before the engine's summary (a cancelled preview, or a cut file)"]
        : d.maybeCorrupt
          ? ["incomplete", "the engine says some resources may be corrupt"]
          : ["complete", undefined];
  return {
    project: urn?.project,
    stack: urn?.stack,
    status,
    ...(statusReason ? { statusReason } : {}),
    counts: { ...(d.changeSummary ?? {}) },
    resources,
    names: byId,
    diagnostics,
  };
}

function typeOf(s: DigestStep): string {
  return s.newState?.type ?? s.oldState?.type ?? urnParts(s.urn)?.type ?? "";
}

function isEngineResource(s: DigestStep): boolean {
  const type = typeOf(s);
  return type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:");
}

const nameOf = (urn: string) => urnParts(urn)?.name ?? urn;

/** Ids of the stack's resources as `Kind name`, from the steps' states. */
function namesOf(steps: DigestStep[]): Map<string, string> {
  const byId = new Map<string, string>();
  for (const s of steps) {
    for (const state of [s.oldState, s.newState]) {
      if (state?.id && state.id !== UNKNOWN) byId.set(state.id, label(s));
    }
  }
  return byId;
}

/** Ids of a stack export's resources as `Kind name`. */
function stateNames(resources: z.infer<typeof exportSchema>): Map<string, string> {
  const byId = new Map<string, string>();
  for (const r of resources)
    if (r.id && r.type && !r.delete) byId.set(r.id, `${kindOf(r.type) ?? r.type} ${nameOf(r.urn)}`);
  return byId;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Users' ids as their e-mail (how programs name them: `getUser({ email })`), from every user object
 * (an `id` and an `email`) that outputs in the plan or the state hold: an escalation path's
 * `currentResponders`, for one. The preview document itself keeps no lookup's result: a lookup's
 * answer reaches it only as the id a resource's input holds.
 */
function usersOf(outputs: (Props | null | undefined)[]): Map<string, string> {
  const byId = new Map<string, string>();
  eachObject(outputs, (o) => {
    if (typeof o.id === "string" && typeof o.email === "string" && EMAIL.test(o.email) && o.id !== UNKNOWN)
      byId.set(o.id, o.email);
  });
  return byId;
}

/** Calls `visit` on every object inside `values`, at any depth (arrays walked through). */
function eachObject(values: readonly unknown[], visit: (o: Record<string, unknown>) => void): void {
  const stack: unknown[] = [...values];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === "object") {
      visit(v as Record<string, unknown>);
      stack.push(...Object.values(v));
    }
  }
}

const label = (s: DigestStep) => {
  const type = typeOf(s);
  return `${kindOf(type) ?? type} ${nameOf(s.urn)}`;
};

/** The engine's display markup (`<{%reset%}>`) out of diagnostics. */
const clean = (text: string) => text.replace(/<\{%[^%]*%\}>/g, "").trim();

/** A reader's problem with a side's inputs: the step, the field. */
function readerError(index: number, urn: string, side: string, error: z.ZodError): PlanInputError {
  const { path, message } = innermost(error.issues[0]!);
  return new PlanInputError(
    `not a \`pulumi preview --json\` document: steps[${index}] (${oneLineText(urn)}) ${oneLineText(formatPath([side, "inputs", ...path]))}: ${message}`,
  );
}

function resourceChange(
  group: { step: DigestStep; index: number }[],
  names: Names,
  all: DigestStep[],
): ResourceChange {
  const { step, index } = group.find((s) => s.step.op === "replace") ?? group[0]!;
  const op = OP_OF[step.op]!;
  const type = typeOf(step);
  const provider = providerOf(type);
  const spec = provider?.spec;
  const change: ResourceChange = {
    urn: step.urn,
    name: nameOf(step.urn),
    kind: kindOf(type) ?? type,
    op,
    changes: [],
  };
  if (op === "replace") {
    change.replaceReasons = [...new Set(group.flatMap((s) => s.step.replaceReasons ?? []))].sort();
    if (spec) change.deleteBeforeReplace = spec.deleteBeforeReplace === true;
  }
  const secretPaths: Path[] = [];
  const read = (state: DigestState | null | undefined, field: "inputs" | "outputs") =>
    state?.[field] ? (decode(withoutProvider(state[field]), secretPaths) as Props) : undefined;
  const olds = read(step.oldState, "inputs");
  const news = read(step.newState, "inputs");
  if (!provider || !spec) {
    // Another provider's resource: its inputs compared as they are (no rules known for them).
    if (op !== "delete") change.changes = maskChanges(diffValues(olds ?? {}, news ?? {}), secretPaths);
    return change;
  }
  const before =
    olds && op !== "create" ? migrated(spec, olds, step.oldState?.outputs ?? undefined) : undefined;
  const after = news && op !== "delete" ? news : undefined;
  // What the summaries read must have the shape they read: checked before they read it.
  const reader = READERS[change.kind];
  if (reader) {
    for (const [side, value] of [
      ["oldState", before],
      ["newState", after],
    ] as const) {
      const checked = value && reader.safeParse(value);
      if (checked && !checked.success) throw readerError(index, step.urn, side, checked.error);
    }
  }
  // The provider's diff compares the stored outputs (the inputs as read back, and the schema
  // version) with the new inputs, as the engine hands them to it; the report shows declared values.
  const stored = read(step.oldState, "outputs") ?? before;
  if (before && after && stored) change.changes = inputChanges(provider, stored, after, secretPaths, before);
  else if (after) change.changes = inputChanges(provider, {}, after, secretPaths);
  if (!reader) return change;
  const describe = {
    names,
    pendingTarget: (t: TargetLike) => pendingTarget(t, step, all),
  };
  // The canonical form decides what changed; one the reader cannot take is the declared form.
  const canonical = (value: Props | undefined) => {
    if (!value) return undefined;
    const canon = canonicalInputs(spec, value);
    return reader.safeParse(canon).success ? canon : value;
  };
  const canonBefore = canonical(before);
  const canonAfter = canonical(after);
  const summary = changeSummary(
    change.kind,
    { before: canonBefore, after: canonAfter },
    { before, after },
    describe,
  );
  if (summary && summary.lines.length > 0) change.summary = summary.lines;
  if (summary?.paging?.length) change.paging = summary.paging;
  if (change.kind === "EscalationPath" || change.kind === "EscalationPathTemplate")
    change.diagrams = diagrams(canonBefore, canonAfter, describe);
  return change;
}

function diagrams(
  before: Props | undefined,
  after: Props | undefined,
  describe: Parameters<typeof escalationFlowchart>[2],
): ResourceChange["diagrams"] {
  const oldPath = before?.path as PathNode[] | undefined;
  const newPath = after?.path as PathNode[] | undefined;
  const marks = pathMarks(oldPath, newPath);
  // A path the document does not show (unknown, secret) is not drawn, nor a templated path (its
  // nodes are its template's).
  const drawn = (side: Props | undefined, p: unknown) => Array.isArray(p) && side?.kind !== "templated";
  return {
    ...(before && drawn(before, oldPath)
      ? { before: escalationFlowchart(oldPath, marks.before, describe) }
      : {}),
    ...(after && drawn(after, newPath) ? { after: escalationFlowchart(newPath, marks.after, describe) } : {}),
  };
}

/**
 * A target whose id is known only after apply: the one resource of the target's kind that this
 * input depends on and that the plan creates or replaces (its id is what is unknown).
 */
function pendingTarget(t: TargetLike, step: DigestStep, all: DigestStep[]): PendingTarget | undefined {
  const wanted = t.type === "schedule" ? "Schedule" : t.type === "user" ? "User" : undefined;
  if (!wanted) return undefined;
  const deps = new Set(Object.values(step.newState?.propertyDependencies ?? {}).flatMap((d) => d ?? []));
  const candidates = all.filter(
    (s) =>
      deps.has(s.urn) &&
      kindOf(typeOf(s)) === wanted &&
      ["create", "replace", "create-replacement"].includes(s.op),
  );
  const unique = [...new Set(candidates.map((s) => s.urn))];
  if (unique.length !== 1) return undefined;
  const s = candidates[0]!;
  return {
    who: label(s),
    note: `${s.op === "create" ? "new" : "the replacement"}, id known after apply`,
  };
}

function withoutProvider(inputs: Props): Props {
  const { __provider: _p, ...rest } = inputs;
  return rest;
}

// ---------------------------------------------------------------------------------- Markdown

const SYMBOL: Record<Operation, Inline> = {
  replace: md`±`,
  delete: md`−`,
  create: md`+`,
  update: md`~`,
  import: md`=`,
  read: md`>`,
};

/** Values longer than this (as JSON on one line) are shown whole below their table, collapsed. */
const INLINE_VALUE = 120;

const who = (r: ResourceChange) => md`${r.kind} ${inlineCode(r.name)}`;

export interface MarkdownOptions {
  /**
   * The longest Markdown wanted (a GitHub comment holds 65,536 characters): a longer report drops
   * its diagrams, long values and whole messages and shows at most 20 changes per resource, then
   * leaves out whole resource sections from the end, then cuts the rest block by block, saying so;
   * every version is well-formed Markdown. The JSON report stays complete.
   */
  maxLength?: number;
}

const SHORT_ROWS = 20;

interface RenderOptions {
  rows: number;
  /** Diagrams, long values, whole messages. */
  optional: boolean;
  note?: Inline;
}

/** The report as Markdown for a pull request comment (GitHub renders the Mermaid blocks). */
export function planReportMarkdown(report: PlanReport, options: MarkdownOptions = {}): string {
  const full = renderBlocks(blocksOf(report, { rows: Number.POSITIVE_INFINITY, optional: true }));
  const max = options.maxLength;
  if (max === undefined || full.length <= max) return full;
  const note = md`_Shortened to fit: escalation diagrams left out, long values and whole messages too, and long change lists cut; the JSON report (\`--json\`) has everything._`;
  const blocks = blocksOf(report, { rows: SHORT_ROWS, optional: false, note });
  const short = renderBlocks(blocks);
  if (short.length <= max) return short;
  // Whole resource sections from the end, until it fits.
  const sections = new Set(blocks.flatMap((b) => (b.tag?.resource === undefined ? [] : [b.tag.resource])));
  for (let keep = sections.size - 1; keep >= 0; keep--) {
    const left = sections.size - keep;
    const kept = blocks.filter((b) => b.tag?.resource === undefined || b.tag.resource < keep);
    const text = renderBlocks([
      ...kept,
      paragraph(md`_…and ${count(left, "more resource")} left out (see the JSON report)._`),
    ]);
    if (text.length <= max) return text;
  }
  // Then whatever fits of the rest, block by block (a list, a call-out or a table line by line).
  const end = paragraph(md`_…cut to fit (see the JSON report)._`);
  const budget = max - renderBlocks([end]).length - 2;
  const out: Block[] = [];
  let used = 0;
  for (const b of blocks.filter((x) => x.tag?.resource === undefined)) {
    const size = b.lines.join("\n").length + 2;
    if (used + size <= budget) {
      out.push(b);
      used += size;
      continue;
    }
    if (!b.atomic) {
      const lines: string[] = [];
      let length = 2;
      for (const line of b.lines) {
        if (used + length + line.length + 1 > budget) break;
        lines.push(line);
        length += line.length + 1;
      }
      if (lines.length >= (b.keep ?? 1)) out.push({ ...b, lines });
    }
    break;
  }
  return renderBlocks([...out, end]);
}

function blocksOf(report: PlanReport, options: RenderOptions): Block[] {
  const out: Block[] = [];
  const stack = stackLabel(report);
  const place = stack ? md` for ${stack}` : md``;
  const title =
    report.status === "failed"
      ? md`Preview failed${place}`
      : report.status === "incomplete"
        ? md`Incomplete preview${place}`
        : md`Plan${place}`;
  out.push(headingBlock(2, title));
  if (options.note) out.push(paragraph(options.note));
  if (report.status !== "complete") {
    const errors = report.diagnostics.filter((d) => d.severity === "error").length;
    out.push(
      callout("CAUTION", [
        report.status === "failed"
          ? md`**\`pulumi preview\` failed** (${count(errors, "error")}, below): what follows is only what the engine planned before it stopped, not the whole change. Fix the errors and preview again before merging.`
          : md`**The preview is incomplete**: ${report.statusReason ?? ""}. What follows may not be the whole change.`,
      ]),
    );
  }
  const counted = (["replace", "update", "create", "delete", "import", "read"] as const)
    .map((op) => [op, report.counts[op] ?? report.resources.filter((r) => r.op === op).length] as const)
    .filter(([, n]) => n > 0)
    .map(([op, n]) => `${n} to ${op}`);
  const same = report.counts.same ?? 0;
  const prefix =
    report.status === "failed"
      ? "Planned before the failure: "
      : report.status === "incomplete"
        ? "In the document: "
        : "";
  out.push(
    paragraph(
      counted.length
        ? md`**${prefix}${counted.join(" · ")}**${same ? md` · ${same} unchanged` : md``}`
        : md`**${report.status === "complete" ? "No changes" : `${prefix}no changes`}**${same ? md` (${count(same, "resource")} unchanged)` : md``}`,
    ),
  );

  const replaced = report.resources.filter((r) => r.op === "replace");
  const deleted = report.resources.filter((r) => r.op === "delete");
  if (replaced.length || deleted.length) {
    const entries: Inline[] = [];
    for (const r of replaced) {
      const why = r.replaceReasons?.length
        ? md`${codeList(r.replaceReasons)} cannot change in place`
        : md`replaced`;
      const order =
        r.deleteBeforeReplace === true
          ? md`the old object is deleted **before** the new one is created`
          : md`the new object is created before the old one is deleted; its id changes`;
      entries.push(md`**Replaced:** ${who(r)} — ${why}; ${order}.`);
    }
    for (const r of deleted) entries.push(md`**Deleted:** ${who(r)} — removed from the account.`);
    out.push(callout("WARNING", entries));
  }

  // A failed preview's errors come before anything it planned.
  if (report.status === "failed") out.push(...diagnosticBlocks(report, options));

  const summarised = report.resources.filter((r) => r.summary?.length);
  if (summarised.length) {
    out.push(headingBlock(3, md`Who gets paged, what opens an incident`));
    for (const r of summarised) {
      out.push(paragraph(md`${strong(who(r))} (${r.op})`));
      const paged = new Set(r.paging?.map(pagingLine));
      out.push(
        list([
          ...(r.paging ?? []).map((p) => ({ item: md`${p.who}:`, sub: p.steps })),
          ...r.summary!.filter((line) => !paged.has(line)),
        ]),
      );
    }
  }

  if (report.shifts) out.push(...shiftsBlocks(report.shifts, options.optional));
  if (report.pagedFirst) out.push(...pagedFirstBlocks(report.pagedFirst));

  if (report.resources.length) out.push(headingBlock(3, md`Changes`));
  report.resources.forEach((r, i) => {
    const tag = { resource: i };
    const reasons = r.replaceReasons?.length ? md` (${codeList(r.replaceReasons)})` : md``;
    out.push(headingBlock(4, md`${SYMBOL[r.op]} ${who(r)} — ${r.op}${reasons}`, tag));
    if (r.op !== "delete" && r.changes.length) {
      const long: Block[] = [];
      const value = (c: PropertyChange, side: "old" | "new", title: string): InlineValue => {
        if (!(side in c)) return "—";
        const json = JSON.stringify(c[side]) ?? "null";
        const name =
          typeof c[side] === "string" && Object.hasOwn(report.names, c[side])
            ? report.names[c[side]]
            : undefined;
        if (json.length <= INLINE_VALUE) return md`${inlineCode(json)}${name ? md` (${name})` : md``}`;
        if (!options.optional) return md`_${count(json.length, "character")}: see the JSON report_`;
        long.push(longValue(c, side, title, report.names));
        return md`_${count(json.length, "character")}, below_`;
      };
      const rows = r.changes
        .slice(0, options.rows)
        .map((c) => [inlineCode(c.at || "(all)"), value(c, "old", "before"), value(c, "new", "after")]);
      out.push(tableBlock([md`Property`, md`Before`, md`After`], rows, tag));
      out.push(...long.map((b) => ({ ...b, tag: { ...tag, optional: true } })));
      const more = r.changes.length - rows.length;
      if (more > 0) out.push(paragraph(md`_…and ${count(more, "more change")}._`, tag));
    } else if (r.op === "update") out.push(paragraph(md`No input changes after normalisation.`, tag));
    if (r.diagrams && options.optional) {
      for (const side of ["before", "after"] as const) {
        const chart = r.diagrams[side];
        if (!chart) continue;
        out.push(
          details([`Escalation path ${side}`], [fenced("mermaid", chart)], side === "after", {
            ...tag,
            optional: true,
          }),
        );
      }
    }
  });

  if (report.status !== "failed") out.push(...diagnosticBlocks(report, options));
  return out;
}

/** A value too long for its cell, whole, collapsed; the ids in it named. */
function longValue(
  c: PropertyChange,
  side: "old" | "new",
  title: string,
  names: Record<string, string>,
): Block {
  const value = c[side];
  const text = JSON.stringify(value, null, 2) ?? "null";
  const ids = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === "string" && Object.hasOwn(names, v)) ids.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(value);
  const named = [...ids].map((id) => md`${inlineCode(id)}: ${names[id]!}`);
  return details(
    [{ code: c.at || "(all)" }, ` ${title} (${text.split("\n").length} lines)`],
    [fenced("json", text), ...(named.length ? [paragraph(md`Ids in it:`), list(named)] : [])],
  );
}

function diagnosticBlocks(report: PlanReport, options: RenderOptions): Block[] {
  if (report.diagnostics.length === 0) return [];
  const errors = report.diagnostics.filter((d) => d.severity === "error").length;
  const title = errors ? md`Errors and warnings` : md`Warnings`;
  const subject = (d: PlanReport["diagnostics"][number]) =>
    d.urn ? md` ${inlineCode(nameOf(d.urn))}` : md``;
  const longer = report.diagnostics.filter((d) => d.message.includes("\n"));
  return [
    headingBlock(3, title),
    list(
      report.diagnostics.map(
        (d) =>
          md`**${d.severity}**${subject(d)}: ${d.message.split("\n")[0] ?? ""}${d.message.includes("\n") ? (options.optional ? md` _(whole message below)_` : md` _(whole message in the JSON report)_`) : md``}`,
      ),
    ),
    ...(options.optional && longer.length
      ? [
          details(
            [`Whole messages (${longer.length})`],
            longer.flatMap((d) => [
              paragraph(md`**${d.severity}**${subject(d)}:`),
              fenced("text", d.message),
            ]),
            report.status === "failed",
            { optional: true },
          ),
        ]
      : []),
  ];
}
