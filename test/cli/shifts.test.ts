/**
 * plan-report `--shifts` (issue 29 item 2, cli/shifts.ts): "Shifts that change", read by parsing
 * the Markdown (test/support/markdownDom.ts), on the engine's recorded preview of the oncall pull
 * request (test/fixtures/previewJson/oncall-pr.json) and on the recorded previews of the scenarios
 * reviewers ask about (test/fixtures/previewJson/shifts/: users swapped, a handover moved, working
 * hours narrowed, overrides added and deleted, a version from a future date, a week with a
 * daylight-saving change, a new schedule, hostile names, an escalation path that gains an
 * out-of-hours branch; a key that may not preview reads one of them), each a real `pulumi preview --json` through the real Pulumi CLI (`npm run fixtures:record`,
 * scripts/record-previews.ts; the program: test/fixtures/shiftScenarios/program). The account the
 * plan was made against is made again in the emulator (test/support/previewAccount.ts, from the
 * document and the stack export recorded beside it); the window is fixed (`--from
 * 2031-03-24T00:00:00Z`, 14 days: London's clocks go forward on Sunday 30 March 2031).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type PlanReport, planReport, planReportMarkdown } from "../../cli/planReport";
import { timeRange } from "../../cli/shifts";
import { runCli } from "../support/cliRun";
import { emulatorForTests } from "../support/emulator";
import { parseComment } from "../support/markdownDom";
import { previewAccount, previewAccountAndState } from "../support/previewAccount";

const FIXTURES = path.join(__dirname, "..", "fixtures", "previewJson");
const json = (file: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, file), "utf8"));
const ONCALL = json("oncall-pr.json");
const FROM = "2031-03-24T00:00:00Z";
const LONDON = "Europe/London";

const emulator = emulatorForTests();

/** A plan and the stack export it was planned against (none: the plan lists every object it needs). */
interface Recorded {
  preview: any;
  state?: any;
}

/** A recorded scenario of test/fixtures/previewJson/shifts/ (scripts/record-previews.ts). */
const scenario = (name: string): Recorded => ({
  preview: json(`shifts/${name}.json`),
  state: json(`shifts/${name}.state.json`),
});

interface Run {
  code: number;
  markdown: string;
  err: string;
  report: PlanReport;
  /** `METHOD route` of the requests the run sent. */
  requests: string[];
}

/** plan-report --shifts on a recorded plan, its account made in the emulator first. */
async function shifts(
  { preview, state }: Recorded,
  args: string[] = [],
  token = emulator().apiKey,
): Promise<Run> {
  const json = path.join(require("node:os").tmpdir(), `shifts-${process.pid}-${Math.random()}.json`);
  const stateFile = `${json}.state.json`;
  let real: any;
  if (args.includes("--state")) {
    // `--state` stands for the stack export recorded beside the document, with the real ids.
    const made = await previewAccountAndState(preview, emulator(), { state });
    real = made.digest;
    fs.writeFileSync(stateFile, JSON.stringify(made.state));
    args = args.map((a) => (a === "--state" ? `--state=${stateFile}` : a));
  } else real = await previewAccount(preview, emulator(), { state });
  const mark = emulator().requests.length;
  const { code, out, err } = await runCli(
    ["plan-report", "--shifts", "--from", FROM, "--json", json, ...args],
    { INCIDENT_API_KEY: token, INCIDENT_BASE_URL: emulator().url },
    false,
    JSON.stringify(real),
  );
  const report = code === 1 ? ({} as PlanReport) : JSON.parse(fs.readFileSync(json, "utf8"));
  fs.rmSync(json, { force: true });
  fs.rmSync(stateFile, { force: true });
  return {
    code,
    markdown: out,
    err,
    report,
    requests: emulator()
      .requests.slice(mark)
      .map((r) => `${r.method} ${r.route}`),
  };
}

/** The parsed comment: its list items, and the section's own (between its heading and the next). */
function read(markdown: string) {
  const html = parseComment(markdown);
  expect(html.problems).toEqual([]);
  const section = markdown.slice(markdown.indexOf("### Shifts that change"), markdown.indexOf("### Changes"));
  return { html, items: parseComment(section).listItems, text: parseComment(section).text };
}

const COST_PER_UPDATE = [
  "GET /v1/identity",
  "GET /v2/schedule_entries",
  "POST /v2/schedules/{id}/actions/preview_entries",
];

