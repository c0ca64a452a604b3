/**
 * The real API's shapes, loaded from `reference.json` at run time, and one generic validator for
 * them. Used by the emulator for every request body, query string and (as a check) every response;
 * exported so that tests anywhere can check a request or response object against a reference type.
 *
 * `reference.json` sits next to this module: `emulator/reference.json` when run from TypeScript,
 * `dist/emulator/reference.json` when compiled (the build copies it). Shapes the reference lacks
 * (the users endpoints) are registered by `localTypes.ts` with `registerLocalType` /
 * `registerLocalOperation`, in the same format, and are validated the same way.
 *
 * (Named shapes.ts, not reference.ts: under ts-node, `require("./reference")` would find
 * reference.json before reference.ts.)
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";

/** One field of a reference type (`types[Name].fields[]`). */
export interface RefField {
  name: string;
  /** `string|integer|number|boolean|any|object|array<…>|map<string,…>` */
  type: string;
  required: boolean;
  enum?: string[];
  /** For `object`, `array<object>` and `map<string,object>`: the type of the object. */
  ref?: string;
  /** `date-time` marks RFC 3339 timestamps. */
  format?: string;
  doc?: string;
  example?: string;
}

export interface RefType {
  fields: RefField[];
}

export interface RefQueryParam {
  name: string;
  type: string;
  required: boolean;
  enum?: string[];
  doc?: string;
}

/** One operation (`operations[family].operations[]`). */
export interface RefOperation {
  operation_id: string;
  method: string;
  path: string;
  summary?: string;
  description?: string;
  path_params?: { name: string; type: string }[];
  query_params?: RefQueryParam[];
  /** The whole body's type (a wrapper type when the body is `{key: payload}`). */
  request_body?: string;
  request_body_wrapper?: { key: string; type: string; siblings: string[] };
  /** Success status → response type (empty for deletes). */
  responses?: Record<string, string>;
  required_role?: string;
  deprecated?: boolean;
}

export interface Reference {
  meta: Record<string, unknown>;
  operations: Record<
    string,
    { operations: RefOperation[]; variants?: Record<string, any>; notes?: string[] }
  >;
  types: Record<string, RefType>;
}

/** A problem found by the validator. `path` is the payload path (`path.0.if_else.else_path`), `""` = root. */
export interface ShapeProblem {
  path: string;
  /** `is_required` | `invalid_type` | `invalid_value` | `unknown_field` | `unknown_type` */
  code: string;
  message: string;
}

export interface ValidateOptions {
  /**
   * `request` (default): unknown fields are ignored, `null` counts as absent (so a `null` required
   * field is `is_required`). `response`: unknown fields are reported (`unknown_field`) and `null` is
   * never a valid value (the API omits absent optional fields).
   */
  mode?: "request" | "response";
  /** Prefix every problem path with this (e.g. `schedule`). */
  prefix?: string;
  /** Stop after this many problems (default 100). */
  maxProblems?: number;
}

let loaded: Reference | undefined;
const localTypes: Record<string, RefType> = {};
const localOperations: Record<string, RefOperation> = {};
let operationIndex: Map<string, RefOperation> | undefined;

/** Where reference.json is looked for, in order. */
export function referenceCandidates(): string[] {
  return [
    path.join(__dirname, "reference.json"),
    // compiled without the copy step: dist/emulator → emulator/reference.json
    path.join(__dirname, "..", "..", "emulator", "reference.json"),
    // a module one level down (e.g. emulator/http) or a flattened layout
    path.join(__dirname, "..", "reference.json"),
  ];
}

/** The parsed reference.json (loaded once). */
export function reference(): Reference {
  if (loaded) return loaded;
  const file = referenceCandidates().find((p) => existsSync(p));
  if (!file) {
    throw new Error(`emulator: reference.json not found (looked in ${referenceCandidates().join(", ")})`);
  }
  loaded = JSON.parse(readFileSync(file, "utf8")) as Reference;
  // Families the reference's client version lacks, from newer clients (shared/api/NEWER.md): added
  // beside it, never replacing a family, an operation or a type the reference has.
  const newer = path.join(path.dirname(file), "reference-newer.json");
  if (existsSync(newer)) {
    const extra = JSON.parse(readFileSync(newer, "utf8")) as Reference;
    const knownIds = new Set(
      Object.values(loaded.operations).flatMap((f) => (f.operations ?? []).map((op) => op.operation_id)),
    );
    for (const [name, type] of Object.entries(extra.types)) loaded.types[name] ??= type;
    const known = (type: string | undefined) => type === undefined || loaded!.types[type] !== undefined;
    for (const [family, ops] of Object.entries(extra.operations)) {
      if (loaded.operations[family]) continue;
      const operations = (ops.operations ?? [])
        // A bodiless answer is written `null` there (a delete's 204): here, no response type.
        .map((op) => ({
          ...op,
          responses: Object.fromEntries(Object.entries(op.responses ?? {}).filter(([, t]) => t !== null)),
        }))
        // An operation whose shapes the newer clients did not give (a partial family) is left out.
        .filter(
          (op) =>
            !knownIds.has(op.operation_id) &&
            known(op.request_body) &&
            Object.values(op.responses).every((t) => known(t)),
        );
      loaded.operations[family] = { ...ops, operations };
    }
  }
  return loaded;
}

