/**
 * Renders TypeScript types the compiler's checker computed (from zod's `z.input` / `z.output` of a
 * resource's schema, or a lookup's result interface) as named, documented declarations that
 * mention neither zod nor the resource file: what users see in editor hovers and in
 * `dist/index.d.ts`.
 *
 * Two modes: "input" wraps every value in `pulumi.Input` at every level (arrays as
 * `pulumi.Input<pulumi.Input<T>[]>`), naming each object type `XxxArgs`; "plain" renders the values
 * as they are (outputs, lookup arguments and results).
 */
import ts from "typescript";

export type Mode = "input" | "plain";

export interface PropModel {
  name: string;
  /** The property's type as written in the declaration (already wrapped in `pulumi.Input` in input mode). */
  type: string;
  /** The value type without the `pulumi.Input` wrapping (for documentation). */
  valueType: string;
  optional: boolean;
  doc: string;
}

export interface DeclModel {
  name: string;
  doc: string;
  /** An interface's properties, or (for a union) the alias's right-hand side in `alias`. */
  props: PropModel[];
  alias?: string;
  mode: Mode;
}

/** Names in use across every generated module: one namespace, since the package root exports them all. */
export class NameRegistry {
  private readonly used = new Map<string, string>();
  /** Claims `name` for `owner`; answers false when another owner has it. */
  claim(name: string, owner: string): boolean {
    const had = this.used.get(name);
    if (had !== undefined && had !== owner) return false;
    this.used.set(name, owner);
    return true;
  }
}

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A property name as an element's name: `targets` → `Target`, `branches` → `Branch`, `policies` → `Policy`. */
export function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

export function docOf(checker: ts.TypeChecker, symbol: ts.Symbol | undefined): string {
  if (!symbol) return "";
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const tags = symbol
    .getJsDocTags(checker)
    .filter((t) => t.name !== "example")
    .map((t) => `@${t.name}${t.text ? ` ${ts.displayPartsToString(t.text)}` : ""}`);
  return [text, ...tags].filter(Boolean).join("\n");
}

/**
 * The string-literal unions (enums) of one module, named once for both modes: a long union written
 * out at every property that takes it would repeat its members in every place.
 */
export class EnumTable {
  readonly decls: DeclModel[] = [];
  private readonly byMembers = new Map<string, string>();

  constructor(
    private readonly registry: NameRegistry,
    private readonly owner: string,
    /** The enums of the shared module, used before naming one here. */
    private readonly shared?: EnumTable,
  ) {}

  /** The name of the union of `members` (string literal texts), declared here unless already named. */
  name(members: string[], hint: string, doc: string, used: Set<string>): string {
    const key = [...members].sort().join(" | ");
    const shared = this.shared?.byMembers.get(key);
    if (shared !== undefined) {
      used.add(shared);
      return shared;
    }
    const known = this.byMembers.get(key);
    if (known !== undefined) return known;
    let name = hint.replace(/Args$/, "");
    for (let n = 2; !this.registry.claim(name, this.owner); n++) name = `${hint.replace(/Args$/, "")}${n}`;
    this.byMembers.set(key, name);
    this.decls.push({ name, doc, props: [], alias: members.join(" | "), mode: "plain" });
    return name;
  }
}

/** A union of at least this many string literals is declared once under a name (an enum). */
export const ENUM_MIN_MEMBERS = 4;

