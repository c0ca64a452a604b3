/**
 * Property values in the wire form the SDK and the engine exchange (google.protobuf.Struct as JSON):
 * secrets are `{[SIG]: SECRET_SIG, value}`, unknowns (preview) the UNKNOWN string, resource references
 * `{[SIG]: RESOURCE_SIG, urn, id?}`. The engine keeps these markers; a provider that does not accept
 * secrets (the dynamic-provider host) gets them stripped, and the engine copies the secret bit back
 * onto its results (annotateSecrets, as pkg/resource/plugin/provider_plugin.go does).
 */

export const SIG = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";
export const OUTPUT_SIG = "d0e6a833031e9bbcd3f4e8bde6ca49a4";
/** The engine's unknown sentinel (what check/diff see for a value not known during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Wire = any;
export type WireMap = Record<string, Wire>;

const isObject = (v: unknown): v is Record<string, any> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const isSecret = (v: Wire): boolean => isObject(v) && v[SIG] === SECRET_SIG;
export const isResourceRef = (v: Wire): boolean => isObject(v) && v[SIG] === RESOURCE_SIG;
export const isOutputValue = (v: Wire): boolean => isObject(v) && v[SIG] === OUTPUT_SIG;

export function makeSecret(v: Wire): Wire {
  return isSecret(v) ? v : { [SIG]: SECRET_SIG, value: v === undefined ? null : v };
}

export function containsSecrets(v: Wire): boolean {
  if (isSecret(v)) return true;
  if (isOutputValue(v)) return v.secret === true || containsSecrets(v.value);
  if (Array.isArray(v)) return v.some(containsSecrets);
  if (isObject(v)) return Object.values(v).some(containsSecrets);
  return false;
}

export function containsUnknowns(v: Wire): boolean {
  if (v === UNKNOWN) return true;
  if (isOutputValue(v)) return !("value" in v) || containsUnknowns(v.value);
  if (Array.isArray(v)) return v.some(containsUnknowns);
  if (isObject(v)) return Object.values(v).some(containsUnknowns);
  return false;
}

/**
 * What the engine sends a provider that answered acceptSecrets=false / acceptResources=false:
 * secrets unwrapped, resource references replaced by their id (custom) or urn (component),
 * output values by their value (or UNKNOWN).
 */
export function forProvider(v: Wire): Wire {
  if (isSecret(v)) return forProvider(v.value);
  if (isResourceRef(v)) return typeof v.id === "string" && v.id !== "" ? v.id : v.urn;
  if (isOutputValue(v)) return "value" in v ? forProvider(v.value) : UNKNOWN;
  if (Array.isArray(v)) return v.map(forProvider);
  if (isObject(v)) {
    const out: WireMap = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = forProvider(x);
    return out;
  }
  return v;
}

/** Plain values (secrets unwrapped), for reports and the decrypted state view. */
export const plain = forProvider;

/** Secret values (or parts) replaced by "[secret]" (what `pulumi stack output` shows). */
export function masked(v: Wire): Wire {
  if (isSecret(v)) return "[secret]";
  if (isResourceRef(v)) return v.urn;
  if (isOutputValue(v)) return v.secret ? "[secret]" : "value" in v ? masked(v.value) : UNKNOWN;
  if (Array.isArray(v)) return v.map(masked);
  if (isObject(v)) {
    const out: WireMap = {};
    for (const [k, x] of Object.entries(v)) out[k] = masked(x);
    return out;
  }
  return v;
}

/** annotateSecrets from the engine: copy the secret bit from `ins` onto same-named `outs` (in place). */
export function annotateSecrets(outs: WireMap | undefined, ins: WireMap | undefined): void {
  if (!outs || !ins) return;
  for (const [key, inValue] of Object.entries(ins)) {
    if (!(key in outs)) continue;
    const outValue = outs[key];
    if (isObject(outValue) && !outValue[SIG] && isObject(inValue) && !inValue[SIG]) {
      annotateSecrets(outValue, inValue);
    } else if (!isSecret(outValue) && containsSecrets(inValue)) {
      outs[key] = makeSecret(outValue);
    }
  }
}

/** additionalSecretOutputs: mark these top-level outputs secret (in place). */
export function markSecretOutputs(outs: WireMap, keys: readonly string[] | undefined): void {
  for (const k of keys ?? []) if (k in outs && outs[k] !== undefined) outs[k] = makeSecret(outs[k]);
}

/** Top-level keys whose value is or contains a secret. */
export const secretKeys = (m: WireMap | undefined): string[] =>
  Object.entries(m ?? {})
    .filter(([, v]) => containsSecrets(v))
    .map(([k]) => k)
    .sort();

export function deepEqual(a: Wire, b: Wire): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

/** Top-level keys whose values differ (secrets compared by value), sorted. */
export function changedKeys(olds: WireMap | undefined, news: WireMap | undefined): string[] {
  const a = plain(olds ?? {});
  const b = plain(news ?? {});
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !deepEqual(a[k], b[k])).sort();
}

/** Struct.fromJavaScript rejects undefined: drop it (as the SDK's serializer does). */
export function structSafe(v: Wire): Wire {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : structSafe(x)));
  if (isObject(v)) {
    const out: WireMap = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = structSafe(x);
    return out;
  }
  return v;
}

export const clone = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
