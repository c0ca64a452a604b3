/**
 * `pulumi-incident drift` against the emulator: stacks of the examples and of the whole-account
 * program (every kind) made in process (test/support/inProcessStack.ts: each resource created by its
 * provider), their state handed over as `pulumi stack export` writes it (secrets as ciphertext). No drift,
 * an edit in the dashboard, an object deleted out of band, differences in form only; exit codes
 * 0 / 2 / 1; read-only, proven by the emulator's request log.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { styleText } from "node:util";
import * as fc from "fast-check";
import { type DriftReport, drift, driftMarkdown } from "../../cli/drift";
import { ReadOnlyClient, ReadOnlyRequestError } from "../../cli/readOnlyClient";
import { providers } from "../../resources";
import { escalationPathPayload, escalationPathSpec } from "../../resources/escalationPath";
import { runCli } from "../support/cliRun";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import { fixtureProject } from "../support/harnessFixture";
import { hostileText } from "../support/hostileText";
import { type InProcessStack, runInProcess } from "../support/inProcessStack";
import { parseComment } from "../support/markdownDom";
import { ONCALL_OBJECTS } from "../support/reviewPr";

const root = path.join(__dirname, "..", "..");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "drift-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A program's stack, made in process against an emulator of its own, and its export on disk. */
function stackOf(program: string, config: Record<string, string> = {}) {
  const h = {} as { emu: TestEmulator; stack: InProcessStack; exported: string };
  beforeAll(async () => {
    h.emu = await startTestEmulator({ now: Date.now });
    h.stack = await runInProcess(program, { emu: h.emu, project: fixtureProject(program), config });
    h.exported = path.join(fs.mkdtempSync(path.join(work, "stack-")), "export.json");
    fs.writeFileSync(h.exported, JSON.stringify(h.stack.exportDocument()));
  });
  afterAll(async () => {
    await h.emu.dispose();
  });
  return h;
}

describe("drift: examples/oncall", () => {
  const h = stackOf(path.join(root, "examples", "oncall"));
  const env = () => ({ INCIDENT_API_KEY: h.emu.apiKey, INCIDENT_BASE_URL: h.emu.url });

  test("no drift: every object read (GET only), exit 0", async () => {
    const mark = h.emu.requests.length;
    const json = path.join(work, "clean.json");
    const result = await runCli(["drift", h.exported, "--json", json], env());
    // Not a terminal: plain progress lines.
    expect(result.err).toMatch(/^drift: 1\/8 /);
    expect(result.err).toContain("drift: 8/8 ");
    expect(result.code).toBe(0);
    const report: DriftReport = JSON.parse(fs.readFileSync(json, "utf8"));
    expect(report.objects.map((o) => `${o.kind} ${o.name}`).sort()).toEqual(ONCALL_OBJECTS);
    expect(report.counts.drifted + report.counts.deleted + report.counts.error).toBe(0);
    expect(result.out).toContain("**No drift**");
    const methods = new Set(h.emu.requests.slice(mark).map((r) => r.method));
    expect([...methods]).toEqual(["GET"]);
    expect(h.emu.requests.length - mark).toBeGreaterThanOrEqual(8);
  });
});

