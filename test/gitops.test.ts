/**
 * examples/gitops: the GitHub Actions workflow users copy. actionlint (built from its Go module by
 * `npm run actionlint:build`, tools/actionlint) checks it as GitHub would read it: syntax, job and
 * step keys, expressions and contexts, the inputs of well-known actions, and the `run:` scripts with
 * shellcheck when shellcheck is on PATH. The commands it runs are this package's real ones.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const root = path.join(__dirname, "..");
const ACTIONLINT = path.join(root, ".tools", "actionlint", "bin", "actionlint");
const WORKFLOW = path.join(root, "examples", "gitops", ".github", "workflows", "incident-stack.yml");

function actionlint(file: string): { status: number | null; output: string } {
  if (!fs.existsSync(ACTIONLINT))
    throw new Error(`actionlint is not built in ${ACTIONLINT}: run npm run actionlint:build`);
  const r = spawnSync(ACTIONLINT, ["-no-color", "-oneline", file], { encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe("examples/gitops workflow", () => {
  const text = fs.readFileSync(WORKFLOW, "utf8");

  test("actionlint finds nothing", () => {
    expect(actionlint(WORKFLOW)).toEqual({ status: 0, output: "" });
  });

  test("actionlint does find a broken copy (the check can fail)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gitops-"));
    try {
      const broken = path.join(dir, "broken.yml");
      fs.writeFileSync(
        broken,
        text
          .replace("steps.drift.outputs.status == '2'", "steps.drfit.outputs.status == '2'")
          .replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    timeout: 5"),
      );
      const result = actionlint(broken);
      expect(result.status).toBe(1);
      expect(result.output).toMatch(/property "drfit" is not defined/);
      expect(result.output).toMatch(/unexpected key "timeout"/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("preview on pull request, up on merge, a nightly drift job; the bin's real commands and flags", () => {
    expect(text).toMatch(
      /^on:\n {2}pull_request:[\s\S]*\n {2}push:\n {4}branches: \[main\][\s\S]*\n {2}schedule:\n {4}- cron: /m,
    );
    expect(text).toContain('pulumi preview --refresh --stack "$PULUMI_STACK" --json');
    // The apply restores drift: a plain `pulumi up` would not see changes made by hand.
    expect(text).toContain('pulumi up --refresh --stack "$PULUMI_STACK" --yes');
    expect(text).toContain('pulumi stack export --stack "$PULUMI_STACK" --file');
    // Each pulumi-incident command line uses a command and flags the bin has (cli/main.ts).
    const main = fs.readFileSync(path.join(root, "cli", "main.ts"), "utf8");
    const invocations = [...text.matchAll(/npx pulumi-incident ([\w-]+)((?:[^\n]|\\\n)*)/g)];
    expect(invocations.map((m) => m[1])).toEqual(["plan-report", "plan-report", "drift", "coverage"]);
    for (const m of invocations) {
      expect(main).toContain(`command === "${m[1]}"`);
      for (const flag of m[2]!.match(/--[\w-]+/g) ?? [])
        expect(main).toMatch(new RegExp(`^ {6}"?${flag.slice(2)}"?: \\{`, "m"));
    }
    // Drift (exit 2) opens or updates the issue; a failed check (exit 1) fails the job. So does a gap
    // in coverage; the plan report computes the shifts that change.
    expect(text).toContain("if: steps.drift.outputs.status == '2'");
    expect(text).toContain("if: steps.coverage.outputs.status == '2'");
    expect(invocations.filter((m) => m[1] === "plan-report").every((m) => m[2]!.includes("--shifts"))).toBe(
      true,
    );
    // People the program looks up by id are named by e-mail in the comment.
    expect(invocations.filter((m) => m[1] === "plan-report").every((m) => m[2]!.includes("--resolve"))).toBe(
      true,
    );
    expect(text).toContain('if [ "$status" = 1 ]; then exit 1; fi');
  });
});
