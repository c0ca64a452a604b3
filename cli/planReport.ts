/**
 * `pulumi-incident plan-report`: what a `pulumi preview --json` document (the engine's
 * PreviewDigest) really changes, for a pull request comment. Per resource the operation and every
 * nested input change old → new, compared as the provider compares (the spec's normalisation, so
 * form-only differences never show); `__provider` and secrets never printed; escalation paths drawn
 * before and after as Mermaid flowcharts; who gets paged and what opens an incident, before and
 * after; replacements and deletions first.
 */
import type { Props } from "../provider/spec";
import type { Path } from "../provider/unknowns";
import type { Names, TargetLike } from "./describe";
import { exportedResources } from "./drift";
import { escalationFlowchart, type PathNode, pathMarks } from "./escalation";
import { canonicalInputs, kindOf, migrated, nameOf, providerOf } from "./kinds";
import { code, count, heading, table } from "./markdown";
import { diffValues, inline, inputChanges, maskChanges, type PropertyChange } from "./propertyChanges";
import { changeSummary } from "./summaries";
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
  /** Escalation paths: Mermaid flowcharts before and after, changed nodes marked. */
  diagrams?: { before?: string; after?: string };
}

export interface PlanReport {
  project?: string;
  stack?: string;
  /** Resources per operation, as the engine counts them (`changeSummary`). */
  counts: Record<string, number>;
  resources: ResourceChange[];
  diagnostics: { severity: string; urn?: string; message: string }[];
  /** Ids of the stack's resources in the plan, as `Kind name`. */
  names: Record<string, string>;
}

interface DigestState {
  urn?: string;
  id?: string;
  type?: string;
  inputs?: Props;
  outputs?: Props;
  propertyDependencies?: Record<string, string[]>;
}

interface DigestStep {
  op: string;
  urn: string;
  oldState?: DigestState;
  newState?: DigestState;
  replaceReasons?: string[];
  diffReasons?: string[];
}

const OP_OF: Record<string, Operation> = {
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

/**
 * Reads a PreviewDigest (the parsed JSON of `pulumi preview --json`). `state` (a `pulumi stack
 * export`, optional) names the ids of resources the plan leaves unchanged too (the digest lists
 * only those it changes).
 */
export function planReport(digest: unknown, state?: unknown): PlanReport {
  if (!digest || typeof digest !== "object" || !Array.isArray((digest as { steps?: unknown }).steps))
    throw new Error("not a `pulumi preview --json` document: it has no `steps` list");
  const d = digest as { steps: DigestStep[]; changeSummary?: Record<string, number>; diagnostics?: any[] };
  const steps = d.steps.filter((s) => s && typeof s.urn === "string" && typeof s.op === "string");
  const byId = { ...(state === undefined ? {} : stateNames(state)), ...namesOf(steps) };
  const names: Names = (id) => byId[id];
  const planned = new Map<string, DigestStep[]>();
  for (const s of steps) {
    if (!(s.op in OP_OF) || isEngineResource(s)) continue;
    planned.set(s.urn, [...(planned.get(s.urn) ?? []), s]);
  }
  const resources = [...planned.values()].map((group) => resourceChange(group, names, steps));
  resources.sort((a, b) => OPERATIONS.indexOf(a.op) - OPERATIONS.indexOf(b.op) || a.urn.localeCompare(b.urn));
  const urn = steps[0]?.urn.split("::") ?? [];
  return {
    project: urn[1],
    stack: urn[0]?.replace(/^urn:pulumi:/, ""),
    counts: { ...(d.changeSummary ?? {}) },
    resources,
    names: byId,
    diagnostics: (d.diagnostics ?? [])
      .filter((x) => x && (x.severity === "error" || x.severity === "warning"))
      .map((x) => ({ severity: String(x.severity), urn: x.urn, message: clean(String(x.message ?? "")) })),
  };
}

function isEngineResource(s: DigestStep): boolean {
  const type = s.newState?.type ?? s.oldState?.type ?? s.urn.split("::")[2] ?? "";
  return type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:");
}

/** Ids of the stack's resources as `Kind name`, from the steps' old states. */
function namesOf(steps: DigestStep[]): Record<string, string> {
  const byId: Record<string, string> = {};
  for (const s of steps) {
    for (const state of [s.oldState, s.newState]) {
      if (state?.id && state.id !== UNKNOWN) byId[state.id] = label(s);
    }
  }
  return byId;
}

/** Ids of a stack export's resources as `Kind name`. */
function stateNames(state: unknown): Record<string, string> {
  const byId: Record<string, string> = {};
  for (const r of exportedResources(state))
    if (r.id && r.type && !r.delete) byId[r.id] = `${kindOf(r.type) ?? r.type} ${nameOf(r.urn)}`;
  return byId;
}

const label = (s: DigestStep) => {
  const type = s.newState?.type ?? s.oldState?.type ?? s.urn.split("::")[2] ?? "";
  return `${kindOf(type) ?? type} ${nameOf(s.urn)}`;
};

/** The engine's display markup (`<{%reset%}>`) out of diagnostics. */
const clean = (text: string) => text.replace(/<\{%[^%]*%\}>/g, "").trim();

function resourceChange(group: DigestStep[], names: Names, all: DigestStep[]): ResourceChange {
  const step = group.find((s) => s.op === "replace") ?? group[0]!;
  const op = OP_OF[step.op]!;
  const type = step.newState?.type ?? step.oldState?.type ?? step.urn.split("::")[2] ?? "";
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
    change.replaceReasons = [...new Set(group.flatMap((s) => s.replaceReasons ?? []))].sort();
    if (spec) change.deleteBeforeReplace = spec.deleteBeforeReplace === true;
  }
  const secretPaths: Path[] = [];
  const olds = step.oldState?.inputs
    ? (decode(withoutProvider(step.oldState.inputs), secretPaths) as Props)
    : undefined;
  const news = step.newState?.inputs
    ? (decode(withoutProvider(step.newState.inputs), secretPaths) as Props)
    : undefined;
  if (!provider || !spec) {
    // Another provider's resource: its inputs compared as they are (no rules known for them).
    if (op !== "delete") change.changes = maskChanges(diffValues(olds ?? {}, news ?? {}), secretPaths);
    return change;
  }
  const before = olds && op !== "create" ? migrated(spec, olds, step.oldState?.outputs) : undefined;
  const after = news && op !== "delete" ? news : undefined;
  // The provider's diff compares the stored outputs (the inputs as read back, and the schema
  // version) with the new inputs, as the engine hands them to it; the report shows declared values.
  const stored = step.oldState?.outputs
    ? (decode(withoutProvider(step.oldState.outputs), secretPaths) as Props)
    : before;
  if (before && after && stored) change.changes = inputChanges(provider, stored, after, secretPaths, before);
  else if (after) change.changes = inputChanges(provider, {}, after, secretPaths);
  const describe = {
    names,
    pendingTarget: (t: TargetLike) => pendingTarget(t, step, all),
  };
  const canonBefore = before && canonicalInputs(spec, before);
  const canonAfter = after && canonicalInputs(spec, after);
  const summary = changeSummary(
    change.kind,
    { before: canonBefore, after: canonAfter },
    { before, after },
    describe,
  );
  if (summary && summary.length > 0) change.summary = summary;
  if (change.kind === "EscalationPath") change.diagrams = diagrams(canonBefore, canonAfter, describe);
  return change;
}

