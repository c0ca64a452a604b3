/**
 * `pulumi-incident export`: names (word splits, kinds' titles, reserved words), defaults left out,
 * references (computed keys too), layout, filters, dry run, modules and every option error before the
 * first request. Accounts made to break the exporter are exported and adopted in process in
 * test/cli/exportAdoption.test.ts; the full round trip (adopt with zero writes, …) runs through the
 * real CLI on the whole account (test/engine/wholeAccount.test.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  assignNames,
  buildModel,
  camelCase,
  type ExportedResource,
  inDependencyOrder,
  kebabCase,
  minimalInputs,
} from "../../cli/export/model";
import { kindPlural, kindTitle, resourceStatement, stringLiteral } from "../../cli/export/render";
import { providers } from "../../resources";
import { alertAttributeSpec } from "../../resources/alertAttribute";
import { catalogEntrySpec } from "../../resources/catalogEntry";
import { catalogTypeAttributeSpec } from "../../resources/catalogTypeAttribute";
import { workflowSpec } from "../../resources/workflow";
import { dashboardSchedule } from "../support/dashboard";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import { formatProblems, runExport } from "../support/exportRoundTrip";
import { runInProcess } from "../support/inProcessStack";
import { typeCheckFiles, userProject } from "../support/readmeBlocks";
import { ALL_RESERVED_NAMES } from "../support/reservedNames";

const root = path.join(__dirname, "..", "..");

/** An identifier by ECMAScript's grammar (a keyword aside). */
const isIdentifier = (name: string) => /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name);
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
      { resourceName: "delete", variable: "deleteSeverity" },
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

  test("words split where people split them: acronyms, digits, accents, other scripts", () => {
    // [name, resource name, variable]: a word is never split inside (iOS, PagerDuty).
    const cases: Array<[string, string, string]> = [
      ["iOS", "ios", "ios"],
      ["iOS app", "ios-app", "iosApp"],
      ["macOS on-call", "macos-on-call", "macosOnCall"],
      ["PagerDuty", "pagerduty", "pagerduty"],
      ["GitHub Actions", "github-actions", "githubActions"],
      ["Payments API", "payments-api", "paymentsApi"],
      ["API keys", "api-keys", "apiKeys"],
      ["SRE — EU (Tier 1)", "sre-eu-tier-1", "sreEuTier1"],
      ["OAuth2 tokens", "oauth2-tokens", "oauth2Tokens"],
      ["HTTP 5xx", "http-5xx", "http5xx"],
      ["P1", "p1", "p1"],
      ["2nd line", "2nd-line", "object2ndLine"],
      ["24/7 support", "24-7-support", "object247Support"],
      ["snake_case_name", "snake-case-name", "snakeCaseName"],
      ["Café ☕ on-call", "cafe-on-call", "cafeOnCall"],
      ["Zürich DC", "zurich-dc", "zurichDc"],
      ["Ångström", "angstrom", "angstrom"],
      ["Straße", "straße", "straße"],
      ["Инцидент высокий", "инцидент-высокий", "инцидентВысокий"],
      ["Ελληνικά", "ελληνικά", "ελληνικά"],
      ["नमस्ते दुनिया", "नमस्ते-दुनिया", "नमस्तेदुनिया"],
      ["العربية", "العربية", "العربية"],
      ["東京 本社", "東京-本社", "東京本社"],
      ["🔥", "severity", "object"],
      ["", "severity", "object"],
    ];
    const got = cases.map(([text]): [string, string, string] => [
      text,
      kebabCase(text, "Severity"),
      camelCase(text, "object"),
    ]);
    expect(got).toEqual(cases);
    // Scripts without spaces split as ICU's dictionaries say; the variable is the same either way.
    expect(kebabCase("決済システム", "Severity")).toMatch(/^決済-?システム$/);
    expect(camelCase("決済システム", "object")).toBe("決済システム");
    for (const [, resourceName, variable] of got) {
      expect([variable, isIdentifier(variable)]).toEqual([variable, true]);
      expect(resourceName).toMatch(/^[\p{L}\p{M}\p{Nd}]+(-[\p{L}\p{M}\p{Nd}]+)*$/u);
    }
  });

  test("every kind's section title and module name: its title in the plural", () => {
    const expected: Record<string, [string, string]> = {
      AlertAttribute: ["Alert attributes", "alertAttributes"],
      AlertRoute: ["Alert routes", "alertRoutes"],
      AlertSource: ["Alert sources", "alertSources"],
      AnnouncementRule: ["Announcement rules", "announcementRules"],
      ApiKey: ["API keys", "apiKeys"],
      CatalogEntries: ["Catalog entries", "catalogEntries"],
      CatalogEntry: ["Catalog entries", "catalogEntries"],
      CatalogType: ["Catalog types", "catalogTypes"],
      CatalogTypeAttribute: ["Catalog type attributes", "catalogTypeAttributes"],
      CustomField: ["Custom fields", "customFields"],
      CustomFieldOption: ["Custom field options", "customFieldOptions"],
      EscalationPath: ["Escalation paths", "escalationPaths"],
      IncidentRole: ["Incident roles", "incidentRoles"],
      IncidentStatus: ["Incident statuses", "incidentStatuses"],
      MaintenanceWindow: ["Maintenance windows", "maintenanceWindows"],
      Schedule: ["Schedules", "schedules"],
      ScheduleReplica: ["Schedule replicas", "scheduleReplicas"],
      ScheduleSyncRule: ["Schedule sync rules", "scheduleSyncRules"],
      ScheduleSyncTarget: ["Schedule sync targets", "scheduleSyncTargets"],
      Secret: ["Secrets", "secrets"],
      Severity: ["Severities", "severities"],
      Workflow: ["Workflows", "workflows"],
    };
    for (const [kind, provider] of Object.entries(providers)) {
      const title = kindTitle(kind);
      if (expected[kind]) expect([kind, title, kindPlural(kind)]).toEqual([kind, ...expected[kind]!]);
      // A kind added later: its title (`API key`) with the last word made plural.
      const words = provider.spec.title.split(" ");
      expect(title.toLowerCase().startsWith(words.slice(0, -1).join(" ").toLowerCase())).toBe(true);
      expect(isIdentifier(kindPlural(kind))).toBe(true);
    }
    // Kinds of no provider: their name's words.
    expect(kindTitle("PostIncidentFlow")).toBe("Post incident flows");
    expect(kindTitle("StatusPageStatus")).toBe("Status page statuses");
  });

  test("no variable is a word a program cannot declare (reserved, strict, TypeScript, CommonJS)", () => {
    const words = ALL_RESERVED_NAMES;
    const labelled = words.map((label, i) => ({
      kind: "Severity",
      id: `01S${String(i).padStart(4, "0")}`,
      label,
    }));
    const names = assignNames(labelled);
    const unsafe = new Set(words);
    for (const [i, { variable }] of names.entries()) {
      const label = labelled[i]!.label;
      expect([label, variable, unsafe.has(variable)]).toEqual([label, variable, false]);
      expect([variable, isIdentifier(variable)]).toEqual([variable, true]);
    }
    expect(new Set(names.map((n) => n.variable)).size).toBe(names.length);
    expect(names[words.indexOf("eval")]!.variable).toBe("evalSeverity");
    expect(names[words.indexOf("require")]!.variable).toBe("requireSeverity");
    expect(names[words.indexOf("Exports")]!.variable).toBe("exports2");
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

describe("objects keyed by ids of exported objects", () => {
  // A synthetic account: attributes of one catalog type, and entries keyed by them.
  const ulid = (n: number) => `01ABCDEFGHJKMNPQRSTVWX${String(n).padStart(4, "0")}`;
  const typeId = ulid(1);
  const attribute = (n: number, name: string) => ({
    kind: "CatalogTypeAttribute",
    spec: catalogTypeAttributeSpec,
    id: ulid(n),
    live: { catalogTypeId: typeId, attribute: { id: ulid(n), name, type: "String", array: false, mode: "" } },
  });
  const entry = (n: number, name: string, values: Record<string, string | string[]>) => ({
    kind: "CatalogEntry",
    spec: catalogEntrySpec,
    id: ulid(n),
    live: {
      id: ulid(n),
      catalog_type_id: typeId,
      name,
      aliases: [],
      rank: 0,
      attribute_values: Object.fromEntries(
        Object.entries(values).map(([id, v]) => [
          id,
          Array.isArray(v)
            ? { array_value: v.map((literal) => ({ literal, label: literal })) }
            : { value: { literal: v, label: v } },
        ]),
      ),
    },
  });
  const objects = [
    attribute(10, "Tier"),
    attribute(11, "Owner"),
    attribute(12, "The escalation notes of the night shift"),
    entry(20, "Checkout", { [ulid(10)]: "1" }),
    entry(21, "Payments", {}),
    entry(22, "Ledger", {
      [ulid(10)]: "2",
      [ulid(11)]: ulid(21),
      [ulid(12)]: "a value long enough that the line it is on cannot hold it whole",
      // An attribute the export does not hold: its id stays as it is.
      [ulid(99)]: ["x", "y"],
    }),
  ];
  const model = buildModel({ objects, users: [], teams: [], skippedKinds: [] });
  const program = model.resources.map((r) => resourceStatement(r)).join("\n\n");

  test("keys are the attribute resources' ids: computed keys in pulumi.all(…).apply(…)", () => {
    expect(program).toContain(
      [
        "  attributeValues: pulumi",
        "    .all({ tier: tier.id })",
        '    .apply((ids) => ({ [ids.tier]: "1" })),',
      ].join("\n"),
    );
    expect(program).toContain("      [ids.owner]: payments.id,");
    expect(program).toContain(`      "${ulid(99)}": ["x", "y"],`);
    // Each attribute's id is written once: as its resource's adoptId.
    for (const n of [10, 11, 12]) expect(program.split(ulid(n)).length).toBe(2);
    for (const r of model.resources) expect([r.label, r.differences, r.problems]).toEqual([r.label, [], []]);
    // Declared after what they refer to.
    expect(program.indexOf("const ledger")).toBeGreaterThan(program.indexOf("const owner"));
  });

  test("laid out as a formatter would", () => {
    const dir = fs.mkdtempSync(path.join(work, "keyed-"));
    fs.writeFileSync(path.join(dir, "index.ts"), `${program}\n`);
    expect(formatProblems(dir, ["index.ts"])).toBe("");
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
      [["--split-by", "owner"], /--split-by: "owner": use team/],
      [["--catalog-entries", "all"], /--catalog-entries: "all": use bulk or each/],
      [
        ["--split-by", "team", "--project", "p".repeat(51)],
        /--project: at most 50 characters with --split-by/,
      ],
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
    // The account's two seeded call routes are exported too; the main line pages its owner (a lookup).
    expect(result.out).toMatch(/CallRoute +2\n/);
    // Its IP allowlist is untouched (empty and off): nothing to manage, so not written, and the kind
    // is not among those left out either.
    expect(result.out).not.toMatch(/IpAllowlist/);
    expect(result.out).toMatch(/4 lookups \(users, teams\)/);
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
    expect(program).not.toContain("IpAllowlist");
    // Declared before use.
    expect(program.indexOf("const paymentsPrimary =")).toBeLessThan(
      program.indexOf("id: paymentsPrimary.id"),
    );
    expect(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")).toMatch(/^name: "payments-oncall"\n/);
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

describe("export of an account whose objects name someone who left", () => {
  const h = {} as { emu: TestEmulator };
  beforeAll(async () => {
    h.emu = await startTestEmulator({ now: Date.now });
  });
  afterAll(async () => {
    await h.emu.dispose();
  });

  test("a deactivated user is a getUser lookup by e-mail too, not a raw id", async () => {
    await h.emu.ok("POST", "/v2/schedules", {
      body: dashboardSchedule({
        name: "Old rota",
        timezone: "Europe/London",
        handoverStartAt: "2026-01-05T09:00:00Z",
        users: ["01USERFAY"],
      }),
    });
    const dir = path.join(work, "left");
    const result = await runExport([dir], { INCIDENT_API_KEY: h.emu.apiKey, INCIDENT_BASE_URL: h.emu.url });
    expect(result.code).toBe(0);
    const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
    expect(program).toContain('incident.getUserOutput({ email: "fay@example.com" })');
    expect(program).not.toContain("01USERFAY");
  });
});
