import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { markDashboardAuthored } from "../../emulator/families/alertSources";
import { ApiClient, closeAllConnections } from "../../provider/client";
import { setCredentials } from "../../provider/credentials";
import { Mutex } from "../../provider/mutex";
import { alertAttributeInputs, alertAttributeProvider } from "../../resources/alertAttribute";
import {
  type AlertSourceInputs,
  alertSourceFromApi,
  alertSourceInputs,
  alertSourcePayload,
  alertSourceProvider,
  findAlertSources,
} from "../../resources/alertSource";
import { templateToRichText } from "../../resources/shared/richText";
import { type AlertMiniServer, startAlertMiniServer } from "../fixtures/alertSource/miniServer";
import { shapeProblems } from "../fixtures/escalationPath/referenceShape";

const parse = (raw: Record<string, unknown>): AlertSourceInputs => alertSourceInputs.parse(raw);
const canonical = alertSourceProvider.spec.canonical!;

const httpSource = (over: Record<string, unknown> = {}, attributeId = "01ATTR") => ({
  name: "Payments webhook",
  sourceType: "http",
  template: {
    title: "{{ alert.title }} in {{ alert.attributes.service }}",
    description: "{{ alert.description }}\n\nSent by {{ alert.source }}",
    attributes: [
      { alertAttributeId: attributeId, binding: { value: { reference: "alert.attributes.service" } } },
    ],
    expressions: [
      {
        label: "Service",
        reference: "svc",
        rootReference: "payload",
        operations: [{ operationType: "navigate", navigate: { reference: "service" } }],
      },
      {
        label: "Priority",
        reference: "prio",
        rootReference: "payload",
        operations: [
          {
            operationType: "parse",
            parse: { source: "$.priority", returns: { array: false, type: "String" } },
          },
        ],
      },
    ],
  },
  owningTeamIds: ["team-b", "team-a"],
  autoResolveTimeoutMinutes: 60,
  autoResolveIncidentAlerts: false,
  ...over,
});

describe("mapping", () => {
  test.each([
    ["http", httpSource()],
    [
      "heartbeat",
      {
        name: "HB",
        sourceType: "heartbeat",
        template: { title: "Heartbeat", description: "" },
        heartbeatOptions: { intervalSeconds: 60 },
      },
    ],
    [
      "email",
      {
        name: "Mail",
        sourceType: "email",
        template: { title: "{{ email.subject }}", description: "x" },
        emailOptions: { redactions: ["phone_numbers"] },
      },
    ],
    [
      "http_custom",
      {
        name: "Custom",
        sourceType: "http_custom",
        template: { title: "t", description: "d" },
        httpCustomOptions: { deduplicationKeyPath: "$.id", transformExpression: "return {}" },
      },
    ],
    [
      "jira",
      {
        name: "Jira",
        sourceType: "jira",
        template: { title: "t", description: "d" },
        jiraOptions: { projectIds: ["10001"] },
      },
    ],
  ])("%s: create and update payloads have the reference shapes", (_n, raw) => {
    const args = parse(raw);
    expect(shapeProblems(alertSourcePayload(args, true), "AlertSourcesCreatePayloadV2")).toEqual([]);
    expect(shapeProblems(alertSourcePayload(args, false), "AlertSourcesUpdatePayloadV2")).toEqual([]);
  });

  test("templates are sent as rich-text documents; source_type only on create", () => {
    const args = parse(httpSource());
    const create = alertSourcePayload(args, true) as any;
    expect(JSON.parse(create.template.title.literal)).toEqual({
      type: "doc",
      content: [
        {
          type: "paragraph",
          content: [
            { type: "varSpec", attrs: { name: "alert.title" } },
            { type: "text", text: " in " },
            { type: "varSpec", attrs: { name: "alert.attributes.service" } },
          ],
        },
      ],
    });
    expect(create.source_type).toBe("http");
    expect((alertSourcePayload(args, false) as any).source_type).toBeUndefined();
    expect(create.template.attributes[0]).toEqual({
      alert_attribute_id: "01ATTR",
      binding: { value: { reference: "alert.attributes.service" } },
    });
  });
});

