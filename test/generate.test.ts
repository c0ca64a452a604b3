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

test("a type several kinds take is declared once, in the shared module, and every module uses it from there", () => {
  const generated = generate({ root });
  const shared = generated.get("resources/generated/shared.ts")!;
  for (const name of ["ConditionGroupArgs", "ParamBindingArgs", "ExpressionArgs", "ConditionGroup"])
    expect(shared).toContain(`export interface ${name} {`);
  expect(shared).toMatch(/export type Weekday =/);
  for (const kind of ["alertRoute", "workflow", "alertSource", "escalationPath", "maintenanceWindow"])
    expect(generated.get(`resources/generated/${kind}.ts`)).toMatch(
      /import type \{[^}]*\} from "\.\/shared";/,
    );

  // No declaration body (an interface's members, or an enum's members) stands in two places.
  const seen = new Map<string, string>();
  const repeated: string[] = [];
  for (const [file, text] of generated) {
    if (!file.startsWith("resources/generated/")) continue;
    const declarations = text.matchAll(
      /^export (?:interface (\w+) \{\n([\s\S]*?)^\}|type (\w+) =([\s\S]*?);)$/gm,
    );
    for (const [, iface, members, alias, union] of declarations) {
      const body = (members ?? union ?? "").replace(/\s+/g, " ").trim();
      if (body.split(";").length < 3 && !body.includes("|")) continue; // one-member shapes
      const where = `${file}:${iface ?? alias}`;
      const first = seen.get(body);
      if (first) repeated.push(`${where} repeats ${first}`);
      else seen.set(body, where);
    }
  }
  expect(repeated).toEqual([]);
}, 120_000);
