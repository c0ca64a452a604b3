/**
 * The `__provider` every resource stores (provider/shim.ts): what each kind registers, its size, that
 * it holds no secret or path, and that the dynamic-provider host's way of loading it
 * (require-from-string from the project's directory) reaches the installed package: the built one
 * (dist/, through package.json `exports`, as `npm test` builds it), for today's text and for the
 * text releases up to 0.1.0 stored (recorded in the upgrade baselines).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as incident from "../../index";
import { shimText } from "../../provider/shim";
import { providers } from "../../resources";
import { BASELINES_DIR } from "../support/upgradeBaselines";

const requireFromString: (code: string) => any = require("require-from-string");
const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"];
const kinds = Object.keys(providers);
const registered: Record<string, Record<string, any>> = {};

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered[args.type] = args.inputs;
        return { id: `id-${args.name}`, state: args.inputs };
      },
      call: () => ({}),
    },
    "proj",
    "stack",
    false,
  );
  process.env.INCIDENT_API_KEY = "ENV-SECRET-MARKER";
  // Throwaway args: registering does not validate inputs.
  const made = kinds.map(
    (kind) => new (incident as any)[kind](`r-${kind}`, { name: "x" }) as pulumi.Resource,
  );
  await Promise.all(made.map((r) => new Promise((done) => r.urn.apply(done))));
});

describe("what each kind registers", () => {
  test("the type `pulumi-nodejs:dynamic/incident:<Kind>`, with the kind's shim text as `__provider`", () => {
    expect(kinds.length).toBeGreaterThanOrEqual(20);
    for (const kind of kinds) {
      expect({ kind, provider: registered[`pulumi-nodejs:dynamic/incident:${kind}`]?.__provider }).toEqual({
        kind,
        provider: shimText(kind),
      });
    }
  });

  test("about 100 bytes, stable across kinds but for the kind's name, no credentials or paths", () => {
    const texts = kinds.map(shimText);
    for (const text of texts) {
      expect(text.length).toBeLessThan(150);
      expect(text).not.toContain("SECRET-MARKER");
      expect(text).not.toMatch(/\/(home|root|tmp|work|node_modules)\//);
    }
    expect(new Set(kinds.map((k) => shimText(k).replace(JSON.stringify(k), "K"))).size).toBe(1);
  });
});

describe("loaded as the dynamic-provider host loads it", () => {
  test("today's text gives the installed package's provider of the kind", () => {
    for (const kind of kinds) {
      const loaded = requireFromString(shimText(kind)).handler();
      for (const m of METHODS)
        expect({ kind, m, type: typeof loaded[m] }).toEqual({ kind, m, type: "function" });
    }
  });

  test("a kind the installed package does not have: a message that says which version to install", () => {
    expect(() => requireFromString(shimText("Teleporter")).handler()).toThrow(
      /The installed pulumi-incident \(.+\) has no resource kind "Teleporter": install the version this stack was deployed with, or newer/,
    );
  });

  test("the text releases up to 0.1.0 stored still loads and calls the installed package", async () => {
    const recorded = new Map<string, string>();
    for (const release of fs.readdirSync(BASELINES_DIR)) {
      for (const program of fs.readdirSync(path.join(BASELINES_DIR, release))) {
        const file = path.join(BASELINES_DIR, release, program, "pulumi-export.json");
        if (!fs.existsSync(file)) continue;
        const exported = JSON.parse(fs.readFileSync(file, "utf8"));
        for (const r of (exported.deployment ?? exported).resources ?? []) {
          const text = r.inputs?.__provider;
          if (typeof text === "string") recorded.set(String(r.type).split(":").pop()!, text);
        }
      }
    }
    expect(recorded.size).toBeGreaterThanOrEqual(5);
    for (const [kind, text] of recorded) {
      const loaded = requireFromString(text).handler();
      for (const m of METHODS)
        expect({ kind, m, type: typeof loaded[m] }).toEqual({ kind, m, type: "function" });
      // A call reaches the installed provider: its check names the missing input.
      const checked = await loaded.check({}, {});
      expect({ kind, failures: checked.failures?.length > 0 }).toEqual({ kind, failures: true });
    }
  });
});
