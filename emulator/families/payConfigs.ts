/**
 * Emulator family: pay configurations (API v2; a partial shape, shared/api/NEWER.md "pay_configs").
 * `GET/POST /v2/pay_configs` (paginated), `GET/PUT/DELETE /v2/pay_configs/{id}`; flat bodies, the
 * one-off and weekly rules inline. The rules' own endpoints (`/v2/pay_configs/{pay_config_id}/
 * one_off_rules[/{id}]`, `…/weekly_rules[/{id}]`) are not served: their payloads are not read and the
 * provider does not use them.
 *
 * What is read: PayConfigsCreatePayloadV2 (required name, currency (ISO 4217), base_rate_cents,
 * rate_time_unit (example `hour`), timezone (IANA); optional one_off_rules, weekly_rules "in the
 * order they should be evaluated", with the keys of the reference's example). What is the emulator's
 * model, not read (../localTypes.ts): the response wrappers, chosen as every v2 family of the
 * reference has them (`{pay_config}` for create, show and update, `{pay_configs, pagination_meta}` for
 * the list), the read shape (the payload's fields, every rule with its server-assigned `id`, plus
 * `created_at`, `updated_at`), the update payload (the create payload: the rules are replaced by
 * those sent), and the status codes (201 create, 204 delete).
 *
 * Behaviour beyond the shapes (422 naming the field):
 * - `currency` must be an ISO 4217 code this runtime knows (`Intl.supportedValuesOf("currency")`),
 *   in capitals; `timezone` an IANA time zone (`Intl`); `name` not blank; `rate_time_unit` one of
 *   `hour`, `day` (the Terraform provider's pay_config docs: "Possible values are: hour, day");
 * - rates are whole numbers of the currency's lowest denomination, not negative;
 * - a one-off rule's `end_at` is after its `start_at`; a weekly rule's `start_time` and `end_time`
 *   are `HH:MM` (00:00-23:59), any two of them: equal times cover the whole day and an `end_time`
 *   before the `start_time` runs past midnight (the Terraform provider's pay_config docs), its
 *   `weekdays` at least one of monday … sunday (the values those docs give), none twice;
 * - a rule sent with an `id` keeps it when the configuration holds a rule of that id, else gets a new one.
 * Read-back quirks (each the reason for a normalisation rule of the provider): one-off rules come
 * back in `start_at` order, their timestamps in UTC (`…Z`, to the second); weekdays in week order.
 * Weekly rules keep their order (it is the evaluation order).
 */
import { defineFamily, operation, paginate } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import { registerLocalShapes } from "../localTypes";
import type { Store } from "../store";
import { compact, isTimeZone } from "./shared/records";
import { blankProblems } from "./shared/settings";

registerLocalShapes();

export const PAY_CONFIGS = "pay_configs";

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

type Json = any;

interface StoredPayConfig {
  id: string;
  /** The written payload, each rule with its id, one-off rules in `start_at` order. */
  payload: Json;
  created_at: string;
  updated_at: string;
}

/** The Terraform provider's pay_config docs: rate_time_unit "Possible values are: hour, day". */
const RATE_TIME_UNITS = ["hour", "day"];
const utc = (t: string) => new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");
const list = (v: unknown): Json[] => (Array.isArray(v) ? v : []);

function problems(body: Json) {
  const out: { field: string; message: string }[] = [...blankProblems(body, ["name"])];
  if (!RATE_TIME_UNITS.includes(body.rate_time_unit))
    out.push({ field: "rate_time_unit", message: `must be one of ${RATE_TIME_UNITS.join(", ")}` });
  if (!CURRENCIES.has(body.currency))
    out.push({ field: "currency", message: "must be an ISO 4217 currency code, such as GBP" });
  if (!isTimeZone(body.timezone))
    out.push({ field: "timezone", message: "must be an IANA time zone, such as Europe/London" });
  const rate = (v: unknown, field: string) => {
    if (typeof v === "number" && v < 0) out.push({ field, message: "must not be negative" });
  };
  rate(body.base_rate_cents, "base_rate_cents");
  list(body.one_off_rules).forEach((r, i) => {
    const at = `one_off_rules.${i}`;
    if (typeof r.name === "string" && r.name.trim() === "")
      out.push({ field: `${at}.name`, message: "must not be empty" });
    rate(r.rate_cents, `${at}.rate_cents`);
    if (Date.parse(r.end_at) <= Date.parse(r.start_at))
      out.push({ field: `${at}.end_at`, message: "must be after start_at" });
  });
  list(body.weekly_rules).forEach((r, i) => {
    const at = `weekly_rules.${i}`;
    rate(r.rate_cents, `${at}.rate_cents`);
    for (const key of ["start_time", "end_time"])
      if (!CLOCK.test(r[key])) out.push({ field: `${at}.${key}`, message: "must be HH:MM (00:00-23:59)" });
    const days = list(r.weekdays);
    if (days.length === 0) out.push({ field: `${at}.weekdays`, message: "must name at least one weekday" });
    days.forEach((d, j) => {
      if (!WEEKDAYS.includes(d))
        out.push({ field: `${at}.weekdays.${j}`, message: `must be one of ${WEEKDAYS.join(", ")}` });
      else if (days.indexOf(d) !== j) out.push({ field: `${at}.weekdays.${j}`, message: "is named twice" });
    });
  });
  return out;
}

