/**
 * PayConfig: how on-call time is paid, a base rate and the rules that override it
 * (`GET/POST /v2/pay_configs`, `GET/PUT/DELETE /v2/pay_configs/{id}`; flat bodies). API v2 is the only
 * version. The shape is partial (shared/api/NEWER.md "pay_configs": the create payload): what it
 * gives is managed.
 *
 * The rules are declared inline (`oneOffRules`, `weeklyRules`) and sent whole in the configuration's
 * payload on every create and update. The API's separate rule endpoints
 * (`/v2/pay_configs/{pay_config_id}/one_off_rules`, `…/weekly_rules`) are not used: their payloads
 * are not published, and one payload keeps the configuration and its rules in step. Rule ids are the
 * API's (server-assigned, not inputs): rules are compared without them.
 *
 * Not read (the emulator's model, emulator/families/payConfigs.ts): the response wrappers, taken as
 * every v2 collection of the API answers (`{pay_config}`, `{pay_configs, pagination_meta}`), and the
 * update payload, taken to be the create payload. Names are not documented as unique.
 *
 * What the service decides, and what is checked here (the Terraform provider's pay_config
 * documentation, docs/resources/pay_config.md, states the published rules): `currency` is an ISO
 * 4217 code (three capitals; one this runtime does not know is warned about), `timezone` an IANA
 * time zone, rates whole numbers of the lowest denomination (cents, pence), a weekly rule's times
 * `HH:MM` (24-hour). A weekly rule whose `endTime` equals its `startTime` covers the whole day, and
 * one whose `endTime` is before its `startTime` runs past midnight into the next morning (both as
 * the service means them: the check refuses neither). `rateTimeUnit` is `hour` or `day` and
 * `weekdays` are `monday` … `sunday`: another value is warned about (the nearest known one named)
 * and sent, for the API to decide. Not published, so only warned about: a negative rate, a one-off
 * rule that does not end after it starts, a weekly rule with no weekday.
 *
 * Normalisation: weekly rules are evaluated in order ("in the order they should be evaluated"), so
 * their order matters; a weekly rule's `weekdays` are a set (the API answers them in week order; a
 * day named twice is sent once: rule "set with repeats").
 * One-off rules are a set (the API answers them by start), their timestamps by instant (the API
 * answers UTC, to the second; your text is kept when it is the same instant).
 */
import { z } from "zod";
import { knownValues, passedOn, warnUnless } from "../provider/checkWarnings";
import type { ApiClient } from "../provider/client";
import { makeProvider } from "../provider/factory";
import { clockTime, nameText, timestamp } from "../provider/inputs";
import { canonicalJson, dedupe, instantText, keepDeclaredSet } from "../provider/normalise";
import { newestMatching, restApi } from "../provider/restApi";
import type { Problem, Props, ResourceSpec } from "../provider/spec";
import { timeZone } from "./shared/timeZone";
import { WEEKDAYS, weekday } from "./shared/weekday";

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));
const WEEK: readonly string[] = WEEKDAYS;

// reference-newer: base_rate_cents (int, "lowest denomination"); a negative rate is our model.
const cents = z
  .number()
  .int("must be a whole number of the lowest denomination")
  .superRefine(warnUnless((v: number) => v >= 0, "is negative"));

/** A rate that applies between two instants (a public holiday, a launch weekend). */
export const payConfigOneOffRule = z.strictObject({
  /** Name of the rule, e.g. `Christmas Day`. */
  name: nameText(),
  /** When the rule starts: an RFC 3339 timestamp, e.g. `2026-12-25T00:00:00Z`. */
  startAt: timestamp(),
  /** When the rule ends: an RFC 3339 timestamp, after `startAt`. */
  endAt: timestamp(),
  /** Rate paid while the rule applies, in the currency's lowest denomination (cents, pence) per `rateTimeUnit`. */
  rateCents: cents,
});

/** A rate that applies on some days of every week, between two times of day (in the configuration's time zone). */
export const payConfigWeeklyRule = z.strictObject({
  /** Days the rule applies on, `monday` … `sunday`. Order and repeats do not matter. */
  weekdays: z.array(weekday).superRefine(warnUnless((v: unknown[]) => v.length > 0, "names no weekday")),
  /** Time of day the rule starts, `HH:MM` (24-hour). */
  startTime: clockTime(),
  /**
   * Time of day the rule ends, `HH:MM` (24-hour). Equal to `startTime`: the rule covers the whole
   * day; before `startTime`: it runs past midnight into the next morning (the service's meaning).
   */
  endTime: clockTime(),
  /** Rate paid while the rule applies, in the currency's lowest denomination (cents, pence) per `rateTimeUnit`. */
  rateCents: cents,
});

