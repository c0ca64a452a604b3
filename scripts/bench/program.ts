/**
 * The benchmark's Pulumi program: BENCH_OBJECTS objects, each one API object (one create request),
 * so request counts and the rate-limit bound are easy to reason about. BENCH_KINDS=mixed (default)
 * alternates custom fields and API keys; BENCH_KINDS=custom-fields declares only custom fields;
 * BENCH_KINDS=paged takes the kinds whose refresh reads by page since issue 24 in turn (severities,
 * incident statuses, incident roles, secrets, maintenance windows, schedule sync targets, schedule
 * sync rules, eight to a schedule) and catalog attributes, eight to a catalog type (a schedule or
 * a type is one more object, so the count is approximate);
 * BENCH_KINDS=catalog-attributes declares only catalog attributes, eight to a type.
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
const paged = process.env.BENCH_KINDS === "paged";
const onlyAttributes = process.env.BENCH_KINDS === "catalog-attributes";
const chunk =
  process.env.BENCH_SYNC === "1" ? Number.POSITIVE_INFINITY : Number(process.env.BENCH_CHUNK ?? "1");

// Fixed and far ahead: not active, so destroy can archive it; the same in every run (no update).
const windowStart = "2099-01-01T22:00:00Z";
const windowEnd = "2099-01-02T00:00:00Z";
let catalogType: incident.CatalogType | undefined;
let schedule: incident.Schedule | undefined;
let syncTarget: incident.ScheduleSyncTarget | undefined;

/** The n-th sync rule (object i), on the latest sync target: eight to a schedule (a list each). */
function declareSyncRule(i: number, n: number): void {
  if (n % 8 === 0 || !schedule)
    schedule = new incident.Schedule(`${prefix}-schedule-${i}`, {
      name: `${prefix} schedule ${i}`,
      timezone: "Europe/London",
      rotations: [
        {
          id: "primary",
          name: "Primary",
          versions: [
            {
              handoverStartAt: "2026-01-05T09:00:00+00:00",
              handovers: [{ interval: 1, intervalType: "weekly" }],
              users: [{ email: "ada@example.com" }],
              layers: [{ name: "Layer 1" }],
            },
          ],
        },
      ],
    });
  new incident.ScheduleSyncRule(`${prefix}-sync-rule-${i}`, {
    scheduleId: schedule.id,
    scheduleSyncTargetId: syncTarget!.id,
    rotationId: "primary",
    syncType: "on_call",
  });
}

/** The i-th object of the `paged` mix: eight kinds in turn. */
function declarePaged(i: number): void {
  const n = Math.floor(i / 8);
  const name = `${prefix} ${i}`;
  switch (i % 8) {
    case 0:
      new incident.Severity(`${prefix}-severity-${i}`, { name, description: "Benchmark", rank: 1000 + i });
      return;
    case 1:
      new incident.IncidentStatus(`${prefix}-status-${i}`, {
        name,
        description: "Benchmark",
        category: "live",
      });
      return;
    case 2:
      new incident.IncidentRole(`${prefix}-role-${i}`, {
        name,
        description: "Benchmark",
        instructions: "Benchmark",
        shortform: `${prefix}${i}`,
      });
      return;
    case 3:
      new incident.Secret(`${prefix}-secret-${i}`, { name, value: `bench-value-${i}-0000` });
      return;
    case 4:
      new incident.MaintenanceWindow(`${prefix}-window-${i}`, {
        name,
        startAt: windowStart,
        endAt: windowEnd,
        lead: { email: "Ada@Example.com" },
        alertConditionGroups: [
          {
            conditions: [
              {
                subject: "alert.title",
                operation: "one_of",
                paramBindings: [{ arrayValue: [{ literal: name }] }],
              },
            ],
          },
        ],
      });
      return;
    case 5:
      syncTarget = new incident.ScheduleSyncTarget(`${prefix}-sync-target-${i}`, {
        slackUserGroupId: `S0BENCH${i}`,
        addBotToGroup: false,
      });
      return;
    case 6:
      declareSyncRule(i, n);
      return;
    default:
      declareAttribute(i, n);
  }
}

/** The n-th catalog attribute (object i): eight to a type, whose attributes are batched. */
function declareAttribute(i: number, n: number): void {
  if (n % 8 === 0 || !catalogType)
    catalogType = new incident.CatalogType(`${prefix}-type-${i}`, {
      name: `${prefix} type ${i}`,
      description: "Benchmark",
      typeName: `Custom["Bench${i}"]`,
    });
  new incident.CatalogTypeAttribute(`${prefix}-attribute-${i}`, {
    catalogTypeId: catalogType.id,
    name: `Attribute ${i}`,
    type: "String",
  });
}

function declare(i: number): void {
  if (paged) declarePaged(i);
  else if (onlyAttributes) declareAttribute(i, i);
  else if (onlyFields || i % 2 === 0) {
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
