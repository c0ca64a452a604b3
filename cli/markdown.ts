/**
 * Markdown for reports that go into pull-request comments and issues.
 *
 * Reports are built with the "text vs markup" builder below: markup comes only from this
 * module's builders and from the literal parts of `md` templates (written in this repository);
 * every value put into them is user text (names, descriptions, literals, ids, error messages) and
 * goes through one escaping function on the way in (`text`, or `inlineCode` for a code span). So no user
 * text can open an HTML element or comment, a heading, a list, a table cell, a link, an autolink,
 * an @-mention or a code fence, or break a line, wherever it is put: that holds by construction,
 * not case by case. Blocks (paragraphs, lists, tables, call-outs, fenced blocks, `<details>`) are
 * kept apart by blank lines and can be dropped whole (`Block`), so a shortened report stays
 * well-formed.
 * Both reports (plan-report, drift) are built with it.
 */

// ---------------------------------------------------------------------------------- user text

/** Line breaks (CommonMark's and Unicode's) and other vertical space: a space. */
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
/**
 * Control characters and the invisible bidirectional overrides (text that reads otherwise than it
 * is): the replacement character, so they show.
 */
const INVISIBLE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** User text on one line, every character visible: line breaks and tabs as spaces, controls as �. */
export function oneLine(value: string): string {
  return value.replace(LINE_BREAKS, " ").replace(/\t/g, " ").replace(INVISIBLE, "\uFFFD");
}

/**
 * Words GitHub would turn into a mention, a link or a reference even with their punctuation escaped
 * (it finds those in the rendered text): shown as code instead, where it finds none.
 */
const LINKISH = /@|:\/\/|^\/\/|www\.|mailto:|#\d|gh-\d/i;

/**
 * The punctuation that is markup anywhere in a line: escapes, code, emphasis, links and images,
 * HTML and entities, table cells, strikethrough, headings, math, and `.` (bare domains some
 * renderers link). A backslash escapes each (CommonMark). The rest of ASCII punctuation is markup
 * only at the start of a line (`lineStart`).
 */
const PUNCTUATION = /[\\`*_[\]<>!&|~#$.]/g;

/**
 * A line's content as it starts a paragraph, a list item or a call-out entry: a `-`, `+` or `=`
 * (a list, a thematic break, a setext underline) or `1)` (an ordered list) escaped. Anything else
 * that could open a block there (`#`, `>`, `*`, `1.`, a code fence, `<`) is escaped already.
 */
function lineStart(rendered: string): string {
  const line = rendered.trim();
  if (/^[-+=]/.test(line)) return `\\${line}`;
  return line.replace(/^(\d+)\)/, "$1\\)");
}

function escapeWords(value: string, cell: boolean): string {
  return oneLine(value)
    .split(/(\s+)/)
    .map((word) => {
      if (word === "") return "";
      if (/^\s+$/.test(word)) return " ";
      if (LINKISH.test(word)) return codeSpan(word, cell);
      return word.replace(PUNCTUATION, "\\$&");
    })
    .join("");
}

function codeSpan(value: string, cell: boolean): string {
  // A pipe splits a table row even inside a code span: escaped there (the row parser drops the `\`).
  const body = cell ? value.replace(/\|/g, "\\|") : value;
  if (body === "") return "` `";
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((m) => m.length));
  const fence = "`".repeat(longest + 1);
  // A leading or trailing backtick would join the fence; one space each side is stripped again.
  const pad =
    body.startsWith("`") || body.endsWith("`") || (body.startsWith(" ") && body.endsWith(" ") && body.trim())
      ? " "
      : "";
  return `${fence}${pad}${body}${pad}${fence}`;
}

// ---------------------------------------------------------------------------------- inline markup

const MARKUP = Symbol("markup");

/**
 * Inline Markdown: made only by this module's builders. `cell`: rendered inside a table cell
 * (where a pipe must be escaped even in code).
 */
export interface Inline {
  readonly [MARKUP]: (cell: boolean) => string;
}

/** What an inline position takes: markup, or user text (a string or a number), escaped. */
export type InlineValue = Inline | string | number;

const markup = (render: (cell: boolean) => string): Inline => ({ [MARKUP]: render });

function isInline(value: unknown): value is Inline {
  return typeof value === "object" && value !== null && MARKUP in value;
}

function renderInline(value: InlineValue, cell: boolean): string {
  return isInline(value) ? value[MARKUP](cell) : escapeWords(String(value), cell);
}

/**
 * Inline markup from a template: the literal parts are markup (this repository's own words and
 * syntax, one line), every `${value}` is user text and escaped, unless it is markup already.
 */
export function md(strings: TemplateStringsArray, ...values: InlineValue[]): Inline {
  return markup((cell) => {
    let out = strings[0] ?? "";
    values.forEach((v, i) => {
      out += renderInline(v, cell) + (strings[i + 1] ?? "");
    });
    return out;
  });
}

/** User text, escaped: it reads exactly as given (on one line) and is never markup. */
export function text(value: string | number): Inline {
  return markup((cell) => escapeWords(String(value), cell));
}

/** User text as inline code (any backticks in it survive; one line). */
export function inlineCode(value: string): Inline {
  const body = oneLine(value);
  return markup((cell) => codeSpan(body, cell));
}

