/**
 * `npm run demo`: starts the API emulator and, for each example (examples/quickstart, then the on-call
 * setup in examples/oncall), runs it against the emulator, runs it again to show that nothing
 * changes, edits one object out of band through the API and shows the drift being detected,
 * restores it, then destroys everything. Uses the real Pulumi CLI when there is one: the one
 * `npm run pulumi:build` built into .tools/pulumi/bin, else a `pulumi` on PATH (a local file backend
 * and a demo passphrase, everything under .demo/); otherwise the project's own engine-faithful
 * harness. `npm run demo -- quickstart` (or `oncall`) runs one example. DEMO_ENGINE=harness or
 * DEMO_ENGINE=cli forces one (cli fails when there is no CLI).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import { maskUrl } from "../provider/masking";
import * as harness from "../tools/harness";

const root = path.join(__dirname, "..");
const work = path.join(root, ".demo");
/** Where `npm run pulumi:build` puts the CLI, our language host and the provider plugin. */
const builtCliDir = path.join(root, ".tools", "pulumi", "bin");

/** One example the demo runs: where it is, and the hand edit that makes drift. */
interface DemoExample {
  name: string;
  project: string;
  /** The stack output holding the id of the object edited by hand. */
  editedOutput: string;
  /** Edits that object through the API with another key; says what it did. */
  editOutOfBand(baseUrl: string, key: string, id: string): Promise<string>;
}

const EXAMPLES: DemoExample[] = [
  {
    name: "quickstart",
    project: "incident-quickstart",
    editedOutput: "affectedTeamId",
    editOutOfBand: (baseUrl, key, id) =>
      editByHand(baseUrl, key, `/v2/custom_fields/${id}`, "custom_field", (field) => ({
        name: field.name,
        description: "Edited by hand in the dashboard",
      })),
  },
  {
    name: "oncall",
    project: "incident-oncall",
    editedOutput: "serviceAttributeId",
    editOutOfBand: (baseUrl, key, id) =>
      editByHand(baseUrl, key, `/v2/alert_attributes/${id}`, "alert_attribute", (attribute) => ({
        name: "Service (renamed by hand)",
        type: attribute.type,
        array: attribute.array,
        emoji: attribute.emoji,
      })),
  },
];

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const step = (s: string) => console.log(`\n${bold(`▶ ${s}`)}`);

async function main(): Promise<void> {
  const only = process.argv[2];
  const examples = EXAMPLES.filter((e) => only === undefined || e.name === only);
  if (examples.length === 0)
    throw new Error(`unknown example ${only}: one of ${EXAMPLES.map((e) => e.name).join(", ")}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const emulator = await startEmulator({ port: 0 });
  console.log(`Emulator listening on ${maskUrl(emulator.url)}`);
  // A second key, as a colleague clicking in the dashboard would have.
  const colleagueKey = await emulator.createApiKey("colleague", ["global_access"]);
  try {
    const built = existsSync(path.join(builtCliDir, "pulumi"));
    const cliEnv = built ? { PATH: [builtCliDir, process.env.PATH].join(path.delimiter) } : {};
    const cli = spawnSync("pulumi", ["version"], { encoding: "utf8", env: { ...process.env, ...cliEnv } });
    const wanted = process.env.DEMO_ENGINE;
    if (wanted === "cli" && cli.status !== 0)
      throw new Error("DEMO_ENGINE=cli but no Pulumi CLI: npm run pulumi:build");
    const useCli = cli.status === 0 && wanted !== "harness";
    console.log(
      useCli
        ? `Pulumi CLI ${cli.stdout.trim()} (${built ? "built by npm run pulumi:build" : "found on PATH"}): using it (file backend in .demo/).`
        : `${wanted === "harness" ? "DEMO_ENGINE=harness" : "No Pulumi CLI built (npm run pulumi:build) or on PATH"}: using the project's harness (the real dynamic-provider host, engine semantics).`,
    );
    for (const example of examples) {
      console.log(`\n${bold(`═══ examples/${example.name} ═══`)}`);
      if (useCli) await withCli(example, emulator.url, emulator.apiKey, colleagueKey, cliEnv);
      else await withHarness(example, emulator.url, emulator.apiKey, colleagueKey);
    }
  } finally {
    await emulator.close();
  }
}

