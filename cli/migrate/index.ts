/**
 * `pulumi-incident migrate --from pagerduty|opsgenie`: the on-call setup of another pager as a
 * Pulumi TypeScript project for this API (docs/migrate.md). Reads the source with a read-only
 * client (GET only) and this account's people and teams (GET only, to match them), maps with the
 * source's module (pagerduty.ts, opsgenie.ts), names what this account already has by the same
 * names (namesakes.ts, GET only), writes with the export's code writer (program.ts),
 * reports the plan (plan.ts) and proves the result (verify.ts).
 */
import * as fs from "node:fs";
import type { ApiClient } from "../../provider/client";
import { packageVersion } from "../export";
import { readPeopleAndTeams } from "../export/read";
import type { MigrateOptions, Migration } from "./model";
import { markNamesakes } from "./namesakes";
import { mapOpsgenie, opsgenieView, readOpsgenie } from "./opsgenie";
import { mapPagerDuty, pagerDutyView, readPagerDuty } from "./pagerduty";
import { migrationProgram } from "./program";
import type { SourceName } from "./sourceClient";
import type { SourceView } from "./verify";

export { planMarkdown, planText } from "./plan";
export { OUTPUT_NAME } from "./program";
export { SOURCES, type SourceName, sourceClient } from "./sourceClient";
export { differs, verifyMigration, verifyText } from "./verify";

export interface ReadMigration {
  migration: Migration;
  /** The source, as `--verify` reads it. */
  view: SourceView;
  /** This account's users, id → e-mail (lower case). */
  hereEmails: Map<string, string>;
}

/** Reads the source and this account (GETs only on both) and maps one onto the other. */
export async function readMigration(
  source: SourceName,
  sourceClient: ApiClient,
  hereClient: ApiClient,
  options: MigrateOptions & { days: number },
): Promise<ReadMigration> {
  const here = await readPeopleAndTeams(hereClient);
  const hereEmails = new Map(
    here.users.flatMap((u) => (u.email ? [[u.id, u.email.toLowerCase()] as const] : [])),
  );
  const mapped = async (): Promise<Omit<ReadMigration, "hereEmails">> => {
    if (source === "pagerduty") {
      const read = await readPagerDuty(sourceClient, {
        start: options.now,
        end: options.now + options.days * 86_400_000,
      });
      return { migration: mapPagerDuty(read, here, options), view: pagerDutyView(sourceClient, read) };
    }
    const read = await readOpsgenie(sourceClient);
    return { migration: mapOpsgenie(read, here, options), view: opsgenieView(sourceClient, read) };
  };
  const { migration, view } = await mapped();
  await markNamesakes(migration, hereClient);
  return { migration, view, hereEmails };
}

/** The project's files for a migration. */
export function migrationFiles(migration: Migration, options: { project: string; modules?: boolean }) {
  return migrationProgram(migration, { ...options, packageVersion: `^${packageVersion()}` });
}

/**
 * The stack's `migrated` output, from `pulumi stack output --json` (or `--show-secrets`): source
 * ids → ids here, for schedules and escalation policies.
 */
export function readOutputs(file: string): {
  schedules: Record<string, string>;
  escalationPaths: Record<string, string>;
} {
  let parsed: any;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(
      `--outputs ${file}: not the JSON of \`pulumi stack output --json\` (${(error as Error).message})`,
    );
  }
  const migrated = parsed?.migrated;
  if (!migrated || typeof migrated.schedules !== "object" || typeof migrated.escalationPaths !== "object")
    throw new Error(
      `--outputs ${file}: no \`migrated\` output with schedules and escalationPaths (run \`pulumi up\` on the migrated project first)`,
    );
  return { schedules: migrated.schedules, escalationPaths: migrated.escalationPaths };
}
