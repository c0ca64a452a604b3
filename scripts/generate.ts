/**
 * `npm run generate` writes every file derived from the resource files (scripts/generate/index.ts);
 * `npm run generate -- --check` writes nothing and fails, naming them, when any is stale.
 */
import * as path from "node:path";
import { generate, writeOrCheck } from "./generate/index";

const root = path.join(__dirname, "..");
const check = process.argv.includes("--check");
const stale = writeOrCheck(root, generate({ root }), check);
if (check && stale.length > 0) {
  console.error(`generated files are stale (run npm run generate):\n  ${stale.join("\n  ")}`);
  process.exit(1);
}
console.log(check ? "generated files are up to date" : `generated: ${stale.length} file(s) written`);
