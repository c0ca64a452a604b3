import {
  type PayConfigInputs,
  payConfigFromApi,
  payConfigInputs,
  payConfigPayload,
  payConfigProvider,
  payConfigSpec,
} from "../../resources/payConfig";
import { expectCheckFailure } from "../fixtures/settings/emulator";
import { useAlertEmulator } from "../support/alertEmulator";
import { expectWarned } from "../support/checkWarnings";
import { expectShape } from "../support/emulator";

const parse = (raw: Record<string, unknown>): PayConfigInputs => payConfigInputs.parse(raw);
const canonical = payConfigProvider.spec.canonical!;
const ae = useAlertEmulator({
  strictPaths: /^\/v2\/pay_configs(\/|$)/,
  dashboardRoles: ["global_access"],
});
const show = async (id: string) => (await ae.ok("GET", `/v2/pay_configs/${id}`)).pay_config;

const weekend = { weekdays: ["sunday", "saturday"], startTime: "00:00", endTime: "23:59", rateCents: 1000 };
const evenings = {
  weekdays: ["monday", "tuesday", "wednesday", "thursday", "friday"],
  startTime: "18:00",
  endTime: "23:59",
  rateCents: 750,
};
const christmas = {
  name: "Christmas Day",
  startAt: "2026-12-25T00:00:00+01:00",
  endAt: "2026-12-26T00:00:00+01:00",
  rateCents: 2000,
};
const newYear = {
  name: "New Year",
  startAt: "2026-12-31T18:00:00Z",
  endAt: "2027-01-01T12:00:00Z",
  rateCents: 1500,
};
let names = 0;
const config = (extra: Record<string, unknown> = {}) =>
  parse({
    name: `UK on-call ${++names}`,
    currency: "GBP",
    baseRateCents: 500,
    rateTimeUnit: "hour",
    timezone: "Europe/London",
    weeklyRules: [weekend, evenings],
    oneOffRules: [newYear, christmas],
    ...extra,
  });

describe("mapping", () => {
  test("the payload has the create payload's shape: snake_case, rules inline without ids, in the declared order", () => {
    const payload = payConfigPayload(config({ name: "P" }));
    expectShape("PayConfigsCreatePayloadV2", payload);
    expect(payload).toEqual({
      name: "P",
      currency: "GBP",
      base_rate_cents: 500,
      rate_time_unit: "hour",
      timezone: "Europe/London",
      one_off_rules: [
        {
          name: "New Year",
          start_at: "2026-12-31T18:00:00Z",
          end_at: "2027-01-01T12:00:00Z",
          rate_cents: 1500,
        },
        {
          name: "Christmas Day",
          start_at: "2026-12-25T00:00:00+01:00",
          end_at: "2026-12-26T00:00:00+01:00",
          rate_cents: 2000,
        },
      ],
      weekly_rules: [
        { weekdays: ["sunday", "saturday"], start_time: "00:00", end_time: "23:59", rate_cents: 1000 },
        {
          weekdays: ["monday", "tuesday", "wednesday", "thursday", "friday"],
          start_time: "18:00",
          end_time: "23:59",
          rate_cents: 750,
        },
      ],
    });
    // No rules declared: empty lists are sent (an update removes them all).
    expect(payConfigPayload(config({ weeklyRules: undefined, oneOffRules: undefined }))).toMatchObject({
      one_off_rules: [],
      weekly_rules: [],
    });
  });
});

