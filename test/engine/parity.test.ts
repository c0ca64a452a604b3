/**
 * The harness gives the same steps as the real engine: each scenario runs through the real Pulumi
 * CLI and through the harness (each with its own state and "remote" store), on the data-driven
 * fixture program and its tiny dynamic provider (test/fixtures/harness), and every run must agree
 * on the ops and changed keys, the provider calls made (check, diff, create, update, delete, read,
 * and the config the provider was configured with), the remote objects, and the state (inputs,
 * outputs, which of them are secret, dependencies).
 *
 * The scenarios cover what ../shared/lessons/engine-semantics.md lists: refresh calls Diff; refresh
 * and destroy use the provider config saved in the state; replaceOnChanges matched against the keys
 * the provider reports; a replace checks the raw inputs again; a defined deleteBeforeReplace option
 * overrides the provider; dependents of a delete-before-replace are replaced first; ignoreChanges
 * takes full property paths; `up` previews first; same steps re-mark secret outputs; protect blocks a
 * replace only while the program keeps it; an output-only change is no drift inside `--refresh` either
 * (`--expect-no-changes` passes); a check failure with dependents ends the run with the check's
 * error (the harness used to wait for the program, which never ended, until its timeout).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { HarnessOptions, HarnessState, RunResult } from "../../tools/harness";
import { cliDriver, type Driver, harnessDriver } from "../support/driver";

const program = path.join(__dirname, "..", "fixtures", "harness", "program");

interface Res {
  name: string;
  args?: Record<string, unknown>;
  opts?: Record<string, unknown>;
}

/** One run of a scenario: an operation with the resources declared (and what happens before it). */
interface Run {
  op: "up" | "preview" | "refresh" | "destroy";
  resources?: Res[];
  refresh?: boolean;
  /** Stack config `harness-fixture:tag` (the fixture provider logs the tag it was configured with). */
  tag?: string;
  /** Changes the remote objects behind the engine's back first. */
  edit?: (things: Record<string, any>) => void;
  /** `--expect-no-changes`: the engine's own verdict on whether anything changes. */
  expectNoChanges?: boolean;
}

const thing = (name: string, args: Record<string, unknown> = {}, opts?: Record<string, unknown>): Res => ({
  name,
  args: { name: name.toUpperCase(), ...args },
  ...(opts ? { opts } : {}),
});

/** Ids depend on the order of concurrent creates: compare them by shape. */
const maskIds = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v ?? null).replace(/thing-\d+/g, "thing-#"));

interface Observed {
  ok: boolean;
  /** The check failures reported (resource, property, reason). */
  checks: string[];
  steps: string[];
  calls: string[];
  remote: unknown;
  state: unknown;
}

