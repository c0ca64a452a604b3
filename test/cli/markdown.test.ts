/**
 * cli/markdown.ts: the "text vs markup" builder the plan report is made with. Whatever a piece of
 * user text holds, put in any place the builder offers (a paragraph, the start of a line, a list
 * entry, a heading, a table cell, a call-out, inline code, a `<details>` summary, a fenced block),
 * the Markdown parses (markdown-it → HTML → DOM, test/support/markdownDom.ts) into exactly the
 * structure the builder meant, the text reads as given (on one line), and nothing in it becomes
 * HTML, a comment, a link, an @-mention or a fence of its own.
 */
import fc from "fast-check";
import {
  callout,
  details,
  fenced,
  headingBlock,
  inlineCode,
  list,
  md,
  oneLine,
  paragraph,
  renderBlocks,
  tableBlock,
  text,
} from "../../cli/markdown";
import { hostileText } from "../support/hostileText";
import { parseComment } from "../support/markdownDom";

/** How text reads once rendered: on one line, invisible characters shown, spaces collapsed. */
const reads = (s: string) => oneLine(s).replace(/\s+/g, " ").trim();

describe("the text vs markup builder", () => {
  test("user text anywhere the builder puts it keeps the structure and reads as given", () => {
    fc.assert(
      fc.property(hostileText, hostileText, (a, b) => {
        const blocks = [
          headingBlock(2, md`Title ${inlineCode(a)} / ${b}`),
          paragraph(md`Before ${a} after`),
          paragraph(text(b)),
          list([a, md`x ${b}`, { item: md`${a}:`, sub: [b, a] }]),
          headingBlock(4, md`± Kind ${inlineCode(a)} — ${b}`),
          tableBlock(
            [md`A`, md`B`],
            [
              [inlineCode(a), b],
              [a, md`${b} and ${inlineCode(a)}`],
            ],
          ),
          callout("WARNING", [a, md`**Replaced:** ${b}.`]),
          details([a, { code: b }], [fenced("text", a)]),
          fenced("json", b),
        ];
        const comment = parseComment(renderBlocks(blocks));
        expect(comment.problems).toEqual([]);
        expect(comment.headings).toEqual([
          { level: 2, text: reads(`Title ${a} / ${b}`) },
          { level: 4, text: reads(`± Kind ${a} — ${b}`) },
        ]);
        expect(comment.tables).toEqual([
          [
            ["A", "B"],
            [reads(a), reads(b)],
            [reads(a), reads(`${b} and ${a}`)],
          ],
        ]);
        expect(comment.listItems).toEqual([reads(a), reads(`x ${b}`), reads(`${a}:`), reads(b), reads(a)]);
        expect(comment.details).toEqual([{ summary: reads(`${a}${b}`), code: [expect.any(String)] }]);
        // Fenced blocks hold the text whole (line breaks kept, invisible controls shown).
        const kept = (s: string) => `${s.replace(/\r\n?/g, "\n").replace(/\t/g, "    ")}\n`;
        expect(comment.fences.map((f) => [f.info, f.content.replace(/\uFFFD/g, "?")])).toEqual(
          [
            ["text", kept(a)],
            ["json", kept(b)],
          ].map(([info, content]) => [
            info,
            content!.replace(/[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, (c) =>
              c === "\n" ? c : "?",
            ),
          ]),
        );
        expect(comment.text).toContain(reads(`Before ${a} after`));
        expect(comment.text).toContain(reads(`Replaced: ${b}.`));
      }),
      { numRuns: 100 },
    );
  });

  test("the checks can fail: raw user text breaks the structure they look at", () => {
    const raw = (s: string) => `## Title\n\n- ${s}\n\n#### after\n`;
    expect(parseComment(raw("<!-- hidden")).headings.map((h) => h.level)).toEqual([2]);
    expect(parseComment(raw("@octocat")).problems).toEqual([expect.stringMatching(/GitHub would link/)]);
    expect(parseComment(raw("<img src=x>")).problems).toEqual([
      expect.stringMatching(/^raw HTML/),
      "an element: <img>",
    ]);
    expect(parseComment(raw("a <b>bold</b>")).problems[0]).toMatch(/^raw inline HTML/);
    expect(parseComment(raw("https://evil.example")).problems[0]).toMatch(/^a link/);
    expect(parseComment(raw("x\n\n#### injected")).headings.map((h) => h.text)).toEqual([
      "Title",
      "injected",
      "after",
    ]);
  });
});
