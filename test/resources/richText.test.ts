import {
  canonicalRichText,
  keepDeclaredTemplate,
  parseTemplate,
  richTextToTemplate,
  sameRichText,
  TemplateSyntaxError,
  templateError,
  templateToRichText,
} from "../../resources/shared/richText";

const doc = (...paragraphs: unknown[][]) => ({
  type: "doc",
  content: paragraphs.map((content) =>
    content.length ? { type: "paragraph", content } : { type: "paragraph" },
  ),
});
const v = (name: string, extra: Record<string, unknown> = {}) => ({
  type: "varSpec",
  attrs: { name, ...extra },
});
const t = (text: string) => ({ type: "text", text });

describe("rule: rich text vs template — template to document", () => {
  test("placeholders become varSpec nodes, text between them text nodes", () => {
    expect(JSON.parse(templateToRichText("{{ alert.title }} in {{ alert.attributes.service }}"))).toEqual(
      doc([v("alert.title"), t(" in "), v("alert.attributes.service")]),
    );
  });

  test("blank line separates paragraphs; single newline is a lineBreak", () => {
    expect(parseTemplate("a\nb\n\nc")).toEqual(doc([t("a"), { type: "lineBreak" }, t("b")], [t("c")]));
  });

  test("filters: truncate and omit_if_unset, any spacing", () => {
    expect(parseTemplate("{{x|truncate:5|omit_if_unset}}")).toEqual(
      doc([v("x", { truncateTo: 5, omitIfUnset: true })]),
    );
  });

  test("empty template is one empty paragraph", () => {
    expect(parseTemplate("")).toEqual(doc([]));
  });

  test("a JSON document is sent exactly as written", () => {
    const raw = '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"a {{ b"}]}]}';
    expect(templateToRichText(raw)).toBe(raw);
  });

  test.each([
    ["{{ a", "unclosed_variable"],
    ["{{ a {{ b }}", "nested_variable"],
    ["{{  }}", "empty_variable_name"],
    ["{{ a | upper }}", "unknown_filter"],
    ["{{ a | truncate: 0 }}", "invalid_filter_argument"],
    ["{{ a | truncate }}", "invalid_filter_argument"],
    ["{{ a | omit_if_unset: 1 }}", "invalid_filter_argument"],
  ])("syntax error %s → %s", (template, slug) => {
    expect(() => parseTemplate(template)).toThrow(TemplateSyntaxError);
    try {
      parseTemplate(template);
    } catch (e) {
      expect((e as TemplateSyntaxError).slug).toBe(slug);
    }
    expect(templateError(template)).toBeDefined();
  });
});