async function play(driver: Driver, label: string, runs: Run[]): Promise<{ runs: Observed[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `parity-${label}-${driver.name}-`));
  const dbFile = path.join(dir, "remote.json");
  const logFile = path.join(dir, "calls.jsonl");
  const stateFile = path.join(dir, "state.json");
  const observed: Observed[] = [];
  try {
    for (const run of runs) {
      if (run.edit) {
        const db = JSON.parse(fs.readFileSync(dbFile, "utf8"));
        run.edit(db.things);
        fs.writeFileSync(dbFile, JSON.stringify(db));
      }
      const options: HarnessOptions & { refresh?: boolean } = {
        program,
        stateFile,
        refresh: run.refresh,
        expectNoChanges: run.expectNoChanges,
        env: { HARNESS_FIXTURE_DB: dbFile, HARNESS_FIXTURE_LOG: logFile },
        config: {
          "harness-fixture:spec": JSON.stringify({ resources: run.resources ?? [] }),
          "harness-fixture:tag": run.tag ?? "first",
        },
      };
      const result: RunResult = await driver[run.op](options);
      const calls = fs.existsSync(logFile)
        ? fs
            .readFileSync(logFile, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l))
            .map((e) => (e.op === "configure" ? `configure tag=${e.tag}` : `${e.op} ${e.name ?? ""}`.trim()))
            .sort()
        : [];
      fs.rmSync(logFile, { force: true });
      observed.push({
        ok: result.ok,
        checks: result.errors
          .filter((e) => e.kind === "check")
          .map((e) => `${e.name} ${e.property}: ${e.reason}`)
          .sort(),
        steps: result.steps
          .map((s) =>
            [
              s.name,
              s.op,
              s.replaced ? "(old copy)" : "",
              s.changedKeys ? `changed=${s.changedKeys.join(",")}` : "",
              s.replaceKeys ? `replace=${s.replaceKeys.join(",")}` : "",
              s.op === "replace" ? `deleteFirst=${s.deleteBeforeReplace}` : "",
              s.failed ? "FAILED" : "",
            ]
              .filter(Boolean)
              .join(" "),
          )
          .sort(),
        calls,
        remote: maskIds(
          Object.values(fs.existsSync(dbFile) ? JSON.parse(fs.readFileSync(dbFile, "utf8")).things : {}).sort(
            (x: any, y: any) => x.name.localeCompare(y.name),
          ),
        ),
        state: comparableState(driver.readState(stateFile)),
      });
    }
    return { runs: observed };
  } finally {
    driver.dispose(stateFile);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What both engines must agree on in the state (the fixture's resources, and the stack config saved with the default provider). */
function comparableState(state: HarnessState): unknown {
  const strip = ({ __provider: _p, ...rest }: Record<string, unknown>) => rest;
  return maskIds(
    state.resources
      .filter((r) => r.type !== "pulumi:pulumi:Stack")
      .map((r) => ({
        urn: r.urn,
        inputs: r.type.startsWith("pulumi:providers:") ? r.inputs : strip(r.inputs),
        outputs: strip(r.outputs),
        secretInputs: r.secretInputs,
        secretOutputs: r.secretOutputs.filter((k) => k !== "__provider"),
        dependencies: [...r.dependencies].sort(),
        delete: r.delete ?? false,
      }))
      .sort((a, b) => a.urn.localeCompare(b.urn)),
  );
}

function describeParity(title: string, runs: Run[]): void {
  test(title, async () => {
    const labelled = (played: Awaited<ReturnType<typeof play>>) =>
      Object.fromEntries(
        played.runs.map((run, i) => [
          `run ${i + 1}: ${runs[i]!.op}${runs[i]!.refresh ? " --refresh" : ""}`,
          run,
        ]),
      );
    const engine = labelled(await play(cliDriver, "p", runs));
    const harness = labelled(await play(harnessDriver, "p", runs));
    if (process.env.PARITY_DUMP) {
      fs.writeFileSync(
        `${process.env.PARITY_DUMP}-${title.slice(0, 12).replace(/\W/g, "_")}.json`,
        JSON.stringify({ engine, harness }, null, 2),
      );
    }
    expect(harness).toEqual(engine);
  });
}

describe("the harness agrees with the real engine", () => {
  const a1 = thing("a", { value: "1", kind: "k1" });
  const b = (extra: Record<string, unknown> = {}) => thing("b", { ref: { $ref: "a.remoteId" }, ...extra });

  describeParity(
    "create, same, update, replace with a dependent, delete-before-replace whose dependent is replaced first, a resource no longer declared, destroy",
    [
      { op: "up", resources: [a1, b()] },
      { op: "up", resources: [a1, b()] },
      { op: "up", resources: [thing("a", { value: "2", kind: "k1" }), b()] },
      { op: "up", resources: [thing("a", { value: "2", kind: "k2" }), b()] },
      {
        op: "up",
        resources: [thing("a", { value: "2", kind: "k3", exclusive: true }), b({ replaceOn: ["ref"] })],
      },
      { op: "preview", resources: [thing("a", { value: "2", kind: "k3", exclusive: true })] },
      { op: "up", resources: [thing("a", { value: "2", kind: "k3", exclusive: true })] },
      { op: "destroy" },
    ],
  );

  describeParity(
    "resource options: nested ignoreChanges, replaceOnChanges, a defined deleteBeforeReplace, secret outputs added later",
    [
      { op: "up", resources: [thing("a", { value: { x: 1, y: 1 }, kind: "k1", exclusive: true })] },
      {
        op: "up",
        resources: [
          thing("a", { value: { x: 2, y: 2 }, kind: "k1", exclusive: true }, { ignoreChanges: ["value.x"] }),
        ],
      },
      {
        op: "up",
        resources: [
          thing("a", { value: { x: 1, y: 3 }, kind: "k1", exclusive: true }, { replaceOnChanges: ["value"] }),
        ],
      },
      {
        op: "up",
        resources: [
          thing("a", { value: { x: 1, y: 3 }, kind: "k2", exclusive: true }, { deleteBeforeReplace: false }),
        ],
      },
      {
        op: "up",
        resources: [
          thing(
            "a",
            { value: { x: 1, y: 3 }, kind: "k2", exclusive: true },
            { additionalSecretOutputs: ["value"] },
          ),
        ],
      },
      { op: "destroy" },
    ],
  );

  describeParity(
    "protect: a replace it blocks fails in preview and in up; dropping protect and replacing in one up replaces",
    [
      { op: "up", resources: [thing("p", { kind: "k1" }, { protect: true })] },
      { op: "preview", resources: [thing("p", { kind: "k2" }, { protect: true })] },
      { op: "up", resources: [thing("p", { kind: "k2" }, { protect: true })] },
      { op: "up", resources: [thing("p", { kind: "k2" })] },
      { op: "destroy" },
    ],
  );

  describeParity(
    "refresh: drift the provider's Diff sees, output-only changes it does not, objects gone; the saved provider config",
    [
      { op: "up", resources: [a1, thing("c", { value: "c" })], tag: "first" },
      {
        op: "refresh",
        tag: "second",
        edit: (things) => {
          const a = Object.values(things).find((t: any) => t.name === "A") as any;
          a.value = "changed by hand";
          for (const [id, t] of Object.entries(things)) if ((t as any).name === "C") delete things[id];
        },
      },
      {
        op: "refresh",
        tag: "second",
        edit: (things) => {
          const a = Object.values(things).find((t: any) => t.name === "A") as any;
          a.version += 10; // an output only: the provider's Diff compares inputs
        },
      },
      { op: "preview", resources: [a1], refresh: true, tag: "third" },
      { op: "up", resources: [a1], refresh: true, tag: "third" },
      {
        // Inside --refresh too, an output-only change is no drift: the engine counts no change.
        op: "preview",
        resources: [a1],
        refresh: true,
        expectNoChanges: true,
        tag: "third",
        edit: (things) => {
          const a = Object.values(things).find((t: any) => t.name === "A") as any;
          a.version += 10;
        },
      },
      { op: "destroy", tag: "fourth" },
    ],
  );

  // A name the fixture's check refuses (longer than 40), on a resource others use.
  const refused = thing("a", { name: "A".repeat(41), value: "1", kind: "k1" });
  const c = thing("c", { ref: { $ref: "b.remoteId" } });
  describeParity(
    "a check failure with dependents, on a new stack and on one that exists: the run fails with the check's error and ends; the dependents are never registered",
    [
      { op: "preview", resources: [refused, b(), c] },
      { op: "up", resources: [a1, b()] },
      { op: "up", resources: [refused, b(), c] },
      { op: "destroy" },
    ],
  );
});
