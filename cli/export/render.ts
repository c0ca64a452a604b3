/**
 * The exported program as TypeScript text, laid out the way Prettier and Biome lay it out by default
 * (80 columns, two-space indent, double quotes, trailing commas), so formatting the exported project
 * changes nothing (test/cli/export.test.ts runs Biome on it).
 *
 * A resource's arguments are always written expanded (a formatter keeps an object expanded when its
 * first property starts a new line); any other object or list goes on one line when it fits, else it
 * is broken outermost first, as the formatters decide.
 */
import type { ExportedResource, Interpolation, Lookup, Reference, SecretConfig, Value } from "./model";

const WIDTH = 80;
const INDENT = "  ";

const isRef = (v: unknown): v is Reference => typeof v === "object" && v !== null && "$ref" in v;
const isInterpolation = (v: unknown): v is Interpolation =>
  typeof v === "object" && v !== null && "$interpolate" in v;
const isSecret = (v: unknown): v is SecretConfig => typeof v === "object" && v !== null && "$secret" in v;

/** A string literal as a formatter writes it: double quotes unless single quotes need fewer escapes. */
export function stringLiteral(text: string): string {
  const doubles = (text.match(/"/g) ?? []).length;
  const singles = (text.match(/'/g) ?? []).length;
  const json = JSON.stringify(text);
  if (doubles <= singles) return json;
  // Single quotes: unescape the double quotes JSON escaped, escape the single ones.
  return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : stringLiteral(key);
}

function templateText(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${");
}

/** The one-line form of a value, or undefined when a formatter would always break it. */
function inline(value: Value): string | undefined {
  if (value === null) return "null";
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  if (isRef(value)) return `${value.$ref}.id`;
  if (isSecret(value)) return `config.requireSecret(${stringLiteral(value.$secret)})`;
  if (isInterpolation(value)) {
    const body = value.$interpolate
      .map((p) => (typeof p === "string" ? templateText(p) : `\${${p.$ref}.id}`))
      .join("");
    return `pulumi.interpolate\`${body}\``;
  }
  if (Array.isArray(value)) {
    if (alwaysBroken(value)) return undefined;
    const parts = value.map(inline);
    return parts.every((p) => p !== undefined) ? `[${parts.join(", ")}]` : undefined;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const parts = entries.map(([k, v]) => {
    const text = inline(v);
    return text === undefined ? undefined : `${propertyKey(k)}: ${text}`;
  });
  return parts.every((p) => p !== undefined) ? `{ ${parts.join(", ")} }` : undefined;
}

/**
 * A list a formatter always writes one element per line: more than one element, all objects with
 * more than one property, or all lists with more than one element.
 */
function alwaysBroken(list: Value[]): boolean {
  if (list.length < 2) return false;
  const size = (v: Value) =>
    Array.isArray(v)
      ? { kind: "list", n: v.length }
      : v !== null && typeof v === "object" && !isRef(v) && !isInterpolation(v) && !isSecret(v)
        ? { kind: "object", n: Object.keys(v).length }
        : undefined;
  const first = size(list[0]!);
  return list.every((v) => {
    const s = size(v);
    return s !== undefined && s.kind === first?.kind && s.n > 1;
  });
}

/**
 * A value starting at a column where `lead` characters are already written on its line, followed
 * by `trail` on its last line: on one line when it fits, else broken outermost first.
 */
function print(value: Value, indent: string, lead: number, trail: string, expand = false): string {
  const flat = expand ? undefined : inline(value);
  const breakable =
    value !== null &&
    typeof value === "object" &&
    !isRef(value) &&
    !isInterpolation(value) &&
    !isSecret(value);
  if (flat !== undefined && (lead + flat.length + trail.length <= WIDTH || !breakable)) return flat + trail;
  const inner = indent + INDENT;
  if (Array.isArray(value)) {
    const items = value.map((v) => `${inner}${print(v, inner, inner.length, ",")}`);
    return `[\n${items.join("\n")}\n${indent}]${trail}`;
  }
  const entries = Object.entries(value as { [key: string]: Value });
  const lines = entries.map(([k, v]) => `${inner}${property(k, v, inner)}`);
  return `{\n${lines.join("\n")}\n${indent}}${trail}`;
}

function property(key: string, value: Value, indent: string): string {
  const head = `${propertyKey(key)}: `;
  const flat = inline(value);
  // A long string or `x.id` moves to its own line after the colon (unless the key is very short).
  if (
    flat !== undefined &&
    (typeof value === "string" || isRef(value)) &&
    indent.length + head.length + flat.length + 1 > WIDTH &&
    head.length - 2 >= 5
  ) {
    return `${head.trimEnd()}\n${indent}${INDENT}${flat},`;
  }
  return head + print(value, indent, indent.length + head.length, ",");
}

/** `const <variable> = new incident.<Kind>("<name>", { … });` */
export function resourceStatement(resource: ExportedResource, exported = false): string {
  const declare = exported ? "export const" : "const";
  const header = `${declare} ${resource.variable} = new incident.${resource.kind}(${stringLiteral(resource.resourceName)}, `;
  const comment = resourceComment(resource);
  if (header.length + 1 <= WIDTH)
    return `${comment}${header}${print(resource.args, "", header.length, ");", true)}`;
  const args = print(resource.args, INDENT, INDENT.length, ",", true);
  return `${comment}${declare} ${resource.variable} = new incident.${resource.kind}(\n${INDENT}${stringLiteral(resource.resourceName)},\n${INDENT}${args}\n);`;
}

function resourceComment(resource: ExportedResource): string {
  const notes: string[] = [];
  if (resource.problems.length > 0)
    notes.push(`// Check: the API answered what these inputs cannot hold: ${resource.problems.join("; ")}`);
  if (resource.differences.length > 0)
    notes.push(`// Check: the first \`pulumi up\` will update ${resource.differences.join(", ")}`);
  return notes.length > 0 ? `${notes.join("\n")}\n` : "";
}

export function lookupStatement(lookup: Lookup, exported = false): string {
  const header = `${exported ? "export const" : "const"} ${lookup.variable} = incident.${lookup.fn}(`;
  return `${header}${print(lookup.args, "", header.length, ");")}`;
}

/** The plural of a kind's name, in camelCase: `IncidentStatus` → `incidentStatuses` (module names). */
export function kindPlural(kind: string): string {
  const plural = kind.endsWith("y")
    ? `${kind.slice(0, -1)}ies`
    : kind.endsWith("s")
      ? `${kind}es`
      : `${kind}s`;
  return plural[0]!.toLowerCase() + plural.slice(1);
}

/** A section title for a kind: `AlertRoute` → `Alert routes`. */
export function kindTitle(kind: string): string {
  const words = kindPlural(kind)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return words[0]!.toUpperCase() + words.slice(1);
}
