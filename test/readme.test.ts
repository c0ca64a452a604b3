/**
 * Every TypeScript block of the README type-checks as a user's program would, against the built
 * package (dist/, through package.json `exports` / `typesVersions`), under today's `pulumi new
 * typescript` tsconfig (nodenext) and the older CommonJS one.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { beyondZodInterop, typeCheckReadme, typeScriptBlocks } from "./support/readmeBlocks";

const root = path.join(__dirname, "..");

describe("README TypeScript blocks", () => {
  // A user's project: its node_modules links to this checkout (the built package) and its SDK/compiler.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "readme-check-"));
  beforeAll(() => {
    const link = (name: string, target: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, "node_modules", name)), { recursive: true });
      fs.symlinkSync(target, path.join(dir, "node_modules", name), "dir");
    };
    link("pulumi-incident", root);
    for (const dep of ["@pulumi/pulumi", "typescript", "@types/node"])
      link(dep, path.join(root, "node_modules", dep));
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "readme-check", private: true }));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("there are blocks to check", () => {
    expect(typeScriptBlocks(fs.readFileSync(path.join(root, "README.md"), "utf8")).length).toBeGreaterThan(8);
  });

  test("each type-checks under the nodenext and the CommonJS template tsconfigs", () => {
    const result = typeCheckReadme(path.join(root, "README.md"), dir);
    expect(result.nodenext).toBe("");
    // Known gap (README, "TypeScript configuration"): under the CommonJS template zod's own
    // declarations fail (TS1259); nothing else may.
    expect(beyondZodInterop(result.commonjs!)).toEqual([]);
  }, 120_000);

  test("the CommonJS template with esModuleInterop (the README's advice) is clean", () => {
    expect(typeCheckReadme(path.join(root, "README.md"), dir, { esModuleInterop: true })).toEqual({
      nodenext: "",
      commonjs: "",
    });
  }, 120_000);
});
