/**
 * The files of the exported Pulumi project: Pulumi.yaml, package.json, tsconfig.json, README.md and
 * the program (index.ts, or one module per kind for large accounts).
 */
import {
  type Block,
  fenced,
  headingBlock,
  type InlineValue,
  inlineCode,
  list,
  md,
  paragraph,
  renderBlocks,
  renderedInline,
  tableBlock,
  text,
} from "../markdown";
import type { ExportedResource, ExportModel, Value } from "./model";
import { kindPlural, kindTitle } from "./names";
import { lookupStatement, outputStatement, resourceStatement } from "./render";

export interface ProjectOptions {
  /** The Pulumi project name. */
  project: string;
  /** One module per kind (`true`), one index.ts (`false`), or decided by size (undefined). */
  modules?: boolean;
  /** The version range of this package the project depends on. */
  packageVersion: string;
  /** Pulumi.yaml's description (default: what exported it). */
  description?: string;
  /** More of the README (a fleet's project: where it stands in the fleet), after its counts. */
  readmeBlocks?: Block[];
  /** The program's first lines (default: the export's, on adoption). */
  header?: readonly string[];
  /** The whole README instead of the export's (another command writing a project: `migrate`). */
  readme?: (model: ExportModel) => string;
  /** Stack outputs the program exports (in index.ts), each a value that may refer to resources. */
  outputs?: ReadonlyArray<{ name: string; value: Value }>;
}

/** Above this many resources a program is split into one module per kind. */
export const MODULES_ABOVE = 200;

export type Files = Record<string, string>;

export function projectFiles(model: ExportModel, options: ProjectOptions): Files {
  const wantModules = options.modules ?? model.resources.length > MODULES_ABOVE;
  const header = options.header ?? HEADER;
  const outputs = options.outputs ?? [];
  const program = wantModules
    ? (moduleFiles(model, header, outputs) ?? singleFile(model, header, outputs))
    : singleFile(model, header, outputs);
  return {
    "Pulumi.yaml": pulumiYaml(model, options.project, options.description),
    "package.json": `${JSON.stringify(
      {
        name: options.project,
        private: true,
        main: "index.ts",
        dependencies: {
          "@pulumi/pulumi": "^3.216.0",
          "pulumi-incident": options.packageVersion,
        },
        devDependencies: { "@types/node": "^20", typescript: "^5" },
      },
      null,
      2,
    )}\n`,
    "tsconfig.json": `${JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          outDir: "bin",
          target: "ES2020",
          module: "commonjs",
          moduleResolution: "node",
          esModuleInterop: true,
          skipLibCheck: true,
          forceConsistentCasingInFileNames: true,
        },
        files: Object.keys(program).filter((f) => f.endsWith(".ts")),
      },
      null,
      2,
    )}\n`,
    "README.md": options.readme ? options.readme(model) : readme(model, options),
    ...program,
  };
}

