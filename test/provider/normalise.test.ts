import {
  canonicalJsonLiteral,
  dedupe,
  keepDeclaredAlias,
  keepDeclaredJson,
  keepDeclaredOrder,
  keepDeclaredPadding,
  keepDeclaredSet,
  omittedWhenEmpty,
  sameSet,
  trimTrailingEmpty,
  uniqueSet,
  unorderedSet,
  writeOnly,
} from "../../provider/normalise";

// Each rule: a live read-back that differs from what the user wrote only in form.
describe("normalisation rules (test vectors)", () => {
  test("unordered set: order is not meaning", () => {
    expect(unorderedSet(["b", "a", "c"])).toEqual(["a", "b", "c"]);
    expect(sameSet(["team-2", "team-1"], ["team-1", "team-2"])).toBe(true);
    expect(sameSet(["team-1"], ["team-1", "team-2"])).toBe(false);
    expect(keepDeclaredOrder(["b", "a"], ["a", "b"])).toEqual(["a", "b"]);
    expect(keepDeclaredOrder(["b", "c"], ["a", "b"])).toEqual(["b", "c"]);
  });

  test("canonical JSON literals: key order, whitespace and \\u003e escapes do not matter", () => {
    const declared = '{"b": 1, "a": "x > y"}';
    const live = '{"a":"x \\u003e y","b":1}';
    expect(canonicalJsonLiteral(live)).toBe(canonicalJsonLiteral(declared));
    expect(keepDeclaredJson(live, declared)).toBe(declared);
    expect(keepDeclaredJson('{"a":"changed","b":1}', declared)).toBe('{"a":"changed","b":1}');
    expect(canonicalJsonLiteral("not json")).toBe("not json");
  });

  test("operation aliases: the declared spelling is kept when it means the same", () => {
    const aliases = [["one_of", "contains_one_of"]];
    expect(keepDeclaredAlias("contains_one_of", "one_of", aliases)).toBe("one_of");
    expect(keepDeclaredAlias("one_of", "contains_one_of", aliases)).toBe("contains_one_of");
    expect(keepDeclaredAlias("is_set", "one_of", aliases)).toBe("is_set");
  });

  test("padded lists: trailing empty entries are dropped, inner ones kept", () => {
    const empty = (v: { value?: string }) => v.value === undefined;
    expect(trimTrailingEmpty([{ value: "a" }, {}, { value: "b" }, {}, {}], empty)).toEqual([
      { value: "a" },
      {},
      { value: "b" },
    ]);
  });

  test("set with repeats: a repeated member means nothing (the API keeps it once)", () => {
    expect(uniqueSet(["viewer", "incident_creator", "viewer"])).toEqual(["incident_creator", "viewer"]);
    expect(keepDeclaredSet(["incident_creator", "viewer"], ["viewer", "incident_creator", "viewer"])).toEqual(
      ["viewer", "incident_creator", "viewer"],
    );
    expect(keepDeclaredSet(["viewer"], ["viewer", "incident_creator"])).toEqual(["viewer"]);
    expect(keepDeclaredSet(["t1", "t2"], undefined)).toEqual(["t1", "t2"]);
  });

  test("declared padding: a trailing empty entry the user wrote reads back as written", () => {
    const empty = (v: { value?: string }) => v.value === undefined;
    // The API dropped the declared trailing {}; the live list is the declared one without it.
    expect(keepDeclaredPadding([{ value: "a" }], [{ value: "a" }, {}], empty)).toEqual([{ value: "a" }, {}]);
    // Padded by the API beyond what was declared: trimmed.
    expect(keepDeclaredPadding([{ value: "a" }, {}, {}], [{ value: "a" }], empty)).toEqual([{ value: "a" }]);
    // A real change is not hidden.
    expect(keepDeclaredPadding([{ value: "a" }, { value: "b" }], [{ value: "a" }, {}], empty)).toEqual([
      { value: "a" },
      { value: "b" },
    ]);
    expect(keepDeclaredPadding([], [{}, {}], empty)).toEqual([{}, {}]);
  });

  test("duplicated entries: repeated read-back entries collapse to one", () => {
    expect(dedupe([{ users: ["u1"] }, { users: ["u1"] }, { users: ["u2"] }])).toEqual([
      { users: ["u1"] },
      { users: ["u2"] },
    ]);
  });

  test("omitted vs empty list: an empty live list reads back as omitted when omitted was declared", () => {
    expect(omittedWhenEmpty([], undefined)).toBeUndefined();
    expect(omittedWhenEmpty([], [])).toEqual([]);
    expect(omittedWhenEmpty(["x"], undefined)).toEqual(["x"]);
  });

  test("write-only values keep the declared value", () => {
    expect(writeOnly({ token: "declared" })).toEqual({ token: "declared" });
  });
});