describe("normalisation vectors", () => {
  const live = (extra: Record<string, unknown> = {}): any => ({
    id: "01PAY",
    name: "P",
    currency: "GBP",
    base_rate_cents: 500,
    rate_time_unit: "hour",
    timezone: "Europe/London",
    one_off_rules: [],
    weekly_rules: [],
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    ...extra,
  });
  const declared = (extra: Record<string, unknown> = {}) =>
    parse({
      name: "P",
      currency: "GBP",
      baseRateCents: 500,
      rateTimeUnit: "hour",
      timezone: "Europe/London",
      ...extra,
    });
  const rule = (r: typeof christmas, id: string, startAt = r.startAt, endAt = r.endAt) => ({
    id,
    name: r.name,
    start_at: startAt,
    end_at: endAt,
    rate_cents: r.rateCents,
  });
  const weekly = (r: typeof evenings, id: string, weekdays = r.weekdays) => ({
    id,
    weekdays,
    start_time: r.startTime,
    end_time: r.endTime,
    rate_cents: r.rateCents,
  });

  test.each([
    [
      "one-off rules in start order, in UTC, with ids: the declared list",
      declared({ oneOffRules: [newYear, christmas] }),
      live({
        one_off_rules: [
          rule(christmas, "r1", "2026-12-24T23:00:00Z", "2026-12-25T23:00:00Z"),
          rule(newYear, "r2"),
        ],
      }),
    ],
    [
      "weekdays in week order, with ids",
      declared({ weeklyRules: [weekend, evenings] }),
      live({ weekly_rules: [weekly(weekend, "w1", ["saturday", "sunday"]), weekly(evenings, "w2")] }),
    ],
  ])("%s", (_rule, d, answered) => {
    const back = payConfigFromApi(answered, d);
    expect(back).toEqual({ ...d, adoptId: undefined });
    expect(JSON.stringify(canonical(back))).toBe(JSON.stringify(canonical(d)));
  });

  test.each([
    [
      "weekly rules in another order (the evaluation order)",
      declared({ weeklyRules: [weekend, evenings] }),
      live({ weekly_rules: [weekly(evenings, "w2"), weekly(weekend, "w1")] }),
    ],
    [
      "a one-off rule moved by an hour",
      declared({ oneOffRules: [christmas] }),
      live({ one_off_rules: [rule(christmas, "r1", "2026-12-25T00:00:00Z", "2026-12-25T23:00:00Z")] }),
    ],
    [
      "a weekday dropped",
      declared({ weeklyRules: [weekend] }),
      live({ weekly_rules: [weekly(weekend, "w1", ["sunday"])] }),
    ],
    ["another base rate", declared(), live({ base_rate_cents: 501 })],
    ["a rule added in the dashboard", declared(), live({ one_off_rules: [rule(newYear, "r9")] })],
  ])("a real change shows: %s", (_what, d, answered) => {
    const back = payConfigFromApi(answered, d);
    expect(JSON.stringify(canonical(back))).not.toBe(JSON.stringify(canonical(d)));
  });

  test("a partly changed one-off list keeps the declared spelling of the rules that did not change", () => {
    const d = declared({ oneOffRules: [christmas, newYear] });
    const back = payConfigFromApi(
      live({
        one_off_rules: [
          rule(christmas, "r1", "2026-12-24T23:00:00Z", "2026-12-25T23:00:00Z"),
          rule({ ...newYear, rateCents: 1 }, "r2"),
        ],
      }),
      d,
    );
    expect(back.oneOffRules).toEqual([christmas, { ...newYear, rateCents: 1 }]);
  });
});