describe("plan-report --shifts on the recorded oncall pull request", () => {
  test("the primary rota's longer day: evening half hours covered now, by whoever's week it is; the replaced secondary computed here", async () => {
    const run = await shifts({ preview: ONCALL });
    expect(run.code).toBe(0);
    const { html, items, text } = read(run.markdown);
    expect(html.headings.map((h) => h.text)).toContain("Shifts that change");
    expect(text).toContain("Schedule payments-primary (update, Europe/London; by the service)");
    expect(items).toContain(
      "covered now: Mon 24 Mar 17:30–18:00 (Europe/London, +00:00) (nobody was on call)",
    );
    expect(items).toContain(
      "covered now: Fri 4 Apr 17:30–18:00 (Europe/London, +01:00) (nobody was on call)",
    );
    expect(items).toContain(
      "Mon 24 Mar 17:30–18:00 (Europe/London, +00:00) · Primary · nobody → cat@example.com",
    );
    expect(items).toContain(
      "Mon 31 Mar 17:30–18:00 (Europe/London, +01:00) · Primary · nobody → ada@example.com",
    );
    expect(items.filter((i) => i.includes("· Primary ·"))).toHaveLength(10);
    // The secondary rota is replaced (a time zone cannot change): a new schedule, said so; its
    // handover moves from 09:00 New York to 09:00 Chicago, an hour later.
    expect(text).toContain(
      "Schedule payments-secondary (replace, America/Chicago; before by the service, after computed here)",
    );
    expect(
      items.some((i) =>
        i.includes("computed here by pulumi-incident's copy of the service's rules, not by the service"),
      ),
    ).toBe(true);
    expect(items).toContain(
      "Mon 24 Mar 08:00–09:00 (America/Chicago, -05:00) · Secondary · ada@example.com → bob@example.com",
    );
    // Long lists fold.
    expect(html.details.map((d) => d.summary)).toEqual(
      expect.arrayContaining([
        "2 more gap changes",
        "10 shifts that change hands",
        "14 shifts that change hands",
      ]),
    );
    // Cost: one entries read and one preview for the update, one entries read for the replaced one.
    expect(run.requests.sort()).toEqual([...COST_PER_UPDATE, "GET /v2/schedule_entries"].sort());
    // Shortened for a comment: still well-formed, the folded lists counted instead.
    const short = await shifts({ preview: ONCALL }, ["--max-length", "6000"]);
    expect(short.markdown.length).toBeLessThanOrEqual(6000);
    expect(parseComment(short.markdown).problems).toEqual([]);
    expect(short.markdown).toContain("see the JSON report");
    expect(run.report.shifts!.schedules.map((s) => [s.schedule, s.requests])).toEqual([
      ["Schedule payments-primary", { scheduleEntries: 1, previewEntries: 1, schedules: 0 }],
      ["Schedule payments-secondary", { scheduleEntries: 1, previewEntries: 0, schedules: 0 }],
    ]);
  });
});

