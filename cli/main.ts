#!/usr/bin/env node
/**
 * `pulumi-incident`: review tools for stacks of this provider.
 *
 *   pulumi-incident plan-report [FILE|-] [--json OUT] [--output OUT] [--state EXPORT] [--max-length N] [--resolve]
 *                               [--shifts [--window 14d] [--from TIME]]
 *   pulumi-incident drift [FILE|-] [--json OUT] [--output OUT] [--config FILE] [--concurrency N]
 *   pulumi-incident coverage [FILE|-] [--window 7d] [--from TIME] [--exclude NAMES] [--json OUT] [--output OUT] [--config FILE]
 *   pulumi-incident export [DIR] [--include KINDS] [--exclude KINDS] [--name REGEX] [--split-by team] [--dry-run] …
 *   pulumi-incident migrate --from pagerduty|opsgenie [DIR] [--plan] [--verify [--outputs FILE]] [--team T] [--name REGEX] …
 *
 * Exit codes: 0 fine (drift: no drift; coverage: someone on call throughout), 2 drift (drift), a gap
 * (coverage), a failed or incomplete preview (plan-report: the report is written and says so first)
 * or an object a migration's plan calls exact that is not on call as in its source (migrate
 * --verify), 1 error (bad input, settings, API).
 */
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import { closeAllConnections } from "../provider/client";
import { accountNames } from "./accountNames";
import { COVERAGE_WINDOW_MS, coverage, coverageMarkdown, coverageOutcome } from "./coverage";
import { drift, driftMarkdown, outcomeOf } from "./drift";
import { exportAccount, selectKinds, summary, writeProject } from "./export";
import { CATALOG_ENTRIES_MODES, type CatalogEntriesMode } from "./export/catalog";
import { SPLIT_BY, type SplitBy } from "./export/split";
import {
  differs,
  migrationFiles,
  planMarkdown,
  planText,
  readMigration,
  readOutputs,
  SOURCES,
  type SourceName,
  sourceClient,
  verifyMigration,
  verifyText,
} from "./migrate";
import { pagedFirstOf } from "./pagedFirst";
import {
  plannedResources,
  planReport,
  planReportMarkdown,
  stateResources,
  unnamedTargets,
} from "./planReport";
import { progress } from "./progress";
import { checkAccount, ReadOnlyClient, settingsFrom } from "./readOnlyClient";
import { DEFAULT_WINDOW_MS, MAX_WINDOW_MS, type ShiftWindow, shiftsOf } from "./shifts";

