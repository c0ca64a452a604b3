import type { BadInputCase } from "./types";

const type = { name: "Service", description: "Our services" };
const attribute = { catalogTypeId: "01T", name: "Tier", type: "Number" };
const entry = { catalogTypeId: "01T", name: "Checkout" };
const entries = { catalogTypeId: "01T", entries: { checkout: { name: "Checkout" } } };

/** Bad inputs of the catalog kinds (issue 12). */
export const catalogCases: BadInputCase[] = [
  { kind: "CatalogType", title: "missing description", inputs: { name: "S" }, property: "description" },
  {
    kind: "CatalogType",
    title: "blank name",
    inputs: { ...type, name: "  " },
    property: "name",
    outcome: "warning",
    warns: "name",
    reason: /is only whitespace/,
  },
  {
    kind: "CatalogType",
    title: "type name without Custom[...]",
    inputs: { ...type, typeName: "Service" },
    property: "typeName",
    reason: /Custom\["SomeName"\]/,
  },
  {
    kind: "CatalogType",
    title: "unknown icon",
    inputs: { ...type, icon: "rocket" },
    property: "icon",
    outcome: "warning",
    warns: "icon",
    reason: /is not a value the API is known to take.*did you mean "bolt"/,
  },
  {
    kind: "CatalogType",
    title: "unknown category",
    inputs: { ...type, categories: ["pets"] },
    property: "categories",
    outcome: "warning",
    warns: "categories[0]",
    reason: /is not a value the API is known to take.*did you mean "team"/,
  },
  {
    kind: "CatalogType",
    title: "snake_case field",
    inputs: { ...type, type_name: 'Custom["S"]' },
    property: "type_name",
  },
  {
    kind: "CatalogTypeAttribute",
    title: "missing type",
    inputs: { ...attribute, type: undefined },
    property: "type",
  },
  {
    kind: "CatalogTypeAttribute",
    title: "unknown mode",
    inputs: { ...attribute, mode: "manual" },
    property: "mode",
    outcome: "warning",
    warns: "mode",
    reason: /is not a value the API is known to take.*did you mean "api"/,
  },
  {
    kind: "CatalogTypeAttribute",
    title: "path mode without a path",
    inputs: { ...attribute, mode: "path" },
    property: "path",
    outcome: "warning",
    warns: "path",
    reason: /names no attribute, and mode is "path"/,
  },
  {
    kind: "CatalogTypeAttribute",
    title: "empty path",
    inputs: { ...attribute, mode: "path", path: [] },
    property: "path",
    outcome: "warning",
    warns: "path",
    reason: /names no attribute, and mode is "path"/,
  },
  { kind: "CatalogEntry", title: "missing catalog type", inputs: { name: "x" }, property: "catalogTypeId" },
  {
    kind: "CatalogEntry",
    title: "attribute value a number",
    inputs: { ...entry, attributeValues: { "01A": 3 } },
    property: "attributeValues",
  },
  {
    kind: "CatalogEntry",
    title: "empty alias",
    inputs: { ...entry, aliases: [""] },
    property: "aliases",
    outcome: "warning",
    warns: "aliases[0]",
    reason: /is empty/,
  },
  { kind: "CatalogEntry", title: "fractional rank", inputs: { ...entry, rank: 0.5 }, property: "rank" },
  {
    kind: "CatalogEntries",
    title: "entries a list",
    inputs: { ...entries, entries: [{ name: "x" }] },
    property: "entries",
  },
  {
    kind: "CatalogEntries",
    title: "entry without a name",
    inputs: { ...entries, entries: { checkout: {} } },
    property: "entries",
    reason: /entries\.checkout\.name/,
  },
  {
    kind: "CatalogEntries",
    title: "unknown field in an entry",
    inputs: { ...entries, entries: { checkout: { name: "C", externalId: "x" } } },
    property: "entries",
  },
  {
    kind: "CatalogEntries",
    title: "adoptId of another type",
    inputs: { ...entries, adoptId: "01OTHER" },
    property: "adoptId",
  },
];
