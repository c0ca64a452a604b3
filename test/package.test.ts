/**
 * What `npm pack` puts in the tarball users install: the compiled package (JavaScript and
 * declarations of every source the build compiles), the emulator's reference data, README, LICENSE
 * and CHANGELOG; nothing else (no sources, tests, scripts, examples, fixtures). Every entry point
 * package.json names is in it. Runs on the build `npm test` makes.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.join(__dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

interface PackResult {
  files: { path: string }[];
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const packed: PackResult = JSON.parse(
  execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  }),
)[0];
const files = new Set(packed.files.map((f) => f.path));

/** The sources the build compiles (tsconfig.json `include`), as their dist/ paths without extension. */
function compiledSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (rel.endsWith(".ts") && !rel.endsWith(".d.ts")) out.push(`dist/${rel.slice(0, -3)}`);
    }
  };
  for (const dir of ["provider", "resources", "emulator", "cli"]) walk(dir);
  return [...out, "dist/index"];
}

describe("the packed tarball", () => {
  test("holds the JavaScript and declarations of every compiled source", () => {
    const missing = compiledSources().flatMap((base) =>
      [`${base}.js`, `${base}.d.ts`].filter((f) => !files.has(f)),
    );
    expect(missing).toEqual([]);
  });

  test("holds nothing else but the emulators' reference data and the package's documents", () => {
    const expected = new Set(compiledSources().flatMap((base) => [`${base}.js`, `${base}.d.ts`]));
    for (const f of [
      "dist/emulator/reference.json",
      "dist/emulator/reference-newer.json",
      "dist/emulator/sources/opsgenie/shapes.json",
      "dist/emulator/sources/pagerduty/shapes.json",
      "README.md",
      "LICENSE",
      "CHANGELOG.md",
      "package.json",
    ])
      expected.add(f);
    expect([...files].filter((f) => !expected.has(f)).sort()).toEqual([]);
    expect([...expected].filter((f) => !files.has(f)).sort()).toEqual([]);
  });

  test("every entry point package.json names is in it", () => {
    const targets: string[] = [pkg.main, pkg.types, ...Object.values<string>(pkg.bin)];
    for (const entry of Object.values<string | Record<string, string>>(pkg.exports))
      targets.push(...(typeof entry === "string" ? [entry] : Object.values(entry)));
    for (const mapped of Object.values<string[]>(pkg.typesVersions["*"])) targets.push(...mapped);
    const missing = targets.map((t) => t.replace(/^\.\//, "")).filter((t) => !files.has(t));
    expect(missing).toEqual([]);
  });

  test("LICENSE is the Apache-2.0 text package.json declares", () => {
    expect(pkg.license).toBe("Apache-2.0");
    const license = fs.readFileSync(path.join(root, "LICENSE"), "utf8");
    expect(license).toContain("Apache License");
    expect(license).toContain("Version 2.0, January 2004");
    expect(license).toContain("END OF TERMS AND CONDITIONS");
  });
});
