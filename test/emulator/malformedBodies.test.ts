/**
 * Every malformed body is a 4xx naming the field, never a 5xx, in every family: the valid bodies the
 * providers send for each kind's sample (test/support/kindSamples.ts: a create and an in-place
 * update), each value in them replaced in turn by values of the wrong kind (null, a number, a
 * string, a boolean, an empty list, an empty object, rich-text documents that are not quite
 * documents). A reply may be a 2xx (the wrong value happened to be acceptable) or a 4xx; a 422
 * names the field (`source.field` or `source.pointer`); a 5xx is the emulator crashing on input it
 * should have refused.
 */

import { closeAllConnections } from "../../provider/client";
import { setCredentials } from "../../provider/credentials";
import type { Props } from "../../provider/spec";
import { providers } from "../../resources";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import { KIND_SAMPLES } from "../support/kindSamples";

/** Documents that are nearly rich text (a rich-text literal is one of these, JSON-encoded). */
const NEAR_DOCUMENTS = [
  { type: "doc" },
  { type: "doc", content: "x" },
  { type: "doc", content: [null] },
  { type: "doc", content: [{ type: "paragraph", content: "x" }] },
  { type: "doc", content: [{ type: "paragraph", content: [{ type: "varSpec" }] }] },
  { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: 5 }] }] },
  { type: "doc", content: [{ type: "paragraph", content: [{ type: "varSpec", attrs: null }] }] },
  { text_node: 5, schema_version: "1.0.0" },
];

/** Values of the wrong kind for almost any field, including documents that are nearly rich text. */
const WRONG = [
  null,
  7,
  "x",
  true,
  [],
  {},
  [null],
  "[1]",
  "{",
  ...NEAR_DOCUMENTS,
  ...NEAR_DOCUMENTS.map((d) => JSON.stringify(d)),
  { literal: { type: "doc", content: 5 } },
];

interface Write {
  method: string;
  path: string;
  body: unknown;
}

/** Every path inside a JSON value (the root excluded). */
function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...at, i], ...pathsOf(v, [...at, i])]);
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => [[...at, k], ...pathsOf(v, [...at, k])]);
  return [];
}

function replaced(body: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as any;
  let parent = copy;
  for (const seg of path.slice(0, -1)) parent = parent[seg];
  parent[path[path.length - 1]!] = value;
  return copy;
}

let emu: TestEmulator;
let writes: Write[] = [];
/** Whether the writes are the providers' own (recorded) or the test's (not). */
let recording = false;
beforeAll(async () => {
  emu = await startTestEmulator({ burst: 10_000_000, refillPerSecond: 10_000_000 });
  emu.pipeline.use(
    "record-writes",
    async (ctx, next) => {
      if (recording && ctx.method !== "GET" && ctx.body !== undefined)
        writes.push({ method: ctx.method, path: ctx.path, body: structuredClone(ctx.body) });
      await next();
    },
    { before: "validate" },
  );
  setCredentials({ apiKey: emu.apiKey, baseUrl: emu.url });
});
afterAll(async () => {
  await closeAllConnections();
  await emu.dispose();
});

describe.each(Object.keys(KIND_SAMPLES))("%s", (kind) => {
  test("each value of its create and update bodies made wrong: 2xx or a 4xx naming the field, never a 5xx", async () => {
    // A clean account per kind: what an earlier kind's accepted bodies made must not get in the way.
    await emu.reset();
    const dashboardKey = await emu.createApiKey("dashboard", ["global_access"]);
    const api = {
      emu,
      call: (method: string, urlPath: string, body?: unknown) =>
        emu.ok(method, urlPath, { token: dashboardKey, body }),
    };
    const provider = providers[kind]!;
    const prepared = await KIND_SAMPLES[kind]!.prepare(api);
    const check = async (inputs: Props) => (await provider.check!({}, inputs)).inputs;
    writes = [];
    recording = true;
    const created = await provider.create(await check(prepared.inputs));
    // A kind with no update (every input replaces) has no update body.
    if (prepared.updated) await provider.update!(created.id, created.outs, await check(prepared.updated));
    recording = false;
    const valid = writes;
    expect(valid.length).toBeGreaterThan(0);
    const crashes: string[] = [];
    const unnamed: string[] = [];
    for (const w of valid) {
      for (const path of pathsOf(w.body)) {
        for (const value of WRONG) {
          const reply = await emu.call(w.method, w.path, { body: replaced(w.body, path, value) });
          const where = `${w.method} ${w.path} ${path.join(".")} = ${JSON.stringify(value)}`;
          if (reply.status >= 500) crashes.push(`${where}: ${reply.status} ${reply.text.slice(0, 200)}`);
          if (reply.status === 422) {
            const errors: any[] = reply.body?.errors ?? [];
            if (!errors.length || !errors.every((e) => e.source?.field || e.source?.pointer))
              unnamed.push(`${where}: ${reply.text.slice(0, 200)}`);
          }
        }
      }
    }
    expect(crashes).toEqual([]);
    expect(unnamed).toEqual([]);
  });
});
