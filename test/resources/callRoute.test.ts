import { ApiClient } from "../../provider/client";
import {
  type CallRouteInputs,
  callRouteFromApi,
  callRouteInputs,
  callRoutePayload,
  callRouteProvider,
  callRouteSpec,
  planParts,
} from "../../resources/callRoute";
import { expectCheckFailure } from "../fixtures/settings/emulator";
import { useAlertEmulator } from "../support/alertEmulator";
import { expectWarned } from "../support/checkWarnings";
import { dashboardCallRoute } from "../support/dashboard";
import { expectShape } from "../support/emulator";

const PATH = "/v2/call_routes";
const MAIN = "01CALLROUTEMAIN";
const MENU = "01CALLROUTEMENU";
const parse = (raw: Record<string, unknown>): CallRouteInputs => callRouteInputs.parse(raw);
const canonical = callRouteProvider.spec.canonical!;
const ae = useAlertEmulator({ strictPaths: /^\/v2\/call_routes(\/|$)/, dashboardRoles: ["global_access"] });
const show = async (id: string) => (await ae.ok("GET", `${PATH}/${id}`)).call_route;
/** What a route holds, without what every write changes (its `updated_at`). */
const held = async (id: string) => {
  const { updated_at: _updated, ...rest } = await show(id);
  return rest;
};
/** A route's callers and options without their ids (made again by a restore: new ids). */
const withoutIds = (r: any) => ({
  ...r,
  allowed_callers: r.allowed_callers.map(({ id: _id, ...c }: any) => c),
  options: r.options.map(({ id: _id, ...o }: any) => o),
});

/** The provider's warnings (`ApiClient.warn`: the Pulumi log's warnings) while `fn` runs. */
async function warningsOf<T>(fn: () => Promise<T>): Promise<{ result: T; warnings: string[] }> {
  const warnings: string[] = [];
  const spy = jest
    .spyOn(ApiClient.prototype, "warn")
    .mockImplementation((m: string) => void warnings.push(m));
  try {
    return { result: await fn(), warnings };
  } finally {
    spy.mockRestore();
  }
}

let routes = 0;
/** A route bought in the dashboard: a level paging Bob; answers the route. */
const bought = (extra: Record<string, unknown> = {}) =>
  dashboardCallRoute(ae.emu, {
    name: `Bought ${++routes}`,
    custom_language: "en-GB",
    path: [
      { id: "start", type: "level", level: { targets: [{ id: "01USERBOB", type: "user", urgency: "low" }] } },
    ],
    ...extra,
  });

/** A route bought with a phone-tree menu (two options) and one allowed caller, the allowlist on. */
const boughtWithMenu = () =>
  bought({
    path: [],
    use_caller_allowlist: true,
    allowed_callers: [{ phone_number: "+442071838750", name: "Head office" }],
    options: [
      {
        digit: "1",
        prompt: "For an outage, press 1",
        path: [
          {
            id: "outage",
            type: "level",
            level: { targets: [{ id: "01USERBOB", type: "user", urgency: "high" }] },
          },
        ],
      },
      {
        digit: "2",
        prompt: "To leave a message, press 2",
        path: [{ id: "vm", type: "voicemail", voicemail: { greeting_text: "Leave a message" } }],
      },
    ],
  });

const declared = (callRouteId: string, extra: Record<string, unknown> = {}) =>
  parse({
    callRouteId,
    name: "Payments hotline",
    customLanguage: "en-US",
    responderCallerId: "oncall_number",
    useCallerAllowlist: false,
    path: [
      { level: { targets: [{ type: "user", id: "01USERADA", urgency: "high" }] } },
      { voicemail: { greetingText: "Leave a message" } },
    ],
    ...extra,
  });

const ada = { type: "user", id: "01USERADA", urgency: "high" };
const menu = (prompts: Record<string, string> = { "1": "For an outage, press 1" }) =>
  Object.entries(prompts).map(([digit, prompt]) => ({
    digit,
    prompt,
    path: [{ level: { targets: [ada] } }],
  }));

