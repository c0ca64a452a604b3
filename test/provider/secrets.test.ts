/**
 * Secrets the provider handles never leave it in plaintext: not in the request trace
 * (INCIDENT_TRACE_FILE), nor in the messages of its errors, nor in the `__provider` text. The API
 * key's token and the alert source's secret token (answered by the API) and the provider's own key,
 * through the providers called directly against the in-process emulator. Where the engine keeps
 * them (the state, encrypted; the CLI's output) is test/engine/wholeAccount.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { resetRateLimitState } from "../../provider/client";
import { setCredentials } from "../../provider/credentials";
import { shimText } from "../../provider/shim";
import { providers } from "../../resources";
import { useAlertEmulator } from "../support/alertEmulator";

const ae = useAlertEmulator({ dashboardRoles: ["global_access"] });
const traceFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "secrets-trace-")), "trace.jsonl");

beforeEach(() => {
  process.env.INCIDENT_TRACE_FILE = traceFile;
  fs.rmSync(traceFile, { force: true });
});
afterEach(() => {
  delete process.env.INCIDENT_TRACE_FILE;
  setCredentials({ apiKey: ae.emu.apiKey, baseUrl: ae.emu.url });
  resetRateLimitState();
});

const check = async (kind: string, inputs: Record<string, unknown>) => {
  const checked = await providers[kind]!.check!({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  return checked.inputs;
};

/** No secret in any of the texts (named, so a failure says where it leaked). */
function expectNoneContains(texts: Record<string, string>, secrets: Record<string, string>): void {
  for (const [where, text] of Object.entries(texts)) {
    for (const [what, secret] of Object.entries(secrets)) {
      expect({ where, what, leaked: text.includes(secret) }).toEqual({ where, what, leaked: false });
    }
  }
}

test("the API key's token and the provider's key: in the outputs only, never in the trace", async () => {
  const created = await providers.ApiKey!.create!(await check("ApiKey", { name: "CI", roles: ["viewer"] }));
  const token = String(created.outs.token);
  // The real credential: finding it anywhere else would be a leak.
  expect((await ae.emu.call("GET", "/v1/identity", { token })).status).toBe(200);
  expect(providers.ApiKey!.spec.secretOutputs).toContain("token");
  const trace = fs.readFileSync(traceFile, "utf8");
  expect(trace.split("\n").filter(Boolean).length).toBeGreaterThan(0);
  expectNoneContains(
    { trace, "__provider text": shimText("ApiKey") },
    { token, "provider key": ae.emu.apiKey },
  );
  await providers.ApiKey!.delete!(created.id, created.outs);
});

test("the alert source's secret token: in the outputs only; a failed update names the source, not the token", async () => {
  const inputs = await check("AlertSource", {
    name: "Payments monitoring",
    sourceType: "http",
    template: { title: "{{ alert.title }}", description: "{{ alert.description }}" },
  });
  const created = await providers.AlertSource!.create!(inputs);
  const token = String(created.outs.secretToken);
  expect(token.length).toBeGreaterThan(10);
  expect(providers.AlertSource!.spec.secretOutputs).toContain("secretToken");

  ae.emu.faults.add({ method: "PUT", path: "^/v2/alert_sources/", kind: "status", status: 400 });
  const failure = await providers.AlertSource!.update!(created.id, created.outs, {
    ...inputs,
    name: "Renamed",
  }).then(
    () => "",
    (e: Error) => e.message,
  );
  ae.emu.faults.clear();
  expect(failure).toMatch(/AlertSource "Renamed" update failed: .*400/);
  expectNoneContains(
    { trace: fs.readFileSync(traceFile, "utf8"), "error message": failure },
    { token, "provider key": ae.emu.apiKey },
  );
  await providers.AlertSource!.delete!(created.id, created.outs);
});

test("a rejected key: the error says 401 and does not echo the key", async () => {
  const wrongKey = "wrong-key-0123456789abcdef";
  setCredentials({ apiKey: wrongKey, baseUrl: ae.emu.url });
  const failure = await providers.Severity!.create!(await check("Severity", { name: "Major" })).then(
    () => "",
    (e: Error) => e.message,
  );
  expect(failure).toContain("401");
  expectNoneContains(
    { trace: fs.readFileSync(traceFile, "utf8"), "error message": failure },
    { "wrong key": wrongKey },
  );
});
