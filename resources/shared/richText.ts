/**
 * Rule "rich text vs template".
 *
 * Users write a title/description as a plain template string with `{{ reference }}` placeholders,
 * e.g. `"{{ alert.title }} in {{ alert.attributes.service }}"`. The API stores a rich-text document
 * (ProseMirror-like: `doc` → `paragraph` → `text` / `lineBreak` / `varSpec`) as a JSON literal inside
 * an engine param binding (`{ literal: "<json>" }`). The two forms must compare equal:
 *
 * - `templateToRichText(template)`: the JSON literal to send. A template that already is a JSON
 *   document (an object literal) is sent exactly as written, for formatting a template cannot express.
 * - `richTextToTemplate(literal)`: read-back to the template form, accepting a bare document and the
 *   envelopes the dashboard wraps documents in (`{schema_version, text_node, …}` and the legacy
 *   `{root, value_markdown}`, TF PR #462). `undefined` when the document cannot be represented
 *   losslessly as a template (marks, mentions, headings, lists, a text holding `{{`, …): proven by
 *   re-parsing the emitted template and comparing documents.
 * - `sameRichText(a, b)`: meaning-equality of any two of these forms (template or document literal).
 *   Presentation the dashboard adds (`label`, `missing`, `omitIfUnset: false`, `truncateTo: null`,
 *   empty `content` arrays) and key order carry no meaning.
 * - `keepDeclaredTemplate(liveLiteral, declaredTemplate)`: the read-back rule: the declared spelling
 *   when the live document means the same, else the template form of the live document, else the
 *   live literal verbatim.
 *
 * Template grammar: `{{ name }}`, optional filters `| truncate: N` (N ≥ 1) and `| omit_if_unset`;
 * a blank line (two or more newlines) separates paragraphs; a single newline is a line break inside a
 * paragraph. There is no escape syntax: a literal `{{` needs a JSON document.
 */

import { z } from "zod";
import { canonicalJson } from "../../provider/normalise";

/** A node of the stored document. */
export interface RichTextNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: unknown[];
  content?: RichTextNode[];
}

/** A template that does not parse. `slug` names the failure mode; `offset` is template-relative. */
export class TemplateSyntaxError extends Error {
  constructor(
    readonly slug:
      | "unclosed_variable"
      | "nested_variable"
      | "empty_variable_name"
      | "unknown_filter"
      | "invalid_filter_argument",
    message: string,
  ) {
    super(message);
    this.name = "TemplateSyntaxError";
  }
}

const OPEN = "{{";
const CLOSE = "}}";
const PARAGRAPH_BREAK = /\n{2,}/;

