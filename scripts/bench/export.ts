/**
 * `npm run bench:export` — a benchmark, not a test: prints figures. Seeds an account of
 * BENCH_OBJECTS (2,000) objects over the kinds (bench/scaleAccount.ts, with the rate limit relaxed
 * while seeding), then times `pulumi-incident export` of it against the API's real bucket (1200 burst,
 * 20/s): wall time, requests (per kind), 429s, the rate-limit bound, objects written, lines, and the
 * process's peak memory. Then checks that every object would adopt without a write.
 *   BENCH_OBJECTS=2000 npm run bench:export
 *
 * `-- --split-by team`: an organisation of BENCH_TEAMS (6) teams instead (bench/scaleAccount.ts
 * `TEAM_SHARES`: of each kind that takes owners, 8 objects in 10 owned by one team, 1 by two, 1 by
 * none), with 3 catalog types of BENCH_ENTRIES (1,000) entries each, exported as a fleet: per
 * project its resources, lookups and files; whether every object is declared exactly once; the
 * largest project. With the real Pulumi CLI built (`npm run pulumi:build`), the largest project
 * (`--adopt largest`, the default; `all`; `none`) is then adopted through it against a fresh bucket:
 * `pulumi up --skip-preview` of a new stack (wall time, requests, writes: 0 expected), then
 * `pulumi preview --expect-no-changes`.
 *   npm run bench:export -- --split-by team [--adopt largest|all|none]
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { type ExportResult, exportAccount, writeProject } from "../../cli/export";
import { ReadOnlyClient } from "../../cli/readOnlyClient";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { ApiClient } from "../../provider/client";
import * as cli from "../../tools/pulumi/cli";
import { seedScaleAccount, TEAM_SHARES } from "./scaleAccount";

const objects = Number(process.env.BENCH_OBJECTS ?? "2000");
const burst = Number(process.env.BENCH_BURST ?? "1200");
const refill = Number(process.env.BENCH_REFILL ?? "20");
// Round-trip time added to every request (the emulator answers in about a millisecond; the service
// over the internet in tens of milliseconds).
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? "0");
const teamCount = Number(process.env.BENCH_TEAMS ?? "6");
const entriesPerType = Number(process.env.BENCH_ENTRIES ?? "1000");

const { values: flags } = parseArgs({
  options: { "split-by": { type: "string" }, adopt: { type: "string" } },
});
const split = flags["split-by"] === "team";
if (flags["split-by"] !== undefined && !split) throw new Error("--split-by: use team");
const adopt = flags.adopt ?? "largest";
if (!["largest", "all", "none"].includes(adopt)) throw new Error("--adopt: use largest, all or none");

const root = path.join(__dirname, "..", "..");

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "incident-bench-export-"));
  const stateFile = path.join(work, "account.json");
  // Seeding is not measured: a generous bucket, then the real one (same state file) for the export.
  const seeding = await startEmulator({ port: 0, burst: 1_000_000, refillPerSecond: 1_000_000, stateFile });
  const seedStarted = Date.now();
  const client = new ApiClient({ apiKey: seeding.apiKey, baseUrl: seeding.url, notify: () => {} });
  const made = split ? await seedTeams(seeding, client) : await seedScaleAccount(client, objects);
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  await seeding.close();

  const emulator = await startEmulator({ port: 0, burst, refillPerSecond: refill, stateFile });
  if (latencyMs > 0) emulator.faults.add({ path: "^/v", kind: "latency", latencyMs, count: 1_000_000 });
  const readOnly = new ReadOnlyClient({ apiKey: emulator.apiKey, baseUrl: emulator.url, notify: () => {} });
  const started = performance.now();
  const result = await exportAccount(readOnly, split ? { splitBy: "team", project: "bench" } : {});
  const wall = (performance.now() - started) / 1000;
  // Inside the repository (.bench/ is ignored): the projects find this package and the SDK there.
  const dir = split ? path.join(root, ".bench", `fleet-${process.pid}`) : path.join(work, "project");
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
  if (split) await fleetFigures(result, dir, stateFile);
  fs.rmSync(work, { recursive: true, force: true });
}

/** Teams in the emulator's store (the API cannot make them), then the organisation's objects. */
async function seedTeams(emulator: RunningEmulator, client: ApiClient): Promise<Record<string, number>> {
  const teams = Array.from({ length: teamCount }, (_, i) => `01TEAMBENCH${String(i + 1).padStart(2, "0")}`);
  const store = emulator.store.collection<{
    id: string;
    name: string;
    catalog_entry_id: string;
    member_ids: string[];
  }>("teams");
  for (const [i, id] of teams.entries())
    store.set({ id, name: `Team ${i + 1}`, catalog_entry_id: `${id}ENTRY`, member_ids: [] });
  const team = (j: number) => teams[j % teams.length]!;
  return seedScaleAccount(client, objects, {
    shares: TEAM_SHARES,
    owners: (kind, i) => {
      if (kind === "CatalogType") return [team(i)];
      const slot = i % 10;
      return slot === 9 ? [] : slot === 8 ? [team(i), team(i + 1)] : [team(i)];
    },
    catalog: { types: 3, entries: entriesPerType },
  });
}

