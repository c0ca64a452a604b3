import {
  canonicalJsonLiteral,
  dedupe,
  keepDeclaredAlias,
  keepDeclaredJson,
  keepDeclaredOrder,
  omittedWhenEmpty,
  sameSet,
  trimTrailingEmpty,
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
