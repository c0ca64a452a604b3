/**
 * The bad-input corpus: every case must be rejected by check with the property named, before any
 * API call. Cases live per family under test/corpus/.
 */
import { setCredentials } from "../provider/credentials";
import { providers } from "../resources";
import { familyCases } from "./corpus/families";
import { foundationCases } from "./corpus/foundation";
import type { BadInputCase } from "./corpus/types";

const corpus: BadInputCase[] = [...foundationCases, ...familyCases];

// Any API call would go to this closed port and fail the test loudly.
beforeAll(() => setCredentials({ apiKey: "corpus", baseUrl: "http://127.0.0.1:9" }));

test("the corpus is large and covers every resource kind it names", () => {
  expect(corpus.length).toBeGreaterThanOrEqual(100);
  for (const c of corpus) expect(Object.keys(providers)).toContain(c.kind);
});

test.each(corpus.map((c) => [`${c.kind}: ${c.title}`, c] as const))("%s", async (_title, c) => {
  const provider = providers[c.kind]!;
  const result = await provider.check!({}, { ...c.inputs, __provider: "shim" });
  const properties = (result.failures ?? []).map((f) => f.property);
  expect(properties).toContain(c.property);
  if (c.reason) {
    const reasons = (result.failures ?? []).filter((f) => f.property === c.property).map((f) => f.reason);
    expect(reasons.join("\n")).toMatch(c.reason);
  }
});
