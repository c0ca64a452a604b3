/**
 * Plain-language pieces the plan report's summaries and diagrams share: ids as the names of the
 * stack's resources (and users by e-mail), condition and target texts; and the schemas of the
 * parts of inputs they read (`maybe`: any value may be unknown in a preview, or a secret).
 *
 * Everything here is plain text (the JSON report's words); the Markdown report escapes it where it
 * puts it (cli/markdown.ts).
 */
import { z } from "zod";
import { KNOWN_AFTER_APPLY, SECRET_TEXT, UNKNOWN } from "./values";

/** Names ids after the stack's resources (`Schedule payments-primary`), users by e-mail; undefined for others. */
export type Names = (id: string) => string | undefined;

// ---------------------------------------------------------------------------------- schemas

/** A value a preview does not know yet, or a secret it does not show. */
export const PENDING = z.union([z.literal(UNKNOWN), z.literal(SECRET_TEXT)]);
export type Pending = z.infer<typeof PENDING>;

/** A part of the inputs as a document may hold it: the value, unknown, secret, or absent. */
export function maybe<T extends z.ZodType>(schema: T) {
  return z.union([schema, PENDING]).nullish();
}

/** A list read from a document: empty when absent, unknown or secret. */
export function items<T>(value: readonly T[] | Pending | null | undefined): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/** An object read from a document: undefined when absent, unknown or secret. */
export function part<T extends object>(value: T | Pending | null | undefined): T | undefined {
  return value !== null && typeof value === "object" ? value : undefined;
}

/** What a value that is not known or not shown reads as; undefined for a value that is. */
export function pendingText(value: unknown): string | undefined {
  if (value === UNKNOWN) return KNOWN_AFTER_APPLY;
  if (value === SECRET_TEXT) return SECRET_TEXT;
  return undefined;
}