function pulumiYaml(model: ExportModel, project: string, description?: string): string {
  const lines = [
    `name: ${yamlString(project)}`,
    `description: ${yamlString(description ?? "Incident-response configuration exported by pulumi-incident export")}`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: true",
  ];
  if (model.secrets.length > 0) {
    lines.push("config:");
    for (const s of model.secrets) {
      // A plain key, safe as it is: the project name is letters, digits and `-_.` (checked), the key
      // an identifier (names.ts).
      lines.push(`  ${project}:${s.key}:`);
      lines.push(
        `    description: ${yamlString(`The ${s.input} of ${s.resource.kind} "${s.resource.label}" (secret)`)}`,
      );
      lines.push("    secret: true");
    }
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Any text as a YAML double-quoted scalar: JSON's string (valid YAML 1.2) with every character YAML
 * may not hold as it is (DEL, C1 controls, non-characters, the byte order mark) escaped as well.
 */
export function yamlString(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u0084\u0086-\u009f\ufeff\ufffe\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const LOOKUPS_COMMENT =
  "// People and teams are managed in the dashboard (or by SCIM): looked up by e-mail and name.";

const ELSEWHERE_COMMENT =
  "// Declared in other projects of the fleet (../README.md): looked up, never declared twice.";

/** The lookups: people and teams, then what other projects declare, each group under its comment. */
function lookupLines(model: ExportModel, exported: boolean): string[] {
  const people = model.lookups.filter((l) => l.declaredIn === undefined);
  const elsewhere = model.lookups.filter((l) => l.declaredIn !== undefined);
  return [
    ...(people.length > 0 ? [LOOKUPS_COMMENT, ...people.map((l) => lookupStatement(l, exported))] : []),
    ...(people.length > 0 && elsewhere.length > 0 ? [""] : []),
    ...(elsewhere.length > 0
      ? [ELSEWHERE_COMMENT, ...elsewhere.map((l) => lookupStatement(l, exported))]
      : []),
  ];
}

const HEADER = [
  "// Exported by `pulumi-incident export`: every object is adopted by id (`adoptId`), so the first",
  "// `pulumi up` takes the objects over without changing them. Once it has run, `adoptId` can go.",
];

/** The outputs' statements, and the variables they use. */
function outputLines(outputs: ReadonlyArray<{ name: string; value: Value }>): {
  lines: string[];
  uses: Set<string>;
} {
  const uses = new Set<string>();
  const visit = (v: unknown) => {
    if (v !== null && typeof v === "object") {
      if ("$ref" in (v as object)) uses.add((v as { $ref: string }).$ref);
      else Object.values(v as object).forEach(visit);
    }
  };
  for (const o of outputs) visit(o.value);
  return { lines: outputs.flatMap((o) => [outputStatement(o.name, o.value), ""]), uses };
}

function usesPulumi(model: ExportModel, resources: ExportedResource[]): { config: boolean; pulumi: boolean } {
  const text = JSON.stringify(resources.map((r) => r.args));
  const config = resources.some((r) => model.secrets.some((s) => s.resource === r));
  return { config, pulumi: config || text.includes('"$interpolate"') || text.includes('"$keyed"') };
}

function imports(model: ExportModel, resources: ExportedResource[]): string[] {
  const use = usesPulumi(model, resources);
  return [
    ...(use.pulumi ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as incident from "pulumi-incident";',
    ...(use.config ? ["", "const config = new pulumi.Config();"] : []),
  ];
}

function sections(resources: ExportedResource[], exported = false): string[] {
  const out: string[] = [];
  let kind: string | undefined;
  for (const r of resources) {
    // Parts written under their whole (options under their field) start no section of their own.
    const part = kind !== undefined && r.kind.startsWith(kind) && r.kind !== kind;
    if (r.kind !== kind && !part) {
      kind = r.kind;
      out.push(`// ${kindTitle(kind)}`);
    }
    out.push(resourceStatement(r, exported), "");
  }
  return out;
}

function singleFile(
  model: ExportModel,
  header: readonly string[],
  outputs: ReadonlyArray<{ name: string; value: Value }>,
): Files {
  const lines = [...header, ...imports(model, model.resources), ""];
  if (model.lookups.length > 0) lines.push(...lookupLines(model, false), "");
  lines.push(...sections(model.resources));
  if (outputs.length > 0) lines.push("// Stack outputs", ...outputLines(outputs).lines);
  return { "index.ts": `${lines.join("\n").trimEnd()}\n` };
}

/**
 * One module per kind (`alertRoutes.ts`, …) plus lookups.ts; index.ts imports them in dependency
 * order. Undefined when kinds refer to each other both ways (modules would import in a cycle).
 */
function moduleFiles(
  model: ExportModel,
  header: readonly string[],
  outputs: ReadonlyArray<{ name: string; value: Value }>,
): Files | undefined {
  const kindOf = new Map(model.resources.map((r) => [r.variable, r.kind]));
  const lookupVariables = new Set(model.lookups.map((l) => l.variable));
  const order: string[] = [];
  for (const r of model.resources) if (!order.includes(r.kind)) order.push(r.kind);
  // Resources come in dependency order: a kind may only use kinds placed before it.
  for (const r of model.resources) {
    for (const d of r.dependsOn) {
      const k = kindOf.get(d);
      if (k && order.indexOf(k) > order.indexOf(r.kind)) return undefined;
    }
  }
  const files: Files = {};
  // One module per kind, named by its plural (`apiKeys.ts`); a kind whose plural another kind's
  // module already has (or `index`, `lookups`) is named by its own name.
  const moduleNames = new Map<string, string>();
  const taken = new Set(["index", "lookups"]);
  for (const kind of order) {
    let name = kindPlural(kind);
    if (taken.has(name)) name = `${kind[0]!.toLowerCase()}${kind.slice(1)}`;
    for (let n = 2; taken.has(name); n++) name = `${kindPlural(kind)}${n}`;
    taken.add(name);
    moduleNames.set(kind, name);
  }
  const moduleName = (kind: string) => moduleNames.get(kind)!;
  if (model.lookups.length > 0) {
    files["lookups.ts"] =
      `${['import * as incident from "pulumi-incident";', "", ...lookupLines(model, true)].join("\n")}\n`;
  }
  for (const kind of order) {
    const resources = model.resources.filter((r) => r.kind === kind);
    const used = new Map<string, Set<string>>();
    const text = JSON.stringify(resources.map((r) => r.args));
    for (const r of resources) {
      for (const d of r.dependsOn) {
        const k = kindOf.get(d);
        if (k && k !== kind)
          (used.get(moduleName(k)) ?? used.set(moduleName(k), new Set()).get(moduleName(k))!).add(d);
      }
    }
    const lookups = [...lookupVariables].filter((l) => text.includes(`"$ref":"${l}"`)).sort();
    if (lookups.length > 0) used.set("lookups", new Set(lookups));
    const importLines = [...used.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([m, names]) => importStatement([...names].sort(), `./${m}`));
    const body = sections(resources, true);
    files[`${moduleName(kind)}.ts`] =
      `${[...imports(model, resources), ...importLines, "", ...body].join("\n").trimEnd()}\n`;
  }
  // index.ts imports every module (in dependency order), by name what the outputs use.
  const out = outputLines(outputs);
  const importsOf = (kind: string) => {
    const used = model.resources
      .filter((r) => r.kind === kind && out.uses.has(r.variable))
      .map((r) => r.variable);
    return used.length > 0
      ? importStatement(used.sort(), `./${moduleName(kind)}`)
      : `import "./${moduleName(kind)}";`;
  };
  const index = [...header, ...order.map(importsOf)];
  if (outputs.length > 0) index.push("", "// Stack outputs", ...out.lines);
  files["index.ts"] = `${index.join("\n").trimEnd()}\n`;
  return files;
}

/** `import { a, b } from "<from>";`, one name a line when it does not fit (as a formatter writes it). */
function importStatement(names: string[], from: string): string {
  const line = `import { ${names.join(", ")} } from "${from}";`;
  return line.length <= 80 ? line : `import {\n${names.map((n) => `  ${n},\n`).join("")}} from "${from}";`;
}

/** A document's title (`# …`), its text escaped. */
export const titleBlock = (title: InlineValue): Block => ({
  lines: [`# ${renderedInline(title)}`],
  atomic: true,
});

/** An object's name in quotes, escaped. */
export const quoted = (label: string) => md`"${label}"`;

/**
 * The project's README, built with cli/markdown.ts: every object's name and every other user text
 * goes in escaped (it cannot open a heading, a link, HTML or a code span), whatever it holds.
 */
function readme(model: ExportModel, options: ProjectOptions): string {
  const counts = new Map<string, number>();
  for (const r of model.resources) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  const blocks: Block[] = [];
  blocks.push(
    titleBlock(options.project),
    paragraph(
      md`Exported by ${inlineCode("pulumi-incident export")}: ${String(model.resources.length)} objects, each adopted by id.`,
    ),
    tableBlock(
      ["kind", "objects"],
      [...counts.entries()].map(([k, n]) => [k, String(n)]),
    ),
    ...(options.readmeBlocks ?? []),
    headingBlock(2, "Take the account over"),
  );
  const commands = [
    "npm install",
    "pulumi stack init",
    "pulumi config set --secret incident:apiKey <an API key that may write the configuration>",
    ...model.secrets.map((s) => `pulumi config set --secret ${s.key} <the ${s.input} of ${s.resource.kind}>`),
    "pulumi preview   # every object: create (adopt); no object should show an update",
    "pulumi up        # adopts them without a write where nothing differs",
  ];
  blocks.push(fenced("text", commands.join("\n")));
  if (model.secrets.length > 0) {
    blocks.push(
      paragraph(
        md`Secret values cannot be read back from the API: set each one before the first ${inlineCode("pulumi up")}. A secret is compared by its last four characters; a different value is written on the first ${inlineCode("up")}.`,
      ),
      list(
        model.secrets.map(
          (s) => md`${inlineCode(s.key)}: the ${s.input} of ${s.resource.kind} ${quoted(s.resource.label)}`,
        ),
      ),
    );
  }
  const checks = model.resources.filter((r) => r.differences.length > 0 || r.problems.length > 0);
  if (checks.length > 0) {
    blocks.push(
      headingBlock(2, "Objects to check"),
      list(
        checks.map(
          (r) =>
            md`${r.kind} ${quoted(r.label)} (${r.id}): ${[...r.problems, ...r.differences.map((d) => `${d} will be written`)].join("; ")}`,
        ),
      ),
    );
  }
  if (model.unlooked.length > 0) {
    blocks.push(
      headingBlock(2, "Referred to by id"),
      paragraph(
        "Objects another project of the fleet declares that no lookup can find alone (a kind without a lookup, or a name several objects share): their ids are written as they are.",
      ),
      list(
        model.unlooked.map(
          (u) => md`${u.kind} ${quoted(u.label)} (${u.id}), declared in ${inlineCode(u.project)}`,
        ),
      ),
    );
  }
  blocks.push(...notesAndLeftOut(model));
  return renderBlocks(blocks);
}

/** A README's notes (user text in them escaped) and the objects left out, with why. */
export function notesAndLeftOut(model: Pick<ExportModel, "notes" | "leftOut">): Block[] {
  const blocks: Block[] = [];
  if (model.notes.length > 0) blocks.push(headingBlock(2, "Notes"), list(model.notes.map((n) => text(n))));
  if (model.leftOut.length > 0) {
    blocks.push(
      headingBlock(2, "Left out"),
      list(model.leftOut.map((o) => md`${o.kind} ${quoted(o.label)} (${o.id}): ${o.reason}`)),
    );
  }
  return blocks;
}