/** A live object as the API answers it for `httpSource()`, with the read-back quirks applied. */
function liveFor(args: AlertSourceInputs, over: Record<string, unknown> = {}): any {
  const payload = alertSourcePayload(args, true) as any;
  const decorate = (literal: string) => {
    const doc = JSON.parse(literal);
    for (const p of doc.content)
      for (const n of p.content ?? [])
        if (n.type === "varSpec") n.attrs = { label: "Label", missing: false, ...n.attrs };
    return JSON.stringify(doc);
  };
  return {
    id: "01AS",
    name: payload.name,
    source_type: payload.source_type,
    template: {
      title: { label: "x", literal: decorate(payload.template.title.literal) },
      description: { label: "x", literal: decorate(payload.template.description.literal) },
      attributes: [...payload.template.attributes]
        .reverse()
        .map((a: any) => ({ ...a, binding: { ...a.binding, merge_strategy: "first_wins" } })),
      expressions: [...payload.template.expressions]
        .reverse()
        .map((e: any) => ({ ...e, returns: { array: false, type: "String" } })),
      is_private: false,
    },
    owning_team_ids: [...(payload.owning_team_ids ?? [])].reverse(),
    auto_resolve_timeout_minutes: payload.auto_resolve_timeout_minutes,
    secret_token: "sk",
    alert_events_url: "https://x",
    ...over,
  };
}

describe("normalisation rules", () => {
  const declared = parse(httpSource());
  const noDiff = (live: any, d: AlertSourceInputs = declared) => {
    const back = alertSourceFromApi(live, d);
    expect(canonical(back)).toEqual(canonical(d));
    return back;
  };

  test('"rich text vs template": decorated documents read back as the declared templates', () => {
    const back = noDiff(liveFor(declared));
    expect(back.template.title).toBe(declared.template.title);
    expect(back.template.description).toBe(declared.template.description);
  });

  test('"rich text vs template": a dashboard envelope around the same document is no change', () => {
    const live = liveFor(declared);
    live.template.title.literal = JSON.stringify({
      schema_version: "1.0.0",
      text_node: JSON.parse(live.template.title.literal),
    });
    expect(noDiff(live).template.title).toBe(declared.template.title);
  });

  test('"rich text vs template": a changed title is drift, shown as a template', () => {
    const live = liveFor(declared);
    live.template.title.literal = templateToRichText("{{ alert.title }}");
    const back = alertSourceFromApi(live, declared);
    expect(back.template.title).toBe("{{ alert.title }}");
    expect(canonical(back)).not.toEqual(canonical(declared));
  });

  test('"write-only options": never-echoed options keep the declared value', () => {
    const email = parse({
      name: "Mail",
      sourceType: "email",
      template: { title: "t", description: "d" },
      emailOptions: { redactions: ["phone_numbers"], transformExpression: "x" },
      autoResolveTimeoutMinutes: 5,
      autoResolveIncidentAlerts: false,
    });
    const live = {
      ...liveFor(email),
      email_options: { email_address: "a@b", redactions: [] },
      owning_team_ids: undefined,
    };
    const back = noDiff(live, email);
    expect(back.emailOptions).toEqual(email.emailOptions);
    expect(back.autoResolveIncidentAlerts).toBe(false);
    const custom = parse({
      name: "C",
      sourceType: "http_custom",
      template: { title: "t", description: "d" },
      httpCustomOptions: { deduplicationKeyPath: "$.id", transformExpression: "return {}" },
    });
    expect(noDiff({ ...liveFor(custom), owning_team_ids: undefined }, custom).httpCustomOptions).toEqual(
      custom.httpCustomOptions,
    );
  });

  test('"unordered sets": owning teams, attributes and expressions in another order are no change', () => {
    const back = noDiff(liveFor(declared));
    expect(back.owningTeamIds).toEqual(["team-b", "team-a"]);
    expect(back.template.expressions.map((e) => e.reference)).toEqual(["svc", "prio"]);
  });

  test('"canonical JSON literals": a re-encoded binding literal keeps the declared text', () => {
    const d = parse(
      httpSource({
        template: {
          ...httpSource().template,
          attributes: [{ alertAttributeId: "01ATTR", binding: { value: { literal: '{"b": 1, "a": ">"}' } } }],
        },
      }),
    );
    const live = liveFor(d);
    live.template.attributes[0].binding.value = { label: "x", literal: '{"a":"\\u003e","b":1}' };
    expect(noDiff(live, d).template.attributes[0]!.binding.value!.literal).toBe('{"b": 1, "a": ">"}');
  });

  test('"server defaults": filled-in heartbeat options and merge strategy read back as omitted', () => {
    const hb = parse({
      name: "HB",
      sourceType: "heartbeat",
      template: { title: "t", description: "d" },
      heartbeatOptions: { intervalSeconds: 60 },
    });
    const live = {
      ...liveFor(hb),
      owning_team_ids: undefined,
      heartbeat_options: {
        interval_seconds: 60,
        failure_threshold: 1,
        grace_period_seconds: 0,
        ping_url: "u",
      },
    };
    expect(noDiff(live, hb).heartbeatOptions).toEqual({ intervalSeconds: 60 });
    expect(noDiff(liveFor(declared)).template.attributes[0]!.binding.mergeStrategy).toBeUndefined();
  });
});