describe("plan-report --shifts: what reviewers ask of a schedule change", () => {
  test("two users swapped: their shifts change hands, nothing else", async () => {
    const swapped = await shifts(scenario("users-swapped"));
    const { items } = read(swapped.markdown);
    const shiftLines = items.filter((i) => i.includes("· Primary ·"));
    expect(shiftLines).toEqual(
      ["Mon 31 Mar", "Tue 1 Apr", "Wed 2 Apr", "Thu 3 Apr", "Fri 4 Apr"].map(
        (day) => `${day} 09:00–17:30 (Europe/London, +01:00) · Primary · ada@example.com → bob@example.com`,
      ),
    );
    expect(items.filter((i) => /covered now|nobody on call/.test(i))).toEqual([]);
    expect(swapped.requests).toEqual(COST_PER_UPDATE);
  });

  test("a handover moved from Monday to Wednesday: Monday and Tuesday change hands", async () => {
    const run = await shifts(scenario("handover-moved"));
    const { items } = read(run.markdown);
    expect(items.filter((i) => i.includes("· Primary ·"))).toEqual([
      "Mon 24 Mar 09:00–17:30 (Europe/London, +00:00) · Primary · cat@example.com → bob@example.com",
      "Tue 25 Mar 09:00–17:30 (Europe/London, +00:00) · Primary · cat@example.com → bob@example.com",
      "Mon 31 Mar 09:00–17:30 (Europe/London, +01:00) · Primary · ada@example.com → cat@example.com",
      "Tue 1 Apr 09:00–17:30 (Europe/London, +01:00) · Primary · ada@example.com → cat@example.com",
    ]);
  });

  test("working hours narrowed (Fridays end at 12:00): the gap it opens comes first, in bold", async () => {
    const run = await shifts(scenario("working-hours-narrowed"));
    const { items } = read(run.markdown);
    expect(items).toEqual([
      "nobody on call Fri 28 Mar 12:00–17:30 (Europe/London, +00:00) (opened by this change)",
      "nobody on call Fri 4 Apr 12:00–17:30 (Europe/London, +01:00) (opened by this change)",
      "Fri 28 Mar 12:00–17:30 (Europe/London, +00:00) · Primary · cat@example.com → nobody",
      "Fri 4 Apr 12:00–17:30 (Europe/London, +01:00) · Primary · ada@example.com → nobody",
    ]);
    const strong = run.markdown.split("\n").filter((l) => l.startsWith("- **nobody on call"));
    expect(strong).toHaveLength(2);
  });

  test("a holiday override added and another deleted: merged here into the service's entries, said so", async () => {
    // The plan holds the overrides only: the schedule, unchanged, is in the stack's export.
    const recorded = scenario("holiday-override");
    expect(recorded.preview.steps.map((st: any) => `${st.op} ${st.urn.split("::").pop()}`).sort()).toEqual([
      "create holiday",
      "delete old-cover",
      "same payments-oncall-dev",
    ]);
    const plain = await shifts(recorded);
    const { items, text } = read(plain.markdown);
    // No --state: the schedule's names and time zone read from the API (one more GET).
    expect(text).toContain(
      'schedule "Payments primary" (overrides, Europe/London; by the service, the plan\'s overrides merged here)',
    );
    expect(items).toEqual([
      "the plan's override changes are merged here into the service's entries (the API holds them only after apply)",
      "covered now: Tue 1 Apr 00:00–09:00 (Europe/London, +01:00) (nobody was on call)",
      "covered now: Tue 1 Apr 17:30–24:00 (Europe/London, +01:00) (nobody was on call)",
      "Wed 26 Mar 09:00–17:30 (Europe/London, +00:00) · Primary · eve@example.com → cat@example.com",
      "Tue 1 Apr 00:00–09:00 (Europe/London, +01:00) · Primary · nobody → eve@example.com",
      "Tue 1 Apr 09:00–17:30 (Europe/London, +01:00) · Primary · ada@example.com → eve@example.com",
      "Tue 1 Apr 17:30–24:00 (Europe/London, +01:00) · Primary · nobody → eve@example.com",
    ]);
    expect(plain.requests).toEqual([
      "GET /v1/identity",
      "GET /v2/schedules/{id}",
      "GET /v2/schedule_entries",
    ]);
  });

  test("a new rotation version from a future date: from then on, round the clock, daily", async () => {
    const run = await shifts(scenario("future-version"));
    const { items, html } = read(run.markdown);
    // Nothing changes before the version takes effect; from then on the nights and the weekend are covered.
    expect(items.filter((i) => /^(Mon 24|Tue 25|Wed 26|Thu 27|Fri 28|Sat 29|Sun 30) Mar/.test(i))).toEqual(
      [],
    );
    expect(items).toContain(
      "covered now: Mon 31 Mar 17:30 – Tue 1 Apr 09:00 (Europe/London, +01:00) (nobody was on call)",
    );
    expect(items).toContain(
      "Mon 31 Mar 09:00–17:30 (Europe/London, +01:00) · Primary · ada@example.com → eve@example.com",
    );
    expect(items).toContain(
      "Sat 5 Apr 09:00 – Sun 6 Apr 09:00 (Europe/London, +01:00) · Primary · nobody → cat@example.com",
    );
    expect(html.details.length).toBeGreaterThan(0);
  });

  test("a week with a daylight-saving change: 09:00 stays 09:00, the offsets say where the clocks went forward", async () => {
    // A daily rota round the clock; every shift changes hands (the two users swapped): each run is one shift.
    const run = await shifts(scenario("dst-week"), ["--window", "3d", "--from", "2031-03-29T00:00:00Z"]);
    const { items, text } = read(run.markdown);
    expect(text).toContain("From Sat 29 Mar 2031 00:00 UTC to Tue 1 Apr 2031 00:00 UTC (3 days)");
    expect(items.filter((i) => i.includes("· Primary ·"))).toEqual([
      "Sat 29 Mar 00:00–09:00 (Europe/London, +00:00) · Primary · ada@example.com → bob@example.com",
      "Sat 29 Mar 09:00 – Sun 30 Mar 09:00 (Europe/London, +00:00 → +01:00) · Primary · bob@example.com → ada@example.com",
      "Sun 30 Mar 09:00 – Mon 31 Mar 09:00 (Europe/London, +01:00) · Primary · ada@example.com → bob@example.com",
      "Mon 31 Mar 09:00 – Tue 1 Apr 01:00 (Europe/London, +01:00) · Primary · bob@example.com → ada@example.com",
    ]);
  });

  test("a new schedule: its first shifts and its gaps, computed here and said so; no request but the key's check", async () => {
    // Users named by id only: --resolve names them (the service names the users of its own entries).
    const plain = await shifts(scenario("new-schedule"));
    expect(read(plain.markdown).items).toContain(
      "Sat 29 Mar 00:00–09:00 (Europe/London, +00:00) · Primary · user 01USERBOB",
    );
    expect(plain.requests).toEqual(["GET /v1/identity"]);
    const run = await shifts(scenario("new-schedule"), ["--resolve"]);
    const { items, text } = read(run.markdown);
    expect(text).toContain(
      "Schedule payments-weekend (create, Europe/London; a new schedule, computed here)",
    );
    expect(items.slice(0, 9)).toEqual([
      "a new schedule: its shifts are computed here by pulumi-incident's copy of the service's rules, not by the service (preview_entries previews only a schedule that exists: it takes its id)",
      "nobody on call Mon 24 Mar 00:00 – Sat 29 Mar 00:00 (Europe/London, +00:00)",
      "nobody on call Mon 31 Mar 00:00 – Sat 5 Apr 00:00 (Europe/London, +01:00)",
      "nobody on call Mon 7 Apr 00:00–01:00 (Europe/London, +01:00)",
      "Sat 29 Mar 00:00–09:00 (Europe/London, +00:00) · Primary · bob@example.com",
      "Sat 29 Mar 09:00 – Sun 30 Mar 09:00 (Europe/London, +00:00 → +01:00) · Primary · eve@example.com",
      "Sun 30 Mar 09:00–24:00 (Europe/London, +01:00) · Primary · bob@example.com",
      "Sat 5 Apr 00:00–09:00 (Europe/London, +01:00) · Primary · eve@example.com",
      "Sat 5 Apr 09:00 – Sun 6 Apr 09:00 (Europe/London, +01:00) · Primary · bob@example.com",
    ]);
    // No request of the schedule's: the key's check and the user named.
    expect(run.requests).toEqual(["GET /v1/identity", "GET /v2/users/{id}"]);
  });

  test("a key that may not preview: one line saying what is missing and why; the rest of the report as without --shifts; exit 0", async () => {
    const reader = await emulator().createApiKey("reader", ["viewer"]);
    const recorded = scenario("users-swapped");
    const run = await shifts(recorded, [], reader);
    expect(run.code).toBe(0);
    const { items, text, html } = read(run.markdown);
    expect(items).toEqual([]);
    expect(text).toMatch(
      /^Shifts that change Shifts not computed: the API key may not preview schedule entries \(the API answered 403: .*\)\. Previewing needs a role that may update schedules \(schedules_editor or on_call_editor\); the rest of the report is as without --shifts\.$/,
    );
    expect(run.report.shifts!.unavailable).toContain("may not preview schedule entries");
    const section = run.markdown.slice(
      run.markdown.indexOf("### Shifts that change"),
      run.markdown.indexOf("### Changes"),
    );
    const without = planReportMarkdown(
      planReport(await previewAccount(recorded.preview, emulator(), { state: recorded.state })),
    );
    expect(run.markdown.replace(section, "").replace(/<id[^>]*>|01[0-9A-HJKMNP-TV-Z]{24}/g, "ID")).toEqual(
      without.replace(/<id[^>]*>|01[0-9A-HJKMNP-TV-Z]{24}/g, "ID"),
    );
    expect(html.problems).toEqual([]);
  });
});

