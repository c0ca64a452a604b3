/**
 * The package root (index.ts) as users import it (`pulumi-incident`, the build `npm test` makes):
 * resource classes, lookups, the account object, errors and the version, nothing internal; and what state written by
 * 0.1.0 still needs of it (its `__provider` calls the root's `providers`), reachable but not API.
 */
import * as path from "node:path";
import { providers } from "../resources";

const root = require(path.join(__dirname, "..", "node_modules", "pulumi-incident"));

test("exports resources, lookups, the account object, errors and the version, and nothing else", () => {
  const kinds = Object.keys(providers).sort();
  const names = Object.keys(root).sort();
  const lookups = names.filter((n) => /^get[A-Z]\w*$/.test(n));
  expect(names.filter((n) => /^[A-Z]/.test(n) && !/Error$/.test(n))).toEqual([...kinds, "Provider"].sort());
  expect(names.filter((n) => /Error$/.test(n))).toEqual([
    "ApiError",
    "LookupError",
    "MissingCredentialsError",
    "SettingsError",
  ]);
  for (const lookup of lookups.filter((n) => !n.endsWith("Output")))
    expect(lookups).toContain(`${lookup}Output`);
  expect(names.filter((n) => !kinds.includes(n) && !/Error$/.test(n) && !lookups.includes(n))).toEqual([
    "Provider",
    "version",
  ]);
});

test("the providers 0.1.0 state calls are reachable, not enumerated", () => {
  expect(Object.keys(root)).not.toContain("providers");
  expect(Object.keys(root.providers).sort()).toEqual(Object.keys(providers).sort());
});