/** True when the string is a JSON object, i.e. a stored document (bare or enveloped), not a template. */
export function isRichTextDocument(value: string): boolean {
  const trimmed = value.trim();
  if (!trimmed.startsWith("{")) return false;
  try {
    const parsed = JSON.parse(trimmed);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** Parses a template into its document. Throws TemplateSyntaxError. */
export function parseTemplate(template: string): RichTextNode {
  const paragraphs: RichTextNode[] = [];
  let offset = 0;
  const breaks = template.match(new RegExp(PARAGRAPH_BREAK.source, "g")) ?? [];
  template.split(PARAGRAPH_BREAK).forEach((paragraph, i) => {
    const inline = parseInline(paragraph, offset);
    paragraphs.push(inline.length > 0 ? { type: "paragraph", content: inline } : { type: "paragraph" });
    offset += paragraph.length + (breaks[i]?.length ?? 0);
  });
  return { type: "doc", content: paragraphs };
}

/** The error message for an invalid template (check-time validation), or undefined when valid. */
export function templateError(template: string): string | undefined {
  if (isRichTextDocument(template)) return undefined;
  try {
    parseTemplate(template);
    return undefined;
  } catch (e) {
    return e instanceof TemplateSyntaxError ? e.message : String(e);
  }
}

/**
 * A template as an input, checked at `check` by our grammar: a template that does not parse cannot
 * be turned into the document the API takes (a JSON document can be written instead).
 */
export function templateText(): z.ZodString {
  return z.string().superRefine((value, ctx) => {
    const problem = templateError(value);
    if (problem) ctx.addIssue({ code: "custom", message: `invalid template: ${problem}` });
  });
}

/** The JSON literal to send for a template (a JSON document is sent as written). */
export function templateToRichText(template: string): string {
  if (isRichTextDocument(template)) return template;
  return JSON.stringify(parseTemplate(template));
}

/**
 * The template form of a stored literal (bare document or enveloped), or undefined when it cannot be
 * represented as a template without losing something.
 */
export function richTextToTemplate(literal: string): string | undefined {
  const doc = documentOf(literal);
  if (doc === undefined) return undefined;
  const template = emitDocument(doc);
  if (template === undefined) return undefined;
  let reparsed: RichTextNode;
  try {
    reparsed = parseTemplate(template);
  } catch {
    return undefined;
  }
  return canonicalJson(strip(reparsed)) === canonicalJson(strip(doc)) ? template : undefined;
}

/**
 * Canonical comparable text of a template or a stored literal: equal meaning gives equal text.
 * A template that does not parse, or a JSON value that is not a document, compares as written.
 */
export function canonicalRichText(value: string): string {
  if (isRichTextDocument(value)) {
    const doc = documentOf(value);
    return doc === undefined ? value : canonicalJson(strip(doc));
  }
  try {
    return canonicalJson(strip(parseTemplate(value)));
  } catch {
    return value;
  }
}

/** Do two values (templates or stored literals, in any combination) mean the same document? */
export function sameRichText(a: string, b: string): boolean {
  return a === b || canonicalRichText(a) === canonicalRichText(b);
}

/**
 * Rule "rich text vs template" for read-back: keep the declared template when the live literal means
 * the same document; otherwise show the live document as a template when it can be one, else verbatim.
 */
export function keepDeclaredTemplate(
  liveLiteral: string | undefined,
  declaredTemplate: string | undefined,
): string | undefined {
  if (liveLiteral === undefined) return undefined;
  if (declaredTemplate !== undefined && sameRichText(liveLiteral, declaredTemplate)) return declaredTemplate;
  return richTextToTemplate(liveLiteral) ?? liveLiteral;
}

// ---------------------------------------------------------------------------------------------
// Parsing

interface VarAttrs {
  name: string;
  truncateTo?: number;
  omitIfUnset?: boolean;
}

function parseInline(paragraph: string, base: number): RichTextNode[] {
  const nodes: RichTextNode[] = [];
  let rest = paragraph;
  let consumed = 0;
  while (rest !== "") {
    const start = rest.indexOf(OPEN);
    if (start < 0) {
      appendText(nodes, rest);
      break;
    }
    appendText(nodes, rest.slice(0, start));
    const body = rest.slice(start + OPEN.length);
    const end = body.indexOf(CLOSE);
    if (end < 0) {
      throw new TemplateSyntaxError(
        "unclosed_variable",
        `unclosed "${OPEN}" at offset ${base + consumed + start}; use a JSON document for a literal "${OPEN}"`,
      );
    }
    nodes.push({ type: "varSpec", attrs: { ...parseVariable(body.slice(0, end)) } });
    const used = start + OPEN.length + end + CLOSE.length;
    consumed += used;
    rest = rest.slice(used);
  }
  return nodes;
}

function parseVariable(inner: string): VarAttrs {
  const whole = `${OPEN}${inner}${CLOSE}`;
  if (inner.includes(OPEN)) throw new TemplateSyntaxError("nested_variable", `nested "${OPEN}" in ${whole}`);
  const [head, ...filters] = inner.split("|");
  const attrs: VarAttrs = { name: (head ?? "").trim() };
  if (attrs.name === "")
    throw new TemplateSyntaxError("empty_variable_name", `empty variable name in ${whole}`);
  for (const part of filters) {
    const colon = part.indexOf(":");
    const filter = (colon < 0 ? part : part.slice(0, colon)).trim();
    const arg = colon < 0 ? undefined : part.slice(colon + 1).trim();
    if (filter === "omit_if_unset") {
      if (arg !== undefined) {
        throw new TemplateSyntaxError(
          "invalid_filter_argument",
          `omit_if_unset takes no argument (${whole})`,
        );
      }
      attrs.omitIfUnset = true;
    } else if (filter === "truncate") {
      const limit = arg !== undefined && /^\d+$/.test(arg) ? Number(arg) : Number.NaN;
      if (!(limit >= 1)) {
        throw new TemplateSyntaxError(
          "invalid_filter_argument",
          `truncate expects a positive integer, got "${arg ?? ""}" (${whole})`,
        );
      }
      attrs.truncateTo = limit;
    } else {
      throw new TemplateSyntaxError(
        "unknown_filter",
        `"${filter}" is not a known filter (supported: truncate, omit_if_unset) in ${whole}`,
      );
    }
  }
  return attrs;
}

/** Text split on single newlines into text + lineBreak nodes; empty pieces make no node. */
function appendText(nodes: RichTextNode[], text: string): void {
  if (text === "") return;
  text.split("\n").forEach((line, i) => {
    if (i > 0) nodes.push({ type: "lineBreak" });
    if (line !== "") nodes.push({ type: "text", text: line });
  });
}

// ---------------------------------------------------------------------------------------------
// Read-back

/** The bare document of a literal: unwraps `{text_node}` and legacy `{root}` envelopes. */
function documentOf(literal: string): RichTextNode | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(literal);
  } catch {
    return undefined;
  }
  if (!isObject(parsed)) return undefined;
  if (parsed.type !== "doc") {
    const inner = isObject(parsed.text_node)
      ? parsed.text_node
      : isObject(parsed.root)
        ? parsed.root
        : undefined;
    if (inner !== undefined) parsed = inner;
  }
  return isObject(parsed) && typeof parsed.type === "string"
    ? (parsed as unknown as RichTextNode)
    : undefined;
}