/** GET the object, change it with `edit`, PUT it back, as a colleague in the dashboard would. */
async function editByHand(
  baseUrl: string,
  key: string,
  apiPath: string,
  envelope: string,
  edit: (current: Record<string, unknown>) => Record<string, unknown>,
): Promise<string> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const current = (await (await fetch(`${baseUrl}${apiPath}`, { headers })).json()) as Record<string, any>;
  const res = await fetch(`${baseUrl}${apiPath}`, {
    method: "PUT",
    headers,
    body: JSON.stringify(edit(current[envelope])),
  });
  if (!res.ok) throw new Error(`PUT ${apiPath} → ${res.status}: ${await res.text()}`);
  return `PUT ${apiPath} → ${res.status}`;
}

async function withHarness(
  example: DemoExample,
  baseUrl: string,
  apiKey: string,
  colleagueKey: string,
): Promise<void> {
  const options = {
    program: path.join(root, "examples", example.name),
    stateFile: path.join(work, `${example.name}.state.json`),
    project: example.project,
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
    const lookups = r.apiCalls.filter((c) => c.from === "program").length;
    console.log(
      `  ${r.apiCalls.length - lookups} provider API calls, ${lookups} lookups by the program, ${r.durationMs} ms${r.ok ? "" : "  FAILED"}`,
    );
    for (const e of r.errors) console.log(`  error: ${e.message}`);
    if (!r.ok) throw new Error(`${title} failed`);
  };

  const first = await harness.up(options);
  show("pulumi up (create)", first);
  for (const [k, v] of Object.entries(first.outputs)) console.log(`  output ${k} = ${JSON.stringify(v)}`);
  show("pulumi up again (expect no changes, no provider API calls)", await harness.up(options));

  step("Out-of-band edit through the API with another key");
  console.log(
    `  ${await example.editOutOfBand(baseUrl, colleagueKey, String(first.outputs[example.editedOutput]))}`,
  );
  show("pulumi refresh (drift detected)", await harness.refresh(options));
  show("pulumi up (restores the declared configuration)", await harness.up(options));
  show("pulumi destroy", await harness.destroy(options));
}

async function withCli(
  example: DemoExample,
  baseUrl: string,
  apiKey: string,
  colleagueKey: string,
  cliEnv: Record<string, string | undefined>,
): Promise<void> {
  const program = path.join(root, "examples", example.name);
  const env = {
    ...process.env,
    ...cliEnv,
    PULUMI_HOME: path.join(work, "pulumi-home"),
    PULUMI_BACKEND_URL: `file://${path.join(work, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "demo-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  mkdirSync(path.join(work, "backend"), { recursive: true });
  // Asynchronous: the emulator answers from this very process, so it must not be blocked meanwhile.
  const pulumi = async (title: string, args: string[], allowFail = false): Promise<string> => {
    if (title) step(title);
    const child = spawn("pulumi", [...args, "--cwd", program, "--non-interactive"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    // The CLI's notes ("Created stack 'demo'") go to stderr: shown with the step, or with a failure.
    if (title) process.stdout.write(stdout + stderr);
    if (status !== 0 && !allowFail) throw new Error(`pulumi ${args.join(" ")} failed:\n${stderr}`);
    return stdout;
  };
  await pulumi("", ["stack", "init", "demo"], true);
  await pulumi("", ["stack", "select", "demo"]);
  await pulumi("", ["config", "set", "incident:baseUrl", baseUrl]);
  await pulumi("", ["config", "set", "--secret", "incident:apiKey", apiKey]);
  await pulumi("pulumi up (create)", ["up", "--yes", "--skip-preview"]);
  await pulumi("pulumi preview (expect no changes)", ["preview", "--expect-no-changes"]);
  const editedId = (await pulumi("", ["stack", "output", example.editedOutput])).trim();
  step("Out-of-band edit through the API with another key");
  console.log(`  ${await example.editOutOfBand(baseUrl, colleagueKey, editedId)}`);
  await pulumi("pulumi preview --refresh (drift detected)", ["preview", "--refresh", "--diff"]);
  await pulumi("pulumi up --refresh (restores the declared configuration)", [
    "up",
    "--refresh",
    "--yes",
    "--skip-preview",
  ]);
  await pulumi("pulumi destroy", ["destroy", "--yes", "--skip-preview"]);
  await pulumi("", ["stack", "rm", "demo", "--yes"], true);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