/** Inputs of a pay configuration (API v2). */
export const payConfigInputs = z.strictObject({
  /** Name of the pay configuration. */
  name: nameText(),
  /** ISO 4217 currency code, in capitals, e.g. `GBP`, `USD`, `EUR`. */
  // reference-newer: currency (ISO 4217); TF pay_config docs ("in ISO 4217 format, such as GBP")
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "must be an ISO 4217 currency code in capitals, such as GBP, USD or EUR")
    .superRefine(
      warnUnless(
        (c: string) => !/^[A-Z]{3}$/.test(c) || CURRENCIES.has(c),
        "is not an ISO 4217 code this runtime knows",
      ),
    ),
  /** Rate paid for any time no rule covers, in the currency's lowest denomination (cents, pence) per `rateTimeUnit`. */
  baseRateCents: cents,
  /** The unit of time every rate is paid per: `hour` or `day` (pay is pro-rated by the second either way). */
  // TF pay_config docs: rate_time_unit "Possible values are: hour, day"
  rateTimeUnit: knownValues(["hour", "day"]),
  /** IANA time zone the rules are interpreted in, e.g. `Europe/London`. */
  timezone: timeZone(),
  /** Rates between two instants. Order does not matter. Empty or unset: none. */
  oneOffRules: z.array(payConfigOneOffRule).default([]),
  /** Rates on days of the week, in the order the API evaluates them (order matters). Empty or unset: none. */
  weeklyRules: z.array(payConfigWeeklyRule).default([]),
  /** Id of an existing pay configuration to take over instead of creating one (`GET /v2/pay_configs`). */
  adoptId: z.string().min(1).optional(),
});

export type PayConfigInputs = z.infer<typeof payConfigInputs>;
type OneOffRule = PayConfigInputs["oneOffRules"][number];
type WeeklyRule = PayConfigInputs["weeklyRules"][number];

interface ApiOneOffRule {
  id: string;
  name: string;
  start_at: string;
  end_at: string;
  rate_cents: number;
}
interface ApiWeeklyRule {
  id: string;
  weekdays: string[];
  start_time: string;
  end_time: string;
  rate_cents: number;
}

/** PayConfigV2 (the emulator's model: the create payload's fields, rules with ids, timestamps). */
export interface ApiPayConfig {
  id: string;
  name: string;
  currency: string;
  base_rate_cents: number;
  rate_time_unit: string;
  timezone: string;
  one_off_rules: ApiOneOffRule[];
  weekly_rules: ApiWeeklyRule[];
  created_at: string;
  updated_at: string;
}

/** PayConfigsCreatePayloadV2 (also the update): the rules always, whole, without ids. */
export function payConfigPayload(args: PayConfigInputs): Props {
  return {
    name: args.name,
    currency: args.currency,
    base_rate_cents: args.baseRateCents,
    rate_time_unit: args.rateTimeUnit,
    timezone: args.timezone,
    one_off_rules: (args.oneOffRules ?? []).map((r) => ({
      name: r.name,
      start_at: r.startAt,
      end_at: r.endAt,
      rate_cents: r.rateCents,
    })),
    weekly_rules: (args.weeklyRules ?? []).map((r) => ({
      // Rule "set with repeats": a day named twice is sent once.
      weekdays: dedupe(r.weekdays),
      start_time: r.startTime,
      end_time: r.endTime,
      rate_cents: r.rateCents,
    })),
  };
}

/** A one-off rule by meaning: timestamps as instants. */
const canonicalOneOff = (r: OneOffRule) => ({
  name: r.name,
  startAt: instantText(r.startAt),
  endAt: instantText(r.endAt),
  rateCents: r.rateCents,
});
/** Rule "one-off rules are a set": by meaning, in start order. */
const canonicalOneOffRules = (rules: readonly OneOffRule[] | undefined) =>
  (rules ?? []).map(canonicalOneOff).sort((a, b) => canonicalJson(a).localeCompare(canonicalJson(b)));
/** A weekly rule by meaning: weekdays a set (in week order, once each; another spelling after them). */
const canonicalWeekly = (r: WeeklyRule) => ({
  ...r,
  weekdays: [
    ...WEEK.filter((d) => r.weekdays.includes(d)),
    ...(dedupe(r.weekdays.filter((d) => !WEEK.includes(d))) ?? []),
  ],
});

function oneOffFromApi(live: ApiOneOffRule[], declared: readonly OneOffRule[] | undefined): OneOffRule[] {
  const rules = live.map((r) => ({
    name: r.name,
    startAt: r.start_at,
    endAt: r.end_at,
    rateCents: r.rate_cents,
  }));
  if (declared === undefined) return rules;
  if (canonicalJson(canonicalOneOffRules(rules)) === canonicalJson(canonicalOneOffRules(declared)))
    return [...declared];
  // Otherwise each live rule in the declared spelling of a declared rule that means the same.
  const declaredByMeaning = new Map(declared.map((d) => [canonicalJson(canonicalOneOff(d)), d]));
  return rules.map((l) => declaredByMeaning.get(canonicalJson(canonicalOneOff(l))) ?? l);
}

