/**
 * `pulumi-incident coverage` (issue 29 item 5, cli/coverage.ts): every schedule of a stack export,
 * when nobody is on call in the window, read from the service's entries; exit 0 / 2 / 1 for a
 * scheduled job. The stack is the recorded oncall pull request's two schedules, made in the
 * emulator (test/support/previewAccount.ts), exported as `pulumi stack export` writes resources.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { runCli } from "../support/cliRun";
import { emulatorForTests } from "../support/emulator";
import { parseComment } from "../support/markdownDom";
import { previewAccount, stackExportOf } from "../support/previewAccount";

const ONCALL = JSON.parse(
  fs.readFileSync(path.join(__dirname, "..", "fixtures", "previewJson", "oncall-pr.json"), "utf8"),
);
const emulator = emulatorForTests();

/** The schedules of the oncall stack, made in the emulator, as `pulumi stack export` holds them. */
const stackExport = async () =>
  stackExportOf(await previewAccount(ONCALL, emulator(), { kinds: ["Schedule"] }));

const run = async (args: string[], doc: unknown) => {
  const mark = emulator().requests.length;
  const result = await runCli(
    ["coverage", "--from", "2031-03-24T00:00:00Z", ...args],
    { INCIDENT_API_KEY: emulator().apiKey, INCIDENT_BASE_URL: emulator().url },
    false,
    JSON.stringify(doc),
  );
  return {
    ...result,
    requests: emulator()
      .requests.slice(mark)
      .map((r) => `${r.method} ${r.route}`),
  };
};

test("a schedule on call in working hours only has gaps: exit 2, each gap in bold in its time zone; GETs only", async () => {
  const doc = await stackExport();
  const result = await run([], doc);
  expect(result.code).toBe(2);
  const html = parseComment(result.out);
  expect(html.problems).toEqual([]);
  expect(html.headings[0]!.text).toBe("On-call coverage of incident-oncall / dev");
  expect(html.text).toContain(
    "From Mon 24 Mar 2031 00:00 UTC to Mon 31 Mar 2031 00:00 UTC: 1 schedule of 2 has times when nobody is on call.",
  );
  expect(html.text).toContain(
    "Schedule payments-secondary (America/New_York): someone is on call throughout.",
  );
  expect(html.text).toContain("Schedule payments-primary (Europe/London): 6 gaps");
  expect(html.listItems).toEqual([
    "nobody on call Mon 24 Mar 00:00–09:00 (Europe/London, +00:00)",
    "nobody on call Mon 24 Mar 17:30 – Tue 25 Mar 09:00 (Europe/London, +00:00)",
    "nobody on call Tue 25 Mar 17:30 – Wed 26 Mar 09:00 (Europe/London, +00:00)",
    "nobody on call Wed 26 Mar 17:30 – Thu 27 Mar 09:00 (Europe/London, +00:00)",
    "nobody on call Thu 27 Mar 17:30 – Fri 28 Mar 09:00 (Europe/London, +00:00)",
    "nobody on call Fri 28 Mar 17:30 – Mon 31 Mar 01:00 (Europe/London, +00:00 → +01:00)",
  ]);
  expect(result.requests).toEqual([
    "GET /v1/identity",
    "GET /v2/schedule_entries",
    "GET /v2/schedule_entries",
  ]);
});

test("--exclude a schedule meant for working hours only: exit 0 when the rest is covered; an unknown name is exit 1 before any request", async () => {
  const doc = await stackExport();
  const dir = fs.mkdtempSync(path.join(require("node:os").tmpdir(), "coverage-"));
  const json = path.join(dir, "coverage.json");
  const result = await run(["--exclude", "payments-primary", "--json", json], doc);
  expect(result.code).toBe(0);
  expect(JSON.parse(fs.readFileSync(json, "utf8"))).toMatchObject({
    excluded: ["payments-primary"],
    counts: { schedules: 1, withGaps: 0, notChecked: 0 },
    schedules: [{ name: "payments-secondary", gaps: [] }],
  });
  fs.rmSync(dir, { recursive: true, force: true });
  expect(parseComment(result.out).text).toContain("Not checked (--exclude): payments-primary.");
  const typo = await run(["--exclude", "payments-primray"], doc);
  expect(typo).toMatchObject({ code: 1, out: "", requests: [] });
  expect(typo.err).toContain('the stack has no schedule named "payments-primray"');
});

test("a schedule deleted out of band is not checked: exit 1, said on stderr and in the report", async () => {
  const doc = await stackExport();
  const gone = doc.deployment.resources.find((r: any) => /payments-secondary/.test(r.urn));
  await emulator().ok("DELETE", `/v2/schedules/${gone.id}`);
  const result = await run(["--exclude", "payments-primary"], doc);
  expect(result.code).toBe(1);
  expect(result.err).toContain(
    `Schedule payments-secondary (${gone.id}) not checked: the schedule no longer exists`,
  );
  expect(parseComment(result.out).text).toContain("1 schedule not checked");
});
