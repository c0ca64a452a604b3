import { diff as deepDiff } from "deep-diff";
import { containsUnknown } from "./unknowns";

/** Plain JSON copy: drops undefined, as the engine's Struct encoding does. */
export function toJson<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

/** True when two JSON values differ; `undefined`, `null` and a missing key compare equal. */
export function differs(a: unknown, b: unknown): boolean {
  const left = toJson(a ?? null);
  const right = toJson(b ?? null);
  return deepDiff(left, right) !== undefined;
}

/** Keys whose values differ between old and new inputs (a key holding an unknown counts as changed). */
export function changedKeys(
  keys: readonly string[],
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): string[] {
  return keys.filter((key) => containsUnknown(news[key]) || differs(olds[key], news[key]));
}

/** Human-readable paths of what differs inside one value, for messages and tests. */
export function changedPaths(a: unknown, b: unknown): string[] {
  const changes = deepDiff(toJson(a ?? null), toJson(b ?? null)) ?? [];
  return changes.map((c) => (c.path ?? []).join("."));
}
