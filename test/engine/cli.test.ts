/**
 * What only the real Pulumi CLI can show, on a quickstart-like program against the emulator: `preview
 * --expect-no-changes`, `--target`, a resource the program stops declaring, `preview --json` (kept
 * as a fixture for the review tools: test/fixtures/previewJson/), and an API key rotated in the stack
 * config (refresh and destroy configure the provider from the config saved in the state by the last
 * `up`, so they keep using the old key until an `up`, or `--run-program`, records the new one); a
 * lookup that finds nothing, and a program rule broken (two overrides of one layer that overlap, two
 * allowlists of one account), each reported as one clean line (test/fixtures/failedLookup).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as cli from "../../tools/pulumi/cli";
import { cliDriver } from "../support/driver";
import { harnessFixture } from "../support/harnessFixture";
import { portableDigest } from "../support/previewDigest";

const program = path.join(__dirname, "..", "fixtures", "cliScenarios", "program");
const fixtures = path.join(__dirname, "..", "fixtures", "previewJson");

const changes = (r: { steps: { op: string; name: string }[] }) => r.steps.filter((s) => s.op !== "same");

describe("the real CLI: flags, a program that changes shape, a rotated key", () => {
  const h = harnessFixture(program, cliDriver);

  test("expect-no-changes, --target, preview --json, a resource no longer declared", async () => {
    const first = await cli.up(h.options());
    expect(first.errors).toEqual([]);
    expect(first.counts.create).toBe(5);

    const quiet = await cli.preview({ ...h.options(), expectNoChanges: true });
    expect(quiet.exitCode).toBe(0);
    // A real change fails --expect-no-changes.
    const changed = await cli.preview({
      ...h.options({ regionDescription: "Edited" }),
      expectNoChanges: true,
    });
    expect(changed.exitCode).not.toBe(0);

    // preview --json: the PreviewDigest the review tools read, kept as a fixture (machine- and
    // run-specific values masked); the CLI's output must keep matching it (UPDATE_FIXTURES=1 rewrites it).
    const json = await cli.preview({ ...h.options({ regionDescription: "Edited" }), json: true });
    expect(json.json.steps.map((s: any) => s.op)).toContain("update");
    expect(json.json.changeSummary).toMatchObject({ update: 1 });
    const digest = portableDigest(json.json, h.emu.url);
    const fixture = path.join(fixtures, "update-in-place.json");
    if (process.env.UPDATE_FIXTURES === "1" || !fs.existsSync(fixture)) {
      fs.mkdirSync(fixtures, { recursive: true });
      fs.writeFileSync(fixture, `${JSON.stringify(digest, null, 2)}\n`);
    }
    expect(digest).toEqual(JSON.parse(fs.readFileSync(fixture, "utf8")));

    // --target: only the targeted resource changes; the other pending change stays pending.
    const state = cli.readState(h.options().stateFile);
    const region = state.resources.find((r) => r.name === "region")!;
    const targeted = await cli.up({ ...h.options({ regionDescription: "Edited" }), target: [region.urn] });
    expect(targeted.errors).toEqual([]);
    expect(changes(targeted).map((s) => `${s.op} ${s.name}`)).toEqual(["update region"]);

    // A field type change replaces the field delete-before-create (names are unique); its options
    // depend on its id and would be replaced too: the engine deletes them first, then the field,
    // then creates the field and the options again.
    const since = h.emu.requests.length;
    const retyped = await cli.up(h.options({ regionDescription: "Edited", regionType: "single_select" }));
    expect(retyped.errors).toEqual([]);
    expect(
      changes(retyped)
        .map((s) => `${s.op} ${s.name}`)
        .sort(),
    ).toEqual([
      "delete region",
      "delete region-eu-west",
      "delete region-us-east",
      "replace region",
      "replace region-eu-west",
      "replace region-us-east",
    ]);
    const writes = h.writesSince(since).map((w) => w.replace(/\/[0-9A-Z]{26}/g, "/<id>"));
    expect(writes.slice(0, 3).sort()).toEqual([
      "DELETE /v1/custom_field_options/<id> 204",
      "DELETE /v1/custom_field_options/<id> 204",
      "DELETE /v2/custom_fields/<id> 204",
    ]);
    expect(writes.indexOf("DELETE /v2/custom_fields/<id> 204")).toBe(2);
    expect(writes.slice(3)).toEqual([
      "POST /v2/custom_fields 201",
      "POST /v1/custom_field_options 201",
      "POST /v1/custom_field_options 201",
    ]);

    // The program stops declaring the API key: it is deleted.
    const dropped = await cli.up(
      h.options({ regionDescription: "Edited", regionType: "single_select", withoutKey: "true" }),
    );
    expect(dropped.errors).toEqual([]);
    expect(changes(dropped).map((s) => `${s.op} ${s.name}`)).toEqual(["delete ci-key"]);

    expect((await cli.destroy(h.options())).errors).toEqual([]);
    expect(await h.list("/v2/custom_fields")).toEqual([]);
  });

  test("a rotated API key: refresh and destroy use the key saved in the state until up runs", async () => {
    const oldKey = await h.emu.createApiKey("ci-old", ["global_access"]);
    const newKey = await h.emu.createApiKey("ci-new", ["global_access"]);
    const withKey = (key: string, extra: Parameters<typeof cli.up>[0] | object = {}) => ({
      ...h.options(),
      config: { ...h.options().config, "incident:apiKey": key },
      secretConfig: ["incident:apiKey"],
      ...extra,
    });
    expect((await cli.up(withKey(oldKey))).errors).toEqual([]);

    // Revoke the old key, as a rotation does, and set the new one in the stack config.
    const keys = (await h.emu.call("GET", "/v1/api_keys")).body.api_keys as any[];
    const old = keys.find((k) => k.name === "ci-old");
    expect((await h.emu.call("DELETE", `/v1/api_keys/${old.id}`)).status).toBe(204);

    const stale = await cli.refresh(withKey(newKey));
    expect(stale.ok).toBe(false);
    expect(stale.errors.map((e) => e.message).join("\n")).toMatch(/401|unauthori[sz]ed|API key/i);
    // --run-program configures the provider from the program's (current) config.
    expect((await cli.refresh(withKey(newKey, { runProgram: true }))).errors).toEqual([]);
    // An up records the new key with the provider; refresh and destroy work again.
    expect((await cli.up(withKey(newKey))).errors).toEqual([]);
    expect((await cli.refresh(withKey(newKey))).errors).toEqual([]);
    expect((await cli.destroy(withKey(newKey))).errors).toEqual([]);
    expect(await h.list("/v2/custom_fields")).toEqual([]);
  });
});

describe("the real CLI: a lookup that finds nothing", () => {
  const h = harnessFixture(path.join(__dirname, "..", "fixtures", "failedLookup", "program"), cliDriver);

  test.each([
    "output",
    "promise",
  ])("getUser of an unknown e-mail (%s form): the run fails with one clean line naming the lookup and the input", async (form) => {
    const since = h.emu.requests.length;
    const failed = await cli.preview(h.options({ form }));
    expect(failed.ok).toBe(false);
    const messages = failed.errors.map((e) => e.message);
    expect(
      messages.filter((m) => m.includes('getUser: no user with e-mail "nobody@example.com"')),
    ).toHaveLength(1);
    // Neither this package's stack frames nor a dump of the error's properties.
    for (const text of [...messages, failed.log]) {
      expect(text).not.toMatch(/^\s+at .*\(.*:\d+:\d+\)$/m);
      expect(text).not.toContain("[Circular");
    }
    expect(h.writesSince(since)).toEqual([]);
  });

  test("INCIDENT_LOG_LEVEL=info: each API call of the provider and of the lookups in the CLI's output, never the key", async () => {
    const run = await cli.up({
      ...h.options({ email: "ada@example.com" }),
      env: { INCIDENT_LOG_LEVEL: "info" },
    });
    expect(run.errors).toEqual([]);
    // The lookup (the program) and the create (the provider host), each with status, time and request id.
    expect(run.log).toMatch(
      /incident: GET \/v2\/users\?email=ada%40example\.com&include_inactive=true&page_size=250 → 200 in \d+ ms \(request req_\w+\)/,
    );
    expect(run.log).toMatch(/incident: POST \/v2\/escalation_paths → 201 in \d+ ms \(request req_\w+\)/);
    expect(run.log).not.toContain(h.emu.apiKey);
    expect((await cli.destroy(h.options({ email: "ada@example.com" }))).errors).toEqual([]);
  });

  test.each([
    [
      "overlap",
      'ScheduleOverride "easter-monday" (2031-04-14T00:00:00Z to 2031-04-15T00:00:00Z) overlaps ScheduleOverride "easter"',
    ],
    [
      "allowlists",
      'IpAllowlist "office-again": the account has one IP allowlist, and IpAllowlist "office" of this program manages it already',
    ],
  ])("program rules (%s): the preview fails with one clean line naming both resources, nothing written", async (form, said) => {
    const since = h.emu.requests.length;
    const failed = await cli.preview(h.options({ form }));
    // The CLI exits with an error: an error only logged (`pulumi.log.error`) is shown, but exits 0.
    expect(failed.exitCode).not.toBe(0);
    expect(failed.errors.filter((e) => e.message.includes(said))).toHaveLength(1);
    for (const text of [...failed.errors.map((e) => e.message), failed.log]) {
      expect(text).not.toMatch(/^\s+at .*\(.*:\d+:\d+\)$/m);
    }
    expect(h.writesSince(since)).toEqual([]);
  });

  test("no API key at all, three lookups: one error, said once", async () => {
    const {
      "incident:apiKey": _key,
      "incident:baseUrl": _url,
      ...config
    } = h.options({ form: "three" }).config ?? {};
    const failed = await cli.preview({
      ...h.options({ form: "three" }),
      config,
      secretConfig: [],
      env: { INCIDENT_API_KEY: "", INCIDENT_BASE_URL: "" },
    });
    expect(failed.ok).toBe(false);
    expect(
      failed.errors.filter((e) => e.message.includes("No API key for the incident provider")),
    ).toHaveLength(1);
    // The CLI prints a diagnostic as it happens and again in its summary: twice in its output.
    expect(failed.log.match(/No API key for the incident provider/g)?.length).toBeLessThanOrEqual(2);
  });
});
