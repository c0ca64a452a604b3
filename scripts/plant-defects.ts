/**
 * `npm run defects`: plants known defects in a checkout of this repository, one at a time, and
 * records which tests catch each (issue 21, "No coverage lost"). Each defect is data: a package
 * source file, the exact text to find (it must occur exactly once), its replacement and one line
 * saying what a careless contributor would have done. For each defect the script applies it in the
 * checkout, rebuilds (`npm run build`: programs run through the CLI or the harness load dist/),
 * runs the chosen jest commands with `--json --outputFile`, records the failed test files and test
 * names, and restores the file (always: also when a run fails, times out or the script is
 * interrupted; dist/ is rebuilt from the restored sources). A defect whose text no longer matches
 * is reported as "does not apply", never skipped silently. Failures that also happen without any
 * defect (a baseline run of the same commands) are not counted as catching it.
 *
 * Never run it in a working tree someone edits: it refuses a file with local changes. Use a
 * worktree:
 *
 *   git worktree add /tmp/defects-after HEAD && (cd /tmp/defects-after && npm ci && npm run build)
 *   npm run defects -- --dir /tmp/defects-after --plan after --out /tmp/after.json
 *   npm run defects -- --dir /tmp/defects-after --only schedule-timezone-replace "test/resources/schedule.test.ts"
 *   npm run defects -- --dir /tmp/defects-after --only journal-mkdir -- "-c jest.engine.config.js test/engine/killedHost.test.ts"
 *   npm run defects -- --compare /tmp/before.json /tmp/after.json
 *
 * Options:
 *   --dir <checkout>        the checkout to plant defects in (its node_modules installed)
 *   --plan <name>           run each defect's own commands for that tree (`tests[name]` below:
 *                           before, after, after-engine); positional commands are used otherwise
 *   <command>...            jest commands (each one argument: files and jest options, e.g.
 *                           "test/cli/drift.test.ts" or "-c jest.engine.config.js test/engine/x.test.ts";
 *                           "" is the whole default lane)
 *   --only <id,id>          these defects only (default: every defect that has commands)
 *   --check                 only say whether each defect applies in --dir
 *   --related               list the test files jest relates to each defect's file (a guide)
 *   --no-baseline           do not run the commands once without a defect first
 *   --no-build              do not rebuild dist/ around each defect
 *   --timeout-min <n>       a jest command running longer is killed and counted as failed (default 40)
 *   --out <file.json>       every result, for --compare
 *   --compare <a> <b>       one table from two --out files (e.g. before and after)
 *   --list                  the defects
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export interface Defect {
  id: string;
  /** The issue's item it plants (issue 21, item 2: 1–10), or "extra". */
  item: string;
  /** Path in the checkout. */
  file: string;
  /** Exact text; must occur exactly once in the file. */
  find: string;
  replace: string;
  /** Further edits in the same file that the change needs to compile (an import it no longer uses). */
  more?: { find: string; replace: string }[];
  /** What the careless change is, in one line. */
  description: string;
  /** Jest commands that could plausibly catch it, per tree (see --plan). */
  tests?: Record<string, string[]>;
}

/** The whole fast lane of the tree after the restructure (`npx jest`). */
const FAST_LANE = "";
/** The whole-account program through the real CLI (engine lane: `npm run pulumi:build` first). */
const WHOLE_ACCOUNT = "-c jest.engine.config.js test/engine/wholeAccount.test.ts";

