import { type Change, changedKeys, changesBetween, formatChange, inputChanges } from "../../provider/diff";
import { touches, UNKNOWN } from "../../provider/unknowns";

describe("changesBetween: the changed paths of a diff (deep-diff after normalisation to JSON)", () => {
  test("equal values, key order and undefined properties aside, have no changes", () => {
    expect(changesBetween({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1, d: undefined })).toEqual([]);
    expect(changesBetween(undefined, null)).toEqual([]);
  });

  test("a nested property changed, added and removed, each at its path, with old and new", () => {
    const olds = { name: "a", template: { title: "x", keep: 1, gone: true } };
    const news = { name: "a", template: { title: "y", keep: 1, extra: [1] } };
    expect(sortChanges(changesBetween(olds, news))).toEqual([
      { path: ["template", "extra"], kind: "added", new: [1] },
      { path: ["template", "gone"], kind: "removed", old: true },
      { path: ["template", "title"], kind: "changed", old: "x", new: "y" },
    ]);
  });

  test("list elements: a changed element by index, appended and dropped elements", () => {
    expect(changesBetween({ ids: ["a", "b"] }, { ids: ["a", "c", "d"] })).toEqual(
      expect.arrayContaining([
        { path: ["ids", 1], kind: "changed", old: "b", new: "c" },
        { path: ["ids", 2], kind: "added", new: "d" },
      ]),
    );
    expect(changesBetween({ ids: ["a", "b"] }, { ids: ["a"] })).toEqual([
      { path: ["ids", 1], kind: "removed", old: "b" },
    ]);
    expect(changesBetween([{ n: 1 }], [{ n: 2 }])).toEqual([
      { path: [0, "n"], kind: "changed", old: 1, new: 2 },
    ]);
  });

  test("a whole value appearing or going is added / removed at the root", () => {
    expect(changesBetween(undefined, { a: 1 })).toEqual([{ path: [], kind: "added", new: { a: 1 } }]);
    expect(changesBetween("x", undefined)).toEqual([{ path: [], kind: "removed", old: "x" }]);
    expect(changesBetween("x", 3)).toEqual([{ path: [], kind: "changed", old: "x", new: 3 }]);
  });
});

describe("inputChanges / changedKeys: what the provider's diff decides from", () => {
  const keys = ["name", "steps", "teamIds"];

  test("paths start with their input key; only the given keys count; null and missing are equal", () => {
    const changes = inputChanges(
      keys,
      { name: "n", steps: [{ id: "s", name: "a" }], teamIds: null, other: 1 },
      { name: "n", steps: [{ id: "s", name: "b" }], other: 2 },
    );
    expect(changes).toEqual([{ path: ["steps", 0, "name"], kind: "changed", old: "a", new: "b" }]);
    expect(changedKeys(changes)).toEqual(["steps"]);
  });

  test("every change names its key, in key order, each once; no change names no key", () => {
    const changes = inputChanges(keys, { name: "a", teamIds: ["t1"] }, { name: "b", teamIds: ["t2", "t3"] });
    expect(changedKeys(changes)).toEqual(["name", "teamIds"]);
    expect(changes.map((c) => c.path[0])).toEqual(["name", "teamIds", "teamIds"]);
    expect(changedKeys(inputChanges(keys, { name: "a" }, { name: "a" }))).toEqual([]);
  });

  test("a value unknown until apply (preview) is a change at its path", () => {
    expect(inputChanges(keys, { steps: [{ name: "a" }] }, { steps: [{ name: UNKNOWN }] })).toEqual([
      { path: ["steps", 0, "name"], kind: "changed", old: "a", new: UNKNOWN },
    ]);
    // Even where the old value happens to be the same text: unknown means "may change".
    expect(changedKeys(inputChanges(keys, { name: UNKNOWN }, { name: UNKNOWN }))).toEqual(["name"]);
  });
});

describe("formatChange: one change for a person", () => {
  test("input path, then old → new; added and removed say so; unknown and long values are readable", () => {
    expect(
      formatChange({ path: ["incidentConfig", "template", "title"], kind: "changed", old: "a", new: "b" }),
    ).toBe('incidentConfig.template.title: "a" → "b"');
    expect(formatChange({ path: ["teamIds", 2], kind: "added", new: "t3" })).toBe('teamIds[2]: added "t3"');
    expect(formatChange({ path: ["enabled"], kind: "removed", old: true })).toBe("enabled: removed true");
    expect(formatChange({ path: ["name"], kind: "changed", old: "a", new: UNKNOWN })).toBe(
      'name: "a" → (known after apply)',
    );
    const long = formatChange({ path: [], kind: "added", new: "x".repeat(100) });
    expect(long.startsWith('(the whole value): added "xxx')).toBe(true);
    expect(long.endsWith("…")).toBe(true);
    expect(long.length).toBeLessThan(100);
  });
});

function sortChanges(changes: Change[]): Change[] {
  return [...changes].sort((a, b) => a.path.join(".").localeCompare(b.path.join(".")));
}

describe("touches: whether a path is at, under or above what a pattern names", () => {
  test.each([
    [["expressions", "*", "reference"], ["expressions", 0, "rootReference"], false],
    [["expressions", "*", "reference"], ["expressions", 2, "reference"], true],
    [["expressions", "*", "reference"], ["expressions"], true],
    [["expressions", "*", "reference"], ["expressions", 1], true],
    [["workingHours"], ["workingHours", 0, "name"], true],
    [["sourceType"], ["template"], false],
    [["incidentConfig", "enabled"], ["incidentConfig"], true],
  ] as const)("%j and %j: %s", (pattern, at, expected) => {
    expect(touches([...pattern], [...at])).toBe(expected);
  });
});
