/**
 * plan-report `--shifts`: "Who is paged first" (issue 29 item 3, cli/pagedFirst.ts), read by
 * parsing the Markdown: for the recorded oncall pull request, for a path whose working-hours window
 * narrows (its branch on `escalation.working_hours["UK"]`), for a path the plan leaves as is that
 * pages a schedule whose shifts change (from `--state`), and for a branch it cannot decide. The
 * account is made again in the emulator from the documents (test/support/previewAccount.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { runLines } from "../../cli/pagedFirst";
import type { PlanReport } from "../../cli/planReport";
import { runCli } from "../support/cliRun";
import { emulatorForTests } from "../support/emulator";
import { parseComment } from "../support/markdownDom";
import { previewAccount } from "../support/previewAccount";

const ONCALL = JSON.parse(
  fs.readFileSync(path.join(__dirname, "..", "fixtures", "previewJson", "oncall-pr.json"), "utf8"),
);
const FROM = "2031-03-24T00:00:00Z";

const emulator = emulatorForTests();

const stepOf = (suffix: string) => structuredClone(ONCALL.steps.find((s: any) => s.urn.endsWith(suffix)));
const version = (inputs: any) => inputs.rotations[0].versions[0];

/** plan-report --shifts on `digest` (its account made first): the section's list items, the requests, the JSON. */
async function pagedFirst(digest: any, args: string[] = [], state?: (real: any) => unknown) {
  const real = await previewAccount(digest, emulator());
  const dir = fs.mkdtempSync(path.join(require("node:os").tmpdir(), "paged-first-"));
  const extra = [...args];
  if (state) {
    fs.writeFileSync(path.join(dir, "state.json"), JSON.stringify(state(real)));
    extra.push("--state", path.join(dir, "state.json"));
  }
  const mark = emulator().requests.length;
  const run = await runCli(
    ["plan-report", "--shifts", "--from", FROM, "--json", path.join(dir, "report.json"), ...extra],
    { INCIDENT_API_KEY: emulator().apiKey, INCIDENT_BASE_URL: emulator().url },
    false,
    JSON.stringify(real),
  );
  expect(run).toMatchObject({ code: 0, err: "" });
  const report: PlanReport = JSON.parse(fs.readFileSync(path.join(dir, "report.json"), "utf8"));
  fs.rmSync(dir, { recursive: true, force: true });
  const html = parseComment(run.out);
  expect(html.problems).toEqual([]);
  const at = run.out.indexOf("### Who is paged first");
  const section = at < 0 ? "" : run.out.slice(at, run.out.indexOf("### Changes"));
  const parsed = parseComment(section);
  return {
    items: parsed.listItems,
    text: parsed.text,
    report,
    requests: emulator()
      .requests.slice(mark)
      .map((r) => `${r.method} ${r.route}`),
  };
}

/** The oncall path's step with its path and working hours replaced. */
function pathStep(olds: any, news: any) {
  const step = stepOf("EscalationPath::payments");
  Object.assign(step.oldState.inputs, olds);
  Object.assign(step.oldState.outputs, olds);
  step.newState.inputs = { ...structuredClone(step.oldState.inputs), ...news };
  return step;
}

/** The primary schedule as it is (a `same` step): one person, around the clock. */
function soloSchedule() {
  const step = stepOf("Schedule::payments-primary");
  step.op = "same";
  version(step.oldState.inputs).users = [{ id: "01USERADA" }];
  delete version(step.oldState.inputs).workingIntervals;
  step.newState.inputs = structuredClone(step.oldState.inputs);
  return step;
}

const weekdays = (end: string) =>
  ["monday", "tuesday", "wednesday", "thursday", "friday"].map((weekday) => ({
    weekday,
    startTime: "09:00",
    endTime: end,
  }));
