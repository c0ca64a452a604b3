/**
 * `npm run demo`: starts the API emulator, runs examples/quickstart against it, runs it again to show
 * that nothing changes, edits one object out of band through the API and shows the drift being
 * detected, restores it, then destroys everything. Uses the Pulumi CLI when one is on PATH (a local
 * file backend and a demo passphrase, everything under .demo/), otherwise the project's own
 * engine-faithful harness.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import * as harness from "../test/harness";

const root = path.join(__dirname, "..");
const program = path.join(root, "examples", "quickstart");
const work = path.join(root, ".demo");

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const step = (s: string) => console.log(`\n${bold(`▶ ${s}`)}`);

async function main(): Promise<void> {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const emulator = await startEmulator({ port: 0 });
  console.log(`Emulator listening on ${emulator.url}`);
  // A second key, as a colleague clicking in the dashboard would have.
  const colleagueKey = await emulator.createApiKey("colleague", ["global_access"]);
  try {
    const cli = spawnSync("pulumi", ["version"], { encoding: "utf8" });
    if (cli.status === 0) {
      console.log(`Pulumi CLI ${cli.stdout.trim()} found: using it (file backend in .demo/).`);
      await withCli(emulator.url, emulator.apiKey, colleagueKey);
    } else {
      console.log(
        "No Pulumi CLI on PATH: using the project's harness (the real dynamic-provider host, engine semantics).",
      );
      await withHarness(emulator.url, emulator.apiKey, colleagueKey);
    }
  } finally {
    await emulator.close();
  }
}

async function editOutOfBand(baseUrl: string, key: string, fieldId: string): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const current = await (await fetch(`${baseUrl}/v2/custom_fields/${fieldId}`, { headers })).json();
  const field = (current as { custom_field: { name: string } }).custom_field;
  const res = await fetch(`${baseUrl}/v2/custom_fields/${fieldId}`, {
    method: "PUT",
    headers,
    body: JSON.stringify({ name: field.name, description: "Edited by hand in the dashboard" }),
  });
  console.log(`  PUT /v2/custom_fields/${fieldId} (description changed by hand) → ${res.status}`);
}

async function withHarness(baseUrl: string, apiKey: string, colleagueKey: string): Promise<void> {
  const options = {
    program: path.join(program, "index.ts"),
    stateFile: path.join(work, "state.json"),
    project: "incident-quickstart",
    stack: "demo",
    config: { "incident:baseUrl": baseUrl, "incident:apiKey": apiKey },
    secretConfig: ["incident:apiKey"],
  };
  const show = (title: string, r: harness.RunResult) => {
    step(title);
    for (const s of r.steps) {
      const detail = s.changedKeys?.length ? ` (${s.changedKeys.join(", ")})` : "";
      console.log(`  ${s.op.padEnd(12)} ${s.type.split(":").pop()} ${s.name}${detail}`);
    }
    console.log(`  ${r.apiCalls.length} API calls, ${r.durationMs} ms${r.ok ? "" : "  FAILED"}`);
    for (const e of r.errors) console.log(`  error: ${e.message}`);
    if (!r.ok) throw new Error(`${title} failed`);
  };

  const first = await harness.up(options);
  show("pulumi up (create)", first);
  for (const [k, v] of Object.entries(first.outputs)) console.log(`  output ${k} = ${JSON.stringify(v)}`);
  show("pulumi up again (expect no changes, no API calls)", await harness.up(options));

  const fieldId = String(first.outputs.affectedTeamId);
  step("Out-of-band edit through the API with another key");
  await editOutOfBand(baseUrl, colleagueKey, fieldId);
  show("pulumi refresh (drift detected)", await harness.refresh(options));
  show("pulumi up (restores the declared configuration)", await harness.up(options));
  show("pulumi destroy", await harness.destroy(options));
}

async function withCli(baseUrl: string, apiKey: string, colleagueKey: string): Promise<void> {
  const env = {
    ...process.env,
    PULUMI_HOME: path.join(work, "pulumi-home"),
    PULUMI_BACKEND_URL: `file://${path.join(work, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "demo-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  mkdirSync(path.join(work, "backend"), { recursive: true });
  const pulumi = (title: string, args: string[], allowFail = false): string => {
    if (title) step(title);
    const r = spawnSync("pulumi", [...args, "--cwd", program, "--non-interactive"], {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (title) process.stdout.write(r.stdout);
    if (r.status !== 0 && !allowFail) throw new Error(`pulumi ${args.join(" ")} failed`);
    return r.stdout;
  };
  pulumi("", ["stack", "init", "demo"], true);
  pulumi("", ["stack", "select", "demo"]);
  pulumi("", ["config", "set", "incident:baseUrl", baseUrl]);
  pulumi("", ["config", "set", "--secret", "incident:apiKey", apiKey]);
  pulumi("pulumi up (create)", ["up", "--yes", "--skip-preview"]);
  pulumi("pulumi preview (expect no changes)", ["preview", "--expect-no-changes"]);
  const fieldId = pulumi("", ["stack", "output", "affectedTeamId"]).trim();
  step("Out-of-band edit through the API with another key");
  await editOutOfBand(baseUrl, colleagueKey, fieldId);
  pulumi("pulumi preview --refresh (drift detected)", ["preview", "--refresh", "--diff"]);
  pulumi("pulumi up --refresh (restores the declared configuration)", [
    "up",
    "--refresh",
    "--yes",
    "--skip-preview",
  ]);
  pulumi("pulumi destroy", ["destroy", "--yes", "--skip-preview"]);
  pulumi("", ["stack", "rm", "demo", "--yes"], true);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
