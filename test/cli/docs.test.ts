/**
 * docs/review-tools.md shows the plan report of the recorded pull request exactly as the tool prints
 * it today, and that pull request's diff as the fixture holds it: the documentation cannot drift
 * from the tool.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { coverage, coverageMarkdown } from "../../cli/coverage";
import { planReportMarkdown } from "../../cli/planReport";
import { ReadOnlyClient } from "../../cli/readOnlyClient";
import { emulatorForTests } from "../support/emulator";
import { parseComment } from "../support/markdownDom";
import { previewAccount, reportWithShifts, stackExportOf } from "../support/previewAccount";

const root = path.join(__dirname, "..", "..");
const doc = fs.readFileSync(path.join(root, "docs", "review-tools.md"), "utf8");
const emulator = emulatorForTests();

/** The sample's window: `--from 2031-03-24T00:00:00Z`, 14 days (London's clocks go forward on 30 March). */
const SAMPLE_WINDOW = {
  start: Date.parse("2031-03-24T00:00:00Z"),
  end: Date.parse("2031-04-07T00:00:00Z"),
};

test("the sample plan report is the tool's output (--shifts) for the recorded preview", async () => {
  const sample = /<!-- sample-plan-report:start -->\n([\s\S]*?)<!-- sample-plan-report:end -->/.exec(
    doc,
  )?.[1];
  const digest = JSON.parse(
    fs.readFileSync(path.join(root, "test", "fixtures", "previewJson", "oncall-pr.json"), "utf8"),
  );
  const expected = planReportMarkdown(await reportWithShifts(digest, emulator(), SAMPLE_WINDOW));
  if (process.env.UPDATE_DOCS === "1") {
    const file = path.join(root, "docs", "review-tools.md");
    const at =
      doc.indexOf("<!-- sample-plan-report:start -->\n") + "<!-- sample-plan-report:start -->\n".length;
    fs.writeFileSync(
      file,
      doc.slice(0, at) + expected + doc.slice(doc.indexOf("<!-- sample-plan-report:end -->")),
    );
  }
  expect(sample).toBe(expected);
  // As GitHub reads it: the sections and every resource's heading, nothing but the report's own HTML.
  const comment = parseComment(sample!);
  expect(comment.problems).toEqual([]);
  expect(comment.headings.filter((h) => h.level <= 3).map((h) => h.text)).toEqual([
    "Plan for incident-oncall / dev",
    "Who gets paged, what opens an incident",
    "Shifts that change",
    "Who is paged first",
    "Changes",
  ]);
});

test("the sample coverage report is the tool's output for the stack before the pull request", async () => {
  const sample = /<!-- sample-coverage:start -->\n([\s\S]*?)<!-- sample-coverage:end -->/.exec(doc)?.[1];
  const digest = JSON.parse(
    fs.readFileSync(path.join(root, "test", "fixtures", "previewJson", "oncall-pr.json"), "utf8"),
  );
  const real = await previewAccount(digest, emulator(), { kinds: ["Schedule"] });
  const client = new ReadOnlyClient({ apiKey: emulator().apiKey, baseUrl: emulator().url });
  const week = { start: SAMPLE_WINDOW.start, end: SAMPLE_WINDOW.start + 7 * 86_400_000 };
  const expected = coverageMarkdown(await coverage(stackExportOf(real), { client, window: week }));
  if (process.env.UPDATE_DOCS === "1") {
    const file = path.join(root, "docs", "review-tools.md");
    const text = fs.readFileSync(file, "utf8");
    const at = text.indexOf("<!-- sample-coverage:start -->\n") + "<!-- sample-coverage:start -->\n".length;
    fs.writeFileSync(
      file,
      text.slice(0, at) + expected + text.slice(text.indexOf("<!-- sample-coverage:end -->")),
    );
  }
  expect(sample).toBe(expected);
  expect(parseComment(sample!).problems).toEqual([]);
});

test("the pull request's diff is the one the engine lane applies", () => {
  const diff = fs.readFileSync(path.join(root, "test", "fixtures", "reviewPr", "oncall.diff"), "utf8");
  expect(doc).toContain(`\`\`\`diff\n${diff}\`\`\``);
});
