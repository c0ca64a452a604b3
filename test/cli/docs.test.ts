/**
 * docs/review-tools.md shows the plan report of the recorded pull request exactly as the tool prints
 * it today, and that pull request's diff as the fixture holds it: the documentation cannot drift
 * from the tool.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { planReport, planReportMarkdown } from "../../cli/planReport";
import { parseComment } from "../support/markdownDom";

const root = path.join(__dirname, "..", "..");
const doc = fs.readFileSync(path.join(root, "docs", "review-tools.md"), "utf8");

test("the sample plan report is the tool's output for the recorded preview", () => {
  const sample = /<!-- sample-plan-report:start -->\n([\s\S]*?)<!-- sample-plan-report:end -->/.exec(
    doc,
  )?.[1];
  const digest = JSON.parse(
    fs.readFileSync(path.join(root, "test", "fixtures", "previewJson", "oncall-pr.json"), "utf8"),
  );
  expect(sample).toBe(planReportMarkdown(planReport(digest)));
  // As GitHub reads it: the sections and every resource's heading, nothing but the report's own HTML.
  const comment = parseComment(sample!);
  expect(comment.problems).toEqual([]);
  expect(comment.headings.filter((h) => h.level <= 3).map((h) => h.text)).toEqual([
    "Plan for incident-oncall / dev",
    "Who gets paged, what opens an incident",
    "Changes",
  ]);
});

test("the pull request's diff is the one the engine lane applies", () => {
  const diff = fs.readFileSync(path.join(root, "test", "fixtures", "reviewPr", "oncall.diff"), "utf8");
  expect(doc).toContain(`\`\`\`diff\n${diff}\`\`\``);
});
