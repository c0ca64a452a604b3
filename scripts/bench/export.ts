/**
 * `npm run bench:export` — a benchmark, not a test: prints figures. Seeds an account of
 * BENCH_OBJECTS (2,000) objects over the kinds (bench/scaleAccount.ts, with the rate limit relaxed
 * while seeding), then times `pulumi-incident export` of it against the API's real bucket (1200 burst,
 * 20/s): wall time, requests (per kind), 429s, the rate-limit bound, objects written, lines, and the
 * process's peak memory. Then checks that every object would adopt without a write.
 *   BENCH_OBJECTS=2000 npm run bench:export
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { exportAccount, writeProject } from "../../cli/export";
import { ReadOnlyClient } from "../../cli/readOnlyClient";
import { startEmulator } from "../../emulator";
import { ApiClient } from "../../provider/client";
import { seedScaleAccount } from "./scaleAccount";

const objects = Number(process.env.BENCH_OBJECTS ?? "2000");
const burst = Number(process.env.BENCH_BURST ?? "1200");
const refill = Number(process.env.BENCH_REFILL ?? "20");
// Round-trip time added to every request (the emulator answers in about a millisecond; the service
// over the internet in tens of milliseconds).
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? "0");

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "incident-bench-export-"));
  const stateFile = path.join(work, "account.json");
  // Seeding is not measured: a generous bucket, then the real one (same state file) for the export.
  const seeding = await startEmulator({ port: 0, burst: 1_000_000, refillPerSecond: 1_000_000, stateFile });
  const seedStarted = Date.now();
  const made = await seedScaleAccount(
    new ApiClient({ apiKey: seeding.apiKey, baseUrl: seeding.url, notify: () => {} }),
    objects,
  );
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  await seeding.close();

  const emulator = await startEmulator({ port: 0, burst, refillPerSecond: refill, stateFile });
  if (latencyMs > 0) emulator.faults.add({ path: "^/v", kind: "latency", latencyMs, count: 1_000_000 });
  const client = new ReadOnlyClient({ apiKey: emulator.apiKey, baseUrl: emulator.url, notify: () => {} });
  const started = performance.now();
  const result = await exportAccount(client, {});
  const wall = (performance.now() - started) / 1000;
  const dir = path.join(work, "project");
  writeProject(dir, result.files);
  const requests = emulator.requests;
  const throttled = requests.filter((r) => r.status === 429).length;
  const bound = Math.max(0, (requests.length - burst) / refill);
  const lines = Object.values(result.files).reduce((n, text) => n + text.split("\n").length - 1, 0);
  const toCheck = result.model.resources.filter((r) => r.differences.length > 0 || r.problems.length > 0);
  console.log(
    `seeded ${Object.values(made).reduce((a, b) => a + b, 0)} objects in ${seedSeconds.toFixed(1)} s (not measured): ${JSON.stringify(made)}`,
  );
  console.log(`account: ${result.account.objects.length} objects of the exportable kinds`);
  console.log(`burst=${burst} refill=${refill}/s added latency=${latencyMs} ms`);
  console.log("figure                      value");
  console.log(`export wall time            ${wall.toFixed(1)} s`);
  console.log(`objects written             ${result.model.resources.length}`);
  console.log(
    `requests (all GET)          ${requests.length} (${requests.filter((r) => r.method !== "GET").length} not GET)`,
  );
  console.log(`429 answers                 ${throttled}`);
  console.log(
    `rate-limit bound            ${bound.toFixed(1)} s (full bucket); ${(requests.length / refill).toFixed(1)} s (empty bucket)`,
  );
  console.log(`files / lines               ${Object.keys(result.files).length} / ${lines}`);
  console.log(`peak RSS                    ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  console.log(`objects that would write    ${toCheck.length}`);
  const perKind = new Map<string, number>();
  for (const r of requests) {
    const key = r.path.split("?")[0]!.replace(/\/[0-9A-Z]{26}.*$/, "/{id}…");
    perKind.set(key, (perKind.get(key) ?? 0) + 1);
  }
  console.log("requests by path:");
  for (const [p, n] of [...perKind.entries()].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(n).padStart(5)}  ${p}`);
  await emulator.close();
  fs.rmSync(work, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