describe("drift: edits in the dashboard, deletions, exit codes", () => {
  const h = stackOf(path.join(root, "examples", "oncall"));
  const env = () => ({ INCIDENT_API_KEY: h.emu.apiKey, INCIDENT_BASE_URL: h.emu.url });
  let exported: string;
  let outputs: Record<string, any>;
  let colleague: string;

  beforeAll(async () => {
    exported = h.exported;
    outputs = h.stack.outputs;
    // A colleague's key, as someone clicking in the dashboard has.
    colleague = await h.emu.createApiKey("colleague", ["global_access"]);
  });

  test("an edit in the dashboard is drift (exit 2); normalisation artefacts are not", async () => {
    const id = outputs.escalationPathId;
    // The dashboard sends the whole path: the provider's own mapping builds that payload.
    const live = (await h.emu.ok("GET", `/v2/escalation_paths/${id}`)).escalation_path;
    const edited = escalationPathSpec.toInputs(live, undefined);
    edited.path[0]!.level!.timeToAckSeconds = 1200;
    await h.emu.ok("PUT", `/v2/escalation_paths/${id}`, {
      token: colleague,
      body: escalationPathPayload(edited),
    });
    const json = path.join(work, "edited.json");
    const result = await runCli(["drift", exported, "--json", json], env());
    expect(result.code).toBe(2);
    const report: DriftReport = JSON.parse(fs.readFileSync(json, "utf8"));
    const drifted = report.objects.filter((o) => o.status === "drifted");
    expect(drifted.map((o) => [o.kind, o.name, o.changes.map((c) => [c.at, c.old, c.new])])).toEqual([
      ["EscalationPath", "payments", [["path[0].level.timeToAckSeconds", 300, 1200]]],
    ]);
    expect(result.out).toContain("**Drift found**: 1 drifted");
    expect(result.out).toContain("| `path[0].level.timeToAckSeconds` | `300` | `1200` |");
    // The command that puts it back: a plain `pulumi up` would not see the change.
    expect(result.out).toContain("`pulumi up --refresh` puts back what the program declares");
    // The API's own spellings (an emoji's colons, an operation alias) are told apart, not reported as drift.
    const service = report.objects.find((o) => o.name === "service")!;
    expect(service.status).toBe("normalisation-only");
    expect(service.changes.map((c) => [c.at, c.old, c.new])).toEqual([["emoji", ":gear:", "gear"]]);
    expect(result.out).toContain("### Differences in form only (not drift)");
  });

  test("an object deleted out of band is drift (exit 2)", async () => {
    const id = outputs.workflowId;
    const gone = await h.emu.call("DELETE", `/v2/workflows/${id}`, { token: colleague });
    expect(gone.status).toBeLessThan(300);
    const json = path.join(work, "deleted.json");
    const result = await runCli(["drift", exported, "--json", json], env());
    expect(result.code).toBe(2);
    const report: DriftReport = JSON.parse(fs.readFileSync(json, "utf8"));
    expect(report.objects.filter((o) => o.status === "deleted").map((o) => [o.kind, o.name, o.id])).toEqual([
      ["Workflow", "announce-critical", id],
    ]);
    expect(result.out).toContain("### Deleted out of band");
    expect(result.out).toContain(`- Workflow \`announce-critical\` (id \`${id}\`)`);
  });

  test("errors exit 1: no API key, a rejected key, a kind this version does not know, not an export", async () => {
    const noKey = await runCli(["drift", exported], { INCIDENT_BASE_URL: h.emu.url });
    expect(noKey.code).toBe(1);
    expect(noKey.err).toMatch(/No API key for the incident provider/);

    // The account is checked first: a rejected key, a wrong URL, an API out of reach are one error
    // for the whole run, never objects reported unreadable or "deleted out of band" one by one.
    const badKey = await runCli(["drift", exported], { ...env(), INCIDENT_API_KEY: "not-a-key" });
    expect(badKey.code).toBe(1);
    expect(badKey.err).toMatch(
      /^pulumi-incident drift: nothing compared: the API at \S+ did not answer as the incident API \(GET \/v1\/identity: .*401/,
    );
    expect(badKey.err.trim().split("\n")).toHaveLength(1);
    expect(badKey.out).toBe("");

    const wrongUrl = await runCli(["drift", exported, "--json", path.join(work, "wrong-url.json")], {
      ...env(),
      INCIDENT_BASE_URL: `${h.emu.url}/not-the-api`,
    });
    expect(wrongUrl.code).toBe(1);
    expect(wrongUrl.err).toMatch(
      /nothing compared: .*GET \/v1\/identity: .*404.*check incident:baseUrl and incident:apiKey/,
    );
    expect(wrongUrl.out).toBe("");
    expect(fs.existsSync(path.join(work, "wrong-url.json"))).toBe(false);

    // Nothing listens there: refused at once (one probe, retried once), not once per object. The
    // URL's credentials are masked wherever it is printed.
    const unreachable = await runCli(["drift", exported], {
      ...env(),
      INCIDENT_BASE_URL: "http://drift-user:drift-password@127.0.0.1:9",
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toMatch(
      /nothing compared: the API at http:\/\/\*\*\*@127\.0\.0\.1:9 .*ECONNREFUSED.*\(2 attempts/,
    );
    expect(unreachable.err).not.toMatch(/drift-user|drift-password/);
    expect(unreachable.err.trim().split("\n")).toHaveLength(1);

    const doc = JSON.parse(fs.readFileSync(exported, "utf8"));
    doc.deployment.resources.find((r: any) => r.type.endsWith(":Workflow")).type =
      "pulumi-nodejs:dynamic/incident:KindFromTheFuture";
    const future = path.join(work, "future.json");
    fs.writeFileSync(future, JSON.stringify(doc));
    const unknownKind = await runCli(["drift", future], env());
    expect(unknownKind.code).toBe(1);
    expect(unknownKind.err).toMatch(
      /KindFromTheFuture announce-critical .* not checked: kind KindFromTheFuture is unknown/,
    );

    const notExport = await runCli(["drift", path.join(root, "package.json")], env());
    expect(notExport.code).toBe(1);
    expect(notExport.err).toMatch(/not a `pulumi stack export` document/);
  });

  test("settings from `pulumi config --json --show-secrets` output, as the provider reads them", async () => {
    const config = path.join(work, "config.json");
    fs.writeFileSync(
      config,
      JSON.stringify({
        "incident:apiKey": { value: h.emu.apiKey, secret: true },
        "incident:baseUrl": { value: h.emu.url, secret: false },
      }),
    );
    const result = await runCli(["drift", exported, "--config", config], {});
    expect(result.code).toBe(2); // the edit and the deletion above
    fs.writeFileSync(config, JSON.stringify({ "incident:apiKey": { secret: true } }));
    const masked = await runCli(["drift", exported, "--config", config], {});
    expect(masked.code).toBe(1);
    expect(masked.err).toMatch(
      /incident:apiKey is a secret without its value: run `pulumi config --json --show-secrets`/,
    );
  });

  test("on a terminal: a progress bar redrawn in place", async () => {
    const result = await runCli(["drift", exported], { ...env(), NO_COLOR: "1" }, true);
    const redraw = "\r\u001b[2K";
    expect(result.err.startsWith(`${redraw}drift `)).toBe(true);
    expect(result.err).toMatch(/drift █{3}░{21} 1\/8 /);
    expect(result.err).toMatch(/drift █{24} 8\/8 /);
    expect(result.err.endsWith(redraw)).toBe(true);
    const inCi = await runCli(["drift", exported], { ...env(), CI: "true" }, true);
    expect(inCi.err).not.toContain("\u001b");
    expect(inCi.err).toMatch(/^drift: 8\/8 \w+ [\w-]+: [\w-]+$/m);
    // Colours on a terminal: the outcome of each object (green in sync, yellow drift, red error).
    const coloured = await runCli(["drift", exported], env(), true);
    expect(coloured.err).toContain(styleText("yellow", ": deleted"));
    expect(coloured.err).toContain(styleText("green", ": in-sync"));
  });

  test("read-only: the client refuses any write before sending it", async () => {
    const client = new ReadOnlyClient({ apiKey: h.emu.apiKey, baseUrl: h.emu.url });
    const mark = h.emu.requests.length;
    await expect(client.post("/v2/workflows", "create workflow", {})).rejects.toThrow(ReadOnlyRequestError);
    await expect(client.put(`/v2/workflows/x`, "update workflow", {})).rejects.toThrow(
      /read-only: refused PUT/,
    );
    await expect(client.delete(`/v2/workflows/x`, "delete workflow")).rejects.toThrow(
      /read-only: refused DELETE/,
    );
    expect(h.emu.requests.length).toBe(mark);
    // The drift job itself, through the same client: only GETs reach the API.
    const report = await drift(JSON.parse(fs.readFileSync(exported, "utf8")), { client });
    expect(report.objects).toHaveLength(8);
    expect(new Set(h.emu.requests.slice(mark).map((r) => r.method))).toEqual(new Set(["GET"]));
  });
});

describe("drift: examples/quickstart (custom fields, options, an API key whose token is a secret)", () => {
  const h = stackOf(path.join(root, "examples", "quickstart"));
  const env = () => ({ INCIDENT_API_KEY: h.emu.apiKey, INCIDENT_BASE_URL: h.emu.url });

  test("every kind in sync; the secret never printed; an edited field is drift", async () => {
    const token = String(h.stack.outputs.ciKeyToken);
    expect(token.length).toBeGreaterThan(8);
    const exported = h.exported;
    // As `pulumi stack export` keeps it: the token is ciphertext.
    expect(fs.readFileSync(exported, "utf8")).not.toContain(token);
    const json = path.join(work, "quickstart-report.json");
    const mark = h.emu.requests.length;
    const clean = await runCli(["drift", exported, "--json", json], env());
    expect(clean.code).toBe(0);
    // By page where the kind allows: the second custom field comes from one walk of the list
    // (provider/pagedReads.ts), not its own GET.
    const reads = h.emu.requests.slice(mark).map((r) => `${r.method} ${r.path}`);
    expect(reads).toContain("GET /v2/custom_fields");
    expect(reads.filter((r) => r.startsWith("GET /v2/custom_fields/"))).toHaveLength(1);
    const report: DriftReport = JSON.parse(fs.readFileSync(json, "utf8"));
    expect(report.objects.filter((o) => o.kind === "CustomField")).toHaveLength(2);
    expect(new Set(report.objects.map((o) => o.kind))).toEqual(
      new Set(["CustomField", "CustomFieldOption", "ApiKey"]),
    );
    expect(report.counts.drifted + report.counts.deleted + report.counts.error).toBe(0);

    const field = report.objects.find((o) => o.kind === "CustomField")!;
    const live = (await h.emu.ok("GET", `/v2/custom_fields/${field.id}`)).custom_field;
    await h.emu.ok("PUT", `/v2/custom_fields/${field.id}`, {
      body: { name: live.name, description: "Edited by hand in the dashboard" },
    });
    const edited = await runCli(["drift", exported, "--json", json], env());
    expect(edited.err).not.toMatch(/not checked|pulumi-incident drift:/);
    expect(edited.code).toBe(2);
    const after: DriftReport = JSON.parse(fs.readFileSync(json, "utf8"));
    expect(
      after.objects.filter((o) => o.status === "drifted").map((o) => o.changes.map((c) => [c.at, c.new])),
    ).toEqual([[["description", "Edited by hand in the dashboard"]]]);
    for (const text of [clean.out, edited.out, JSON.stringify(after)]) expect(text).not.toContain(token);
  });
});

describe("drift: a Secret rotated in the dashboard", () => {
  const h = stackOf(path.join(root, "examples", "settings"));

  test("its value is encrypted in the export: the version and last four characters the state holds are compared", async () => {
    const secret = h.stack.resources.find((r) => r.type.endsWith(":Secret"))!;
    await h.emu.ok("POST", `/v2/secrets/${secret.id}/actions/rotate`, {
      body: { value: "rotated-by-hand-9999" },
    });
    const json = path.join(work, "rotated.json");
    const result = await runCli(["drift", h.exported, "--json", json], {
      INCIDENT_API_KEY: h.emu.apiKey,
      INCIDENT_BASE_URL: h.emu.url,
    });
    expect(result.code).toBe(2);
    const report: DriftReport = JSON.parse(fs.readFileSync(json, "utf8"));
    const drifted = report.objects.filter((o) => o.status === "drifted");
    expect(drifted.map((o) => [o.kind, o.changes.map((c) => [c.at, c.old, c.new])])).toEqual([
      [
        "Secret",
        [
          ["lastFourChars", secret.outputs.lastFourChars, "9999"],
          ["version", secret.outputs.version, secret.outputs.version + 1],
        ],
      ],
    ]);
    expect(result.out).not.toContain("rotated-by-hand-9999");
  });
});

// Every kind, with no edit to the drift job: it is generic over every spec. examples/settings and the
// whole-account program hold a secret input (a Secret's value), encrypted in the export.
describe.each([
  "examples/catalog",
  "examples/settings",
  "test/fixtures/wholeAccount/program",
])("drift: %s", (program) => {
  const h = stackOf(path.join(root, program));

  test("every object in sync or differing in form only, read with GETs only (exit 0)", async () => {
    const declared = JSON.parse(fs.readFileSync(h.exported, "utf8")).deployment.resources.filter((r: any) =>
      r.type.startsWith("pulumi-nodejs:dynamic/incident:"),
    );
    const mark = h.emu.requests.length;
    const json = path.join(work, `${path.basename(path.dirname(h.exported))}-report.json`);
    const result = await runCli(["drift", h.exported, "--json", json], {
      INCIDENT_API_KEY: h.emu.apiKey,
      INCIDENT_BASE_URL: h.emu.url,
    });
    expect(result.err).not.toMatch(/not checked/);
    expect(result.code).toBe(0);
    const report: DriftReport = JSON.parse(fs.readFileSync(json, "utf8"));
    expect(report.objects.map((o) => o.urn).sort()).toEqual(declared.map((r: any) => r.urn).sort());
    expect(new Set(h.emu.requests.slice(mark).map((r) => r.method))).toEqual(new Set(["GET"]));
    const notCompared = report.objects.flatMap((o) => (o.notCompared ?? []).map((k) => `${o.kind}.${k}`));
    if (program !== "examples/catalog") expect(notCompared).toEqual(["Secret.value"]);
    if (program.includes("wholeAccount"))
      expect([...new Set(report.objects.map((o) => o.kind))].sort()).toEqual(Object.keys(providers).sort());
  });
});

describe("drift's report under hostile text (parsed, not searched)", () => {
  test("names, ids, values and error messages from the account never become markup", () => {
    fc.assert(
      fc.property(hostileText, hostileText, hostileText, hostileText, (name, id, value, error) => {
        const object = (status: DriftReport["objects"][number]["status"], extra = {}) => ({
          urn: `urn:pulumi:dev::p::pulumi-nodejs:dynamic/incident:Severity::${name}`,
          name,
          kind: "Severity",
          id,
          status,
          changes: [{ path: [value], at: value, kind: "changed" as const, old: value, new: `${value}!` }],
          ...extra,
        });
        const report: DriftReport = {
          project: name,
          stack: id,
          counts: { "in-sync": 0, "normalisation-only": 1, drifted: 1, deleted: 1, error: 1 },
          objects: [
            object("drifted", { notCompared: [value] }),
            object("deleted"),
            object("error", { error }),
            object("normalisation-only"),
          ],
        };
        const comment = parseComment(driftMarkdown(report));
        expect(comment.problems).toEqual([]);
        expect(comment.headings.map((h) => h.level)).toEqual([2, 3, 4, 3, 3, 3, 4]);
        expect(comment.tables).toHaveLength(2);
        expect(comment.tables.every((t) => t.every((row) => row.length === 3))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
