/**
 * Emulator family: alert sources (API v2). `GET/POST /v2/alert_sources`,
 * `GET/PUT/DELETE /v2/alert_sources/{id}`.
 *
 * Read-back reproduces what the real API does to what was written (so the provider's normalisation
 * rules are exercised):
 * - title/description rich-text literals are re-encoded (keys sorted, `>` as `\u003e`) and every
 *   varSpec gains the dashboard's display attrs (`label`, `missing: false`); a source authored in the
 *   dashboard (`dashboardAuthored`) answers them wrapped in the `{schema_version, text_node}` envelope
 *   (TF PR #462);
 * - write-only options are never echoed (TF #339, #353): `http_custom_options` and
 *   `auto_resolve_incident_alerts` are absent, `email_options` answers only the generated
 *   `email_address` (with empty `redactions`);
 * - sets come back in another order: `owning_team_ids`, `template.attributes`, `template.expressions`;
 * - bindings and expressions are answered by the shared engine renderers (shared/engine.ts), with
 *   every quirk listed there: JSON literals re-encoded, labelled values, operation aliases, padded
 *   condition bindings, private Slack channels as catalog ids, expressions in another order;
 * - heartbeat options: omitted `failure_threshold` / `grace_period_seconds` are filled with server
 *   defaults (1 and 0) and a `ping_url` is added; omitted `merge_strategy` becomes `first_wins`;
 * - `secret_token` and `alert_events_url` are generated for webhook-style sources.
 * Names are unique (422 on `name`); each source type's options are required for that type and
 * rejected for others (422 on the option); bound attribute ids must exist.
 *
 * `AlertConfigGate`: the account has one alert configuration; a write to it (alert source or alert
 * attribute) that arrives while another is in flight is rejected with 409 `conflict`, as the real API
 * rejects "whoever is second". The emulator's handlers run one at a time and take no time, so writes
 * never overlap on their own: `installAlertConfigGate(emulator.pipeline, {latencyMs})` adds a stage
 * (before the handler) that makes every alert-configuration write take `latencyMs`, as the real API's
 * do, and answers 409 to one that arrives meanwhile.
 */
import { randomBytes } from "node:crypto";
import { defineFamily, operation } from "../family";
import { conflict, notFound, throwIfProblems } from "../http/errors";
import type { Pipeline } from "../http/pipeline";
import { SETTINGS_ROLES } from "../roles";
import type { Store } from "../store";
import { ALERT_ATTRIBUTES, type StoredAlertAttribute } from "./alertAttributes";
import { humanLabel, reencodeJson, renderBinding, renderExpressions } from "./shared/engine";
import { requireTeams } from "./teams";

type Json = any;

export interface FieldProblem {
  field: string;
  message: string;
}

export interface StoredAlertSource {
  id: string;
  payload: Json;
  sourceType: string;
  secretToken: string;
  disabled: boolean;
  archived: boolean;
  /** Created or last edited in the dashboard: title/description answered in the envelope form. */
  dashboardAuthored: boolean;
}

const OPTIONS_FOR: Record<string, string> = {
  heartbeat_options: "heartbeat",
  email_options: "email",
  http_custom_options: "http_custom",
  jira_options: "jira",
};
/** Types that receive events through an integration or e-mail, not a webhook URL. */
const NO_WEBHOOK = new Set(["email", "jira", "heartbeat", "incoming_calls"]);

export interface AlertSourceWorld {
  sources: Iterable<StoredAlertSource>;
  attributes: Iterable<StoredAlertAttribute>;
}

