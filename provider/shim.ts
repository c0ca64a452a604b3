import type * as pulumi from "@pulumi/pulumi";

/**
 * The provider object that is serialized into every resource's state. It holds nothing but the
 * resource kind and loads the installed package when the host calls it, so the text is tiny,
 * identical across releases (no spurious `__provider` diffs), captures no credentials or paths,
 * and old state runs the installed code. Keep this entry point backward compatible.
 */
export function shimProvider(kind: string): pulumi.dynamic.ResourceProvider {
  const call = (method: string, args: unknown[]): any => {
    const pkg = require("pulumi-incident");
    const provider = pkg.providers?.[kind];
    if (!provider) {
      throw new Error(
        `The installed pulumi-incident (${pkg.version}) has no resource kind "${kind}": install the version this stack was deployed with, or newer.`,
      );
    }
    return provider[method](...args);
  };
  return {
    configure: (req: unknown) => call("configure", [req]),
    check: (olds: unknown, news: unknown) => call("check", [olds, news]),
    diff: (id: unknown, olds: unknown, news: unknown) => call("diff", [id, olds, news]),
    create: (inputs: unknown) => call("create", [inputs]),
    read: (id: unknown, props: unknown) => call("read", [id, props]),
    update: (id: unknown, olds: unknown, news: unknown) => call("update", [id, olds, news]),
    delete: (id: unknown, props: unknown) => call("delete", [id, props]),
  } as pulumi.dynamic.ResourceProvider;
}
