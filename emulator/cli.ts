#!/usr/bin/env node
/**
 * `incident-emulator`: runs the API emulator until SIGINT/SIGTERM.
 */
import { parseArgs } from "node:util";
import { maskUrl } from "../provider/masking";
import {
  describeFaultRule,
  FAULT_SPEC_SYNTAX,
  type FaultRule,
  FaultSpecError,
  parseFaultSpec,
} from "./faults";
import { startEmulator } from "./index";

const HELP = `Usage: incident-emulator [options]

Runs a local emulator of the incident-response platform's public HTTP API.

Options:
  --port <n>           port to listen on (default 0: any free port)
  --host <addr>        interface to listen on (default 127.0.0.1)
  --api-key <key>      bootstrap API key with global access (default: the one kept in
                       --state-file, else a generated key, printed at start)
  --burst <n>          rate-limit bucket capacity per API key (default 1200)
  --refill <n>         rate-limit refill, requests per second (default 20)
  --state-file <path>  keep the state in this file across restarts (atomic writes)
  --no-seed            start without the seeded users and teams
  --fault <spec>       arm a fault at start (repeatable); see "Faults" below
  -h, --help           show this help

Faults (--fault <spec>, repeatable), armed when the emulator starts:
  ${FAULT_SPEC_SYNTAX.replace(/\n/g, "\n  ")}
  Examples:
    --fault 'POST ^/v2/alert_sources$ reset-after'   the create commits, its response is lost
    --fault '^/v 503 x2'                            the next two API requests answer 503
    --fault 'PUT ^/v3/alert_routes/ reset-before x3'
    --fault '^/v rate-limit x6 retry-after=2s'
    --fault 'GET ^/v2/ latency latency=500ms x10'
    --fault '{"method":"DELETE","path":"^/v2/schedules/","kind":"status","status":502}'
Faults can also be armed, listed and cleared while running: POST/GET/DELETE <url>/_emulator/faults.

Control endpoints (no API key needed): GET <url>/_emulator lists them
(requests log, reset, clock, API keys with any roles, state, faults).
`;

function fail(message: string): never {
  process.stderr.write(`incident-emulator: ${message}\n\n${HELP}`);
  process.exit(2);
}

function integer(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) fail(`--${name} must be a whole number (got ${JSON.stringify(value)})`);
  const n = Number(value);
  if (n < min || n > max) fail(`--${name} must be between ${min} and ${max} (got ${n})`);
  return n;
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    fail((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  let refill: number | undefined;
  if (values.refill !== undefined) {
    refill = Number(values.refill);
    if (!Number.isFinite(refill) || refill <= 0) fail(`--refill must be a number > 0 (got ${values.refill})`);
  }
  if (values["api-key"] !== undefined && !/^\S+$/.test(values["api-key"])) {
    fail("--api-key must be a non-empty value without spaces");
  }
  const faults: FaultRule[] = [];
  for (const spec of values.fault ?? []) {
    try {
      faults.push(parseFaultSpec(spec));
    } catch (error) {
      if (!(error instanceof FaultSpecError)) throw error;
      fail(`--fault ${JSON.stringify(spec)}: ${error.message}`);
    }
  }
  const emulator = await startEmulator({
    port: integer("port", values.port, 0, 65535),
    host: values.host,
    apiKey: values["api-key"],
    burst: integer("burst", values.burst, 1, Number.MAX_SAFE_INTEGER),
    refillPerSecond: refill,
    stateFile: values["state-file"],
    seed: !values["no-seed"],
  });
  for (const rule of faults) emulator.faults.add(rule);
  process.stdout.write(
    [
      `incident API emulator listening on ${maskUrl(emulator.url)}`,
      `Bootstrap API key (global access): ${emulator.apiKey}`,
      `Control endpoints: ${maskUrl(emulator.url)}/_emulator`,
      values["state-file"]
        ? `State file: ${values["state-file"]}`
        : "State: in memory (use --state-file to keep it)",
      ...faults.map((rule) => `Fault armed: ${describeFaultRule(rule)}`),
      "",
    ].join("\n"),
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping\n`);
    emulator.close().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`incident-emulator: error while stopping: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

function parse() {
  return parseArgs({
    args: process.argv.slice(2),
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "api-key": { type: "string" },
      burst: { type: "string" },
      refill: { type: "string" },
      "state-file": { type: "string" },
      "no-seed": { type: "boolean" },
      fault: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
}

main().catch((error) => {
  process.stderr.write(`incident-emulator: ${(error as Error).message}\n`);
  process.exit(1);
});
