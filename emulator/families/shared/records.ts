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

/** True for an IANA time zone name this runtime knows (`Europe/London`); anything else is false. */
export function isTimeZone(tz: unknown): boolean {
  if (typeof tz !== "string" || tz === "") return false;
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