export class TypeRenderer {
  readonly decls: DeclModel[] = [];
  /** Names this renderer uses from the shared module (to import them). */
  readonly sharedUsed = new Set<string>();
  private readonly named: Record<Mode, Map<ts.Type, string>> = { input: new Map(), plain: new Map() };
  private readonly byBody = new Map<string, string>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly registry: NameRegistry,
    /** Which module owns the names this renderer claims. */
    private readonly owner: string,
    /** Prefix for names derived from a property path in this module (the kind). */
    private readonly prefix: string,
    /** The module's enums (shared by its input and plain renderers). */
    private readonly enums: EnumTable,
    /** The shared module's renderer of the same mode: a type it names is used, not declared again. */
    private readonly shared?: TypeRenderer,
  ) {}

  /** The name this renderer gave `type` in `mode`, if any. */
  nameOf(type: ts.Type, mode: Mode): string | undefined {
    return this.named[mode].get(type);
  }

  /**
   * Declares `type` (an object type, or a union of them) under `name` and answers the name. Other
   * object types it reaches are declared too, named after their interface or their property path.
   */
  declare(type: ts.Type, name: string, doc: string, mode: Mode): string {
    return this.objectName(type, name, doc, mode, true);
  }

  /** The text of a value of `type` (no outer `pulumi.Input`). */
  value(type: ts.Type, hint: string, doc: string, mode: Mode, optional = false): string {
    const c = this.checker;
    // A closed list's "any other text" (provider/checkWarnings.ts `knownValues`): kept as written,
    // so the known literals beside it still autocomplete.
    if (isOtherString(type)) return OTHER_STRING;
    if (type.isUnion()) {
      // An optional property's `undefined` is its `?`.
      const members = sortedLiterals(
        type.types.filter((t) => !optional || !(t.flags & ts.TypeFlags.Undefined)),
      );
      const trueType = members.find(
        (t) => t.flags & ts.TypeFlags.BooleanLiteral && c.typeToString(t) === "true",
      );
      const falseType = members.find(
        (t) => t.flags & ts.TypeFlags.BooleanLiteral && c.typeToString(t) === "false",
      );
      const parts: string[] = [];
      const literals = members.filter((t) => t.flags & ts.TypeFlags.StringLiteral);
      const enumName =
        literals.length >= ENUM_MIN_MEMBERS
          ? this.enums.name(
              literals.map((t) => JSON.stringify((t as ts.StringLiteralType).value)),
              hint,
              doc,
              this.sharedUsed,
            )
          : undefined;
      const objects = members.filter((t) => this.isObject(t));
      for (const m of members) {
        if (enumName !== undefined && literals.includes(m)) {
          parts.push(enumName);
          continue;
        }
        if (trueType && falseType && (m === trueType || m === falseType)) {
          if (m === trueType) parts.push("boolean");
          continue;
        }
        const index = objects.indexOf(m);
        const memberHint = objects.length > 1 && index >= 0 ? this.variantName(hint, m, objects) : hint;
        parts.push(this.value(m, memberHint, doc, mode));
      }
      // Any other text last, after the known values it stands beside.
      const unique = [...new Set(parts)];
      return [...unique.filter((p) => p !== OTHER_STRING), ...unique.filter((p) => p === OTHER_STRING)].join(
        " | ",
      );
    }
    if (c.isArrayType(type)) {
      const element = c.getTypeArguments(type as ts.TypeReference)[0]!;
      const inner = this.value(element, singular(hint), doc, mode);
      const wrapped = mode === "input" ? `pulumi.Input<${inner}>` : this.parenthesise(inner);
      return `${wrapped}[]`;
    }
    if (c.isTupleType(type)) {
      const items = c
        .getTypeArguments(type as ts.TypeReference)
        .map((t) => this.wrap(this.value(t, hint, doc, mode), mode));
      return `[${items.join(", ")}]`;
    }
    if (this.isObject(type)) {
      const props = c.getPropertiesOfType(type);
      const index = c.getIndexInfosOfType(type);
      if (props.length === 0 && index.length > 0) {
        const info = index[0]!;
        const inner = this.wrap(this.value(info.type, singular(hint), doc, mode), mode);
        return `{ [key: ${c.typeToString(info.keyType)}]: ${inner} }`;
      }
      if (props.length === 0) return "{}";
      return this.objectName(type, hint, doc, mode, false);
    }
    return c
      .typeToString(
        type,
        undefined,
        ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType,
      )
      .replace(/'/g, '"');
  }

  wrap(text: string, mode: Mode): string {
    return mode === "input" ? `pulumi.Input<${text}>` : text;
  }

  private parenthesise(text: string): string {
    return text.includes(" | ") ? `(${text})` : text;
  }

  private isObject(type: ts.Type): boolean {
    const c = this.checker;
    if (isOtherString(type)) return false;
    if (type.flags & ts.TypeFlags.Intersection) return true;
    if (!(type.flags & ts.TypeFlags.Object)) return false;
    if (c.isArrayType(type) || c.isTupleType(type)) return false;
    return type.getCallSignatures().length === 0;
  }

  /** A name for one object member of a union: after the property only it has (`…ByEmail`), else numbered. */
  private variantName(hint: string, member: ts.Type, all: ts.Type[]): string {
    const own = this.checker
      .getPropertiesOfType(member)
      .map((p) => p.getName())
      .filter((n) => all.every((o) => o === member || !this.checker.getPropertyOfType(o, n)));
    const base = hint.replace(/Args$/, "");
    return own.length > 0 ? `${base}${pascal(own[0]!)}` : `${base}${all.indexOf(member) + 1}`;
  }

  /** The project interface or alias a type was declared as (not zod's own helper types). */
  private declaredName(type: ts.Type): string | undefined {
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (!symbol || symbol.getName().startsWith("__")) return undefined;
    if (!(symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))) return undefined;
    const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? "";
    if (file.includes("node_modules")) return undefined;
    return symbol.getName();
  }

  private objectName(type: ts.Type, hint: string, doc: string, mode: Mode, exact: boolean): string {
    const known = this.named[mode].get(type);
    if (known !== undefined) return known;
    const shared = exact ? undefined : this.shared?.nameOf(type, mode);
    if (shared !== undefined) {
      this.sharedUsed.add(shared);
      return shared;
    }
    const c = this.checker;
    const declared = exact ? undefined : this.declaredName(type);
    const ownDoc = declared ? docOf(c, type.aliasSymbol ?? type.getSymbol()) || doc : doc;
    const base = declared ?? hint.replace(/Args$/, "");
    const suffix = mode === "input" ? "Args" : "";
    const free = (n: string) => !this.decls.some((d) => d.name === n) && this.registry.claim(n, this.owner);
    let name = exact ? hint : `${base}${base.endsWith(suffix) ? "" : suffix}`;
    if (!free(name)) {
      // Taken (by another module, or another shape here): the kind's name, then a number, make it unique.
      if (exact) throw new Error(`generate: ${name} is declared twice`);
      const stem = base.startsWith(this.prefix) ? base : `${this.prefix}${pascal(base)}`;
      name = `${stem}${suffix}`;
      for (let n = 2; !free(name); n++) name = `${stem}${n}${suffix}`;
    }
    const decl: DeclModel = { name, doc: ownDoc, props: [], mode };
    this.named[mode].set(type, name);
    this.decls.push(decl);

    if (type.isUnion()) {
      decl.alias = this.value(type, name, doc, mode);
      return name;
    }
    const nameBase = name.replace(/Args$/, "");
    for (const prop of c.getPropertiesOfType(type)) {
      const propType = c.getTypeOfSymbol(prop);
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      const propDoc = docOf(c, prop);
      const valueType = this.value(propType, `${nameBase}${pascal(prop.getName())}`, propDoc, mode, optional);
      decl.props.push({
        name: prop.getName(),
        type: this.wrap(valueType, mode),
        valueType,
        optional,
        doc: propDoc,
      });
    }
    // The same shape reached twice under two names (two parents sharing a schema): keep one.
    const body = `${mode}:${decl.props.map((p) => `${p.name}${p.optional ? "?" : ""}:${p.type}/${p.doc}`).join(";")}`;
    const twin = this.byBody.get(body);
    if (twin !== undefined && !exact && twin !== name && !this.referencesItself(decl)) {
      this.decls.splice(this.decls.indexOf(decl), 1);
      this.named[mode].set(type, twin);
      return twin;
    }
    this.byBody.set(body, name);
    return name;
  }

  private referencesItself(decl: DeclModel): boolean {
    return decl.props.some((p) => new RegExp(`\\b${decl.name}\\b`).test(p.type));
  }
}