describe("mapping", () => {
  test("the payload has the update shape: every field, node ids derived from positions, an undeclared path empty", () => {
    const payload = callRoutePayload(declared("01R"));
    expectShape("CallRoutesUpdatePayloadV2", payload);
    expect(payload).toEqual({
      name: "Payments hotline",
      custom_language: "en-US",
      responder_caller_id: "oncall_number",
      use_caller_allowlist: false,
      path: [
        {
          id: "node-0",
          type: "level",
          level: { targets: [{ id: "01USERADA", type: "user", urgency: "high" }] },
        },
        { id: "node-1", type: "voicemail", voicemail: { greeting_text: "Leave a message" } },
      ],
    });
    const keep = callRoutePayload(declared("01R", { path: undefined }));
    expectShape("CallRoutesUpdatePayloadV2", keep);
    expect(keep.path).toEqual([]);
  });

  test("allowed callers and options go to their own endpoints, in their payloads' shapes", async () => {
    const route = await bought();
    const mark = ae.emu.requests.length;
    await callRouteProvider.create!(
      declared(route.id, {
        path: undefined,
        allowedCallers: [
          { phoneNumber: "+15551234567", name: "Regulator duty desk" },
          { phoneNumber: "+15550000000" },
        ],
        options: menu(),
      }),
    );
    const bodies = ae.emu.requests.slice(mark).filter((r) => r.method === "POST");
    expect(bodies.map((r) => [r.path, r.route])).toEqual([
      [`${PATH}/${route.id}/allowed_callers`, `${PATH}/{call_route_id}/allowed_callers`],
      [`${PATH}/${route.id}/allowed_callers`, `${PATH}/{call_route_id}/allowed_callers`],
      [`${PATH}/${route.id}/options`, `${PATH}/{call_route_id}/options`],
    ]);
    // (Every body was held to its exact reference type: `strictPaths` above.)
    const live = await show(route.id);
    expect(live.allowed_callers.map(({ id: _id, ...c }: any) => c)).toEqual([
      { phone_number: "+15551234567", name: "Regulator duty desk" },
      { phone_number: "+15550000000" },
    ]);
    // An option's nodes carry ids derived from its digit and their position.
    expect(live.options).toEqual([
      {
        id: expect.any(String),
        digit: "1",
        prompt: "For an outage, press 1",
        path: [
          {
            id: "node-option-1-0",
            type: "level",
            level: { targets: [{ id: "01USERADA", type: "user", urgency: "high" }] },
          },
        ],
      },
    ]);
  });
});

describe("planning the writes of callers and options (by key, in place where it can)", () => {
  const live = (...keys: string[]) => keys.map((k, i) => ({ id: `id-${i}`, k }));
  const plan = (l: ReturnType<typeof live>, d: string[]) =>
    planParts(
      l,
      d.map((k) => ({ k })),
      { live: (x) => x.k.split("=")[0]!, declared: (x) => x.k.split("=")[0]! },
      (x, y) => x.k !== y.k,
    ).map((s) =>
      s.op === "delete" ? `delete ${s.id}` : `${s.op} ${s.op === "update" ? `${s.id} ` : ""}${s.item.k}`,
    );

  test.each([
    ["nothing to do", live("a", "b"), ["b", "a"], []],
    ["one changed in place", live("a", "b=1"), ["a", "b=2"], ["update id-1 b=2"]],
    [
      "a new key takes a dropped one's place (no delete, no create)",
      live("a", "b"),
      ["a", "c"],
      ["update id-1 c"],
    ],
    ["one added", live("a"), ["a", "b"], ["create b"]],
    ["one removed, last", live("a", "b"), ["b"], ["delete id-0"]],
    ["a duplicate live key is removed", live("a", "a"), ["a"], ["delete id-1"]],
    ["everything removed", live("a", "b"), [], ["delete id-0", "delete id-1"]],
  ])("%s", (_what, l, d, steps) => {
    expect(plan(l, d)).toEqual(steps);
  });
});

