/**
 * No test run leaves a process behind (a provider host, a CLI, an emulator): jest's globalSetup marks
 * the run in the environment every process it starts inherits, and its globalTeardown fails the run,
 * naming them, when any marked process is still alive (and kills it, so the next run starts clean).
 * jest's own workers are not counted: jest ends them itself.
 */
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";

const MARK = "INCIDENT_TEST_RUN";

export function markRun(): void {
  process.env[MARK] = randomUUID();
}

/** Processes started during this run that are still alive: pid and command line. */
export function leftovers(): { pid: number; command: string }[] {
  const mark = `${MARK}=${process.env[MARK]}`;
  const found: { pid: number; command: string }[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(mark)) continue;
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
      if (command.includes("jest-worker") || command === "") continue;
      found.push({ pid, command });
    } catch {
      // ended meanwhile, or not ours to read
    }
  }
  return found;
}

export function failOnLeftovers(): void {
  if (!process.env[MARK] || !fs.existsSync("/proc")) return;
  const left = leftovers();
  for (const p of left) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  if (left.length) {
    throw new Error(
      `${left.length} process(es) started by the tests were still running after the last test (killed now):\n` +
        left.map((p) => `  ${p.pid} ${p.command.slice(0, 200)}`).join("\n"),
    );
  }
}
