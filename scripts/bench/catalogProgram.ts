/**
 * The catalog benchmark's program: a catalog type, one attribute, and a CatalogEntries resource
 * owning BENCH_CATALOG_ENTRIES entries. Config-free: BENCH_VARIANT=changed renames every entry (a
 * change to every entry: what bulk_update batches).
 */
import * as incident from "pulumi-incident";

const total = Number(process.env.BENCH_CATALOG_ENTRIES ?? "10000");
const changed = process.env.BENCH_VARIANT === "changed";

const type = new incident.CatalogType("bench-services", { name: "Bench services", description: "Benchmark" });
const tier = new incident.CatalogTypeAttribute("bench-tier", {
  catalogTypeId: type.id,
  name: "Tier",
  type: "Number",
});

const entries = tier.id.apply((tierId) =>
  Object.fromEntries(
    Array.from({ length: total }, (_, i) => [
      `svc-${i}`,
      { name: `Service ${i}${changed ? " (v2)" : ""}`, attributeValues: { [tierId]: String(i % 3) } },
    ]),
  ),
);

new incident.CatalogEntries("bench-entries", { catalogTypeId: type.id, entries });

export const entryCount = total;