const USAGE = `Usage: pulumi-incident <command> [options]

Commands:
  plan-report [FILE]   Markdown report of a \`pulumi preview --json\` document (FILE, or stdin)
  drift [FILE]         Compare a \`pulumi stack export\` (FILE, or stdin) with the API; read-only
  coverage [FILE]      When nobody is on call in the next week, per schedule of a \`pulumi stack
                       export\` (FILE, or stdin); read-only
  export [DIR]         Write the whole account as a Pulumi TypeScript project that adopts every
                       object (DIR, default ./incident-account); read-only
  migrate [DIR]        Write another pager's on-call setup (--from pagerduty|opsgenie) as a Pulumi
                       TypeScript project for this API (DIR, default ./<source>-migration), with its
                       plan; --plan prints the plan only; --verify compares who is on call; read-only

Options:
  --json FILE          Also write the report as JSON to FILE
  --output FILE        Write the Markdown report to FILE (default: stdout)
  --state FILE         plan-report: a \`pulumi stack export\`, to name the ids of unchanged resources
  --resolve            plan-report: name the users and schedules the plan targets that neither it
                       nor --state names, from the account (a read-only key is enough: GETs only)
  --shifts             plan-report: the shifts that change hands and the coverage gaps each changed
                       schedule (and schedule override) makes, computed by the API: one read of the
                       schedule's entries and one preview of the update per schedule (a key that
                       may update schedules previews; without, the section says so in one line)
  --window N[d|h]      --shifts, coverage, migrate --verify: how far to look, in days or hours (default
                       14d for --shifts, 7d for coverage, 28d for migrate --verify); 91 days at most
  --from TIME          --shifts, coverage: when the window starts (RFC 3339; default now)
  --from SOURCE        migrate: pagerduty or opsgenie (its key and URL: PAGERDUTY_API_KEY,
                       PAGERDUTY_BASE_URL, OPSGENIE_API_KEY, OPSGENIE_BASE_URL)
  --plan               migrate: print the plan (what maps exactly, approximately, not at all); write nothing
  --verify             migrate: compare who is on call in the source and here: the written configuration
                       computed here (before pulumi up), or with --outputs the service's entries (after)
  --outputs FILE       migrate --verify: \`pulumi stack output --json\` of the migrated stack
  --since TIME         migrate --verify: when the window starts (RFC 3339; default now)
  --team TEAM          migrate: only objects of this source team (name or id), and what they need
  --max-length N       plan-report: shorten the Markdown to N characters at most (a GitHub comment
                       holds 65536): diagrams and long change lists go first; the JSON stays whole
  --config FILE        drift, export, --resolve: settings from \`pulumi config --json --show-secrets\` output
                       (default: INCIDENT_API_KEY, INCIDENT_BASE_URL, … from the environment)
  --concurrency N      drift: objects read at once (default 4)
  --include KINDS      export: only these kinds (comma-separated, e.g. AlertRoute,EscalationPath)
  --exclude KINDS      export: all kinds but these
  --exclude NAMES      coverage: schedules (their names in the program, comma-separated) not to check,
                       e.g. ones meant to cover working hours only
  --name REGEX         export, migrate: only objects whose name matches (a JavaScript regular expression)
  --dry-run            export: print what would be written; write nothing
  --project NAME       export, migrate: the Pulumi project name (default incident-account, <source>-migration)
  --modules            export, migrate: one module per kind (default when more than 200 objects)
  --single-file        export, migrate: everything in index.ts
  --force              export, migrate: write into a directory that is not empty
  --split-by team      export: a fleet: one project per owning team and one for the account (a
                       README at the top lists them and the order to apply them)
  --catalog-entries M  export: bulk (a catalog type's entries as one CatalogEntries) or each (one
                       CatalogEntry per entry); default: bulk above 50 entries
  -h, --help           Show this help

Settings (drift, coverage, export, migrate, plan-report --resolve and --shifts): --config FILE, else INCIDENT_API_KEY,
INCIDENT_BASE_URL, … from the environment.

Exit codes: 0 done / no drift / no gap; 2 drift found (drift), a schedule with nobody on call for a
while (coverage), an object the plan calls exact not on call as in the source (migrate --verify), or
the preview failed or is incomplete (plan-report: the report is written all the same and says so
first); 1 error (nothing written: unreadable input, bad options or settings, the API).
`;

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_DRIFT = 2;
/** coverage: a schedule has times when nobody is on call. */
export const EXIT_GAPS = 2;
/** plan-report: the preview failed or stopped before its end (the report is written and says so). */
export const EXIT_PREVIEW_FAILED = 2;

export interface Io {
  stdin: () => Promise<string>;
  stdout: (text: string) => void;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** The clock (default `Date.now`): what a migration counts as now. */
  now?: () => number;
}

