/**
 * Check warnings (provider/checkWarnings.ts): a rule with no published source warns at preview,
 * naming the resource and the input path, once per run; it never fails the check. Closed lists of
 * service-defined values (`knownValues`) pass any text, warning with the nearest known value.
 */
import { z } from "zod";
import {
  checkWarningLog,
  knownValues,
  nearestKnown,
  passedOn,
  resetCheckWarnings,
  warnUnless,
} from "../../provider/checkWarnings";
import { checkInputsAndWarnings, makeProvider } from "../../provider/factory";
import type { ResourceSpec } from "../../provider/spec";
import { UNKNOWN } from "../../provider/unknowns";

const colour = knownValues(["red", "green", "blue"]);

const spec: ResourceSpec = {
  kind: "Widget",
  title: "widget",
  schemaVersion: 1,
  inputs: z.strictObject({
    name: z.string(),
    colour,
    shades: z.array(colour).default([]),
    size: z
      .number()
      .int("must be a whole number")
      .superRefine(warnUnless((v: number) => v > 0, "is not positive")),
  }),
  validate: (args) =>
    args.name === "twin"
      ? [{ path: ["name"], message: passedOn("is a twin"), severity: "warning", dependsOn: [["size"]] }]
      : [],
  toInputs: (live) => live,
  computed: () => ({}),
  computedOutputs: [],
  replaceOnChanges: [],
  secretOutputs: [],
  idOf: (live) => live.id,
  api: {
    create: async () => ({ live: { id: "w" } }),
    read: async () => undefined,
    update: async () => ({ live: { id: "w" } }),
    delete: async () => undefined,
  },
};
const provider = makeProvider(spec);

let said: string[] = [];
const realWarn = checkWarningLog.warn;
beforeEach(() => {
  said = [];
  checkWarningLog.warn = (m) => said.push(m);
  resetCheckWarnings();
});
afterAll(() => {
  checkWarningLog.warn = realWarn;
});

describe("knownValues", () => {
  test("a known value passes silently; another passes with a warning naming the nearest known one", () => {
    expect(checkInputsAndWarnings(spec, { name: "a", colour: "red", size: 1 })).toEqual({
      failures: [],
      warnings: [],
    });
    expect(checkInputsAndWarnings(spec, { name: "a", colour: "gren", shades: ["Blue"], size: 1 })).toEqual({
      failures: [],
      warnings: [
        {
          path: ["colour"],
          message:
            '"gren" is not a value the API is known to take (red, green, blue): did you mean "green"? It is sent as written: the API decides',
        },
        { path: ["shades", 0], message: expect.stringMatching(/^"Blue" .*did you mean "blue"\?/) },
      ],
    });
  });

  test("outside a check the schema parses any text and raises nothing (every other parse sees no warning)", () => {
    expect(spec.inputs.parse({ name: "a", colour: "purple", size: -1 })).toMatchObject({ colour: "purple" });
  });

  test("a value that is not text is still refused (the reference's type)", () => {
    const { failures } = checkInputsAndWarnings(spec, { name: "a", colour: 3, size: 1 });
    expect(failures.map((f) => f.property)).toEqual(["colour"]);
  });

  test("the nearest known value: one the text abbreviates first, else the fewest edits, case aside", () => {
    const days = ["monday", "saturday", "sunday"];
    expect(nearestKnown("sat", days)).toBe("saturday");
    expect(nearestKnown("SUNDY", days)).toBe("sunday");
    expect(nearestKnown("mondays", days)).toBe("monday");
  });
});

describe("the factory's check", () => {
  test("warnings never fail the check; each is said once per run, naming the resource and the input path", async () => {
    const inputs = { name: "twin", colour: "gren", size: -2, __provider: "shim" };
    const first = await provider.check!({}, inputs);
    expect(first.failures).toEqual([]);
    expect(first.inputs).toMatchObject({ colour: "gren", size: -2 });
    expect(said).toEqual([
      expect.stringMatching(/^Widget "twin": colour: "gren" is not a value the API is known to take/),
      `Widget "twin": size: is not positive (no published rule forbids it: it is sent as written and the API decides)`,
      `Widget "twin": name: is a twin (no published rule forbids it: it is sent as written and the API decides)`,
    ]);
    await provider.check!({}, inputs);
    expect(said).toHaveLength(3);
    // A new run (configure) says them again.
    resetCheckWarnings();
    await provider.check!({}, inputs);
    expect(said).toHaveLength(6);
  });

  test("a warning about an unknown value (a preview), or read from one, is not said", async () => {
    await provider.check!({}, { name: "twin", colour: UNKNOWN, size: UNKNOWN, __provider: "shim" });
    expect(said).toEqual([]);
  });

  test("failures and warnings side by side: the refusal is a failure, the rest warnings", async () => {
    const result = await provider.check!({}, { name: "a", colour: "gren", size: 1.5, __provider: "shim" });
    expect(result.failures).toEqual([{ property: "size", reason: "size: must be a whole number" }]);
    expect(said).toEqual([expect.stringMatching(/^Widget "a": colour: /)]);
  });
});
