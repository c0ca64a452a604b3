/**
 * `npm run check-install`: the package as users get it, on the lowest and the newest supported
 * @pulumi/pulumi. For each SDK version:
 *
 * 1. a fresh directory holding only the packed tarball, that SDK, TypeScript and @types/node is
 *    installed with npm; it must hold exactly one copy of @pulumi/pulumi, that version;
 * 2. the installed README's TypeScript blocks type-check (today's `pulumi new typescript` tsconfig,
 *    and the older CommonJS one, with no esModuleInterop and no skipLibCheck);
 * 3. examples/quickstart and examples/oncall, copied into that directory, run through the harness
 *    (the SDK's real dynamic-provider host) against the emulator from the tarball
 *    (`pulumi-incident/emulator`): create, a second run with no changes and no API calls, destroy;
 * 4. every test that runs a program through the harness (each kind's lifecycle and other program
 *    runs: describes named "… through the harness"), the get tests and the examples test run in a
 *    temporary copy of this checkout whose @pulumi/pulumi is that version.
 *
 * Versions: the floor of package.json's peer range and the registry's `latest`; `SDK_VERSIONS=a,b`
 * overrides; `CHECK_INSTALL_SKIP_JEST=1` skips step 4. Prints tarball and install sizes and times.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { typeCheckReadme } from "../test/support/readmeBlocks";
import * as harness from "../tools/harness";

const root = path.join(__dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const quiet = ["--no-audit", "--no-fund", "--loglevel=error"];

function sh(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

function seconds<T>(f: () => T): [T, number] {
  const t0 = Date.now();
  const out = f();
  return [out, (Date.now() - t0) / 1000];
}

function sdkVersions(): string[] {
  if (process.env.SDK_VERSIONS) return process.env.SDK_VERSIONS.split(",").map((v) => v.trim());
  const floor = /^>=\s*(\d+\.\d+\.\d+)/.exec(pkg.peerDependencies["@pulumi/pulumi"])?.[1];
  if (!floor) throw new Error("package.json: the @pulumi/pulumi peer range has no >= floor");
  const latest = sh(npm, ["view", "@pulumi/pulumi@latest", "version"], root).trim();
  return floor === latest ? [floor] : [floor, latest];
}

/** Every copy of @pulumi/pulumi under `dir`'s node_modules (nested ones included). */
function sdkCopies(dir: string): string[] {
  const found: string[] = [];
  const walk = (nm: string) => {
    if (!fs.existsSync(nm)) return;
    for (const entry of fs.readdirSync(nm)) {
      const scoped = entry.startsWith("@")
        ? fs.readdirSync(path.join(nm, entry)).map((e) => `${entry}/${e}`)
        : [entry];
      for (const name of scoped) {
        const at = path.join(nm, name);
        // A linked package (the checkout's own `pulumi-incident -> ..`) is not an installed copy.
        if (fs.lstatSync(at).isSymbolicLink()) continue;
        if (name === "@pulumi/pulumi")
          found.push(`${at}@${JSON.parse(fs.readFileSync(path.join(at, "package.json"), "utf8")).version}`);
        walk(path.join(at, "node_modules"));
      }
    }
  };
  walk(path.join(dir, "node_modules"));
  return found;
}

function expect(ok: boolean, what: string): void {
  if (!ok) throw new Error(`check-install: ${what}`);
  console.log(`  ✓ ${what}`);
}

async function runExample(dir: string, name: string): Promise<void> {
  const program = path.join(dir, name);
  fs.mkdirSync(program);
  for (const f of ["Pulumi.yaml", "index.ts"])
    fs.copyFileSync(path.join(root, "examples", name, f), path.join(program, f));
  // The emulator as a user gets it: the tarball's own entry point.
  const { startEmulator } = require(require.resolve("pulumi-incident/emulator", { paths: [dir] }));
  const emulator = await startEmulator({ port: 0 });
  try {
    const options: harness.HarnessOptions = {
      program,
      stateFile: path.join(dir, `${name}.state.json`),
      config: { "incident:apiKey": emulator.apiKey, "incident:baseUrl": emulator.url },
      secretConfig: ["incident:apiKey"],
    };
    const first = await harness.up(options);
    expect(
      first.ok && first.counts.create! > 0,
      `examples/${name}: up creates ${first.counts.create} resources ${first.errors.map((e) => e.message).join("; ")}`,
    );
    const second = await harness.up(options);
    const changed = second.steps.filter((s) => s.op !== "same").length;
    const calls = second.apiCalls.filter((c) => c.from === "provider").length;
    expect(
      second.ok && changed === 0 && calls === 0,
      `examples/${name}: second up changes nothing (${changed} steps, ${calls} provider calls)`,
    );
    const gone = await harness.destroy(options);
    expect(
      gone.ok && gone.counts.delete === first.counts.create,
      `examples/${name}: destroy deletes ${gone.counts.delete}`,
    );
  } finally {
    await emulator.close();
  }
}

