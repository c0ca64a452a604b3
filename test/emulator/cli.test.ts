/**
 * The `incident-emulator` command (emulator/cli.ts, run from TypeScript): flags, output, clean stop
 * on SIGINT/SIGTERM.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { request } from "undici";

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
  for (const flag of ["--port", "--host", "--api-key", "--burst", "--refill", "--state-file", "--no-seed"]) {
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
