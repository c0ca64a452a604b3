/**
 * `npm run bench` — a benchmark, not a test: prints figures. Against the emulator with the real
 * bucket (1200 burst, 20/s by default), through the harness (real provider host, engine semantics,
 * unbounded parallelism): create N objects across kinds, a run with no changes, a refresh, a destroy.
 * Per phase: wall time, API calls, 429s, the bound max(0, (requests − burst) / refill) s + one round
 * trip, and wall/bound. Before each phase the bucket is left to refill, as the bound assumes.
 *   BENCH_OBJECTS=2000 BENCH_BURST=1200 BENCH_REFILL=20 npm run bench
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import * as harness from "../test/harness";

const objects = Number(process.env.BENCH_OBJECTS ?? "2000");
const burst = Number(process.env.BENCH_BURST ?? "1200");
const refill = Number(process.env.BENCH_REFILL ?? "20");

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0, burst, refillPerSecond: refill });
  const dir = mkdtempSync(path.join(tmpdir(), "incident-bench-"));
  const options = {
    program: path.join(__dirname, "bench", "program.ts"),
    stateFile: path.join(dir, "state.json"),
    project: "incident-bench",
    config: { "incident:baseUrl": emulator.url, "incident:apiKey": emulator.apiKey },
    secretConfig: ["incident:apiKey"],
    env: { BENCH_OBJECTS: String(objects) },
    timeoutMs: 60 * 60 * 1000,
  };
  const refillWait = Math.ceil((burst / refill) * 1000) + 1000;
  const rtt = await roundTrip(emulator.url, emulator.apiKey);
  console.log(`objects=${objects} burst=${burst} refill=${refill}/s round trip=${rtt.toFixed(1)} ms`);
  console.log("phase      wall_s  requests  429s  bound_s  wall/bound  failures");
  const phases: [string, () => Promise<harness.RunResult>][] = [
    ["create", () => harness.up(options)],
    ["no-change", () => harness.up(options)],
    ["refresh", () => harness.refresh(options)],
    ["destroy", () => harness.destroy(options)],
  ];
  for (const [name, run] of phases) {
    await new Promise((r) => setTimeout(r, refillWait)); // start each phase with a full bucket
    const started = Date.now();
    const result = await run();
    const wall = (Date.now() - started) / 1000;
    const requests = result.apiCalls.length;
    const throttled = result.apiCalls.filter((c) => c.status === 429).length;
    const bound = requests === 0 ? 0 : Math.max(0, (requests - burst) / refill) + rtt / 1000;
    const ratio = bound > 0 ? (wall / bound).toFixed(3) : "n/a";
    console.log(
      `${name.padEnd(10)} ${wall.toFixed(1).padStart(6)}  ${String(requests).padStart(8)}  ${String(throttled).padStart(4)}  ${bound.toFixed(1).padStart(7)}  ${String(ratio).padStart(10)}  ${result.errors.length}`,
    );
    if (name === "create") {
      const state = harness.readState(options.stateFile);
      const resources = state.resources as { providerBytes?: number }[];
      const bytes = statSync(options.stateFile).size;
      const shim = resources.find((r) => r.providerBytes)?.providerBytes ?? 0;
      console.log(
        `  state: ${(bytes / Math.max(1, resources.length)).toFixed(0)} bytes/resource; serialized provider: ${shim} bytes`,
      );
    }
  }
  await emulator.close();
}

async function roundTrip(url: string, key: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < 5; i++)
    await fetch(`${url}/v1/identity`, { headers: { authorization: `Bearer ${key}` } });
  return (performance.now() - started) / 5;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