/** A type by name: reference types first, then locally registered ones. */
export function refType(name: string): RefType | undefined {
  return reference().types[name] ?? localTypes[name];
}

/** True when `name` is a type of reference.json or a registered local type. */
export function hasType(name: string): boolean {
  return refType(name) !== undefined;
}

/** Adds a type the reference lacks (same format as `types[Name]`). Reference types cannot be replaced. */
export function registerLocalType(name: string, type: RefType): void {
  if (reference().types[name]) throw new Error(`emulator: ${name} is a reference type`);
  localTypes[name] = type;
}

/** Adds an operation the reference lacks (same format as `operations[f].operations[]`). */
export function registerLocalOperation(op: RefOperation): void {
  if (operationIndexMap().has(op.operation_id) && !localOperations[op.operation_id]) {
    throw new Error(`emulator: ${op.operation_id} is a reference operation`);
  }
  localOperations[op.operation_id] = op;
  operationIndexMap().set(op.operation_id, op);
}

function operationIndexMap(): Map<string, RefOperation> {
  if (!operationIndex) {
    operationIndex = new Map();
    for (const family of Object.values(reference().operations)) {
      for (const op of family.operations ?? []) operationIndex.set(op.operation_id, op);
    }
    for (const op of Object.values(localOperations)) operationIndex.set(op.operation_id, op);
  }
  return operationIndex;
}

/** An operation by its operationId (`CustomFieldsV2Create`), reference or local. */
export function refOperation(operationId: string): RefOperation | undefined {
  return operationIndexMap().get(operationId);
}

/** `operations[family].variants[version]` (e.g. `custom_fields`, `v2`). */
export function familyVariant(family: string, version: string): any {
  return reference().operations[family]?.variants?.[version];
}

