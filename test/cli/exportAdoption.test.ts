/**
 * `pulumi-incident export` of accounts made to break it, adopted in process (test/support/
 * exportInProcess.ts: formatted, type-checked as CommonJS and ES modules, run under the SDK's mocks,
 * zero writes):
 *
 * - objects, people and attributes named with every word a program cannot declare (ECMAScript's
 *   reserved and strict-mode words, every TypeScript keyword, Node's module scope, the program's own
 *   names), non-Latin and acronym names;
 * - order set in the dashboard (severity ranks, option sort keys) declared and so managed;
 * - catalog entries' attribute values keyed by the attribute resources;
 * - for every kind: what a declaration sets is what the export of its object declares.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildModel, type ExportedResource, type ExportModel, type Value } from "../../cli/export/model";
import { readAccount } from "../../cli/export/read";
import { ApiClient } from "../../provider/client";
import type { Props } from "../../provider/spec";
import { providers } from "../../resources";
import { dashboardSchedule } from "../support/dashboard";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import {
  adoptInProcess,
  type ExportedProject,
  exportProject,
  linkProjects,
  projectFormatProblems,
  typeCheckProjects,
} from "../support/exportInProcess";
import { KIND_SAMPLES, type SampleApi } from "../support/kindSamples";
import { ALL_RESERVED_NAMES } from "../support/reservedNames";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "export-adoption-"));
let emu: TestEmulator;

beforeAll(async () => {
  // The fake clock never refills the rate-limit bucket: one large enough for the whole file.
  emu = await startTestEmulator({ burst: 10_000_000, refillPerSecond: 10_000_000 });
});
afterAll(async () => {
  await emu.dispose();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A fresh account and an API call with a second ("dashboard") key. */
async function dashboard(): Promise<SampleApi> {
  await emu.reset();
  const key = await emu.createApiKey("dashboard", ["global_access"]);
  return { emu, call: (method, urlPath, body) => emu.ok(method, urlPath, { token: key, body }) };
}

/** Names a person might give, beyond the reserved words: acronyms, digits, other scripts, symbols. */
const PEOPLES_NAMES = [
  // The name the exported program's callbacks would take.
  "ids",
  "iOS",
  "macOS on-call",
  "PagerDuty",
  "Payments API",
  "SRE — EU (Tier 1)",
  "2nd line",
  "P1",
  "HTTP 5xx",
  "Café ☕",
  "Инцидент",
  "決済システム",
  "नमस्ते",
  "Ελληνικά",
  "🔥",
];