function emitDocument(doc: RichTextNode): string | undefined {
  if (doc.type !== "doc" || !Array.isArray(doc.content) || doc.content.length === 0) return undefined;
  const paragraphs: string[] = [];
  for (const block of doc.content) {
    if (!isObject(block) || block.type !== "paragraph" || hasMarks(block)) return undefined;
    const text = emitInline(block.content ?? []);
    if (text === undefined) return undefined;
    paragraphs.push(text);
  }
  return paragraphs.join("\n\n");
}

function emitInline(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  let out = "";
  for (const node of content) {
    if (!isObject(node) || hasMarks(node)) return undefined;
    if (node.type === "text") {
      if (typeof node.text !== "string" || node.text.includes(OPEN)) return undefined;
      out += node.text;
    } else if (node.type === "lineBreak") {
      out += "\n";
    } else if (node.type === "varSpec") {
      const variable = emitVariable(node.attrs);
      if (variable === undefined) return undefined;
      out += variable;
    } else {
      return undefined;
    }
  }
  return out;
}

function emitVariable(attrs: unknown): string | undefined {
  if (!isObject(attrs) || typeof attrs.name !== "string" || attrs.name === "") return undefined;
  const filters: string[] = [];
  for (const key of Object.keys(attrs)) {
    if (!["name", "label", "missing", "truncateTo", "omitIfUnset"].includes(key)) return undefined;
  }
  const truncateTo = attrs.truncateTo;
  if (truncateTo !== undefined && truncateTo !== null) {
    if (typeof truncateTo !== "number" || !Number.isInteger(truncateTo) || truncateTo < 1) return undefined;
    filters.push(`truncate: ${truncateTo}`);
  }
  const omit = attrs.omitIfUnset;
  if (omit !== undefined && omit !== null && typeof omit !== "boolean") return undefined;
  if (omit === true) filters.push("omit_if_unset");
  return `${OPEN} ${[attrs.name, ...filters].join(" | ")} ${CLOSE}`;
}

/** Drops what carries no meaning: varSpec display attrs and defaults, empty content arrays. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "content" && Array.isArray(child) && child.length === 0) continue;
    if (key === "marks" && Array.isArray(child) && child.length === 0) continue;
    out[key] = strip(child);
  }
  if (out.type === "varSpec" && isObject(out.attrs)) {
    const attrs = { ...out.attrs };
    delete attrs.label;
    delete attrs.missing;
    if (attrs.omitIfUnset === false || attrs.omitIfUnset === null) delete attrs.omitIfUnset;
    if (attrs.truncateTo === null) delete attrs.truncateTo;
    out.attrs = attrs;
  }
  return out;
}

function hasMarks(node: RichTextNode | Record<string, unknown>): boolean {
  return Array.isArray(node.marks) && node.marks.length > 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