describe("normalisation vectors (read-back in another form is no diff)", () => {
  const live = (path: any[], o: Record<string, unknown> = {}) => ({
    id: "01R",
    name: "Payments hotline",
    current_state: "active",
    custom_language: "en-US",
    responder_caller_id: "oncall_number" as const,
    use_caller_allowlist: false,
    path,
    allowed_callers: [] as any[],
    options: [] as any[],
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    ...o,
  });
  const level = (id: string, targets: any[]) => ({ id, type: "level", level: { targets } });
  const apiAda = { id: "01USERADA", type: "user", urgency: "high" };
  const callers = [
    { id: "c1", phone_number: "+15551234567", name: "Regulator" },
    { id: "c2", phone_number: "+15550000000" },
  ];
  const option = (digit: string, nodeId = `node-option-${digit}-0`) => ({
    id: `o${digit}`,
    digit,
    prompt: `Press ${digit}`,
    path: [level(nodeId, [apiAda])],
  });
  const same = (d: CallRouteInputs, answered: ReturnType<typeof live>) =>
    JSON.stringify(canonical(callRouteFromApi(answered, d))) === JSON.stringify(canonical(d));

  test("the answer has the reference shape", () =>
    expectShape(
      "CallRouteV2",
      live([level("node-0", [apiAda])], { allowed_callers: callers, options: [option("1")] }),
    ));

  test.each([
    [
      "generated node ids read back as none",
      declared("01R"),
      live([
        level("node-0", [apiAda]),
        { id: "node-1", type: "voicemail", voicemail: { greeting_text: "Leave a message" } },
      ]),
    ],
    [
      "repeated user targets collapse, an empty schedule mode is unset",
      declared("01R", { path: [{ level: { targets: [ada] } }] }),
      live([level("node-0", [{ ...apiAda, schedule_mode: "" }, apiAda])]),
    ],
    ["an undeclared path is not managed", declared("01R", { path: undefined }), live([level("x", [apiAda])])],
    [
      "allowed callers answered in another order",
      declared("01R", {
        allowedCallers: [{ phoneNumber: "+15550000000" }, { phoneNumber: "+15551234567", name: "Regulator" }],
      }),
      live(
        [
          level("node-0", [apiAda]),
          { id: "node-1", type: "voicemail", voicemail: { greeting_text: "Leave a message" } },
        ],
        {
          allowed_callers: callers,
        },
      ),
    ],
    [
      "undeclared callers and options are not managed",
      declared("01R", { path: undefined }),
      live([], { allowed_callers: callers, options: [option("1")] }),
    ],
    [
      "options by digit, in another order; their generated node ids read back as none",
      declared("01R", {
        path: undefined,
        options: [...menu({ "2": "Press 2" }), ...menu({ "1": "Press 1" })],
      }),
      live([], { options: [option("1"), option("2")] }),
    ],
  ])("%s", (_rule, d, answered) => {
    expect(same(d, answered)).toBe(true);
  });

  test.each([
    ["another name", declared("01R"), live([], { name: "Other" })],
    ["the allowlist on", declared("01R", { path: undefined }), live([], { use_caller_allowlist: true })],
    ["another target", declared("01R"), live([level("node-0", [{ ...apiAda, id: "01USERBOB" }])])],
    [
      "an explicit node id",
      declared("01R", { path: [{ level: { targets: [ada] } }] }),
      live([level("start", [apiAda])]),
    ],
    [
      "a caller removed in the dashboard",
      declared("01R", {
        path: undefined,
        allowedCallers: [{ phoneNumber: "+15551234567", name: "Regulator" }, { phoneNumber: "+15550000000" }],
      }),
      live([], { allowed_callers: [callers[1]] }),
    ],
    [
      "a caller's label removed",
      declared("01R", {
        path: undefined,
        allowedCallers: [{ phoneNumber: "+15551234567", name: "Regulator" }, { phoneNumber: "+15550000000" }],
      }),
      live([], { allowed_callers: [{ id: "c1", phone_number: "+15551234567" }, callers[1]] }),
    ],
    [
      "a caller added in the dashboard",
      declared("01R", { path: undefined, allowedCallers: [{ phoneNumber: "+15550000000" }] }),
      live([], { allowed_callers: callers }),
    ],
    [
      "an option's prompt",
      declared("01R", { path: undefined, options: menu({ "1": "Press 1" }) }),
      live([], { options: [{ ...option("1"), prompt: "Press one" }] }),
    ],
    [
      "an option's node id given by the dashboard",
      declared("01R", { path: undefined, options: menu({ "1": "Press 1" }) }),
      live([], { options: [option("1", "start")] }),
    ],
    ["the menu removed", declared("01R", { path: undefined, options: menu({ "1": "Press 1" }) }), live([])],
  ])("a real change shows: %s", (_what, d, answered) => {
    expect(same(d, answered)).toBe(false);
  });

  test("export (nothing declared): what the route holds, and nothing it lacks", () => {
    const byPath = callRouteFromApi(
      live([level("start", [apiAda])], { allowed_callers: callers }),
      undefined,
    );
    expect(byPath.path).toEqual([{ id: "start", level: { targets: [ada] } }]);
    expect(byPath.allowedCallers).toEqual([
      { phoneNumber: "+15551234567", name: "Regulator" },
      { phoneNumber: "+15550000000" },
    ]);
    expect(byPath.options).toBeUndefined();
    const byMenu = callRouteFromApi(live([], { options: [option("1", "start")] }), undefined);
    expect(byMenu).toMatchObject({
      path: undefined,
      allowedCallers: undefined,
      options: [{ digit: "1", prompt: "Press 1", path: [{ id: "start", level: { targets: [ada] } }] }],
    });
    // Such a declaration passes the check (the export's program runs as written).
    expect(callRouteSpec.validate!(byMenu)).toEqual([]);
  });
});

