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
import fc from "fast-check";
import { main } from "../../cli/main";
import { oneLine } from "../../cli/markdown";
import {
  PlanInputError,
  type PlanReport,
  planReport,
  planReportMarkdown,
  unnamedTargets,
} from "../../cli/planReport";
import type { Props } from "../../provider/spec";
import { providers } from "../../resources";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import { hostileText } from "../support/hostileText";
import { parseComment } from "../support/markdownDom";
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

  test("who gets paged: per priority, only what changes in each step; users by e-mail", () => {
    const path = changesOf(report, "EscalationPath", "payments");
    const secondary =
      "Schedule payments-secondary (the replacement, id known after apply; currently on call, high urgency)";
    const step1 = "step 1: ack within 300 s (5 min) → 900 s (15 min)";
    const step3 = "step 3: Schedule payments-secondary → the replacement, id known after apply";
    expect(path.paging).toEqual([
      { who: "Priority P1", steps: [step1, `step 2: + pages ${secondary}`, step3] },
      {
        who: "Priority P2",
        // P2 used to notify the channel at step 2; it now pages the lead (named by e-mail, as the
        // program names her: the path's stored `currentResponders`) and the (new) secondary rota.
        steps: [
          step1,
          `step 2: + pages ada@example.com (high urgency), + pages ${secondary}, − notifies channel C0PAYMENTS (low urgency)`,
          step3,
        ],
      },
      { who: "Any other priority", steps: [step1, step3] },
    ]);
    expect(path.summary).toEqual(path.paging!.map((p) => `${p.who} — ${p.steps.join("; ")}`));
    expect(report.names["01USERADA"]).toBe("ada@example.com");
    expect(changesOf(report, "AlertRoute", "payments").summary).toEqual([
      "Alerts it takes: from <id 1> when alert.attributes.<id 2> one of production → from <id 1> when alert.attributes.<id 2> one of production, staging",
      "Groups alerts: by alert.attributes.<id 3> within 900 s (15 min) → by alert.attributes.<id 3> within 600 s (10 min)",
    ]);
    expect(changesOf(report, "Schedule", "payments-secondary").summary).toEqual([
      "Time zone: America/New_York → America/Chicago",
      "Hand-overs: secondary: every 1 daily from 2026-01-05T09:00:00-05:00 → secondary: every 1 daily from 2026-01-05T09:00:00-06:00",
    ]);
    // In the comment: a list per group of priorities, one entry per step.
    const comment = parseComment(markdown);
    expect(comment.listItems).toEqual(
      expect.arrayContaining([
        "Priority P2:",
        `step 2: + pages ada@example.com (high urgency), + pages ${secondary}, − notifies channel C0PAYMENTS (low urgency)`,
      ]),
    );
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

  /** A step of `kind` made from the escalation path's: `olds` → `news` (undefined: a create / a delete). */
  const stepOfKind = (kind: string, name: string, op: string, olds?: Props, news?: Props) => {
    const step = escalationStep();
    const urn = `urn:pulumi:dev::incident-oncall::pulumi-nodejs:dynamic/incident:${kind}::${name}`;
    const type = `pulumi-nodejs:dynamic/incident:${kind}`;
    step.urn = urn;
    step.op = op;
    step.oldState = olds && { ...step.oldState, urn, type, inputs: olds, outputs: { ...olds, __schema: 1 } };
    step.newState = news && { ...step.newState, urn, type, inputs: news };
    if (!olds) delete step.oldState;
    if (!news) delete step.newState;
    return step;
  };

  test("schedule overrides: who covers, when and where, before and after; a form-only difference never shows", () => {
    const cover = {
      scheduleId: "01SCHED",
      rotationId: "primary",
      layerId: "01LAYER",
      user: { email: "ada@example.com" },
      startAt: "2031-03-01T09:00:00+01:00",
      endAt: "2031-03-02T09:00:00+01:00",
    };
    const moved = { ...cover, endAt: "2031-03-03T09:00:00+01:00" };
    const report = planReport({ steps: [stepOfKind("ScheduleOverride", "cover", "update", cover, moved)] });
    expect(report.resources[0]!.summary).toEqual([
      "When: from 2031-03-01T09:00:00+01:00 to 2031-03-02T09:00:00+01:00 → from 2031-03-01T09:00:00+01:00 to 2031-03-03T09:00:00+01:00",
    ]);
    // The same instants in UTC, the e-mail in another case: no change.
    const same = { ...cover, user: { email: "ADA@example.com" }, startAt: "2031-03-01T08:00:00Z" };
    expect(
      planReport({ steps: [stepOfKind("ScheduleOverride", "cover", "update", cover, same)] }).resources[0]!
        .summary,
    ).toBeUndefined();
    const created = planReport({
      steps: [stepOfKind("ScheduleOverride", "cover", "create", undefined, cover)],
    });
    expect(created.resources[0]!.summary).toEqual([
      "Who covers: ada@example.com",
      "When: from 2031-03-01T09:00:00+01:00 to 2031-03-02T09:00:00+01:00",
      "On: schedule 01SCHED, rotation primary, layer 01LAYER",
    ]);
  });

  test("call routes: what a call pages, who may call; a route taken out of the stack stays", () => {
    const route = {
      callRouteId: "01ROUTE",
      name: "Hotline",
      customLanguage: "en-GB",
      responderCallerId: "route_number",
      useCallerAllowlist: false,
      path: [{ level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }] } }],
    };
    const changed = {
      ...route,
      useCallerAllowlist: true,
      path: [...route.path, { voicemail: { greetingText: "Leave a message" } }],
    };
    const report = planReport({ steps: [stepOfKind("CallRoute", "hotline", "update", route, changed)] });
    expect(report.resources[0]!.summary).toEqual([
      "A call pages: user 01USERADA (high urgency) → user 01USERADA (high urgency), then voicemail",
      "Callers: anyone → allowlisted only",
    ]);
    const kept = planReport({
      steps: [stepOfKind("CallRoute", "hotline", "update", route, { ...route, path: undefined })],
    });
    expect(kept.resources[0]!.summary).toEqual([
      "A call pages: user 01USERADA (high urgency) → as the route has it (its menu or its path)",
    ]);
    // A menu replaces the path; allowlisted callers are named.
    const byMenu = {
      ...route,
      path: undefined,
      useCallerAllowlist: true,
      allowedCallers: [{ phoneNumber: "+15551234567", name: "Regulator" }, { phoneNumber: "+15550000000" }],
      options: [
        { digit: "1", prompt: "Outages", path: route.path },
        { digit: "2", prompt: "Messages", path: [{ voicemail: { greetingText: "Leave a message" } }] },
      ],
    };
    const menu = planReport({ steps: [stepOfKind("CallRoute", "hotline", "update", route, byMenu)] });
    expect(menu.resources[0]!.summary).toEqual([
      "A call pages: user 01USERADA (high urgency) → a menu: 1 (Outages): user 01USERADA (high urgency); 2 (Messages): voicemail",
      "Callers: anyone → allowlisted only: +15551234567 (Regulator), +15550000000",
    ]);
    const removed = planReport({ steps: [stepOfKind("CallRoute", "hotline", "delete", route, undefined)] });
    expect(removed.resources[0]!.summary).toEqual([
      "Taken out of the stack: the call route stays, put back to what it held before the stack took it over",
    ]);
  });

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
      "New node lead — pages user 01USERBOB (low urgency)",
      "Node node-3 removed — it repeats from primary (2 times)",
    ]);
    expect(change!.diagrams!.before).toContain("class n_node_3 removed");
    expect(change!.diagrams!.after).toContain("class n_lead added");
    // Quotes and angle brackets in labels are entity codes; both diagrams parse.
    expect(change!.diagrams!.before).toContain("contains DB #34;primary#34; #60;down#62;");
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