/** Runs one command; answers the exit code (never throws). */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr.write(`pulumi-incident: ${(error as Error).message}\n\n${USAGE}`);
    return EXIT_ERROR;
  }
  const { values, positionals } = parsed;
  const [command, file, ...extra] = positionals;
  if (command === "export" && !values.help) {
    if (extra.length > 0)
      return usageError(`one directory at most (got ${positionals.slice(1).join(", ")})`, io);
    try {
      return await exportCommand(file, values, io);
    } catch (error) {
      io.stderr.write(`pulumi-incident export: ${(error as Error).message ?? String(error)}\n`);
      return EXIT_ERROR;
    } finally {
      await closeAllConnections();
    }
  }
  if (command === "migrate" && !values.help) {
    if (extra.length > 0)
      return usageError(`one directory at most (got ${positionals.slice(1).join(", ")})`, io);
    try {
      return await migrateCommand(file, values, io);
    } catch (error) {
      io.stderr.write(`pulumi-incident migrate: ${(error as Error).message ?? String(error)}\n`);
      return EXIT_ERROR;
    } finally {
      await closeAllConnections();
    }
  }
  if (values.help || command === undefined) {
    (values.help ? io.stdout : (t: string) => io.stderr.write(t))(USAGE);
    return values.help ? EXIT_OK : EXIT_ERROR;
  }
  if (extra.length > 0) {
    io.stderr.write(`pulumi-incident: one input file at most (got ${positionals.slice(1).join(", ")})\n`);
    return EXIT_ERROR;
  }
  try {
    const input = await readInput(file, io);
    if (command === "plan-report") {
      const state =
        values.state === undefined
          ? undefined
          : parseJson(fs.readFileSync(values.state, "utf8"), values.state, "pulumi stack export");
      const digest = parseJson(input, file, "pulumi preview --json");
      const maxLength = values["max-length"] === undefined ? undefined : Number(values["max-length"]);
      if (maxLength !== undefined && (!Number.isInteger(maxLength) || maxLength < 1000))
        throw new Error(
          `--max-length must be a whole number of characters, 1000 or more (got ${values["max-length"]})`,
        );
      let account = {};
      const window = shiftWindow(values);
      let client: ReadOnlyClient | undefined;
      if (values.resolve || window) {
        client = new ReadOnlyClient({ ...settingsFrom(values.config, io.env), notify: () => {} });
      }
      let checked = false;
      if (values.resolve && client) {
        const targets = unnamedTargets(digest, state, { scheduleUsers: window !== undefined });
        checked = targets.length > 0;
        const resolved = await accountNames(targets, client);
        account = resolved.names;
        for (const t of resolved.missing)
          io.stderr.write(`pulumi-incident plan-report: --resolve: no ${t.type} ${t.id} in the account\n`);
      }
      const report = planReport(digest, state, account);
      if (window && client) {
        // Once per run: --resolve checked the account already when it had anything to look up.
        if (!checked) await checkAccount(client, "--shifts");
        const names = report.names;
        const planned = plannedResources(digest);
        const context = {
          client,
          window,
          names: (id: string) => names[id],
          state: state === undefined ? [] : stateResources(state),
        };
        const { report: shifts, timelines } = await shiftsOf(planned, context);
        report.shifts = shifts;
        if (!shifts.unavailable) report.pagedFirst = await pagedFirstOf(planned, timelines, context);
      }
      emit(planReportMarkdown(report, { maxLength }), report, values, io);
      if (report.status === "complete") return EXIT_OK;
      io.stderr.write(
        `pulumi-incident plan-report: the preview ${report.status === "failed" ? "failed" : "is incomplete"} (${report.statusReason}): the report says so; exit ${EXIT_PREVIEW_FAILED}\n`,
      );
      return EXIT_PREVIEW_FAILED;
    }
    if (command === "coverage") {
      const window = windowOf(values, COVERAGE_WINDOW_MS);
      const exclude = values.exclude
        ?.flatMap((v) => v.split(","))
        .map((n) => n.trim())
        .filter((n) => n !== "");
      const doc = parseJson(input, file, "pulumi stack export");
      const client = new ReadOnlyClient({ ...settingsFrom(values.config, io.env), notify: () => {} });
      const report = await coverage(doc, { client, window, exclude });
      emit(coverageMarkdown(report), report, values, io);
      const outcome = coverageOutcome(report);
      for (const s of report.schedules.filter((x) => x.error))
        io.stderr.write(`pulumi-incident coverage: Schedule ${s.name} (${s.id}) not checked: ${s.error}\n`);
      return outcome === "error" ? EXIT_ERROR : outcome === "gaps" ? EXIT_GAPS : EXIT_OK;
    }
    if (command === "drift") {
      const concurrency = values.concurrency === undefined ? 4 : Number(values.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32)
        throw new Error(`--concurrency must be a whole number from 1 to 32 (got ${values.concurrency})`);
      const report = await drift(parseJson(input, file, "pulumi stack export"), {
        configFile: values.config,
        env: io.env,
        concurrency,
        progress: io.stderr,
      });
      emit(driftMarkdown(report), report, values, io);
      const outcome = outcomeOf(report);
      if (outcome === "error") {
        for (const o of report.objects.filter((x) => x.status === "error"))
          io.stderr.write(`pulumi-incident drift: ${o.kind} ${o.name} (${o.id}) not checked: ${o.error}\n`);
      }
      return outcome === "error" ? EXIT_ERROR : outcome === "drift" ? EXIT_DRIFT : EXIT_OK;
    }
    io.stderr.write(`pulumi-incident: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
    return EXIT_ERROR;
  } catch (error) {
    io.stderr.write(`pulumi-incident ${command}: ${(error as Error).message ?? String(error)}\n`);
    return EXIT_ERROR;
  } finally {
    await closeAllConnections();
  }
}

/** `--shifts`' window; undefined without `--shifts` (whose options are refused then). */
function shiftWindow(values: Values): ShiftWindow | undefined {
  if (!values.shifts) {
    for (const option of ["window", "from"] as const)
      if (values[option] !== undefined) throw new Error(`--${option} goes with --shifts`);
    return undefined;
  }
  return windowOf(values, DEFAULT_WINDOW_MS);
}

/**
 * The window of `--from` (default now, to the minute) and `--window` (default `defaultMs`); another
 * option may give the start (`migrate --since`: its `--from` names the source).
 */
function windowOf(
  values: Values,
  defaultMs: number,
  startOption: { name: string; value: string | undefined } = { name: "--from", value: values.from },
  now = Date.now(),
): ShiftWindow {
  let length = defaultMs;
  if (values.window !== undefined) {
    const m = /^(\d+)\s*(d|h)?$/.exec(values.window.trim());
    length = m ? Number(m[1]) * (m[2] === "h" ? 3_600_000 : 86_400_000) : Number.NaN;
    if (!(length >= 3_600_000 && length <= MAX_WINDOW_MS))
      throw new Error(
        `--window must be a number of days (14d) or hours (36h), from 1 hour to 91 days, the longest the API previews (got ${JSON.stringify(values.window)})`,
      );
  }
  let start = Math.floor(now / 60_000) * 60_000;
  if (startOption.value !== undefined) {
    start = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(startOption.value)
      ? Date.parse(startOption.value)
      : Number.NaN;
    if (Number.isNaN(start))
      throw new Error(
        `${startOption.name} must be an RFC 3339 time such as 2026-03-23T09:00:00Z (got ${JSON.stringify(startOption.value)})`,
      );
  }
  return { start, end: start + length };
}

function usageError(message: string, io: Io): number {
  io.stderr.write(`pulumi-incident: ${message}\n\n${USAGE}`);
  return EXIT_ERROR;
}

type Values = ReturnType<typeof parse>["values"];

/** `export [DIR]`: every option checked before the first request. */
async function exportCommand(dir: string | undefined, values: Values, io: Io): Promise<number> {
  const list = (given: string[] | undefined) =>
    given
      ?.flatMap((v) => v.split(","))
      .map((k) => k.trim())
      .filter((k) => k !== "");
  const include = list(values.include);
  const exclude = list(values.exclude);
  selectKinds(include, exclude);
  const { namePattern, project, modules } = projectOptions(values, "incident-account");
  const splitBy = oneOf("--split-by", values["split-by"], SPLIT_BY) as SplitBy | undefined;
  // Pulumi takes project names of up to 100 characters: room for `-<team>` (split.ts).
  if (splitBy !== undefined && project.length > 50)
    throw new Error(
      `--project: at most 50 characters with --split-by (each project is named <project>-<team>)`,
    );
  const catalogEntries = oneOf("--catalog-entries", values["catalog-entries"], CATALOG_ENTRIES_MODES) as
    | CatalogEntriesMode
    | undefined;
  const { target, dryRun } = targetDirectory(dir, values, "incident-account");
  const client = new ReadOnlyClient({ ...settingsFrom(values.config, io.env), notify: () => {} });
  const bar = progress(io.stderr, io.env, "export");
  const result = await exportAccount(client, {
    include,
    exclude,
    namePattern,
    project,
    splitBy,
    catalogEntries,
    modules,
    onKind: (done, total, kind, count) =>
      bar.step(done, total, kind, { text: `${count} objects`, tone: "good" }),
  });
  bar.finish();
  if (!dryRun) writeProject(target, result.files, values.force === true);
  io.stdout(summary(result, dryRun ? undefined : target));
  return EXIT_OK;
}

/** The options `export` and `migrate` share for the project they write: checked before any request. */
function projectOptions(values: Values, defaultProject: string) {
  if (values.modules && values["single-file"])
    throw new Error("--modules and --single-file exclude each other");
  let namePattern: RegExp | undefined;
  if (values.name !== undefined) {
    try {
      namePattern = new RegExp(values.name, "u");
    } catch (error) {
      throw new Error(`--name: not a regular expression: ${(error as Error).message}`);
    }
  }
  const project = values.project ?? defaultProject;
  if (!/^[A-Za-z0-9_.-]+$/.test(project))
    throw new Error(`--project: ${JSON.stringify(project)}: use letters, digits, '-', '_' and '.' only`);
  const modules = values.modules ? true : values["single-file"] ? false : undefined;
  return { namePattern, project, modules };
}

/** Where a project is written: empty or absent unless `--force` (nothing is written by a dry run). */
function targetDirectory(dir: string | undefined, values: Values, defaultDir: string) {
  const target = dir ?? defaultDir;
  const dryRun = values["dry-run"] === true;
  if (!dryRun && fs.existsSync(target) && fs.readdirSync(target).length > 0 && !values.force)
    throw new Error(
      `${target} is not empty: choose another directory, or pass --force to overwrite its files`,
    );
  return { target, dryRun };
}

/**
 * `migrate --from SOURCE [DIR]`: every option checked before the first request; the source read
 * with a GET-only client, this account's people and teams too (to match them).
 */
async function migrateCommand(dir: string | undefined, values: Values, io: Io): Promise<number> {
  const source = oneOf("--from", values.from, SOURCES) as SourceName | undefined;
  if (source === undefined) throw new Error(`--from is required: ${SOURCES.join(" or ")}`);
  if (values.plan && values.verify) throw new Error("--plan and --verify exclude each other");
  if (values.outputs !== undefined && !values.verify) throw new Error("--outputs goes with --verify");
  if (!values.verify)
    for (const option of ["outputs", "since", "window"] as const)
      if (values[option] !== undefined) throw new Error(`--${option} goes with --verify`);
  const now = (io.now ?? Date.now)();
  const window = windowOf(values, MIGRATE_WINDOW_MS, { name: "--since", value: values.since }, now);
  // Without --outputs, --verify checks the written configuration, computed here (before `pulumi up`).
  const outputs = values.outputs !== undefined ? readOutputs(values.outputs) : undefined;
  const { namePattern, project, modules } = projectOptions(values, `${source}-migration`);
  const writing = !values.plan && !values.verify;
  const { target, dryRun } = writing
    ? targetDirectory(dir, values, `${source}-migration`)
    : { target: "", dryRun: true };
  const hereClient = new ReadOnlyClient({ ...settingsFrom(values.config, io.env), notify: () => {} });
  const read = await readMigration(source, sourceClient(source, io.env), hereClient, {
    now,
    team: values.team,
    namePattern,
    days: Math.ceil((window.end - window.start) / 86_400_000),
  });
  if (values.verify) {
    const report = await verifyMigration({
      migration: read.migration,
      source: read.view,
      here: hereClient,
      hereEmails: read.hereEmails,
      outputs,
      window,
    });
    emit(verifyText(report), report, values, io);
    return report.checks.some((c) => c.fidelity === "exact" && differs(c)) ? EXIT_DRIFT : EXIT_OK;
  }
  const program = migrationFiles(read.migration, { project, modules });
  if (values.plan) {
    emit(planMarkdown(read.migration, program.resourceNames), read.migration.plan, values, io);
    return EXIT_OK;
  }
  if (!dryRun) writeProject(target, program.files, values.force === true);
  const count = Object.keys(program.files).length;
  const files = Object.entries(program.files).map(
    ([name, t]) => `  ${name} (${t.split("\n").length - 1} lines)`,
  );
  io.stdout(
    `${dryRun ? `Dry run: would write ${count} files` : `Wrote ${count} files to ${target}`}\n${files.join("\n")}\n\n${planText(read.migration)}`,
  );
  return EXIT_OK;
}

/** migrate --verify's window: four weeks. */
const MIGRATE_WINDOW_MS = 28 * 86_400_000;

/** `value` when it is one of `allowed` (undefined when not given), else an error naming the option. */
function oneOf(option: string, value: string | undefined, allowed: readonly string[]): string | undefined {
  if (value === undefined || allowed.includes(value)) return value;
  throw new Error(`${option}: ${JSON.stringify(value)}: use ${allowed.join(" or ")}`);
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "string" },
      output: { type: "string" },
      config: { type: "string" },
      state: { type: "string" },
      "max-length": { type: "string" },
      resolve: { type: "boolean" },
      shifts: { type: "boolean" },
      window: { type: "string" },
      from: { type: "string" },
      concurrency: { type: "string" },
      include: { type: "string", multiple: true },
      exclude: { type: "string", multiple: true },
      name: { type: "string" },
      "dry-run": { type: "boolean" },
      project: { type: "string" },
      modules: { type: "boolean" },
      "single-file": { type: "boolean" },
      force: { type: "boolean" },
      "split-by": { type: "string" },
      "catalog-entries": { type: "string" },
      plan: { type: "boolean" },
      verify: { type: "boolean" },
      outputs: { type: "string" },
      since: { type: "string" },
      team: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

async function readInput(file: string | undefined, io: Io): Promise<string> {
  if (file === undefined || file === "-") return io.stdin();
  return fs.readFileSync(file, "utf8");
}

function parseJson(text: string, file: string | undefined, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(
      `${file && file !== "-" ? file : "stdin"} is not JSON (expected the output of \`${what}\`): ${(error as Error).message}`,
    );
  }
}

function emit(markdown: string, report: unknown, values: { json?: string; output?: string }, io: Io): void {
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  if (values.output) fs.writeFileSync(values.output, markdown);
  else io.stdout(markdown);
}

function processIo(): Io {
  return {
    stdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
    stdout: (text) => process.stdout.write(text),
    stderr: process.stderr,
    env: process.env,
  };
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