/** The stored payload: rules with ids (kept when sent and known), one-off rules in start order. */
function stored(body: Json, before: Json | undefined, newId: () => string): Json {
  const known = (key: string) => new Set(list(before?.[key]).map((r) => r.id));
  const withId = (key: string) => (r: Json) => ({
    ...r,
    id: typeof r.id === "string" && known(key).has(r.id) ? r.id : newId(),
  });
  return {
    name: body.name,
    currency: body.currency,
    base_rate_cents: body.base_rate_cents,
    rate_time_unit: body.rate_time_unit,
    timezone: body.timezone,
    one_off_rules: list(body.one_off_rules)
      .map(withId("one_off_rules"))
      .map((r) => ({ ...r, start_at: utc(r.start_at), end_at: utc(r.end_at) }))
      .sort((a, b) => Date.parse(a.start_at) - Date.parse(b.start_at)),
    weekly_rules: list(body.weekly_rules)
      .map(withId("weekly_rules"))
      .map((r) => ({ ...r, weekdays: WEEKDAYS.filter((d) => r.weekdays.includes(d)) })),
  };
}

/** `PayConfigV2` (the emulator's model). */
function render(p: StoredPayConfig): Json {
  const b = p.payload;
  return {
    id: p.id,
    ...b,
    one_off_rules: b.one_off_rules.map((r: Json) =>
      compact({ id: r.id, name: r.name, start_at: r.start_at, end_at: r.end_at, rate_cents: r.rate_cents }),
    ),
    weekly_rules: b.weekly_rules.map((r: Json) =>
      compact({
        id: r.id,
        weekdays: r.weekdays,
        start_time: r.start_time,
        end_time: r.end_time,
        rate_cents: r.rate_cents,
      }),
    ),
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

function payConfig(store: Store, id: string): StoredPayConfig {
  const p = store.collection<StoredPayConfig>(PAY_CONFIGS).get(id);
  if (!p) throw notFound(`No pay config with id ${id}`);
  return p;
}

export const payConfigs = defineFamily({
  name: "pay_configs",
  // The seed's roles (Authentication 6): `pay_configs_viewer` reads, `pay_configs_editor` writes; a
  // key is made with them like any other role (emulator/localTypes.ts adds them to `role_names`).
  roles: { read: ["pay_configs_viewer"], write: ["pay_configs_editor"] },
  collections: [PAY_CONFIGS],
  routes: [
    operation("PayConfigsV2List", "read", ({ store, query }) => {
      const all = store.collection<StoredPayConfig>(PAY_CONFIGS).all();
      const { page, pagination_meta } = paginate(all, query);
      return { body: { pay_configs: page.map(render), pagination_meta } };
    }),
    operation("PayConfigsV2Create", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(problems(body));
      const id = newId();
      const p = store.collection<StoredPayConfig>(PAY_CONFIGS).set({
        id,
        payload: stored(body, undefined, newId),
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { body: { pay_config: render(p) } };
    }),
    operation("PayConfigsV2Show", "read", ({ store, params }) => ({
      body: { pay_config: render(payConfig(store, params.id!)) },
    })),
    operation("PayConfigsV2Update", "write", ({ store, params, body, newId, nowIso }) => {
      const current = payConfig(store, params.id!);
      throwIfProblems(problems(body));
      const p = store
        .collection<StoredPayConfig>(PAY_CONFIGS)
        .set({ ...current, payload: stored(body, current.payload, newId), updated_at: nowIso });
      return { body: { pay_config: render(p) } };
    }),
    operation("PayConfigsV2Destroy", "write", ({ store, params }) => {
      payConfig(store, params.id!);
      store.collection<StoredPayConfig>(PAY_CONFIGS).delete(params.id!);
      return {};
    }),
  ],
});
