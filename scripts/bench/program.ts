/**
 * The benchmark's Pulumi program: BENCH_OBJECTS objects, each one API object (one create request),
 * so request counts and the rate-limit bound are easy to reason about. BENCH_KINDS=mixed (default)
 * alternates custom fields and API keys; BENCH_KINDS=custom-fields declares only custom fields.
 *
 * It yields to the event loop after every BENCH_CHUNK (1) declarations, so registrations reach the
 * engine while the rest are still being declared. @pulumi/pulumi spends ≈6 ms of CPU declaring each
 * of these resources (mostly formatting source-mapped stack traces, ≈40 per resource), so one
 * synchronous loop over 2000 would send no request for ≈12 s while the API's bucket sits full, and
 * the create phase would measure the SDK rather than the provider. BENCH_SYNC=1 declares them in
 * one synchronous loop.
 *
 * With BENCH_TIMINGS_FILE set, it appends one JSON line when its declarations are done: when its
 * process started, when its imports were loaded and when the last declaration was made (epoch ms),
 * which shows in the bench's table where the time before the first request went.
 */
import { appendFileSync } from "node:fs";
import * as incident from "pulumi-incident";

const loaded = Date.now();
const total = Number(process.env.BENCH_OBJECTS ?? "2000");
const prefix = process.env.BENCH_PREFIX ?? "bench";
const onlyFields = process.env.BENCH_KINDS === "custom-fields";
const chunk =
  process.env.BENCH_SYNC === "1" ? Number.POSITIVE_INFINITY : Number(process.env.BENCH_CHUNK ?? "1");

function declare(i: number): void {
  if (onlyFields || i % 2 === 0) {
    new incident.CustomField(`${prefix}-field-${i}`, {
      name: `${prefix} field ${i}`,
      description: `Benchmark field ${i}`,
      fieldType: i % 4 === 0 ? "text" : "numeric",
    });
  } else {
    new incident.ApiKey(`${prefix}-key-${i}`, { name: `${prefix} key ${i}`, roles: ["viewer"] });
  }
}

export = async () => {
  for (let i = 0; i < total; i++) {
    declare(i);
    if ((i + 1) % chunk === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const file = process.env.BENCH_TIMINGS_FILE;
  if (file) {
    const timings = { processStart: Math.round(performance.timeOrigin), loaded, declared: Date.now() };
    appendFileSync(file, `${JSON.stringify(timings)}\n`);
  }
  return { objects: total };
};
