/**
 * The nested changes between two input objects, after the provider's normalisation (the spec's
 * `canonical`), as reviewers read them: path, kind, old → new.
 *
 * TODO(provider/diff.ts): provider/diff.ts is gaining a deep-diff `changedPaths` (path, kind, old,
 * new, after normalisation) for exactly this; use it here once it lands and drop `diffValues`.
 */
import { diff as deepDiff } from "deep-diff";
import { toJson } from "../provider/diff";
import type { Props, ResourceSpec } from "../provider/spec";
import { formatPath, type Path } from "../provider/unknowns";
import { canonicalInputs } from "./kinds";
import { holdsSecret, printable, SECRET_TEXT, touchesSecret, UNKNOWN } from "./values";

export interface PropertyChange {
  /** Input path, e.g. `["path", 1, "ifElse", "conditions", 0]`. */
  path: Path;
  /** `path[1].ifElse.conditions[0]`. */
  at: string;
  kind: "added" | "removed" | "changed";
  /** The value before (absent when added); `"[secret]"` for a secret. */
  old?: unknown;
  /** The value after (absent when removed); `"(known after apply)"` when unknown in a preview. */
  new?: unknown;
}

/** Raw deep-diff of two JSON values: one entry per differing leaf or whole added/removed branch. */
export function diffValues(before: unknown, after: unknown): PropertyChange[] {
  const changes = deepDiff(toJson(before ?? {}), toJson(after ?? {})) ?? [];
  const listed = changes.map((c) => {
    let path: Path = [...(c.path ?? [])];
    let kind = c.kind;
    let lhs: unknown = (c as { lhs?: unknown }).lhs;
    let rhs: unknown = (c as { rhs?: unknown }).rhs;
    if (c.kind === "A") {
      path = [...path, c.index];
      kind = c.item.kind;
      lhs = (c.item as { lhs?: unknown }).lhs;
      rhs = (c.item as { rhs?: unknown }).rhs;
    }
    const change: PropertyChange = {
      path,
      at: formatPath(path),
      kind: kind === "N" ? "added" : kind === "D" ? "removed" : "changed",
    };
    if (kind !== "N") change.old = lhs;
    if (kind !== "D") change.new = rhs;
    return change;
  });
  return listed.sort((a, b) => comparePaths(a.path, b.path));
}

/** Document order: keys as deep-diff found them, list positions by number. */
function comparePaths(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x).localeCompare(String(y));
  }
  return a.length - b.length;
}

/**
 * The changes between old and new inputs of one resource that the provider would act on: compared
 * in the spec's canonical form (form-only differences vanish), shown with the declared values where
 * the path exists in them, secrets masked (`secretPaths`, and every output the spec marks secret).
 * A key holding an unknown value is listed as changing to "(known after apply)".
 */
export function inputChanges(
  spec: ResourceSpec,
  olds: Props,
  news: Props,
  secretPaths: Path[] = [],
): PropertyChange[] {
  const secrets = [...secretPaths, ...spec.secretOutputs.map((k) => [k])];
  const canonOld = canonicalInputs(spec, olds);
  const canonNew = canonicalInputs(spec, news);
  const changes = diffValues(canonOld, canonNew)
    .filter((c) => !isUnknownAgainstUnknown(c))
    .map((c) => {
      const declaredOld = valueAt(olds, c.path);
      const declaredNew = valueAt(news, c.path);
      const shown: PropertyChange = { ...c };
      if ("old" in c) shown.old = declaredOld.found ? declaredOld.value : c.old;
      if ("new" in c) shown.new = declaredNew.found ? declaredNew.value : c.new;
      return shown;
    });
  return maskChanges(changes, secrets);
}

function isUnknownAgainstUnknown(c: PropertyChange): boolean {
  return c.old === UNKNOWN && c.new === UNKNOWN;
}

/** Changes as a report may show them: any value at, in or holding a secret path as "[secret]". */
export function maskChanges(changes: PropertyChange[], secrets: Path[]): PropertyChange[] {
  return changes.map((c) => {
    const out: PropertyChange = { ...c };
    const secret = touchesSecret(c.path, secrets);
    for (const side of ["old", "new"] as const) {
      if (!(side in c)) continue;
      out[side] = secret || holdsSecret(c[side]) ? SECRET_TEXT : printable(c[side]);
    }
    return out;
  });
}

/** The value at a path, and whether the path exists. */
export function valueAt(root: unknown, path: Path): { found: boolean; value?: unknown } {
  let at: unknown = root;
  for (const seg of path) {
    if (at === null || typeof at !== "object" || !(String(seg) in (at as object))) return { found: false };
    at = (at as Record<string, unknown>)[String(seg)];
  }
  return { found: true, value: at };
}

/** A value on one line for a report: JSON, strings quoted, long ones cut. */
export function inline(value: unknown, max = 120): string {
  if (value === undefined) return "—";
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