/** A scalar as text: "(known after apply)" for an unknown one, `fallback` for none. */
export function scalar(value: unknown, fallback = "?"): string {
  if (value === UNKNOWN) return KNOWN_AFTER_APPLY;
  if (value === null || value === undefined) return fallback;
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const literal = z.union([z.string(), z.number(), z.boolean()]);
const bindingValue = z.object({ literal: maybe(literal), reference: maybe(z.string()) });
export const binding = z.object({
  value: maybe(bindingValue),
  arrayValue: maybe(z.array(maybe(bindingValue))),
});
export const condition = z.object({
  subject: maybe(z.string()),
  operation: maybe(z.string()),
  paramBindings: maybe(z.array(maybe(binding))),
});
export const conditionGroup = z.object({ conditions: maybe(z.array(maybe(condition))) });
export const target = z.object({
  type: maybe(z.string()),
  id: maybe(z.string()),
  /** An escalation path template's target: a parameter binding instead of an id. */
  binding: maybe(binding),
  urgency: maybe(z.string()),
  scheduleMode: maybe(z.string()),
  selectedRotaId: maybe(z.string()),
});

export type Binding = z.infer<typeof binding>;
export type ConditionLike = z.infer<typeof condition>;
export type ConditionGroupLike = z.infer<typeof conditionGroup>;
export type TargetLike = z.infer<typeof target>;

// ---------------------------------------------------------------------------------- texts

export function named(id: unknown, names: Names, fallback = "unknown id"): string {
  const pending = pendingText(id);
  if (pending) return pending;
  if (typeof id !== "string") return fallback;
  return names(id) ?? id;
}

function bindingValueText(
  v: z.infer<typeof bindingValue> | Pending | null | undefined,
  names: Names,
): string {
  const pending = pendingText(v);
  if (pending) return pending;
  if (!v || typeof v !== "object") return "";
  if (v.reference !== undefined && v.reference !== null) return scalar(v.reference);
  if (v.literal === undefined || v.literal === null) return "";
  return typeof v.literal === "string" ? named(v.literal, names, "") : String(v.literal);
}

export function bindingText(b: Binding | Pending | null | undefined, names: Names): string {
  const pending = pendingText(b);
  if (pending) return pending;
  if (!b || typeof b !== "object") return "";
  if (b.arrayValue !== undefined && b.arrayValue !== null) {
    const whole = pendingText(b.arrayValue);
    if (whole) return whole;
    return items(b.arrayValue)
      .map((v) => bindingValueText(v, names))
      .join(", ");
  }
  return bindingValueText(b.value, names);
}

/** `escalation.priority one of P1, P2`. */
export function conditionText(c: ConditionLike | Pending | null | undefined, names: Names): string {
  const pending = pendingText(c);
  if (pending) return pending;
  if (!c || typeof c !== "object") return "?";
  const subject = attributeReference(scalar(c.subject), names);
  const operation = scalar(c.operation).replace(/_/g, " ");
  const params =
    pendingText(c.paramBindings) ??
    items(c.paramBindings)
      .map((b) => bindingText(b, names))
      .filter((t) => t !== "")
      .join("; ");
  return [subject, operation, params].filter((t) => t !== "").join(" ");
}

/**
 * A reference (`alert.attributes.<id>`, `catalog_entry.attributes["<id>"]`) with every id the plan
 * or the state knows named (`AlertAttribute service`); `alert.attributes.<id>` alone as the name.
 */
export function attributeReference(text: string, names: Names): string {
  // `<…>`: an id as the recorded fixtures mask it.
  const whole = /^alert\.attributes\.(<[^>]+>|[^.\s[\]"']+)$/.exec(text);
  if (whole && names(whole[1]!)) return names(whole[1]!)!;
  return text.replace(/<[^<>]+>|[A-Za-z0-9_-]+/g, (token) => names(token) ?? token);
}

export function conditionGroupsText(
  groups: ConditionGroupLike[] | Pending | null | undefined,
  names: Names,
): string {
  const pending = pendingText(groups);
  if (pending) return pending;
  const list = items(groups);
  if (list.length === 0) return "always";
  return list
    .map(
      (g) =>
        pendingText(g) ??
        (pendingText(g?.conditions) ||
          items(g?.conditions)
            .map((c) => conditionText(c, names))
            .join(" and ")),
    )
    .join(" — or — ");
}

/** A target whose id is known only after apply: the resource the plan makes for it. */
export interface PendingTarget {
  /** `Schedule payments-secondary`. */
  who: string;
  /** `the replacement, id known after apply`. */
  note: string;
}

/** A target in parts: who (what it is compared by), a note, and how it is paged. */
export interface TargetParts {
  who: string;
  note?: string;
  details: string[];
}

export function targetParts(
  t: TargetLike | Pending | null | undefined,
  names: Names,
  pendingOf?: (t: TargetLike) => PendingTarget | undefined,
): TargetParts {
  const whole = pendingText(t);
  if (whole || !t || typeof t !== "object") return { who: whole ?? "?", details: [] };
  const pending = t.id === UNKNOWN ? pendingOf?.(t) : undefined;
  const type = scalar(t.type, "target");
  const bound = (t.id === undefined || t.id === null) && t.binding !== undefined && t.binding !== null;
  const who = bound
    ? `${type.replace(/_/g, " ")} bound to ${bindingText(t.binding, names) || "?"}`
    : (pending?.who ??
      (type === "slack_channel" || type === "msteams_channel"
        ? `channel ${named(t.id, names)}`
        : ((typeof t.id === "string" && t.id !== UNKNOWN ? names(t.id) : undefined) ??
          `${type} ${named(t.id, names)}`)));
  const details = [
    t.scheduleMode === undefined || t.scheduleMode === null
      ? undefined
      : scalar(t.scheduleMode).replace(/_/g, " "),
    t.selectedRotaId === undefined || t.selectedRotaId === null
      ? undefined
      : `rota ${scalar(t.selectedRotaId)}`,
    t.urgency === undefined || t.urgency === null ? undefined : `${scalar(t.urgency)} urgency`,
  ].filter((d): d is string => d !== undefined);
  return { who, ...(pending ? { note: pending.note } : {}), details };
}

/** `Schedule payments-primary (currently on call, high urgency)`. */
export function partsText(p: TargetParts): string {
  const extra = [p.note, p.details.join(", ")].filter((x) => x);
  return extra.length ? `${p.who} (${extra.join("; ")})` : p.who;
}

export function targetText(
  t: TargetLike | Pending | null | undefined,
  names: Names,
  pendingOf?: (t: TargetLike) => PendingTarget | undefined,
): string {
  return partsText(targetParts(t, names, pendingOf));
}

export function seconds(value: unknown): string {
  const pending = pendingText(value);
  if (pending) return pending;
  if (typeof value !== "number") return "—";
  return value % 60 === 0 && value >= 60 ? `${value} s (${value / 60} min)` : `${value} s`;
}