/** The program runs, the get tests and the examples test, in a copy of this checkout on `version`. */
function lifecycleOn(version: string): number {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), `pulumi-incident-sdk-${version}-`));
  try {
    const tracked = sh("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], root)
      .split("\0")
      .filter(Boolean);
    for (const rel of tracked) {
      if (!fs.existsSync(path.join(root, rel))) continue;
      fs.mkdirSync(path.dirname(path.join(copy, rel)), { recursive: true });
      fs.copyFileSync(path.join(root, rel), path.join(copy, rel));
    }
    sh(npm, ["ci", ...quiet, "--ignore-scripts"], copy);
    sh(npm, ["install", ...quiet, "--no-save", "--ignore-scripts", `@pulumi/pulumi@${version}`], copy);
    expect(
      sdkCopies(copy).length === 1 && sdkCopies(copy)[0]!.endsWith(`@${version}`),
      `checkout copy runs @pulumi/pulumi ${version}`,
    );
    sh(npm, ["run", "build", "--silent"], copy);
    const kindTests = fs
      .readdirSync(path.join(copy, "test", "resources"))
      .filter((f) => f.endsWith(".test.ts") && f !== "get.test.ts")
      .map((f) => `test/resources/${f}`);
    const jestRun = (files: string[], testNamePattern: string) =>
      spawnSync(
        process.execPath,
        [
          require.resolve("jest/bin/jest", { paths: [copy] }),
          ...files,
          "-t",
          testNamePattern,
          // Harness runs wait on their child processes: two files at once use CI's two cores.
          "--maxWorkers=2",
        ],
        { cwd: copy, stdio: "inherit" },
      );
    const [jest, took] = seconds(() => {
      // What depends on the SDK: every run of a program through its dynamic-provider host. In each
      // kind's test file those are the describes named "… through the harness" (the lifecycle and
      // the kind's other program runs); its unit tests do not touch the SDK and run in `npm test`.
      const programs = jestRun(kindTests, "through the harness");
      if (programs.status !== 0) return programs;
      return jestRun(["test/resources/get.test.ts", "test/examples.test.ts"], "^(?!npm run demo)");
    });
    expect(
      jest.status === 0,
      `lifecycle, get and examples tests pass on @pulumi/pulumi ${version} (${took.toFixed(0)} s)`,
    );
    return took;
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const versions = sdkVersions();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-incident-install-"));
  try {
    const [tarball, packTook] = seconds(
      () => sh(npm, ["pack", "--silent", "--pack-destination", work], root).trim().split("\n").pop()!,
    );
    const tarPath = path.join(work, tarball);
    console.log(
      `${tarball}: ${(fs.statSync(tarPath).size / 1024).toFixed(0)} KB (packed in ${packTook.toFixed(0)} s)`,
    );
    const dev = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).devDependencies;
    for (const version of versions) {
      console.log(`\n@pulumi/pulumi ${version}`);
      const dir = path.join(work, `sdk-${version}`);
      fs.mkdirSync(dir);
      fs.copyFileSync(tarPath, path.join(dir, tarball));
      fs.writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({
          name: "fresh-install",
          private: true,
          dependencies: { "@pulumi/pulumi": version, "pulumi-incident": `file:./${tarball}` },
          devDependencies: { typescript: dev.typescript, "@types/node": dev["@types/node"] },
        }),
      );
      const [, installTook] = seconds(() => sh(npm, ["install", ...quiet], dir));
      const kb = (rel: string) => Number(sh("du", ["-sk", path.join(dir, rel)], dir).split("\t")[0]);
      console.log(
        `  installed in ${installTook.toFixed(0)} s: node_modules ${(kb("node_modules") / 1024).toFixed(0)} MB, ` +
          `of which pulumi-incident ${(kb("node_modules/pulumi-incident") / 1024).toFixed(1)} MB, ` +
          `@pulumi/pulumi ${(kb("node_modules/@pulumi/pulumi") / 1024).toFixed(0)} MB`,
      );
      const copies = sdkCopies(dir);
      expect(
        copies.length === 1 && copies[0]!.endsWith(`@${version}`),
        `one copy of @pulumi/pulumi, ${version} (${copies.join(", ")})`,
      );

      const readme = typeCheckReadme(path.join(dir, "node_modules", "pulumi-incident", "README.md"), dir);
      expect(readme.nodenext === "", `README blocks type-check (nodenext template) ${readme.nodenext}`);
      expect(readme.commonjs === "", `README blocks type-check (CommonJS template) ${readme.commonjs}`);

      // The review tools' bin, as `npx pulumi-incident` finds it in a user's project.
      const bin = path.join(dir, "node_modules", ".bin", "pulumi-incident");
      const planned = spawnSync(
        bin,
        ["plan-report", path.join(root, "test/fixtures/previewJson/oncall-pr.json")],
        {
          cwd: dir,
          encoding: "utf8",
        },
      );
      expect(
        planned.status === 0 && planned.stdout.startsWith("## Plan for `incident-oncall` / `dev`"),
        `the pulumi-incident bin runs plan-report (exit ${planned.status}) ${planned.stderr}`,
      );

      for (const example of ["quickstart", "oncall"]) await runExample(dir, example);
      if (process.env.CHECK_INSTALL_SKIP_JEST !== "1") lifecycleOn(version);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