describe("an account named with every reserved word", () => {
  const ranks = new Map<string, number>();
  const sortKeys = new Map<string, number>();
  const projects: ExportedProject[] = [];
  let attributeIds: string[] = [];

  beforeAll(async () => {
    const api = await dashboard();
    // Severities: every reserved word, then people's names; ranked in the dashboard, not in
    // creation order.
    const names = [...ALL_RESERVED_NAMES, ...PEOPLES_NAMES];
    for (const [i, name] of names.entries()) {
      const rank = 2 * (names.length - i) + 7;
      const { severity } = await api.call("POST", "/v1/severities", { name, description: "", rank });
      ranks.set(severity.id, rank);
    }

    // People whose e-mail is a reserved word (and one whose e-mail is long), on a schedule:
    // lookups by e-mail.
    const people = [
      ..."eval arguments require module exports pulumi incident config ids delete let await undefined type".split(
        " ",
      ),
      "first.middle.last.of.a.responder.in.the.operations.team.emea",
    ];
    const users = emu.store.collection<{ id: string; [key: string]: unknown }>("users");
    for (const [i, who] of people.entries()) {
      users.set({ id: `01USERRESERVED${i}`, name: who, email: `${who}@example.com`, role: "responder" });
    }
    await api.call(
      "POST",
      "/v2/schedules",
      dashboardSchedule({
        name: "Export",
        timezone: "Europe/London",
        handoverStartAt: "2026-01-05T09:00:00Z",
        users: [...people.keys()].map((i) => `01USERRESERVED${i}`),
      }),
    );

    // A select field named Delete, its options ordered in the dashboard (one left at the default).
    const field = (
      await api.call("POST", "/v2/custom_fields", {
        name: "Delete",
        description: "Which",
        field_type: "single_select",
      })
    ).custom_field;
    for (const [value, sortKey] of [
      ["Exports", 30],
      ["eval", 10],
      ["Arguments", 20],
      ["iOS", undefined],
    ] as const) {
      const option = (
        await api.call("POST", "/v1/custom_field_options", {
          custom_field_id: field.id,
          value,
          ...(sortKey !== undefined ? { sort_key: sortKey } : {}),
        })
      ).custom_field_option;
      sortKeys.set(option.id, option.sort_key);
    }

    // Catalog: teams, and services whose attributes (one refers to teams) carry reserved names.
    const type = async (name: string, typeName: string) =>
      (
        await api.call("POST", "/v3/catalog_types", {
          name,
          description: `${name}s`,
          type_name: typeName,
          ranked: false,
          use_name_as_identifier: false,
        })
      ).catalog_type;
    const team = await type("Team", 'Custom["Team"]');
    const service = await type("Service", 'Custom["Service"]');
    const attributes = [
      { name: "Tier", type: "Number", array: false },
      { name: "Owner", type: 'Custom["Team"]', array: false },
      { name: "Eval", type: "String", array: false },
      { name: "Languages", type: "String", array: true },
      { name: "ids", type: "String", array: false },
      { name: "Runbook location in the operations wiki", type: "String", array: false },
      { name: "Primary dashboard of the service in Grafana", type: "String", array: false },
      { name: "Notes for the night shift responders", type: "Text", array: false },
    ];
    const schema = await api.call("POST", `/v3/catalog_types/${service.id}/actions/update_schema`, {
      version: service.schema.version,
      attributes,
    });
    attributeIds = schema.catalog_type.schema.attributes.map((a: { id: string }) => a.id);
    const [tier, owner, evalAttr, languages, ids, runbook, grafana, notes] = attributeIds as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const entry = async (typeId: string, name: string, values: Record<string, string | string[]>) =>
      (
        await api.call("POST", "/v3/catalog_entries", {
          catalog_type_id: typeId,
          name,
          aliases: [],
          attribute_values: Object.fromEntries(
            Object.entries(values).map(([id, v]) => [
              id,
              Array.isArray(v)
                ? { array_value: v.map((literal) => ({ literal })) }
                : { value: { literal: v } },
            ]),
          ),
        })
      ).catalog_entry;
    const payments = await entry(team.id, "Payments", {});
    await entry(team.id, "Identity", {});
    await entry(service.id, "Checkout", { [tier]: "1" });
    await entry(service.id, "Ledger", {
      [tier]: "2",
      [owner]: payments.id,
      [evalAttr]: "x",
      [languages]: ["go"],
    });
    await entry(service.id, "Search", {
      [tier]: "3",
      [owner]: payments.id,
      [evalAttr]: "a value long enough that the line it is on cannot hold it whole",
      [languages]: ["go", "typescript", "rust", "a language with a long name", "another one"],
      [ids]: "i",
      [runbook]: "https://wiki.example.com/ops/runbooks/search",
      [grafana]: "https://grafana.example.com/d/search",
      [notes]: "Page the search team lead before restarting the cluster",
    });

    projects.push(await exportProject(emu, path.join(work, "single")));
    projects.push(await exportProject(emu, path.join(work, "modules"), ["--modules"]));
    linkProjects(work);
  });

  test("every declaration is a name a TypeScript program, a CommonJS module and an ES module can take", () => {
    for (const p of projects) {
      const declared = [
        ...p.text.matchAll(/^(?:export )?const (\S+) =/gm),
        ...p.text.matchAll(/\.apply\(\((\S+)\) =>/g),
      ].map((m) => m[1]!);
      expect(declared.length).toBeGreaterThan(ALL_RESERVED_NAMES.length);
      const reserved = new Set(ALL_RESERVED_NAMES);
      expect(declared.filter((d) => reserved.has(d))).toEqual([]);
      // People are looked up under a name of their own.
      expect(p.text).toMatch(
        /^(export )?const evalUser = incident\.getUserOutput\(\{ email: "eval@example\.com" \}\);$/m,
      );
      expect(p.text).toMatch(/^(export )?const requireUser = /m);
    }
    // The severity named `ids` keeps its name; the person whose e-mail is ids@ and the callbacks'
    // parameter take others.
    expect(projects[0]!.text).toMatch(/^const ids = new incident\.Severity\("ids", \{$/m);
    expect(projects[0]!.text).toMatch(/^const idsUser = incident\.getUserOutput\(/m);
    expect(projects[0]!.text).toMatch(/\.apply\(\(ids2\) => \(\{/);
    // A long name: broken after the `=`, as a formatter does (the next test runs Biome).
    expect(projects[0]!.text).toContain(
      "const firstMiddleLastOfAResponderInTheOperationsTeamEmea =\n  incident.getUserOutput({\n",
    );
  });

  test("its program loads and adopts every object with zero writes (one file, and one module per kind)", async () => {
    for (const p of projects) {
      const stack = await adoptInProcess(emu, p);
      const inputs = (type: string) =>
        stack.resources
          .filter((r) => r.type.endsWith(`:${type}`))
          .map((r) => [r.id, r.inputs] as [string, Record<string, any>]);
      // The order set in the dashboard is declared, so the stack manages it.
      expect(new Map(inputs("Severity").map(([id, i]) => [id, i.rank]))).toEqual(ranks);
      expect(new Map(inputs("CustomFieldOption").map(([id, i]) => [id, i.sortKey]))).toEqual(sortKeys);
      // Attribute values keyed by the attribute resources, resolved to the attributes' ids.
      const values = inputs("CatalogEntry").flatMap(([, i]) => Object.keys(i.attributeValues ?? {}));
      expect(new Set(values)).toEqual(new Set(attributeIds));
    }
  });

  test("the project is laid out as a formatter would and type-checks", () => {
    for (const p of projects) expect(projectFormatProblems(p)).toBe("");
    expect(typeCheckProjects(work, projects)).toEqual({ commonjs: "", nodenext: "" });
  });

  test("catalog entries key their values by the attribute resources, never by a literal id", () => {
    for (const p of projects) {
      for (const id of attributeIds) {
        expect(p.text).toContain(`adoptId: "${id}"`);
        expect(p.text.split(`"${id}"`).length).toBe(2);
      }
      expect(p.text).toContain(".all({ serviceTier: serviceTier.id })");
      expect(p.text).toContain("[ids2.serviceOwner]: payments.id,");
    }
  });
});

/** The declaration of an exported resource with its references resolved to ids (secrets left out). */
function resolved(resource: ExportedResource, model: ExportModel): Props {
  const idOf = new Map<string, string>([
    ...model.resources.map((r): [string, string] => [r.variable, r.id]),
    ...model.lookups.map((l): [string, string] => [l.variable, l.id]),
  ]);
  const value = (v: Value): unknown => {
    if (Array.isArray(v)) return v.map(value);
    if (v === null || typeof v !== "object") return v;
    if ("$ref" in v) return idOf.get(v.$ref as string);
    if ("$interpolate" in v)
      return (v.$interpolate as Array<string | { $ref: string }>)
        .map((p) => (typeof p === "string" ? p : idOf.get(p.$ref)))
        .join("");
    if ("$secret" in v) return undefined;
    if ("$keyed" in v)
      return Object.fromEntries(
        (v.$keyed as Array<[string | { $ref: string }, Value]>).map(([k, x]) => [
          typeof k === "string" ? k : idOf.get(k.$ref),
          value(x),
        ]),
      );
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(x as Value)]));
  };
  return value(resource.args as Value) as Props;
}

/** More declarations of a kind than its sample's: inputs the sample leaves unset. */
const MORE: Record<string, (inputs: Record<string, unknown>) => Record<string, unknown>[]> = {
  AnnouncementRule: (inputs) => [
    {
      ...inputs,
      name: "Other template",
      // The account's default template (seeded): a template id must name a template of the account.
      templateId: "01HDEFAULTANNOUNCETEMPLATE",
      owningTeamIds: ["01TEAMPLATFORM"],
    },
  ],
  // Off where the default is on: an export that takes `false` for a default would flip them on adoption.
  AlertRoute: (inputs) => [{ ...inputs, name: "Disabled route", enabled: false }],
  MaintenanceWindow: (inputs) => [{ ...inputs, name: "Off the sidebar", showInSidebar: false }],
  CustomFieldOption: (inputs) => [{ ...inputs, value: "us-east", sortKey: 0 }],
  Severity: (inputs) => [{ ...inputs, name: "Minor", rank: 0 }],
  Workflow: (inputs) => [
    { ...inputs, name: "Private too", privateIncidentScope: "all", includePrivateEscalations: true },
  ],
};

test("for every kind, what a declaration sets is what the export of its object declares", async () => {
  const mismatches: string[] = [];
  for (const [kind, sample] of Object.entries(KIND_SAMPLES)) {
    const provider = providers[kind]!;
    const spec = provider.spec;
    if (spec.notExported) continue;
    const api = await dashboard();
    process.env.INCIDENT_API_KEY = emu.apiKey;
    process.env.INCIDENT_BASE_URL = emu.url;
    const prepared = await sample.prepare(api);
    const declarations = [prepared.inputs, ...(MORE[kind]?.(prepared.inputs) ?? [])];
    const made: Array<{ id: string; declared: Record<string, unknown>; checked: Props }> = [];
    for (const declared of declarations) {
      const checked = await provider.check!({}, declared);
      expect([kind, checked.failures ?? []]).toEqual([kind, []]);
      const { id } = await provider.create(checked.inputs);
      made.push({ id, declared, checked: checked.inputs });
    }
    const client = new ApiClient({ apiKey: emu.apiKey, baseUrl: emu.url, notify: () => {} } as never);
    const model = buildModel(await readAccount(client, { kinds: [kind] }));
    // What the export cannot give back: secret values, inputs the API never answers, the provider's own.
    const notRead = new Set([
      "adoptId",
      ...spec.secretOutputs,
      ...(spec.writeOnlyInputs ?? []),
      ...(spec.localInputs ?? []),
      // Inline options are objects of their own: exported as CustomFieldOption resources.
      ...(kind === "CustomField" ? ["options"] : []),
    ]);
    const canon = (v: Props): Props => (spec.canonical ? spec.canonical(v as never) : v);
    for (const { id, declared, checked } of made) {
      const resource = model.resources.find((r) => r.id === id);
      if (!resource) {
        mismatches.push(`${kind} ${id}: not exported`);
        continue;
      }
      expect([kind, resource.problems, resource.differences]).toEqual([kind, [], []]);
      // Every input the declaration sets, the export sets too (an optional input it leaves out is
      // not managed); adopting it writes nothing, so each equals the live value by the kind's rules.
      const secrets = Object.fromEntries(
        spec.secretOutputs.filter((k) => k in checked).map((k) => [k, checked[k]]),
      );
      const exported = spec.inputs.parse({ ...resolved(resource, model), ...secrets }) as Props;
      for (const key of Object.keys(declared)) {
        if (notRead.has(key) || declared[key] === undefined) continue;
        if (exported[key] === undefined) mismatches.push(`${kind}.${key}: declared, not exported`);
        // A scalar is exported as declared, by the kind's rules (a default the schema fills in does
        // not count: an export that left out `enabled: false` would turn the route on).
        else if (typeof checked[key] !== "object" && canon(exported)[key] !== canon(checked)[key])
          mismatches.push(
            `${kind}.${key}: declared ${JSON.stringify(checked[key])}, exported ${JSON.stringify(exported[key])}`,
          );
      }
    }
  }
  expect(mismatches).toEqual([]);
});