function diagrams(
  before: Props | undefined,
  after: Props | undefined,
  describe: Parameters<typeof escalationFlowchart>[2],
): ResourceChange["diagrams"] {
  const oldPath = (before?.path ?? []) as PathNode[];
  const newPath = (after?.path ?? []) as PathNode[];
  const marks = pathMarks(oldPath, newPath);
  return {
    ...(before ? { before: escalationFlowchart(oldPath, marks.before, describe) } : {}),
    ...(after ? { after: escalationFlowchart(newPath, marks.after, describe) } : {}),
  };
}

/**
 * A target whose id is known only after apply: the one resource of the target's kind that this
 * input depends on and that the plan creates or replaces (its id is what is unknown).
 */
function pendingTarget(t: TargetLike, step: DigestStep, all: DigestStep[]): string | undefined {
  const wanted = t.type === "schedule" ? "Schedule" : t.type === "user" ? "User" : undefined;
  if (!wanted) return undefined;
  const deps = new Set(Object.values(step.newState?.propertyDependencies ?? {}).flat());
  const candidates = all.filter(
    (s) =>
      deps.has(s.urn) &&
      kindOf(s.newState?.type ?? s.oldState?.type ?? "") === wanted &&
      ["create", "replace", "create-replacement"].includes(s.op),
  );
  const unique = [...new Set(candidates.map((s) => s.urn))];
  if (unique.length !== 1) return undefined;
  const s = candidates[0]!;
  return `${label(s)} (${s.op === "create" ? "new" : "the replacement"}, id known after apply)`;
}

function withoutProvider(inputs: Props): Props {
  const { __provider: _p, ...rest } = inputs;
  return rest;
}

// ---------------------------------------------------------------------------------- Markdown

const SYMBOL: Record<Operation, string> = {
  replace: "±",
  delete: "−",
  create: "+",
  update: "~",
  import: "=",
  read: ">",
};

/** A value in a table: JSON, and the resource an id names. */
function valueCell(value: unknown, names: Record<string, string>): string {
  const name = typeof value === "string" ? names[value] : undefined;
  return `${code(inline(value))}${name ? ` (${name})` : ""}`;
}

const who = (r: ResourceChange) => `${r.kind} ${code(r.name)}`;

