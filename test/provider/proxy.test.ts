/**
 * The provider behind a corporate egress proxy (provider/client.ts): `HTTPS_PROXY` / `HTTP_PROXY`
 * and `NO_PROXY` honoured through undici's own proxy agent, and the explicit `incident:proxy`
 * setting. The API is named by a host only the proxy resolves (test/support/forwardProxy.ts), so a
 * request that went around the proxy would fail: every request the provider makes passes through
 * it. A dead proxy fails with an error that names it. And a corporate CA: `NODE_EXTRA_CA_CERTS`
 * (read by Node when a process starts, so in a process of its own) lets the client trust an API (or
 * a TLS-inspecting proxy) whose certificate that CA signed.
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { closeAllConnections, resetRateLimitState } from "../../provider/client";
import { clientFor, resolveCredentials, setCredentials } from "../../provider/credentials";
import { providers } from "../../resources";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import { type ForwardProxy, startForwardProxy } from "../support/forwardProxy";

const PROXY_VARS = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"];
let emu: TestEmulator;
let proxy: ForwardProxy;
/** The API's address as only the proxy knows it. */
let viaProxyOnly: string;

beforeAll(async () => {
  emu = await startTestEmulator();
  const port = new URL(emu.url).port;
  proxy = await startForwardProxy({ "api.incident.test": "127.0.0.1" });
  viaProxyOnly = `http://api.incident.test:${port}`;
});
afterAll(async () => {
  await closeAllConnections();
  await proxy.close();
  await emu.dispose();
});
const saved: Record<string, string | undefined> = {};
beforeEach(() => {
  for (const v of PROXY_VARS) {
    saved[v] = process.env[v];
    delete process.env[v];
  }
});
afterEach(async () => {
  for (const v of PROXY_VARS) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
  // Pools are made per base URL and proxy, reading the environment when made.
  await closeAllConnections();
  resetRateLimitState();
});

/** A severity made, read and deleted: the provider's every kind of request. */
async function lifecycle(): Promise<void> {
  const severity = providers.Severity!;
  const { inputs } = await severity.check!({}, { name: "Behind the proxy", description: "d" });
  const created = await severity.create(inputs);
  expect((await severity.read!(created.id, created.outs)).id).toBe(created.id);
  await severity.delete!(created.id, created.outs);
}

test("HTTP_PROXY: every request goes through the proxy (the API's host resolves nowhere else)", async () => {
  process.env.HTTP_PROXY = proxy.url;
  setCredentials({ apiKey: emu.apiKey, baseUrl: viaProxyOnly });
  const before = emu.requests.length;
  await lifecycle();
  expect(emu.requests.length - before).toBeGreaterThanOrEqual(3);
  expect(proxy.tunnels.length + proxy.forwarded.length).toBeGreaterThan(0);
  expect([...proxy.tunnels, ...proxy.forwarded].every((t) => t.includes("api.incident.test"))).toBe(true);
});

test("incident:proxy, with no proxy in the environment: the same", async () => {
  const carried = proxy.tunnels.length + proxy.forwarded.length;
  setCredentials({ apiKey: emu.apiKey, baseUrl: viaProxyOnly, proxy: proxy.url });
  await lifecycle();
  expect(proxy.tunnels.length + proxy.forwarded.length).toBeGreaterThan(carried);
});

test("NO_PROXY: the hosts it names are reached directly, around a proxy that is down", async () => {
  process.env.HTTP_PROXY = "http://127.0.0.1:9";
  process.env.NO_PROXY = "127.0.0.1,localhost";
  setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url });
  await lifecycle();
});

/** The message a severity's read fails with under the current settings ("" when it succeeds). */
const readFailure = () =>
  providers.Severity!.read!("01SEVERITY", { name: "x", __schema: 1 }).then(
    () => "",
    (e: Error) => e.message,
  );

/** The provider's client for these settings, made first with a short backoff (its retries are the client's tests). */
const quickRetries = () => clientFor(resolveCredentials(), { backoffBaseMs: 1, backoffCapMs: 4 });

test("a proxy that is down: the error names the proxy and the setting it came from", async () => {
  setCredentials({ apiKey: emu.apiKey, baseUrl: viaProxyOnly, proxy: "http://127.0.0.1:9" });
  quickRetries();
  const failure = await readFailure();
  expect(failure).toMatch(/ECONNREFUSED/);
  expect(failure).toContain("and the proxy it goes through: incident:proxy (http://127.0.0.1:9)");
  process.env.HTTPS_PROXY = "http://127.0.0.1:9";
  setCredentials({ apiKey: emu.apiKey, baseUrl: "https://api.incident.test" });
  quickRetries();
  const fromEnv = await readFailure();
  expect(fromEnv).toContain("and the proxy it goes through: HTTPS_PROXY (http://127.0.0.1:9)");
});

