/**
 * Family registration is derived from the family files: every `defineFamily(...)` exported by a file
 * of emulator/families/ is served (from the sources and from the compiled package), with the roles
 * it declares; nothing else lists families.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { discoverFamilies, FAMILIES, ROLE_TABLE } from "../../emulator";
import { familiesOnDisk } from "../support/emulator";

const root = path.join(__dirname, "..", "..");
const names = (families: readonly { name: string }[]) => families.map((f) => f.name);

/** The families of the first release with this registration: a floor, never a list to extend. */
const SERVED_SINCE_ISSUE_11 = [
  "alert_attributes",
  "alert_routes",
  "alert_sources",
  "api_keys",
  "custom_field_options",
  "custom_fields",
  "escalation_paths",
  "identity",
  "schedules",
  "teams",
  "users",
  "workflows",
];

test("every family file's family is served, in file order", () => {
  expect(names(familiesOnDisk())).toEqual(expect.arrayContaining(SERVED_SINCE_ISSUE_11));
  expect(names(FAMILIES)).toEqual(names(familiesOnDisk()));
});

test("the compiled package (dist/, plain JavaScript) finds the same families", () => {
  const compiled = path.join(root, "dist", "emulator", "index.js");
  expect(fs.existsSync(compiled)).toBe(true); // npm test builds first
  const { FAMILIES: fromDist } = require(compiled);
  expect(names(fromDist)).toEqual(names(familiesOnDisk()));
  for (const family of fromDist) expect(family.routes.length).toBeGreaterThan(0);
});

test("the role table is what each family declares", () => {
  expect(Object.keys(ROLE_TABLE)).toEqual(names(FAMILIES));
  for (const family of FAMILIES) {
    expect(ROLE_TABLE[family.name]).toBe(family.roles);
    for (const route of family.routes) expect(route.family).toBe(family);
  }
});

test("the README's role table has a row for every family served", () => {
  const readme = fs.readFileSync(path.join(root, "emulator", "README.md"), "utf8");
  const roleRows = readme
    .slice(readme.indexOf("### Roles"))
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| family"));
  const documented = new Set(
    roleRows.flatMap((row) =>
      row
        .split("|")[1]!
        .split(",")
        .map((n) => n.trim()),
    ),
  );
  expect(names(FAMILIES).filter((n) => !documented.has(n))).toEqual([]);
});

describe("discovery in a directory of family files", () => {
  const familyModule = path.join(root, "emulator", "family");
  const write = (dir: string, file: string, text: string) => fs.writeFileSync(path.join(dir, file), text);
  const family = (name: string) =>
    `import { defineFamily } from ${JSON.stringify(familyModule)};\n` +
    `export const f = defineFamily({ name: ${JSON.stringify(name)}, roles: { read: ["viewer"], write: [] }, collections: [], routes: [] });\n`;
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-families-"));
    fs.mkdirSync(path.join(dir, "shared"));
    write(dir, "index.ts", "throw new Error('index is not a family file');\n");
    write(dir, "helpers.ts", "export const notAFamily = { name: 'x', routes: [] };\n");
    write(path.join(dir, "shared"), "inner.ts", family("inner"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("finds the families of the files, in name order; index, helpers and sub-directories are not families", () => {
    write(dir, "zebras.ts", family("zebras"));
    write(dir, "aardvarks.ts", family("aardvarks"));
    expect(names(discoverFamilies(dir))).toEqual(["aardvarks", "zebras"]);
  });

  test("two families of one name are an error naming both files", () => {
    write(dir, "one.ts", family("twice"));
    write(dir, "two.ts", family("twice"));
    expect(() => discoverFamilies(dir)).toThrow(/family twice is defined in .*one\.ts and .*two\.ts/);
  });
});