/** How `string & {}` is written: any string, beside known literals that stay distinct (and autocomplete). */
const OTHER_STRING = "(string & {})";

/** `string & {}`: any string, written so that a union keeps its string literals. */
function isOtherString(type: ts.Type): boolean {
  if (!(type.flags & ts.TypeFlags.Intersection)) return false;
  const parts = (type as ts.IntersectionType).types;
  return (
    parts.length === 2 &&
    parts.some((t) => t.flags & ts.TypeFlags.String) &&
    parts.some(
      (t) =>
        t.flags & ts.TypeFlags.Object &&
        t.getProperties().length === 0 &&
        t.getCallSignatures().length === 0 &&
        t.getStringIndexType() === undefined,
    )
  );
}

/**
 * A union's members with its string literals in alphabetical order (in their places): the checker
 * orders them by when it first met each literal, which any other file can change.
 */
function sortedLiterals(members: ts.Type[]): ts.Type[] {
  const isLiteral = (t: ts.Type) => (t.flags & ts.TypeFlags.StringLiteral) !== 0;
  const literals = members
    .filter(isLiteral)
    .sort((a, b) => (a as ts.StringLiteralType).value.localeCompare((b as ts.StringLiteralType).value, "en"));
  return members.map((t) => (isLiteral(t) ? literals.shift()! : t));
}

/** A doc comment, indented. */
export function jsDoc(doc: string, indent = ""): string {
  if (!doc.trim()) return "";
  const lines = doc.trim().split("\n");
  if (lines.length === 1 && !lines[0]!.includes("*/")) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? ` ${l.replace(/\*\//g, "*\\/")}` : ""}`).join("\n")}\n${indent} */\n`;
}

/** A declaration as TypeScript. */
export function declText(decl: DeclModel): string {
  if (decl.alias !== undefined) return `${jsDoc(decl.doc)}export type ${decl.name} = ${decl.alias};\n`;
  const props = decl.props
    .map((p) => `${jsDoc(p.doc, "  ")}  ${p.name}${p.optional ? "?" : ""}: ${p.type};\n`)
    .join("");
  return `${jsDoc(decl.doc)}export interface ${decl.name} {\n${props}}\n`;
}