const byWorkingHours = [
  {
    id: "start",
    ifElse: {
      conditions: [{ subject: 'escalation.working_hours["UK"]', operation: "is_active", paramBindings: [] }],
      thenPath: [
        {
          id: "day",
          level: {
            targets: [
              {
                type: "schedule",
                id: "<id of Schedule payments-primary>",
                urgency: "high",
                scheduleMode: "currently_on_call",
              },
            ],
            timeToAckSeconds: 300,
          },
        },
      ],
      elsePath: [
        {
          id: "night",
          level: { targets: [{ type: "user", id: "01USEREVE", urgency: "low" }], timeToAckSeconds: 300 },
        },
      ],
    },
  },
];
const uk = (end: string) => [
  { id: "UK", name: "UK", timezone: "Europe/London", weekdayIntervals: weekdays(end) },
];

test("the recorded oncall pull request: the primary rota's longer day pages its person first from 17:30 to 18:00", async () => {
  const run = await pagedFirst(ONCALL);
  expect(run.text).toContain("EscalationPath payments (update)");
  expect(run.items[0]).toBe("Every priority:");
  expect(run.items.slice(1)).toHaveLength(10);
  expect(run.items[1]).toBe(
    "Mon 24 Mar 17:30–18:00 (Europe/London, +00:00): nobody (no one on call in Schedule payments-primary) → cat@example.com",
  );
  expect(run.items[10]).toBe(
    "Fri 4 Apr 17:30–18:00 (Europe/London, +01:00): nobody (no one on call in Schedule payments-primary) → ada@example.com",
  );
  expect(run.report.pagedFirst!.paths[0]!.groups[0]!.runs).toHaveLength(10);
});

test("a working-hours window narrowed: its branch is followed, the change said once for every weekday", async () => {
  const digest = {
    steps: [
      soloSchedule(),
      pathStep({ path: byWorkingHours, workingHours: uk("17:00") }, { workingHours: uk("16:00") }),
    ],
    changeSummary: { update: 1, same: 1 },
  };
  const run = await pagedFirst(digest, ["--resolve"]);
  expect(run.items).toEqual([
    "Every escalation:",
    "weekdays 16:00–17:00 (Europe/London): ada@example.com → eve@example.com",
  ]);
  // The schedule the path pages is left as is by the plan: read once (its entries), no preview.
  expect(run.requests.filter((r) => r !== "GET /v2/users/{id}")).toEqual([
    "GET /v1/identity",
    "GET /v2/schedule_entries",
  ]);
  expect(run.report.pagedFirst!.paths[0]!.requests).toEqual({ scheduleEntries: 1 });
});

test("a path the plan leaves as is, paging a schedule whose shifts change (from --state), is shown too", async () => {
  const schedule = stepOf("Schedule::payments-primary");
  schedule.newState.inputs = structuredClone(schedule.oldState.inputs);
  const users = version(schedule.newState.inputs).users;
  [users[0], users[1]] = [users[1], users[0]];
  const digest = { steps: [schedule], changeSummary: { update: 1 } };
  const path = stepOf("EscalationPath::payments");
  const run = await pagedFirst(digest, [], (real) => ({
    version: 3,
    deployment: {
      resources: [
        {
          urn: path.urn,
          type: path.oldState.type,
          id: "01ESCALATIONPATH00000000000",
          outputs: {
            ...path.oldState.outputs,
            // Its first level only: the primary rota.
            path: JSON.parse(
              JSON.stringify(path.oldState.inputs.path.slice(0, 1)).replaceAll(
                "<id of Schedule payments-primary>",
                real.steps[0].oldState.id,
              ),
            ),
          },
        },
      ],
    },
  }));
  expect(run.text).toContain("EscalationPath payments (unchanged; it pages a schedule whose shifts change)");
  expect(run.items).toEqual([
    "Every escalation:",
    ...["Mon 31 Mar", "Tue 1 Apr", "Wed 2 Apr", "Thu 3 Apr", "Fri 4 Apr"].map(
      (day) => `${day} 09:00–17:30 (Europe/London, +01:00): ada@example.com → bob@example.com`,
    ),
  ]);
});

