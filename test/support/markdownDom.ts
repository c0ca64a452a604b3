/**
 * A report's Markdown as a reader gets it: parsed by markdown-it (CommonMark + GFM tables, raw HTML
 * allowed, links found in the text as linkify does) into HTML, and that HTML parsed into a DOM
 * (jsdom), in process. What the structure checks read: headings, tables, fenced blocks, and the
 * problems a comment must never have — raw HTML or a comment that is not the report's own
 * `<details>`, a link of any kind, text GitHub would turn into an @-mention, a link or an issue
 * reference.
 */
import MarkdownIt from "markdown-it";

/** The parts of jsdom's DOM read here (jsdom ships no types, and the tests compile without the DOM lib). */
interface DomNode {
  nodeType: number;
  textContent: string | null;
  parentElement: DomElement | null;
}
interface DomElement extends DomNode {
  tagName: string;
  children: ArrayLike<DomElement>;
  ownerDocument: { createTreeWalker(root: DomElement, show: number): { nextNode(): DomNode | null } };
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  querySelector(selector: string): DomElement | null;
  closest(selector: string): DomElement | null;
  cloneNode(deep: boolean): DomElement;
  remove(): void;
}
const { JSDOM } = require("jsdom") as { JSDOM: { fragment(html: string): { firstChild: DomElement } } };

const markdownIt = new MarkdownIt({ html: true, linkify: true });

/** The raw HTML the report writes itself: `<details>` around a summary of text and code, and its end. */
const OWN_HTML = [
  /^<details( open)?><summary>(?:[^<>]|<code>[^<>]*<\/code>)*<\/summary>\n$/,
  /^<\/details>\n$/,
];

/** Elements markdown-it makes of the report's Markdown, and the report's own HTML. */
const ELEMENTS = new Set([
  "H2",
  "H3",
  "H4",
  "P",
  "UL",
  "LI",
  "TABLE",
  "THEAD",
  "TBODY",
  "TR",
  "TH",
  "TD",
  "CODE",
  "PRE",
  "STRONG",
  "EM",
  "BLOCKQUOTE",
  "BR",
  "DETAILS",
  "SUMMARY",
]);

/** What GitHub finds in rendered text outside code: mentions, e-mail and URL autolinks, references. */
const LINKED_TEXT = /@|:\/\/|\bwww\.|#\d|\bGH-\d/i;

export interface Comment {
  headings: { level: number; text: string }[];
  /** Each table: its rows (the head first), each row its cells' text. */
  tables: string[][][];
  fences: { info: string; content: string }[];
  /** `<details>` elements: their summary text and whether they hold a fenced block. */
  details: { summary: string; code: string[] }[];
  /** Text of each list entry (without the entries of a list inside it). */
  listItems: string[];
  /** Everything that must not be there; empty for a well-formed report. */
  problems: string[];
  text: string;
}

const squash = (t: string) => t.replace(/\s+/g, " ").trim();

export function parseComment(markdown: string): Comment {
  const problems: string[] = [];
  const tokens = markdownIt.parse(markdown, {});
  const fences: Comment["fences"] = [];
  const walk = (list: ReturnType<typeof markdownIt.parse>) => {
    for (const t of list) {
      if (t.type === "html_block" && !OWN_HTML.some((re) => re.test(t.content)))
        problems.push(`raw HTML block: ${JSON.stringify(t.content)}`);
      if (t.type === "html_inline") problems.push(`raw inline HTML: ${JSON.stringify(t.content)}`);
      if (t.type === "link_open") problems.push(`a link: ${t.attrGet("href")}`);
      if (t.type === "image") problems.push(`an image: ${t.attrGet("src")}`);
      if (t.type === "fence") fences.push({ info: t.info, content: t.content });
      if (t.type === "code_block") problems.push(`an indented code block: ${JSON.stringify(t.content)}`);
      if (t.type === "hr") problems.push("a thematic break");
      if (t.children) walk(t.children);
    }
  };
  walk(tokens);
  const html = markdownIt.renderer.render(tokens, markdownIt.options, {});
  const body = JSDOM.fragment(`<div>${html}</div>`).firstChild;
  const seen = body.ownerDocument.createTreeWalker(body, 0xffffffff);
  for (let node: DomNode | null = seen.nextNode(); node; node = seen.nextNode()) {
    if (node.nodeType === 8) problems.push(`an HTML comment: ${JSON.stringify(node.textContent)}`);
    if (node.nodeType === 1 && !ELEMENTS.has((node as DomElement).tagName))
      problems.push(`an element: <${(node as DomElement).tagName.toLowerCase()}>`);
    if (node.nodeType === 3 && !(node.parentElement?.closest("code, pre") ?? null)) {
      const text = node.textContent ?? "";
      if (LINKED_TEXT.test(text)) problems.push(`text GitHub would link: ${JSON.stringify(text)}`);
    }
  }
  const headings = Array.from(body.querySelectorAll("h1, h2, h3, h4, h5, h6")).map((h) => ({
    level: Number(h.tagName.slice(1)),
    text: squash(h.textContent ?? ""),
  }));
  const tables = Array.from(body.querySelectorAll("table")).map((t) =>
    Array.from(t.querySelectorAll("tr")).map((r) =>
      Array.from(r.children).map((c) => squash(c.textContent ?? "")),
    ),
  );
  const details = Array.from(body.querySelectorAll("details")).map((d) => ({
    summary: squash(d.querySelector("summary")?.textContent ?? ""),
    code: Array.from(d.querySelectorAll("pre > code")).map((c) => c.textContent ?? ""),
  }));
  const listItems = Array.from(body.querySelectorAll("li")).map((li) => {
    const own = li.cloneNode(true);
    for (const inner of Array.from(own.querySelectorAll("ul, ol"))) inner.remove();
    return squash(own.textContent ?? "");
  });
  return { headings, tables, fences, details, listItems, problems, text: squash(body.textContent ?? "") };
}
