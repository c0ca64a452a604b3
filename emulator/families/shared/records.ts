/** Small helpers the family renderers share. */

/**
 * The object without its undefined and null entries: the API omits unset optional fields rather
 * than answering them as null (the reference's response types have no nullable fields).
 */
export function compact<T extends Record<string, unknown>>(obj: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined && v !== null) out[k] = v;
  return out as Partial<T>;
}
