/**
 * `pulumi-incident plan-report` on `pulumi preview --json` documents recorded from the real engine
 * (test/fixtures/previewJson/, re-recorded and compared by test/engine/planReport.test.ts): a pull
 * request against examples/oncall (test/fixtures/reviewPr/oncall.diff) and a quickstart-like update.
 * Every nested change shows old → new, form-only differences never do, secrets and `__provider`
 * never print, unknown values read "(known after apply)", and the escalation path's before/after
 * flowcharts parse with Mermaid's own parser.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../cli/main";
import { type PlanReport, planReport, planReportMarkdown } from "../../cli/planReport";
import { providers } from "../../resources";
import { parseMermaid } from "../support/mermaid";

const fixtures = path.join(__dirname, "..", "fixtures", "previewJson");
const load = (name: string) => JSON.parse(fs.readFileSync(path.join(fixtures, name), "utf8"));
const SECRET_SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

const changesOf = (report: PlanReport, kind: string, name: string) => {
  const r = report.resources.find((x) => x.kind === kind && x.name === name);
  if (!r) throw new Error(`no ${kind} ${name} in the report`);
  return r;
};
const table = (report: PlanReport, kind: string, name: string) =>
  changesOf(report, kind, name).changes.map((c) => [c.at, c.kind, c.old, c.new]);

describe("plan-report on the real engine's preview of a PR against examples/oncall", () => {
  const digest = load("oncall-pr.json");
  const report = planReport(digest);
  const markdown = planReportMarkdown(report);

  test("every resource the plan changes, with its operation; replacements and deletions first", () => {
    expect(report.resources.map((r) => `${r.op} ${r.kind} ${r.name}`)).toEqual([
      "replace Schedule payments-secondary",
      "delete Workflow announce-critical",
      "update AlertRoute payments",
      "update EscalationPath payments",
      "update Schedule payments-primary",
    ]);
    expect(changesOf(report, "Schedule", "payments-secondary")).toMatchObject({
      replaceReasons: ["timezone"],
      deleteBeforeReplace: false,
    });
    expect(report.counts).toEqual({ delete: 1, replace: 1, same: 4, update: 3 });
    // The call-outs come before any detail.
    const callout = markdown.indexOf("> [!WARNING]");
    expect(callout).toBeGreaterThan(0);
    expect(callout).toBeLessThan(markdown.indexOf("### "));
    expect(markdown).toContain(
      "> **Replaced:** Schedule `payments-secondary` — `timezone` cannot change in place",
    );
    expect(markdown).toContain("> **Deleted:** Workflow `announce-critical`");
  });

  test("every nested change, old → new (the provider told the engine only `path`)", () => {
    expect(table(report, "EscalationPath", "payments")).toEqual([
      ["path[0].level.timeToAckSeconds", "changed", 300, 900],
      ["path[1].ifElse.conditions[0].paramBindings[0].arrayValue[1]", "added", undefined, { literal: "P2" }],
      [
        "path[1].ifElse.thenPath[0].level.targets[1]",
        "added",
        undefined,
        { id: "(known after apply)", scheduleMode: "currently_on_call", type: "schedule", urgency: "high" },
      ],
      // The secondary rota is replaced: its id is known only after apply.
      [
        "path[2].level.targets[0].id",
        "changed",
        "<id of Schedule payments-secondary>",
        "(known after apply)",
      ],
    ]);
    expect(table(report, "AlertRoute", "payments")).toEqual([
      [
        "alertSources[0].conditionGroups[0].conditions[0].paramBindings[0].arrayValue[1]",
        "added",
        undefined,
        { literal: "staging" },
      ],
      ["groupingConfig.windowSeconds", "changed", 900, 600],
    ]);
    expect(table(report, "Schedule", "payments-primary")).toEqual(
      [0, 1, 2, 3, 4].map((i) => [
        `rotations[0].versions[0].workingIntervals[${i}].endTime`,
        "changed",
        "17:30",
        "18:00",
      ]),
    );
    expect(table(report, "Schedule", "payments-secondary")).toEqual([
      [
        "rotations[0].versions[0].handoverStartAt",
        "changed",
        "2026-01-05T09:00:00-05:00",
        "2026-01-05T09:00:00-06:00",
      ],
      ["timezone", "changed", "America/New_York", "America/Chicago"],
    ]);
    expect(markdown).toContain("| `path[0].level.timeToAckSeconds` | `300` | `900` |");
    expect(markdown).toContain(
      '| `path[2].level.targets[0].id` | `"<id of Schedule payments-secondary>"` (Schedule payments-secondary) | `"(known after apply)"` |',
    );
  });

  test("who gets paged: per priority, the steps that change", () => {
    const paging = changesOf(report, "EscalationPath", "payments").summary!;
    const p2 = paging.find((l) => l.startsWith("Priority P2"))!;
    // P2 used to notify the channel at step 2; it now pages the lead and the (new) secondary rota.
    expect(p2).toContain(
      "step 2: node-1-else-0: notifies channel C0PAYMENTS (low urgency); ack within 300 s (5 min) → " +
        "node-1-then-0: pages user 01USERADA (high urgency) + Schedule payments-secondary (the replacement, id known after apply)",
    );
    expect(p2).toContain("ack within 300 s (5 min) → primary: pages Schedule payments-primary");
    expect(p2).toContain("ack within 900 s (15 min)");
    expect(paging.find((l) => l.startsWith("Priority P1"))).toContain(
      "step 2: node-1-then-0: pages user 01USERADA",
    );
    expect(paging.find((l) => l.startsWith("Any other priority"))).not.toContain("step 2");
    expect(changesOf(report, "AlertRoute", "payments").summary).toEqual([
      "Alerts it takes: from <id 1> when alert.attributes.<id 2> one of production → from <id 1> when alert.attributes.<id 2> one of production, staging",
      "Groups alerts: by alert.attributes.<id 3> within 900 s (15 min) → by alert.attributes.<id 3> within 600 s (10 min)",
    ]);
    expect(changesOf(report, "Schedule", "payments-secondary").summary).toEqual([
      "Time zone: America/New_York → America/Chicago",
      "Hand-overs: secondary: every 1 daily from 2026-01-05T09:00:00-05:00 → secondary: every 1 daily from 2026-01-05T09:00:00-06:00",
    ]);
    expect(markdown.indexOf("### Who gets paged, what opens an incident")).toBeLessThan(
      markdown.indexOf("### Changes"),
    );
  });

  test("the escalation path before and after as Mermaid flowcharts that parse, changed nodes marked", () => {
    const { diagrams } = changesOf(report, "EscalationPath", "payments");
    expect(diagrams?.before).toBeDefined();
    expect(diagrams?.after).toBeDefined();
    expect(parseMermaid([diagrams!.before!, diagrams!.after!])).toEqual([
      { ok: true, type: "flowchart-v2" },
      { ok: true, type: "flowchart-v2" },
    ]);
    expect(diagrams!.after).toContain("class n_primary,n_node_1,n_node_1_then_0,n_node_2 changed");
    expect(diagrams!.after).toContain(
      'n_node_1{"Branch node-1<br>if escalation.priority one of P1, P2<br>(changed)"}',
    );
    expect(diagrams!.before).toContain(
      'n_node_1{"Branch node-1<br>if escalation.priority one of P1<br>(changed)"}',
    );
    // The unchanged channel branch is not marked.
    expect(diagrams!.after).toMatch(
      /n_node_1_else_0\["Notify node-1-else-0<br>notifies channel C0PAYMENTS[^"]*"\]/,
    );
    expect(diagrams!.after).not.toMatch(/n_node_1_else_0\[[^\]]*\(changed\)/);
    expect(markdown.match(/```mermaid/g)).toHaveLength(2);
    // A diagram that does not parse is caught (the check can fail).
    expect(parseMermaid(['flowchart TD\n  a["x"] --> b["unclosed)'])[0]!.ok).toBe(false);
  });

  test("with the stack's state (--state), unchanged resources are named too", () => {
    const resource = (type: string, name: string, id: string) => ({
      urn: `urn:pulumi:dev::incident-oncall::pulumi-nodejs:dynamic/incident:${type}::${name}`,
      type: `pulumi-nodejs:dynamic/incident:${type}`,
      id,
      custom: true,
    });
    const state = {
      version: 3,
      deployment: {
        resources: [
          resource("AlertSource", "payments-http", "<id 1>"),
          resource("AlertAttribute", "environment", "<id 2>"),
          resource("AlertAttribute", "service", "<id 3>"),
        ],
      },
    };
    expect(changesOf(planReport(digest, state), "AlertRoute", "payments").summary).toEqual([
      "Alerts it takes: from AlertSource payments-http when AlertAttribute environment one of production → from AlertSource payments-http when AlertAttribute environment one of production, staging",
      "Groups alerts: by AlertAttribute service within 900 s (15 min) → by AlertAttribute service within 600 s (10 min)",
    ]);
  });

  test("--max-length: a report that would not fit a comment is shortened, saying so; call-outs stay", () => {
    expect(planReportMarkdown(report, { maxLength: markdown.length })).toBe(markdown);
    const short = planReportMarkdown(report, { maxLength: 6000 });
    expect(short.length).toBeLessThanOrEqual(6000);
    expect(short).not.toContain("```mermaid");
    expect(short).toContain("_Shortened to fit: escalation diagrams left out");
    expect(short).toContain("| `path[0].level.timeToAckSeconds` | `300` | `900` |");
    const shorter = planReportMarkdown(report, { maxLength: 3500 });
    expect(shorter.length).toBeLessThanOrEqual(3500);
    expect(shorter).toContain("> **Replaced:** Schedule `payments-secondary`");
    expect(shorter).toMatch(/_…and \d+ more resources? left out \(see the JSON report\)\._\n$/);
  });

  test("never prints __provider, secrets or the engine's unknown sentinel", () => {
    const json = JSON.stringify(report);
    for (const text of [markdown, json]) {
      expect(text).not.toContain("__provider");
      expect(text).not.toContain("serialized provider");
      expect(text).not.toContain("04da6b54-80e4-46f7-96ec-b56ff0331ba9");
    }
  });
});

describe("plan-report: normalisation, secrets, other resources", () => {
  const base = load("oncall-pr.json");
  const escalationStep = () =>
    structuredClone(base.steps.find((s: any) => s.urn.endsWith("EscalationPath::payments")));

  test("a form-only difference never shows: explicit generated ids, team ids in another order", () => {
    const step = escalationStep();
    const olds = step.oldState.inputs;
    const news = structuredClone(olds);
    news.path[1].id = "node-1"; // the id the provider derives for that position anyway
    olds.teamIds = ["T2", "T1"];
    news.teamIds = ["T1", "T2"];
    news.path[0].level.timeToAckSeconds = 420; // the one real change
    step.newState.inputs = news;
    // The provider's diff reads the stored outputs: they hold the inputs as stored.
    step.oldState.outputs = { ...step.oldState.outputs, ...olds };
    const report = planReport({ steps: [step] });
    expect(report.resources[0]!.changes.map((c) => [c.at, c.old, c.new])).toEqual([
      ["path[0].level.timeToAckSeconds", 300, 420],
    ]);

    news.path[0].level.timeToAckSeconds = 300;
    const formOnly = planReport({ steps: [step] });
    expect(formOnly.resources[0]!.changes).toEqual([]);
    expect(planReportMarkdown(formOnly)).toContain("No input changes after normalisation.");
  });

  test("branches on other conditions: one line per changed, added or removed node; all three marks parse", () => {
    const step = escalationStep();
    const olds = step.oldState.inputs;
    const news = structuredClone(olds);
    for (const side of [olds, news]) {
      side.path[1].ifElse.conditions = [
        {
          subject: "alert.title",
          operation: "contains",
          paramBindings: [{ value: { literal: 'DB "primary" <down>' } }],
        },
      ];
    }
    news.path[1].ifElse.conditions[0].paramBindings[0].value.literal = "DB";
    news.path.splice(3, 1); // the repeat goes
    news.path.push({ id: "lead", level: { targets: [{ type: "user", id: "01USERBOB", urgency: "low" }] } });
    step.newState.inputs = news;
    step.oldState.outputs = { ...step.oldState.outputs, ...olds };
    const [change] = planReport({ steps: [step] }).resources;
    expect(change!.summary).toEqual([
      'Node node-1 — before: if alert.title contains DB "primary" <down>; after: if alert.title contains DB',
      "New node lead: pages user 01USERBOB (low urgency)",
      "Node node-3 removed (it repeats from primary (2 times))",
    ]);
    expect(change!.diagrams!.before).toContain("class n_node_3 removed");
    expect(change!.diagrams!.after).toContain("class n_lead added");
    // Quotes and angle brackets in labels are entity codes; both diagrams parse.
    expect(change!.diagrams!.before).toContain("contains DB #quot;primary#quot; #lt;down#gt;");
    expect(parseMermaid([change!.diagrams!.before!, change!.diagrams!.after!]).map((r) => r.ok)).toEqual([
      true,
      true,
    ]);
  });

  test("secrets stay masked: a secret input (plaintext in a --show-secrets preview), a secret output", () => {
    const source = structuredClone(base.steps.find((s: any) => s.urn.endsWith("EscalationPath::payments")));
    source.urn = source.urn.replace("EscalationPath::payments", "AlertSource::payments-http");
    const type = "pulumi-nodejs:dynamic/incident:AlertSource";
    source.oldState = {
      type,
      id: "src-1",
      inputs: { name: "Payments monitoring", sourceType: "http", template: { title: "T", description: "D" } },
      outputs: {
        name: "Payments monitoring",
        sourceType: "http",
        template: { title: "T", description: "D" },
        secretToken: "tok-PLAINTEXT-OLD",
        __schema: 1,
      },
    };
    source.newState = {
      type,
      inputs: {
        name: "Payments monitoring",
        sourceType: "http",
        template: {
          title: { ...SECRET_SIG, plaintext: JSON.stringify("Secret title PLAINTEXT") },
          description: "[secret]",
        },
      },
    };
    const report = planReport({ steps: [source] });
    const text = `${planReportMarkdown(report)}${JSON.stringify(report)}`;
    expect(text).not.toMatch(/PLAINTEXT/);
    // A path secret on either side is masked on both: the old value of what became a secret is not shown.
    expect(report.resources[0]!.changes.map((c) => [c.at, c.old, c.new])).toEqual([
      ["template.description", "[secret]", "[secret]"],
      ["template.title", "[secret]", "[secret]"],
    ]);
  });

  test("the quickstart-like update recorded by the CLI test: one nested change", () => {
    const report = planReport(load("update-in-place.json"));
    expect(
      report.resources.map((r) => [r.op, r.kind, r.name, r.changes.map((c) => [c.at, c.old, c.new])]),
    ).toEqual([
      ["update", "CustomField", "region", [["description", "Where customers are affected", "Edited"]]],
    ]);
  });
});

describe("the pulumi-incident bin: plan-report", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plan-report-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const io = (stdin = "") => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      io: {
        stdin: async () => stdin,
        stdout: (t: string) => void out.push(t),
        stderr: Object.assign(new (require("node:stream").PassThrough)(), {
          write: (t: string) => err.push(t) > 0,
        }),
        env: {},
      },
    };
  };

  test("reads stdin or a file, writes Markdown and, on request, JSON", async () => {
    const file = path.join(fixtures, "oncall-pr.json");
    const fromStdin = io(fs.readFileSync(file, "utf8"));
    expect(await main(["plan-report"], fromStdin.io)).toBe(0);
    expect(fromStdin.out.join("")).toBe(planReportMarkdown(planReport(load("oncall-pr.json"))));
    const json = path.join(dir, "report.json");
    const fromFile = io();
    expect(await main(["plan-report", file, "--json", json], fromFile.io)).toBe(0);
    expect(JSON.parse(fs.readFileSync(json, "utf8"))).toEqual(
      JSON.parse(JSON.stringify(planReport(load("oncall-pr.json")))),
    );
  });

  test("bad input: exit 1 and a message saying what was expected", async () => {
    const notJson = io("<html>");
    expect(await main(["plan-report"], notJson.io)).toBe(1);
    expect(notJson.err.join("")).toMatch(
      /stdin is not JSON \(expected the output of `pulumi preview --json`\)/,
    );
    const noSteps = io("{}");
    expect(await main(["plan-report"], noSteps.io)).toBe(1);
    expect(noSteps.err.join("")).toMatch(/no `steps` list/);
    const unknown = io();
    expect(await main(["plan-reprot"], unknown.io)).toBe(1);
    expect(unknown.err.join("")).toMatch(/unknown command "plan-reprot"/);
  });
});

describe("plan-report: every kind the package registers", () => {
  /** Pairs of values tried in turn, for the kind's first input that takes both. */
  const PAIRS: [unknown, unknown][] = [
    ["Before", "After"],
    [false, true],
    [1, 2],
  ];
  test.each(
    Object.keys(providers),
  )("%s: an update's nested change, read through the kind's own spec", (kind) => {
    const type = `pulumi-nodejs:dynamic/incident:${kind}`;
    const urn = `urn:pulumi:dev::p::${type}::thing`;
    const shape = providers[kind]!.spec.inputs.shape as Record<
      string,
      { safeParse(v: unknown): { success: boolean } }
    >;
    const [key, [before, after]] = Object.keys(shape)
      .filter((k) => k !== "adoptId")
      .flatMap((k) =>
        PAIRS.filter((p) => p.every((v) => shape[k]!.safeParse(v).success)).map((p) => [k, p] as const),
      )[0]!;
    const report = planReport({
      steps: [
        {
          op: "update",
          urn,
          oldState: { type, id: "old-id", inputs: { __provider: "serialized", [key]: before } },
          newState: { type, inputs: { __provider: "serialized", [key]: after } },
        },
      ],
    });
    expect(report.resources).toEqual([
      expect.objectContaining({
        kind,
        op: "update",
        changes: [{ path: [key], at: key, kind: "changed", old: before, new: after }],
      }),
    ]);
    expect(planReportMarkdown(report)).not.toContain("serialized");
  });
});
