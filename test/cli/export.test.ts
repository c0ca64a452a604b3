/**
 * `pulumi-incident export`: names, defaults left out, references, layout, filters, dry run, modules
 * and every option error before the first request. The full round trip (adopt with zero writes, …)
 * runs through the real CLI on the whole account (test/engine/wholeAccount.test.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  assignNames,
  camelCase,
  type ExportedResource,
  inDependencyOrder,
  kebabCase,
  minimalInputs,
} from "../../cli/export/model";
import { kindTitle, stringLiteral } from "../../cli/export/render";
import { providers } from "../../resources";
import { alertAttributeSpec } from "../../resources/alertAttribute";
import { workflowSpec } from "../../resources/workflow";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import { formatProblems, runExport } from "../support/exportRoundTrip";
import { runInProcess } from "../support/inProcessStack";
import { typeCheckFiles, userProject } from "../support/readmeBlocks";

const root = path.join(__dirname, "..", "..");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "export-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("names", () => {
  const items = [
    { kind: "EscalationPath", id: "01B", label: "Payments" },
    { kind: "Schedule", id: "01A", label: "Payments" },
    { kind: "AlertSource", id: "01D", label: "Payments API" },
    { kind: "AlertSource", id: "01C", label: "Payments — API" },
    { kind: "Severity", id: "01E", label: "Café ☕ on-call" },
    { kind: "Severity", id: "01F", label: "🔥" },
    { kind: "Severity", id: "01G", label: "Delete" },
    { kind: "Severity", id: "01H", label: "2nd line" },
  ];

  test("collisions are resolved by id order, the same whatever order the objects come in", () => {
    const names = assignNames(items);
    expect(names).toEqual([
      { resourceName: "payments", variable: "paymentsEscalationPath" },
      { resourceName: "payments", variable: "paymentsSchedule" },
      { resourceName: "payments-api-2", variable: "paymentsApi2" },
      { resourceName: "payments-api", variable: "paymentsApi" },
      { resourceName: "cafe-on-call", variable: "cafeOnCall" },
      { resourceName: "severity", variable: "severity" },
      { resourceName: "delete", variable: "delete2" },
      { resourceName: "2nd-line", variable: "object2ndLine" },
    ]);
    const reversed = assignNames([...items].reverse()).reverse();
    expect(reversed).toEqual(names);
  });

  test("kebab and camel case from any text", () => {
    expect(kebabCase("Payments — API (EU)", "x")).toBe("payments-api-eu");
    expect(camelCase("payments-api-eu", "x")).toBe("paymentsApiEu");
    expect(kebabCase("   ", "CatalogEntry")).toBe("catalog-entry");
    expect(kindTitle("IncidentStatus")).toBe("Incident statuses");
    expect(kindTitle("Severity")).toBe("Severities");
  });

  test("string literals take the quotes a formatter would", () => {
    expect(stringLiteral("plain")).toBe('"plain"');
    expect(stringLiteral('say "hi"')).toBe(`'say "hi"'`);
    expect(stringLiteral(`it's "both" '`)).toBe(`"it's \\"both\\" '"`);
  });
});

describe("kinds", () => {
  test("every kind can be exported, or says why not", () => {
    for (const [kind, provider] of Object.entries(providers)) {
      const spec = provider.spec;
      const listable =
        spec.listAll !== undefined || (spec.list !== undefined && spec.list.scope === undefined);
      expect([kind, listable || typeof spec.notExported === "string"]).toEqual([kind, true]);
      expect([kind, listable && spec.notExported !== undefined]).toEqual([kind, false]);
    }
  });
});

describe("order", () => {
  const resource = (kind: string, variable: string, dependsOn: string[] = []): ExportedResource => ({
    kind,
    id: `id-${variable}`,
    label: variable,
    resourceName: variable,
    variable,
    args: Object.fromEntries(dependsOn.map((d) => [`${d}Id`, { $ref: d }])),
    dependsOn,
    differences: [],
    problems: [],
  });

  test("every resource after what it refers to; options under their field", () => {
    const order = inDependencyOrder([
      resource("Workflow", "notify", ["sev1", "impact"]),
      resource("CustomFieldOption", "sev1", ["impact"]),
      resource("CustomFieldOption", "low", ["impact"]),
      resource("CustomField", "team"),
      resource("CustomField", "impact"),
      resource("CustomFieldOption", "teamA", ["team"]),
    ]).map((r) => r.variable);
    expect(order).toEqual(["impact", "low", "sev1", "team", "teamA", "notify"]);
  });

  test("a reference that would close a cycle stays a literal id", () => {
    const order = inDependencyOrder([
      resource("CatalogEntry", "a", ["b"]),
      resource("CatalogEntry", "b", ["a"]),
    ]);
    expect(order.map((r) => r.variable)).toEqual(["b", "a"]);
    expect(order[0]!.args).toEqual({ aId: "id-a" });
    expect(order[1]!.args).toEqual({ bId: { $ref: "b" } });
  });
});

describe("only non-default values are written", () => {
  test("a value the schema would give anyway is left out; the rest stays", () => {
    const full = alertAttributeSpec.inputs.parse({ name: "Service", type: "String" });
    const minimal = minimalInputs(alertAttributeSpec, full);
    expect(minimal).toEqual({ name: "Service", type: "String" });
    expect(Object.keys(full).length).toBeGreaterThan(Object.keys(minimal).length);
    const kept = minimalInputs(alertAttributeSpec, { ...full, array: true });
    expect(kept).toEqual({ name: "Service", type: "String", array: true });
  });

  test("a workflow keeps its steps and drops what means the default", () => {
    const full = workflowSpec.inputs.parse({
      name: "Notify",
      trigger: "incident.created",
      steps: [{ id: "a", name: "slack.post_message", paramBindings: [] }],
      onceFor: ["incident.url"],
      privateIncidentScope: "none",
    });
    const minimal = minimalInputs(workflowSpec, full);
    expect(minimal.steps).toEqual([{ id: "a", name: "slack.post_message" }]);
    expect(minimal).not.toHaveProperty("privateIncidentScope");
    expect(workflowSpec.inputs.safeParse(minimal).success).toBe(true);
  });
});

describe("export of examples/oncall's account", () => {
  const h = {} as { emu: TestEmulator };
  const env = () => ({ INCIDENT_API_KEY: h.emu.apiKey, INCIDENT_BASE_URL: h.emu.url });

  beforeAll(async () => {
    h.emu = await startTestEmulator({ now: Date.now });
    await runInProcess(path.join(root, "examples", "oncall"), { emu: h.emu, project: "incident-oncall" });
  });
  afterAll(async () => {
    await h.emu.dispose();
  });

  test("every option error names the option, before any request", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["--include", "AlertRoutes"], /--include: unknown kind "AlertRoutes" \(did you mean AlertRoute\?\)/],
      [["--exclude", "Nope"], /--exclude: unknown kind "Nope"; kinds: AlertAttribute, /],
      [["--name", "("], /--name: not a regular expression/],
      [["--modules", "--single-file"], /--modules and --single-file exclude each other/],
      [["--project", "my project"], /--project: "my project": use letters/],
    ];
    for (const [args, message] of cases) {
      const mark = h.emu.requests.length;
      const result = await runExport([path.join(work, "never"), ...args], env());
      expect(result.code).toBe(1);
      expect(result.err).toMatch(message);
      expect(h.emu.requests.length).toBe(mark);
    }
    expect(fs.existsSync(path.join(work, "never"))).toBe(false);

    const full = path.join(work, "full");
    fs.mkdirSync(full);
    fs.writeFileSync(path.join(full, "keep.txt"), "mine");
    const refused = await runExport([full], env());
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/is not empty: choose another directory, or pass --force/);
    expect(fs.readdirSync(full)).toEqual(["keep.txt"]);

    const noKey = await runExport([path.join(work, "never")], { INCIDENT_BASE_URL: h.emu.url });
    expect(noKey.code).toBe(1);
    expect(noKey.err).toMatch(/No API key/);
  });

  test("a dry run prints what would be written and writes nothing", async () => {
    const dir = path.join(work, "dry");
    const result = await runExport([dir, "--dry-run"], env());
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^Dry run: would write 5 files\n {2}Pulumi\.yaml/);
    expect(result.out).toMatch(/EscalationPath +1\n/);
    expect(result.out).toMatch(/3 lookups \(users, teams\)/);
    expect(result.out).toMatch(/^ {2}EscalationPath +payments {2}"Payments" [0-9A-Z]{26}$/m);
    expect(fs.existsSync(dir)).toBe(false);
  });

  test("references, user lookups and the live form of templates", async () => {
    const dir = path.join(work, "oncall");
    const result = await runExport([dir, "--project", "payments-oncall"], env());
    expect(result.code).toBe(0);
    const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
    // Route → escalation path → schedules → users, as references, never as ids.
    expect(program).toMatch(/const payments = new incident\.EscalationPath\("payments", \{/);
    expect(program).toMatch(/id: paymentsPrimary\.id,/);
    expect(program).toMatch(/\{ literal: payments\.id \}/);
    expect(program).toMatch(/^const ada = incident\.getUserOutput\(\{ email: "ada@example\.com" \}\);$/m);
    expect(program).toMatch(/id: ada\.id,/);
    expect(program).not.toMatch(/"01USER/);
    // An attribute id inside a reference string: an interpolation of the attribute's id.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of the exported program
    expect(program).toContain("pulumi.interpolate`alert.attributes.${environment.id}`");
    expect(program).toContain('title: "{{ alert.title }}",');
    // Declared before use.
    expect(program.indexOf("const paymentsPrimary =")).toBeLessThan(
      program.indexOf("id: paymentsPrimary.id"),
    );
    expect(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")).toMatch(/^name: payments-oncall\n/);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).dependencies).toEqual({
      "@pulumi/pulumi": "^3.216.0",
      "pulumi-incident": `^${require("../../package.json").version}`,
    });
  });

  test("filters: kinds and a name pattern; references to what is left out stay ids", async () => {
    const dir = path.join(work, "filtered");
    const result = await runExport(
      [dir, "--include", "EscalationPath,Schedule", "--name", "^Payments (primary|Payments)$|^Payments$"],
      env(),
    );
    expect(result.code).toBe(0);
    const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
    expect([...program.matchAll(/new incident\.(\w+)\("([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`)).toEqual([
      "Schedule payments-primary",
      "EscalationPath payments",
    ]);
    expect(program).toMatch(/id: paymentsPrimary\.id,/);
    // The secondary schedule is not exported: its id stays as it is.
    expect(program).toMatch(/type: "schedule",\n\s+id: "[0-9A-Z]{26}",/);
    expect(result.out).toMatch(/1 objects left out by --name/);
  });

  test("one module per kind: formatted, type-checks, imports what each module uses", async () => {
    const dir = path.join(work, "modules");
    const result = await runExport([dir, "--modules"], env());
    expect(result.code).toBe(0);
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".ts"));
    expect(files.sort()).toEqual(
      expect.arrayContaining([
        "alertRoutes.ts",
        "escalationPaths.ts",
        "index.ts",
        "schedules.ts",
        "lookups.ts",
      ]),
    );
    expect(fs.readFileSync(path.join(dir, "escalationPaths.ts"), "utf8")).toMatch(
      /import \{ paymentsPrimary, paymentsSecondary \} from "\.\/schedules";/,
    );
    expect(formatProblems(dir, files)).toBe("");
    const project = userProject(root);
    try {
      for (const f of files) fs.copyFileSync(path.join(dir, f), path.join(project, f));
      expect(typeCheckFiles(project, files, "commonjs")).toBe("");
      expect(typeCheckFiles(project, files, "nodenext")).toBe("");
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });

  test("the README shows what the command prints and writes for this account", async () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    const block = (marker: string) => {
      const at = readme.indexOf(marker);
      expect(at).toBeGreaterThan(0);
      const match = /```\w*\n([\s\S]*?)```/.exec(readme.slice(at));
      return match![1]!;
    };
    const dir = path.join(work, "readme", "payments-oncall");
    const result = await runExport([dir, "--project", "payments-oncall"], env());
    expect(result.code).toBe(0);
    expect(result.out.replace(dir, "payments-oncall")).toBe(block("<!-- export-output"));
    const ids = (text: string) => text.replace(/"[0-9A-HJKMNP-TV-Z]{26}"/g, '"<id>"');
    const shown = block("<!-- export-program");
    const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
    expect(ids(program.slice(0, shown.length))).toBe(ids(shown));
  });

  test("progress: a line per kind off a terminal", async () => {
    const result = await runExport([path.join(work, "progress"), "--dry-run"], env());
    expect(result.err).toMatch(/^export: 1\/\d+ AlertAttribute: 2 objects$/m);
  });
});
