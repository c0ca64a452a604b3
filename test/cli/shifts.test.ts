/**
 * plan-report `--shifts` (issue 29 item 2, cli/shifts.ts): "Shifts that change", read by parsing
 * the Markdown (test/support/markdownDom.ts), on the engine's recorded preview of the oncall pull
 * request (test/fixtures/previewJson/oncall-pr.json) and on plans made from its
 * `payments-primary` step, each edited as a scenario says (users swapped, a handover moved, working
 * hours narrowed, overrides added and deleted, a version from a future date, a week with a
 * daylight-saving change, a new schedule, a key that may not preview). The account the plan was
 * made against is made again in the emulator (test/support/previewAccount.ts); the window is fixed
 * (`--from 2031-03-24T00:00:00Z`, 14 days: London's clocks go forward on Sunday 30 March 2031).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type PlanReport, planReport, planReportMarkdown } from "../../cli/planReport";
import { timeRange } from "../../cli/shifts";
import { runCli } from "../support/cliRun";
import { emulatorForTests } from "../support/emulator";
import { parseComment } from "../support/markdownDom";
import { previewAccount } from "../support/previewAccount";

const FIXTURES = path.join(__dirname, "..", "fixtures", "previewJson");
const ONCALL = JSON.parse(fs.readFileSync(path.join(FIXTURES, "oncall-pr.json"), "utf8"));
const FROM = "2031-03-24T00:00:00Z";
const TYPE = "pulumi-nodejs:dynamic/incident:";
const LONDON = "Europe/London";

const emulator = emulatorForTests();

const primary = () =>
  structuredClone(ONCALL.steps.find((s: any) => s.urn.endsWith("Schedule::payments-primary")));
const doc = (...steps: any[]) => ({ steps, changeSummary: { update: 1 } });

/** The payments-primary step, its new inputs (and, with `old`, its old ones too) edited. */
function edited(edit: (news: any) => void, old?: (olds: any) => void) {
  const step = primary();
  if (old) {
    old(step.oldState.inputs);
    old(step.oldState.outputs);
  }
  step.newState.inputs = structuredClone(step.oldState.inputs);
  edit(step.newState.inputs);
  return step;
}
const version = (inputs: any) => inputs.rotations[0].versions[0];

interface Run {
  code: number;
  markdown: string;
  err: string;
  report: PlanReport;
  /** `METHOD route` of the requests the run sent. */
  requests: string[];
}

