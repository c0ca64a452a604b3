/**
 * Normalisation rules for diffs: each one names a way the API's read-back differs from what the user
 * wrote without differing in meaning. Resource specs compose them in `canonical` (both sides of a
 * diff) and in `toInputs` (read-back mapped toward the declared spelling). Each has test vectors in
 * test/provider/normalise.test.ts.
 */

/** Unordered set: order carries no meaning (team ids, role names). Sorted, duplicates kept. */
export function unorderedSet<T>(values: readonly T[] | undefined): T[] | undefined {
  if (values === undefined) return undefined;
  return [...values].sort((a, b) => stableKey(a).localeCompare(stableKey(b)));
}

/** Same members regardless of order? */
export function sameSet<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  return stableKey(unorderedSet(a) ?? []) === stableKey(unorderedSet(b) ?? []);
}

/**
 * Read-back of an unordered set: when the live members equal the declared ones, answer in the
 * declared order so neither refresh nor diff shows a reordering.
 */
export function keepDeclaredOrder<T>(
  live: readonly T[] | undefined,
  declared: readonly T[] | undefined,
): T[] | undefined {
  if (live === undefined) return undefined;
  if (declared !== undefined && sameSet(live, declared)) return [...declared];
  return [...live];
}

/**
 * Set with repeats: the API keeps each member once (API key roles, team ids), so a repeated member
 * carries no meaning. Canonical form: members once each, sorted.
 */
export function uniqueSet<T>(values: readonly T[] | undefined): T[] | undefined {
  return unorderedSet(dedupe(values));
}

/**
 * Read-back of a set with repeats: when the live members are the declared ones (repeats and order
 * aside), answer the declared list as written so neither refresh nor diff shows a change.
 */
export function keepDeclaredSet<T>(
  live: readonly T[] | undefined,
  declared: readonly T[] | undefined,
): T[] | undefined {
  if (live === undefined) return undefined;
  if (declared !== undefined && sameSet(uniqueSet(live), uniqueSet(declared))) return [...declared];
  return [...live];
}

/**
 * Omitted vs explicit empty list: for fields where "omit = unchanged", a live empty list reads back
 * as omitted when the user omitted it.
 */
export function omittedWhenEmpty<T>(
  live: readonly T[] | undefined,
  declared: readonly T[] | undefined,
): T[] | undefined {
  if (declared === undefined && (live === undefined || live.length === 0)) return undefined;
  return live === undefined ? undefined : [...live];
}

/**
 * Write-only value: the API never echoes it, so the read-back keeps the declared (or prior) value
 * instead of reporting drift.
 */
export function writeOnly<T>(declared: T | undefined): T | undefined {
  return declared;
}

/** Canonical JSON text: sorted keys, no insignificant whitespace, `\u003e` and `>` alike. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value));
}

/** A JSON literal string compared by meaning: equal documents give the same text. */
export function canonicalJsonLiteral(text: string): string {
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return text; // not JSON: compared as written
  }
}

/** Keeps the declared JSON text when the live text means the same document (no re-encoding). */
export function keepDeclaredJson(live: string | undefined, declared: string | undefined): string | undefined {
  if (live === undefined || declared === undefined) return live;
  return canonicalJsonLiteral(live) === canonicalJsonLiteral(declared) ? declared : live;
}

/** Read-back of a value with aliases: keep the declared spelling when both mean the same thing. */
export function keepDeclaredAlias(
  live: string | undefined,
  declared: string | undefined,
  aliases: ReadonlyArray<readonly string[]>,
): string | undefined {
  if (live === undefined || declared === undefined || live === declared) return live;
  return aliases.some((group) => group.includes(live) && group.includes(declared)) ? declared : live;
}

/** Removes trailing entries that carry nothing (the API pads some lists with empty bindings). */
export function trimTrailingEmpty<T>(
  values: readonly T[] | undefined,
  isEmpty: (v: T) => boolean,
): T[] | undefined {
  if (values === undefined) return undefined;
  let end = values.length;
  while (end > 0 && isEmpty(values[end - 1] as T)) end--;
  return values.slice(0, end);
}