export const strong = (value: InlineValue): Inline => md`**${value}**`;
export const emphasis = (value: InlineValue): Inline => md`_${value}_`;

/** Inline values one after another, `separator` between them. */
export function join(values: InlineValue[], separator: InlineValue): Inline {
  return markup((cell) => values.map((v) => renderInline(v, cell)).join(renderInline(separator, cell)));
}

/** Texts (names, fields: user text) as inline code, comma separated. */
export function codeList(values: string[]): Inline {
  return join(values.map(inlineCode), ", ");
}

/** A report's stack as `project / stack` in inline code (what it names of the two), or undefined for neither. */
export function stackLabel(report: { project?: string; stack?: string }): Inline | undefined {
  const where = [report.project, report.stack].filter((t): t is string => Boolean(t));
  return where.length ? join(where.map(inlineCode), md` / `) : undefined;
}

/** The Markdown of inline markup (outside a table). */
export function renderedInline(value: InlineValue): string {
  return renderInline(value, false);
}

// ---------------------------------------------------------------------------------- blocks

/**
 * A block of a document: its lines, kept apart from the next block by a blank line. A block can be
 * cut after any line past `keep` (lists, call-outs, table rows) unless it is `atomic` (fenced code,
 * `<details>`), and still be well-formed Markdown.
 */
export interface Block {
  lines: string[];
  /** Lines that stay together at the start (a table's head, a call-out's title). */
  keep?: number;
  atomic?: boolean;
  /** The report's own label for the block (which resource it belongs to, and what it is). */
  tag?: { resource?: number; optional?: boolean };
}

export function paragraph(content: InlineValue, tag?: Block["tag"]): Block {
  return { lines: [lineStart(renderedInline(content))], atomic: true, tag };
}

export function headingBlock(level: 2 | 3 | 4, content: InlineValue, tag?: Block["tag"]): Block {
  return { lines: [`${"#".repeat(level)} ${renderedInline(content)}`], atomic: true, tag };
}

/** A list entry with entries of its own (one level). */
export interface ListEntry {
  item: InlineValue;
  sub: InlineValue[];
}

/** A bulleted list; an entry may hold a list of its own. */
export function list(entries: (InlineValue | ListEntry)[], tag?: Block["tag"]): Block {
  // An empty entry would end the paragraph above it as a setext underline (`-`): a no-break space.
  const line = (value: InlineValue) => lineStart(renderedInline(value)) || "&nbsp;";
  const lines = entries.flatMap((e) =>
    typeof e === "object" && !isInline(e)
      ? [`- ${line(e.item)}`, ...e.sub.map((s) => `  - ${line(s)}`)]
      : [`- ${line(e)}`],
  );
  return { lines, keep: 1, tag };
}

/** A GitHub alert (`> [!WARNING]`): one line per entry. */
export function callout(
  kind: "NOTE" | "WARNING" | "CAUTION",
  entries: InlineValue[],
  tag?: Block["tag"],
): Block {
  return {
    lines: [`> [!${kind}]`, ...entries.map((e) => `> ${lineStart(renderedInline(e))}  `)],
    keep: 2,
    tag,
  };
}

export function tableBlock(head: InlineValue[], rows: InlineValue[][], tag?: Block["tag"]): Block {
  const row = (cells: InlineValue[]) => `| ${cells.map((c) => renderInline(c, true)).join(" | ")} |`;
  return {
    lines: [row(head), `| ${head.map(() => "---").join(" | ")} |`, ...rows.map(row)],
    keep: 3,
    tag,
  };
}

/** Fenced code: a fence longer than any run of backticks in it, so nothing in it can close it. */
export function fenced(info: "json" | "text" | "mermaid", content: string, tag?: Block["tag"]): Block {
  const lines = content
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/\t/g, "    ").replace(INVISIBLE, "\uFFFD"));
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((m) => m.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return { lines: [`${fence}${info}`, ...lines, fence], atomic: true, tag };
}

/** A summary's parts: user text, or user text shown as code. */
export type SummaryPart = string | { code: string };

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeHtml = (value: string) => oneLine(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

function summaryHtml(parts: SummaryPart[]): string {
  return parts
    .map((p) =>
      typeof p === "string"
        ? p
            .split(/(\s+)/)
            .map((w) => (LINKISH.test(w) ? `<code>${escapeHtml(w)}</code>` : escapeHtml(w)))
            .join("")
        : `<code>${escapeHtml(p.code)}</code>`,
    )
    .join("");
}

/** A collapsed section: `<details>` (raw HTML: its summary is HTML-escaped) around Markdown blocks. */
export function details(summary: SummaryPart[], body: Block[], open = false, tag?: Block["tag"]): Block {
  return {
    lines: [
      `<details${open ? " open" : ""}><summary>${summaryHtml(summary)}</summary>`,
      "",
      ...body.flatMap((b, i) => [...(i > 0 ? [""] : []), ...b.lines]),
      "",
      "</details>",
    ],
    atomic: true,
    tag,
  };
}

/** The Markdown of blocks: a blank line between two blocks, a newline at the end. */
export function renderBlocks(blocks: Block[]): string {
  return `${blocks.map((b) => b.lines.join("\n")).join("\n\n")}\n`;
}

// ---------------------------------------------------------------------------------- words

/** Plural: `3 resources`, `1 resource`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