export const DEFECTS: Defect[] = [
  {
    id: "schedule-versions-aligned-from-newest",
    item: "29.2",
    file: "resources/schedule.ts",
    find: "  if (byInstant.every((index, i) =>",
    replace: "  if (false && byInstant.every((index, i) =>",
    description:
      "Schedule pairs live versions with declared ones from the newest backwards only: a future version appended makes the update send the current version's layer without its id, and the overrides on it are lost",
    tests: { after: ["test/resources/schedule.test.ts"] },
  },
  {
    id: "rank-zero-rule",
    item: "1",
    file: "resources/catalogEntries.ts",
    find: "rank: e.rank === 0 && mine?.rank === undefined ? undefined : e.rank,",
    replace: "rank: e.rank,",
    description:
      'CatalogEntries read-back drops rule "no rank is rank 0" (rank 0 answered for an unranked entry reads back as 0)',
    tests: {
      before: ["test/resources/catalog.test.ts"],
      after: [FAST_LANE],
      "after-engine": [WHOLE_ACCOUNT],
    },
  },
  {
    id: "alias-rule",
    item: "1",
    file: "provider/normalise.ts",
    find: "return aliases.some((group) => group.includes(live) && group.includes(declared)) ? declared : live;",
    replace: "return live;",
    description:
      "normalise.ts keepDeclaredAlias always answers the live spelling (a condition operator alias reads back as the API's)",
    tests: {
      before: [
        "test/provider/normalise.test.ts test/resources/alertRoute.test.ts test/resources/workflow.test.ts test/resources/escalationPath.test.ts test/perpetualDiffs.test.ts",
      ],
      after: [FAST_LANE],
    },
  },
  {
    id: "team-order-rule",
    item: "1",
    file: "resources/escalationPath.ts",
    find: "teamIds: keepDeclaredOrder(live.team_ids ?? [], declared?.teamIds) ?? [],",
    replace: "teamIds: keepDeclaredOrder(live.team_ids ?? [], undefined) ?? [],",
    description:
      'EscalationPath read-back forgets the declared team ids (rule "unordered sets": team ids read back in the API\'s order)',
    tests: {
      before: ["test/resources/escalationPath.test.ts test/perpetualDiffs.test.ts test/cli/drift.test.ts"],
      after: [FAST_LANE],
    },
  },
  {
    id: "read-404-not-gone",
    item: "2",
    file: "provider/factory.ts",
    find: "return paged ? paged.live : unlessNotFound(spec.api.read(ctx, id, prior));",
    replace: "return paged ? paged.live : spec.api.read(ctx, id, prior);",
    description: "readLiveObject no longer takes a 404 on read as gone (the GET's 404 is thrown)",
    tests: {
      before: ["test/provider/factory.test.ts test/resources/severity.test.ts test/cli/drift.test.ts"],
      after: [FAST_LANE],
    },
  },
  {
    id: "schedule-timezone-replace",
    item: "3",
    file: "resources/schedule.ts",
    find: 'replaceOnChanges: ["timezone"],',
    replace: "replaceOnChanges: [],",
    description: "Schedule's `timezone` dropped from replaceOnChanges (a time zone change is tried in place)",
    tests: { before: ["test/resources/schedule.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "workflow-trigger-replace",
    item: "3",
    file: "resources/workflow.ts",
    find: 'replaceOnChanges: ["trigger"],',
    replace: "replaceOnChanges: [],",
    description: "Workflow's `trigger` dropped from replaceOnChanges (a trigger change is tried in place)",
    tests: { before: ["test/resources/workflow.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "journal-mkdir",
    item: "4",
    file: "provider/journal.ts",
    find: "      fs.mkdirSync(this.dir, { recursive: true });\n",
    replace: "",
    description:
      "pending-creates journal never created on a fresh machine (mkdir dropped: every write fails, silently caught)",
    tests: {
      before: ["test/provider/journal.test.ts", "test/faults.test.ts -t killed"],
      after: [FAST_LANE],
    },
  },
  {
    id: "apikey-token-secret",
    item: "5",
    file: "resources/apiKey.ts",
    find: 'secretOutputs: ["token"],',
    replace: "secretOutputs: [],",
    description: "ApiKey's `token` no longer in secretOutputs",
    tests: { before: ["test/secrets.test.ts test/provider/serialization.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "secret-value-secret",
    item: "5",
    file: "resources/secret.ts",
    find: 'secretOutputs: ["value"],',
    replace: "secretOutputs: [],",
    description: "Secret's `value` no longer in secretOutputs (nor a secret input)",
    tests: { before: ["test/resources/secret.test.ts test/secrets.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "paged-first-page",
    item: "6",
    file: "provider/pagedReads.ts",
    find: [
      "  if (list.pageSize !== undefined) {",
      "    return client.listAll<T>(path, list.itemsKey, list.operation, query, list.pageSize);",
      "  }",
      "  const body = await client.get<Record<string, T[]>>(path, list.operation, query);",
    ].join("\n"),
    replace: [
      "  const paged = list.pageSize === undefined ? query : { ...query, page_size: list.pageSize };",
      "  const body = await client.get<Record<string, T[]>>(path, list.operation, paged);",
    ].join("\n"),
    description:
      "walkList reads one page of a paginated list (no pagination_meta.after followed): refreshes, lookups, export see the first page",
    tests: {
      before: ["test/resources/catalog.test.ts test/resources/lookups.test.ts test/cli/export.test.ts"],
      after: [FAST_LANE],
    },
  },
  {
    id: "bulk-batch-500",
    item: "7",
    file: "resources/catalogEntry.ts",
    find: "export const BULK_UPDATE_LIMIT = 250;",
    replace: "export const BULK_UPDATE_LIMIT = 500;",
    description: "catalog entries' bulk_update batches of 500 (the API takes 250)",
    tests: { before: ["test/resources/catalog.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "schema-batch-fixed-window",
    item: "24.10",
    file: "resources/catalogTypeAttribute.ts",
    find: "    const quietUntil = batch.lastArrival + SCHEMA_BATCH_QUIET_MS;",
    replace: "    const quietUntil = started + SCHEMA_BATCH_QUIET_MS;",
    description:
      "catalog schema writes gather a type's attribute changes for a fixed window, not until they stop coming: the CLI's spaced calls split into many writes",
    tests: { before: ["test/resources/catalog.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "override-user-in-place",
    item: "24.4",
    file: "resources/scheduleOverride.ts",
    find: 'replaceOnChanges: ["scheduleId", "user"],',
    replace: 'replaceOnChanges: ["scheduleId"],',
    description:
      "ScheduleOverride `user` dropped from replaceOnChanges: a new cover is sent as an update the API refuses (an override cannot be reassigned)",
    tests: { before: ["test/resources/scheduleOverride.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "policy-type-in-place",
    item: "24.5",
    file: "resources/policy.ts",
    find: 'replaceOnChanges: ["policyType"],',
    replace: "replaceOnChanges: [],",
    description:
      "Policy `policyType` dropped from replaceOnChanges: a new type is sent as an update the API refuses",
    tests: { before: ["test/resources/policy.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "call-route-not-restored",
    item: "24.6",
    file: "resources/callRoute.ts",
    find: '      await converge(ctx, id, restore, { operation: "restore call route" });\n',
    replace: "      void restore;\n",
    description:
      "CallRoute delete does not write back what the route held before the stack took it over (the warning still says it did)",
    tests: { before: ["test/resources/callRoute.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "call-route-callers-not-restored",
    item: "28.6",
    file: "resources/callRoute.ts",
    find: "        allowedCallers: previous.allowedCallers,\n",
    replace: "        allowedCallers: undefined,\n",
    description:
      "CallRoute delete puts the settings back but leaves the stack's allowed callers (the ones the route had before are lost)",
    tests: { before: ["test/resources/callRoute.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "call-route-menu-not-restored",
    item: "28.6",
    file: "resources/callRoute.ts",
    find: "        options: (previous.options?.length ?? 0) > 0 ? previous.options : undefined,\n",
    replace: "        options: undefined,\n",
    description:
      "CallRoute delete does not make the route's phone-tree menu again after the stack's path retired it",
    tests: { before: ["test/resources/callRoute.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "call-route-part-create-repeated",
    item: "28.6",
    file: "resources/callRoute.ts",
    find: "          const live = (now[part.name] ?? []) as unknown as L[];\n",
    replace: "          void now;\n          const live: L[] = [];\n",
    description:
      "a CallRoute allowed caller or option whose create answer was lost is sent again, the lookup on the route finding nothing (a duplicate)",
    tests: { before: ["test/resources/callRoute.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "call-route-callers-after-settings",
    item: "28.6",
    file: "resources/callRoute.ts",
    find: '  await applyPart(ctx, id, CALLERS, callerSteps, "add", progress);\n  if (!live',
    replace: "  if (!live",
    more: [
      {
        find: '  await applyPart(ctx, id, CALLERS, callerSteps, "remove", progress);\n',
        replace:
          '  await applyPart(ctx, id, CALLERS, callerSteps, "add", progress);\n  await applyPart(ctx, id, CALLERS, callerSteps, "remove", progress);\n',
      },
    ],
    description:
      "CallRoute adds its allowed callers after writing the settings: turning the allowlist on with them is refused (it needs a caller first)",
    tests: { before: ["test/resources/callRoute.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "call-route-part-error-path",
    item: "28.6",
    file: "resources/callRoute.ts",
    find: "      throw underPart(error, at);\n",
    replace: "      void [underPart, at];\n      throw error;\n",
    description:
      "a refused allowed caller or option names its API field (phone_number) instead of the input (allowedCallers[1].phoneNumber)",
    tests: { before: ["test/resources/callRoute.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "plan-report-raw-diff",
    item: "8",
    file: "cli/propertyChanges.ts",
    find: "const changes = listed(provider.changes(olds, news))",
    replace: "const changes = listed(changesBetween(olds, news))",
    description:
      "plan-report (and drift) list the raw JSON differences, not the provider's changes: unchanged fields (form only, outputs) show",
    tests: { before: ["test/cli/planReport.test.ts test/cli/drift.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "drift-error-exit-0",
    item: "9",
    file: "cli/drift.ts",
    find: '  if (report.counts.error > 0) return "error";\n',
    replace: "",
    description:
      "drift: an object that could not be read no longer makes the outcome an error (exit 0 when nothing drifted)",
    tests: { before: ["test/cli/drift.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "adoption-writes",
    item: "10",
    file: "provider/factory.ts",
    find: "          if (!adoptionWrites(spec, args, changes(asRead, args))) {",
    replace: "          if (!adoptionWrites(spec, args, changes(existing as Props, args))) {",
    description:
      "adoption compares the declaration with the API's raw object instead of its read-back: every adoption writes (c0ee30b undone)",
    tests: {
      before: ["test/provider/factory.test.ts test/exportRoundTrip.test.ts"],
      after: [FAST_LANE],
    },
  },
  {
    id: "export-drops-fields",
    item: "10",
    file: "cli/export/model.ts",
    find: "      if (value === undefined) continue;",
    replace: "      if (value === undefined || value === false) continue;",
    description:
      "export leaves out every top-level input that is `false` (taken for a default): a disabled route, a window off the sidebar are adopted with a write",
    tests: {
      before: ["test/cli/export.test.ts test/exportRoundTrip.test.ts"],
      after: [FAST_LANE],
      "after-engine": [WHOLE_ACCOUNT],
    },
  },
  {
    id: "delete-404-not-done",
    item: "extra",
    file: "provider/factory.ts",
    find: "        if (isNotFound(error)) return; // already gone: the goal is reached\n",
    replace: "",
    more: [
      {
        find: 'import { ApiError, describeApiError, isNotFound, unlessNotFound } from "./errors";',
        replace: 'import { ApiError, describeApiError, unlessNotFound } from "./errors";',
      },
    ],
    description: "delete of an object already gone (404) fails instead of succeeding",
    tests: {
      before: [
        "test/provider/factory.test.ts test/resources/severity.test.ts test/resources/incidentRole.test.ts",
      ],
      after: [FAST_LANE],
    },
  },
  {
    id: "status-delete-before-replace",
    item: "extra",
    file: "resources/incidentStatus.ts",
    find: "  // Names are unique: the old status must go before its replacement takes the name.\n  deleteBeforeReplace: true,\n",
    replace: "",
    description:
      "IncidentStatus loses deleteBeforeReplace (a category change creates the replacement first: its unique name is taken)",
    tests: { before: ["test/resources/incidentStatus.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "lost-create-no-lookup",
    item: "extra",
    file: "provider/factory.ts",
    find: "const CREATE_ATTEMPTS = 4;",
    replace: "const CREATE_ATTEMPTS = 1;",
    description:
      "a create whose answer is lost is no longer looked for (CREATE_ATTEMPTS 1): the run fails with an unknown outcome",
    tests: {
      before: ["test/provider/factory.test.ts", "test/faults.test.ts -t lost"],
      after: [FAST_LANE],
    },
  },
  {
    id: "write-only-adoption",
    item: "extra",
    file: "provider/factory.ts",
    find: "return differences.length > 0 || (spec.writeOnlyInputs ?? []).some((k) => declared[k] !== undefined);",
    replace: "return differences.length > 0;",
    description: "adoption skips the write although a declared input is write-only (never read back)",
    tests: {
      before: [
        "test/provider/factory.test.ts test/resources/alertSource.test.ts test/exportRoundTrip.test.ts",
      ],
      after: [FAST_LANE],
    },
  },
  {
    id: "bulk-update-not-repeatable",
    item: "extra",
    file: "resources/catalogEntries.ts",
    find: [
      "          ...(managed !== undefined ? { update_attributes: managed } : {}),",
      "        },",
      "        { repeatable: true },",
    ].join("\n"),
    replace: [
      "          ...(managed !== undefined ? { update_attributes: managed } : {}),",
      "        },",
    ].join("\n"),
    description:
      "catalog entries' bulk_update no longer a repeatable POST (a lost answer fails the run instead of being retried; a23416f)",
    tests: { before: ["test/resources/catalog.test.ts"], after: [FAST_LANE] },
  },
  {
    id: "validate-fault-fails-check",
    item: "extra",
    file: "provider/remoteValidation.ts",
    find: "const refused = error.status === 422 || (error.status === 400 && error.details.some((d) => d.field));",
    replace: "const refused = true;",
    description:
      "check's server-side validation turns any failure of the validate call (a 5xx, a reset, a 403) into a check failure: a false error fails the preview",
    tests: { after: ["test/resources/incidentTemplate.test.ts", FAST_LANE] },
  },
  {
    id: "validate-on-no-change",
    item: "extra",
    file: "provider/factory.ts",
    find: "raw[ADOPT_KEY] === undefined && !unchanged) {",
    replace: "raw[ADOPT_KEY] === undefined) {",
    description:
      "check calls the validate endpoint for a declaration equal to the stored inputs: a no-change preview makes API calls",
    tests: { after: ["test/resources/incidentTemplate.test.ts", WHOLE_ACCOUNT] },
  },
  // Issue 28: never stricter than the service.
  {
    id: "bound-target-rota-rule",
    item: "extra",
    file: "resources/shared/escalationNodes.ts",
    find: 'refineTarget(t, ctx, t.binding !== undefined ? "none" : "warn");',
    replace: 'refineTarget(t, ctx, "refuse");',
    description:
      "an escalation path template's targets refuse a *_for_rota mode without selectedRotaId again, bound ones too (the template's reference has no such rule)",
    tests: { after: ["test/resources/escalationPathTemplate.test.ts", FAST_LANE] },
  },
  {
    id: "pay-rule-midnight-refused",
    item: "extra",
    file: "resources/payConfig.ts",
    find: "  return problems;\n}",
    replace: [
      "  (args.weeklyRules ?? []).forEach((r, i) => {",
      "    if (r.endTime <= r.startTime)",
      '      problems.push({ path: ["weeklyRules", i, "endTime"], message: "must be after startTime" });',
      "  });",
      "  return problems;",
      "}",
    ].join("\n"),
    description:
      "PayConfig's check refuses a weekly rule whose end is not after its start again (the service: equal times are the whole day, an earlier end runs past midnight)",
    tests: { after: ["test/resources/payConfig.test.ts", FAST_LANE] },
  },
  {
    id: "pay-rule-midnight-emulator",
    item: "extra",
    file: "emulator/families/payConfigs.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to find
    find: '      if (!CLOCK.test(r[key])) out.push({ field: `${at}.${key}`, message: "must be HH:MM (00:00-23:59)" });',
    replace: [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to plant
      '      if (!CLOCK.test(r[key])) out.push({ field: `${at}.${key}`, message: "must be HH:MM (00:00-23:59)" });',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to plant
      '    if (r.end_time <= r.start_time) out.push({ field: `${at}.end_time`, message: "must be after start_time" });',
    ].join("\n"),
    description:
      "the emulator refuses a weekly pay rule over midnight or over the whole day again (the API takes both)",
    tests: { after: ["test/resources/payConfig.test.ts", FAST_LANE] },
  },
  {
    id: "pay-rate-unit-any",
    item: "extra",
    file: "emulator/families/payConfigs.ts",
    find: "  if (!RATE_TIME_UNITS.includes(body.rate_time_unit))",
    replace: '  if (typeof body.rate_time_unit !== "string")',
    description:
      "the emulator takes any rate_time_unit again: a unit the service refuses (not hour or day) is created, and check only warns",
    tests: { after: ["test/resources/payConfig.test.ts", FAST_LANE] },
  },
  {
    id: "seed-role-refused",
    item: "extra",
    file: "resources/apiKey.ts",
    find: "roles: z.array(knownValues(API_KEY_ROLES)).default([]),",
    replace:
      'roles: z.array(z.enum(API_KEY_ROLES.filter((r) => r !== "pay_configs_editor") as [string, ...string[]])).default([]),',
    description:
      "ApiKey refuses a role the seed lists as assignable (pay_configs_editor, Authentication 6): a closed list again, and one short",
    tests: { after: ["test/resources/apiKey.test.ts", FAST_LANE] },
  },
  {
    id: "seed-roles-emulator",
    item: "extra",
    file: "emulator/localTypes.ts",
    find: "  addSeedRoles();",
    replace: "",
    description:
      "the emulator takes only the reference's roles: a key made with a seed role (pay_configs_editor) is refused, so no key the provider makes manages pay configurations",
    tests: { after: ["test/resources/apiKey.test.ts", FAST_LANE] },
  },
  {
    id: "volatile-flag-stored",
    item: "extra",
    file: "resources/escalationPathTemplate.ts",
    find: "  computed: () => ({}),",
    replace: [
      "  computed: (live) => ({",
      "    hasHistoricalEscalationPathVersions: live.has_historical_escalation_path_versions ?? false,",
      "  }),",
    ].join("\n"),
    description:
      "an escalation path template stores the server's volatile hasHistoricalEscalationPathVersions again: the first refresh after a templated path is made rewrites the state",
    tests: { after: ["test/resources/escalationPathTemplate.test.ts", FAST_LANE] },
  },
  {
    id: "warning-fails-check",
    item: "extra",
    file: "provider/factory.ts",
    find: "      if (isWarningIssue(issue)) continue;",
    replace: "",
    description:
      "a check warning (a rule with no published source, a value outside a closed list) fails the check instead of being said",
    tests: { after: ["test/provider/checkWarnings.test.ts test/badInputs.test.ts", FAST_LANE] },
  },
  {
    id: "export-readme-raw-names",
    item: "30.1",
    file: "cli/export/project.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to find
    find: 'export const quoted = (label: string) => md`"${label}"`;',
    replace:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to plant
      'export const quoted = (label: string) => md([`"${label}"`] as unknown as TemplateStringsArray);',
    description:
      "export READMEs write object and team names as Markdown, not text: a name can add HTML, a link or a heading",
    tests: { after: [FAST_LANE] },
  },
  {
    id: "export-yaml-json-only",
    item: "30.1",
    file: "cli/export/project.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to find
    find: '  return JSON.stringify(value).replace(\n    /[\\u007f-\\u0084\\u0086-\\u009f\\ufeff\\ufffe\\uffff]/g,\n    (c) => `\\\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,\n  );',
    replace: "  return JSON.stringify(value);",
    description:
      "Pulumi.yaml scalars written as JSON strings only: a DEL or C1 control character in a name makes the file invalid YAML",
    tests: { after: [FAST_LANE] },
  },
  {
    id: "split-shared-to-first-owner",
    item: "30.1",
    file: "cli/export/split.ts",
    find: "where = { team: owners.length === 1 ? owners[0] : undefined, owners };",
    replace: "where = { team: owners[0], owners };",
    description:
      "export --split-by team puts an object several teams own in its first owner's project: that team's stack changes what the others own",
    tests: { after: [FAST_LANE] },
  },
  {
    id: "split-no-lookups",
    item: "30.1",
    file: "cli/export/model.ts",
    find: "  if (context.elsewhere) {",
    replace: "  if (context.elsewhere && used.size < 0) {",
    description: "export --split-by team writes what another project declares as a literal id, not a lookup",
    tests: { after: [FAST_LANE] },
  },
  {
    id: "bulk-all-attributes-managed",
    item: "30.2",
    file: "cli/export/catalog.ts",
    find: "      managedAttributes: managed.length === attributes.length ? undefined : managed,",
    replace: "      managedAttributes: managed.length === attributes.length ? undefined : undefined,",
    description:
      "exported catalog entries manage every attribute: an attribute kept in the dashboard is overwritten by the stack",
    tests: { after: [FAST_LANE] },
  },
  {
    id: "bulk-despite-filter",
    item: "30.2",
    file: "cli/export/catalog.ts",
    find: "        : missing > 0\n",
    replace: "        : missing < 0\n",
    description:
      "a catalog type some of whose entries --name leaves out is written as one CatalogEntries, which deletes them",
    tests: { after: [FAST_LANE] },
  },
  {
    id: "export-check-local-inputs",
    item: "30.2",
    file: "cli/export/model.ts",
    find: "  const readBack = { ...(spec.toInputs(object.live, parsed) as Props), ...local };",
    replace: "  const readBack = { ...(spec.toInputs(object.live, parsed) as Props) };",
    more: [
      {
        find: "  const local = Object.fromEntries((spec.localInputs ?? []).map((k) => [k, parsed[k]]));\n",
        replace: "",
      },
    ],
    description:
      "the export's adoption check reads local inputs (managedAttributes) back from the API, which never holds them: every partial entry is reported as a write",
    tests: { after: [FAST_LANE] },
  },
  {
    id: "export-secret-call-unbroken",
    item: "30.1",
    file: "cli/export/render.ts",
    find: "    if (isSecret(value) && lead + flat.length + trail.length > WIDTH)\n",
    replace: "    if (isSecret(value) && lead + flat.length + trail.length < 0)\n",
    description:
      "the exported program keeps `config.requireSecret(…)` on one line however long its key: a formatter would change the file",
    tests: { after: [FAST_LANE] },
  },
  {
    id: "alert-route-empty-conditions-refused",
    item: "28.3",
    file: "resources/alertRoute.ts",
    find: '      if (key === "conditionGroups" && ic.conditionGroups?.length === 0) continue;\n',
    replace: "",
    description:
      "AlertRoute check refuses `incidentConfig.conditionGroups: []` on a route without incident creation (stricter than the configurations the Terraform provider publishes)",
    tests: { after: ["test/terraformCorpus.test.ts", FAST_LANE] },
  },
  {
    id: "catalog-type-source-repo-url-format",
    item: "28.3",
    file: "resources/catalogType.ts",
    find: "  sourceRepoUrl: z.string().optional(),",
    replace: '  sourceRepoUrl: z.url("must be a URL").optional(),',
    description:
      'CatalogType check refuses a sourceRepoUrl that is not a URL (`""`), a format the reference does not publish and the Terraform provider\'s acceptance tests do not keep',
    tests: { after: ["test/terraformCorpus.test.ts", FAST_LANE] },
  },
  {
    id: "entries-days-as-24h",
    item: "29.1",
    file: "emulator/families/shared/scheduleEntries.ts",
    find: "return instantOf(this.anchorDay + offset, this.anchorTime, this.tz);",
    replace: "return this.anchor + offset * 86_400_000;",
    description:
      "Schedule entries count a daily handover as 24 elapsed hours: a 09:00 handover drifts to 08:00 or 10:00 local across a daylight-saving change",
    tests: { after: ["test/emulator/scheduleEntries.test.ts"] },
  },
  {
    id: "entries-overrides-not-merged",
    item: "29.1",
    file: "emulator/families/shared/scheduleEntries.ts",
    find: "subtract([[e.start, e.end]], cuts)",
    replace: "subtract([[e.start, e.end]], cuts.slice(0, 0))",
    description:
      "Schedule entries' `final` keeps the scheduled shift under an override: two people on call on one layer, the override not replacing its interval",
    tests: { after: ["test/emulator/scheduleEntries.test.ts"] },
  },
  {
    id: "read-only-loose-preview",
    item: "29.4",
    file: "cli/readOnlyClient.ts",
    find: '  if (spec.method !== "POST") return false;',
    replace: '  if (spec.method !== "POST") return spec.path.includes("/actions/preview_entries");',
    description:
      "The read-only client lets any method through to a path that merely contains /actions/preview_entries (a PUT, a DELETE, a look-alike path)",
    tests: { after: ["test/cli/readOnlyClient.test.ts"] },
  },
  {
    id: "shifts-gaps-reversed",
    item: "29.2",
    file: "cli/shifts.ts",
    find: "...minus(afterGaps, beforeGaps).map(",
    replace: "...minus(beforeGaps, afterGaps).map(",
    description:
      "plan-report --shifts reports the gaps a change closes as opened (before and after taken the wrong way round)",
    tests: { after: ["test/cli/shifts.test.ts"] },
  },
  {
    id: "paged-first-ignores-working-hours",
    item: "29.3",
    file: "cli/escalation.ts",
    find: "verdict = active(windowId);",
    replace: "verdict = true;",
    description:
      "Who is paged first takes a working-hours branch as always active: nights and weekends read as paging the day rota",
    tests: { after: ["test/cli/pagedFirst.test.ts"] },
  },
  {
    id: "coverage-gaps-exit-0",
    item: "29.5",
    file: "cli/main.ts",
    find: 'outcome === "gaps" ? EXIT_GAPS : EXIT_OK',
    replace: 'outcome === "gaps" ? EXIT_OK : EXIT_OK',
    description:
      "pulumi-incident coverage exits 0 when a schedule has a gap: the nightly job never says anyone is uncovered",
    tests: { after: ["test/cli/coverage.test.ts"] },
  },
  {
    id: "bucket-ignores-others",
    item: "extra",
    file: "provider/rateLimiter.ts",
    find: "  shareRate(): number {\n    return this.rate;",
    replace: "  shareRate(): number {\n    return this.refillPerSecond;",
    description:
      "the client's bucket refills at the server's whole rate while other processes spend the same key (each of K stacks applied at once assumes the whole budget: 429 storms, requests failing after 7 attempts; issue 30)",
    tests: { after: ["test/provider/rateLimiter.test.ts"] },
  },
  {
    id: "team-role-writes-any-object",
    item: "extra",
    file: "emulator/roles.ts",
    find: "  if (before !== undefined && !ours(before)) {",
    replace: "  if (before !== undefined && ours([])) {",
    description:
      "the emulator lets a key whose only write role is a team role change or delete another team's object (the reference: team roles apply to resources its teams own; issue 30)",
    tests: { after: ["test/emulator/roles.test.ts"] },
  },
  {
    id: "proxy-url-raw",
    item: "28.4",
    file: "provider/client.ts",
    find: "const shown = maskUrl(proxy.url);",
    replace: "const shown = proxy.url;",
    description:
      "the network hint prints the proxy URL raw: a proxy password (HTTP_PROXY=http://user:password@host) lands in CI logs",
    tests: { after: ["test/provider/proxy.test.ts", FAST_LANE] },
  },
  {
    id: "log-level-plain-error",
    item: "28.4",
    file: "provider/credentials.ts",
    find: "    throw new SettingsError(\n      level.setting,\n",
    replace: "    throw new Error(\n",
    description:
      "an invalid incident:logLevel raised as a plain Error: a program with a lookup fails after about 90 s, with a stack trace",
    tests: { after: ["test/provider/settings.test.ts", FAST_LANE] },
  },
  {
    id: "new-group-not-found",
    item: "28.5",
    file: "resources/scheduleSyncTarget.ts",
    find: "      if (existedBefore === undefined) return undefined;\n",
    replace: "      return undefined;\n",
    description:
      "ScheduleSyncTarget's findCreated gives up on a new Slack user group (the API answers no name or handle): a lost create makes a second group",
    tests: { after: ["test/resources/scheduleSyncTarget.test.ts test/provider/faults.test.ts", FAST_LANE] },
  },
  {
    id: "second-allowlist-warned",
    item: "28.4",
    file: "provider/programRules.ts",
    find: '      if (problem?.severity === "error") throw new ProgramRuleError(problem.message);\n',
    replace: "",
    description:
      "a program rule's error is only said as a warning: a second IpAllowlist of one account is registered, and each `up --refresh` rewrites the other's list",
    tests: { after: ["test/provider/programRules.test.ts", FAST_LANE] },
  },
  {
    id: "override-overlap-unsaid",
    item: "28.4",
    file: "provider/resource.ts",
    find: "    declared?.(this);\n",
    replace: "    void declared;\n",
    description:
      "rules that read inputs never run: two overlapping ScheduleOverrides of one layer pass preview without a word",
    tests: { after: ["test/provider/programRules.test.ts", FAST_LANE] },
  },
  {
    id: "override-overlap-logged-only",
    item: "28.4",
    file: "provider/programRules.ts",
    find: 'if (problem?.severity === "error") programRuleFailure.raise(new ProgramRuleError(problem.message));',
    replace: 'if (problem?.severity === "error") void pulumi.log.error(problem.message, resource);',
    description:
      "a program rule's error is only logged: two overlapping ScheduleOverrides of one layer show an error, and the preview still succeeds (the CLI exits 0)",
    tests: {
      after: ["test/provider/programRules.test.ts"],
      "after-engine": ['-c jest.engine.config.js test/engine/cli.test.ts -t "program rules"'],
    },
  },
  {
    id: "override-gone-silent",
    item: "28.4",
    file: "resources/scheduleOverride.ts",
    find: "        if (isNotFound(error) && prior) await sayWhyGone(ctx, id, prior);\n",
    replace: "",
    more: [{ find: "async function sayWhyGone(", replace: "export async function sayWhyGone(" }],
    description:
      "a ScheduleOverride another one took over reads as gone with nothing said: refresh and up flip between the two in silence",
    tests: { after: ["test/resources/scheduleOverride.test.ts", FAST_LANE] },
  },
  {
    id: "migrate-restrictions-dropped",
    item: "31.1",
    file: "cli/migrate/pagerduty.ts",
    find: "  if (restrictions.length === 0) return { hours: FULL_WEEK, items: [] };",
    replace: "  if (restrictions.length >= 0) return { hours: FULL_WEEK, items: [] };",
    description:
      "migrate writes a PagerDuty layer's daily and weekly restrictions as around the clock: the working intervals dropped, people on call off their hours",
    tests: { after: ["test/cli/migrate/pagerduty.test.ts"] },
  },
  {
    id: "migrate-layers-not-stacked",
    item: "31.1",
    file: "cli/migrate/pagerduty.ts",
    find: "      const hours = subtract(member.hours, union(...above.map((q) => q.hours)));",
    replace: "      const hours = subtract(member.hours, union(...above.slice(0, 0).map((q) => q.hours)));",
    description:
      "migrate writes PagerDuty's stacked layers side by side without taking the higher layers' hours out of the lower ones: two people on call where PagerDuty has one",
    tests: { after: ["test/cli/migrate/pagerduty.test.ts"] },
  },
  {
    id: "migrate-future-layer-now",
    item: "31.1",
    file: "cli/migrate/pagerduty.ts",
    find: "      const member = chain.find((m) => m.start <= from && from < m.end) as",
    replace: "      const member = chain.find((m) => from < m.end) as",
    description:
      "migrate puts a layer that starts next month on call from now (no version with effectiveFrom)",
    tests: { after: ["test/cli/migrate/pagerduty.test.ts"] },
  },
  {
    id: "migrate-opsgenie-delays-absolute",
    item: "31.1",
    file: "cli/migrate/opsgenie.ts",
    find: "        ? (next - minutes) * 60",
    replace: "        ? next * 60",
    description:
      "migrate takes Opsgenie's rule delays (counted from the start of the escalation) as each level's own wait: later levels page too late",
    tests: { after: ["test/cli/migrate/opsgenie.test.ts"] },
  },
  {
    id: "migrate-opsgenie-night-restriction",
    item: "31.1",
    file: "cli/migrate/opsgenie.ts",
    find: "    const length = (((e - s) % 1440) + 1440) % 1440 || 1440;",
    replace: "    const length = Math.max(e - s, 0) || 1440;",
    description:
      "migrate reads an Opsgenie time-of-day restriction that runs past midnight (18:00 to 09:00) as the whole day",
    tests: { after: ["test/cli/migrate/opsgenie.test.ts"] },
  },
  {
    id: "migrate-missing-user-silent",
    item: "31.1",
    file: "cli/migrate/common.ts",
    find: "      if (p?.hereId) return [];",
    replace: "      if (p?.hereId || !p?.hereId) return [];",
    description:
      "migrate drops a person this account lacks from the rotations and levels without naming them in the plan",
    tests: { after: ["test/cli/migrate/pagerduty.test.ts"] },
  },
  {
    id: "migrate-verify-blind",
    item: "31.3",
    file: "cli/migrate/verify.ts",
    find: "    if (JSON.stringify(a) === JSON.stringify(b)) continue;",
    replace: "    if (JSON.stringify(a) !== JSON.stringify(b) || a === b) continue;",
    description: "migrate --verify finds no difference, whatever the schedules hold",
    tests: { after: ["test/cli/migrate/pagerduty.test.ts"] },
  },
  {
    id: "paged-first-unread-names",
    item: "29.3",
    file: "cli/pagedFirst.ts",
    find: "            see(entries.final);\n",
    replace: "",
    description:
      "Who is paged first names a user target by id though the entries read for the schedule it pages name them by e-mail",
    tests: { after: ["test/cli/shifts.test.ts"] },
  },
  {
    id: "paged-first-nights-dated",
    item: "29.3",
    file: "cli/pagedFirst.ts",
    find: "    if (midnights < 0 || midnights > 6) {",
    replace: "    if (midnights !== 0) {",
    description:
      "Who is paged first dates every overnight run one by one again, though it recurs every weekday night of the window",
    tests: { after: ["test/cli/pagedFirst.test.ts", "test/cli/shifts.test.ts"] },
  },
  {
    id: "importer-type-exported",
    item: "30.2",
    file: "cli/export/catalog.ts",
    find: '  if (object.kind === "CatalogType") return object.id;',
    replace: '  if (object.kind === "CatalogType") return undefined;',
    description:
      "export declares a catalog type the catalog importer syncs (its configuration owns the type): the stack and the importer both write it",
    tests: { after: ["test/cli/exportSplit.test.ts"] },
  },
  {
    id: "migrate-verify-written-in-utc",
    item: "31.3",
    file: "cli/shifts.ts",
    find: "  return scheduleEntries({ timezone: inputs.timezone, rotations: rotations as never }, [], window, {",
    replace: '  return scheduleEntries({ timezone: "UTC", rotations: rotations as never }, [], window, {',
    description:
      "a schedule that does not exist yet (migrate --verify before pulumi up, plan-report's new schedule) is computed in UTC, not in its own time zone",
    tests: {
      after: [
        "test/cli/migrate/pagerduty.test.ts",
        "test/cli/migrate/opsgenie.test.ts",
        "test/cli/shifts.test.ts",
      ],
    },
  },
  {
    id: "migrate-namesakes-unsaid",
    item: "31.2",
    file: "cli/migrate/namesakes.ts",
    find: "      if (existing.name !== name) continue;",
    replace: "      if (existing.name !== name || existing.id) continue;",
    description:
      "migrate's plan no longer names a schedule this account already has under the name it gives: up makes a second one",
    tests: { after: ["test/cli/migrate/pagerduty.test.ts"] },
  },
  {
    id: "migrate-source-writes",
    item: "31.1",
    file: "cli/migrate/sourceClient.ts",
    find: '    if (spec.method !== "GET") throw new SourceWriteRefused(spec);',
    replace: '    if (spec.method === "DELETE") throw new SourceWriteRefused(spec);',
    description: "migrate's source client lets a POST or a PUT through to the account it migrates from",
    tests: { after: ["test/cli/migrate/command.test.ts"] },
  },
  {
    id: "migrate-comment-unescaped",
    item: "31.1",
    file: "cli/export/render.ts",
    find: '  return text.replace(/[\\r\\n\\u2028\\u2029]+/g, " ");',
    replace: "  return text;",
    description:
      "A resource's note (a source's names in it) is written into a `//` comment as it is: a line break in a name ends the comment and the rest runs as code",
    tests: { after: ["test/cli/migrate/command.test.ts"] },
  },
  {
    id: "pagerduty-emulator-lowest-layer-wins",
    item: "31.4",
    file: "emulator/sources/pagerduty/shared/renderedSchedule.ts",
    find: "    ...layers.map((l) => layerEntries(l, timeZone, window)),",
    replace: "    ...[...layers].reverse().map((l) => layerEntries(l, timeZone, window)),",
    description:
      "The PagerDuty emulator's final schedule lets Layer 1 win over the layers above it (the API lists the highest layer first)",
    tests: { after: ["test/emulator/sources/pagerduty.test.ts"] },
  },
];

// ------------------------------------------------------------------------------------------ options

interface Options {
  dir?: string;
  plan?: string;
  commands: string[];
  only?: Set<string>;
  check: boolean;
  related: boolean;
  baseline: boolean;
  build: boolean;
  timeoutMin: number;
  out?: string;
  compare?: [string, string];
  list: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    commands: [],
    check: false,
    related: false,
    baseline: true,
    build: true,
    timeoutMin: 40,
    list: false,
  };
  let rest = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (rest || !a.startsWith("--")) {
      o.commands.push(a);
      continue;
    }
    switch (a) {
      case "--":
        rest = true;
        break;
      case "--dir":
        o.dir = path.resolve(value());
        break;
      case "--plan":
        o.plan = value();
        break;
      case "--only":
        o.only = new Set(value().split(",").filter(Boolean));
        break;
      case "--check":
        o.check = true;
        break;
      case "--related":
        o.related = true;
        break;
      case "--no-baseline":
        o.baseline = false;
        break;
      case "--no-build":
        o.build = false;
        break;
      case "--timeout-min":
        o.timeoutMin = Number(value());
        break;
      case "--out":
        o.out = path.resolve(value());
        break;
      case "--compare":
        o.compare = [path.resolve(value()), path.resolve(value())];
        break;
      case "--list":
        o.list = true;
        break;
      default:
        throw new Error(`unknown option ${a}`);
    }
  }
  if (o.only) {
    const unknown = [...o.only].filter((id) => !DEFECTS.some((d) => d.id === id));
    if (unknown.length) throw new Error(`unknown defect(s): ${unknown.join(", ")}`);
  }
  return o;
}

/** A command's words: whitespace-separated, "double" or 'single' quotes group. */
function words(command: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of command.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

// ------------------------------------------------------------------------------------------ applying

type NotApplied = { status: "does not apply" | "ambiguous" | "file has local changes"; detail: string };
type Applied = { status: "applied"; original: string } | NotApplied;

const editsOf = (d: Defect) => [{ find: d.find, replace: d.replace }, ...(d.more ?? [])];

function occurrences(text: string, find: string): number {
  let n = 0;
  for (let at = text.indexOf(find); at >= 0; at = text.indexOf(find, at + find.length)) n++;
  return n;
}

function applicability(dir: string, d: Defect): NotApplied | { status: "ok" } {
  const file = path.join(dir, d.file);
  if (!fs.existsSync(file)) return { status: "does not apply", detail: `${d.file} does not exist` };
  const text = fs.readFileSync(file, "utf8");
  for (const [i, edit] of editsOf(d).entries()) {
    const which = i === 0 ? "the text" : `edit ${i + 1}'s text`;
    const n = occurrences(text, edit.find);
    if (n === 0) return { status: "does not apply", detail: `${which} is not in ${d.file}` };
    if (n > 1) return { status: "ambiguous", detail: `${which} occurs ${n} times in ${d.file}` };
  }
  return { status: "ok" };
}

/** Files restored on exit, whatever the exit: path → original text. */
const pending = new Map<string, string>();

function restoreAll(): void {
  for (const [file, original] of pending) {
    fs.writeFileSync(file, original);
    pending.delete(file);
  }
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    restoreAll();
    process.stderr.write(
      `\nplant-defects: ${signal}: the planted file is restored (dist/ may need a rebuild)\n`,
    );
    process.exit(130);
  });
}
process.on("exit", restoreAll);

function apply(dir: string, d: Defect): Applied {
  const ok = applicability(dir, d);
  if (ok.status !== "ok") return ok;
  const dirty = spawnSync("git", ["-C", dir, "status", "--porcelain", "--", d.file], { encoding: "utf8" });
  if (dirty.status === 0 && dirty.stdout.trim() !== "")
    return { status: "file has local changes", detail: `${d.file}: ${dirty.stdout.trim()}` };
  const file = path.join(dir, d.file);
  const original = fs.readFileSync(file, "utf8");
  pending.set(file, original);
  fs.writeFileSync(
    file,
    editsOf(d).reduce((text, edit) => text.replace(edit.find, () => edit.replace), original),
  );
  return { status: "applied", original };
}

function restore(dir: string, d: Defect, original: string): void {
  const file = path.join(dir, d.file);
  fs.writeFileSync(file, original);
  pending.delete(file);
}

/** Whether programs run from dist/ see the file (package sources). */
const inPackage = (file: string) => /^(provider|resources|cli|emulator)\/|^index\.ts$/.test(file);

function build(dir: string, log: string): { ok: boolean; seconds: number; output: string } {
  const t0 = Date.now();
  const r = spawnSync("npm", ["run", "build", "--silent"], { cwd: dir, encoding: "utf8" });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  fs.appendFileSync(log, `$ npm run build\n${output}\n`);
  return { ok: r.status === 0, seconds: (Date.now() - t0) / 1000, output };
}

// ------------------------------------------------------------------------------------------ running

interface Failure {
  file: string;
  test: string;
}

interface RunResult {
  command: string;
  exitCode: number | null;
  seconds: number;
  timedOut: boolean;
  /** Failed tests (a file that failed to run at all: test "(file failed to run)"). */
  failures: Failure[];
  /** A run without a JSON report (jest crashed, or killed). */
  noReport?: boolean;
  log: string;
}

async function runJest(
  dir: string,
  command: string,
  logDir: string,
  tag: string,
  timeoutMin: number,
): Promise<RunResult> {
  const json = path.join(logDir, `${tag}.json`);
  const log = path.join(logDir, `${tag}.log`);
  fs.rmSync(json, { force: true });
  const args = [...words(command), "--ci", "--json", `--outputFile=${json}`];
  const fd = fs.openSync(log, "w");
  fs.writeSync(fd, `$ (cd ${dir} && npx jest ${args.join(" ")})\n`);
  const t0 = Date.now();
  const child = spawn(path.join(dir, "node_modules", ".bin", "jest"), args, {
    cwd: dir,
    stdio: ["ignore", fd, fd],
    detached: true, // its own process group: a timeout ends jest and everything it started
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }, timeoutMin * 60_000);
  const exitCode = await new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  clearTimeout(timer);
  fs.closeSync(fd);
  const seconds = (Date.now() - t0) / 1000;
  const result: RunResult = { command, exitCode, seconds, timedOut, failures: [], log };
  if (!fs.existsSync(json)) {
    result.noReport = true;
    result.failures.push({
      file: "(jest)",
      test: timedOut ? `timed out after ${timeoutMin} min` : `no report (exit ${exitCode})`,
    });
    return result;
  }
  const report = JSON.parse(fs.readFileSync(json, "utf8")) as {
    testResults: {
      name: string;
      status: string;
      message?: string;
      assertionResults: { fullName: string; status: string }[];
    }[];
  };
  for (const file of report.testResults) {
    const rel = path.relative(dir, file.name);
    const failed = file.assertionResults.filter((a) => a.status === "failed");
    for (const a of failed) result.failures.push({ file: rel, test: a.fullName });
    if (file.status === "failed" && failed.length === 0) {
      const first = (file.message ?? "").split("\n").find((l) => l.trim() !== "" && !l.includes("●")) ?? "";
      result.failures.push({ file: rel, test: `(file failed to run) ${first.trim().slice(0, 160)}` });
    }
  }
  if (timedOut) result.failures.push({ file: "(jest)", test: `timed out after ${timeoutMin} min` });
  return result;
}

/** Jest options that take the next word as their value. */
const VALUED = new Set([
  "-c",
  "--config",
  "-t",
  "--testNamePattern",
  "-w",
  "--maxWorkers",
  "--selectProjects",
]);

/**
 * The baseline runs: the defects' commands grouped by their options (config, name pattern), each
 * group's test files run once together (a file several defects share runs once); a command
 * without files (a whole lane) runs as it is.
 */
function baselineCommands(commands: string[]): string[] {
  const groups = new Map<string, Set<string>>();
  const whole = new Set<string>();
  for (const command of commands) {
    const options: string[] = [];
    const files: string[] = [];
    const w = words(command);
    for (let i = 0; i < w.length; i++) {
      if (VALUED.has(w[i]!)) options.push(w[i]!, JSON.stringify(w[++i] ?? ""));
      else if (w[i]!.startsWith("-")) options.push(w[i]!);
      else files.push(w[i]!);
    }
    if (files.length === 0) {
      whole.add(command);
      continue;
    }
    const key = options.join(" ");
    const group = groups.get(key) ?? new Set<string>();
    groups.set(key, group);
    for (const f of files) group.add(f);
  }
  return [
    ...whole,
    ...[...groups].map(([options, files]) => [options, ...[...files].sort()].filter(Boolean).join(" ")),
  ];
}

const keyOf = (f: Failure) => `${f.file} › ${f.test}`;

// ------------------------------------------------------------------------------------------ report

interface DefectResult {
  id: string;
  item: string;
  file: string;
  description: string;
  status: string;
  detail?: string;
  build?: { ok: boolean; seconds: number; output?: string };
  commands: string[];
  runs: RunResult[];
  /** Failed with the defect, not in the baseline. */
  caughtBy: Failure[];
  seconds: number;
}

interface Results {
  dir: string;
  commit: string;
  startedAt: string;
  baseline: RunResult[];
  defects: DefectResult[];
}

function caughtText(r: DefectResult, max = 6): string {
  if (r.status !== "applied") return `**${r.status.toUpperCase()}** (${r.detail ?? ""})`;
  if (r.caughtBy.length === 0) return "**NOT CAUGHT**";
  const shown = r.caughtBy.slice(0, max).map((f) => `${f.file} › ${f.test}`);
  if (r.caughtBy.length > max) shown.push(`(+${r.caughtBy.length - max} more)`);
  const files = new Set(r.caughtBy.map((f) => f.file)).size;
  return `${r.caughtBy.length} test(s) in ${files} file(s): ${shown.join("; ")}`;
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function printTable(results: Results): void {
  console.log(`\n## ${results.dir} (${results.commit})\n`);
  if (results.baseline.some((b) => b.failures.length)) {
    console.log("Failing without any defect (not counted):");
    for (const b of results.baseline) for (const f of b.failures) console.log(`- ${keyOf(f)}`);
    console.log("");
  }
  console.log("| defect | item | change | commands | s | caught by |");
  console.log("|---|---|---|---|---|---|");
  for (const r of results.defects) {
    const commands = r.commands.map((c) => (c === "" ? "(whole lane)" : c)).join(" + ");
    console.log(
      `| ${r.id} | ${r.item} | ${cell(`${r.file}: ${r.description}`)} | ${cell(commands)} | ${r.seconds.toFixed(0)} | ${cell(caughtText(r))} |`,
    );
  }
}

function compare(beforeFile: string, afterFile: string): void {
  const [before, after] = [beforeFile, afterFile].map(
    (f) => JSON.parse(fs.readFileSync(f, "utf8")) as Results,
  );
  const byId = (rs: Results) => new Map(rs.defects.map((d) => [d.id, d]));
  const [b, a] = [byId(before!), byId(after!)];
  console.log(
    `| defect | item | change | caught before (${before!.commit}) | caught after (${after!.commit}) |`,
  );
  console.log("|---|---|---|---|---|");
  const lost: string[] = [];
  for (const d of DEFECTS) {
    const rb = b.get(d.id);
    const ra = a.get(d.id);
    if (!rb && !ra) continue;
    const text = (r?: DefectResult) => (r ? caughtText(r, 4) : "(not run)");
    if (ra && ra.status === "applied" && ra.caughtBy.length === 0) lost.push(d.id);
    console.log(
      `| ${d.id} | ${d.item} | ${cell(`${d.file}: ${d.description}`)} | ${cell(text(rb))} | ${cell(text(ra))} |`,
    );
  }
  console.log(lost.length ? `\nNOT CAUGHT AFTER: ${lost.join(", ")}` : "\nEvery defect run after is caught.");
}

// ------------------------------------------------------------------------------------------ main

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (o.compare) return compare(...o.compare);
  const chosen = DEFECTS.filter((d) => !o.only || o.only.has(d.id));
  if (o.list) {
    for (const d of chosen) console.log(`${d.id} [${d.item}] ${d.file}: ${d.description}`);
    return;
  }
  if (!o.dir) throw new Error("--dir <checkout> is required");
  const dir = o.dir;
  if (o.check) {
    for (const d of chosen) {
      const a = applicability(dir, d);
      console.log(`${d.id}: ${a.status === "ok" ? "applies" : `${a.status.toUpperCase()}: ${a.detail}`}`);
    }
    return;
  }
  if (o.related) {
    for (const file of [...new Set(chosen.map((d) => d.file))]) {
      const r = spawnSync(
        path.join(dir, "node_modules", ".bin", "jest"),
        // Its roots: jest.config.js roots only test/, so sources would not be in the module map.
        ["--roots", dir, "--listTests", "--findRelatedTests", file],
        {
          cwd: dir,
          encoding: "utf8",
        },
      );
      const tests = r.stdout
        .split("\n")
        .filter(Boolean)
        .map((t) => path.relative(dir, t))
        .sort();
      console.log(
        `${file} (${chosen
          .filter((d) => d.file === file)
          .map((d) => d.id)
          .join(", ")}):\n  ${tests.join("\n  ")}`,
      );
    }
    return;
  }
  const commandsOf = (d: Defect): string[] => (o.plan ? (d.tests?.[o.plan] ?? []) : o.commands);
  const todo = chosen.filter((d) => commandsOf(d).length > 0);
  if (todo.length === 0) throw new Error("no commands: give jest commands or --plan <name>");
  const commit = spawnSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], {
    encoding: "utf8",
  }).stdout.trim();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "plant-defects-"));
  console.log(`plant-defects: ${todo.length} defect(s) in ${dir} (${commit}); logs in ${logDir}`);
  const results: Results = { dir, commit, startedAt: new Date().toISOString(), baseline: [], defects: [] };
  const save = () => {
    if (o.out) fs.writeFileSync(o.out, `${JSON.stringify(results, null, 2)}\n`);
  };

  const needBuild = o.build && todo.some((d) => inPackage(d.file));
  if (needBuild) {
    const b = build(dir, path.join(logDir, "build.log"));
    if (!b.ok) throw new Error(`npm run build fails without any defect:\n${b.output}`);
  }
  if (o.baseline) {
    for (const [i, command] of baselineCommands(todo.flatMap(commandsOf)).entries()) {
      console.log(`baseline: jest ${command || "(whole lane)"}`);
      const r = await runJest(dir, command, logDir, `baseline-${i}`, o.timeoutMin);
      console.log(`  ${r.seconds.toFixed(0)} s, ${r.failures.length} failure(s) without a defect`);
      results.baseline.push(r);
      save();
    }
  }
  const baselineFailures = new Set(results.baseline.flatMap((r) => r.failures.map(keyOf)));

  for (const d of todo) {
    const t0 = Date.now();
    const commands = commandsOf(d);
    const result: DefectResult = {
      id: d.id,
      item: d.item,
      file: d.file,
      description: d.description,
      status: "",
      commands,
      runs: [],
      caughtBy: [],
      seconds: 0,
    };
    const applied = apply(dir, d);
    result.status = applied.status;
    if (applied.status !== "applied") {
      result.detail = applied.detail;
      console.log(`${d.id}: ${applied.status.toUpperCase()}: ${applied.detail}`);
    } else {
      try {
        console.log(`${d.id}: planted in ${d.file}`);
        if (o.build && inPackage(d.file)) {
          const b = build(dir, path.join(logDir, `${d.id}-build.log`));
          result.build = {
            ok: b.ok,
            seconds: b.seconds,
            ...(b.ok ? {} : { output: b.output.slice(0, 2000) }),
          };
          if (!b.ok) console.log(`  npm run build FAILS with the defect (tsc); tests run on what it emitted`);
        }
        for (const [i, command] of commands.entries()) {
          const r = await runJest(dir, command, logDir, `${d.id}-${i}`, o.timeoutMin);
          result.runs.push(r);
          console.log(
            `  jest ${command || "(whole lane)"}: ${r.seconds.toFixed(0)} s, ${r.failures.length} failure(s)`,
          );
        }
      } finally {
        restore(dir, d, applied.original);
        if (o.build && inPackage(d.file)) {
          const b = build(dir, path.join(logDir, `${d.id}-restore-build.log`));
          if (!b.ok) console.log(`  npm run build fails after restoring ${d.file}: see ${logDir}`);
        }
      }
      const seen = new Set<string>();
      for (const f of result.runs.flatMap((r) => r.failures)) {
        const key = keyOf(f);
        if (baselineFailures.has(key) || seen.has(key)) continue;
        seen.add(key);
        result.caughtBy.push(f);
      }
    }
    result.seconds = (Date.now() - t0) / 1000;
    results.defects.push(result);
    save();
    console.log(`  → ${caughtText(result, 3)}`);
  }
  printTable(results);
  if (o.out) console.log(`\nresults: ${o.out}`);
}

if (require.main === module) {
  main().catch((error) => {
    restoreAll();
    console.error(`plant-defects: ${(error as Error).message ?? error}`);
    process.exit(1);
  });
}
