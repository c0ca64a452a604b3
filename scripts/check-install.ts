/**
 * `npm run check-install`: the package as users get it, on the lowest and the newest supported
 * @pulumi/pulumi. For each SDK version:
 *
 * 1. a fresh directory holding only the packed tarball, that SDK, TypeScript and @types/node is
 *    installed with npm; it must hold exactly one copy of @pulumi/pulumi, that version;
 * 2. the installed README's TypeScript blocks type-check (today's `pulumi new typescript` tsconfig,
 *    and the older CommonJS one, with no esModuleInterop and no skipLibCheck);
 * 3. the `pulumi-incident` bin runs plan-report;
 * 4. the whole-account program (test/fixtures/wholeAccount/program: every kind), copied into that
 *    directory, runs through the real Pulumi CLI (npm run pulumi:build; the harness where no CLI is
 *    built, saying so) against the emulator from the tarball (`pulumi-incident/emulator`): `up`
 *    creates every kind, `preview --expect-no-changes` makes no provider API call, destroy deletes
 *    what up created. The program, the language host's run script and the dynamic-provider host all
 *    resolve that directory's package and SDK. What each kind does is proven once, in the engine
 *    lane (npm run test:engine); this proves the package works as installed, on each SDK.
 *
 * Versions: the floor of package.json's peer range and the registry's `latest`; `SDK_VERSIONS=a,b`
 * overrides. Prints tarball and install sizes and times.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { typeCheckReadme } from "../test/support/readmeBlocks";
import * as harness from "../tools/harness";
import * as cli from "../tools/pulumi/cli";

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

/** The whole-account program through the real CLI (or the harness), on the SDK installed in `dir`. */
async function runWholeAccount(dir: string): Promise<void> {
  const program = path.join(dir, "whole-account");
  fs.mkdirSync(program);
  fs.copyFileSync(
    path.join(root, "test/fixtures/wholeAccount/program/index.ts"),
    path.join(program, "index.ts"),
  );
  const engine = cli.available() ? cli : harness;
  if (engine === harness)
    console.log("  (no Pulumi CLI built: npm run pulumi:build; running through the harness)");
  // The emulator as a user gets it: the tarball's own entry point.
  const installed = (name: string) => require(require.resolve(name, { paths: [dir] }));
  const { startEmulator } = installed("pulumi-incident/emulator");
  // Every kind (the account's singletons too: its one emulator serves this one stack).
  const kinds = Object.keys(installed("pulumi-incident").providers).sort();
  const emulator = await startEmulator({ port: 0 });
  // The stack's workspace inside `dir`: the engine starts the provider host there, which then
  // resolves this directory's SDK and package.
  const options: harness.HarnessOptions = {
    program,
    project: "whole-account",
    stateFile: path.join(dir, ".stacks", "whole-account.json"),
    config: {
      "incident:apiKey": emulator.apiKey,
      "incident:baseUrl": emulator.url,
      // The base variant keeps one resource protected; destroy here removes everything.
      "whole-account:protect": "false",
    },
    secretConfig: ["incident:apiKey"],
  };
  fs.mkdirSync(path.dirname(options.stateFile), { recursive: true });
  try {
    const label = engine === cli ? "real CLI" : "harness";
    const [first, upTook] = await timed(() => engine.up(options));
    const made = new Set(first.steps.filter((s) => s.op === "create").map((s) => s.type.split(":").pop()!));
    expect(
      first.ok && [...made].sort().join() === kinds.join(),
      `whole account (${label}): up creates ${first.counts.create} resources of ${made.size}/${kinds.length} kinds in ${upTook} s ${first.errors.map((e) => e.message).join("; ")}`,
    );
    const [again, previewTook] = await timed(() => engine.preview({ ...options, expectNoChanges: true }));
    const calls = again.apiCalls.filter((c) => c.from === "provider").length;
    expect(
      again.ok && calls === 0,
      `whole account: preview --expect-no-changes (${calls} provider calls, ${previewTook} s) ${again.errors.map((e) => e.message).join("; ")}`,
    );
    const [gone, destroyTook] = await timed(() => engine.destroy(options));
    expect(
      gone.ok && gone.counts.delete === first.counts.create,
      `whole account: destroy deletes ${gone.counts.delete} in ${destroyTook} s`,
    );
  } finally {
    await emulator.close();
    if (engine === cli) cli.dispose(options.stateFile);
  }
}

async function timed<T>(f: () => Promise<T>): Promise<[T, string]> {
  const t0 = Date.now();
  const out = await f();
  return [out, ((Date.now() - t0) / 1000).toFixed(0)];
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
    // What npm warns about at install (and runs, for a git install): none left in the tarball.
    const manifest = JSON.parse(sh("tar", ["-xzOf", tarPath, "package/package.json"], work));
    const hooks = ["preinstall", "install", "postinstall", "prepare"].filter((h) => manifest.scripts?.[h]);
    expect(hooks.length === 0, `the tarball's package.json runs nothing at install (${hooks.join(", ")})`);
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

      await runWholeAccount(dir);
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