describe("check (zero API calls)", () => {
  const failures = async (raw: Record<string, unknown>) =>
    ((await alertSourceProvider.check!({}, raw)).failures ?? []).map((f) => f.reason);

  test.each([
    [
      httpSource({
        template: { ...httpSource().template, attributes: [{ alertAttributeId: "a", binding: {} }] },
      }),
      "template.attributes[0].binding",
    ],
    [
      httpSource({
        template: {
          ...httpSource().template,
          expressions: [
            { label: "l", reference: "r", rootReference: "x", operations: [{ operationType: "explode" }] },
          ],
        },
      }),
      "template.expressions[0].operations[0].operationType",
    ],
    [
      httpSource({ template: { ...httpSource().template, title: "{{ alert.title" } }),
      "template.title: invalid template: unclosed",
    ],
    [
      httpSource({ template: { ...httpSource().template, description: "{{ x | shout }}" } }),
      "template.description",
    ],
    [httpSource({ sourceType: "nope" }), "sourceType"],
    [
      { name: "HB", sourceType: "heartbeat", template: { title: "t", description: "d" } },
      "heartbeatOptions: required when sourceType is heartbeat",
    ],
    [httpSource({ jiraOptions: { projectIds: ["1"] } }), "jiraOptions: only allowed when sourceType is jira"],
    [httpSource({ disabled: true }), "disabled: only heartbeat sources can be disabled"],
    [httpSource({ autoResolveTimeoutMinutes: undefined }), "autoResolveIncidentAlerts"],
    [
      httpSource({
        template: {
          ...httpSource().template,
          attributes: [
            { alertAttributeId: "a", binding: { value: { literal: "x" } } },
            { alertAttributeId: "a", binding: { value: { literal: "y" } } },
          ],
        },
      }),
      "template.attributes[1].alertAttributeId: attribute bound twice",
    ],
  ])("fails with the path named (%#)", async (raw, expected) => {
    const reasons = await failures(raw);
    expect(reasons.join("\n")).toContain(expected);
  });
});

