/**
 * The shapes of a source vendor's objects, as data (each vendor's shapes.json: the fields the
 * emulator answers and the migration reads, per object, derived from the vendor's published
 * document named in the file), and the check of a response body against them. Every answered
 * object is checked in tests (`responseProblems`): a field the document does not have, a missing
 * required field, a wrong type or a value outside an enum is a problem.
 */

export interface FieldShape {
  type: "string" | "integer" | "number" | "boolean" | "object" | "array" | "any";
  required?: boolean;
  nullable?: boolean;
  enum?: readonly string[];
  format?: string;
  /** `object`: the object's name. */
  object?: string;
  /** `array`: an object's name, or a scalar type. */
  items?: string;
  readOnly?: boolean;
  /** Why a field departs from the document (a documented `null` the schema does not mark). */
  note?: string;
}

export interface ObjectShape {
  /** Where in the document (`#/components/schemas/Schedule`, `definitions/schedule.yaml#/Schedule`). */
  schema: string;
  fields: Record<string, FieldShape>;
  /** One of several objects (a discriminator): the field naming which, and each one's extra fields. */
  oneOf?: { by: string; shapes: Record<string, Record<string, FieldShape>> };
}

export interface VendorShapes {
  source: { repository: string; path: string; commit: string; note?: string };
  objects: Record<string, ObjectShape>;
}

export interface ShapeProblem {
  path: string;
  message: string;
}

const SCALARS = new Set(["string", "integer", "number", "boolean"]);

function typeProblem(value: unknown, type: string): string | undefined {
  switch (type) {
    case "string":
      return typeof value === "string" ? undefined : "must be a string";
    case "integer":
      return Number.isInteger(value) ? undefined : "must be an integer";
    case "number":
      return typeof value === "number" ? undefined : "must be a number";
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be a boolean";
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value)
        ? undefined
        : "must be an object";
    case "array":
      return Array.isArray(value) ? undefined : "must be an array";
    default:
      return undefined;
  }
}

/** The problems of `value` as an object `type` of `shapes` (empty: it has the documented shape). */
export function shapeProblems(shapes: VendorShapes, type: string, value: unknown, at = type): ShapeProblem[] {
  const shape = shapes.objects[type];
  if (!shape) return [{ path: at, message: `no shape named ${type}` }];
  const problem = typeProblem(value, "object");
  if (problem) return [{ path: at, message: problem }];
  const record = value as Record<string, unknown>;
  let fields = shape.fields;
  if (shape.oneOf) {
    const which = String(record[shape.oneOf.by]);
    fields = { ...fields, ...(shape.oneOf.shapes[which] ?? {}) };
  }
  const out: ShapeProblem[] = [];
  for (const [name, field] of Object.entries(fields))
    if (field.required && record[name] === undefined)
      out.push({ path: `${at}.${name}`, message: "is required" });
  for (const [name, v] of Object.entries(record)) {
    if (v === undefined) continue;
    const field = fields[name];
    if (!field) {
      out.push({ path: `${at}.${name}`, message: `is not a field of ${type}` });
      continue;
    }
    out.push(...fieldProblems(shapes, field, v, `${at}.${name}`));
  }
  return out;
}

function fieldProblems(shapes: VendorShapes, field: FieldShape, value: unknown, at: string): ShapeProblem[] {
  if (value === null) return field.nullable ? [] : [{ path: at, message: "must not be null" }];
  const problem = typeProblem(value, field.type);
  if (problem) return [{ path: at, message: problem }];
  if (field.enum && !field.enum.includes(String(value)))
    return [{ path: at, message: `must be one of ${field.enum.join(", ")}` }];
  if (field.type === "object" && field.object) return shapeProblems(shapes, field.object, value, at);
  if (field.type === "array" && field.items && field.items !== "any") {
    const items = field.items;
    return (value as unknown[]).flatMap((item, i) =>
      SCALARS.has(items)
        ? (typeProblem(item, items) ?? "") === ""
          ? []
          : [{ path: `${at}.${i}`, message: typeProblem(item, items)! }]
        : shapeProblems(shapes, items, item, `${at}.${i}`),
    );
  }
  return [];
}
