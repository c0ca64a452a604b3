/**
 * Issue 10, part 4: errors name the operation, the resource, the setting to check and the attempts
 * made; long waits are said; the request timeout and the longest Retry-After are settings; and
 * `incident:endpoint` / `INCIDENT_ENDPOINT` is an alias of `incident:baseUrl`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { ApiClient } from "../../provider/client";
import { resolveSettings, setCredentials } from "../../provider/credentials";
import { LookupError, SettingsError } from "../../provider/errors";
import { customFieldProvider } from "../../resources/customField";
import { getUser, getUserOutput } from "../../resources/generated/lookups";

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

async function serve(handler: (req: any, res: any) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const field = { name: "Region", description: "d", fieldType: "text", __provider: "shim" };

async function createError(): Promise<Error> {
  const checked = await customFieldProvider.check!({}, field);
  return customFieldProvider.create!(checked.inputs).then(
    () => {
      throw new Error("the create succeeded");
    },
    (e) => e,
  );
}

describe("errors say what failed, where, what to check, and how often it was tried", () => {
  test("connection refused: the create, the resource, incident:baseUrl and the attempts", async () => {
    setCredentials({ apiKey: "k", baseUrl: "http://127.0.0.1:9" });
    const error = await createError();
    expect(error.message).toMatch(/^CustomField "Region" create failed: create custom field: network_error/);
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.message).toContain("check incident:baseUrl");
    expect(error.message).toMatch(/\(7 attempts; check incident:baseUrl\)/);
  }, 30_000);

  test("connection refused at the default URL's place names INCIDENT_ENDPOINT when that is where it came from", async () => {
    setCredentials({ apiKey: "k" });
    const settings = resolveSettings(() => undefined, {
      INCIDENT_API_KEY: "k",
      INCIDENT_ENDPOINT: "http://127.0.0.1:9",
    });
    expect(settings).toMatchObject({ baseUrl: "http://127.0.0.1:9", baseUrlSetting: "INCIDENT_ENDPOINT" });
    const error: any = await new ApiClient({ ...settings, backoffBaseMs: 1, maxRetries: 1 })
      .get("/v2/custom_fields", "list custom fields")
      .catch((e) => e);
    expect(error.message).toContain("(2 attempts; check INCIDENT_ENDPOINT)");
  });

  test("a base URL with credentials in it: every error prints it with its user and password masked", async () => {
    setCredentials({ apiKey: "k", baseUrl: "http://api-user:api-password@127.0.0.1:9" });
    const refused = await new ApiClient({
      ...resolveSettings(
        (k) =>
          ({ "incident:apiKey": "k", "incident:baseUrl": "http://api-user:api-password@127.0.0.1:9" })[k],
      ),
      backoffBaseMs: 1,
      maxRetries: 0,
    })
      .get("/v2/custom_fields", "list custom fields")
      .catch((e: Error) => e.message);
    expect(refused).toContain("(http://***@127.0.0.1:9)");
    const url = await serve((_req, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "not_found", status: 404, errors: [] }));
    });
    const withUser = url.replace("http://", "http://api-user:api-password@");
    const missing = await new ApiClient({ apiKey: "k", baseUrl: withUser, maxRetries: 0 })
      .get("/v2/custom_fields", "list custom fields")
      .catch((e: Error) => e.message);
    expect(missing).toContain(`check incident:baseUrl (${url.replace("http://", "http://***@")})`);
    const hanging = (await serve(() => undefined)).replace("http://", "http://api-user:api-password@");
    const timedOut = await new ApiClient({ apiKey: "k", baseUrl: hanging, timeoutMs: 100, maxRetries: 0 })
      .get("/v2/custom_fields", "list custom fields")
      .catch((e: Error) => e.message);
    expect(timedOut).toMatch(/no answer from http:\/\/\*\*\*@127\.0\.0\.1:\d+ within/);
    // The settings' own errors, and an error body that names a URL.
    expect(() =>
      resolveSettings(
        (k) =>
          ({
            "incident:endpoint": "https://u:endpoint-password@a.example.com",
            "incident:baseUrl": "https://u:base-password@b.example.com",
          })[k],
        { INCIDENT_API_KEY: "k" },
      ),
    ).toThrow(
      'incident:baseUrl ("https://***@b.example.com") and incident:endpoint ("https://***@a.example.com")',
    );
    expect(() =>
      resolveSettings(() => undefined, {
        INCIDENT_API_KEY: "k",
        INCIDENT_BASE_URL: "ftp://u:base-password@b.example.com",
      }),
    ).toThrow('INCIDENT_BASE_URL is not an http(s) URL: "ftp://***@b.example.com"');
    for (const text of [refused, missing, timedOut]) expect(text).not.toMatch(/api-user|api-password/);
  });

  test("a hanging server: the error names the create (not the lookup that followed) and incident:requestTimeout, quickly", async () => {
    const url = await serve(() => undefined); // never answers
    setCredentials({ apiKey: "k", baseUrl: url, requestTimeout: "0.3" });
    const started = Date.now();
    const error = await createError();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error.message).toMatch(/^CustomField "Region" create failed: create custom field: timeout/);
    expect(error.message).toContain("its answer was lost");
    expect(error.message).toContain("then list custom fields, to find it");
    expect(error.message).toContain("incident:requestTimeout");
    expect(error.message).toMatch(/2 attempts/);
  });

  test("Retry-After longer than incident:maxRetryAfter fails at once, saying so", async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls++;
      res.writeHead(429, { "content-type": "application/json", "retry-after": "600" });
      res.end(JSON.stringify({ type: "too_many_requests", status: 429, request_id: "r", errors: [] }));
    });
    setCredentials({ apiKey: "k", baseUrl: url });
    const started = Date.now();
    const error = await createError();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(calls).toBe(1);
    expect(error.message).toContain("429 too_many_requests");
    expect(error.message).toContain(
      "the API asked to wait 600 s (Retry-After), longer than incident:maxRetryAfter",
    );
  });

  test("a wait of a few seconds or more is said on the console; incident:maxRetryAfter raises the ceiling", async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "6" });
        res.end("{}");
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ custom_fields: [] }));
      }
    });
    const said: string[] = [];
    const settings = resolveSettings(
      (key) => ({ "incident:apiKey": "k", "incident:baseUrl": url, "incident:maxRetryAfter": "5" })[key],
    );
    const refused: any = await new ApiClient({ ...settings, notify: (m) => said.push(m) })
      .get("/v2/custom_fields", "list custom fields")
      .catch((e) => e);
    expect(refused.message).toContain(
      "longer than incident:maxRetryAfter / INCIDENT_MAX_RETRY_AFTER allows (5 s)",
    );
    calls = 0;
    const slept: number[] = [];
    const client = new ApiClient({
      ...settings,
      apiKey: "other",
      maxRetryAfterMs: 10_000,
      notify: (m) => said.push(m),
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
    await client.get("/v2/custom_fields", "list custom fields");
    expect(said).toEqual([
      "incident: list custom fields: rate limited by the API; waiting 6 s (Retry-After) before attempt 2",
    ]);
  });
});

describe("settings", () => {
  const env = { INCIDENT_API_KEY: "k" };
  test("incident:endpoint is an alias of incident:baseUrl (the Terraform provider's name)", () => {
    expect(
      resolveSettings((k) => ({ "incident:endpoint": "https://eu.example.com/" })[k], env),
    ).toMatchObject({
      baseUrl: "https://eu.example.com/",
      baseUrlSetting: "incident:endpoint",
    });
    expect(
      resolveSettings(() => undefined, { ...env, INCIDENT_ENDPOINT: "https://x.example.com" }),
    ).toMatchObject({
      baseUrl: "https://x.example.com",
    });
    // Both, the same: fine; both, different: refused, naming both.
    expect(
      resolveSettings(
        (k) =>
          ({ "incident:endpoint": "https://a.example.com/", "incident:baseUrl": "https://a.example.com" })[k],
        env,
      ).baseUrlSetting,
    ).toBe("incident:baseUrl");
    expect(() =>
      resolveSettings(
        (k) =>
          ({ "incident:endpoint": "https://a.example.com", "incident:baseUrl": "https://b.example.com" })[k],
        env,
      ),
    ).toThrow(/incident:baseUrl .* and incident:endpoint .* name different APIs/);
  });

  test("incident:requestTimeout / INCIDENT_REQUEST_TIMEOUT and incident:maxRetryAfter / INCIDENT_MAX_RETRY_AFTER", () => {
    expect(resolveSettings(() => undefined, env)).toMatchObject({
      timeoutMs: 30_000,
      maxRetryAfterMs: 120_000,
    });
    expect(
      resolveSettings(() => undefined, {
        ...env,
        INCIDENT_REQUEST_TIMEOUT: "5",
        INCIDENT_MAX_RETRY_AFTER: "0",
      }),
    ).toMatchObject({ timeoutMs: 5000, maxRetryAfterMs: 0 });
    expect(resolveSettings((k) => ({ "incident:requestTimeout": "2.5s" })[k], env).timeoutMs).toBe(2500);
    expect(() => resolveSettings((k) => ({ "incident:requestTimeout": "soon" })[k], env)).toThrow(
      /incident:requestTimeout must be a number of seconds/,
    );
    expect(() => resolveSettings(() => undefined, { ...env, INCIDENT_MAX_RETRY_AFTER: "-1" })).toThrow(
      /INCIDENT_MAX_RETRY_AFTER must be a number of seconds/,
    );
  });
});

/**
 * Every settings error is a SettingsError (the package's own class): one line however it is
 * printed, raised before any request, by the provider host and by a program's lookups alike. A
 * plain Error raised inside a lookup's Output (an apply) is what the Pulumi SDK prints with
 * `util.inspect(error, { colors: true })`, and Node 20 spends tens of seconds on its frame of
 * `node_modules/@pulumi/output.ts` (twice): an invalid `incident:logLevel` in a program with a
 * lookup failed after about 90 s. An error of one line has no frame to walk.
 */