/** Behaviour checks beyond the reference shapes (the payload type is validated first). */
export function alertSourceProblems(
  body: Json,
  world: AlertSourceWorld,
  stored?: StoredAlertSource,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const sourceType: string = stored?.sourceType ?? body?.source_type;
  if (typeof body?.name === "string") {
    if (body.name.trim() === "") problems.push({ field: "name", message: "must not be empty" });
    for (const s of world.sources) {
      if (!s.archived && s.id !== stored?.id && s.payload.name === body.name) {
        problems.push({ field: "name", message: `an alert source named "${body.name}" already exists` });
      }
    }
  }
  for (const [key, type] of Object.entries(OPTIONS_FOR)) {
    if (body?.[key] !== undefined && sourceType !== type) {
      problems.push({ field: key, message: `only valid for ${type} sources` });
    }
    if (body?.[key] === undefined && sourceType === type && key !== "email_options") {
      problems.push({ field: key, message: `required for ${type} sources` });
    }
  }
  if (body?.disabled !== undefined && sourceType !== "heartbeat") {
    problems.push({ field: "disabled", message: "only heartbeat sources can be disabled" });
  }
  const attributeIds = new Set([...world.attributes].filter((a) => !a.deleted).map((a) => a.id));
  (body?.template?.attributes ?? []).forEach((a: Json, i: number) => {
    if (typeof a?.alert_attribute_id === "string" && !attributeIds.has(a.alert_attribute_id)) {
      problems.push({
        field: `template.attributes.${i}.alert_attribute_id`,
        message: `no alert attribute with id ${a.alert_attribute_id}`,
      });
    }
  });
  for (const key of ["title", "description"]) {
    const literal = body?.template?.[key]?.literal;
    if (typeof literal !== "string") continue;
    const problem = richTextProblem(parseJson(literal), "");
    if (problem !== undefined) problems.push({ field: `template.${key}.literal`, message: problem });
  }
  return problems;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with a rich text document, if anything: a `doc` (or the dashboard's envelope around
 * one, `text_node`) whose nodes each have a `type`, whose `content` is a list of nodes, whose text
 * nodes carry a string and whose variables a name.
 */
function richTextProblem(node: unknown, at: string): string | undefined {
  const where = at === "" ? "" : ` at ${at}`;
  if (at === "" && node !== null && typeof node === "object" && "text_node" in node)
    return richTextProblem((node as Json).text_node, "text_node");
  if (node === null || typeof node !== "object" || Array.isArray(node))
    return `must be a rich text document (JSON)${where}: a node must be an object`;
  const n = node as Json;
  if (typeof n.type !== "string") return `must be a rich text document (JSON)${where}: a node needs a type`;
  if (at === "" && n.type !== "doc") return 'must be a rich text document (JSON): its root is of type "doc"';
  if (n.type === "text" && typeof n.text !== "string")
    return `must be a rich text document (JSON)${where}: a text node needs its text`;
  if (
    n.type === "varSpec" &&
    (n.attrs === null || typeof n.attrs !== "object" || typeof n.attrs.name !== "string")
  )
    return `must be a rich text document (JSON)${where}: a variable needs attrs.name`;
  if (n.content === undefined) return undefined;
  if (!Array.isArray(n.content))
    return `must be a rich text document (JSON)${where}: content must be a list of nodes`;
  for (let i = 0; i < n.content.length; i++) {
    const problem = richTextProblem(n.content[i], `${at === "" ? "" : `${at}.`}content.${i}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

export function createAlertSource(id: string, body: Json, secretToken: string): StoredAlertSource {
  return {
    id,
    payload: structuredClone(body),
    sourceType: body.source_type,
    secretToken,
    disabled: false,
    archived: false,
    dashboardAuthored: false,
  };
}

/** v2 update: full replacement of everything but source_type (template included). */
export function updateAlertSource(stored: StoredAlertSource, body: Json): StoredAlertSource {
  const { disabled, ...rest } = body;
  return {
    ...stored,
    payload: { ...structuredClone(rest), source_type: stored.sourceType },
    disabled: typeof disabled === "boolean" ? disabled : stored.disabled,
    dashboardAuthored: false,
  };
}

/** AlertSourceV2 as the API answers it. */
/** `baseUrl`: where alert events are sent (the emulator's own URL when serving). */
export function renderAlertSource(s: StoredAlertSource, baseUrl = "https://api.incident.io"): Json {
  const p = s.payload;
  const t = p.template ?? {};
  const out: Json = {
    id: s.id,
    name: p.name,
    source_type: s.sourceType,
    template: {
      title: renderRichText(t.title, s.dashboardAuthored),
      description: renderRichText(t.description, s.dashboardAuthored),
      attributes: [...(t.attributes ?? [])].reverse().map((a: Json) => ({
        alert_attribute_id: a.alert_attribute_id,
        binding: {
          ...renderBinding(a.binding),
          merge_strategy: a.binding?.merge_strategy ?? "first_wins",
        },
      })),
      expressions: renderExpressions(t.expressions),
      is_private: t.is_private ?? false,
      ...(t.visible_to_teams ? { visible_to_teams: renderBinding(t.visible_to_teams) } : {}),
    },
  };
  if (p.heartbeat_options) {
    out.heartbeat_options = {
      interval_seconds: p.heartbeat_options.interval_seconds,
      failure_threshold: p.heartbeat_options.failure_threshold ?? 1,
      grace_period_seconds: p.heartbeat_options.grace_period_seconds ?? 0,
      ping_url: `${baseUrl}/v2/alert_events/heartbeat/${s.id}/ping`,
    };
  }
  if (s.sourceType === "email") {
    // Write-only: redactions and the transform expression are not echoed.
    out.email_options = { email_address: `alerts-${s.id.toLowerCase()}@alerts.example.com`, redactions: [] };
  }
  if (p.jira_options) out.jira_options = { project_ids: [...p.jira_options.project_ids] };
  if (p.auto_resolve_timeout_minutes !== undefined)
    out.auto_resolve_timeout_minutes = p.auto_resolve_timeout_minutes;
  // null is sent for "none" as often as an omitted field.
  if (Array.isArray(p.owning_team_ids)) out.owning_team_ids = [...p.owning_team_ids].reverse();
  if (!NO_WEBHOOK.has(s.sourceType)) {
    out.secret_token = s.secretToken;
    out.alert_events_url = `${baseUrl}/v2/alert_events/${s.sourceType}/${s.id}`;
  }
  return out;
}

export function showAlertSource(s: StoredAlertSource, baseUrl?: string): Json {
  return { alert_source: renderAlertSource(s, baseUrl) };
}

export function listAlertSources(all: Iterable<StoredAlertSource>, baseUrl?: string): Json {
  return { alert_sources: [...all].filter((s) => !s.archived).map((s) => renderAlertSource(s, baseUrl)) };
}

/** What a dashboard edit does to a source: its title/description are answered in the envelope form. */
export function markDashboardAuthored(s: StoredAlertSource): StoredAlertSource {
  return { ...s, dashboardAuthored: true };
}

// ---------- rich text (bindings and expressions: the shared engine renderers) ----------

function renderRichText(value: Json, envelope: boolean): Json {
  if (!value || typeof value.literal !== "string") return { label: value?.reference ?? "", ...value };
  let doc: Json;
  try {
    doc = JSON.parse(value.literal);
  } catch {
    return { label: value.literal, literal: value.literal };
  }
  const decorated = decorate(doc);
  const stored = envelope
    ? {
        schema_version: "1.0.0",
        feature_set: "rich",
        markdown: plainText(decorated),
        text_node: decorated,
      }
    : decorated;
  return { label: plainText(decorated), literal: reencodeJson(JSON.stringify(stored)) };
}

/** The dashboard's display attrs on every varSpec. */
function decorate(node: Json): Json {
  if (Array.isArray(node)) return node.map(decorate);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = decorate(v);
  if (out.type === "varSpec" && out.attrs && typeof out.attrs === "object") {
    out.attrs = { label: humanLabel(String(out.attrs.name ?? "")), missing: false, ...out.attrs };
  }
  return out;
}

function plainText(node: Json): string {
  if (!node || typeof node !== "object") return "";
  if (node.type === "text") return String(node.text ?? "");
  if (node.type === "varSpec") return `{{${node.attrs?.name ?? ""}}}`;
  if (node.type === "lineBreak") return "\n";
  const parts = (node.content ?? []).map(plainText);
  return node.type === "doc" ? parts.join("\n\n") : parts.join("");
}

// ---------- the account's one alert configuration ----------

/** Rejects a write to the alert configuration while another is in flight (409, "whoever is second"). */
export class AlertConfigGate {
  private busy = 0;
  /** How many writes were rejected because another was in flight. */
  conflicts = 0;
  /** How long each write holds the gate, ms (the real API's write time; 0 = as fast as the emulator). */
  latencyMs = 0;
  private hold?: { entered: () => void; released: Promise<void> };

  /**
   * Keeps the next write inside the gate until `release()` is called; `entered` resolves once it is
   * held. Lets a test overlap writes by order rather than by timing, which a loaded machine breaks.
   */
  holdNextWrite(): { entered: Promise<void>; release: () => void } {
    let release!: () => void;
    let entered!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    const enteredNow = new Promise<void>((r) => {
      entered = r;
    });
    this.hold = { entered, released };
    return { entered: enteredNow, release };
  }

  /** Runs the write, holding the gate for `latencyMs` first; undefined when the gate was busy (answer 409). */
  async write<T>(work: () => T | Promise<T>): Promise<{ value: T } | undefined> {
    if (this.busy > 0) {
      this.conflicts++;
      return undefined;
    }
    this.busy++;
    const hold = this.hold;
    this.hold = undefined;
    try {
      if (hold) {
        hold.entered();
        await hold.released;
      }
      if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
      return { value: await work() };
    } finally {
      this.busy--;
    }
  }
}

/** The pipeline stage `installAlertConfigGate` adds (remove it with `pipeline.remove(...)`). */
export const ALERT_CONFIG_GATE_STAGE = "alert-config-gate";
/** The families whose writes change the account's one alert configuration. */
const ALERT_CONFIG_FAMILIES = new Set(["alert_sources", "alert_attributes"]);

/**
 * Makes writes to the alert configuration (POST/PUT/DELETE of alert sources and alert attributes,
 * any key) hold one account-wide gate for `latencyMs`; a write arriving meanwhile is answered 409
 * `conflict` without effect. Returns the gate (`latencyMs` can be changed, `conflicts` counts).
 */
export function installAlertConfigGate(
  pipeline: Pipeline,
  options: { latencyMs?: number } = {},
): AlertConfigGate {
  const gate = new AlertConfigGate();
  gate.latencyMs = options.latencyMs ?? 0;
  pipeline.use(
    ALERT_CONFIG_GATE_STAGE,
    async (ctx, next) => {
      const family = ctx.route?.family?.name;
      if (ctx.method === "GET" || family === undefined || !ALERT_CONFIG_FAMILIES.has(family)) return next();
      const done = await gate.write(next);
      if (!done) {
        throw conflict("The alert configuration is being changed by another request; try again");
      }
    },
    { before: "handler" },
  );
  return gate;
}

// ---------- the emulator family ----------

export const ALERT_SOURCES = "alert_sources";

function findAlertSource(store: Store, id: string): StoredAlertSource | undefined {
  const s = store.collection<StoredAlertSource>(ALERT_SOURCES).get(id);
  return s && !s.archived ? s : undefined;
}

function worldOf(store: Store): AlertSourceWorld {
  return {
    sources: store.collection<StoredAlertSource>(ALERT_SOURCES).all(),
    attributes: store.collection<StoredAlertAttribute>(ALERT_ATTRIBUTES).all(),
  };
}

export const alertSources = defineFamily({
  name: "alert_sources",
  roles: SETTINGS_ROLES,
  collections: [ALERT_SOURCES],
  routes: [
    operation("AlertSourcesV2List", "read", ({ store, runtime }) => ({
      body: listAlertSources(store.collection<StoredAlertSource>(ALERT_SOURCES).all(), runtime.url),
    })),

    operation("AlertSourcesV2Create", "write", ({ store, body, newId, runtime }) => {
      throwIfProblems(alertSourceProblems(body, worldOf(store)));
      requireTeams(store, body.owning_team_ids);
      const secret = randomBytes(24).toString("hex");
      const stored = store
        .collection<StoredAlertSource>(ALERT_SOURCES)
        .set(createAlertSource(newId(), body, secret));
      return { body: showAlertSource(stored, runtime.url) };
    }),

    operation("AlertSourcesV2Show", "read", ({ store, params, runtime }) => {
      const s = findAlertSource(store, params.id!);
      if (!s) throw notFound(`No alert source with id ${params.id}`);
      return { body: showAlertSource(s, runtime.url) };
    }),

    operation("AlertSourcesV2Update", "write", ({ store, params, body, runtime }) => {
      const s = findAlertSource(store, params.id!);
      if (!s) throw notFound(`No alert source with id ${params.id}`);
      throwIfProblems(alertSourceProblems(body, worldOf(store), s));
      requireTeams(store, body.owning_team_ids);
      const stored = store.collection<StoredAlertSource>(ALERT_SOURCES).set(updateAlertSource(s, body));
      return { body: showAlertSource(stored, runtime.url) };
    }),

    operation("AlertSourcesV2Delete", "write", ({ store, params }) => {
      if (!findAlertSource(store, params.id!)) throw notFound(`No alert source with id ${params.id}`);
      store.collection(ALERT_SOURCES).delete(params.id!);
      return {};
    }),
  ],
});
