/**
 * Credentials inside URLs (`http://user:password@proxy.corp:3128`, a base URL with a user in it) are
 * masked wherever text is printed: errors, hints, log lines, the CLI tools', the emulator's and the
 * scripts' output. This is the one function that does it; every place that prints a URL, or a text
 * that may hold one, passes it through here.
 */

/** `scheme://userinfo@` anywhere in a text: the userinfo is what is masked. */
const WITH_SCHEME = /\b([a-z][a-z\d+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
/**
 * `user:password@host` at the start of a word, without a scheme (a URL setting written without
 * one, `user:password@proxy.corp:3128`). A colon is required before the `@`, so an e-mail address
 * (`ada@example.com`) is left alone.
 */
const WITHOUT_SCHEME = /(^|[\s"'(=,[])([^\s/?#@"'<>:()=,[\]]+:[^\s/?#@"'<>]*)@(?=[\w[])/g;

/**
 * The text with the userinfo of every URL in it replaced by `***`: `http://user:pw@host:3128` →
 * `http://***@host:3128`, and `user:pw@host:3128` (no scheme) → `***@host:3128`. A text with no
 * credentials comes back unchanged.
 */
export function maskUrl(text: string): string {
  return text.replace(WITH_SCHEME, "$1***@").replace(WITHOUT_SCHEME, "$1***@");
}