describe("plan-report --shifts: an escalation path that changes, its schedule as it is", () => {
  test("office hours and a branch on them added: outside them Cat is paged first where nobody was; the schedule read once", async () => {
    // As a pipeline runs it: the preview document and the stack export before it (`--state`).
    const run = await shifts(scenario("out-of-hours-branch"), ["--state"]);
    expect(run.code).toBe(0);
    expect(read(run.markdown).text).toContain("No schedule's shifts change in this plan.");
    const section = run.markdown.slice(
      run.markdown.indexOf("### Who is paged first"),
      run.markdown.indexOf("### Changes"),
    );
    const paged = parseComment(section);
    expect(paged.problems).toEqual([]);
    expect(paged.text).toContain("EscalationPath payments (update)");
    const [group, ...runs] = paged.listItems;
    expect(group).toBe("Every escalation:");
    // Every weekday evening and night, and the weekends, of the 14 days; office hours unchanged.
    // The nights recur on every Monday to Thursday of the window: said once, in local time.
    const nobodyToCat = "nobody (no one on call in Schedule payments-primary) → cat@example.com";
    expect(runs).toEqual([
      `Mon 24 Mar 00:00–09:00 (Europe/London, +00:00): ${nobodyToCat}`,
      `Mon–Thu 17:30 – 09:00 the next day (Europe/London): ${nobodyToCat}`,
      `Fri 28 Mar 17:30 – Mon 31 Mar 09:00 (Europe/London, +00:00 → +01:00): ${nobodyToCat}`,
      `Fri 4 Apr 17:30 – Mon 7 Apr 01:00 (Europe/London, +01:00): ${nobodyToCat}`,
    ]);
    // The unchanged schedule the path pages: its entries read once; nothing else but the key's check.
    expect(run.requests).toEqual(["GET /v1/identity", "GET /v2/schedule_entries"]);
  });
});

