/**
 * `pulumi-incident coverage`: is anyone uncovered next week? For every schedule a stack manages
 * (from `pulumi stack export`), the times in a window when nobody is on call in it, from the
 * service's own entries (`GET /v2/schedule_entries`, every page: `final`, overrides merged in), in
 * the schedule's time zone with its offset. For a scheduled job: exit 0 when every schedule has
 * someone on call throughout, 2 when one has a gap, 1 when a schedule could not be checked.
 * Read-only (the review tools' client: GETs only here).
 */
import { uncovered } from "../emulator/families/shared/scheduleEntries";
import { ApiError } from "../provider/errors";
import { exportedResources } from "./drift";
import { kindOf, nameOf } from "./kinds";
import {
  type Block,
  codeList,
  count,
  details,
  headingBlock,
  inlineCode,
  list,
  md,
  paragraph,
  renderBlocks,
  stackLabel,
  strong,
} from "./markdown";
import { checkAccount, type ReadOnlyClient } from "./readOnlyClient";
import { instantText, type ShiftWindow, serviceEntries, timeRange } from "./shifts";

/** The window a coverage check looks at by default: the next 7 days. */
export const COVERAGE_WINDOW_MS = 7 * 86_400_000;

export interface ScheduleCoverage {
  /** The schedule's name in the program. */
  name: string;
  id: string;
  timezone: string;
  /** When nobody is on call, within the window. */
  gaps: { start: string; end: string }[];
  /** Why it could not be checked. */
  error?: string;
}

export interface CoverageReport {
  project?: string;
  stack?: string;
  window: { start: string; end: string };
  schedules: ScheduleCoverage[];
  /** Schedules left out (`--exclude`). */
  excluded: string[];
  counts: { schedules: number; withGaps: number; notChecked: number };
}

export interface CoverageOptions {
  client: ReadOnlyClient;
  window: ShiftWindow;
  /** Schedules (by their name in the program) not to check: ones meant to leave gaps (working hours only). */
  exclude?: string[];
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

export async function coverage(doc: unknown, options: CoverageOptions): Promise<CoverageReport> {
  const resources = exportedResources(doc).filter(
    (r) =>
      r.type &&
      kindOf(r.type) === "Schedule" &&
      r.id &&
      !r.delete &&
      r.custom !== false &&
      !r.pendingReplacement,
  );
  const exclude = new Set(options.exclude ?? []);
  const unknown = [...exclude].filter((name) => !resources.some((r) => nameOf(r.urn) === name));
  if (unknown.length)
    throw new Error(
      `--exclude: the stack has no schedule named ${unknown.map((n) => JSON.stringify(n)).join(", ")} (its schedules: ${resources.map((r) => nameOf(r.urn)).join(", ") || "none"})`,
    );
  const urn = resources[0]?.urn.split("::");
  const report: CoverageReport = {
    ...(urn ? { project: urn[1], stack: urn[0]?.replace(/^urn:pulumi:/, "") } : {}),
    window: { start: iso(options.window.start), end: iso(options.window.end) },
    schedules: [],
    excluded: resources.map((r) => nameOf(r.urn)).filter((n) => exclude.has(n)),
    counts: { schedules: 0, withGaps: 0, notChecked: 0 },
  };
  const checked = resources.filter((r) => !exclude.has(nameOf(r.urn)));
  if (checked.length > 0) await checkAccount(options.client, "coverage");
  for (const r of checked) {
    const outputs = (r.outputs ?? {}) as Record<string, unknown>;
    const timezone = typeof outputs.timezone === "string" ? outputs.timezone : "UTC";
    const entry: ScheduleCoverage = { name: nameOf(r.urn), id: r.id!, timezone, gaps: [] };
    try {
      const entries = await serviceEntries(
        { client: options.client, window: options.window, names: () => undefined, state: [] },
        r.id!,
        { scheduleEntries: 0, previewEntries: 0, schedules: 0 },
      );
      entry.gaps = uncovered(entries.final, options.window).map(([s, e]) => ({ start: iso(s), end: iso(e) }));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      entry.error =
        error.status === 404 || error.status === 400 ? "the schedule no longer exists" : error.message;
    }
    report.schedules.push(entry);
  }
  report.counts = {
    schedules: report.schedules.length,
    withGaps: report.schedules.filter((s) => s.gaps.length > 0).length,
    notChecked: report.schedules.filter((s) => s.error !== undefined).length,
  };
  return report;
}

/** `error` when a schedule could not be checked, `gaps` when one has a gap, else `covered`. */
export function coverageOutcome(report: CoverageReport): "error" | "gaps" | "covered" {
  if (report.counts.notChecked > 0) return "error";
  return report.counts.withGaps > 0 ? "gaps" : "covered";
}

/** Gap lines past this many fold into `<details>`. */
const SHOWN = 8;

export function coverageMarkdown(report: CoverageReport): string {
  const [start, end] = [Date.parse(report.window.start), Date.parse(report.window.end)];
  const stack = stackLabel(report);
  const out: Block[] = [headingBlock(2, md`On-call coverage${stack ? md` of ${stack}` : md``}`)];
  const { schedules, withGaps, notChecked } = report.counts;
  out.push(
    paragraph(
      md`From ${instantText(start)} to ${instantText(end)}: ${
        withGaps
          ? strong(
              `${count(withGaps, "schedule")} of ${schedules} ${withGaps === 1 ? "has" : "have"} times when nobody is on call`,
            )
          : schedules
            ? md`someone is on call in every schedule (${count(schedules, "schedule")}) throughout`
            : md`the stack manages no schedule`
      }${notChecked ? md`; ${strong(`${count(notChecked, "schedule")} not checked`)}` : md``}.`,
    ),
  );
  if (report.excluded.length)
    out.push(paragraph(md`Not checked (\`--exclude\`): ${codeList(report.excluded)}.`));
  for (const s of report.schedules) {
    const head = md`${strong(md`Schedule ${inlineCode(s.name)}`)} (${s.timezone})`;
    if (s.error) {
      out.push(paragraph(md`${head}: not checked: ${s.error}.`));
      continue;
    }
    if (s.gaps.length === 0) {
      out.push(paragraph(md`${head}: someone is on call throughout.`));
      continue;
    }
    const lines = s.gaps.map(
      (g) => md`**nobody on call ${timeRange(Date.parse(g.start), Date.parse(g.end), s.timezone)}**`,
    );
    out.push(paragraph(md`${head}: ${count(s.gaps.length, "gap")}`));
    out.push(list(lines.slice(0, SHOWN)));
    if (lines.length > SHOWN)
      out.push(details([count(lines.length - SHOWN, "more gap")], [list(lines.slice(SHOWN))]));
  }
  return renderBlocks(out);
}
