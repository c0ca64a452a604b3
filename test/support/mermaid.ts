import { execFileSync } from "node:child_process";
import * as path from "node:path";

export type MermaidResult = { ok: true; type: string } | { ok: false; error: string };

/** Mermaid's own parser on each diagram (test/support/mermaidParse.mjs). */
export function parseMermaid(diagrams: string[]): MermaidResult[] {
  const out = execFileSync(process.execPath, [path.join(__dirname, "mermaidParse.mjs")], {
    input: JSON.stringify(diagrams),
    encoding: "utf8",
    stdio: ["pipe", "pipe", "pipe"],
    timeout: 120_000,
  });
  return JSON.parse(out);
}
