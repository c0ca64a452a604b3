/**
 * The benchmark's Pulumi program: BENCH_OBJECTS objects across kinds, each one API object (one
 * create request), so request counts and the rate-limit bound are easy to reason about.
 */
import * as incident from "pulumi-incident";

const total = Number(process.env.BENCH_OBJECTS ?? "2000");
const prefix = process.env.BENCH_PREFIX ?? "bench";

export const created: string[] = [];
for (let i = 0; i < total; i++) {
  if (i % 2 === 0) {
    new incident.CustomField(`${prefix}-field-${i}`, {
      name: `${prefix} field ${i}`,
      description: `Benchmark field ${i}`,
      fieldType: i % 4 === 0 ? "text" : "numeric",
    });
  } else {
    new incident.ApiKey(`${prefix}-key-${i}`, { name: `${prefix} key ${i}`, roles: ["viewer"] });
  }
}
export const objects = total;