describe("plan-report --resolve: users and schedules named from the account (read-only)", () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ now: Date.now });
  });
  afterAll(() => emu.dispose());

  /** The oncall PR with its first user target and its first schedule target swapped for `ids`. */
  const retargeted = (ids: { user: string; schedule: string }) => {
    const digest = load("oncall-pr.json");
    const swapped = { user: false, schedule: false };
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") {
        const o = v as Record<string, unknown>;
        if ((o.type === "user" || o.type === "schedule") && typeof o.id === "string" && !swapped[o.type]) {
          swapped[o.type] = true;
          o.id = ids[o.type];
        }
        Object.values(o).forEach(walk);
      }
    };
    for (const step of digest.steps) if (/EscalationPath/.test(step.urn)) walk(step.newState?.inputs);
    expect(swapped).toEqual({ user: true, schedule: true });
    return JSON.stringify(digest);
  };
  const run = async (stdin: string, args: string[], env: NodeJS.ProcessEnv) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(["plan-report", ...args], {
      stdin: async () => stdin,
      stdout: (t: string) => void out.push(t),
      stderr: Object.assign(new (require("node:stream").PassThrough)(), {
        write: (t: string) => err.push(t) > 0,
      }),
      env,
    });
    return { code, out: out.join(""), err: err.join("") };
  };

  test("names a user by e-mail and a schedule by name; the plan's own names need no request", async () => {
    const schedule = await emu.ok("POST", "/v2/schedules", {
      body: {
        schedule: {
          name: "Made in the <b>dashboard</b>",
          timezone: "Europe/London",
          config: { rotations: [] },
        },
      },
    });
    const input = retargeted({ user: "01USERCAT", schedule: schedule.schedule.id });
    expect(unnamedTargets(JSON.parse(input))).toEqual(
      [
        { type: "user", id: "01USERCAT" },
        { type: "schedule", id: schedule.schedule.id },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    const env = { INCIDENT_API_KEY: emu.apiKey, INCIDENT_BASE_URL: emu.url };
    const plain = await run(input, [], env);
    expect(plain.out).toContain("user 01USERCAT");

    const mark = emu.requests.length;
    const resolved = await run(input, ["--resolve"], env);
    expect(resolved).toMatchObject({ code: 0, err: "" });
    // The account's text is user text too: escaped like the rest.
    const html = parseComment(resolved.out);
    const paging = html.listItems.filter((item) => /^step \d/.test(item));
    expect(paging.filter((item) => item.includes("+ pages cat@example.com"))).toHaveLength(2);
    // What the change tables show is the inputs themselves (ids); the bullets name people.
    expect(paging.filter((item) => item.includes("01USERCAT"))).toEqual([]);
    expect(html.problems).toEqual([]);
    expect(html.text).toContain("Made in the <b>dashboard</b>");
    expect(
      emu.requests
        .slice(mark)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(
      ["GET /v1/identity", "GET /v2/users/01USERCAT", `GET /v2/schedules/${schedule.schedule.id}`].sort(),
    );
  });

  test("an id the account does not hold stays an id, said on stderr; a wrong key is exit 1, nothing written", async () => {
    const input = retargeted({ user: "01NOSUCHUSER", schedule: "01NOSUCHSCHEDULE" });
    const env = { INCIDENT_API_KEY: emu.apiKey, INCIDENT_BASE_URL: emu.url };
    const missing = await run(input, ["--resolve"], env);
    expect(missing.code).toBe(0);
    expect(missing.out).toContain("user 01NOSUCHUSER");
    expect(missing.err).toContain("--resolve: no user 01NOSUCHUSER in the account");
    expect(missing.err).toContain("--resolve: no schedule 01NOSUCHSCHEDULE in the account");

    const wrongKey = await run(input, ["--resolve"], { ...env, INCIDENT_API_KEY: "not-a-key" });
    expect(wrongKey).toMatchObject({ code: 1, out: "" });
    expect(wrongKey.err).toMatch(/--resolve: the API at .* did not answer as the incident API/);
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

// ---------------------------------------------------------------------------------- issue 22

const ONCALL = load("oncall-pr.json");
const stepOf = (doc: any, suffix: string) => doc.steps.find((s: any) => s.urn.endsWith(suffix));

/** `pulumi-incident …` in process: exit code, stdout, stderr. */
async function bin(args: string[], stdin = "") {
  let out = "";
  let err = "";
  const code = await main(args, {
    stdin: async () => stdin,
    stdout: (t: string) => {
      out += t;
    },
    stderr: Object.assign(new (require("node:stream").PassThrough)(), {
      write: (t: string) => {
        err += t;
        return true;
      },
    }),
    env: {},
  });
  return { code, out, err };
}

/** How user text reads once rendered: on one line, invisible characters shown, spaces collapsed. */
const reads = (s: string) => oneLine(s).replace(/\s+/g, " ").trim();

const SYMBOLS: Record<string, string> = {
  replace: "±",
  delete: "−",
  create: "+",
  update: "~",
  import: "=",
  read: ">",
};

/**
 * The structure a report must have, read from the DOM of its Markdown: the title, the sections,
 * one heading per resource, each change list as a table whose rows name the changed properties,
 * each summary line as a list entry, the diagrams as Mermaid blocks exactly as drawn; and nothing
 * GitHub would take for HTML, a comment, a link or a mention.
 */
function expectWellFormed(report: PlanReport, markdown: string): void {
  const comment = parseComment(markdown);
  expect(comment.problems).toEqual([]);
  const where = [report.project, report.stack].filter(Boolean);
  const title = { complete: "Plan", failed: "Preview failed", incomplete: "Incomplete preview" }[
    report.status
  ];
  const sections = [
    ...(report.status === "failed" && report.diagnostics.length
      ? [report.diagnostics.some((d) => d.severity === "error") ? "Errors and warnings" : "Warnings"]
      : []),
    ...(report.resources.some((r) => r.summary?.length) ? ["Who gets paged, what opens an incident"] : []),
    ...(report.resources.length ? ["Changes"] : []),
    ...(report.status !== "failed" && report.diagnostics.length
      ? [report.diagnostics.some((d) => d.severity === "error") ? "Errors and warnings" : "Warnings"]
      : []),
  ];
  expect(comment.headings).toEqual([
    { level: 2, text: reads(`${title}${where.length ? ` for ${where.join(" / ")}` : ""}`) },
    ...sections
      .slice(0, sections.indexOf("Changes") + 1 || sections.length)
      .map((text) => ({ level: 3, text })),
    ...report.resources.map((r) => ({
      level: 4,
      text: reads(
        `${SYMBOLS[r.op]} ${r.kind} ${r.name} — ${r.op}${r.replaceReasons?.length ? ` (${r.replaceReasons.map((x) => x || " ").join(", ")})` : ""}`,
      ),
    })),
    ...(sections.includes("Changes")
      ? sections.slice(sections.indexOf("Changes") + 1).map((text) => ({ level: 3, text }))
      : []),
  ]);
  const tabled = report.resources.filter((r) => r.op !== "delete" && r.changes.length);
  expect(comment.tables.map((t) => t.slice(1).map((row) => row[0]))).toEqual(
    tabled.map((r) => r.changes.map((c) => reads(c.at || "(all)"))),
  );
  for (const t of comment.tables) for (const row of t) expect(row).toHaveLength(3);
  for (const r of report.resources) {
    for (const p of r.paging ?? []) {
      expect(comment.listItems).toContain(reads(`${p.who}:`));
      for (const s of p.steps) expect(comment.listItems).toContain(reads(s));
    }
    const paged = new Set(r.paging?.map((p) => `${p.who} — ${p.steps.join("; ")}`));
    for (const line of r.summary ?? [])
      if (!paged.has(line)) expect(comment.listItems).toContain(reads(line));
  }
  const charts = report.resources.flatMap((r) =>
    [r.diagrams?.before, r.diagrams?.after].filter((c): c is string => !!c),
  );
  expect(comment.fences.filter((f) => f.info === "mermaid").map((f) => f.content)).toEqual(
    charts.map((c) => `${c}\n`),
  );
  for (const c of charts) {
    // No directive (`%%{…}%%`), no comment, no front matter: nothing but the drawing.
    expect(c).not.toContain("%%");
    expect(c.startsWith("flowchart TD\n")).toBe(true);
  }
}

describe("plan-report under hostile user text (issue 22)", () => {
  /** Strings for every place user text reaches the report from. */
  const hostile = fc.record({
    project: hostileText,
    stack: hostileText,
    deleted: hostileText,
    description: hostileText,
    nodeId: hostileText,
    priority: hostileText,
    userId: hostileText,
    email: hostileText,
    routeLiteral: hostileText,
    timezone: hostileText,
    reason: hostileText,
    otherType: hostileText,
    otherName: hostileText,
    key: hostileText,
    value: hostileText,
    message: hostileText,
    message2: hostileText,
    error: fc.boolean(),
  });
  type Hostile = typeof hostile extends fc.Arbitrary<infer T> ? T : never;

  /** The recorded pull request with user text in names, descriptions, literals, ids and messages. */
  function hostileDigest(h: Hostile): any {
    const noColon = (s: string) => s.replace(/[:$]/g, "") || "x";
    const inJson = (s: string) => JSON.stringify(s).slice(1, -1);
    const doc = JSON.parse(
      JSON.stringify(ONCALL)
        .split("urn:pulumi:dev::incident-oncall::")
        .join(`urn:pulumi:${inJson(noColon(h.stack))}::${inJson(noColon(h.project))}::`)
        .split("Workflow::announce-critical")
        .join(`Workflow::${inJson(h.deleted)}`),
    );
    const path = stepOf(doc, "EscalationPath::payments");
    const news = path.newState.inputs;
    news.name = h.description;
    news.path[0].id = h.nodeId;
    news.path[3].repeat.toNode = h.nodeId;
    news.path[1].ifElse.conditions[0].paramBindings[0].arrayValue[1].literal = h.priority;
    news.path[1].ifElse.thenPath[0].level.targets[0].id = h.userId;
    path.oldState.outputs.currentResponders.push({
      id: h.userId,
      name: h.description,
      email: `${h.email.replace(/[\s@]/g, "") || "x"}@${h.email.replace(/[\s@]/g, "") || "x"}`,
    });
    const route = stepOf(doc, "AlertRoute::payments");
    route.newState.inputs.alertSources[0].conditionGroups[0].conditions[0].paramBindings[0].arrayValue[1].literal =
      h.routeLiteral;
    stepOf(doc, "Schedule::payments-primary").newState.inputs.timezone = h.timezone;
    stepOf(doc, "Schedule::payments-secondary").replaceReasons.push(h.reason);
    const type = `custom:index:${noColon(h.otherType)}`;
    const urn = `${route.urn.split("::").slice(0, 2).join("::")}::${type}::${h.otherName}`;
    doc.steps.push({
      op: "update",
      urn,
      oldState: {
        urn,
        type,
        id: h.value,
        inputs: { [h.key]: h.value, long: { items: [h.value, "x".repeat(130)] } },
      },
      newState: {
        urn,
        type,
        inputs: { [h.key]: h.message, long: { items: [h.value, "y".repeat(130), h.key] } },
      },
    });
    doc.diagnostics = [
      { urn: path.urn, severity: h.error ? "error" : "warning", message: `${h.message}\n${h.message2}` },
      { severity: "warning", message: h.message2 },
    ];
    return doc;
  }

  const drawn: string[] = [];

  test("every section keeps its structure: headings, tables, lists and diagrams as meant; no HTML, comment, link or mention from user text", () => {
    fc.assert(
      fc.property(hostile, (h) => {
        const report = planReport(hostileDigest(h));
        const markdown = planReportMarkdown(report);
        expectWellFormed(report, markdown);
        for (const r of report.resources)
          drawn.push(...[r.diagrams?.before, r.diagrams?.after].filter((c): c is string => !!c));
        // The user text is there, shown, not dropped: the error message's first line, the deleted resource.
        const comment = parseComment(markdown);
        expect(comment.text).toContain(reads(h.message.split(/\r\n|\r|\n/)[0]!).slice(0, 20));
        expect(comment.headings.map((x) => x.text)).toContain(reads(`− Workflow ${h.deleted} — delete`));
        // Shortened to fit a comment: still well-formed, the title first, within the length.
        for (const max of [1200, 4000, 9000]) {
          const short = planReportMarkdown(report, { maxLength: max });
          expect(short.length).toBeLessThanOrEqual(max);
          const parsed = parseComment(short);
          expect(parsed.problems).toEqual([]);
          expect(parsed.headings[0]).toEqual(expect.objectContaining({ level: 2 }));
          if (short !== markdown) expect(parsed.fences.map((f) => f.info)).toEqual([]);
        }
      }),
      { numRuns: 30 },
    );
  });

  test("the diagrams drawn from that text parse with Mermaid's own parser", () => {
    expect(drawn.length).toBeGreaterThan(30);
    const results = parseMermaid(drawn);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });

  test("a literal that opens an HTML comment hides nothing after it (the case reported)", () => {
    const doc = structuredClone(ONCALL);
    stepOf(
      doc,
      "AlertRoute::payments",
    ).newState.inputs.alertSources[0].conditionGroups[0].conditions[0].paramBindings[0].arrayValue[1].literal =
      "staging <!-- <script>x</script> @octocat ```";
    const report = planReport(doc);
    const markdown = planReportMarkdown(report);
    expectWellFormed(report, markdown);
    expect(parseComment(markdown).headings.filter((h) => h.level === 4)).toHaveLength(5);
  });
});

describe("a failed or incomplete preview (issue 22)", () => {
  const STACK = "urn:pulumi:dev::incident-oncall::pulumi:pulumi:Stack::incident-oncall-dev";
  const errors = [
    {
      urn: STACK,
      severity: "error",
      message:
        "<{%reset%}>Running program '/work/oncall' failed with an unhandled exception:\nLookupError: getUser: no user with e-mail \"nobody@example.com\"<{%reset%}>\n",
    },
  ];

  test("a failed preview is headed so, its errors first, and plan-report exits 2", async () => {
    // What the engine planned before the program failed: the route's update only.
    const doc = { ...structuredClone(ONCALL), diagnostics: errors, changeSummary: { same: 2, update: 1 } };
    doc.steps = doc.steps.filter((s: any) => s.urn.endsWith("AlertRoute::payments") || s.urn === STACK);
    const report = planReport(doc);
    expect(report).toMatchObject({ status: "failed", statusReason: "the engine reported 1 error" });
    const markdown = planReportMarkdown(report);
    expectWellFormed(report, markdown);
    const comment = parseComment(markdown);
    expect(comment.headings.map((h) => h.text).slice(0, 3)).toEqual([
      "Preview failed for incident-oncall / dev",
      "Errors and warnings",
      "Who gets paged, what opens an incident",
    ]);
    expect(markdown).toMatch(
      /^## Preview failed for `incident-oncall` \/ `dev`\n\n> \[!CAUTION\]\n> \*\*`pulumi preview` failed\*\*/,
    );
    expect(markdown).not.toMatch(/No changes/);
    expect(markdown).toContain("**Planned before the failure: 1 to update** · 2 unchanged");
    expect(comment.listItems[0]).toBe(
      "error incident-oncall-dev: Running program '/work/oncall' failed with an unhandled exception: (whole message below)",
    );
    expect(comment.details.map((d) => d.summary)).toContain("Whole messages (1)");

    const json = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "plan-failed-")), "plan.json");
    const run = await bin(["plan-report", "--json", json], JSON.stringify(doc));
    expect(run.code).toBe(2);
    expect(run.out).toBe(markdown);
    expect(run.err).toBe(
      "pulumi-incident plan-report: the preview failed (the engine reported 1 error): the report says so; exit 2\n",
    );
    expect(JSON.parse(fs.readFileSync(json, "utf8"))).toMatchObject({ status: "failed" });
  });

  test("a preview that failed before planning anything: not 'No changes'", async () => {
    // `steps` is left out of the engine's JSON when it is empty.
    const doc = { config: ONCALL.config, diagnostics: errors };
    const run = await bin(["plan-report"], JSON.stringify(doc));
    expect(run.code).toBe(2);
    expect(run.out).toMatch(/^## Preview failed\n\n> \[!CAUTION\]/);
    expect(run.out).toContain("**Planned before the failure: no changes**");
    expect(run.out).not.toContain("**No changes**");
    expectWellFormed(planReport(doc), run.out);
  });

  test("a document cut before the engine's summary, or flagged maybe corrupt, is an incomplete preview (exit 2)", async () => {
    const { changeSummary: _c, ...cut } = structuredClone(ONCALL);
    const corrupt = { ...structuredClone(ONCALL), maybeCorrupt: true };
    for (const doc of [cut, corrupt]) {
      const run = await bin(["plan-report"], JSON.stringify(doc));
      expect(run.code).toBe(2);
      expect(run.out).toMatch(
        /^## Incomplete preview for `incident-oncall` \/ `dev`\n\n> \[!CAUTION\]\n> \*\*The preview is incomplete\*\*/,
      );
      expect(run.err).toMatch(/^pulumi-incident plan-report: the preview is incomplete \(/);
    }
    expect((await bin(["plan-report"], JSON.stringify(ONCALL))).code).toBe(0);
  });
});

describe("new objects' nested values, whole (issue 22)", () => {
  test("a new escalation path shows what it pages, not a value cut with '…'", () => {
    const doc = structuredClone(ONCALL);
    const step = stepOf(doc, "EscalationPath::payments");
    step.op = "create";
    delete step.oldState;
    const report = planReport(doc);
    const created = changesOf(report, "EscalationPath", "payments");
    const markdown = planReportMarkdown(report);
    expectWellFormed(report, markdown);
    const comment = parseComment(markdown);
    const table = comment.tables[report.resources.indexOf(created) - 1]!;
    expect(table.slice(1).map((row) => row[0])).toEqual(["name", "path[0]", "path[1]", "path[2]", "path[3]"]);
    expect(markdown).not.toContain("…");
    // Each node of the new path whole: in its cell when short, else collapsed below the table.
    for (const c of created.changes) {
      const json = JSON.stringify(c.new);
      const row = table.find((r) => r[0] === c.at)!;
      if (json.length <= 120) {
        expect(row[2]).toBe(json);
        continue;
      }
      expect(row[2]).toBe(`${json.length} characters, below`);
      const lines = JSON.stringify(c.new, null, 2).split("\n").length;
      const shown = comment.details.find((d) => d.summary === `${c.at} after (${lines} lines)`);
      expect(JSON.parse(shown!.code[0]!)).toEqual(c.new);
    }
    // The branch (P1 pages the lead, others the channel) is there whole; the ids the plan knows, named.
    expect(JSON.stringify(created.changes.find((c) => c.at === "path[1]")!.new)).toContain(
      '"id":"01USERADA"',
    );
    expect(comment.listItems).toEqual(
      expect.arrayContaining(["<id of Schedule payments-primary>: Schedule payments-primary"]),
    );
    // Shortened, a long value points at the JSON report instead.
    const short = planReportMarkdown(report, { maxLength: markdown.length - 1 });
    expect(short).toMatch(/\| `path\[1\]` \| — \| _\d+ characters: see the JSON report_ \|/);
  });
});

describe("who gets paged, readably (issue 22)", () => {
  const type = "pulumi-nodejs:dynamic/incident:EscalationPath";
  const urn = `urn:pulumi:dev::p::${type}::payments`;
  const ada = { type: "user", id: "01USERADA", urgency: "high" };
  const bob = { type: "user", id: "01USERBOB", urgency: "high" };
  const tree = (wait: number, p1: object[]) => [
    { id: "wait", delay: { delaySeconds: wait } },
    {
      id: "branch",
      ifElse: {
        conditions: [
          {
            subject: "escalation.priority",
            operation: "one_of",
            paramBindings: [{ arrayValue: [{ literal: "P1" }, { literal: "P2" }] }],
          },
        ],
        thenPath: [{ id: "urgent", level: { targets: p1, timeToAckSeconds: 300 } }],
        elsePath: [{ id: "other", level: { targets: [ada], timeToAckSeconds: 300 } }],
      },
    },
  ];
  const doc = {
    changeSummary: { update: 1 },
    steps: [
      {
        op: "update",
        urn,
        oldState: {
          urn,
          type,
          id: "ep-1",
          inputs: { name: "Payments", path: tree(600, [ada]) },
          outputs: {
            name: "Payments",
            path: tree(600, [ada]),
            __schema: 1,
            currentResponders: [{ id: "01USERADA", name: "Ada Lovelace", email: "ada@example.com" }],
          },
        },
        newState: { urn, type, inputs: { name: "Payments", path: tree(900, [ada, bob]) } },
      },
    ],
  };
  /** Another path of the stack, unchanged: its state knows who bob is. */
  const state = {
    deployment: {
      resources: [
        {
          urn: `urn:pulumi:dev::p::${type}::other`,
          type,
          id: "ep-2",
          outputs: { currentResponders: [{ id: "01USERBOB", name: "Bob", email: "bob@example.com" }] },
        },
      ],
    },
  };

  test("only what changes in each step; priorities that change alike said once; users by e-mail", () => {
    const report = planReport(doc, state);
    expect(report.resources[0]!.paging).toEqual([
      {
        who: "Priorities P1, P2",
        steps: [
          "step 1: waits 600 s (10 min) → 900 s (15 min)",
          "step 2: + pages bob@example.com (high urgency)",
        ],
      },
      { who: "Any other priority", steps: ["step 1: waits 600 s (10 min) → 900 s (15 min)"] },
    ]);
    const markdown = planReportMarkdown(report);
    expectWellFormed(report, markdown);
    expect(markdown).toContain(
      [
        "- Priorities P1, P2:",
        "  - step 1: waits 600 s (10 min) → 900 s (15 min)",
        "  - step 2: + pages `bob@example.com` (high urgency)",
        "- Any other priority:",
      ].join("\n"),
    );
    // Ada is known from the path's own stored responders; Bob only from the stack's state.
    expect(planReport(doc).resources[0]!.paging![0]!.steps[1]).toBe(
      "step 2: + pages user 01USERBOB (high urgency)",
    );
    expect(report.names).toMatchObject({
      "01USERADA": "ada@example.com",
      "01USERBOB": "bob@example.com",
      "ep-2": "EscalationPath other",
    });
  });

  test("a changed target and a changed time to acknowledge read as such; the whole step never repeats", () => {
    const changed = structuredClone(doc);
    const urgent = changed.steps[0]!.newState.inputs.path[1] as any;
    urgent.ifElse.thenPath[0].level = { targets: [{ ...ada, urgency: "low" }], timeToAckSeconds: 600 };
    changed.steps[0]!.newState.inputs.path[0] = { id: "wait", delay: { delaySeconds: 600 } };
    expect(planReport(changed).resources[0]!.summary).toEqual([
      "Priorities P1, P2 — step 2: ada@example.com: high urgency → low urgency, ack within 300 s (5 min) → 600 s (10 min)",
    ]);
  });
});

describe("reassignment nodes and escalation path templates (issue 24)", () => {
  const pathType = "pulumi-nodejs:dynamic/incident:EscalationPath";
  const templateType = "pulumi-nodejs:dynamic/incident:EscalationPathTemplate";
  const urnOf = (type: string, name: string) => `urn:pulumi:dev::p::${type}::${name}`;
  const ada = { type: "user", id: "01USERADA", urgency: "high" };
  const update = (type: string, name: string, id: string, before: object, after: object) => ({
    op: "update",
    urn: urnOf(type, name),
    oldState: { urn: urnOf(type, name), type, id, inputs: before, outputs: { ...before, __schema: 1 } },
    newState: { urn: urnOf(type, name), type, inputs: after },
  });
  /** The stack's other path, unchanged: what reassignments name. */
  const state = {
    deployment: {
      resources: [{ urn: urnOf(pathType, "payments"), type: pathType, id: "ep-payments", outputs: {} }],
    },
  };

  test("a step that reassigns to another path says so, by its name where the stack knows it; nothing after it is paged", () => {
    const before = { name: "Platform", path: [{ id: "first", level: { targets: [ada] } }] };
    const after = {
      name: "Platform",
      path: [
        { id: "first", level: { targets: [ada] } },
        { id: "handover", escalationPath: { escalationPathId: "ep-payments" } },
        { id: "never", level: { targets: [{ ...ada, id: "01USERBOB" }] } },
      ],
    };
    const doc = { steps: [update(pathType, "platform", "ep-platform", before, after)] };
    const report = planReport(doc, state);
    const [change] = report.resources;
    expect(change!.paging).toEqual([
      { who: "Every escalation", steps: ["step 2: new: reassigns to EscalationPath payments"] },
    ]);
    expect(change!.diagrams!.after).toContain("Reassign handover");
    expect(change!.diagrams!.after).toContain("reassigns to EscalationPath payments");
    // Without the state, the id stays an id, said as a path's.
    expect(planReport(doc).resources[0]!.paging![0]!.steps).toEqual([
      "step 2: new: reassigns to escalation path ep-payments",
    ]);
    const markdown = planReportMarkdown(report);
    expectWellFormed(report, markdown);
    expect(parseMermaid([change!.diagrams!.before!, change!.diagrams!.after!]).map((r) => r.ok)).toEqual([
      true,
      true,
    ]);
  });

  test("a template's bound targets and a templated path's template and bindings, in words", () => {
    const level = (wait: number) => ({
      id: "start",
      level: {
        targets: [{ type: "user", binding: { value: { reference: "lead" } }, urgency: "high" }],
        timeToAckSeconds: wait,
      },
    });
    const templateDoc = {
      steps: [
        update(
          templateType,
          "standard",
          "tpl-1",
          { name: "Standard", params: [], path: [level(300)] },
          {
            name: "Standard",
            params: [],
            path: [level(600), { id: "to-payments", escalationPath: { escalationPathId: "ep-payments" } }],
          },
        ),
      ],
    };
    const [template] = planReport(templateDoc, state).resources;
    expect(template!.summary).toEqual([
      "Every escalation — step 1: ack within 300 s (5 min) → 600 s (10 min); step 2: new: reassigns to EscalationPath payments",
    ]);
    expect(template!.diagrams!.after).toContain("pages user bound to lead");

    const templated = (lead: string) => ({
      name: "Platform",
      kind: "templated",
      templateId: "tpl-1",
      paramBindings: { lead: { value: { literal: lead } } },
      path: [],
    });
    const withTemplate = {
      steps: [update(pathType, "platform", "ep-platform", templated("01USERADA"), templated("01USERBOB"))],
    };
    const stateWithTemplate = {
      deployment: {
        resources: [
          ...state.deployment.resources,
          { urn: urnOf(templateType, "standard"), type: templateType, id: "tpl-1", outputs: {} },
        ],
      },
    };
    const [path] = planReport(withTemplate, stateWithTemplate).resources;
    expect(path!.summary).toEqual([
      "Who gets paged: as template EscalationPathTemplate standard says (lead = 01USERADA) → as template EscalationPathTemplate standard says (lead = 01USERBOB)",
    ]);
    // Its nodes are the template's: no diagram of an empty path.
    expect(path!.diagrams).toEqual({});
  });
});

describe("ids named as the program or the account names them (issue 22)", () => {
  const resource = (type: string, name: string, id: string, outputs?: object) => ({
    urn: `urn:pulumi:dev::incident-oncall::pulumi-nodejs:dynamic/incident:${type}::${name}`,
    type: `pulumi-nodejs:dynamic/incident:${type}`,
    id,
    ...(outputs ? { outputs } : {}),
  });
  const state = {
    deployment: {
      resources: [
        resource("AlertAttribute", "environment", "<id 2>"),
        resource("Severity", "critical", "SEV-1"),
        resource("CatalogTypeAttribute", "tier", "CTA-1"),
      ],
    },
  };

  test("severities and catalog attributes in a route's conditions, by the stack's state (--state)", () => {
    const doc = structuredClone(ONCALL);
    stepOf(doc, "AlertRoute::payments").newState.inputs.incidentConfig.conditionGroups = [
      {
        conditions: [
          {
            subject: "incident.severity",
            operation: "one_of",
            paramBindings: [{ arrayValue: [{ literal: "SEV-1" }] }],
          },
          { subject: "alert.attributes.<id 2>.attributes.CTA-1", operation: "is_set", paramBindings: [] },
        ],
      },
    ];
    const report = planReport(doc, state);
    expect(changesOf(report, "AlertRoute", "payments").summary).toContain(
      "Opens an incident: yes, when always → yes, when incident.severity one of Severity critical and alert.attributes.AlertAttribute environment.attributes.CatalogTypeAttribute tier is set",
    );
    expectWellFormed(report, planReportMarkdown(report));
  });

  test("a path the preview does not know yet is said so, not drawn as empty", () => {
    const doc = structuredClone(ONCALL);
    stepOf(doc, "EscalationPath::payments").newState.inputs.path = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const path = changesOf(planReport(doc), "EscalationPath", "payments");
    expect(path.summary).toEqual(["Who gets paged: as declared → (known after apply)"]);
    expect(path.diagrams).toEqual({ before: expect.stringMatching(/^flowchart TD/) });
  });
});

describe("malformed preview documents (issue 22)", () => {
  const EP = "urn:pulumi:dev::incident-oncall::pulumi-nodejs:dynamic/incident:EscalationPath::payments";
  const index = (doc: any, suffix: string) => doc.steps.findIndex((s: any) => s.urn.endsWith(suffix));
  const cases: [string, (doc: any) => unknown, RegExp][] = [
    ["a list, not an object", () => [], /not a `pulumi preview --json` document: it is not a JSON object/],
    ["steps not a list", (d) => ({ ...d, steps: { a: 1 } }), /: steps: Invalid input: expected array/],
    [
      "a step that is null",
      (d) => {
        d.steps[2] = null;
        return d;
      },
      /steps\[2\]: Invalid input: expected object/,
    ],
    [
      "an op that is a number",
      (d) => {
        d.steps[1].op = 7;
        return d;
      },
      /steps\[1\] \(urn:pulumi:dev::incident-oncall::[^)]*EscalationPath::payments\) op: /,
    ],
    [
      "an op the engine never writes",
      (d) => {
        d.steps[1].op = "upgrade";
        return d;
      },
      /steps\[1\] \([^)]*\) op: Invalid option/,
    ],
    [
      "a URN that is not one",
      (d) => {
        d.steps[0].urn = "payments";
        return d;
      },
      /steps\[0\] \(payments\) urn: not a Pulumi URN/,
    ],
    [
      "an old state that is a string",
      (d) => {
        d.steps[1].oldState = "x";
        return d;
      },
      /steps\[1\] \(.*EscalationPath::payments\) oldState: Invalid input: expected object/,
    ],
    [
      "inputs that are a list",
      (d) => {
        d.steps[1].newState.inputs = [];
        return d;
      },
      /steps\[1\] \([^)]*\) newState\.inputs: Invalid input: expected record/,
    ],
    [
      "replace reasons that are a string",
      (d) => {
        d.steps[index(d, "payments-secondary")].replaceReasons = "timezone";
        return d;
      },
      /steps\[3\] \([^)]*Schedule::payments-secondary\) replaceReasons: /,
    ],
    [
      "an update without its new state",
      (d) => {
        delete d.steps[1].newState;
        return d;
      },
      /steps\[1\] \([^)]*\) newState: the update step has no newState/,
    ],
    [
      "a new state of another type than the URN's",
      (d) => {
        d.steps[1].newState.type = "pulumi-nodejs:dynamic/incident:Schedule";
        return d;
      },
      /steps\[1\] \([^)]*\) newState\.type: "pulumi-nodejs:dynamic\/incident:Schedule" is not the type the URN names/,
    ],
    [
      "a diagnostic whose message is a number",
      (d) => {
        d.diagnostics = [{ severity: "error", message: 5 }];
        return d;
      },
      /diagnostics\[0\]\.message: Invalid input: expected string/,
    ],
    [
      "counts that are not counts",
      (d) => {
        d.changeSummary = { update: "3" };
        return d;
      },
      /changeSummary\.update: Invalid input: expected number/,
    ],
    [
      "an escalation path whose path is a string",
      (d) => {
        d.steps[1].newState.inputs.path = "primary";
        return d;
      },
      new RegExp(`steps\\[1\\] \\(${EP.replace(/[.$]/g, "\\$&")}\\) newState\\.inputs\\.path: Invalid input`),
    ],
    [
      "a level whose targets are an object",
      (d) => {
        d.steps[1].newState.inputs.path[0].level.targets = { id: "x" };
        return d;
      },
      /steps\[1\] \([^)]*\) newState\.inputs\.path\[0\]\.level\.targets: Invalid input/,
    ],
    [
      "a branch whose conditions are a number",
      (d) => {
        d.steps[1].oldState.inputs.path[1].ifElse.conditions = 1;
        return d;
      },
      /steps\[1\] \([^)]*\) oldState\.inputs\.path\[1\]\.ifElse\.conditions: Invalid input/,
    ],
    [
      "a route whose alert sources are a number",
      (d) => {
        d.steps[0].newState.inputs.alertSources = 3;
        return d;
      },
      /steps\[0\] \([^)]*AlertRoute::payments\) newState\.inputs\.alertSources: Invalid input/,
    ],
    [
      "a rotation whose versions are a string",
      (d) => {
        d.steps[2].newState.inputs.rotations[0].versions = "v1";
        return d;
      },
      /steps\[2\] \([^)]*Schedule::payments-primary\) newState\.inputs\.rotations\[0\]\.versions: Invalid input/,
    ],
    [
      "inputs nested deeper than any resource takes",
      (d) => {
        let deep: unknown = "x";
        for (let i = 0; i < 1000; i++) deep = [deep];
        d.steps[1].newState.inputs.teamIds = deep;
        return d;
      },
      /steps\[1\] \([^)]*\) newState\.inputs\.teamIds\[0\]\[0\].*: nested too deep to read/,
    ],
  ];

  test.each(cases)("%s: exit 1, one line naming the step and the field", async (_what, mutate, message) => {
    const doc = mutate(structuredClone(ONCALL));
    const run = await bin(["plan-report"], JSON.stringify(doc));
    expect(run.code).toBe(1);
    expect(run.out).toBe("");
    expect(run.err).toMatch(/^pulumi-incident plan-report: not a `pulumi preview --json` document: /);
    expect(run.err).toMatch(message);
    expect(run.err.trimEnd().split("\n")).toHaveLength(1);
    expect(run.err).not.toMatch(/TypeError|Cannot read|is not a function|\n\s+at /);
  });

  test("a stack export (--state) of another shape: exit 1 naming the resource and the field", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plan-state-"));
    const state = path.join(dir, "stack.json");
    fs.writeFileSync(state, JSON.stringify({ deployment: { resources: [{ urn: EP, type: "x", id: 5 }] } }));
    const run = await bin(["plan-report", "--state", state], JSON.stringify(ONCALL));
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      `pulumi-incident plan-report: --state: not a \`pulumi stack export\` document: deployment.resources[0] (${EP}) id: Invalid input: expected string, received number\n`,
    );
  });

  test("a secret whose plaintext is not JSON stays a masked secret", () => {
    const doc = structuredClone(ONCALL);
    doc.steps[1].newState.inputs.name = { ...SECRET_SIG, plaintext: "not json PLAINTEXT" };
    const report = planReport(doc);
    expect(JSON.stringify(report) + planReportMarkdown(report)).not.toContain("PLAINTEXT");
  });

  test("any value anywhere in a step: a report, or one PlanInputError naming the step and the field", () => {
    const paths: (string | number)[][] = [];
    const walk = (v: unknown, at: (string | number)[]) => {
      if (at.length > 9) return;
      paths.push(at);
      if (Array.isArray(v)) v.forEach((x, i) => void walk(x, [...at, i]));
      else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
    };
    walk(ONCALL.steps, ["steps"]);
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom("04da6b54-80e4-46f7-96ec-b56ff0331ba9", "[secret]", null, {}, [], "x"),
      hostileText,
    );
    fc.assert(
      fc.property(fc.nat(paths.length - 1), value, fc.boolean(), (i, v, remove) => {
        const doc = structuredClone(ONCALL);
        const at = paths[i]!;
        const parent = at.slice(0, -1).reduce((o: any, k) => o[k], doc);
        if (remove && !Array.isArray(parent)) delete parent[at[at.length - 1]!];
        else parent[at[at.length - 1]!] = v;
        let report: PlanReport;
        try {
          report = planReport(doc);
        } catch (error) {
          expect(error).toBeInstanceOf(PlanInputError);
          expect((error as Error).message).toMatch(
            /^not a `pulumi preview --json` document: (steps(\[\d+\])?|the document)\b/,
          );
          expect((error as Error).message).not.toMatch(/could not read/);
          return;
        }
        expect(parseComment(planReportMarkdown(report)).problems).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});
