/**
 * The review tools on the real engine's documents: `pulumi preview --json` of a real-looking pull
 * request against examples/oncall (test/support/reviewPr.ts), recorded as the fixture the fast lane
 * reads (test/cli/planReport.test.ts; UPDATE_FIXTURES=1 rewrites it, otherwise the CLI's output must
 * keep matching it), and `pulumi stack export` (secrets encrypted by the stack's passphrase) read by
 * the drift job after the pull request is applied.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type DriftReport, drift, outcomeOf } from "../../cli/drift";
import { planReport } from "../../cli/planReport";
import * as cli from "../../tools/pulumi/cli";
import { runCli } from "../support/cliRun";
import { cliDriver } from "../support/driver";
import { harnessFixture } from "../support/harnessFixture";
import { parseComment } from "../support/markdownDom";
import { namedIdDigest } from "../support/previewDigest";
import { ONCALL_OBJECTS, reviewPrProgram } from "../support/reviewPr";

const fixtures = path.join(__dirname, "..", "fixtures", "previewJson");
const program = reviewPrProgram();
afterAll(() => program.dispose());

describe("plan-report on the real engine's preview --json", () => {
  const h = harnessFixture(program.dir, cliDriver);

  test("a pull request against examples/oncall", async () => {
    const first = await cli.up({ ...h.options(), timeoutMs: 240_000 });
    expect(first.errors).toEqual([]);
    program.applyPr();
    const preview = await cli.preview({ ...h.options(), json: true });
    expect(preview.errors).toEqual([]);
    const digest = namedIdDigest(preview.json, h.emu.url);
    const fixture = path.join(fixtures, "oncall-pr.json");
    if (process.env.UPDATE_FIXTURES === "1" || !fs.existsSync(fixture)) {
      fs.writeFileSync(fixture, `${JSON.stringify(digest, null, 2)}\n`);
    }
    expect(digest).toEqual(JSON.parse(fs.readFileSync(fixture, "utf8")));
    // The unmasked document reads the same way (real ids named after the stack's resources).
    const live = planReport(preview.json);
    // With the stack's real export, the unchanged resources the route refers to are named too.
    const state = cli.exportedState(h.options(), { showSecrets: false });
    expect(planReport(preview.json, state).resources.find((r) => r.kind === "AlertRoute")?.summary).toContain(
      "Groups alerts: by AlertAttribute service within 900 s (15 min) → by AlertAttribute service within 600 s (10 min)",
    );
    const recorded = planReport(digest);
    expect(live.resources.map((r) => [r.op, r.kind, r.name, r.changes.map((c) => c.at)])).toEqual(
      recorded.resources.map((r) => [r.op, r.kind, r.name, r.changes.map((c) => c.at)]),
    );
    // "Shifts that change" (--shifts) on the real preview, computed by the account the stack lives
    // in: the primary rota's longer day covers the evenings' half hour; the replaced secondary rota is
    // a new schedule, computed here and said so. Through the bin's main, reading and previewing only.
    const mark = h.emu.requests.length;
    const shifts = await runCli(
      ["plan-report", "--shifts", "--from", "2031-03-24T00:00:00Z"],
      { INCIDENT_API_KEY: h.emu.apiKey, INCIDENT_BASE_URL: h.emu.url },
      false,
      JSON.stringify(preview.json),
    );
    expect(shifts.code).toBe(0);
    const comment = parseComment(shifts.out);
    expect(comment.problems).toEqual([]);
    expect(comment.headings.map((x) => x.text)).toEqual(
      expect.arrayContaining(["Shifts that change", "Who is paged first"]),
    );
    expect(comment.listItems).toContain(
      "covered now: Mon 24 Mar 17:30–18:00 (Europe/London, +00:00) (nobody was on call)",
    );
    expect(comment.listItems).toContain(
      "Mon 24 Mar 08:00–09:00 (America/Chicago, -05:00) · Secondary · ada@example.com → bob@example.com",
    );
    expect(
      comment.listItems.some((i) =>
        i.includes("not by the service (preview_entries previews only a schedule that exists"),
      ),
    ).toBe(true);
    expect(
      h.emu.requests
        .slice(mark)
        .map((r) => `${r.method} ${r.route}`)
        .sort(),
    ).toEqual(
      [
        "GET /v1/identity",
        "GET /v2/schedule_entries",
        "GET /v2/schedule_entries",
        "POST /v2/schedules/{id}/actions/preview_entries",
      ].sort(),
    );
  });

  test("drift on the real stack export after the pull request is applied", async () => {
    const applied = await cli.up({ ...h.options(), timeoutMs: 240_000 });
    expect(applied.errors).toEqual([]);
    const exported = cli.exportedState(h.options(), { showSecrets: false });
    const env = { INCIDENT_API_KEY: h.emu.apiKey, INCIDENT_BASE_URL: h.emu.url };
    const clean: DriftReport = await drift(exported, { env });
    expect(outcomeOf(clean)).toBe("clean");
    // The pull request drops the workflow.
    const kept = ONCALL_OBJECTS.filter((o) => o !== "Workflow announce-critical");
    expect(clean.objects.map((o) => `${o.kind} ${o.name}`).sort()).toEqual(kept);
    const route = clean.objects.find((o) => o.kind === "AlertRoute")!;
    const gone = await h.emu.call("DELETE", `/v3/alert_routes/${route.id}`);
    expect(gone.status).toBeLessThan(300);
    const after = await drift(exported, { env });
    expect(outcomeOf(after)).toBe("drift");
    expect(after.objects.filter((o) => o.status !== "in-sync" && o.status !== "normalisation-only")).toEqual([
      expect.objectContaining({ kind: "AlertRoute", name: "payments", status: "deleted" }),
    ]);
    expect((await cli.destroy(h.options())).errors).toEqual([]);
  });
});