function weeklyFromApi(live: ApiWeeklyRule[], declared: readonly WeeklyRule[] | undefined): WeeklyRule[] {
  return live.map((r, i) => ({
    weekdays: keepDeclaredSet(r.weekdays as WeeklyRule["weekdays"], declared?.[i]?.weekdays) ?? [],
    startTime: r.start_time,
    endTime: r.end_time,
    rateCents: r.rate_cents,
  }));
}

export function payConfigFromApi(live: ApiPayConfig, declared: PayConfigInputs | undefined): PayConfigInputs {
  return {
    name: live.name,
    currency: live.currency,
    baseRateCents: live.base_rate_cents,
    rateTimeUnit: live.rate_time_unit,
    timezone: live.timezone,
    oneOffRules: oneOffFromApi(live.one_off_rules ?? [], declared?.oneOffRules),
    weeklyRules: weeklyFromApi(live.weekly_rules ?? [], declared?.weeklyRules),
  };
}

/** Canonical form for diffs: one-off rules a set by instant, weekly rules in order with weekdays a set. */
function canonicalPayConfig(args: PayConfigInputs): Props {
  return {
    ...args,
    oneOffRules: canonicalOneOffRules(args.oneOffRules),
    weeklyRules: (args.weeklyRules ?? []).map(canonicalWeekly),
  };
}

/**
 * A one-off rule that does not end after it starts is warned about (no published rule). A weekly
 * rule's times are not compared: equal times mean the whole day and an end before the start runs
 * past midnight (the Terraform provider's pay_config docs: end_time "Equal to start_time means it
 * runs for the whole day"; its example: an end before the start "runs past midnight into the next
 * morning").
 */
export function validatePayConfig(args: PayConfigInputs): Problem[] {
  const problems: Problem[] = [];
  (args.oneOffRules ?? []).forEach((r, i) => {
    if (Date.parse(r.endAt) <= Date.parse(r.startAt))
      problems.push({
        path: ["oneOffRules", i, "endAt"],
        message: passedOn(`is not after startAt (${r.startAt})`),
        dependsOn: [["oneOffRules", i, "startAt"]],
        severity: "warning",
      });
  });
  return problems;
}

const listPayConfigs = (client: ApiClient) =>
  client.listAll<ApiPayConfig>("/v2/pay_configs", "pay_configs", "list pay configs", {}, 100);

/**
 * A pay configuration (API v2): what on-call time is paid, in one currency, by the `rateTimeUnit`:
 * the base rate, one-off rules for given periods, and weekly rules evaluated in order. Rules are
 * interpreted in `timezone`.
 *
 * Adopt an existing pay configuration: set `adoptId` to its id (from `GET /v2/pay_configs`); the
 * first `pulumi up` takes it over and updates it to the declared configuration.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * new incident.PayConfig("uk-on-call", {
 *   name: "UK on-call",
 *   currency: "GBP",
 *   baseRateCents: 500,
 *   rateTimeUnit: "hour",
 *   timezone: "Europe/London",
 *   weeklyRules: [
 *     // Equal times: the whole day.
 *     { weekdays: ["saturday", "sunday"], startTime: "00:00", endTime: "00:00", rateCents: 1000 },
 *     // An end before the start: past midnight, into the next morning.
 *     { weekdays: ["monday", "tuesday", "wednesday", "thursday", "friday"], startTime: "18:00", endTime: "09:00", rateCents: 750 },
 *   ],
 *   oneOffRules: [
 *     { name: "Christmas Day", startAt: "2026-12-25T00:00:00Z", endAt: "2026-12-26T00:00:00Z", rateCents: 2000 },
 *   ],
 * });
 * ```
 */
export const payConfigSpec: ResourceSpec<PayConfigInputs, ApiPayConfig> = {
  kind: "PayConfig",
  title: "pay config",
  schemaVersion: 1,
  inputs: payConfigInputs,
  validate: validatePayConfig,
  replaceOnChanges: [],
  secretOutputs: [],
  computedOutputs: [],
  canonical: canonicalPayConfig,
  idOf: (live) => live.id,
  list: { path: "/v2/pay_configs", itemsKey: "pay_configs", operation: "list pay configs", pageSize: 100 },
  toInputs: payConfigFromApi,
  computed: () => ({}),
  api: {
    ...restApi({
      collection: "/v2/pay_configs",
      key: "pay_config",
      noun: "pay config",
      payload: payConfigPayload,
    }),
    async findCreated(ctx, args) {
      // Names are not documented as unique: the newest configuration of that name is the one a lost create made.
      return newestMatching(await listPayConfigs(ctx.client), (p) => p.name === args.name);
    },
  },
};

export const payConfigProvider = makeProvider(payConfigSpec);
