/**
 * `npm run generate -- --check` (part of `npm run lint`) fails when a generated file no longer matches
 * its sources: here a doc comment of a schema changes (in memory), and the generated public module
 * and reference page of that kind, and only those, are stale.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { generate, writeOrCheck } from "../scripts/generate/index";

const root = path.join(__dirname, "..");
const source = path.join(root, "resources", "alertAttribute.ts");

test("a changed doc comment makes the generated module and reference page stale, and nothing else", () => {
  const before = "/** Whether the attribute holds a list of values. */";
  const after = "/** Whether the attribute holds several values. */";
  const text = fs.readFileSync(source, "utf8");
  expect(text).toContain(before);
  const generated = generate({ root, overrides: new Map([[source, text.replace(before, after)]]) });
  expect(writeOrCheck(root, generated, true).sort()).toEqual([
    "docs/resources/alertAttribute.md",
    "resources/generated/alertAttribute.ts",
  ]);
  expect(generated.get("resources/generated/alertAttribute.ts")).toContain(after);
  expect(generated.get("docs/resources/alertAttribute.md")).toContain(
    "Whether the attribute holds several values.",
  );
}, 120_000);
