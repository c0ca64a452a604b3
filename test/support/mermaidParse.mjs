// Parses Mermaid diagrams with Mermaid's own parser (mermaid.parse), in a process of its own: Mermaid
// is an ES module that needs a DOM for its text sanitiser, so jsdom provides one (no browser, no
// rendering). Reads a JSON list of diagram texts on stdin; prints one result per diagram:
// {ok: true, type} or {ok: false, error}.
import { JSDOM } from "jsdom";

const { window } = new JSDOM("");
globalThis.window = window;
globalThis.document = window.document;
const { default: mermaid } = await import("mermaid");

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const text of JSON.parse(input)) {
  try {
    const parsed = await mermaid.parse(text);
    results.push({ ok: true, type: parsed.diagramType });
  } catch (error) {
    results.push({ ok: false, error: String(error?.message ?? error) });
  }
}
process.stdout.write(JSON.stringify(results));