describe("check (zero API calls)", () => {
  const ok = () => ({
    callRouteId: "01R",
    name: "Hotline",
    customLanguage: "en-US",
    responderCallerId: "route_number",
    useCallerAllowlist: false,
  });
  const node = { level: { targets: [ada] } };
  test.each([
    [{ ...ok(), callRouteId: undefined }, "callRouteId", /./],
    [{ ...ok(), useCallerAllowlist: "yes" }, "useCallerAllowlist", /./],
    [{ ...ok(), path: [{}] }, "path", /\[0\].*one of level, voicemail/],
    [
      { ...ok(), path: [{ ...node, voicemail: { greetingText: "Hi" } }] },
      "path",
      /\[0\].*exactly one of level, voicemail/,
    ],
    [
      { ...ok(), path: [{ level: { targets: [{ ...ada, scheduleMode: "all_users" }] } }] },
      "path",
      /scheduleMode.*only schedule targets/,
    ],
    [{ ...ok(), path: [{ voicemail: { greeting: "hi" } }] }, "path", /greeting/],
    // CallRoutePathNodeVoicemailV2: greeting_text is required, at most 250 characters.
    [{ ...ok(), path: [{ voicemail: {} }] }, "path", /\[0\]\.voicemail\.greetingText/],
    [{ ...ok(), path: [{ voicemail: { greetingText: "x".repeat(251) } }] }, "path", /at most 250/],
    [{ ...ok(), adoptId: "01OTHER" }, "adoptId", /must be callRouteId/],
    [{ ...ok(), allowedCallers: ["+441234"] }, "allowedCallers", /\[0\]/],
    [{ ...ok(), allowedCallers: [{ name: "Desk" }] }, "allowedCallers", /\[0\]\.phoneNumber/],
    [{ ...ok(), allowedCallers: [{ phone_number: "+441234" }] }, "allowedCallers", /phone_number/],
    // "Needs at least one allowed caller."
    [
      { ...ok(), useCallerAllowlist: true, allowedCallers: [] },
      "useCallerAllowlist",
      /at least one allowed caller/,
    ],
    // "Two live options can't share a digit."
    [{ ...ok(), options: [...menu(), ...menu()] }, "options", /\[1\]\.digit.*cannot share a digit/],
    // A path retires the menu; the first option clears the path.
    [{ ...ok(), path: [node], options: menu() }, "options", /path or by its menu, not both/],
    [
      { ...ok(), options: [{ digit: "1", prompt: "x".repeat(251), path: [node] }] },
      "options",
      /\[0\]\.prompt.*at most 250/,
    ],
    [{ ...ok(), options: [{ digit: "1", path: [node] }] }, "options", /\[0\]\.prompt/],
    [{ ...ok(), options: [{ digit: 1, prompt: "Press 1", path: [node] }] }, "options", /\[0\]\.digit/],
  ])("%j fails at %s", async (inputs, property, reason) => {
    await expectCheckFailure(ae, callRouteProvider.check!, inputs, property, reason);
  });

  // No published rule forbids these (issue 28): passed on, warned about at the input path.
  test.each([
    [
      { ...ok(), responderCallerId: "my_number" },
      "responderCallerId",
      /"my_number" is not a value the API is known to take/,
    ],
    [{ ...ok(), customLanguage: "" }, "customLanguage", /"" is not a value the API is known to take/],
    [{ ...ok(), name: " " }, "name", /is only whitespace/],
    [{ ...ok(), path: [] }, "path", /is empty: the API keeps the route's routing as it is/],
    [{ ...ok(), path: [{ level: { targets: [] } }] }, "path[0].level.targets", /has no target/],
    [
      { ...ok(), path: [{ level: { targets: [{ ...ada, urgency: "urgent" }] } }] },
      "path[0].level.targets[0].urgency",
      /"urgent" is not a value the API is known to take.*did you mean "high"/,
    ],
    [
      {
        ...ok(),
        path: [
          { ...node, id: "a" },
          { ...node, id: "a" },
        ],
      },
      "path[1].id",
      /"a" is also path\[0\]'s id/,
    ],
  ] as [
    Record<string, unknown>,
    string,
    RegExp,
  ][])("%j is passed on with a warning at %s", async (inputs, path, reason) => {
    await expectWarned(callRouteProvider, inputs, path, reason);
  });

  test.each([
    ["a number in another format (the API decides)", { allowedCallers: [{ phoneNumber: "020 7183 8750" }] }],
    [
      "a digit outside 1-9 (the enum may grow)",
      { options: [{ digit: "0", prompt: "Operator", path: [node] }] },
    ],
    ["a language the reference does not list yet", { customLanguage: "it-IT" }],
    ["the allowlist with callers left to the dashboard", { useCallerAllowlist: true }],
    ["a path and an empty menu", { path: [node], options: [] }],
  ])("not refused (no published rule forbids it): %s", async (_what, extra) => {
    const result = await callRouteProvider.check!({}, { ...ok(), ...extra });
    expect(result.failures ?? []).toEqual([]);
  });
});

describe("provider against the emulator", () => {
  test("create takes the route over (previous kept) → read: no diff → a dashboard edit is drift → update restores → delete puts it back and warns", async () => {
    const route = await bought();
    const inputs = declared(route.id);
    const created = await callRouteProvider.create!(inputs);
    expect(created.id).toBe(route.id);
    expect(created.outs.previous).toEqual({
      name: route.name,
      customLanguage: "en-GB",
      responderCallerId: "route_number",
      useCallerAllowlist: false,
      path: [{ id: "start", level: { targets: [{ type: "user", id: "01USERBOB", urgency: "low" }] } }],
      allowedCallers: [],
      options: [],
    });
    const live = await show(route.id);
    expectShape("CallRouteV2", live);
    expect(live).toMatchObject({ name: "Payments hotline", responder_caller_id: "oncall_number" });
    const read = await callRouteProvider.read!(route.id, created.outs);
    expect(read.props).toMatchObject({ path: inputs.path, previous: created.outs.previous });
    expect((await callRouteProvider.diff!(route.id, read.props!, inputs)).changes).toBe(false);

    // The dashboard renames it and turns to voicemail only: drift, put back in place.
    await ae.ok("PUT", `${PATH}/${route.id}`, {
      ...callRoutePayload(inputs),
      name: "Renamed",
      path: [{ id: "vm", type: "voicemail", voicemail: { greeting_text: "Hello" } }],
    });
    const drifted = await callRouteProvider.read!(route.id, read.props!);
    expect(drifted.props).toMatchObject({
      name: "Renamed",
      path: [{ id: "vm", voicemail: { greetingText: "Hello" } }],
    });
    expect(drifted.props!.previous).toEqual(created.outs.previous);
    const diff = await callRouteProvider.diff!(route.id, drifted.props!, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const updated = await callRouteProvider.update!(route.id, drifted.props!, inputs);
    expect(updated.outs!.previous).toEqual(created.outs.previous);
    expect((await show(route.id)).name).toBe("Payments hotline");
    // Another route is a replacement.
    expect(
      (await callRouteProvider.diff!(route.id, read.props!, { ...inputs, callRouteId: MAIN })).replaces,
    ).toEqual(["callRouteId"]);

    const { warnings } = await warningsOf(() => callRouteProvider.delete!(route.id, updated.outs!));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(`call route ${route.id} is not deleted (the API cannot delete call routes)`);
    expect(warnings[0]).toMatch(/put back to what they were before/);
    const { updated_at: _u, ...before } = route;
    expect(await held(route.id)).toEqual(before);
    // The route stays: a read still finds it (as it was before).
    const after = await callRouteProvider.read!(route.id, updated.outs!);
    expect(after.id).toBe(route.id);
    expect(after.props).toMatchObject({ name: route.name, customLanguage: "en-GB" });
  });

  test("a declaration the route already holds: taken over with zero writes (create, and adoptId)", async () => {
    const route = await bought({ allowed_callers: [{ phone_number: "+15550000000", name: "Desk" }] });
    const inputs = declared(route.id, {
      name: route.name,
      customLanguage: "en-GB",
      responderCallerId: "route_number",
      path: [{ id: "start", level: { targets: [{ type: "user", id: "01USERBOB", urgency: "low" }] } }],
      allowedCallers: [{ phoneNumber: "+15550000000", name: "Desk" }],
    });
    for (const args of [inputs, { ...inputs, adoptId: route.id }]) {
      const mark = ae.emu.requests.length;
      const made = await callRouteProvider.create!(args);
      expect(made.id).toBe(route.id);
      expect(made.outs.previous).toMatchObject({ name: route.name });
      expect(made.outs.allowedCallerIds).toEqual({ "+15550000000": route.allowed_callers[0].id });
      expect(ae.providerCalls(mark).filter((c) => !c.startsWith("GET"))).toEqual([]);
    }
    // Adopted with other settings: written, and what it held is still kept.
    const adopted = await callRouteProvider.create!({ ...inputs, name: "Adopted", adoptId: route.id });
    expect((await show(route.id)).name).toBe("Adopted");
    expect(adopted.outs.previous).toMatchObject({ name: route.name });
  });

  test("exported with its callers and menu, then adopted: zero writes", async () => {
    const route = await boughtWithMenu();
    // What `pulumi-incident export` writes: the route as read, nothing declared (cli/export/model.ts).
    const exported = callRouteFromApi(await show(route.id), undefined);
    expect(exported).toMatchObject({
      allowedCallers: [{ phoneNumber: "+442071838750", name: "Head office" }],
      options: [{ digit: "1" }, { digit: "2" }],
    });
    const inputs = parse({ ...exported, adoptId: route.id });
    const checked = await callRouteProvider.check!({}, inputs);
    expect(checked.failures ?? []).toEqual([]);
    const mark = ae.emu.requests.length;
    const adopted = await callRouteProvider.create!(inputs);
    expect(ae.providerCalls(mark).filter((c) => !c.startsWith("GET"))).toEqual([]);
    expect((await callRouteProvider.diff!(route.id, adopted.outs, inputs)).changes).toBe(false);
    // Destroying the exported stack leaves the route as it is.
    const before = await held(route.id);
    await warningsOf(() => callRouteProvider.delete!(route.id, adopted.outs));
    expect(await held(route.id)).toEqual(before);
  });

  test("callers and a menu declared: callers added before the allowlist is turned on, the menu replaces the path; read back with no diff", async () => {
    const route = await bought();
    const inputs = declared(route.id, {
      path: undefined,
      useCallerAllowlist: true,
      allowedCallers: [
        { phoneNumber: "+15551234567", name: "Regulator duty desk" },
        { phoneNumber: "+15550000000" },
      ],
      options: [
        ...menu({ "1": "For an outage, press 1" }),
        {
          digit: "2",
          prompt: "To leave a message, press 2",
          path: [{ voicemail: { greetingText: "After the tone" } }],
        },
      ],
    });
    const mark = ae.emu.requests.length;
    const created = await callRouteProvider.create!(inputs);
    expect(ae.providerCalls(mark)).toEqual([
      `GET ${PATH}/${route.id} 200`,
      `POST ${PATH}/${route.id}/allowed_callers 201`,
      `POST ${PATH}/${route.id}/allowed_callers 201`,
      `PUT ${PATH}/${route.id} 200`,
      `POST ${PATH}/${route.id}/options 201`,
      `POST ${PATH}/${route.id}/options 201`,
      `GET ${PATH}/${route.id} 200`,
    ]);
    const live = await show(route.id);
    expect(live).toMatchObject({ use_caller_allowlist: true, path: [] });
    expect(created.outs.allowedCallerIds).toEqual(
      Object.fromEntries(live.allowed_callers.map((c: any) => [c.phone_number, c.id])),
    );
    expect(created.outs.optionIds).toEqual({ "1": live.options[0].id, "2": live.options[1].id });
    expect(created.outs.previous.path).toHaveLength(1);
    const read = await callRouteProvider.read!(route.id, created.outs);
    expect((await callRouteProvider.diff!(route.id, read.props!, inputs)).changes).toBe(false);
  });

  test("an update adds, removes and changes one of each, in place where it can (ids kept)", async () => {
    const route = await bought();
    const start = declared(route.id, {
      path: undefined,
      useCallerAllowlist: true,
      allowedCallers: [
        { phoneNumber: "+15550000001", name: "A" },
        { phoneNumber: "+15550000002", name: "B" },
      ],
      options: menu({ "1": "Press 1", "2": "Press 2" }),
    });
    const created = await callRouteProvider.create!(start);
    const ids = { callers: created.outs.allowedCallerIds, options: created.outs.optionIds };
    const next = declared(route.id, {
      path: undefined,
      useCallerAllowlist: true,
      // A renamed; B's number gone, C's new: B's caller takes C's number.
      allowedCallers: [{ phoneNumber: "+15550000001", name: "A (renamed)" }, { phoneNumber: "+15550000003" }],
      // 1's prompt changed; 2 gone, 3 new: 2's option moves to 3.
      options: menu({ "1": "Press one", "3": "Press 3" }),
    });
    const mark = ae.emu.requests.length;
    const updated = await callRouteProvider.update!(route.id, created.outs, next);
    const calls = ae.providerCalls(mark);
    expect(calls.filter((c) => /^(POST|DELETE)/.test(c))).toEqual([]);
    // Two callers and two options changed in place; the route's own settings are as they were.
    expect(calls.filter((c) => c.startsWith("PUT"))).toHaveLength(4);
    expect(updated.outs!.allowedCallerIds).toEqual({
      "+15550000001": ids.callers["+15550000001"],
      "+15550000003": ids.callers["+15550000002"],
    });
    expect(updated.outs!.optionIds).toEqual({ "1": ids.options["1"], "3": ids.options["2"] });
    expect((await callRouteProvider.diff!(route.id, updated.outs!, next)).changes).toBe(false);

    // One of each removed: the last writes are the deletes.
    const fewer = declared(route.id, {
      path: undefined,
      useCallerAllowlist: true,
      allowedCallers: [{ phoneNumber: "+15550000003" }],
      options: menu({ "3": "Press 3" }),
    });
    const mark2 = ae.emu.requests.length;
    const after = await callRouteProvider.update!(route.id, updated.outs!, fewer);
    expect(ae.providerCalls(mark2).filter((c) => !c.startsWith("GET"))).toEqual([
      `DELETE ${PATH}/${route.id}/allowed_callers/${ids.callers["+15550000001"]} 204`,
      `DELETE ${PATH}/${route.id}/options/${ids.options["1"]} 204`,
    ]);
    expect(Object.keys(after.outs!.allowedCallerIds)).toEqual(["+15550000003"]);

    // The menu given up for a path: the path's write retires it (no delete needed).
    const byPath = declared(route.id, { useCallerAllowlist: false, allowedCallers: [], options: [] });
    const mark3 = ae.emu.requests.length;
    await callRouteProvider.update!(route.id, after.outs!, byPath);
    expect(ae.providerCalls(mark3).filter((c) => !c.startsWith("GET"))).toEqual([
      `PUT ${PATH}/${route.id} 200`,
      `DELETE ${PATH}/${route.id}/allowed_callers/${ids.callers["+15550000002"]} 204`,
    ]);
    expect(await show(route.id)).toMatchObject({
      allowed_callers: [],
      options: [],
      use_caller_allowlist: false,
    });
  });

  test("a caller removed in the dashboard is drift; the update makes it again", async () => {
    const route = await bought();
    const inputs = declared(route.id, {
      allowedCallers: [{ phoneNumber: "+15550000001" }, { phoneNumber: "+15550000002", name: "B" }],
    });
    const created = await callRouteProvider.create!(inputs);
    await ae.ok(
      "DELETE",
      `${PATH}/${route.id}/allowed_callers/${created.outs.allowedCallerIds["+15550000002"]}`,
    );
    const drifted = await callRouteProvider.read!(route.id, created.outs);
    expect(drifted.props!.allowedCallers).toEqual([{ phoneNumber: "+15550000001" }]);
    const diff = await callRouteProvider.diff!(route.id, drifted.props!, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const updated = await callRouteProvider.update!(route.id, drifted.props!, inputs);
    expect((await show(route.id)).allowed_callers.map((c: any) => c.phone_number)).toEqual([
      "+15550000001",
      "+15550000002",
    ]);
    expect((await callRouteProvider.diff!(route.id, updated.outs!, inputs)).changes).toBe(false);
  });

  test("delete puts back what the route held: its menu (made again), its callers and the allowlist", async () => {
    const route = await boughtWithMenu();
    // The stack routes it by a path (retiring the menu) and replaces its caller.
    const inputs = declared(route.id, {
      useCallerAllowlist: true,
      allowedCallers: [{ phoneNumber: "+15559999999", name: "Stack's desk" }],
    });
    const created = await callRouteProvider.create!(inputs);
    expect(await show(route.id)).toMatchObject({
      options: [],
      allowed_callers: [{ phone_number: "+15559999999", name: "Stack's desk" }],
    });
    expect(created.outs.previous.options).toHaveLength(2);
    const { warnings } = await warningsOf(() => callRouteProvider.delete!(route.id, created.outs));
    expect(warnings[0]).toMatch(/put back to what they were before/);
    expect(warnings[0]).not.toMatch(/menu/);
    const { updated_at: _u, ...before } = route;
    // Everything as it was; the options and the caller made again carry new ids.
    expect(withoutIds(await held(route.id))).toEqual(withoutIds(before));
  });

  test("a route with a menu: left out, kept; a declared path retires it and the delete brings it back", async () => {
    const route = await boughtWithMenu();
    const keep = declared(route.id, { path: undefined, useCallerAllowlist: true });
    const kept = await callRouteProvider.create!(keep);
    expect((await show(route.id)).options).toHaveLength(2);
    await warningsOf(() => callRouteProvider.delete!(route.id, kept.outs));

    const made = await callRouteProvider.create!(declared(route.id, { useCallerAllowlist: true }));
    expect((await show(route.id)).options).toEqual([]);
    await warningsOf(() => callRouteProvider.delete!(route.id, made.outs));
    const { updated_at: _u, ...before } = route;
    expect(withoutIds(await held(route.id))).toEqual(withoutIds(before));

    // A state recorded before menus were managed (no `previous.options`) cannot bring it back: said so.
    const again = await callRouteProvider.create!(declared(route.id, { useCallerAllowlist: true }));
    const { options: _o, allowedCallers: _c, ...oldPrevious } = again.outs.previous;
    const { warnings } = await warningsOf(() =>
      callRouteProvider.delete!(route.id, { ...again.outs, previous: oldPrevious }),
    );
    expect(warnings[0]).toMatch(/phone-tree menu, retired when the stack wrote its path, was not recorded/);
  });

  test("a caller or option create whose answer is lost is found on the route, not made twice", async () => {
    const route = await bought();
    const created = await callRouteProvider.create!(declared(route.id, { path: undefined }));
    const inputs = declared(route.id, {
      path: undefined,
      allowedCallers: [{ phoneNumber: "+15550000001" }],
      options: menu(),
    });
    for (const part of ["allowed_callers", "options"])
      ae.emu.faults.add({ method: "POST", path: `^${PATH}/[^/]+/${part}$`, kind: "reset-after", count: 1 });
    const updated = await callRouteProvider.update!(route.id, created.outs, inputs);
    expect(ae.emu.faults.list().map((r: any) => r.fired)).toEqual([1, 1]);
    ae.emu.faults.clear();
    const live = await show(route.id);
    expect(live.allowed_callers).toHaveLength(1);
    expect(live.options).toHaveLength(1);
    expect((await callRouteProvider.diff!(route.id, updated.outs!, inputs)).changes).toBe(false);
  });

  test("the API's refusals name the input path: a caller's number, an option's target, the last option", async () => {
    const route = await bought();
    const number = await callRouteProvider.create!(
      declared(route.id, { allowedCallers: [{ phoneNumber: "+15550000001" }, { phoneNumber: "12345" }] }),
    ).catch((e) => e);
    expect(number.message).toMatch(
      /allowedCallers\[1\]\.phoneNumber: must be a number in international format/,
    );
    // The first caller was made before the refusal: the route is recorded (half-created), what it held kept.
    expect(number.id).toBe(route.id);
    expect(number.properties.previous).toMatchObject({ name: route.name, allowedCallers: [] });
    await warningsOf(() => callRouteProvider.delete!(route.id, number.properties));
    expect((await show(route.id)).allowed_callers).toEqual([]);

    const target = await callRouteProvider.create!(
      declared(route.id, {
        path: undefined,
        options: [
          { digit: "1", prompt: "Press 1", path: [{ level: { targets: [{ ...ada, id: "01NOBODY" }] } }] },
        ],
      }),
    ).catch((e) => e);
    expect(target.message).toMatch(
      /options\[0\]\.path\[0\]\.level\.targets\[0\]\.id: no user with id 01NOBODY/,
    );

    const menuRoute = await boughtWithMenu();
    const kept = await callRouteProvider.create!(
      declared(menuRoute.id, { path: undefined, useCallerAllowlist: true }),
    );
    const last = await callRouteProvider.update!(
      menuRoute.id,
      kept.outs,
      declared(menuRoute.id, { path: undefined, useCallerAllowlist: true, options: [] }),
    ).catch((e) => e);
    expect(last.message).toMatch(/options: a route has to route calls somewhere/);
    expect(last.message).toMatch(/declare a path/);
    expect((await show(menuRoute.id)).options).toHaveLength(1);
    await warningsOf(() => callRouteProvider.delete!(menuRoute.id, kept.outs));
    expect((await show(menuRoute.id)).options).toHaveLength(2);
  });

  test("useCallerAllowlist with no allowed caller: the API's refusal names the input; nothing is written", async () => {
    const route = await bought();
    const mark = ae.emu.requests.length;
    const error = await callRouteProvider.create!(declared(route.id, { useCallerAllowlist: true })).catch(
      (e) => e,
    );
    expect(error.message).toMatch(/useCallerAllowlist/);
    expect(error.message).toMatch(/needs at least one allowed caller/);
    expect(error.message).toMatch(/declare the route's allowedCallers/);
    expect(error.id).toBeUndefined();
    expect(ae.providerCalls(mark)).toEqual([`GET ${PATH}/${route.id} 200`, `PUT ${PATH}/${route.id} 422`]);
    expect(await show(route.id)).toEqual(route);
    // An unknown language (the reference's enum) and a target the account lacks name theirs.
    const language = await callRouteProvider.create!(declared(route.id, { customLanguage: "english" })).catch(
      (e) => e,
    );
    expect(language.message).toMatch(/customLanguage: must be one of en-US/);
    expect(ae.requestProblems).toEqual([expect.stringMatching(/custom_language: must be one of/)]);
    ae.requestProblems.length = 0; // …a value the reference does not list is the API's to refuse
    const target = await callRouteProvider.create!(
      declared(route.id, { path: [{ level: { targets: [{ ...ada, id: "01NOBODY" }] } }] }),
    ).catch((e) => e);
    expect(target.message).toMatch(/path\[0\]\.level\.targets\[0\]\.id/);
    expect(await show(route.id)).toEqual(route);
  });

  test("a route id the account lacks: the error says routes cannot be created, only taken over", async () => {
    const error = await callRouteProvider.create!(declared("01NOROUTE")).catch((e) => e);
    expect(error.message).toMatch(/404/);
    expect(error.message).toMatch(/cannot be created through the API, only taken over/);
  });

  test("the seeded routes, listed for export; the sub-resources' own endpoints; the control route refuses a route without a name", async () => {
    // Exported (the list walked whole), adopted by id.
    expect(callRouteSpec.notExported).toBeUndefined();
    expect(callRouteSpec.list).toMatchObject({ path: PATH, itemsKey: "call_routes" });
    const all = (await ae.ok("GET", `${PATH}?page_size=100`)).call_routes;
    expect(all.map((r: any) => r.id)).toEqual(expect.arrayContaining([MAIN, MENU]));
    for (const r of all) expectShape("CallRouteV2", r);
    const seeded = all.find((r: any) => r.id === MENU);
    expect(seeded).toMatchObject({ path: [], use_caller_allowlist: true });
    // The lists and shows answer what the route answers inline.
    const { allowed_callers } = await ae.ok("GET", `${PATH}/${MENU}/allowed_callers`);
    expect(allowed_callers).toEqual(seeded.allowed_callers);
    const { options } = await ae.ok("GET", `${PATH}/${MENU}/options`);
    expect(options).toEqual(seeded.options);
    expect((await ae.ok("GET", `${PATH}/${MENU}/options/${options[1].id}`)).option).toEqual(options[1]);
    const caller = (await ae.ok("GET", `${PATH}/${MENU}/allowed_callers/${allowed_callers[0].id}`))
      .allowed_caller;
    expect(caller).toEqual({ id: allowed_callers[0].id, phone_number: "+442071838750", name: "Head office" });
    expect((await ae.api("GET", `${PATH}/${MENU}/options/01NOSUCH`)).status).toBe(404);
    // A digit the menu already uses, and the last caller while the allowlist is on.
    const taken = await ae.api("PUT", `${PATH}/${MENU}/options/${options[1].id}`, {
      ...options[1],
      id: undefined,
      digit: "1",
    });
    expect(taken.status).toBe(422);
    expect(JSON.stringify(taken.body)).toMatch(/"field":"digit"/);
    const lastCaller = await ae.api("DELETE", `${PATH}/${MENU}/allowed_callers/${allowed_callers[0].id}`);
    expect(lastCaller.status).toBe(422);
    expect(JSON.stringify(lastCaller.body)).toMatch(/turn use_caller_allowlist off/);
    const refused = await ae.emu.call("POST", "/_emulator/call_routes", {
      body: { custom_language: "en-US" },
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toMatch(/"field":"name"/);
  });
});
