/**
 * The catalog part of `npm run bench`: a CatalogEntries resource with `--catalog-entries`
 * (BENCH_CATALOG_ENTRIES, 10,000) entries through the bench's engine, against the targets of issue 12:
 *   create      within 1.05 × the rate-limit bound (the API has no bulk create: one POST per entry)
 *   change all  ⌈entries ÷ 250⌉ requests (bulk_update, 250 entries each)
 *   refresh     ⌈entries ÷ 250⌉ requests for the entries (pages of 250)
 *   no 429s anywhere.
 * BENCH_CATALOG_DESTROY=1 adds a destroy (one DELETE per entry). 0 entries skips it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import type { CliOptions } from "../../tools/pulumi/cli";
import type { BenchEngine, Measured } from "./engine";

const PAGE = 250;

export async function catalogBench(
  engine: BenchEngine,
  emulator: RunningEmulator,
  entries: number,
  burst: number,
  refill: number,
  rttMs: number,
) {
  if (entries <= 0) return;
  const dir = mkdtempSync(path.join(tmpdir(), "incident-bench-catalog-"));
  const options = (variant: string): CliOptions => ({
    program: path.join(__dirname, "catalogProgram.ts"),
    stateFile: path.join(dir, "state.json"),
    project: "incident-bench-catalog",
    config: { "incident:baseUrl": emulator.url, "incident:apiKey": emulator.apiKey },
    secretConfig: ["incident:apiKey"],
    env: { BENCH_CATALOG_ENTRIES: String(entries), BENCH_VARIANT: variant },
    timeoutMs: 60 * 60 * 1000,
    skipPreview: true,
    skipEveryPreview: true,
  });
  const pages = Math.ceil(entries / PAGE);
  const bound = (requests: number) => Math.max(0, (requests - burst) / refill) + rttMs / 1000;
  console.log(`\ncatalog: entries=${entries} (CatalogEntries), page and batch size ${PAGE}`);
  console.log(
    "phase        wall_s  requests  429s  bound_s  entry_requests  target                      met  failures",
  );
  const phases: [string, () => Promise<Measured>, (r: Counts) => [string, boolean]][] = [
    [
      "create",
      () => engine.up(options("base")),
      (c) => [
        `wall ≤ 1.05 × bound (${(1.05 * bound(c.requests)).toFixed(1)} s)`,
        c.wall <= 1.05 * bound(c.requests),
      ],
    ],
    [
      "change-all",
      () => engine.up(options("changed")),
      (c) => [`${pages} bulk_update requests`, c.entryRequests === pages],
    ],
    [
      "refresh",
      () => engine.refresh(options("changed")),
      (c) => [`${pages} list pages`, c.entryRequests === pages],
    ],
  ];
  if (process.env.BENCH_CATALOG_DESTROY === "1") {
    phases.push([
      "destroy",
      () => engine.destroy(options("changed")),
      (c) => [`${entries} deletes`, c.entryRequests === entries],
    ]);
  }
  let spent = 0;
  for (const [name, run, target] of phases) {
    // Start with a full bucket, as the bound assumes.
    await new Promise((r) => setTimeout(r, Math.ceil((Math.min(burst, spent) / refill) * 1000) + 1000));
    const { result, wallMs } = await run();
    const wall = wallMs / 1000;
    const calls = result.apiCalls;
    spent = calls.length;
    const counts: Counts = {
      wall,
      requests: calls.length,
      throttled: calls.filter((c) => c.status === 429).length,
      // What CatalogEntries itself sent: entry list pages, bulk updates, creates, deletes.
      entryRequests: calls.filter((c) => c.path.startsWith("/v3/catalog_entries")).length,
    };
    const [text, met] = target(counts);
    console.log(
      `${name.padEnd(11)} ${wall.toFixed(1).padStart(7)}  ${String(counts.requests).padStart(8)}  ${String(counts.throttled).padStart(4)}  ${bound(counts.requests).toFixed(1).padStart(7)}  ${String(counts.entryRequests).padStart(14)}  ${text.padEnd(26)}  ${met && counts.throttled === 0 ? "yes" : "NO "}  ${String(result.errors.length).padStart(8)}`,
    );
    if (result.errors.length) console.log(`  first error: ${result.errors[0]!.message}`);
  }
}

interface Counts {
  wall: number;
  requests: number;
  throttled: number;
  entryRequests: number;
}
