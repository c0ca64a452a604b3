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
 * Inputs the API checks, whose values are not published: `rateTimeUnit` (the reference's example is
 * `hour`). Checked here: `currency` is an ISO 4217 code (`Intl.supportedValuesOf("currency")`, in
 * capitals), `timezone` an IANA time zone, rates whole numbers of the lowest denomination (cents,
 * pence) and not negative, a one-off rule ends after it starts, a weekly rule's times are `HH:MM`
 * with its end after its start on the same day (a rule over midnight is written as two rules), its
 * `weekdays` named as the API names weekdays elsewhere (`monday` … `sunday`, the reference's
 * WeekdayIntervalV2; the pay config's own spelling is not published), none twice.
 *
 * Normalisation: weekly rules are evaluated in order ("in the order they should be evaluated"), so
 * their order matters; a weekly rule's `weekdays` are a set (the API answers them in week order).
 * One-off rules are a set (the API answers them by start), their timestamps by instant (the API
 * answers UTC, to the second; your text is kept when it is the same instant).
 */
import { z } from "zod";
import type { ApiClient } from "../provider/client";
import { makeProvider } from "../provider/factory";
import { clockTime, nameText, timestamp } from "../provider/inputs";
import { canonicalJson, keepDeclaredOrder } from "../provider/normalise";
import { newestMatching, restApi } from "../provider/restApi";
import type { Problem, Props, ResourceSpec } from "../provider/spec";
import { timeZone } from "./shared/timeZone";
import { weekday } from "./shared/weekday";

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));
const WEEK = weekday.options;

const cents = z
  .number()
  .int("must be a whole number of the lowest denomination")
  .min(0, "must not be negative");

/** A rate that applies between two instants (a public holiday, a launch weekend). */
export const payConfigOneOffRule = z.strictObject({
  /** Name of the rule, e.g. `Christmas Day`. */
  name: nameText(),
  /** When the rule starts: an RFC 3339 timestamp, e.g. `2026-12-25T00:00:00Z`. */
  startAt: timestamp(),
  /** When the rule ends: an RFC 3339 timestamp after `startAt`. */
  endAt: timestamp(),
  /** Rate paid while the rule applies, in the currency's lowest denomination (cents, pence) per `rateTimeUnit`. */
  rateCents: cents,
});

/** A rate that applies on some days of every week, between two times of day (in the configuration's time zone). */
export const payConfigWeeklyRule = z.strictObject({
  /** Days the rule applies on, `monday` … `sunday`. Order does not matter. */
  weekdays: z.array(weekday).min(1, "name at least one weekday"),
  /** Time of day the rule starts, `HH:MM` (24-hour). */
  startTime: clockTime(),
  /** Time of day the rule ends, `HH:MM` (24-hour), after `startTime` (a rule over midnight is two rules). */
  endTime: clockTime(),
  /** Rate paid while the rule applies, in the currency's lowest denomination (cents, pence) per `rateTimeUnit`. */
  rateCents: cents,
});

/** Inputs of a pay configuration (API v2). */
export const payConfigInputs = z.strictObject({
  /** Name of the pay configuration. */
  name: nameText(),
  /** ISO 4217 currency code, in capitals, e.g. `GBP`, `USD`, `EUR`. */
  currency: z
    .string()
    .refine(
      (c) => CURRENCIES.has(c),
      "must be an ISO 4217 currency code in capitals, such as GBP, USD or EUR",
    ),
  /** Rate paid for any time no rule covers, in the currency's lowest denomination (cents, pence) per `rateTimeUnit`. */
  baseRateCents: cents,
  /** The unit of time the rates are paid per, e.g. `hour`. The API's list of values is not published: it checks the value. */
  rateTimeUnit: nameText(),
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
      weekdays: r.weekdays,
      start_time: r.startTime,
      end_time: r.endTime,
      rate_cents: r.rateCents,
    })),
  };
}

/** The instant of a timestamp, to the second (the API keeps no fraction). */
const instantText = (t: string) =>
  Number.isNaN(Date.parse(t)) ? t : new Date(Math.floor(Date.parse(t) / 1000) * 1000).toISOString();

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
/** A weekly rule by meaning: weekdays a set (in week order). */
const canonicalWeekly = (r: WeeklyRule) => ({
  ...r,
  weekdays: WEEK.filter((d) => r.weekdays.includes(d)),
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
    weekdays: keepDeclaredOrder(r.weekdays as WeeklyRule["weekdays"], declared?.[i]?.weekdays) ?? [],
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

/** Rules end after they start; a weekday is named once per rule. */
export function validatePayConfig(args: PayConfigInputs): Problem[] {
  const problems: Problem[] = [];
  (args.oneOffRules ?? []).forEach((r, i) => {
    if (Date.parse(r.endAt) <= Date.parse(r.startAt))
      problems.push({
        path: ["oneOffRules", i, "endAt"],
        message: `must be after startAt (${r.startAt})`,
        dependsOn: [["oneOffRules", i, "startAt"]],
      });
  });
  (args.weeklyRules ?? []).forEach((r, i) => {
    if (r.endTime <= r.startTime)
      problems.push({
        path: ["weeklyRules", i, "endTime"],
        message: `must be after startTime (${r.startTime}) on the same day: a rule over midnight is written as two rules`,
        dependsOn: [["weeklyRules", i, "startTime"]],
      });
    r.weekdays.forEach((d, j) => {
      if (r.weekdays.indexOf(d) !== j)
        problems.push({
          path: ["weeklyRules", i, "weekdays", j],
          message: `${d} is named twice`,
          dependsOn: [["weeklyRules", i, "weekdays"]],
        });
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
 *     { weekdays: ["saturday", "sunday"], startTime: "00:00", endTime: "23:59", rateCents: 1000 },
 *     { weekdays: ["monday", "tuesday", "wednesday", "thursday", "friday"], startTime: "18:00", endTime: "23:59", rateCents: 750 },
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