/** The success status and response type of an operation (`{status: 204}` for bodiless ones). */
export function successOf(op: RefOperation): { status: number; responseType?: string } {
  const entries = Object.entries(op.responses ?? {});
  if (entries.length === 0) return { status: 204 };
  const [status, type] = entries[0]!;
  // The newer reference writes `2xx` where its source did not give the status (shows): 200.
  return { status: status === "2xx" ? 200 : Number(status), responseType: type };
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * True for an RFC 3339 date-time string on a day that exists, with a time on the clock: the API
 * refuses 2026-02-30 and T24:00 (Date.parse alone would move them to another day).
 */
export function isRfc3339(v: string): boolean {
  const m = RFC3339.exec(v);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const days = new Date(Date.UTC(y!, mo!, 0)).getUTCDate();
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > days || h! > 23 || mi! > 59 || s! > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return !Number.isNaN(Date.parse(v));
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

function join(prefix: string, key: string | number): string {
  return prefix === "" ? String(key) : `${prefix}.${key}`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

class Walker {
  readonly problems: ShapeProblem[] = [];
  constructor(
    private readonly response: boolean,
    private readonly max: number,
  ) {}

  /** Records a problem; returns `undefined` so that `return this.add(...)` reads as "stop here". */
  private add(path: string, code: string, message: string): undefined {
    if (this.problems.length < this.max) this.problems.push({ path, code, message });
    return undefined;
  }

  full(): boolean {
    return this.problems.length >= this.max;
  }

  object(typeName: string, value: unknown, at: string): undefined {
    const type = refType(typeName);
    if (!type) {
      this.add(at, "unknown_type", `unknown reference type ${typeName}`);
      return;
    }
    if (!isPlainObject(value)) {
      this.add(at, "invalid_type", `must be an object (${typeName}), got ${describe(value)}`);
      return;
    }
    if (this.response) {
      const names = new Set(type.fields.map((f) => f.name));
      for (const key of Object.keys(value)) {
        if (!names.has(key)) this.add(join(at, key), "unknown_field", `is not a field of ${typeName}`);
      }
    }
    for (const field of type.fields) {
      if (this.full()) return;
      const v = value[field.name];
      const here = join(at, field.name);
      if (v === undefined || (v === null && !this.response)) {
        if (field.required) this.add(here, "is_required", "is required");
        continue;
      }
      this.value(field, field.type, v, here);
    }
  }

  value(field: RefField, type: string, v: unknown, at: string): undefined {
    if (this.full()) return;
    const array = /^array<(.+)>$/.exec(type);
    if (array) {
      if (!Array.isArray(v)) return this.add(at, "invalid_type", `must be an array, got ${describe(v)}`);
      v.forEach((item, i) => {
        this.value(field, array[1]!, item, join(at, i));
      });
      return;
    }
    const map = /^map<\s*string\s*,\s*(.+)>$/.exec(type);
    if (map) {
      if (!isPlainObject(v))
        return this.add(at, "invalid_type", `must be an object (map), got ${describe(v)}`);
      for (const [k, item] of Object.entries(v)) this.value(field, map[1]!, item, join(at, k));
      return;
    }
    switch (type) {
      case "any":
        return;
      case "object":
        if (field.ref) return this.object(field.ref, v, at);
        if (!isPlainObject(v)) this.add(at, "invalid_type", `must be an object, got ${describe(v)}`);
        return;
      case "string":
        if (typeof v !== "string")
          return this.add(at, "invalid_type", `must be a string, got ${describe(v)}`);
        if (field.enum && !field.enum.includes(v)) {
          return this.add(
            at,
            "invalid_value",
            `must be one of ${field.enum.join(", ")} (got ${JSON.stringify(v)})`,
          );
        }
        if (field.format === "date-time" && !isRfc3339(v)) {
          this.add(at, "invalid_value", `must be an RFC 3339 timestamp (got ${JSON.stringify(v)})`);
        }
        return;
      case "integer":
        if (typeof v !== "number" || !Number.isSafeInteger(v)) {
          this.add(
            at,
            "invalid_type",
            `must be an integer, got ${describe(v)}${typeof v === "number" ? ` ${v}` : ""}`,
          );
        }
        return;
      case "number":
        if (typeof v !== "number" || !Number.isFinite(v)) {
          this.add(at, "invalid_type", `must be a number, got ${describe(v)}`);
        }
        return;
      case "boolean":
        if (typeof v !== "boolean") this.add(at, "invalid_type", `must be a boolean, got ${describe(v)}`);
        return;
      default:
        this.add(at, "unknown_type", `unsupported reference type ${type}`);
    }
  }
}

/**
 * Checks `value` against the reference type `typeName`, recursively: required fields, scalar and
 * container types, enums (also of array items), RFC 3339 `date-time` strings. Returns every problem
 * with the payload path of the field at fault (`[]` = valid). See `ValidateOptions.mode`.
 */
export function validateAgainst(
  typeName: string,
  value: unknown,
  options: ValidateOptions = {},
): ShapeProblem[] {
  const walker = new Walker(options.mode === "response", options.maxProblems ?? 100);
  walker.object(typeName, value, options.prefix ?? "");
  return walker.problems;
}

/**
 * The response-side check: `validateAgainst` in `response` mode (unknown fields and nulls are
 * problems too). `[]` means the object has exactly the reference shape.
 */
export function checkResponse(typeName: string, value: unknown): ShapeProblem[] {
  return validateAgainst(typeName, value, { mode: "response" });
}

/** Throws an Error listing every problem (for tests: `assertShape("APIKeyV1", body.api_key)`). */
export function assertShape(
  typeName: string,
  value: unknown,
  options: ValidateOptions = { mode: "response" },
): void {
  const problems = validateAgainst(typeName, value, options);
  if (problems.length > 0) {
    throw new Error(
      `value does not match ${typeName}:\n${problems.map((p) => `  ${p.path || "<root>"}: ${p.message} [${p.code}]`).join("\n")}`,
    );
  }
}

/** Parsed query string values, by parameter name. */
export type QueryValues = Record<string, string | number | boolean | string[] | undefined>;

/**
 * Parses and checks query parameters against an operation's `query_params`: required ones present
 * (`is_required`), integers and booleans well-formed, enums, `page_size` ≥ 1. Unknown parameters
 * are ignored. Array parameters repeat the key (form style, explode=true).
 */
export function parseQuery(
  params: readonly RefQueryParam[],
  query: URLSearchParams,
): { values: QueryValues; problems: ShapeProblem[] } {
  const values: QueryValues = {};
  const problems: ShapeProblem[] = [];
  for (const p of params) {
    const all = query.getAll(p.name);
    if (all.length === 0 || (p.type !== "array<string>" && all[0] === "")) {
      if (p.required) problems.push({ path: p.name, code: "is_required", message: "is required" });
      continue;
    }
    const raw = all[0]!;
    switch (p.type) {
      case "integer": {
        if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
          problems.push({
            path: p.name,
            code: "invalid_type",
            message: `must be an integer (got ${JSON.stringify(raw)})`,
          });
          continue;
        }
        const n = Number(raw);
        if (p.name === "page_size" && n < 1) {
          problems.push({ path: p.name, code: "invalid_value", message: "must be at least 1" });
          continue;
        }
        values[p.name] = n;
        break;
      }
      case "boolean":
        if (raw !== "true" && raw !== "false") {
          problems.push({
            path: p.name,
            code: "invalid_type",
            message: `must be true or false (got ${JSON.stringify(raw)})`,
          });
          continue;
        }
        values[p.name] = raw === "true";
        break;
      default: {
        // A string, or (`array<string>`) every value of the repeated key: each one of the enum's.
        const many = p.type === "array<string>";
        if (p.enum && (many ? all : [raw]).some((v) => !p.enum!.includes(v))) {
          problems.push({
            path: p.name,
            code: "invalid_value",
            message: `must be one of ${p.enum.join(", ")}`,
          });
          continue;
        }
        values[p.name] = many ? all : raw;
      }
    }
  }
  return { values, problems };
}
