import { type Diff, diff as deepDiff } from "deep-diff";
import { containsUnknown, formatPath, type Path, UNKNOWN } from "./unknowns";

/** Plain JSON copy: drops undefined, as the engine's Struct encoding does. */
export function toJson<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

/**
 * One difference between two values, at the deepest path where they part: a property or list
 * element `added` (no old value), `removed` (no new value) or `changed` (old → new). What a plan
 * or drift report shows, and what the provider's diff decides from.
 */
export interface Change {
  /** Where, from the compared value's root: `["steps", 0, "name"]` (shown as `steps[0].name`). */
  path: Path;
  kind: "added" | "removed" | "changed";
  old?: unknown;
  new?: unknown;
}

/**
 * The changes from `olds` to `news`, computed by deep-diff on their JSON form (undefined dropped,
 * as the engine stores them). Compare normalised values (a spec's `canonical` form) to see only
 * changes of meaning. A missing value and `null` at the root compare equal.
 */
export function changesBetween(olds: unknown, news: unknown): Change[] {
  const found = deepDiff<unknown>(toJson(olds ?? null), toJson(news ?? null)) ?? [];
  return found.map((d) => toChange(d, []));
}

function toChange(d: Diff<unknown>, at: Path): Change {
  const path = [...at, ...((d.path ?? []) as Path)];
  switch (d.kind) {
    case "A":
      // A list element added or removed: deep-diff nests the element's own change under its index.
      return toChange(d.item, [...path, d.index]);
    case "N":
      return { path, kind: "added", new: d.rhs };
    case "D":
      return { path, kind: "removed", old: d.lhs };
    default:
      // At the root, a missing side is null (see changesBetween): say added / removed, not changed.
      if (path.length === 0 && d.lhs === null) return { path, kind: "added", new: d.rhs };
      if (path.length === 0 && d.rhs === null) return { path, kind: "removed", old: d.lhs };
      return { path, kind: "changed", old: d.lhs, new: d.rhs };
  }
}

/**
 * The changes between old and new inputs, for the given top-level keys (each path starts with its
 * key). A key holding an unknown value (preview) counts as changed; `undefined`, `null` and a
 * missing key compare equal.
 */
export function inputChanges(
  keys: readonly string[],
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Change[] {
  return keys.flatMap((key) => {
    const found = changesBetween(olds[key], news[key]).map((c) => ({ ...c, path: [key, ...c.path] }));
    if (found.length === 0 && containsUnknown(news[key])) {
      return [{ path: [key], kind: "changed" as const, old: olds[key], new: news[key] }];
    }
    return found;
  });
}

/** The top-level keys the changes are under, in order, each once: what a diff names as changed. */
export function changedKeys(changes: readonly Change[]): string[] {
  return [...new Set(changes.map((c) => String(c.path[0])))];
}

/** `incidentConfig.template.title: "a" → "b"`, `teamIds[2]: added "t3"`: one change for a person. */
export function formatChange(change: Change): string {
  const where = formatPath(change.path) || "(the whole value)";
  switch (change.kind) {
    case "added":
      return `${where}: added ${show(change.new)}`;
    case "removed":
      return `${where}: removed ${show(change.old)}`;
    default:
      return `${where}: ${show(change.old)} → ${show(change.new)}`;
  }
}

/** A value as it reads in a message: JSON, long ones cut, an unknown one named as such. */
function show(value: unknown): string {
  if (value === UNKNOWN) return "(known after apply)";
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
