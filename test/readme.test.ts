/**
 * Every TypeScript block of the README and of docs/ (the guide and the generated reference pages)
 * type-checks as a user's program would, against the built package (dist/, through package.json
 * `exports` / `typesVersions`), under today's `pulumi new typescript` tsconfig (nodenext) and the
 * older CommonJS one (no esModuleInterop, no skipLibCheck: the package's declarations never load
 * zod, whose own declarations fail there). The README is the front door: it states the test command
 * CI runs and links every resource's reference page.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { resourceFiles } from "../scripts/generate/index";
import { typeCheckReadme, typeScriptBlocks, userProject } from "./support/readmeBlocks";

const root = path.join(__dirname, "..");
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");

/** README.md and every Markdown file under docs/. */
function documents(): string[] {
  const out = [path.join(root, "README.md")];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const at = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(at);
      else if (entry.name.endsWith(".md")) out.push(at);
    }
  };
  walk(path.join(root, "docs"));
  return out;
}

describe("README and docs TypeScript blocks", () => {
  const dir = userProject(root);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("there are blocks to check: in the README, and in docs/ (one example per resource page at least)", () => {
    expect(typeScriptBlocks(readme).length).toBeGreaterThan(0);
    const docBlocks = documents()
      .slice(1)
      .flatMap((f) => typeScriptBlocks(fs.readFileSync(f, "utf8")));
    expect(docBlocks.length).toBeGreaterThan(8);
  });

  test("each type-checks under the nodenext and the CommonJS template tsconfigs, with no error at all", () => {
    expect(typeCheckReadme(documents(), dir)).toEqual({ nodenext: "", commonjs: "" });
  }, 180_000);

  test("the CommonJS template with esModuleInterop is clean too", () => {
    expect(typeCheckReadme(documents(), dir, { esModuleInterop: true })).toEqual({
      nodenext: "",
      commonjs: "",
    });
  }, 180_000);
});

describe("the README, the front door", () => {
  test("states the test command CI runs", () => {
    expect(readme).toMatch(/^npm test\b/m);
  });

  test("leads to every resource kind's reference page (through the generated index), and each exists", () => {
    const kinds = resourceFiles(root)
      .map((f) => path.basename(f, ".ts"))
      .filter((base) => fs.existsSync(path.join(root, "docs", "resources", `${base}.md`)));
    expect(kinds.length).toBeGreaterThan(8);
    expect(readme).toContain("(docs/resources/README.md)");
    const index = fs.readFileSync(path.join(root, "docs", "resources", "README.md"), "utf8");
    for (const base of kinds) expect(index).toContain(`](${base}.md)`);
    for (const [, target] of readme.matchAll(/\]\(((?:docs|examples|emulator|test)\/[^)#]+)/g))
      expect(fs.existsSync(path.join(root, target!))).toBe(true);
  });
});

describe("module paths the docs name", () => {
  /** Every Markdown file of the repository a user reads (not the recorded baselines, not dependencies). */
  function markdownFiles(): string[] {
    const out: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (["node_modules", "dist", ".git", ".tools", "baselines", "fixtures"].includes(entry.name))
          continue;
        const at = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(at);
        else if (entry.name.endsWith(".md") && entry.name !== "CHANGELOG.md") out.push(at);
      }
    };
    walk(root);
    return out;
  }

  test("every `pulumi-incident…` import or require in them resolves through the package's exports", () => {
    const named = new Map<string, string>();
    for (const file of markdownFiles()) {
      const text = fs.readFileSync(file, "utf8");
      for (const m of text.matchAll(
        /(?:from\s+|require\(\s*|import\(\s*)["'](pulumi-incident(?:\/[^"']*)?)["']/g,
      ))
        named.set(m[1]!, path.relative(root, file));
    }
    expect([...named.keys()]).toEqual(
      expect.arrayContaining(["pulumi-incident", "pulumi-incident/emulator"]),
    );
    const unresolved = [...named].filter(([specifier]) => {
      try {
        // As a user's project resolves it: through node_modules/pulumi-incident's `exports` map.
        require.resolve(specifier, { paths: [root] });
        return false;
      } catch {
        return true;
      }
    });
    expect(unresolved.map(([specifier, file]) => `${specifier} (${file})`)).toEqual([]);
  });
});
