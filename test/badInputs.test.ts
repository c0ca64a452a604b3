/**
 * The bad-input corpus: every case is refused by check with the property named, before any API call;
 * or, where no published rule forbids it (issue 28), passed with a warning naming its input path, or
 * passed as the service means it. Cases live per family under test/corpus/.
 */
import { setCredentials } from "../provider/credentials";
import { providers } from "../resources";
import { catalogCases } from "./corpus/catalog";
import { familyCases } from "./corpus/families";
import { foundationCases } from "./corpus/foundation";
import { incidentTemplateCases } from "./corpus/incidentTemplate";
import { ipAllowlistCases } from "./corpus/ipAllowlist";
import { issue10Cases } from "./corpus/issue10";
import { issue12Cases } from "./corpus/issue12";
import { overrideCallRouteCases } from "./corpus/overrideCallRoute";
import { policyPayConfigCases } from "./corpus/policyPayConfig";
import type { BadInputCase } from "./corpus/types";
import { checkWarned } from "./support/checkWarnings";
import { startTestEmulator, type TestEmulator } from "./support/emulator";

const corpus: BadInputCase[] = [
  ...foundationCases,
  ...familyCases,
  ...issue10Cases,
  ...issue12Cases,
  ...catalogCases,
  ...ipAllowlistCases,
  ...overrideCallRouteCases,
  ...incidentTemplateCases,
  ...policyPayConfigCases,
];

// Any API call would go to this closed port and fail the test loudly.
beforeAll(() => setCredentials({ apiKey: "corpus", baseUrl: "http://127.0.0.1:9" }));

test("the corpus is large and covers every resource kind it names", () => {
  expect(corpus.length).toBeGreaterThanOrEqual(100);
  for (const c of corpus) expect(Object.keys(providers)).toContain(c.kind);
});

const refused = corpus.filter((c) => c.outcome === undefined);
const passed = corpus.filter((c) => c.outcome !== undefined);

test.each(refused.map((c) => [`${c.kind}: ${c.title}`, c] as const))("%s", async (_title, c) => {
  const provider = providers[c.kind]!;
  const result = await provider.check!({}, { ...c.inputs, __provider: "shim" });
  const properties = (result.failures ?? []).map((f) => f.property);
  expect(properties).toContain(c.property);
  if (c.reason) {
    const reasons = (result.failures ?? []).filter((f) => f.property === c.property).map((f) => f.reason);
    expect(reasons.join("\n")).toMatch(c.reason);
  }
});

describe("passed on: no published rule forbids them (warned, naming the input path) or the service means them", () => {
  test.each(passed.map((c) => [`${c.kind}: ${c.title}`, c] as const))("%s", async (_title, c) => {
    const { failures, warnings } = await checkWarned(providers[c.kind]!, c.inputs);
    expect(failures).toEqual([]);
    if (c.outcome === "accepted") {
      expect(warnings).toEqual([]);
      return;
    }
    const at = warnings.filter((w) => w.includes(`: ${c.warns}: `));
    expect({ at: c.warns, warnings: at.length > 0 ? at : warnings }).toEqual({
      at: c.warns,
      warnings: [expect.stringMatching(c.reason ?? /./)],
    });
  });
});

describe("the emulator refuses the same inputs as the API would (status and field), never with a 500", () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(async () => {
    await emu.dispose();
  });
  const cases = issue10Cases.filter((c) => c.api !== undefined);
  test.each(cases.map((c) => [`${c.kind}: ${c.title}`, c] as const))("%s", async (_title, c) => {
    const api = c.api!;
    const reply = await emu.call(api.method, api.path, { body: api.body });
    expect({ status: reply.status, text: reply.text.slice(0, 300) }).toMatchObject({ status: api.status });
    expect(reply.body).toMatchObject({
      status: api.status,
      type: expect.any(String),
      request_id: expect.any(String),
    });
    if (api.field) {
      expect(reply.body.errors.map((e: any) => e.source?.field)).toContain(api.field);
    }
  });
});
