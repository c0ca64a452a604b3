/**
 * Records the `pulumi preview --json` documents of the plan-report `--shifts` scenarios
 * (test/fixtures/previewJson/shifts/), which the fast lane reads (test/cli/shifts.test.ts):
 *
 *   npm run fixtures:record [-- scenario ...]
 *
 * For each scenario, through the real Pulumi CLI (tools/pulumi/cli.ts, built by `npm run
 * pulumi:build`), on a fresh emulator and a fresh stack: `pulumi up` of the program
 * test/fixtures/shiftScenarios/program with config `scenario` and `phase=before`, then `pulumi preview
 * --json` of `phase=after` (the scenario's change). Written, ids masked as the engine lane's
 * oncall-pr.json is (test/support/previewDigest.ts, namedIdRecording):
 *   <scenario>.json        the preview document, as a pull request's pipeline hands it to plan-report
 *   <scenario>.state.json  `pulumi stack export` before the change (version and resources): the
 *                          account the plan was made against, for what the plan leaves out (an
 *                          unchanged schedule whose overrides change); the test makes it again in the
 *                          emulator (test/support/previewAccount.ts)
 *
 * No lane records or compares these: the engine lane already holds the real CLI's preview to the
 * recorded shape (test/engine/planReport.test.ts, oncall-pr.json). Rerun this when the provider's
 * inputs or stored outputs change shape, or the program does, and commit what it writes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import { fixtureProject } from "../test/support/harnessFixture";
import { namedIdRecording } from "../test/support/previewDigest";
import * as cli from "../tools/pulumi/cli";

const ROOT = path.resolve(__dirname, "..");
const PROGRAM = path.join(ROOT, "test", "fixtures", "shiftScenarios", "program");
const OUT = path.join(ROOT, "test", "fixtures", "previewJson", "shifts");

/** The scenarios of the program (its leading comment says what each changes). */
const SHIFT_SCENARIOS = [
  "users-swapped",
  "handover-moved",
  "working-hours-narrowed",
  "holiday-override",
  "future-version",
  "dst-week",
  "new-schedule",
  "hostile-names",
  "out-of-hours-branch",
] as const;

async function record(scenario: string): Promise<void> {
  const emu = await startEmulator({ port: 0, now: Date.now });
  const stateFile = path.join(os.tmpdir(), `record-previews-${scenario}-${process.pid}.json`);
  const options = (phase: "before" | "after"): cli.CliOptions => {
    const project = fixtureProject(PROGRAM);
    return {
      program: PROGRAM,
      stateFile,
      secretConfig: ["incident:apiKey"],
      config: {
        "incident:apiKey": emu.apiKey,
        "incident:baseUrl": emu.url,
        [`${project}:scenario`]: scenario,
        [`${project}:phase`]: phase,
      },
      timeoutMs: 240_000,
    };
  };
  try {
    const up = await cli.up(options("before"));
    if (!up.ok) throw new Error(`${scenario}: up failed:\n${up.log}`);
    const exported = cli.exportedState(options("before"), { showSecrets: false });
    const preview = await cli.preview({ ...options("after"), json: true });
    if (!preview.ok) throw new Error(`${scenario}: preview failed:\n${preview.log}`);
    const { preview: digest, state } = namedIdRecording(preview.json, exported, emu.url);
    const write = (file: string, value: unknown) =>
      fs.writeFileSync(path.join(OUT, file), `${JSON.stringify(value, null, 2)}\n`);
    write(`${scenario}.json`, digest);
    write(`${scenario}.state.json`, state);
    const planned = (digest.steps ?? [])
      .filter((s: any) => s.op !== "same")
      .map((s: any) => `${s.op} ${String(s.urn).split("::").slice(-2).join(" ")}`);
    console.log(`${scenario}: ${up.steps.length} resources up; planned: ${planned.join(", ") || "nothing"}`);
  } finally {
    cli.dispose(stateFile);
    await emu.close();
  }
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const unknown = only.filter((s) => !(SHIFT_SCENARIOS as readonly string[]).includes(s));
  if (unknown.length)
    throw new Error(`no scenario ${unknown.join(", ")}: one of ${SHIFT_SCENARIOS.join(", ")}`);
  if (!cli.available()) throw new Error("the Pulumi CLI is not built: npm run pulumi:build");
  fs.mkdirSync(OUT, { recursive: true });
  for (const scenario of SHIFT_SCENARIOS.filter((s) => !only.length || only.includes(s)))
    await record(scenario);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