describe("check (zero API calls)", () => {
  const ok = () => ({ name: "P", currency: "GBP", baseRateCents: 0, rateTimeUnit: "hour", timezone: "UTC" });
  test.each([
    [{ ...ok(), currency: "gbp" }, "currency", /ISO 4217 currency code in capitals/],
    [{ ...ok(), currency: "GBPX" }, "currency", /ISO 4217/],
    [{ ...ok(), baseRateCents: 4.5 }, "baseRateCents", /whole number/],
    [{ ...ok(), timezone: "Europe/Londres" }, "timezone", /IANA time zone/],
    [
      { ...ok(), oneOffRules: [{ ...christmas, startAt: "2026-12-25" }] },
      "oneOffRules",
      /\[0\]\.startAt.*RFC 3339/,
    ],
    [{ ...ok(), oneOffRules: [{ ...christmas, id: "r1" }] }, "oneOffRules", /id/],
    [{ ...ok(), weeklyRules: [{ ...evenings, startTime: "6pm" }] }, "weeklyRules", /\[0\]\.startTime.*HH:MM/],
    [{ ...ok(), weeklyRules: [{ ...evenings, endTime: "24:00" }] }, "weeklyRules", /\[0\]\.endTime.*HH:MM/],
  ])("%j fails at %s", async (inputs, property, reason) => {
    await expectCheckFailure(ae, payConfigProvider.check!, inputs, property, reason);
  });

  // No published rule forbids these: passed on with a warning naming the input path (issue 28).
  test.each([
    [{ ...ok(), name: "" }, "name", /is empty/],
    [{ ...ok(), currency: "XYZ" }, "currency", /not an ISO 4217 code this runtime knows/],
    [{ ...ok(), baseRateCents: -1 }, "baseRateCents", /is negative/],
    [{ ...ok(), rateTimeUnit: "hours" }, "rateTimeUnit", /did you mean "hour"/],
    [
      { ...ok(), oneOffRules: [{ ...christmas, endAt: christmas.startAt }] },
      "oneOffRules[0].endAt",
      /is not after startAt/,
    ],
    [{ ...ok(), oneOffRules: [{ ...christmas, rateCents: -5 }] }, "oneOffRules[0].rateCents", /negative/],
    [
      { ...ok(), weeklyRules: [{ ...evenings, weekdays: ["Monday"] }] },
      "weeklyRules[0].weekdays[0]",
      /did you mean "monday"/,
    ],
    [
      { ...ok(), weeklyRules: [{ ...evenings, weekdays: [] }] },
      "weeklyRules[0].weekdays",
      /names no weekday/,
    ],
  ])("%j is passed on with a warning at %s", async (inputs, path, reason) => {
    const mark = ae.emu.requests.length;
    await expectWarned(payConfigProvider, inputs, path, reason);
    expect(ae.emu.requests.length).toBe(mark);
  });

  test('a weekday named twice passes and is sent once (rule "set with repeats"), with no diff', () => {
    const twice = config({ weeklyRules: [{ ...evenings, weekdays: ["monday", "friday", "monday"] }] });
    expect((payConfigPayload(twice).weekly_rules as any[])[0].weekdays).toEqual(["monday", "friday"]);
    const live = { weekdays: ["monday", "friday"], start_time: "18:00", end_time: "23:59", rate_cents: 750 };
    const back = payConfigFromApi(
      {
        ...(payConfigPayload(twice) as any),
        id: "p",
        weekly_rules: [{ ...live, id: "w" }],
        one_off_rules: [],
      },
      twice,
    );
    expect(back.weeklyRules[0]!.weekdays).toEqual(["monday", "friday", "monday"]);
    expect(canonical(back)).toEqual(canonical({ ...twice, oneOffRules: [] }));
  });
});

