/**
 * A real-looking pull request against examples/oncall (test/fixtures/reviewPr/oncall.diff): the P1
 * branch of the escalation path widened to P1 or P2 and paging the secondary rota too, the first
 * level's time to acknowledge 300 → 900 s, the alert route taking staging alerts and grouping for
 * 10 minutes instead of 15, the primary rota's working day ending at 18:00, the secondary rota moved
 * to Chicago (a new schedule: the time zone cannot change in place) and the announce workflow
 * dropped. The program is a copy of the example in a folder of its own inside the repository (so it
 * resolves the package as the example does); `applyPr()` applies the diff to it as `git apply` would.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.join(__dirname, "..", "..");
export const REVIEW_PR_DIFF = path.join(root, "test", "fixtures", "reviewPr", "oncall.diff");
const EXAMPLE = path.join(root, "examples", "oncall");

/** The objects examples/oncall makes, as `Kind name`, sorted. */
export const ONCALL_OBJECTS = [
  "AlertAttribute environment",
  "AlertAttribute service",
  "AlertRoute payments",
  "AlertSource payments-http",
  "EscalationPath payments",
  "Schedule payments-primary",
  "Schedule payments-secondary",
  "Workflow announce-critical",
];

export interface ReviewPrProgram {
  /** The program's folder (examples/oncall as on main until `applyPr`). */
  dir: string;
  /** Applies the pull request's diff to the program. */
  applyPr(): void;
  dispose(): void;
}

let copies = 0;

export function reviewPrProgram(): ReviewPrProgram {
  const dir = path.join(root, "test", "fixtures", "reviewPr", `program-${process.pid}-${++copies}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const file of ["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"])
    fs.copyFileSync(path.join(EXAMPLE, file), path.join(dir, file));
  return {
    dir,
    applyPr: () =>
      // Outside any repository (the ceiling stops git's search), `git apply` is a plain patch tool.
      execFileSync("git", ["apply", REVIEW_PR_DIFF], {
        cwd: dir,
        env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(dir) },
        stdio: "pipe",
      }),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