test("a branch on something else is not guessed at: who is paged first depends on it, said so", async () => {
  const onService = [
    {
      id: "start",
      ifElse: {
        conditions: [
          {
            subject: "alert.attributes.service",
            operation: "one_of",
            paramBindings: [{ arrayValue: [{ literal: "payments" }] }],
          },
        ],
        thenPath: [{ id: "a", level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }] } }],
        elsePath: [{ id: "b", level: { targets: [{ type: "user", id: "01USERBOB", urgency: "high" }] } }],
      },
    },
  ];
  const plain = [{ id: "a", level: { targets: [{ type: "user", id: "01USERBOB", urgency: "high" }] } }];
  const run = await pagedFirst(
    { steps: [pathStep({ path: plain }, { path: onService })], changeSummary: { update: 1 } },
    ["--resolve"],
  );
  expect(run.items).toEqual([
    "Every escalation:",
    "Mon 24 Mar 00:00 – Mon 7 Apr 00:00 (UTC, +00:00): bob@example.com → depends on alert.attributes.service one of payments",
  ]);
});

test("runs in words: a change on every weekday is said once; one that does not recur is dated", () => {
  const window = { start: Date.parse("2031-03-24T00:00:00Z"), end: Date.parse("2031-04-07T00:00:00Z") };
  const day = (d: string, from: string, to: string, before = "a", after = "b") => ({
    start: new Date(`2031-${d}T${from}:00Z`).toISOString(),
    end: new Date(`2031-${d}T${to}:00Z`).toISOString(),
    before,
    after,
  });
  const weekends = ["03-29", "03-30", "04-05", "04-06"].map((d) => day(d, "09:00", "17:00"));
  expect(runLines(weekends, "UTC", window)).toEqual(["weekends 09:00–17:00 (UTC): a → b"]);
  // One Saturday missing: dated, never "weekends".
  expect(runLines(weekends.slice(1), "UTC", window)).toEqual([
    "Sun 30 Mar 09:00–17:00 (UTC, +00:00): a → b",
    "Sat 5 Apr 09:00–17:00 (UTC, +00:00): a → b",
    "Sun 6 Apr 09:00–17:00 (UTC, +00:00): a → b",
  ]);
});

test("runs in words: overnight and over-the-weekend runs that recur are said once, in local time across a clock change", () => {
  const window = { start: Date.parse("2031-03-24T00:00:00Z"), end: Date.parse("2031-04-07T00:00:00Z") };
  // 17:30 London to 09:00 London the next day (or on Monday), before and after the clocks go forward.
  const london = (date: string, time: string) =>
    new Date(`${date}T${time}:00${date < "2031-03-30" ? "+00:00" : "+01:00"}`).toISOString();
  const run = (from: string, to: string) => ({
    start: london(from, "17:30"),
    end: london(to, "09:00"),
    before: "nobody",
    after: "cat",
  });
  const nights = [
    ["2031-03-24", "2031-03-25"],
    ["2031-03-25", "2031-03-26"],
    ["2031-03-26", "2031-03-27"],
    ["2031-03-31", "2031-04-01"],
    ["2031-04-01", "2031-04-02"],
    ["2031-04-02", "2031-04-03"],
  ].map(([a, b]) => run(a!, b!));
  const weekends = [
    run("2031-03-21", "2031-03-24"),
    run("2031-03-28", "2031-03-31"),
    run("2031-04-04", "2031-04-07"),
  ];
  expect(runLines([...nights, ...weekends.slice(1, 2)], "Europe/London", window)).toEqual([
    "Mon–Wed 17:30 – 09:00 the next day (Europe/London): nobody → cat",
    "Fri 28 Mar 17:30 – Mon 31 Mar 09:00 (Europe/London, +00:00 → +01:00): nobody → cat",
  ]);
  // A window of three weeks holds two whole weekends: each Friday's run to Monday, said once.
  const threeWeeks = { start: Date.parse("2031-03-24T00:00:00Z"), end: Date.parse("2031-04-14T00:00:00Z") };
  expect(runLines([weekends[1]!, weekends[2]!], "Europe/London", threeWeeks)).toEqual([
    "every Fri 17:30 – Mon 09:00 (Europe/London): nobody → cat",
  ]);
  // One night missing: the others dated, never "Mon–Wed".
  expect(runLines(nights.slice(1), "Europe/London", window)).toHaveLength(5);
});
