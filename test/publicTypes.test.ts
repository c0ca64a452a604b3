/**
 * The package root's types as users meet them (dist/, built by `npm test`): every resource's
 * `XxxArgs` and nested args types are named declarations, Inputs are accepted at every depth, and
 * no declaration the root reaches loads zod (so the older CommonJS `pulumi new typescript` tsconfig,
 * without esModuleInterop or skipLibCheck, type-checks programs with no error).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { resourceFiles } from "../scripts/generate/index";
import { typeCheckFiles, userProject } from "./support/readmeBlocks";

const root = path.join(__dirname, "..");
const dist = path.join(root, "dist");

/** Every declaration file dist/index.d.ts reaches through relative imports, and the bare modules they import. */
function declarationGraph(): { files: Map<string, string>; bare: Set<string> } {
  const files = new Map<string, string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    const text = fs.readFileSync(file, "utf8");
    files.set(file, text);
    for (const [, spec] of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)"([^"]+)"/g)) {
      if (!spec!.startsWith(".")) {
        bare.add(spec!);
        continue;
      }
      const base = path.resolve(path.dirname(file), spec!);
      const found = [`${base}.d.ts`, path.join(base, "index.d.ts")].find((f) => fs.existsSync(f));
      if (!found) throw new Error(`${file}: ${spec} resolves to no declaration file`);
      visit(found);
    }
  };
  visit(path.join(dist, "index.d.ts"));
  return { files, bare };
}

describe("the package root's declarations", () => {
  const graph = declarationGraph();
  const all = [...graph.files.values()].join("\n");

  test("import only @pulumi/pulumi and the package's own zod-free modules", () => {
    expect([...graph.bare].sort()).toEqual(["@pulumi/pulumi"]);
    expect(all).not.toMatch(/["']zod(\/[^"']*)?["']/);
  });

  test("declare every kind's class and its XxxArgs by name, and the nested args types", () => {
    const kinds = resourceFiles(root)
      .map((f) => require(f) as Record<string, { kind?: string }>)
      .flatMap((mod) => Object.entries(mod).filter(([name, v]) => name.endsWith("Spec") && v?.kind))
      .map(([, spec]) => spec.kind!);
    expect(kinds.length).toBeGreaterThan(8);
    for (const kind of kinds) {
      expect(all).toContain(`export declare class ${kind} extends IncidentResource`);
      expect(all).toContain(`export interface ${kind}Args {`);
    }
    for (const nested of ["EscalationPathNodeArgs", "EscalationIfElseArgs", "ScheduleRotationArgs"])
      expect(all).toContain(`export interface ${nested} {`);
    // Documented: the doc comment sits on the property in the declaration itself.
    expect(all).toMatch(
      /\/\*\* Name of the escalation path, unique in the account\. \*\/\n\s+name: pulumi\.Input<string>;/,
    );
  });
});

describe("a user's program against the package root", () => {
  const dir = userProject(root);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  // The id three levels down sits in plain literals (so a wrong type there is reported); Outputs
  // stand for every other level: a node list, a node, a condition, a string.
  const program = (idAtDepth: string) => `import * as pulumi from "@pulumi/pulumi";
import * as incident from "pulumi-incident";

declare const schedule: incident.Schedule;
const condition = { subject: pulumi.output("escalation.priority"), operation: "is_set" };
const deep: incident.EscalationPathNodeArgs = {
  ifElse: {
    conditions: [pulumi.output(condition)],
    thenPath: [{ ifElse: { conditions: [condition], thenPath: [
      { level: { targets: [{ type: "schedule", id: ${idAtDepth}, urgency: "high", scheduleMode: "currently_on_call" }] } },
    ], elsePath: pulumi.output([]) } }],
    elsePath: [pulumi.output({ voicemail: true as const })],
  },
};
const args: incident.EscalationPathArgs = { name: pulumi.output("Payments"), path: pulumi.output([deep]), teamIds: [pulumi.output("T1")] };
new incident.EscalationPath("p", args);
export const rotationIds: pulumi.Output<string[]> = schedule.rotations.apply((r) => r.map((x) => x.id));
`;

  test.each([
    "nodenext",
    "commonjs",
  ])("an Output<string> id three levels down an escalation path type-checks (%s template)", (template) => {
    fs.writeFileSync(path.join(dir, "deep.ts"), program("schedule.id"));
    expect(typeCheckFiles(dir, ["deep.ts"], template)).toBe("");
  }, 120_000);

  test("a number where the id goes fails, at that place", () => {
    fs.writeFileSync(path.join(dir, "wrong.ts"), program("pulumi.output(42)"));
    const errors = typeCheckFiles(dir, ["wrong.ts"], "commonjs");
    expect(errors).toMatch(
      /wrong\.ts\(10,\d+\): error TS2322: Type 'OutputInstance<number>' is not assignable to type 'Input<string>'/,
    );
  }, 120_000);
});
