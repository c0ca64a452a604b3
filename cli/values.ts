/**
 * Values as `pulumi preview --json` and `pulumi stack export` write them: secrets are `"[secret]"`
 * (preview), `{<sig>: <secret sig>, ciphertext}` (export) or `{…, plaintext}` (`--show-secrets`);
 * unknown values (preview) the engine's UnknownStringValue, which the provider's own rules already
 * take (a preview hands them to its diff). The review tools never print a secret.
 */
import { formatPath, type Path, UNKNOWN } from "../provider/unknowns";

export { UNKNOWN };
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** How the preview's JSON shows a secret, and how the reports show one. */
export const SECRET_TEXT = "[secret]";
export const KNOWN_AFTER_APPLY = "(known after apply)";

/**
 * Plain values: a secret whose plaintext the document holds becomes that value, one it does not
 * (masked or encrypted) `"[secret]"`; `secrets` collects the paths of both, so they are masked when
 * shown.
 */
export function decode(value: unknown, secrets: Path[] = [], at: Path = []): unknown {
  if (value === SECRET_TEXT) {
    secrets.push(at);
    return SECRET_TEXT;
  }
  if (Array.isArray(value)) return value.map((v, i) => decode(v, secrets, [...at, i]));
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (record[SIG] === SECRET_SIG) {
      secrets.push(at);
      if (typeof record.plaintext === "string") {
        // The engine writes the plaintext as JSON; anything else is not shown (it is a secret).
        try {
          return decode(JSON.parse(record.plaintext), [], at);
        } catch {
          return SECRET_TEXT;
        }
      }
      if ("value" in record) return decode(record.value, [], at);
      return SECRET_TEXT;
    }
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, decode(v, secrets, [...at, k])]));
  }
  return value;
}

/** True when a value is or holds a secret. */
export function holdsSecret(value: unknown): boolean {
  if (value === SECRET_TEXT) return true;
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (value && typeof value === "object") return Object.values(value).some(holdsSecret);
  return false;
}

/** A value for a report: unknowns as "(known after apply)". */
export function printable(value: unknown): unknown {
  if (value === UNKNOWN) return KNOWN_AFTER_APPLY;
  if (Array.isArray(value)) return value.map(printable);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, printable(v)]));
  return value;
}

/** True when `path` is at or under one of `secretPaths`, or holds one of them. */
export function touchesSecret(path: Path, secretPaths: Path[]): boolean {
  const text = formatPath(path);
  return secretPaths.some((s) => {
    const secret = formatPath(s);
    return (
      text === secret ||
      text.startsWith(`${secret}.`) ||
      text.startsWith(`${secret}[`) ||
      secret.startsWith(`${text}.`) ||
      secret.startsWith(`${text}[`) ||
      text === ""
    );
  });
}
