/** The string the engine substitutes for values not known until apply (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Path = (string | number)[];

/** Paths of every unknown value inside `value` (the value itself is path []). */
export function unknownPaths(value: unknown, at: Path = []): Path[] {
  if (value === UNKNOWN) return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownPaths(v, [...at, i]));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => unknownPaths(v, [...at, k]));
  }
  return [];
}

export function containsUnknown(value: unknown): boolean {
  return unknownPaths(value).length > 0;
}

/** True when `path` is at or below one of `prefixes`. */
export function isUnder(path: Path, prefixes: Path[]): boolean {
  return prefixes.some(
    (p) => p.length <= path.length && p.every((seg, i) => String(seg) === String(path[i])),
  );
}

/**
 * True when `path` is at, under or above a path `pattern` describes, in which `"*"` matches any one
 * segment: whether the value at `path` is (part of) what the pattern names, or holds some of it.
 */
export function touches(pattern: Path, path: Path): boolean {
  const n = Math.min(pattern.length, path.length);
  for (let i = 0; i < n; i++) if (pattern[i] !== "*" && String(pattern[i]) !== String(path[i])) return false;
  return true;
}

/** `["path", 0, "ifElse"]` → `path[0].ifElse`, the way users read property paths. */
export function formatPath(path: Path): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number" || /^\d+$/.test(String(seg))) out += `[${seg}]`;
    else out += out === "" ? String(seg) : `.${String(seg)}`;
  }
  return out;
}