describe("provider against the emulator families", () => {
  let server: AlertMiniServer;
  let attributeId: string;
  let other: ApiClient;
  const checked = async (raw: Record<string, unknown>) => {
    const r = await alertSourceProvider.check!({}, raw);
    expect(r.failures).toEqual([]);
    const { __provider, ...inputs } = r.inputs;
    return inputs;
  };

  beforeAll(async () => {
    server = await startAlertMiniServer();
    setCredentials({ apiKey: "test-key", baseUrl: server.url });
    other = new ApiClient({ apiKey: "second-key", baseUrl: server.url });
    const attr = await alertAttributeProvider.create!(
      alertAttributeInputs.parse({ name: "Service", type: "String" }),
    );
    attributeId = attr.id;
  });
  afterAll(async () => {
    await closeAllConnections();
    await server.close();
  });

  test("check makes no API call", async () => {
    const before = server.calls.length;
    await alertSourceProvider.check!({}, httpSource({ sourceType: "bad" }));
    await alertSourceProvider.check!({}, httpSource({}, attributeId));
    expect(server.calls.length).toBe(before);
  });

  test("create → read without diff → out-of-band edit → update restores → delete", async () => {
    const inputs = await checked(httpSource({}, attributeId));
    const created = await alertSourceProvider.create!(inputs);
    expect(created.outs.secretToken).toMatch(/^sk_/);
    expect(created.outs.alertEventsUrl).toContain(created.id);
    expect(created.outs.template.title).toBe(inputs.template.title);
    expect((await alertSourceProvider.diff!(created.id, created.outs, inputs)).changes).toBe(false);

    const read = await alertSourceProvider.read!(created.id, created.outs);
    expect(read.props!.autoResolveIncidentAlerts).toBe(false); // write-only, kept
    expect((await alertSourceProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);

    // Out-of-band edit with another key: the full v2 payload with another title.
    const payload = alertSourcePayload(inputs as AlertSourceInputs, false) as any;
    payload.template.title = { literal: templateToRichText("Edited {{ alert.title }}") };
    await other.put(`/v2/alert_sources/${created.id}`, "edit", payload);
    const drifted = await alertSourceProvider.read!(created.id, read.props!);
    expect(drifted.props!.template.title).toBe("Edited {{ alert.title }}");
    expect((await alertSourceProvider.diff!(created.id, drifted.props!, inputs)).changes).toBe(true);

    const updated = await alertSourceProvider.update!(created.id, drifted.props!, inputs);
    expect(updated.outs.template.title).toBe(inputs.template.title);

    // A dashboard edit that changes nothing but the stored form (envelope) is no change.
    server.sources.set(created.id, markDashboardAuthored(server.sources.get(created.id)!));
    const enveloped = await alertSourceProvider.read!(created.id, updated.outs);
    expect(
      JSON.parse(
        (await other.get<any>(`/v2/alert_sources/${created.id}`, "show")).alert_source.template.title.literal,
      ),
    ).toHaveProperty("text_node");
    expect(enveloped.props!.template.title).toBe(inputs.template.title);
    expect((await alertSourceProvider.diff!(created.id, enveloped.props!, inputs)).changes).toBe(false);

    const listed = await findAlertSources(other, "http");
    expect(listed.alertSources.map((s) => s.id)).toContain(created.id);
    expect((await findAlertSources(other, "jira")).alertSources).toEqual([]);

    await alertSourceProvider.delete!(created.id, enveloped.props!);
    expect((await alertSourceProvider.read!(created.id, enveloped.props!)).id).toBe("");
    expect(server.shapeErrors).toEqual([]);
  });

  test("heartbeat, email, jira: create, read back with no diff", async () => {
    for (const raw of [
      {
        name: "HB",
        sourceType: "heartbeat",
        template: { title: "Heartbeat missed", description: "" },
        heartbeatOptions: { intervalSeconds: 60 },
        disabled: true,
      },
      {
        name: "Mail",
        sourceType: "email",
        template: { title: "{{ email.subject }}", description: "d" },
        emailOptions: { redactions: ["phone_numbers"] },
      },
      {
        name: "Jira",
        sourceType: "jira",
        template: { title: "t", description: "d" },
        jiraOptions: { projectIds: ["10001"] },
      },
    ]) {
      const inputs = await checked(raw);
      const created = await alertSourceProvider.create!(inputs);
      const read = await alertSourceProvider.read!(created.id, created.outs);
      expect((await alertSourceProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);
      if (raw.sourceType === "heartbeat") {
        expect(read.props!.pingUrl).toContain(created.id);
        expect(server.sources.get(created.id)!.disabled).toBe(true);
      }
      if (raw.sourceType === "email") expect(read.props!.emailAddress).toContain("@");
      await alertSourceProvider.delete!(created.id, read.props!);
    }
    expect(server.shapeErrors).toEqual([]);
  });

  test("a 422 is reported against the input path", async () => {
    const inputs = await checked(httpSource({ name: "Bad attr" }, "01MISSING"));
    await expect(alertSourceProvider.create!(inputs)).rejects.toThrow(
      /template\.attributes\[0\]\.alertAttributeId: no alert attribute/,
    );
  });

  test("adoption of an existing source by id (dashboard-authored)", async () => {
    const inputs = await checked(httpSource({ name: "Adopted" }, attributeId));
    const body = await other.post<any>(
      "/v2/alert_sources",
      "create",
      alertSourcePayload(inputs as AlertSourceInputs, true),
    );
    const id = body.alert_source.id;
    server.sources.set(id, markDashboardAuthored(server.sources.get(id)!));
    const adopted = await alertSourceProvider.create!({ ...inputs, adoptId: id });
    expect(adopted.id).toBe(id);
    expect(adopted.outs.template.title).toBe(inputs.template.title);
    expect(
      [...server.sources.values()].filter((s) => !s.archived && s.payload.name === "Adopted"),
    ).toHaveLength(1);
    await alertSourceProvider.delete!(id, adopted.outs);
  });

  test("the alert-config lock: parallel writes do not collide (the emulator rejects overlapping ones)", async () => {
    server.latencyMs = 30;
    try {
      // Without the lock, the API rejects whoever is second.
      const raw = await Promise.allSettled(
        [1, 2, 3].map((i) =>
          other.post("/v2/alert_attributes", "create", { name: `Raw ${i}`, type: "String", array: false }),
        ),
      );
      expect(raw.filter((r) => r.status === "rejected").length).toBeGreaterThan(0);
      const conflictsBefore = server.gate.conflicts;
      // Through the providers (one process, like the dynamic-provider host): all succeed.
      const results = await Promise.all([
        alertAttributeProvider.create!(alertAttributeInputs.parse({ name: "Par 1", type: "String" })),
        alertAttributeProvider.create!(alertAttributeInputs.parse({ name: "Par 2", type: "String" })),
        alertSourceProvider.create!(await checked(httpSource({ name: "Par S1" }, attributeId))),
        alertSourceProvider.create!(await checked(httpSource({ name: "Par S2" }, attributeId))),
      ]);
      expect(results.every((r) => r.id)).toBe(true);
      expect(server.gate.conflicts).toBe(conflictsBefore);
    } finally {
      server.latencyMs = 0;
    }
  });

  test("Mutex runs work one at a time, in order, and survives failures", async () => {
    const m = new Mutex();
    const log: string[] = [];
    const job = (n: string, fail = false) =>
      m.run(async () => {
        log.push(`start ${n}`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`end ${n}`);
        if (fail) throw new Error(n);
      });
    await Promise.allSettled([job("a"), job("b", true), job("c")]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });
});

/**
 * Lifecycle through the real dynamic-provider host (test/harness). Skipped until the harness is in
 * the tree; it drives test/fixtures/alertSource/program against the API stand-in.
 */
const harnessPath = path.join(__dirname, "../harness/index.ts");
(fs.existsSync(harnessPath) ? describe : describe.skip)("lifecycle through the harness", () => {
  const program = path.join(__dirname, "../fixtures/alertSource/program");
  const stateFile = path.join(os.tmpdir(), `as-lifecycle-${process.pid}.json`);
  let server: AlertMiniServer;
  let harness: any;
  const config = (over: Record<string, string> = {}) => ({
    "incident:apiKey": "lifecycle-key",
    "incident:baseUrl": server.url,
    ...over,
  });
  const ops = (result: any) => (result.steps ?? []).map((s: any) => s.op ?? s.kind);
  const live = () => [...server.sources.values()].filter((s) => !s.archived);

  beforeAll(async () => {
    harness = require(harnessPath);
    server = await startAlertMiniServer();
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(stateFile, { force: true });
  });

  test("create → same → out-of-band drift → restore → update → destroy; adoption", async () => {
    const first = await harness.up({ program, stateFile, config: config() });
    expect(first.errors ?? []).toEqual([]);
    expect(live()).toHaveLength(1);
    const id = live()[0]!.id;

    const callsBefore = server.calls.length;
    const second = await harness.up({ program, stateFile, config: config() });
    expect(ops(second).filter((o: string) => o !== "same")).toEqual([]);
    expect(server.calls.slice(callsBefore).filter((c) => c.method !== "GET")).toEqual([]);

    // Out-of-band edit with a second key: refresh sees it, up restores it.
    const other = new ApiClient({ apiKey: "second-key", baseUrl: server.url });
    const stored = server.sources.get(id)!;
    await other.put(`/v2/alert_sources/${id}`, "edit", {
      ...stored.payload,
      source_type: undefined,
      template: { ...stored.payload.template, title: { literal: templateToRichText("edited") } },
    });
    const refreshed = await harness.refresh({ program, stateFile, config: config() });
    expect(ops(refreshed)).toContain("read-drift");
    await harness.up({ program, stateFile, config: config() });
    expect(
      JSON.parse(server.sources.get(id)!.payload.template.title.literal).content[0].content[0].attrs.name,
    ).toBe("alert.title");

    await harness.up({ program, stateFile, config: config({ "alert-source-lifecycle:variant": "updated" }) });
    expect(server.sources.get(id)!.payload.owning_team_ids).toEqual(["team-1", "team-2"]);

    await harness.destroy({ program, stateFile, config: config() });
    expect(live()).toEqual([]);
    expect([...server.attributes.values()].every((a) => a.deleted)).toBe(true);

    // Adoption of an existing source by id.
    server.sources.set(id, { ...server.sources.get(id)!, archived: false });
    await harness.up({ program, stateFile, config: config({ "alert-source-lifecycle:adoptId": id }) });
    expect(live().map((s) => s.id)).toEqual([id]);
    await harness.destroy({ program, stateFile, config: config() });
  });
});
