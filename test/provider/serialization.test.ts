/**
 * The serialized provider is stored in state for every resource. It is tested on the compiled
 * package under plain node (jest rewrites function text, so its serialization would differ).
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";

const root = path.join(__dirname, "..", "..");
const script = `
const pulumi = require("@pulumi/pulumi");
const seen = {};
pulumi.runtime.setMocks({
  newResource: (a) => { seen[a.type] = a.inputs.__provider; return { id: "id-" + a.name, state: a.inputs }; },
  call: () => ({}),
}, "proj", "stack", false);
process.env.INCIDENT_API_KEY = "ENV-SECRET-MARKER";
const inc = require("pulumi-incident");
const kinds = Object.keys(inc.providers);
// Construct each kind with throwaway args: serialization does not validate inputs.
for (const kind of kinds) new inc[kind]("r-" + kind, { name: "x" });
setTimeout(() => { process.stdout.write(JSON.stringify({ kinds, seen })); }, 500);
`;

const run = (): { kinds: string[]; seen: Record<string, string> } =>
  JSON.parse(
    execFileSync(process.execPath, ["-e", script], {
      cwd: root,
      env: { ...process.env, PULUMI_CONFIG: JSON.stringify({ "incident:apiKey": "CONFIG-SECRET-MARKER" }) },
      encoding: "utf8",
    }),
  );

describe("serialized provider (compiled package, plain node)", () => {
  const { kinds, seen } = run();

  test("every resource kind is serialized as its own small shim", () => {
    expect(kinds.length).toBeGreaterThanOrEqual(3);
    for (const kind of kinds) {
      const text = seen[`pulumi-nodejs:dynamic/incident:${kind}`];
      expect(text).toBeDefined();
      // Budget: a shim holds only the kind; the whole provider would be 7–11 KB.
      expect(text.length).toBeLessThan(3000);
      expect(text).toContain(`kind: "${kind}"`);
      expect(text).toContain('require("pulumi-incident")');
    }
  });

  test("holds no credentials and no local paths", () => {
    for (const text of Object.values(seen)) {
      expect(text).not.toContain("SECRET-MARKER");
      expect(text).not.toContain(root);
      expect(text).not.toContain("/node_modules/");
      expect(text).not.toMatch(/\/(home|root|tmp|work)\//);
    }
  });

  test("is the same text for every kind but the kind name (stable across releases)", () => {
    const normalised = new Set(
      Object.entries(seen).map(([type, text]) => text.replaceAll(type.split(":").pop()!, "K")),
    );
    expect(normalised.size).toBe(1);
  });

  test("loads in the host's way and calls the installed package", () => {
    const requireFromString = require("require-from-string");
    for (const text of Object.values(seen)) {
      const provider = requireFromString(text).handler();
      for (const m of ["configure", "check", "diff", "create", "read", "update", "delete"]) {
        expect(typeof provider[m]).toBe("function");
      }
    }
  });
});
