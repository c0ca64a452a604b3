/**
 * A migration as a Pulumi TypeScript project, written by the export's code writer (cli/export:
 * names, references, layout, escaping; one module per kind above a size): the declarations as
 * resources (no `adoptId`: they are made), people as `getUser` lookups by e-mail and teams as
 * `getTeam` lookups by name, each approximation as a comment above its resource, the plan in the
 * README, and a stack output `migrated` naming what each source schedule and escalation policy
 * became (what `migrate --verify` reads).
 */
import {
  assignNames,
  camelCase,
  type ExportedResource,
  type ExportModel,
  inDependencyOrder,
  type Lookup,
  type Value,
} from "../export/model";
import { safeIdentifier } from "../export/names";
import { type Files, projectFiles, titleBlock } from "../export/project";
import { fenced, headingBlock, inlineCode, md, paragraph, renderBlocks, tableBlock } from "../markdown";
import { notesOf } from "./common";
import type { Migration, Reference } from "./model";
import { planBlocks } from "./plan";
import { sourceTitle } from "./sourceClient";

/** The stack output that maps source ids to what they became here. */
export const OUTPUT_NAME = "migrated";

export interface MigrationProgram {
  model: ExportModel;
  files: Files;
  /** Declaration key → resource name (for the plan). */
  resourceNames: Map<string, string>;
}

const isReference = (v: unknown): v is Reference =>
  v !== null && typeof v === "object" && ("$user" in v || "$team" in v || "$object" in v);

export function migrationProgram(
  migration: Migration,
  options: { project: string; modules?: boolean; packageVersion: string },
): MigrationProgram {
  const names = assignNames(migration.declarations.map((d) => ({ kind: d.kind, id: d.key, label: d.label })));
  const variables = new Map(migration.declarations.map((d, i) => [d.key, names[i]!.variable]));
  const taken = new Set(names.map((n) => n.variable));

  // Lookups for the people and teams the inputs name.
  const emails = new Set<string>();
  const teams = new Set<string>();
  const collect = (v: unknown) => {
    if (isReference(v)) {
      if ("$user" in v) emails.add(v.$user);
      if ("$team" in v) teams.add(v.$team);
    } else if (v !== null && typeof v === "object") Object.values(v).forEach(collect);
  };
  for (const d of migration.declarations) collect(d.inputs);
  const lookups: Lookup[] = [];
  const userVariables = new Map<string, string>();
  for (const email of [...emails].sort()) {
    const variable = safeIdentifier(camelCase(email.split("@")[0]!, "user"), "User", taken, true);
    userVariables.set(email, variable);
    const person = migration.people.find((p) => p.email === email);
    lookups.push({ variable, fn: "getUserOutput", args: { email }, id: person?.hereId ?? email });
  }
  const teamVariables = new Map<string, string>();
  for (const name of [...teams].sort()) {
    const variable = safeIdentifier(`${camelCase(name, "team")}Team`, "", taken);
    teamVariables.set(name, variable);
    lookups.push({ variable, fn: "getTeamOutput", args: { name }, id: name });
  }

  const resources: ExportedResource[] = migration.declarations.map((d, i) => {
    const dependsOn = new Set<string>();
    const toValue = (v: unknown): Value => {
      if (isReference(v)) {
        const variable =
          "$user" in v
            ? userVariables.get(v.$user)!
            : "$team" in v
              ? teamVariables.get(v.$team)!
              : variables.get(v.$object)!;
        if ("$object" in v) dependsOn.add(variable);
        return { $ref: variable };
      }
      if (Array.isArray(v)) return v.map(toValue);
      if (v !== null && typeof v === "object")
        return Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== undefined)
            .map(([k, x]) => [k, toValue(x)]),
        );
      return v as Value;
    };
    const args = toValue(d.inputs) as { [key: string]: Value };
    return {
      kind: d.kind,
      id: d.key,
      label: d.label,
      resourceName: names[i]!.resourceName,
      variable: names[i]!.variable,
      args,
      dependsOn: [...dependsOn],
      differences: [],
      problems: [],
      notes: notesOf(d),
    };
  });
  const model: ExportModel = {
    resources: inDependencyOrder(resources),
    lookups,
    secrets: [],
    leftOut: [],
    notes: [],
    unlooked: [],
  };
  const byKey = new Map(model.resources.map((r) => [r.id, r]));
  const outputMap = (list: Migration["schedules"]): Value =>
    Object.fromEntries(list.map((m) => [m.sourceId, { $ref: byKey.get(m.key)!.variable }]));
  const resourceNames = new Map(model.resources.map((r) => [r.id, r.resourceName]));
  const title = sourceTitle(migration.source);
  const env = migration.source === "pagerduty" ? "PAGERDUTY_API_KEY" : "OPSGENIE_API_KEY";
  const files = projectFiles(model, {
    project: options.project,
    modules: options.modules,
    packageVersion: options.packageVersion,
    description: `On-call configuration migrated from ${title} by pulumi-incident migrate`,
    header: [
      `// Migrated from ${title} by \`pulumi-incident migrate\` (README.md: the plan, what is approximate).`,
      "// After `pulumi up`, `pulumi-incident migrate --verify` compares who is on call with the source.",
    ],
    outputs: [
      {
        name: OUTPUT_NAME,
        value: {
          schedules: outputMap(migration.schedules),
          escalationPaths: outputMap(migration.escalations),
        },
      },
    ],
    readme: (m) =>
      renderBlocks([
        titleBlock(options.project),
        paragraph(
          md`Migrated from ${title} by ${inlineCode("pulumi-incident migrate")}: ${String(m.resources.length)} objects.`,
        ),
        tableBlock(
          ["kind", "objects"],
          [...new Set(m.resources.map((r) => r.kind))].map((k) => [
            k,
            String(m.resources.filter((r) => r.kind === k).length),
          ]),
        ),
        headingBlock(2, "Create it"),
        fenced(
          "text",
          [
            "npm install",
            "pulumi stack init",
            "pulumi config set --secret incident:apiKey <an API key that may write the configuration>",
            "pulumi up",
          ].join("\n"),
        ),
        headingBlock(2, "Check who is on call"),
        paragraph(
          "After the first up, compare who is on call here with the source, over the next four weeks:",
        ),
        fenced(
          "text",
          [
            "pulumi stack output --json > outputs.json",
            `${env}=<a read-only key> INCIDENT_API_KEY=<a read-only key> \\`,
            `  npx pulumi-incident migrate --from ${migration.source} --verify --outputs outputs.json`,
          ].join("\n"),
        ),
        ...planBlocks(migration, resourceNames),
      ]),
  });
  return { model, files, resourceNames };
}