describe("plan-report --shifts under hostile names", () => {
  test("rotation and layer names enter the Markdown as text: no HTML, link, mention or code fence", async () => {
    // Recorded with the rotation and its layer named so (test/fixtures/shiftScenarios/program), Ada and Bob swapped.
    const hostile = "<!-- `x` | @here **[link](https://evil.example)** <details>";
    const run = await shifts(scenario("hostile-names"));
    const { html, items } = read(run.markdown);
    expect(html.problems).toEqual([]);
    expect(items[0]).toBe(
      `Mon 31 Mar 09:00–17:30 (Europe/London, +01:00) · ${hostile} / ${hostile} layer · ada@example.com → bob@example.com`,
    );
  });
});

describe("plan-report --shifts: options and words", () => {
  test("--window and --from are checked before any request; they go with --shifts", async () => {
    const bad = (args: string[]) =>
      runCli(
        ["plan-report", ...args],
        { INCIDENT_API_KEY: emulator().apiKey, INCIDENT_BASE_URL: emulator().url },
        false,
        JSON.stringify(ONCALL),
      );
    const mark = emulator().requests.length;
    expect(await bad(["--shifts", "--window", "92d"])).toMatchObject({
      code: 1,
      err: expect.stringContaining("91 days"),
    });
    expect(await bad(["--shifts", "--window", "two weeks"])).toMatchObject({
      code: 1,
      err: expect.stringContaining("--window"),
    });
    expect(await bad(["--shifts", "--from", "tomorrow"])).toMatchObject({
      code: 1,
      err: expect.stringContaining("--from must be an RFC 3339 time"),
    });
    expect(await bad(["--window", "7d"])).toMatchObject({
      code: 1,
      err: expect.stringContaining("--window goes with --shifts"),
    });
    expect(emulator().requests.length).toBe(mark);
  });

  test("times in the schedule's zone with its offset, across midnight and a clock change", () => {
    const at = (t: string) => Date.parse(t);
    expect(timeRange(at("2031-12-06T09:00:00Z"), at("2031-12-06T17:00:00Z"), LONDON)).toBe(
      "Sat 6 Dec 09:00–17:00 (Europe/London, +00:00)",
    );
    expect(timeRange(at("2031-12-06T22:00:00Z"), at("2031-12-07T06:00:00Z"), LONDON)).toBe(
      "Sat 6 Dec 22:00 – Sun 7 Dec 06:00 (Europe/London, +00:00)",
    );
    expect(timeRange(at("2031-12-06T22:00:00Z"), at("2031-12-07T00:00:00Z"), LONDON)).toBe(
      "Sat 6 Dec 22:00–24:00 (Europe/London, +00:00)",
    );
    expect(timeRange(at("2031-03-09T06:00:00Z"), at("2031-03-09T08:00:00Z"), "America/New_York")).toBe(
      "Sun 9 Mar 01:00–04:00 (America/New_York, -05:00 → -04:00)",
    );
  });
});