describe("every settings error: the package's SettingsError, one line, from the provider and the lookups", () => {
  const key = { INCIDENT_API_KEY: "k" };
  const cases: [string, Record<string, string>, NodeJS.ProcessEnv, RegExp][] = [
    ["no key", {}, {}, /^No API key for the incident provider/],
    [
      "incident:baseUrl",
      { "incident:baseUrl": "api.incident.io" },
      key,
      /^incident:baseUrl is not an http\(s\) URL/,
    ],
    [
      "INCIDENT_BASE_URL",
      {},
      { ...key, INCIDENT_BASE_URL: "ftp://x" },
      /^INCIDENT_BASE_URL is not an http\(s\) URL/,
    ],
    ["incident:endpoint", { "incident:endpoint": "nope" }, key, /^incident:endpoint is not an http\(s\) URL/],
    [
      "incident:baseUrl and incident:endpoint",
      { "incident:baseUrl": "https://a.example.com", "incident:endpoint": "https://b.example.com" },
      key,
      /name different APIs/,
    ],
    [
      "incident:requestTimeout",
      { "incident:requestTimeout": "soon" },
      key,
      /^incident:requestTimeout must be a number of seconds/,
    ],
    [
      "INCIDENT_REQUEST_TIMEOUT",
      {},
      { ...key, INCIDENT_REQUEST_TIMEOUT: "0" },
      /^INCIDENT_REQUEST_TIMEOUT must be a number of seconds/,
    ],
    [
      "incident:maxRetryAfter",
      { "incident:maxRetryAfter": "-1" },
      key,
      /^incident:maxRetryAfter must be a number of seconds/,
    ],
    [
      "INCIDENT_MAX_RETRY_AFTER",
      {},
      { ...key, INCIDENT_MAX_RETRY_AFTER: "a day" },
      /^INCIDENT_MAX_RETRY_AFTER must be/,
    ],
    [
      "incident:proxy",
      { "incident:proxy": "proxy.corp:3128" },
      key,
      /^incident:proxy is not an http\(s\) URL/,
    ],
    [
      "incident:logLevel",
      { "incident:logLevel": "loud" },
      key,
      /^incident:logLevel must be one of warn, info, debug/,
    ],
    ["INCIDENT_LOG_LEVEL", {}, { ...key, INCIDENT_LOG_LEVEL: "trace" }, /^INCIDENT_LOG_LEVEL must be one of/],
    [
      "incident:lockInDashboard",
      { "incident:lockInDashboard": "yes" },
      key,
      /^incident:lockInDashboard must be true or false/,
    ],
  ];

  /** Fails unless `error` is a SettingsError of one line, however Node or the Pulumi SDK prints it. */
  const expectOneLine = (error: unknown, message: RegExp) => {
    expect(error).toBeInstanceOf(SettingsError);
    const e = error as SettingsError;
    expect(e.message).toMatch(message);
    expect(e.stack).toBe(`${e.name}: ${e.message}`);
    expect(inspect(Object.assign(e, { promise: Promise.resolve() }), { colors: true })).not.toContain("\n");
  };

  test.each(
    cases,
  )("%s: resolved and checked (the provider host's and the lookups' settings)", (_n, config, env, message) => {
    let thrown: unknown;
    try {
      resolveSettings((k) => config[k], env);
    } catch (error) {
      thrown = error;
    }
    expectOneLine(thrown, message);
  });

  test("the provider host: a resource's read fails with the SettingsError, before any request", async () => {
    setCredentials({ apiKey: "k", baseUrl: "http://127.0.0.1:9", logLevel: "loud" });
    const error = await customFieldProvider.read!("01FIELD", { ...field, __schema: 1 }).catch((e) => e);
    expectOneLine(error, /^incident:logLevel must be one of/);
  });

  test("a program's lookup, as a promise and as an Output: the SettingsError, in one line", async () => {
    await pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: a.name, state: a.inputs }), call: () => ({}) },
      "settings",
      "dev",
      false,
    );
    pulumi.runtime.setConfig("incident:apiKey", "k");
    pulumi.runtime.setConfig("incident:logLevel", "loud");
    const asPromise = await getUser({ email: "ada@example.com" }).catch((e) => e);
    expectOneLine(asPromise, /^incident:logLevel must be one of/);
    // The Output form: what the SDK's uncaught-error handler gets in a program (here, every
    // promise of the Output is observed: an unobserved rejection would fail the test run).
    const output = getUserOutput({ email: pulumi.output("ada@example.com") }) as any;
    const [asOutput, ...others] = await Promise.all(
      [output.promise(), output.isKnown, output.isSecret, output.allResources()].map((p: Promise<unknown>) =>
        p.catch((e: unknown) => e),
      ),
    );
    expectOneLine(asOutput, /^incident:logLevel must be one of/);
    for (const e of others) expect(e).toBe(asOutput);
    // Lookup arguments a lookup refuses: its own error, in one line too.
    const badArgs = await getUser({ email: "" } as any).catch((e) => e);
    expect(badArgs).toBeInstanceOf(LookupError);
    expect(badArgs.stack).toBe(`LookupError: ${badArgs.message}`);
  });
});
