/**
 * The `incident-emulator` command (emulator/cli.ts, run from TypeScript): flags, output, clean stop
 * on SIGINT/SIGTERM, faults armed at start with `--fault`.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { request } from "undici";
import { describeFaultRule, type FaultRule, parseFaultSpec } from "../../emulator/faults";

const root = path.join(__dirname, "..", "..");
const cli = path.join(root, "emulator", "cli.ts");
const nodeArgs = ["-r", "ts-node/register/transpile-only", cli];

function runSync(args: string[]) {
  return spawnSync(process.execPath, [...nodeArgs, ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 30_000,
  });
}

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

function start(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, output: () => out, exited });
    });
    child.stderr!.on("data", (d) => {
      err += d.toString();
    });
    exited.then((code) => reject(new Error(`exited with ${code} before listening: ${out} ${err}`)));
  });
}

async function get(url: string, token: string) {
  const res = await request(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as any };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "emulator-cli-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

test("--help", () => {
  const r = runSync(["--help"]);
  expect(r.status).toBe(0);
  for (const flag of [
    "--port",
    "--host",
    "--api-key",
    "--burst",
    "--refill",
    "--state-file",
    "--no-seed",
    "--fault",
  ]) {
    expect(r.stdout).toContain(flag);
  }
});

test.each([
  [["--port", "http"]],
  [["--burst", "0"]],
  [["--refill", "-2"]],
  [["--colour"]],
  [["stray"]],
])("bad flags %j exit with 2 and say why", (args) => {
  const r = runSync(args);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/^incident-emulator: /);
});

test("runs with the given flags, prints the URL and key, stops cleanly on SIGTERM keeping its state", async () => {
  const state = path.join(dir, "state.json");
  const s = await start([
    "--port",
    "0",
    "--api-key",
    "dev-key",
    "--burst",
    "3",
    "--refill",
    "1",
    "--state-file",
    state,
    "--no-seed",
  ]);
  expect(s.output()).toContain("Bootstrap API key (global access): dev-key");
  const id = await get(`${s.url}/v1/identity`, "dev-key");
  expect(id.status).toBe(200);
  expect(id.body.identity.roles).toEqual(["global_access"]);
  expect(id.headers["x-ratelimit-limit"]).toBe("3, 3;window=3");
  expect((await get(`${s.url}/v2/users`, "dev-key")).body.users).toEqual([]);
  const created = await request(`${s.url}/v2/custom_fields`, {
    method: "POST",
    headers: { authorization: "Bearer dev-key", "content-type": "application/json" },
    body: JSON.stringify({ name: "From the CLI", description: "", field_type: "text" }),
  });
  expect(created.statusCode).toBe(201);
  await created.body.text();
  s.child.kill("SIGTERM");
  expect(await s.exited).toBe(0);
  const saved = JSON.parse(readFileSync(state, "utf8"));
  expect(saved.collections.custom_fields.map((f: any) => f.name)).toEqual(["From the CLI"]);

  // Restarted without --api-key: the kept bootstrap key is reused and printed.
  const again = await start(["--state-file", state]);
  expect(again.output()).toContain("Bootstrap API key (global access): dev-key");
  expect((await get(`${again.url}/v2/custom_fields`, "dev-key")).body.custom_fields).toHaveLength(1);
  again.child.kill("SIGINT");
  expect(await again.exited).toBe(0);
});

describe("--fault", () => {
  const bad: [string, string][] = [
    ["POST ^/v2/custom_fields$ reset-afterr", '"reset-afterr": unknown kind'],
    ["PUTT ^/v2/custom_fields reset-after", '"PUTT": neither a method'],
    ["POST v2/custom_fields reset-after", '"v2/custom_fields": not a path'],
    ["POST ^/v2/(custom_fields reset-after", '"^/v2/(custom_fields": not a valid regular expression'],
    ["POST ^/v2/custom_fields reset-after x0", '"x0": must be a whole number from 1'],
    ["POST ^/v2/custom_fields 200", '"200": must be an HTTP status from 400 to 599'],
    ["POST ^/v2/custom_fields reset-after status=502", '"status=502": applies only to kind status'],
    ["^/v latency colour=red", '"colour=red": unknown'],
    ["^/v latency latency=1 latency=2", '"latency=2": latencyMs given twice'],
    ["POST ^/v2/custom_fields", "missing the kind"],
    ["", "empty"],
    ['{"path":"^/v","kind":"status","statuss":502}', "statuss: unknown field"],
    ['{"path":"^/v","kind":"latency","count":"2"}', "count: must be a whole number"],
    ['{"path":"^/v",', "not valid JSON"],
  ];

  test.each(bad)("parseFaultSpec(%j) fails naming the bad part", (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });

  test.each([
    [
      "POST ^/v2/alert_sources$ reset-after",
      { method: "POST", path: "^/v2/alert_sources$", kind: "reset-after" },
    ],
    ["^/v 503 x2", { path: "^/v", kind: "status", status: 503, count: 2 }],
    [
      "put ^/v3/alert_routes/ status status=502 x3",
      { method: "PUT", path: "^/v3/alert_routes/", kind: "status", status: 502, count: 3 },
    ],
    [
      "GET ^/v2/ latency latency=500ms x10",
      { method: "GET", path: "^/v2/", kind: "latency", latencyMs: 500, count: 10 },
    ],
    ["^/v rate-limit x6 retry-after=2s", { path: "^/v", kind: "rate-limit", count: 6, retryAfterSeconds: 2 }],
    [
      '{"method":"delete","path":"^/v2/schedules/","kind":"reset-before"}',
      { method: "DELETE", path: "^/v2/schedules/", kind: "reset-before" },
    ],
  ])("parseFaultSpec(%j)", (spec, rule) => {
    expect(parseFaultSpec(spec)).toEqual(rule);
    // Written back in the same syntax, it parses to the same rule.
    expect(parseFaultSpec(describeFaultRule(rule as FaultRule))).toEqual({ count: 1, ...rule });
  });

  test.each([
    bad[0]!,
    bad[11]!,
  ])("the command with a bad spec %j exits with 2 and names the bad part", (spec, message) => {
    const r = runSync(["--port", "0", "--fault", "^/v 503", "--fault", spec]);
    expect(r.status).toBe(2);
    const first = r.stderr.split("\n")[0];
    expect(first).toContain(`incident-emulator: --fault ${JSON.stringify(spec)}: `);
    expect(first).toContain(message);
    expect(r.stdout).not.toContain("listening");
  });

  test("arms each fault at start, in the order given; they fire and are listed at /_emulator/faults", async () => {
    const s = await start([
      "--api-key",
      "dev-key",
      "--fault",
      "POST ^/v2/custom_fields$ reset-after",
      "--fault",
      "get ^/v2/users 503 x2",
      "--fault",
      '{"method":"DELETE","path":"^/v2/custom_fields/","kind":"status","status":502}',
    ]);
    try {
      expect(s.output()).toContain("Fault armed: POST ^/v2/custom_fields$ reset-after x1");
      expect(s.output()).toContain("Fault armed: GET ^/v2/users 503 x2");
      expect(s.output()).toContain("Fault armed: DELETE ^/v2/custom_fields/ 502 x1");
      const armed = (await get(`${s.url}/_emulator/faults`, "dev-key")).body.faults;
      expect(armed.map((f: any) => [f.method, f.path, f.kind, f.remaining])).toEqual([
        ["POST", "^/v2/custom_fields$", "reset-after", 1],
        ["GET", "^/v2/users", "status", 2],
        ["DELETE", "^/v2/custom_fields/", "status", 1],
      ]);

      // 503 twice, then the real answer.
      expect((await get(`${s.url}/v2/users`, "dev-key")).status).toBe(503);
      expect((await get(`${s.url}/v2/users`, "dev-key")).status).toBe(503);
      expect((await get(`${s.url}/v2/users`, "dev-key")).status).toBe(200);

      // The create commits, then the connection drops: the client sees no answer.
      const lost = request(`${s.url}/v2/custom_fields`, {
        method: "POST",
        headers: { authorization: "Bearer dev-key", "content-type": "application/json" },
        body: JSON.stringify({ name: "Lost answer", description: "", field_type: "text" }),
      });
      await expect(lost).rejects.toThrow();
      const fields = (await get(`${s.url}/v2/custom_fields`, "dev-key")).body.custom_fields;
      expect(fields.map((f: any) => f.name)).toEqual(["Lost answer"]);

      const del = await request(`${s.url}/v2/custom_fields/${fields[0].id}`, {
        method: "DELETE",
        headers: { authorization: "Bearer dev-key" },
      });
      expect(del.statusCode).toBe(502);
      await del.body.text();

      const after = (await get(`${s.url}/_emulator/faults`, "dev-key")).body.faults;
      expect(after.map((f: any) => [f.fired, f.remaining])).toEqual([
        [1, 0],
        [2, 0],
        [1, 0],
      ]);

      // The HTTP control takes the same spec, and rejects a bad one naming the part.
      const post = (body: unknown) =>
        request(`${s.url}/_emulator/faults`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const added = await post({ spec: "PUT ^/v2/custom_fields/ reset-before x3" });
      expect(added.statusCode).toBe(201);
      expect(((await added.body.json()) as any).faults.at(-1)).toMatchObject({
        method: "PUT",
        kind: "reset-before",
        remaining: 3,
      });
      const bad = await post({ path: "^/v", kind: "reset-after", count: 0 });
      expect(bad.statusCode).toBe(422);
      expect(((await bad.body.json()) as any).errors[0]).toMatchObject({
        source: { field: "count" },
        message: expect.stringContaining("whole number from 1"),
      });
    } finally {
      s.child.kill("SIGTERM");
      expect(await s.exited).toBe(0);
    }
  });
});
