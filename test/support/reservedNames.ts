/**
 * Words a generated TypeScript program cannot declare, or must not: the complete lists, for tests
 * that name objects with every one of them (test/cli/export.test.ts, test/cli/exportAdoption.test.ts).
 */
import * as ts from "typescript";

/** ECMAScript's reserved words (ES2015 and later, the literals `null`, `true`, `false` included). */
export const ECMASCRIPT_RESERVED = `await break case catch class const continue debugger default delete do
else enum export extends false finally for function if import in instanceof new null return super
switch this throw true try typeof var void while with yield`.split(/\s+/);

/** Reserved in strict-mode code (every module), and the two names strict mode cannot bind. */
export const STRICT_MODE_RESERVED = [
  ..."implements interface let package private protected public static yield".split(" "),
  "eval",
  "arguments",
];

/** Every keyword of the installed TypeScript (its scanner's list: reserved, strict and contextual). */
export const TYPESCRIPT_KEYWORDS: string[] = (() => {
  const out: string[] = [];
  for (let kind = ts.SyntaxKind.FirstKeyword; kind <= ts.SyntaxKind.LastKeyword; kind++) {
    const text = ts.tokenToString(kind);
    if (text) out.push(text);
  }
  return out;
})();

/** Node's CommonJS module scope: the parameters of the function every module runs in. */
export const NODE_MODULE_SCOPE = ["require", "module", "exports", "__filename", "__dirname"];

/** What the exported program itself declares or uses by name (and globals it relies on). */
export const PROGRAM_NAMES = ["pulumi", "incident", "config", "globalThis", "undefined", "NaN", "Object"];

/** Every word above, once, plus capitalised spellings (a severity named `Eval`). */
export const ALL_RESERVED_NAMES: string[] = [
  ...new Set([
    ...ECMASCRIPT_RESERVED,
    ...STRICT_MODE_RESERVED,
    ...TYPESCRIPT_KEYWORDS,
    ...NODE_MODULE_SCOPE,
    ...PROGRAM_NAMES,
    ..."Eval Arguments Exports Require Module".split(" "),
  ]),
];