/** The fleet's projects, whether each object is declared once, and the adoption of the largest. */
async function fleetFigures(result: ExportResult, dir: string, stateFile: string): Promise<void> {
  const fleet = result.fleet!;
  console.log(`\nfleet (${dir}): ${fleet.projects.length} projects, in the order to apply them`);
  console.log("project                resources  lookups of other projects  people/teams  files");
  for (const p of fleet.projects) {
    const elsewhere = p.model.lookups.filter((l) => l.declaredIn).length;
    const files = Object.keys(result.files).filter((f) => f.startsWith(`${p.dir}/`)).length;
    console.log(
      `${p.dir.padEnd(22)} ${String(p.model.resources.length).padStart(9)}  ${String(elsewhere).padStart(25)}  ${String(p.model.lookups.length - elsewhere).padStart(12)}  ${String(files).padStart(5)}`,
    );
  }
  // Every object of the account declared exactly once: an entry of a type written in bulk by that
  // type's CatalogEntries; what the export leaves out (the service's own objects) by nothing.
  const declared = fleet.projects.flatMap((p) => p.model.resources.map((r) => `${r.kind} ${r.id}`));
  const bulkTypes = new Set(
    declared.filter((d) => d.startsWith("CatalogEntries ")).map((d) => d.split(" ")[1]),
  );
  const leftOut = new Set(fleet.leftOut.map((o) => o.id));
  const expected = new Set(
    result.account.objects
      .filter((o) => !leftOut.has(o.id))
      .map((o) => {
        const type = (o.live as { catalog_type_id?: string }).catalog_type_id ?? "";
        return o.kind === "CatalogEntry" && bulkTypes.has(type)
          ? `CatalogEntries ${type}`
          : `${o.kind} ${o.id}`;
      }),
  );
  const twice = declared.length - new Set(declared).size;
  const missing = [...expected].filter((e) => !declared.includes(e)).length;
  const extra = declared.filter((d) => !expected.has(d)).length;
  const largest = [...fleet.projects].sort((a, b) => b.model.resources.length - a.model.resources.length)[0]!;
  console.log(
    `every object declared once  ${twice === 0 && missing === 0 && extra === 0 ? "yes" : "NO"} (${declared.length} declared; ${twice} twice, ${missing} missing, ${extra} not in the account)`,
  );
  console.log(`largest project             ${largest.dir}: ${largest.model.resources.length} resources`);
  if (adopt === "none") return;
  if (!cli.available()) {
    console.log("adoption: no Pulumi CLI in .tools/pulumi/bin (npm run pulumi:build): skipped");
    return;
  }
  const adopted = adopt === "all" ? fleet.projects : [largest];
  // A fresh bucket, as a pipeline that adopts the project would find it.
  const emulator = await startEmulator({ port: 0, burst, refillPerSecond: refill, stateFile });
  console.log(
    `\nadoption through the real Pulumi CLI (${path.relative(root, cli.CLI_BIN)}), burst=${burst} refill=${refill}/s`,
  );
  console.log(
    "project                resources  up --skip-preview  requests  writes  429s  preview --expect-no-changes",
  );
  try {
    for (const p of adopted) {
      const config: Record<string, string> = {
        "incident:apiKey": emulator.apiKey,
        "incident:baseUrl": emulator.url,
      };
      // The seeded secrets' values end in `abcd`: a secret is compared by its last four characters.
      for (const s of p.model.secrets) config[`${p.project}:${s.key}`] = "bench-value-abcd";
      const options: cli.CliOptions = {
        program: path.join(dir, p.dir),
        stateFile: path.join(dir, p.dir, ".bench-state.json"),
        stack: "bench",
        config,
        secretConfig: Object.keys(config).filter((k) => k !== "incident:baseUrl"),
        skipPreview: true,
        timeoutMs: 3_600_000,
      };
      const mark = emulator.requests.length;
      const up = await cli.up(options);
      const during = emulator.requests.slice(mark);
      const writes = during.filter((r) => r.method !== "GET").length;
      const preview = await cli.preview({ ...options, skipPreview: false, expectNoChanges: true });
      console.log(
        `${p.dir.padEnd(22)} ${String(p.model.resources.length).padStart(9)}  ${`${((up.timings.cliMs ?? up.durationMs) / 1000).toFixed(1)} s${up.ok ? "" : " FAILED"}`.padStart(17)}  ${String(during.length).padStart(8)}  ${String(writes).padStart(6)}  ${String(during.filter((r) => r.status === 429).length).padStart(4)}  ${
          preview.ok
            ? "clean"
            : `FAILED: ${preview.errors
                .map((e) => e.message)
                .join("; ")
                .slice(0, 200)}`
        }`,
      );
      if (!up.ok)
        console.log(
          up.errors
            .map((e) => e.message)
            .join("\n")
            .slice(0, 2000),
        );
    }
  } finally {
    await emulator.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
