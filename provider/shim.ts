/**
 * What every resource stores as its `__provider`: the module text the dynamic-provider host loads
 * (with require-from-string, from the project's directory) to get the kind's provider. It names the
 * kind and loads the installed package when the host calls it, so it is tiny (about 100 bytes,
 * stored in the inputs and the outputs of every resource), identical across releases (no spurious
 * `__provider` diffs), captures no credentials or paths, and old state runs the installed code.
 *
 * The text is written here rather than produced by the SDK's closure serializer (what
 * `pulumi.dynamic.Resource` does): that serializer wraps each captured function in `with` scopes,
 * 2.5 KB per kind, and loads TypeScript into every program to parse the functions.
 *
 * Keep both entry points backward compatible: `pulumi-incident/dynamic` (`provider(kind)`) for state
 * written by this text, and the package root's `providers` for state written by releases up to
 * 0.1.0, whose serialized shim calls `require("pulumi-incident").providers[kind][method]`.
 */
export const DYNAMIC_ENTRY = "pulumi-incident/dynamic";

/** The `__provider` text of a kind. */
export function shimText(kind: string): string {
  return `exports.handler = function () { return require(${JSON.stringify(DYNAMIC_ENTRY)}).provider(${JSON.stringify(kind)}); };\n`;
}
