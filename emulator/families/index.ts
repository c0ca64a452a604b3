/**
 * The families the emulator serves: every `defineFamily(...)` value exported by a file of this
 * directory, found when this module loads. Adding a family is adding its file (see ../README.md
 * "Adding a family"); nothing here or in a role table lists it.
 *
 * The files are read in name order, so the order is stable (it shows in `GET /_emulator`); nothing
 * depends on it: routes match by specificity (http/router.ts), seeds fill only their own collections.
 * Sub-directories (`shared/`) hold helpers, not families. Works from the sources (ts-jest, ts-node:
 * `.ts`) and from the compiled package (`dist/`: `.js`): the extension is this module's own.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type FamilyModule, isFamilyModule } from "../family";

/** The family files of `dir`: modules with this module's extension, declarations and index left out. */
export function familyFiles(dir: string = __dirname): string[] {
  const ext = path.extname(__filename);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext) && !e.name.endsWith(`.d${ext}`))
    .map((e) => e.name)
    .filter((name) => name !== `index${ext}`)
    .sort()
    .map((name) => path.join(dir, name));
}

/** Every family the files of `dir` export, in file order; two families of one name are an error. */
export function discoverFamilies(dir: string = __dirname): FamilyModule[] {
  const found: FamilyModule[] = [];
  const fileOf = new Map<string, string>();
  for (const file of familyFiles(dir)) {
    for (const value of Object.values(require(file) as Record<string, unknown>)) {
      if (!isFamilyModule(value) || found.includes(value)) continue;
      const other = fileOf.get(value.name);
      if (other) throw new Error(`emulator: family ${value.name} is defined in ${other} and ${file}`);
      fileOf.set(value.name, file);
      found.push(value);
    }
  }
  return found;
}

/** The families the emulator serves by default. */
export const FAMILIES: readonly FamilyModule[] = discoverFamilies();