test("a proxy URL with credentials, refusing connections: the error names the proxy with its user and password masked", async () => {
  process.env.HTTP_PROXY = "http://proxy-user:proxy-password@127.0.0.1:9";
  setCredentials({ apiKey: emu.apiKey, baseUrl: viaProxyOnly });
  quickRetries();
  const fromEnv = await readFailure();
  expect(fromEnv).toMatch(/ECONNREFUSED/);
  expect(fromEnv).toContain("and the proxy it goes through: HTTP_PROXY (http://***@127.0.0.1:9)");
  expect(fromEnv).not.toMatch(/proxy-user|proxy-password/);
  delete process.env.HTTP_PROXY;
  setCredentials({
    apiKey: emu.apiKey,
    baseUrl: viaProxyOnly,
    proxy: "http://proxy-user:proxy-password@127.0.0.1:9",
  });
  quickRetries();
  const fromConfig = await readFailure();
  expect(fromConfig).toContain("and the proxy it goes through: incident:proxy (http://***@127.0.0.1:9)");
  expect(fromConfig).not.toMatch(/proxy-user|proxy-password/);
});

test("incident:proxy with credentials and no scheme: refused, the credentials masked", async () => {
  setCredentials({
    apiKey: emu.apiKey,
    baseUrl: viaProxyOnly,
    proxy: "proxy-user:proxy-password@proxy.corp:3128",
  });
  const failure = await readFailure();
  expect(failure).toContain('incident:proxy is not an http(s) URL: "***@proxy.corp:3128"');
  expect(failure).not.toMatch(/proxy-user|proxy-password/);
});

test("incident:proxy that is not a URL: a clear error naming the setting, before any request", async () => {
  setCredentials({ apiKey: emu.apiKey, baseUrl: viaProxyOnly, proxy: "proxy.corp:3128" });
  await expect(providers.Severity!.read!("01SEVERITY", { name: "x", __schema: 1 })).rejects.toThrow(
    /incident:proxy is not an http\(s\) URL: "proxy.corp:3128"/,
  );
});

test("NODE_EXTRA_CA_CERTS: an API whose certificate a corporate CA signed is trusted with that CA, refused without", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "corporate-ca-"));
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "1",
    "-subj",
    "/CN=Test Corp CA",
  );
  openssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "api.key",
    "-out",
    "api.csr",
    "-subj",
    "/CN=127.0.0.1",
  );
  fs.writeFileSync(path.join(dir, "san.ext"), "subjectAltName=IP:127.0.0.1\n");
  openssl(
    "x509",
    "-req",
    "-in",
    "api.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "api.pem",
    "-days",
    "1",
    "-extfile",
    "san.ext",
  );
  const server = createServer(
    { key: fs.readFileSync(path.join(dir, "api.key")), cert: fs.readFileSync(path.join(dir, "api.pem")) },
    (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ identity: { name: "ci", roles: [] } }));
    },
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The built client, as a provider process runs it (npm test builds dist/ first).
  const script = `
    const { ApiClient } = require(${JSON.stringify(path.join(__dirname, "..", "..", "dist", "provider", "client.js"))});
    new ApiClient({ apiKey: "k", baseUrl: ${JSON.stringify(url)}, maxRetries: 0 })
      .get("/v1/identity", "show identity")
      .then((b) => { console.log(b.identity.name); process.exit(0); }, (e) => { console.log(e.message); process.exit(1); });`;
  // A process of its own (Node reads NODE_EXTRA_CA_CERTS at start), not blocking this one's server.
  const run = (env: NodeJS.ProcessEnv) =>
    new Promise<{ status: number; out: string }>((done) =>
      execFile(process.execPath, ["-e", script], { env: { ...process.env, ...env } }, (error, stdout) =>
        done({ status: error ? Number(error.code ?? 1) : 0, out: stdout.trim() }),
      ),
    );
  try {
    expect(await run({ NODE_EXTRA_CA_CERTS: path.join(dir, "ca.pem") })).toEqual({ status: 0, out: "ci" });
    const refused = await run({ NODE_EXTRA_CA_CERTS: "" });
    expect(refused.status).toBe(1);
    expect(refused.out).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|unable to verify|self.signed|certificate/i);
  } finally {
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