/**
 * Declared padding: the read-back drops trailing entries that carry nothing (`trimTrailingEmpty`);
 * when what is left is the declared list without its own trailing empty entries, the declared
 * padding is kept, so a list written with a trailing empty entry reads back as written.
 */
export function keepDeclaredPadding<T>(
  live: readonly T[] | undefined,
  declared: readonly T[] | undefined,
  isEmpty: (v: T) => boolean,
): T[] | undefined {
  if (live === undefined) return undefined;
  const trimmedLive = trimTrailingEmpty(live, isEmpty) ?? [];
  if (declared === undefined) return trimmedLive;
  const kept = trimTrailingEmpty(declared, isEmpty) ?? [];
  return kept.length === trimmedLive.length ? [...trimmedLive, ...declared.slice(kept.length)] : trimmedLive;
}

/**
 * Write-time aliases: some values are answered in another form the client cannot compute, e.g. a
 * Slack channel id (`C0123ABCD`) answered as the id of the channel's catalog entry, which for a
 * private channel no lookup can give (TF #237). What the API answered to our own write is
 * remembered (`learnAliases`: declared text → answered text, for declared strings `worth` it) and a
 * later read-back of exactly that answer reads back as declared (`restoreAliases`); any other
 * answer is a real change and shows.
 */
export function learnAliases(
  live: unknown,
  declared: unknown,
  worth: (declared: string) => boolean,
  into: Record<string, string> = {},
): Record<string, string> {
  if (typeof live === "string" && typeof declared === "string") {
    if (live !== declared && worth(declared)) into[declared] = live;
  } else if (Array.isArray(live) && Array.isArray(declared)) {
    for (const [i, v] of live.entries()) learnAliases(v, declared[i], worth, into);
  } else if (live && declared && typeof live === "object" && typeof declared === "object") {
    for (const key of Object.keys(live))
      learnAliases((live as any)[key], (declared as any)[key], worth, into);
  }
  return into;
}

/** The read-back with each remembered answer (see `learnAliases`) put back as declared. */
export function restoreAliases<T>(live: T, declared: unknown, aliases: Record<string, string>): T {
  if (typeof live === "string" && typeof declared === "string")
    return (aliases[declared] === live ? declared : live) as T;
  if (Array.isArray(live) && Array.isArray(declared))
    return live.map((v, i) => restoreAliases(v, declared[i], aliases)) as T;
  if (live && declared && typeof live === "object" && typeof declared === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(live))
      out[key] = restoreAliases(v, (declared as any)[key], aliases);
    return out as T;
  }
  return live;
}

/**
 * Rule "timestamps by instant", canonical form: a timestamp as UTC text, to the second (the API
 * answers timestamps in UTC and keeps no fraction); anything else (unparsable text, an unknown) as
 * it is.
 */
export function instantText<T>(t: T): T {
  return (
    typeof t === "string" && !Number.isNaN(Date.parse(t))
      ? new Date(Math.floor(Date.parse(t) / 1000) * 1000).toISOString()
      : t
  ) as T;
}

/** A Slack channel id (`C0123ABCD`, `G0123ABCD`), alone or after its workspace id (`T0123/C0123ABCD`). */
export const isSlackChannelId = (text: string): boolean => /^(T[A-Z0-9]{2,}\/)?[CG][A-Z0-9]{6,}$/.test(text);

/** Removes repeated entries (by canonical JSON), keeping the first occurrence. */
export function dedupe<T>(values: readonly T[] | undefined): T[] | undefined {
  if (values === undefined) return undefined;
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = stableKey(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeysDeep(v);
    }
    return out;
  }
  return value;
}

function stableKey(value: unknown): string {
  return typeof value === "string" ? value : canonicalJson(value);
}
