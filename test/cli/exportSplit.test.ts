/**
 * `pulumi-incident export --split-by team` and catalog entries in bulk, in process (test/support/
 * exportInProcess.ts): an account of several teams (objects with one owning team, several, none;
 * parts; references across teams; teams and objects named to break the files written; a catalog
 * type of 60 entries, one attribute of it kept in the dashboard; a type the catalog importer syncs)
 * exported as a fleet; every object declared in exactly one project, references across projects as
 * lookups; each project formatted, type-checked, adopted with zero writes and previewed clean.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { IMPORTER_SYNC_ID } from "../../cli/export/catalog";
import { stringLiteral } from "../../cli/export/render";
import { ApiClient } from "../../provider/client";
import type { Props } from "../../provider/spec";
import { providers } from "../../resources";
import { dashboardSchedule } from "../support/dashboard";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import {
  adoptInProcess,
  type ExportedFleet,
  exportFleet,
  exportProject,
  linkProjects,
  previewInProcess,
  projectFormatProblems,
  typeCheckProjects,
} from "../support/exportInProcess";
import { accountObjects } from "../support/exportRoundTrip";
import { parseComment } from "../support/markdownDom";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "export-split-"));
let emu: TestEmulator;

/** Teams named to break a Markdown file, a YAML file, a directory name and a TypeScript string. */
const HOSTILE_TEAMS = [
  {
    id: "01TEAMHOSTILEMARKDOWN",
    name: "Ops </details><script>alert(1)</script> | [x](https://evil.example) @here",
  },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a team's name, not a template
  { id: "01TEAMHOSTILEYAML", name: 'SRE "\u007f\u0085\ufeff" \n- name: injected\n# comment: ${x} `' },
  { id: "01TEAMHOSTILESCRIPT", name: "東京 本社" },
  // The account project's own directory name.
  { id: "01TEAMHOSTILEACCOUNT", name: "account" },
];
/** An object name that would end a string, a comment or a template in the program. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: an object's name, not a template
const HOSTILE_NAME = '*/ ${process.exit(1)} ` "; // \\ </script>';

/** A secret's name that would be markup in a README and break a YAML line. */
const HOSTILE_SECRET = 'Token <img src=x onerror=alert(1)> [x](https://evil.example) "\u007f\n# y';

/** Ids of what the account holds, by a name of the test's own. */
const ids: Record<string, string> = {};
const secretValues: Record<string, string> = {};

async function seed(): Promise<void> {
  const teams = emu.store.collection<{
    id: string;
    name: string;
    catalog_entry_id: string;
    member_ids: string[];
  }>("teams");
  for (const t of HOSTILE_TEAMS) teams.set({ ...t, catalog_entry_id: `${t.id}ENTRY`, member_ids: [] });
  const client = new ApiClient({ apiKey: emu.apiKey, baseUrl: emu.url, notify: () => {} });
  const create = async (name: string, kind: string, args: Props) => {
    const spec = providers[kind]!.spec;
    const made = await spec.api.create({ client }, spec.inputs.parse(args));
    ids[name] = spec.idOf(made.live);
    return ids[name]!;
  };
  const user = (await emu.ok("GET", "/v2/users?email=ada%40example.com")).users[0].id as string;
  // Schedules as the dashboard makes them, owned by teams.
  const rota = async (key: string, name: string, teamIds: string[]) => {
    const made = dashboardSchedule({
      name,
      timezone: "Europe/London",
      handoverStartAt: "2026-01-05T09:00:00Z",
      users: [user],
    }) as { schedule: Props };
    const body = { schedule: { ...made.schedule, team_ids: teamIds } };
    ids[key] = (await emu.ok("POST", "/v2/schedules", { body })).schedule.id;
  };
  const path = (name: string, scheduleId: string, teamIds: string[]) => ({
    name,
    teamIds,
    path: [
      {
        id: "start",
        level: {
          targets: [{ type: "schedule", id: scheduleId, urgency: "high", scheduleMode: "currently_on_call" }],
          timeToAckSeconds: 300,
        },
      },
    ],
  });

  // No owner: the account project.
  await create("severity", "Severity", { name: "Critical", description: "Everything is down" });
  await create("impact", "CustomField", { name: "Impact", description: "Who", fieldType: "single_select" });
  await create("impactHigh", "CustomFieldOption", { customFieldId: ids.impact!, value: "High" });

  // One owner each; two schedules share a name (no lookup by name finds one of them alone).
  await rota("paymentsRota", "Rota", ["01TEAMPAYMENTS"]);
  await rota("identityRota", "Rota", ["01TEAMIDENTITY"]);
  await rota("accountTeamRota", "Account team rota", ["01TEAMHOSTILEACCOUNT"]);
  await create("paymentsPath", "EscalationPath", path("Payments", ids.paymentsRota!, ["01TEAMPAYMENTS"]));
  // The hostile team's path pages Identity's rota: declared there, found by id (its name is shared).
  await create(
    "hostilePath",
    "EscalationPath",
    path(HOSTILE_NAME, ids.identityRota!, ["01TEAMHOSTILEMARKDOWN"]),
  );
  await create("identitySource", "AlertSource", {
    name: "Identity webhook",
    sourceType: "http",
    template: { title: "{{ alert.title }}", description: "{{ alert.description }}" },
    owningTeamIds: ["01TEAMIDENTITY"],
  });
  await create("tokyoSource", "AlertSource", {
    name: "東京 アラート",
    sourceType: "http",
    template: { title: "{{ alert.title }}", description: "{{ alert.description }}" },
    owningTeamIds: ["01TEAMHOSTILESCRIPT"],
  });
  await create("yamlSource", "AlertSource", {
    name: HOSTILE_NAME,
    sourceType: "http",
    template: { title: "{{ alert.title }}", description: "{{ alert.description }}" },
    owningTeamIds: ["01TEAMHOSTILEYAML"],
  });
  // Identity's route pages Payments' path: a lookup by name in Identity's project.
  await create("identityRoute", "AlertRoute", {
    name: "Identity route",
    owningTeamIds: ["01TEAMIDENTITY"],
    alertSources: [{ alertSourceId: ids.identitySource! }],
    escalationConfig: {
      autoCancelEscalations: true,
      escalationTargets: [{ escalationPaths: { arrayValue: [{ literal: ids.paymentsPath! }] } }],
    },
    incidentConfig: { enabled: true, template: { title: "{{ alert.title }}" } },
  });
  // Payments' workflow reads the account's custom field: a lookup by name there.
  await create("paymentsWorkflow", "Workflow", {
    name: "Page on impact",
    owningTeamIds: ["01TEAMPAYMENTS"],
    trigger: "incident.updated",
    conditionGroups: [
      {
        conditions: [
          { subject: `incident.custom_field["${ids.impact}"]`, operation: "is_set", paramBindings: [] },
        ],
      },
    ],
    steps: [
      { id: "post", name: "slack.post_message", paramBindings: [{ value: { literal: "C0PAYMENTS" } }] },
    ],
    onceFor: ["incident.url"],
    runsOnIncidents: "newly_created",
    runsOnIncidentModes: ["standard"],
    continueOnStepError: false,
    state: "active",
  });
  await create("paymentsKey", "ApiKey", {
    name: "Payments deploys",
    teamRoles: ["schedules_editor"],
    teamIds: ["01TEAMPAYMENTS"],
  });

  // Several owners: the account project, listed in its README.
  secretValues["Shared token"] = "shared-token-value-1234";
  secretValues[HOSTILE_SECRET] = "platform-token-value-5678";
  await create("sharedSecret", "Secret", {
    name: "Shared token",
    value: secretValues["Shared token"],
    owningTeamIds: ["01TEAMPLATFORM", "01TEAMPAYMENTS"],
  });
  await create("platformSecret", "Secret", {
    name: HOSTILE_SECRET,
    value: secretValues[HOSTILE_SECRET],
    owningTeamIds: ["01TEAMPLATFORM"],
  });

  // Catalog: a type no team owns (entries one each), a type Platform owns with 60 entries (in
  // bulk) whose Notes attribute is kept in the dashboard, and a type the catalog importer syncs.
  await create("tiers", "CatalogType", {
    name: "Tier",
    description: "Service tiers",
    typeName: 'Custom["Tier"]',
  });
  for (const n of [1, 2, 3])
    await create(`tier${n}`, "CatalogEntry", {
      catalogTypeId: ids.tiers!,
      name: `Tier ${n}`,
      externalId: `tier-${n}`,
    });
  await create("services", "CatalogType", {
    name: "Service",
    description: "Services",
    typeName: 'Custom["Service"]',
    owningTeamIds: ["01TEAMPLATFORM"],
  });
  await create("serviceTier", "CatalogTypeAttribute", {
    catalogTypeId: ids.services!,
    name: "Tier",
    type: 'Custom["Tier"]',
  });
  await create("serviceNotes", "CatalogTypeAttribute", {
    catalogTypeId: ids.services!,
    name: "Notes",
    type: "String",
    mode: "dashboard",
  });
  for (let i = 0; i < 60; i++) {
    await create(`service${i}`, "CatalogEntry", {
      catalogTypeId: ids.services!,
      name: i === 0 ? HOSTILE_NAME : `Service ${i}`,
      externalId: `service-${i}`,
      attributeValues: { [ids.serviceTier!]: ids[`tier${(i % 3) + 1}`]!, [ids.serviceNotes!]: `note ${i}` },
    });
  }
  await create("imported", "CatalogType", {
    name: "Imported",
    description: "Synced by the catalog importer",
    typeName: 'Custom["Imported"]',
    annotations: { [IMPORTER_SYNC_ID]: "org/repo" },
  });
  // The importer's configuration defines the type's schema: its attribute is the importer's too.
  await create("importedOwner", "CatalogTypeAttribute", {
    catalogTypeId: ids.imported!,
    name: "Owner",
    type: "String",
  });
  for (const n of [1, 2])
    await create(`imported${n}`, "CatalogEntry", {
      catalogTypeId: ids.imported!,
      name: `Imported ${n}`,
      externalId: `i-${n}`,
    });
}

/** Only characters YAML 1.2 lets a file hold as they are (c-printable, less the byte order mark). */
const YAML_PRINTABLE =
  /^[\t\n\r\u0020-\u007e\u0085\u00a0-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]*$/u;

/** The adopted ids of a project's program. */
const adoptIds = (text: string) => [...text.matchAll(/adoptId: "([^"]+)"/g)].map((m) => m[1]!);
/** `new incident.<Kind>(` … `adoptId: "<id>"` pairs of a program. */
const declared = (text: string) =>
  [...text.matchAll(/new incident\.(\w+)\(\s*"[^"]*",\s*\{\s*adoptId: "([^"]+)"/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );

let fleet: ExportedFleet;
const project = (dir: string) => {
  const p = fleet.projects.find((x) => path.basename(x.dir) === dir);
  if (!p) throw new Error(`no project ${dir}: ${fleet.projects.map((x) => path.basename(x.dir)).join(", ")}`);
  return p;
};

beforeAll(async () => {
  emu = await startTestEmulator({ burst: 10_000_000, refillPerSecond: 10_000_000 });
  await seed();
  fleet = await exportFleet(emu, path.join(work, "fleet"), ["--project", "acme"]);
  linkProjects(work);
});
afterAll(async () => {
  await emu.dispose();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("export --split-by team", () => {
  test("one project per owning team and one for the account, in directories named safely", () => {
    const dirs = fleet.projects.map((p) => path.basename(p.dir));
    expect(dirs).toEqual(
      expect.arrayContaining(["account", "account-2", "identity", "payments", "platform", "team"]),
    );
    // The Markdown team and the YAML team, by the Latin words of their names.
    expect(dirs).toHaveLength(8);
    for (const d of dirs) expect(d).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    for (const p of fleet.projects) {
      const yaml = fs.readFileSync(path.join(p.dir, "Pulumi.yaml"), "utf8");
      expect(yaml).toMatch(new RegExp(`^name: "acme-${path.basename(p.dir)}"\\n`));
    }
  });

  test("every object is declared in exactly one project", async () => {
    const all = fleet.projects.flatMap((p) => declared(p.text));
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(fleet.projects.reduce((n, p) => n + adoptIds(p.text).length, 0));
    // What the account holds: each entry of the 60-entry type is in its CatalogEntries (adopted by
    // the type's id); the importer's type, attribute and entries are not exported; the export's own
    // key neither.
    const bulk = new Set(Array.from({ length: 60 }, (_, i) => ids[`service${i}`]!));
    const importers = new Set([ids.imported!, ids.importedOwner!, ids.imported1!, ids.imported2!]);
    const expected = (await accountObjects(emu)).filter((o) => {
      const id = o.split(" ")[1]!;
      return !bulk.has(id) && !importers.has(id);
    });
    expect([...all].sort()).toEqual([...expected, `CatalogEntries ${ids.services}`].sort());
  });

  test("owner decides the project: one team, none, several (the account's README says so), parts with their whole", () => {
    const where = (id: string) =>
      fleet.projects.filter((p) => adoptIds(p.text).includes(id)).map((p) => path.basename(p.dir));
    expect(where(ids.paymentsRota!)).toEqual(["payments"]);
    expect(where(ids.paymentsPath!)).toEqual(["payments"]);
    expect(where(ids.paymentsWorkflow!)).toEqual(["payments"]);
    expect(where(ids.paymentsKey!)).toEqual(["payments"]);
    expect(where(ids.identityRoute!)).toEqual(["identity"]);
    expect(where(ids.accountTeamRota!)).toEqual(["account-2"]);
    expect(where(ids.tokyoSource!)).toEqual(["team"]);
    expect(where(ids.severity!)).toEqual(["account"]);
    expect(where(ids.impact!)).toEqual(["account"]);
    expect(where(ids.impactHigh!)).toEqual(["account"]);
    expect(where(ids.platformSecret!)).toEqual(["platform"]);
    expect(where(ids.sharedSecret!)).toEqual(["account"]);
    // A catalog type Platform owns: its attributes and its entries with it.
    expect(where(ids.services!)).toEqual(["platform"]);
    expect(where(ids.serviceTier!)).toEqual(["platform"]);
    expect(where(ids.tiers!)).toEqual(["account"]);
    expect(where(ids.tier1!)).toEqual(["account"]);

    const readme = parseComment(fs.readFileSync(path.join(project("account").dir, "README.md"), "utf8"));
    expect(readme.headings.map((h) => h.text)).toContain("Owned by several teams");
    const shared = readme.tables.find((t) => t[0]!.includes("owning teams"))!;
    expect(shared.slice(1)).toEqual([["Secret", '"Shared token"', ids.sharedSecret, "Payments, Platform"]]);
  });

  test("references across projects are lookups, never a second declaration", () => {
    const identity = project("identity").text;
    expect(identity).toContain('incident.getEscalationPathOutput({ name: "Payments" })');
    expect(declared(identity).filter((d) => d.startsWith("EscalationPath"))).toEqual([]);
    expect(identity).not.toContain(`"${ids.paymentsPath}"`);

    const payments = project("payments").text;
    expect(payments).toContain('incident.getCustomFieldOutput({ name: "Impact" })');
    expect(payments).toMatch(/pulumi\.interpolate`incident\.custom_field\["\$\{impact\.id\}"\]`/);

    // An entry's value naming an entry of another project: the type looked up, then the entry by id.
    const platform = project("platform").text;
    expect(platform).toContain('incident.getCatalogTypeOutput({ name: "Tier" })');
    expect(platform).toMatch(
      new RegExp(
        `incident\\.getCatalogEntryOutput\\(\\{\\s*catalogTypeId: tier\\.id,\\s*identifier: "${ids.tier1}",?\\s*\\}\\)`,
      ),
    );
    // A schedule whose name two schedules share: no lookup finds it alone, so its id is written,
    // and the README says where it is declared.
    const hostile = fleet.projects.find((p) => adoptIds(p.text).includes(ids.hostilePath!))!;
    expect(hostile.text).toContain(`id: "${ids.identityRota}"`);
    const readme = parseComment(fs.readFileSync(path.join(hostile.dir, "README.md"), "utf8"));
    expect(readme.listItems.join("\n")).toContain(`(${ids.identityRota}), declared in acme-identity`);

    // The fleet's README: each project, what it holds, the order to apply them in.
    const top = parseComment(fleet.readme);
    const table = top.tables[0]!;
    expect(table[0]).toEqual(["#", "directory", "project", "holds", "objects", "looks up objects of"]);
    expect(table.slice(1).map((r) => r[1])).toHaveLength(fleet.projects.length);
    const order = table.slice(1).map((r) => r[1]!);
    expect(order[0]).toBe("account");
    // Identity looks up Payments' path: Payments comes first.
    expect(order.indexOf("payments")).toBeLessThan(order.indexOf("identity"));
    expect(table.find((r) => r[1] === "identity")![5]).toContain("payments");
  });

  test("every file holds hostile names as text: Markdown, YAML, TypeScript", () => {
    for (const readme of [
      fleet.readme,
      ...fleet.projects.map((p) => fs.readFileSync(path.join(p.dir, "README.md"), "utf8")),
    ]) {
      const parsed = parseComment(readme);
      // The title is the one heading of level 1 (the review tools' comments have none).
      expect(parsed.problems.filter((p) => p !== "an element: <h1>")).toEqual([]);
    }
    const top = parseComment(fleet.readme);
    const holds = top.tables[0]!.map((r) => r[3]).join("\n");
    for (const t of HOSTILE_TEAMS.slice(0, 2))
      expect(holds).toContain(`Objects team "${asRead(t.name)}" owns`);

    // YAML: every character one a YAML file may hold; each description reads back as written.
    const printable = YAML_PRINTABLE;
    for (const p of fleet.projects) {
      const yaml = fs.readFileSync(path.join(p.dir, "Pulumi.yaml"), "utf8");
      expect(yaml).toMatch(printable);
      const description = /^description: (".*")$/m.exec(yaml)![1]!;
      const team = HOSTILE_TEAMS.find((t) => JSON.parse(description).includes(t.name));
      if (path.basename(p.dir) === "account-2") expect(team?.name).toBe("account");
      expect(yaml.split("\n").filter((l) => /^\S/.test(l))).toEqual(
        expect.arrayContaining([
          "runtime:",
          expect.stringMatching(/^name: /),
          expect.stringMatching(/^description: /),
        ]),
      );
      expect(
        yaml
          .split("\n")
          .filter((l) => /^[a-z]/.test(l))
          .map((l) => l.split(":")[0]),
      ).toEqual(expect.arrayContaining(["name", "description", "runtime"]));
      expect(yaml).not.toMatch(/^- name: injected/m);
    }
    const yamlTeam = fleet.projects.find((p) =>
      JSON.parse(
        /^description: (".*")$/m.exec(fs.readFileSync(path.join(p.dir, "Pulumi.yaml"), "utf8"))![1]!,
      ).includes(HOSTILE_TEAMS[1]!.name),
    );
    expect(yamlTeam).toBeDefined();
    // TypeScript: hostile object names only inside string literals (the programs type-check and
    // run in the next test).
    const all = fleet.projects.map((p) => p.text).join("\n");
    expect(all).toContain(`name: ${stringLiteral(HOSTILE_NAME)},`);
  });

  test("each project is formatted, type-checks, adopts its objects with zero writes, and previews clean", async () => {
    for (const p of fleet.projects) expect([p.dir, projectFormatProblems(p)]).toEqual([p.dir, ""]);
    expect(typeCheckProjects(work, fleet.projects)).toEqual({ commonjs: "", nodenext: "" });
    for (const p of fleet.projects) {
      const config = secretConfig(p.dir);
      const stack = await adoptInProcess(emu, p, config);
      await previewInProcess(emu, p, stack, config);
    }
  });
});

describe("catalog entries", () => {
  test("a type above 50 entries is one CatalogEntries; the dashboard's attribute is left to it", () => {
    const platform = project("platform").text;
    expect(declared(platform).filter((d) => d.startsWith("CatalogEntr"))).toEqual([
      `CatalogEntries ${ids.services}`,
    ]);
    expect(platform).toMatch(/managedAttributes: \[serviceTier\.id\]/);
    expect(platform).not.toContain("note 1");
    expect(platform).toContain('"service-59": {');
    // The small type: an entry each; the importer's type: neither it, its attribute nor its
    // entries, and the README says why, once for each.
    expect(declared(project("account").text).filter((d) => d.startsWith("CatalogEntr"))).toHaveLength(3);
    const programs = fleet.projects.map((p) => p.text).join("\n");
    for (const id of [ids.imported!, ids.importedOwner!]) expect(programs).not.toContain(`adoptId: "${id}"`);
    expect(programs).not.toContain('"i-1"');
    for (const what of [
      'CatalogType "Imported"',
      'CatalogTypeAttribute "Imported: 1 attribute"',
      'CatalogEntry "Imported: 2 entries"',
    ])
      expect(fleet.readme).toContain(
        `${what} (${ids.imported}): synced by the catalog importer (sync id "org/repo"), which writes the type, its attributes and its entries on every run`,
      );
  });

  test("--catalog-entries each and bulk override the threshold; bulk adopts with zero writes", async () => {
    const each = await exportProject(emu, path.join(work, "each"), ["--catalog-entries", "each"]);
    expect(declared(each.text).filter((d) => d.startsWith("CatalogEntries"))).toEqual([]);
    expect(declared(each.text).filter((d) => d.startsWith("CatalogEntry "))).toHaveLength(63);
    // Each entry of the type with a dashboard attribute manages the others only.
    expect(each.text).toMatch(/managedAttributes: \[serviceTier\.id\]/);

    const bulk = await exportProject(emu, path.join(work, "bulk"), ["--catalog-entries", "bulk"]);
    for (const p of [each, bulk]) {
      expectReadmeHoldsText(p.dir);
      expect(fs.readFileSync(path.join(p.dir, "Pulumi.yaml"), "utf8")).toMatch(YAML_PRINTABLE);
    }
    expect(parseComment(fs.readFileSync(path.join(bulk.dir, "README.md"), "utf8")).listItems).toContain(
      `${Object.keys(secretConfig(bulk.dir)).find((k) => secretConfig(bulk.dir)[k] === secretValues[HOSTILE_SECRET])}: the value of Secret "${asRead(HOSTILE_SECRET)}"`,
    );
    expect(
      declared(bulk.text)
        .filter((d) => d.startsWith("CatalogEntr"))
        .sort(),
    ).toEqual([`CatalogEntries ${ids.services}`, `CatalogEntries ${ids.tiers}`].sort());
    const config = secretConfig(bulk.dir);
    const stack = await adoptInProcess(emu, bulk, config);
    await previewInProcess(emu, bulk, stack, config);
    // The dashboard changes the attribute it keeps: still no change to make.
    await emu.ok("PUT", `/v3/catalog_entries/${ids.service3}`, {
      body: {
        name: "Service 3",
        aliases: [],
        attribute_values: { [ids.serviceNotes!]: { value: { literal: "edited in the dashboard" } } },
        update_attributes: [ids.serviceNotes],
      },
    });
    await previewInProcess(emu, bulk, stack, config);
  });

  test("a type some of whose entries a --name filter leaves out stays one CatalogEntry each", async () => {
    const filtered = await exportProject(emu, path.join(work, "filtered"), [
      "--include",
      "CatalogEntry",
      "--name",
      "^Service [0-9]+$",
    ]);
    expect(declared(filtered.text).filter((d) => d.startsWith("CatalogEntries"))).toEqual([]);
    expect(filtered.out).toMatch(/Catalog type "Service": its 59 entries are written one CatalogEntry each/);
  });
});

/** User text as a reader sees it in the Markdown (cli/markdown.ts `oneLine`, whitespace squashed). */
const asRead = (text: string) =>
  text
    .replace(/[\n\u0085]/g, " ")
    .replace(/\u007f/g, "\ufffd")
    .replace(/\s+/g, " ")
    .trim();

/** The project's secret config (placeholders in Pulumi.yaml, by the secret's name). */
function secretConfig(dir: string): Record<string, string> {
  const yaml = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
  const out: Record<string, string> = {};
  for (const m of yaml.matchAll(/^ {2}[^:\n]+:(\S+):\n {4}description: (".*")$/gm)) {
    const name = /^The value of Secret "(.*)" \(secret\)$/s.exec(JSON.parse(m[2]!))![1]!;
    out[m[1]!] = secretValues[name]!;
  }
  return out;
}

/** Each README of a project holds user text as text: no markup comes from it (the title aside). */
function expectReadmeHoldsText(dir: string): void {
  const parsed = parseComment(fs.readFileSync(path.join(dir, "README.md"), "utf8"));
  expect([dir, parsed.problems.filter((p) => p !== "an element: <h1>")]).toEqual([dir, []]);
}