export interface MarkdownOptions {
  /**
   * The longest Markdown wanted (a GitHub comment holds 65,536 characters): a longer report drops
   * its diagrams and shows at most 20 changes per resource, then leaves out whole resource
   * sections from the end, saying so; the JSON report stays complete.
   */
  maxLength?: number;
}

const SHORT_ROWS = 20;

/** The report as Markdown for a pull request comment (GitHub renders the Mermaid blocks). */
export function planReportMarkdown(report: PlanReport, options: MarkdownOptions = {}): string {
  const full = render(report, Number.POSITIVE_INFINITY, true);
  const max = options.maxLength;
  if (max === undefined || full.length <= max) return full;
  const note =
    "\n_Shortened to fit: escalation diagrams left out and long change lists cut; the JSON report (`--json`) has everything._\n";
  const short = render(report, SHORT_ROWS, false, note);
  if (short.length <= max) return short;
  // Whole resource sections from the end, until it fits.
  const sections = short.split(/\n(?=#### )/);
  for (let keep = sections.length - 1; keep >= 1; keep--) {
    const left = sections.length - keep;
    const text = `${sections.slice(0, keep).join("\n").trimEnd()}\n\n_…and ${count(left, "more resource")} left out (see the JSON report)._\n`;
    if (text.length <= max) return text;
  }
  return `${short.slice(0, Math.max(0, max - 80)).trimEnd()}\n\n_…cut to fit (see the JSON report)._\n`;
}

function render(report: PlanReport, rowsPerResource: number, withDiagrams: boolean, note = ""): string {
  const out: string[] = [];
  out.push(heading("Plan", report.project, report.stack), "");
  if (note) out.push(note.trim(), "");
  const counted = (["replace", "update", "create", "delete", "import", "read"] as const)
    .map((op) => [op, report.counts[op] ?? report.resources.filter((r) => r.op === op).length] as const)
    .filter(([, n]) => n > 0)
    .map(([op, n]) => `${n} to ${op}`);
  const same = report.counts.same ?? 0;
  out.push(
    counted.length
      ? `**${counted.join(" · ")}**${same ? ` · ${same} unchanged` : ""}`
      : `**No changes**${same ? ` (${count(same, "resource")} unchanged)` : ""}`,
    "",
  );

  const replaced = report.resources.filter((r) => r.op === "replace");
  const deleted = report.resources.filter((r) => r.op === "delete");
  if (replaced.length || deleted.length) {
    out.push("> [!WARNING]");
    for (const r of replaced) {
      const why = r.replaceReasons?.length
        ? `${r.replaceReasons.map(code).join(", ")} cannot change in place`
        : "replaced";
      const order =
        r.deleteBeforeReplace === true
          ? "the old object is deleted **before** the new one is created"
          : "the new object is created before the old one is deleted; its id changes";
      out.push(`> **Replaced:** ${who(r)} — ${why}; ${order}.  `);
    }
    for (const r of deleted) out.push(`> **Deleted:** ${who(r)} — removed from the account.  `);
    out.push("");
  }

  const summarised = report.resources.filter((r) => r.summary?.length);
  if (summarised.length) {
    out.push("### Who gets paged, what opens an incident", "");
    for (const r of summarised) {
      out.push(`**${who(r)}** (${r.op})`, "");
      for (const line of r.summary!) out.push(`- ${line}`);
      out.push("");
    }
  }

  if (report.resources.length) out.push("### Changes", "");
  for (const r of report.resources) {
    const reasons = r.replaceReasons?.length ? ` (${r.replaceReasons.map(code).join(", ")})` : "";
    out.push(`#### ${SYMBOL[r.op]} ${who(r)} — ${r.op}${reasons}`, "");
    if (r.op !== "delete" && r.changes.length) {
      const rows = r.changes
        .slice(0, rowsPerResource)
        .map((c) => [
          code(c.at || "(all)"),
          "old" in c ? valueCell(c.old, report.names) : "—",
          "new" in c ? valueCell(c.new, report.names) : "—",
        ]);
      out.push(...table(["Property", "Before", "After"], rows), "");
      const more = r.changes.length - rows.length;
      if (more > 0) out.push(`_…and ${count(more, "more change")}._`, "");
    } else if (r.op === "update") out.push("No input changes after normalisation.", "");
    if (r.diagrams && withDiagrams) {
      for (const side of ["before", "after"] as const) {
        const chart = r.diagrams[side];
        if (!chart) continue;
        out.push(`<details${side === "after" ? " open" : ""}><summary>Escalation path ${side}</summary>`, "");
        out.push("```mermaid", chart, "```", "", "</details>", "");
      }
    }
  }

  if (report.diagnostics.length) {
    out.push("### Diagnostics", "");
    for (const d of report.diagnostics)
      out.push(`- **${d.severity}**${d.urn ? ` ${code(nameOf(d.urn))}` : ""}: ${d.message.split("\n")[0]}`);
    out.push("");
  }
  return `${out.join("\n").trimEnd()}\n`;
}
