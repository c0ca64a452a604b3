/**
 * CatalogType (with its attributes) and CatalogEntries through the harness (the real dynamic-provider
 * host) against the real emulator, with the shared lifecycle (test/support/lifecycle.ts) and
 * test/fixtures/catalogType/program, test/fixtures/catalogEntries/program.
 */
import * as path from "node:path";
import { describeLifecycle, type LifecycleApi } from "../support/lifecycle";

const names = (type: any) => type.schema.attributes.map((a: any) => a.name).sort();

describeLifecycle("CatalogType", {
  program: path.join(__dirname, "../fixtures/catalogType/program"),
  live: async ({ call }) => (await call("GET", "/v3/catalog_types")).catalog_types,
  // Edited in the dashboard: another description and colour.
  editOutOfBand: async ({ call }, id) => {
    const { catalog_type: t } = await call("GET", `/v3/catalog_types/${id}`);
    await call("PUT", `/v3/catalog_types/${id}`, { name: t.name, description: "hand edit", color: "pink" });
  },
  expectRestored: (t) => {
    expect(t).toMatchObject({
      name: "Lifecycle service",
      description: "Every service we run",
      color: "blue",
    });
    expect(names(t)).toEqual(["Owner", "Tags", "Tier"]);
  },
  expectUpdated: (t) => {
    expect(t).toMatchObject({
      description: "Every service we run (updated)",
      color: "green",
      icon: "server",
    });
    expect(names(t)).toEqual(["Service tier", "Tags"]);
  },
  createExisting: async ({ call }) =>
    (await call("POST", "/v3/catalog_types", { name: "Made by hand", description: "x" })).catalog_type.id,
});

/** Every type that has entries, as one object per type (the resource's id is the type's id). */
async function typesWithEntries({ call }: LifecycleApi) {
  const out = [];
  for (const t of (await call("GET", "/v3/catalog_types")).catalog_types) {
    const entries = (await call("GET", `/v3/catalog_entries?catalog_type_id=${t.id}&page_size=250`))
      .catalog_entries;
    if (entries.length > 0) out.push({ id: t.id as string, entries });
  }
  return out;
}
const byExternalId = (o: any) =>
  Object.fromEntries(o.entries.map((e: any) => [e.external_id ?? `id:${e.id}`, [e.name, e.aliases]]));

describeLifecycle("CatalogEntries", {
  program: path.join(__dirname, "../fixtures/catalogEntries/program"),
  setup: async ({ call }) => {
    const type = (await call("POST", "/v3/catalog_types", { name: "Entries lifecycle", description: "d" }))
      .catalog_type;
    const schema = await call("POST", `/v3/catalog_types/${type.id}/actions/update_schema`, {
      version: type.schema.version,
      attributes: [{ name: "Tier", type: "Number", array: false }],
    });
    return { typeId: type.id, tierId: schema.catalog_type.schema.attributes[0].id };
  },
  live: typesWithEntries,
  // Edited in the dashboard: one entry renamed, one added (not declared: the next up deletes it).
  editOutOfBand: async ({ call }, typeId) => {
    const [first] = (await call("GET", `/v3/catalog_entries?catalog_type_id=${typeId}&page_size=1`))
      .catalog_entries;
    await call("PUT", `/v3/catalog_entries/${first.id}`, { name: "hand edit", attribute_values: {} });
    await call("POST", "/v3/catalog_entries", {
      catalog_type_id: typeId,
      name: "stray",
      attribute_values: {},
    });
  },
  expectRestored: (o) =>
    expect(byExternalId(o)).toEqual({
      checkout: ["Checkout", ["co"]],
      search: ["Search", []],
      billing: ["Billing", []],
    }),
  expectUpdated: (o) =>
    expect(byExternalId(o)).toEqual({
      checkout: ["Checkout service", ["co"]],
      search: ["Search", []],
      ledger: ["Ledger", []],
    }),
  // A type whose entries were made by hand: two with the program's external ids, one without.
  createExisting: async ({ call }) => {
    const type = (await call("POST", "/v3/catalog_types", { name: "Adopted entries", description: "d" }))
      .catalog_type;
    for (const [name, external_id] of [
      ["Checkout (old)", "checkout"],
      ["Billing", "billing"],
      ["Stray", undefined],
    ]) {
      await call("POST", "/v3/catalog_entries", {
        catalog_type_id: type.id,
        name,
        external_id,
        attribute_values: {},
      });
    }
    return type.id;
  },
});