/** plan-report --shifts on `digest`, its account made in the emulator first. */
async function shifts(digest: any, args: string[] = [], token = emulator().apiKey): Promise<Run> {
  const real = await previewAccount(digest, emulator());
  const json = path.join(require("node:os").tmpdir(), `shifts-${process.pid}-${Math.random()}.json`);
  const mark = emulator().requests.length;
  const { code, out, err } = await runCli(
    ["plan-report", "--shifts", "--from", FROM, "--json", json, ...args],
    { INCIDENT_API_KEY: token, INCIDENT_BASE_URL: emulator().url },
    false,
    JSON.stringify(real),
  );
  const report = code === 1 ? ({} as PlanReport) : JSON.parse(fs.readFileSync(json, "utf8"));
  fs.rmSync(json, { force: true });
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
    const run = await shifts(ONCALL);
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
    const short = await shifts(ONCALL, ["--max-length", "6000"]);
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
    const swapped = await shifts(
      doc(
        edited((n) => {
          const users = version(n).users;
          [users[0], users[1]] = [users[1], users[0]];
        }),
      ),
    );
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
    const moved = (n: any) => {
      version(n).handoverStartAt = "2026-01-07T09:00:00+00:00";
    };
    const run = await shifts(doc(edited(moved)));
    const { items } = read(run.markdown);
    expect(items.filter((i) => i.includes("· Primary ·"))).toEqual([
      "Mon 24 Mar 09:00–17:30 (Europe/London, +00:00) · Primary · cat@example.com → bob@example.com",
      "Tue 25 Mar 09:00–17:30 (Europe/London, +00:00) · Primary · cat@example.com → bob@example.com",
      "Mon 31 Mar 09:00–17:30 (Europe/London, +01:00) · Primary · ada@example.com → cat@example.com",
      "Tue 1 Apr 09:00–17:30 (Europe/London, +01:00) · Primary · ada@example.com → cat@example.com",
    ]);
  });

  test("working hours narrowed: the gap it opens comes first, in bold", async () => {
    const run = await shifts(
      doc(
        edited((n) => {
          version(n).workingIntervals[4].endTime = "12:00";
        }),
      ),
    );
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
    const schedule = primary();
    schedule.op = "same";
    schedule.newState.inputs = structuredClone(schedule.oldState.inputs);
    const override = (name: string, inputs: any) => {
      const urn = `urn:pulumi:dev::incident-oncall::${TYPE}ScheduleOverride::${name}`;
      return {
        urn,
        type: `${TYPE}ScheduleOverride`,
        inputs: { __provider: "<serialized provider>", ...inputs },
      };
    };
    const on = { scheduleId: "<id of Schedule payments-primary>", rotationId: "primary", layerId: "<id 4>" };
    const old = override("old-cover", {
      ...on,
      user: { email: "eve@example.com" },
      startAt: "2031-03-26T09:00:00Z",
      endAt: "2031-03-26T17:30:00Z",
    });
    const holiday = override("holiday", {
      ...on,
      user: { email: "eve@example.com" },
      startAt: "2031-04-01T00:00:00+01:00",
      endAt: "2031-04-02T00:00:00+01:00",
    });
    const steps = [
      schedule,
      {
        op: "delete",
        urn: old.urn,
        oldState: {
          ...old,
          id: "<id of ScheduleOverride old-cover>",
          outputs: { ...old.inputs, __schema: 1 },
        },
      },
      { op: "create", urn: holiday.urn, newState: holiday },
    ];
    const plain = await shifts(doc(...steps));
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
    const run = await shifts(
      doc(
        edited((n) =>
          n.rotations[0].versions.push({
            effectiveFrom: "2031-03-31T09:00:00+01:00",
            handoverStartAt: "2031-03-31T09:00:00+01:00",
            handovers: [{ interval: 1, intervalType: "daily" }],
            layers: [{ name: "Primary" }],
            users: [{ email: "eve@example.com" }, { id: "01USERCAT" }],
          }),
        ),
      ),
    );
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
    const daily = (inputs: any) => {
      const v = version(inputs);
      v.handovers = [{ interval: 1, intervalType: "daily" }];
      delete v.workingIntervals;
      v.users = [{ id: "01USERADA" }, { id: "01USERBOB" }];
    };
    // Every shift changes hands (the two users swapped): each run is one shift.
    const swapped = (n: any) => {
      version(n).users.reverse();
    };
    const run = await shifts(doc(edited(swapped, daily)), [
      "--window",
      "3d",
      "--from",
      "2031-03-29T00:00:00Z",
    ]);
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
    const step = primary();
    step.op = "create";
    step.urn = step.urn.replace("payments-primary", "payments-weekend");
    delete step.oldState;
    const v = version(step.newState.inputs);
    step.newState.inputs.name = "Payments weekend";
    v.handovers = [{ interval: 1, intervalType: "daily" }];
    v.users = [{ email: "eve@example.com" }, { id: "01USERBOB" }];
    v.handoverStartAt = "2031-03-01T09:00:00Z";
    v.workingIntervals = ["saturday", "sunday"].map((weekday) => ({
      weekday,
      startTime: "00:00",
      endTime: "24:00",
    }));
    // Users named by id only: --resolve names them (the service names the users of its own entries).
    const plain = await shifts({ steps: [step], changeSummary: { create: 1 } });
    expect(read(plain.markdown).items).toContain(
      "Sat 29 Mar 00:00–09:00 (Europe/London, +00:00) · Primary · user 01USERBOB",
    );
    expect(plain.requests).toEqual(["GET /v1/identity"]);
    const run = await shifts({ steps: [step], changeSummary: { create: 1 } }, ["--resolve"]);
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
    const digest = doc(
      edited((n) => {
        const users = version(n).users;
        [users[0], users[1]] = [users[1], users[0]];
      }),
    );
    const run = await shifts(digest, [], reader);
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
    const without = planReportMarkdown(planReport(await previewAccount(digest, emulator())));
    expect(run.markdown.replace(section, "").replace(/<id[^>]*>|01[0-9A-HJKMNP-TV-Z]{24}/g, "ID")).toEqual(
      without.replace(/<id[^>]*>|01[0-9A-HJKMNP-TV-Z]{24}/g, "ID"),
    );
    expect(html.problems).toEqual([]);
  });
});

describe("plan-report --shifts under hostile names", () => {
  test("rotation and layer names enter the Markdown as text: no HTML, link, mention or code fence", async () => {
    const hostile = "<!-- `x` | @here **[link](https://evil.example)** <details>";
    const rename = (inputs: any) => {
      inputs.rotations[0].name = hostile;
      version(inputs).layers[0].name = `${hostile} layer`;
      for (const [rot, byName] of Object.entries(inputs.layerIds ?? {}))
        inputs.layerIds[rot] = { [`${hostile} layer`]: Object.values(byName as object)[0] };
    };
    const swap = (n: any) => {
      const users = version(n).users;
      [users[0], users[1]] = [users[1], users[0]];
    };
    const run = await shifts(doc(edited(swap, rename)));
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