describe("provider against the emulator", () => {
  test("create → read: no diff → a dashboard edit is drift → update restores → delete", async () => {
    const inputs = config();
    const created = await payConfigProvider.create!(inputs);
    const live = await show(created.id);
    expectShape("PayConfigV2", live);
    // The API's form: one-off rules by start, in UTC; weekdays in week order; ids assigned.
    expect(live.one_off_rules.map((r: any) => [r.name, r.start_at])).toEqual([
      ["Christmas Day", "2026-12-24T23:00:00Z"],
      ["New Year", "2026-12-31T18:00:00Z"],
    ]);
    expect(live.weekly_rules[0]).toMatchObject({ weekdays: ["saturday", "sunday"], id: expect.any(String) });
    const read = await payConfigProvider.read!(created.id, created.outs);
    expect(read.props).toMatchObject({ oneOffRules: inputs.oneOffRules, weeklyRules: inputs.weeklyRules });
    expect((await payConfigProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);

    // The dashboard swaps the weekly rules (their evaluation order) and drops a one-off rule: drift.
    await ae.ok("PUT", `/v2/pay_configs/${created.id}`, {
      ...payConfigPayload(inputs),
      weekly_rules: [...payConfigPayload(inputs).weekly_rules].reverse(),
      one_off_rules: payConfigPayload(inputs).one_off_rules.slice(0, 1),
    });
    const drifted = await payConfigProvider.read!(created.id, read.props!);
    expect(drifted.props!.weeklyRules.map((r: any) => r.rateCents)).toEqual([750, 1000]);
    expect(drifted.props!.oneOffRules).toEqual([newYear]);
    expect((await payConfigProvider.diff!(created.id, drifted.props!, inputs)).changes).toBe(true);
    await payConfigProvider.update!(created.id, drifted.props!, inputs);
    const restored = await show(created.id);
    expect(restored.weekly_rules.map((r: any) => r.rate_cents)).toEqual([1000, 750]);
    expect(restored.one_off_rules).toHaveLength(2);

    // An update declaring no rules removes them all (both lists are sent, empty).
    await payConfigProvider.update!(created.id, drifted.props!, {
      ...inputs,
      weeklyRules: [],
      oneOffRules: [],
    });
    expect(await show(created.id)).toMatchObject({ weekly_rules: [], one_off_rules: [] });

    await payConfigProvider.delete!(created.id, drifted.props!);
    expect((await payConfigProvider.read!(created.id, drifted.props!)).id).toBe("");
  });

  test("past check, the API's 422 names the input path (nested rules)", async () => {
    const before = (await ae.ok("GET", "/v2/pay_configs")).pay_configs.length;
    const error = await payConfigProvider.create!(
      config({ weeklyRules: [weekend, { ...evenings, weekdays: ["Monday"] }] }),
    ).catch((e) => e);
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/weeklyRules\[1\]\.weekdays\[0\]: must be one of monday/);
    const currency = await payConfigProvider.create!({ ...config(), currency: "ABC" }).catch((e) => e);
    expect(currency.message).toMatch(/currency: must be an ISO 4217 currency code/);
    // Outside the known values, check only warns; the service's answer is the error.
    const unit = await payConfigProvider.create!({ ...config(), rateTimeUnit: "week" }).catch((e) => e);
    expect(unit.status).toBe(422);
    expect(unit.message).toMatch(/rateTimeUnit: must be one of hour, day/);
    expect((await ae.ok("GET", "/v2/pay_configs")).pay_configs.length).toBe(before);
  });

  test("adoption by id: an equal declaration makes no write; export lists every configuration", async () => {
    const declared = config({ name: "By hand" });
    const existing = (await ae.ok("POST", "/v2/pay_configs", payConfigPayload(declared))).pay_config;
    const mark = ae.emu.requests.length;
    const adopted = await payConfigProvider.create!({ ...declared, adoptId: existing.id });
    expect(adopted.id).toBe(existing.id);
    expect(ae.providerCalls(mark).filter((c) => !c.startsWith("GET"))).toEqual([]);
    const all = await ae.dashboard.listAll<any>("/v2/pay_configs", "pay_configs", "list", {}, 1);
    expect(all.map((p) => p.id)).toContain(existing.id);
    expect((await payConfigSpec.api.findCreated!({ client: ae.dashboard }, declared))?.id).toBe(existing.id);
  });

  test("the settings roles do not reach pay configurations (their own roles do; global_access here)", async () => {
    const viewer = await ae.emu.createApiKey("viewer only", ["viewer"]);
    expect((await ae.emu.call("GET", "/v2/pay_configs", { token: viewer })).status).toBe(403);
    const settings = await ae.emu.createApiKey("settings", ["manage_settings"]);
    const body = payConfigPayload(config());
    expect((await ae.emu.call("POST", "/v2/pay_configs", { token: settings, body })).status).toBe(403);
    expect((await ae.emu.call("GET", "/v2/pay_configs", { token: ae.dashboardKey })).status).toBe(200);
  });
});

describe("never stricter than the service (issue 28)", () => {
  // The Terraform provider's pay_config documentation (docs/resources/pay_config.md): "equal to
  // start_time means the whole day"; an end before the start "runs past midnight into the next morning".
  const wholeDay = {
    weekdays: ["saturday", "sunday"],
    startTime: "00:00",
    endTime: "00:00",
    rateCents: 1500,
  };
  const overnight = {
    weekdays: ["monday", "tuesday", "wednesday", "thursday", "friday"],
    startTime: "18:00",
    endTime: "09:00",
    rateCents: 1000,
  };

  test("a whole-day rule (equal times) and one past midnight (end before start) pass check", async () => {
    const inputs = { ...config(), weeklyRules: [wholeDay, overnight] };
    const checked = await payConfigProvider.check!({}, { ...inputs, __provider: "shim" });
    expect(checked.failures ?? []).toEqual([]);
  });

  test("the emulator takes them as the API does; stored and read back with no diff", async () => {
    const inputs = config({ weeklyRules: [wholeDay, overnight] });
    const created = await payConfigProvider.create!(inputs);
    expect((await show(created.id)).weekly_rules.map((r: any) => [r.start_time, r.end_time])).toEqual([
      ["00:00", "00:00"],
      ["18:00", "09:00"],
    ]);
    const read = await payConfigProvider.read!(created.id, created.outs);
    expect(read.props!.weeklyRules).toEqual(inputs.weeklyRules);
    expect((await payConfigProvider.diff!(created.id, read.props!, inputs)).changes).toBe(false);
    const updated = { ...inputs, weeklyRules: [overnight, wholeDay] };
    await payConfigProvider.update!(created.id, read.props!, updated);
    expect((await show(created.id)).weekly_rules.map((r: any) => r.end_time)).toEqual(["09:00", "00:00"]);
    await payConfigProvider.delete!(created.id, read.props!);
  });
});
