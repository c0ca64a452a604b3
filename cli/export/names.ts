/**
 * The names the exporter writes: resource names (kebab-case), variables (camelCase, never a word a
 * TypeScript program, a CommonJS module or an ES module cannot declare), section titles and module
 * names (a kind's plural).
 *
 * - Words come from `Intl.Segmenter` (Unicode word boundaries, ICU): a name splits where people
 *   separate words (spaces, punctuation, `_`), never inside a word, so `iOS` stays one word (`ios`)
 *   and `PagerDuty` too; scripts without spaces (Japanese, Thai) split as ICU's dictionaries do.
 *   Latin letters lose their accents (`Café` → `cafe`); other scripts are kept as they are
 *   (`決済` → `決済`), letters of every script being valid in identifiers and resource names.
 * - A kind's title is its spec's `title` (`API key`, `incident status`), its last word made plural
 *   by `pluralize` (`API keys`, `incident statuses`).
 */
import { providers } from "../../resources";

// `pluralize` ships no types: its one function used here.
const pluralize: (word: string) => string = require("pluralize");

/**
 * Words no generated declaration may take: a `const` of one of them fails to compile, fails to load
 * (CommonJS wraps a module in `function (exports, require, module, __filename, __dirname)`, and a
 * `const` may not redeclare a parameter), shadows what the program itself uses, or reads as a keyword.
 */
export const UNSAFE_IDENTIFIERS: ReadonlySet<string> = new Set([
  // ECMAScript reserved words (ES2015+), literals included.
  ...`await break case catch class const continue debugger default delete do else enum export extends
  false finally for function if import in instanceof new null return super switch this throw true try
  typeof var void while with yield`.split(/\s+/),
  // Reserved in strict mode (every module is strict), and the two names strict mode cannot bind.
  ..."implements interface let package private protected public static eval arguments".split(" "),
  // TypeScript's contextual keywords and type names (a declaration of one compiles at best confusingly).
  ...`abstract accessor any as asserts assert async bigint boolean constructor declare defer from get
  global infer intrinsic is keyof module namespace never number object of out override readonly
  require satisfies set string symbol type undefined unique unknown using`.split(/\s+/),
  // Node's module scope (CommonJS) and the helpers TypeScript emits into a CommonJS module.
  ..."require module exports __filename __dirname __esModule __importStar __importDefault __createBinding __setModuleDefault".split(
    " ",
  ),
  // Globals a program relies on by name.
  ..."globalThis NaN Infinity Object Symbol Promise".split(" "),
  // What the exported program itself declares and uses.
  ..."pulumi incident config".split(" "),
]);

const segmenter = new Intl.Segmenter("en", { granularity: "word" });

/** The words of a name, lower-case: letters (any script) and digits; accents of Latin letters dropped. */
export function words(text: string): string[] {
  const plain = text
    .normalize("NFKD")
    .replace(/(\p{Script=Latin})\p{M}+/gu, "$1")
    .normalize("NFC");
  const out: string[] = [];
  for (const s of segmenter.segment(plain)) {
    if (!s.isWordLike) continue;
    for (const part of s.segment.split(/[^\p{L}\p{Mn}\p{Mc}\p{Nd}]+/u)) {
      // Only characters an identifier may hold (a few letters are syntax characters).
      const kept = part.replace(/\P{ID_Continue}/gu, "");
      if (kept !== "") out.push(kept.toLowerCase());
    }
  }
  return out;
}

const codePoints = (text: string, max: number) => Array.from(text).slice(0, max).join("");

/** A resource name: the words joined by `-` (at most 60 characters), else the fallback's. */
export function kebabCase(text: string, fallback: string): string {
  const w = words(text);
  if (w.length === 0) return fallback === "" ? "object" : kebabCase(kindWords(fallback).join(" "), "");
  return codePoints(w.join("-"), 60).replace(/-+$/, "");
}

const IDENTIFIER = /^\p{ID_Start}\p{ID_Continue}*$/u;

/**
 * A camelCase identifier from the words of `text`; prefixed with `fallback` when it would start with
 * a digit (or is empty).
 */
export function camelCase(text: string, fallback: string): string {
  const w = words(text);
  if (w.length === 0) return fallback;
  const joined = w.map((x, i) => (i === 0 ? x : upperFirst(x))).join("");
  return IDENTIFIER.test(joined) ? joined : `${fallback}${upperFirst(joined)}`;
}

const upperFirst = (text: string) => {
  const [first = "", ...rest] = Array.from(text);
  return first.toUpperCase() + rest.join("");
};

/**
 * `wanted`, or when a declaration may not take it (or, with `suffixWhenTaken`, when another has it),
 * `wanted` followed by `suffix` (a severity named Delete is `deleteSeverity`); then numbered until
 * it is not in `taken` (which it joins).
 */
export function safeIdentifier(
  wanted: string,
  suffix: string,
  taken: Set<string>,
  suffixWhenTaken = false,
): string {
  const clash = UNSAFE_IDENTIFIERS.has(wanted) || (suffixWhenTaken && taken.has(wanted));
  const base = clash ? `${wanted}${suffix}` : wanted;
  let name = base;
  for (let n = 2; taken.has(name) || UNSAFE_IDENTIFIERS.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

/** A kind's words for people: its spec's title (`API key`), else its name split before capitals. */
function kindWords(kind: string): string[] {
  const title = providers[kind]?.spec.title;
  if (title) return title.split(" ");
  return kind
    .split(/(?=\p{Lu}\p{Ll})/u)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** A kind's title in the plural (`API keys`, `Incident statuses`): the last word made plural. */
function pluralWords(kind: string): string[] {
  const w = kindWords(kind);
  return [...w.slice(0, -1), pluralize(w[w.length - 1]!)];
}

/** A section title for a kind: `AlertRoute` → `Alert routes`, `ApiKey` → `API keys`. */
export function kindTitle(kind: string): string {
  const text = pluralWords(kind).join(" ");
  return upperFirst(text);
}

/** The plural of a kind in camelCase (module names): `IncidentStatus` → `incidentStatuses`, `ApiKey` → `apiKeys`. */
export function kindPlural(kind: string): string {
  return camelCase(pluralWords(kind).join(" "), "objects");
}
