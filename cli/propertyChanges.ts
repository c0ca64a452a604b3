/**
 * The nested changes between two input objects as reviewers read them (path, kind, old → new), from
 * the provider's own diff (provider/diff.ts `Change`, `IncidentProvider.changes`: deep-diff after the
 * spec's normalisation), with the declared values shown and secrets masked.
 */
import { type Change, changesBetween } from "../provider/diff";
import type { IncidentProvider } from "../provider/factory";
import type { Props } from "../provider/spec";
import { formatPath, type Path } from "../provider/unknowns";
import { holdsSecret, printable, SECRET_TEXT, touchesSecret, UNKNOWN } from "./values";

export interface PropertyChange extends Change {
  /** `path[1].ifElse.conditions[0]`. */
  at: string;
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

function listed(changes: Change[]): PropertyChange[] {
  return changes.map((c) => ({ ...c, at: formatPath(c.path) })).sort((a, b) => comparePaths(a.path, b.path));
}

/** Every difference between two JSON values, compared as they are (no normalisation). */
export function diffValues(before: unknown, after: unknown): PropertyChange[] {
  return listed(changesBetween(before ?? {}, after ?? {}));
}

/**
 * The changes the provider acts on, from the stored state `olds` (outputs, as the engine hands them
 * to the provider's diff) to the inputs `news`: form-only differences never show. Values are shown
 * as declared (`declaredOlds`, `news`) where the path exists there; secrets (`secretPaths`, and
 * every output the spec marks secret) masked; a value known only after apply reads so.
 */
export function inputChanges(
  provider: IncidentProvider,
  olds: Props,
  news: Props,
  secretPaths: Path[] = [],
  declaredOlds: Props = olds,
): PropertyChange[] {
  const secrets = [...secretPaths, ...provider.spec.secretOutputs.map((k) => [k])];
  const changes = listed(provider.changes(olds, news))
    .filter((c) => !(c.old === UNKNOWN && c.new === UNKNOWN))
    .map((c) => {
      const shown: PropertyChange = { ...c };
      const declaredOld = valueAt(declaredOlds, c.path);
      const declaredNew = valueAt(news, c.path);
      if ("old" in c && declaredOld.found) shown.old = declaredOld.value;
      if ("new" in c && declaredNew.found) shown.new = declaredNew.value;
      return shown;
    });
  return maskChanges(changes, secrets);
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