describe("rule: rich text vs template — document to template (read-back)", () => {
  test("dashboard-authored varSpec with label/missing collapses", () => {
    const live = JSON.stringify(doc([v("alert.title", { label: "Alert → Title", missing: false })]));
    expect(richTextToTemplate(live)).toBe("{{ alert.title }}");
  });

  test("dashboard defaults omitIfUnset:false and truncateTo:null mean absent", () => {
    const live = JSON.stringify(doc([v("d", { omitIfUnset: false, truncateTo: null, label: "D" })]));
    expect(richTextToTemplate(live)).toBe("{{ d }}");
  });

  test("real filters are kept, in a fixed order", () => {
    const live = JSON.stringify(doc([v("d", { omitIfUnset: true, truncateTo: 50 })]));
    expect(richTextToTemplate(live)).toBe("{{ d | truncate: 50 | omit_if_unset }}");
  });

  test("current envelope {schema_version, text_node} is unwrapped (TF PR #462)", () => {
    const live = JSON.stringify({
      schema_version: "1.0.0",
      feature_set: "rich",
      markdown: "Payments alert",
      text_node: doc([t("Payments alert")]),
    });
    expect(richTextToTemplate(live)).toBe("Payments alert");
  });

  test("legacy envelope {root, value_markdown} is unwrapped", () => {
    const live = JSON.stringify({ value_markdown: "x", root: doc([t("Hi "), v("alert.title")]) });
    expect(richTextToTemplate(live)).toBe("Hi {{ alert.title }}");
  });

  test("two paragraphs and line breaks", () => {
    expect(richTextToTemplate(JSON.stringify(doc([t("a"), { type: "lineBreak" }, t("b")], [t("c")])))).toBe(
      "a\nb\n\nc",
    );
  });

  test.each([
    ["bold mark", doc([{ type: "text", text: "x", marks: [{ type: "bold" }] }])],
    ["mark on a varSpec", doc([{ ...v("x"), marks: [{ type: "bold" }] }])],
    ["mention", doc([{ type: "user", attrs: { name: "R", user_id: "1" } }])],
    ["heading", { type: "doc", content: [{ type: "heading", attrs: { level: 1 }, content: [t("x")] }] }],
    ["text holding {{", doc([t("literally {{x}}")])],
    ["unknown varSpec attr", doc([v("x", { expression: "01" })])],
    ["truncateTo 0", doc([v("x", { truncateTo: 0 })])],
    ["adjacent lineBreaks", doc([t("a"), { type: "lineBreak" }, { type: "lineBreak" }, t("b")])],
    ["newline inside text", doc([t("a\nb")])],
    ["empty paragraph between two", doc([t("a")], [], [t("b")])],
    ["doc without blocks", { type: "doc", content: [] }],
    ["root not a doc", { type: "paragraph", content: [t("x")] }],
    ["not JSON", "plain"],
  ])("not expressible: %s", (_name, live) => {
    expect(richTextToTemplate(typeof live === "string" ? live : JSON.stringify(live))).toBeUndefined();
  });
});

describe("rule: rich text vs template — comparison and keepDeclaredTemplate", () => {
  const declared = "{{ alert.title }} in {{ alert.attributes.service }}";

  test("the document the template produces compares equal, whatever its key order and presentation", () => {
    const live = JSON.stringify({
      content: [
        {
          content: [
            { attrs: { missing: false, label: "Title", name: "alert.title" }, type: "varSpec" },
            { text: " in ", type: "text" },
            { attrs: { name: "alert.attributes.service", omitIfUnset: false }, type: "varSpec", marks: [] },
          ],
          type: "paragraph",
        },
      ],
      type: "doc",
    });
    expect(sameRichText(live, declared)).toBe(true);
    expect(keepDeclaredTemplate(live, declared)).toBe(declared);
  });

  test("envelope-wrapped document equal to the declared template keeps the declared spelling", () => {
    const live = JSON.stringify({
      schema_version: "1.0.0",
      text_node: JSON.parse(templateToRichText(declared)),
    });
    expect(keepDeclaredTemplate(live, declared)).toBe(declared);
  });

  test("spacing inside braces carries no meaning", () => {
    expect(sameRichText("{{alert.title}}", "{{ alert.title }}")).toBe(true);
    expect(keepDeclaredTemplate(templateToRichText("{{alert.title}}"), "{{ alert.title }}")).toBe(
      "{{ alert.title }}",
    );
  });

  test("a changed document reads back as its own template (drift is shown)", () => {
    expect(keepDeclaredTemplate(templateToRichText("{{ alert.title }} changed"), declared)).toBe(
      "{{ alert.title }} changed",
    );
  });

  test("an inexpressible changed document reads back verbatim", () => {
    const live = JSON.stringify(doc([{ type: "text", text: "x", marks: [{ type: "bold" }] }]));
    expect(keepDeclaredTemplate(live, declared)).toBe(live);
  });

  test("a declared JSON document compares with the live template-produced document", () => {
    const raw = JSON.stringify(doc([v("alert.title")]));
    expect(keepDeclaredTemplate(templateToRichText("{{alert.title}}"), raw)).toBe(raw);
    expect(canonicalRichText(raw)).toBe(canonicalRichText("{{ alert.title }}"));
  });

  test("undefined live stays undefined", () => {
    expect(keepDeclaredTemplate(undefined, declared)).toBeUndefined();
  });
});
