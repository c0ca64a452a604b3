/**
 * `pulumi-incident migrate`'s options (the CLI's own parser, cli/main.ts): every mistake named
 * before any request, keys taken from the environment, the source read with a GET-only client;
 * and names from the source written as data (a schedule, a layer and a person whose names carry
 * code, comment and Markdown syntax and line breaks) in the program, its comments and the plan.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { sourceClient } from "../../../cli/migrate";
import { SourceWriteRefused } from "../../../cli/migrate/sourceClient";
import { runCli } from "../../support/cliRun";
import type { TestEmulator } from "../../support/emulator";
import { linkProjects } from "../../support/exportInProcess";
import { parseComment } from "../../support/markdownDom";
import {
  migrateProject,
  pagerDutyAccount,
  runMigrate,
  startSource,
  startTargetEmulator,
  type TestSource,
} from "../../support/sourceAccounts";

describe("migrate: options and names", () => {
  let emu: TestEmulator;
  let pd: TestSource;
  let hostile: TestSource;
  let parent: string;
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a name that reads as a template literal's placeholder
  const SCHEDULE = 'Pay"ments */ ${y} `z`\n# H1\n<script>alert(1)</script> @here';
  const PERSON = "Mallory\nconst pwned = 1; //";

  beforeAll(async () => {
    emu = await startTargetEmulator();
    pd = await startSource("pagerduty");
    const account = pagerDutyAccount();
    account.schedules[0]!.name = SCHEDULE;
    account.schedules[0]!.schedule_layers[1]!.name = 'Week\u2028ends "*/"';
    account.users.find((u) => u.id === "PDAN005")!.name = PERSON;
    hostile = await startSource("pagerduty", account);
    parent = fs.mkdtempSync(path.join(os.tmpdir(), "migrate-cmd-"));
    linkProjects(parent);
  });
  afterAll(async () => {
    await pd?.close();
    await hostile?.close();
    await emu?.dispose();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  test.each([
    [[], "--from is required: pagerduty or opsgenie"],
    [["--from", "victorops"], '--from: "victorops": use pagerduty or opsgenie'],
    [["--from", "pagerduty", "--plan", "--verify"], "--plan and --verify exclude each other"],
    [["--from", "pagerduty", "--outputs", "o.json"], "--outputs goes with --verify"],
    [["--from", "pagerduty", "--plan", "--window", "7d"], "--window goes with --verify"],
    [
      ["--from", "pagerduty", "--verify", "--outputs", "o.json", "--window", "0d"],
      "--window must be a number of days (14d) or hours (36h), from 1 hour to 91 days",
    ],
    [
      ["--from", "pagerduty", "--verify", "--outputs", "o.json", "--since", "yesterday"],
      '--since must be an RFC 3339 time such as 2026-03-23T09:00:00Z (got "yesterday")',
    ],
    [["--from", "pagerduty", "--plan", "--name", "("], "--name: not a regular expression"],
    [
      ["--from", "pagerduty", "--verify", "--outputs", "/nonexistent/outputs.json"],
      "--outputs /nonexistent/outputs.json: not the JSON of `pulumi stack output --json`",
    ],
  ])("%j is refused before any request: %s", async (args, message) => {
    const marks = [emu.requests.length, pd.requests.length];
    const run = await runMigrate(args, emu, { pagerduty: pd });
    expect(run.code).toBe(1);
    expect(run.err).toContain(`pulumi-incident migrate: ${message}`);
    expect([emu.requests.length, pd.requests.length]).toEqual(marks);
  });

  test("the source's key comes from the environment; its client refuses anything but a GET", async () => {
    const run = await runMigrate(["--from", "opsgenie", "--plan"], emu, { pagerduty: pd });
    expect(run.code).toBe(1);
    expect(run.err).toContain("--from opsgenie: set OPSGENIE_API_KEY to an API key of the Opsgenie account");
    const client = sourceClient("pagerduty", { PAGERDUTY_API_KEY: pd.apiKey, PAGERDUTY_BASE_URL: pd.url });
    await expect(client.post("/schedules", "create schedule", {})).rejects.toBeInstanceOf(SourceWriteRefused);
    // Not even the one POST this API's read-only client sends (a preview of schedule entries).
    await expect(
      client.post("/v2/schedules/x/actions/preview_entries", "preview", {}),
    ).rejects.toBeInstanceOf(SourceWriteRefused);
    expect((await client.get<{ users: unknown[] }>("/users", "list users")).users).toHaveLength(5);
    // A wrong key: the source's 401, said once, the key never printed.
    const wrong = await runCli(["migrate", "--from", "pagerduty", "--plan"], {
      INCIDENT_API_KEY: emu.apiKey,
      INCIDENT_BASE_URL: emu.url,
      PAGERDUTY_API_KEY: "pd-wrong-key-5e1f",
      PAGERDUTY_BASE_URL: pd.url,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toBe(
      `pulumi-incident migrate: PagerDuty: list users (GET /users) failed with 401, the key was refused: check PAGERDUTY_API_KEY and PAGERDUTY_BASE_URL (${pd.url})\n`,
    );
    expect(wrong.err).not.toContain("pd-wrong-key-5e1f");
    const help = await runMigrate(["--help"], emu, {});
    expect(help.out).toContain("migrate [DIR]");
    expect(help.out).toContain("--from SOURCE");
  });

  test("names from the source are data: in the code, its comments, the plan and the terminal", async () => {
    const project = await migrateProject("pagerduty", emu, hostile, parent, "hostile");
    // The program loaded and made the schedule under its very name.
    const schedule = project.stack.resources.find(
      (r) => r.type.endsWith(":Schedule") && r.inputs.name === SCHEDULE,
    );
    expect(schedule?.inputs.rotations.map((r: any) => r.name)).toContain('Week\u2028ends "*/"');
    // A comment naming the person cannot end early: no line of the program starts with their text.
    expect(project.text).not.toMatch(/^\s*const pwned/m);
    expect(project.text).toContain(
      '// Approximate: layer "Layer 1": users Bob Builder (bob@example.com), Mallory const pwned = 1; //',
    );
    const readme = fs.readFileSync(path.join(project.dir, "README.md"), "utf8");
    const md = parseComment(readme.slice(readme.indexOf("## Migration plan")));
    expect(md.problems).toEqual([]);
    expect(md.headings.filter((h) => h.level === 1)).toEqual([]);
    expect(md.headings.map((h) => h.text)).toContain(`schedule ${SCHEDULE.replace(/\n/g, " ")} — exact`);
    expect(
      project.out.split("\n").filter((l) => l.startsWith("const pwned") || l.startsWith("# H1")),
    ).toEqual([]);
  });
});
