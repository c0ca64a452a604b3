/**
 * The exported program as TypeScript text, laid out the way Prettier and Biome lay it out by default
 * (80 columns, two-space indent, double quotes, trailing commas), so formatting the exported project
 * changes nothing (test/cli/export.test.ts runs Biome on it).
 *
 * A resource's arguments are always written expanded (a formatter keeps an object expanded when its
 * first property starts a new line); any other object or list goes on one line when it fits, else it
 * is broken outermost first, as the formatters decide.
 */
import type {
  ExportedResource,
  Interpolation,
  KeyedByReference,
  Lookup,
  Reference,
  SecretConfig,
  Value,
} from "./model";

export { kindPlural, kindTitle } from "./names";

const WIDTH = 80;
const INDENT = "  ";

const isRef = (v: unknown): v is Reference => typeof v === "object" && v !== null && "$ref" in v;
const isInterpolation = (v: unknown): v is Interpolation =>
  typeof v === "object" && v !== null && "$interpolate" in v;
const isSecret = (v: unknown): v is SecretConfig => typeof v === "object" && v !== null && "$secret" in v;
const isKeyed = (v: unknown): v is KeyedByReference => typeof v === "object" && v !== null && "$keyed" in v;

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
  // `__proto__: …` (quoted or not) sets an object literal's prototype: only a computed key is a property.
  if (key === "__proto__") return `[${stringLiteral(key)}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : stringLiteral(key);
}

/**
 * The parts of `pulumi.all({ a: a.id }).apply((ids) => ({ [ids.a]: … }))`: the object of ids given
 * to `pulumi.all`, the callback's head, and the returned object's entries (computed keys for refs).
 */
function keyedParts(node: KeyedByReference): {
  ids: Array<[string, Value]>;
  head: string;
  body: Array<[string, Value]>;
} {
  const ids: Array<[string, Value]> = [];
  const body: Array<[string, Value]> = [];
  for (const [key, value] of node.$keyed) {
    if (typeof key === "string") body.push([propertyKey(key), value]);
    else {
      ids.push([key.$ref, key]);
      body.push([`[${node.param}.${key.$ref}]`, value]);
    }
  }
  return { ids, head: `.apply((${node.param}) => (`, body };
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
  if (isKeyed(value)) {
    const { ids, head, body } = keyedParts(value);
    const all = inlineEntries(ids);
    const returned = inlineEntries(body);
    return all === undefined || returned === undefined ? undefined : `pulumi.all(${all})${head}${returned}))`;
  }
  if (Array.isArray(value)) {
    if (alwaysBroken(value)) return undefined;
    const parts = value.map(inline);
    return parts.every((p) => p !== undefined) ? `[${parts.join(", ")}]` : undefined;
  }
  return inlineEntries(Object.entries(value).map(([k, v]) => [propertyKey(k), v]));
}

/** An object literal on one line (keys as written), or undefined. */
function inlineEntries(entries: Array<[string, Value]>): string | undefined {
  if (entries.length === 0) return "{}";
  const parts = entries.map(([k, v]) => {
    const text = inline(v);
    return text === undefined ? undefined : `${k}: ${text}`;
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
      : v !== null && typeof v === "object" && !isRef(v) && !isInterpolation(v) && !isSecret(v) && !isKeyed(v)
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
  if (flat !== undefined && (lead + flat.length + trail.length <= WIDTH || !breakable)) {
    // A call that does not fit breaks its argument onto a line of its own, as a formatter does.
    if (isSecret(value) && lead + flat.length + trail.length > WIDTH)
      return `config.requireSecret(\n${indent}${INDENT}${stringLiteral(value.$secret)},\n${indent})${trail}`;
    return flat + trail;
  }
  const inner = indent + INDENT;
  if (Array.isArray(value)) {
    const items = value.map((v) => `${inner}${print(v, inner, inner.length, ",")}`);
    return `[\n${items.join("\n")}\n${indent}]${trail}`;
  }
  if (isKeyed(value)) {
    // A member chain that does not fit breaks before each call; each call's argument as usual.
    const { ids, head, body } = keyedParts(value);
    const all = `${inner}.all(${printEntries(ids, inner, inner.length + ".all(".length, ")")}`;
    const apply = `${inner}${head}${printEntries(body, inner, inner.length + head.length, `))${trail}`)}`;
    return `pulumi\n${all}\n${apply}`;
  }
  const entries = Object.entries(value as { [key: string]: Value }).map(([k, v]): [string, Value] => [
    propertyKey(k),
    v,
  ]);
  return printEntries(entries, indent, lead, trail, true);
}

/** An object literal (keys as written) at `indent`: on one line when it fits, else one entry a line. */
function printEntries(
  entries: Array<[string, Value]>,
  indent: string,
  lead: number,
  trail: string,
  broken = false,
): string {
  const flat = broken ? undefined : inlineEntries(entries);
  if (flat !== undefined && lead + flat.length + trail.length <= WIDTH) return flat + trail;
  if (entries.length === 0) return `{}${trail}`;
  const inner = indent + INDENT;
  const lines = entries.map(([k, v]) => `${inner}${property(k, v, inner)}`);
  return `{\n${lines.join("\n")}\n${indent}}${trail}`;
}

/** `key: value,` (the key as written) at `indent`. */
function property(key: string, value: Value, indent: string): string {
  const head = `${key}: `;
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

/**
 * `const <variable> = new incident.<Kind>("<name>", { … });`. When even `const <variable> = new
 * incident.<Kind>(` does not fit on a line, a formatter breaks after the `=`.
 */
export function resourceStatement(resource: ExportedResource, exported = false): string {
  const lhs = `${exported ? "export const" : "const"} ${resource.variable} =`;
  const comment = resourceComment(resource);
  if (lhs.length + ` new incident.${resource.kind}(`.length <= WIDTH)
    return `${comment}${lhs} ${newExpression(resource, "", lhs.length + 1)}`;
  return `${comment}${lhs}\n${INDENT}${newExpression(resource, INDENT, INDENT.length)}`;
}

/** `new incident.<Kind>("<name>", { … });` at `indent`, starting `lead` characters into its line. */
function newExpression(resource: ExportedResource, indent: string, lead: number): string {
  const name = stringLiteral(resource.resourceName);
  const header = `new incident.${resource.kind}(${name}, `;
  if (lead + header.length + 1 <= WIDTH)
    return `${header}${print(resource.args, indent, lead + header.length, ");", true)}`;
  const inner = indent + INDENT;
  const args = print(resource.args, inner, inner.length, ",", true);
  return `new incident.${resource.kind}(\n${inner}${name},\n${inner}${args}\n${indent});`;
}

/** Text for a `//` comment: a line terminator in it would end the comment, so each is a space. */
export function commentText(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, " ");
}

function resourceComment(resource: ExportedResource): string {
  const notes: string[] = (resource.notes ?? []).map((n) => `// ${commentText(n)}`);
  if (resource.problems.length > 0)
    notes.push(
      `// Check: the API answered what these inputs cannot hold: ${commentText(resource.problems.join("; "))}`,
    );
  if (resource.differences.length > 0)
    notes.push(
      `// Check: the first \`pulumi up\` will update ${commentText(resource.differences.join(", "))}`,
    );
  return notes.length > 0 ? `${notes.join("\n")}\n` : "";
}

/** `export const <name> = <value>;` (a stack output), laid out as a formatter would. */
export function outputStatement(name: string, value: Value): string {
  const lhs = `export const ${name} = `;
  return `${lhs}${print(value, "", lhs.length, ";")}`;
}

/** `const <variable> = incident.<fn>({ … });` (broken after the `=` as `resourceStatement`). */
export function lookupStatement(lookup: Lookup, exported = false): string {
  const lhs = `${exported ? "export const" : "const"} ${lookup.variable} =`;
  const call = `incident.${lookup.fn}(`;
  if (lhs.length + 1 + call.length <= WIDTH)
    return `${lhs} ${call}${print(lookup.args, "", lhs.length + 1 + call.length, ");")}`;
  return `${lhs}\n${INDENT}${call}${print(lookup.args, INDENT, INDENT.length + call.length, ");")}`;
}
