/**
 * Plain-language pieces the plan report's summaries and diagrams share: ids as the names of the
 * stack's resources, condition and target texts.
 */
import { KNOWN_AFTER_APPLY, UNKNOWN } from "./values";

/** Names ids after the stack's resources (`Schedule payments-primary`); undefined for others. */
export type Names = (id: string) => string | undefined;

export function named(id: unknown, names: Names, fallback = "unknown id"): string {
  if (id === UNKNOWN) return KNOWN_AFTER_APPLY;
  if (typeof id !== "string") return fallback;
  return names(id) ?? id;
}

interface Binding {
  value?: { literal?: string; reference?: string };
  arrayValue?: { literal?: string; reference?: string }[];
}

function bindingValue(v: { literal?: string; reference?: string } | undefined, names: Names): string {
  if (!v) return "";
  if (v.reference !== undefined) return String(v.reference);
  return named(v.literal, names, "");
}

export function bindingText(b: Binding | undefined, names: Names): string {
  if (!b) return "";
  if (b.arrayValue) return b.arrayValue.map((v) => bindingValue(v, names)).join(", ");
  return bindingValue(b.value, names);
}

export interface ConditionLike {
  subject?: string;
  operation?: string;
  paramBindings?: Binding[];
}

/** `escalation.priority one of P1, P2`. */
export function conditionText(c: ConditionLike, names: Names): string {
  const subject = attributeReference(String(c.subject ?? "?"), names);
  const operation = String(c.operation ?? "?").replace(/_/g, " ");
  const params = (c.paramBindings ?? []).map((b) => bindingText(b, names)).filter((t) => t !== "");
  return [subject, operation, params.join("; ")].filter((t) => t !== "").join(" ");
}

/** `alert.attributes.<id>` as the attribute's name when the stack has it (`AlertAttribute service`). */
export function attributeReference(text: string, names: Names): string {
  // `<…>`: an id as the recorded fixtures mask it.
  return text.replace(/alert\.attributes\.(<[^>]+>|\S+)/, (whole, id) => names(id) ?? whole);
}

export function conditionGroupsText(
  groups: { conditions?: ConditionLike[] }[] | undefined,
  names: Names,
): string {
  if (!groups || groups.length === 0) return "always";
  return groups
    .map((g) => (g.conditions ?? []).map((c) => conditionText(c, names)).join(" and "))
    .join(" — or — ");
}

export interface TargetLike {
  type?: string;
  id?: unknown;
  urgency?: string;
  scheduleMode?: string;
  selectedRotaId?: string;
}

/** `Schedule payments-primary (currently on call, high urgency)`. */
export function targetText(
  t: TargetLike,
  names: Names,
  pendingOf?: (t: TargetLike) => string | undefined,
): string {
  const pending = t.id === UNKNOWN ? pendingOf?.(t) : undefined;
  const who =
    pending ??
    (t.type === "slack_channel" || t.type === "msteams_channel"
      ? `channel ${named(t.id, names)}`
      : (names(String(t.id)) ?? `${t.type ?? "target"} ${named(t.id, names)}`));
  const details = [
    t.scheduleMode?.replace(/_/g, " "),
    t.selectedRotaId ? `rota ${t.selectedRotaId}` : undefined,
    t.urgency ? `${t.urgency} urgency` : undefined,
  ].filter(Boolean);
  return details.length ? `${who} (${details.join(", ")})` : who;
}

export function seconds(value: unknown): string {
  if (value === UNKNOWN) return KNOWN_AFTER_APPLY;
  if (typeof value !== "number") return "—";
  return value % 60 === 0 && value >= 60 ? `${value} s (${value / 60} min)` : `${value} s`;
}
