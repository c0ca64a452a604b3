/**
 * "Who gets paged / what opens an incident": for alert routes, escalation paths and schedules, the
 * change said in a reviewer's words — each question answered before and after, only where the
 * answer changed. Read from the canonical inputs (form-only differences never show).
 */
import { changesBetween } from "../provider/diff";

const differs = (a: unknown, b: unknown) => changesBetween(a, b).length > 0;

import type { Props } from "../provider/spec";
import { attributeReference, bindingText, conditionGroupsText, type Names, named, seconds } from "./describe";
import { type Describe, type PathNode, pagingChanges } from "./escalation";

type Question = [question: string, answer: (p: Props) => string];

/** Both sides of a change: canonical (decides what changed) and as declared (what is shown). */
export interface Sides {
  before: Props | undefined;
  after: Props | undefined;
}

function answered(questions: Question[], canonical: Sides, declared: Sides): string[] {
  const out: string[] = [];
  for (const [question, answer] of questions) {
    const meaningBefore = canonical.before ? answer(canonical.before) : undefined;
    const meaningAfter = canonical.after ? answer(canonical.after) : undefined;
    if (meaningBefore === meaningAfter) continue;
    // Shown as the program spells it; a form-only difference never gets here.
    const was = declared.before ? answer(declared.before) : undefined;
    const now = declared.after ? answer(declared.after) : undefined;
    if (was === undefined) out.push(`${question}: ${now}`);
    else if (now === undefined) out.push(`${question}: no longer (was: ${was})`);
    else out.push(`${question}: ${was} → ${now}`);
  }
  return out;
}

function routeQuestions(names: Names): Question[] {
  return [
    ["Route enabled", (p) => (p.enabled === false ? "no" : "yes")],
    [
      "Alerts it takes",
      (p) =>
        (p.alertSources ?? [])
          .map(
            (s: Props) =>
              `from ${named(s.alertSourceId, names)} when ${conditionGroupsText(s.conditionGroups, names)}`,
          )
          .join("; ") || "none",
    ],
    ["Route conditions", (p) => conditionGroupsText(p.conditionGroups, names)],
    [
      "Opens an incident",
      (p) =>
        p.incidentConfig?.enabled
          ? `yes, when ${conditionGroupsText(p.incidentConfig.conditionGroups, names)}${p.incidentConfig.autoDeclineEnabled ? " (auto-declined)" : ""}`
          : "no",
    ],
    [
      "Escalates to",
      (p) =>
        (p.escalationConfig?.escalationTargets ?? [])
          .map((t: Props) =>
            [
              t.escalationPaths && `escalation path ${bindingText(t.escalationPaths, names)}`,
              t.users && `users ${bindingText(t.users, names)}`,
            ]
              .filter(Boolean)
              .join(" and "),
          )
          .join("; ") || "nobody",
    ],
    [
      "Groups alerts",
      (p) =>
        p.groupingConfig?.enabled
          ? `by ${(p.groupingConfig.groupingKeys ?? []).map((k: string) => attributeReference(k, names)).join(", ") || "everything"} within ${seconds(p.groupingConfig.windowSeconds)}`
          : "no",
    ],
  ];
}

function scheduleQuestions(names: Names): Question[] {
  const version = (r: Props) => (r.versions ?? [])[(r.versions ?? []).length - 1] ?? {};
  const perRotation = (p: Props, describe: (r: Props) => string) =>
    (p.rotations ?? []).map((r: Props) => `${r.id}: ${describe(r)}`).join("; ") || "no rotations";
  return [
    ["Time zone", (p) => String(p.timezone)],
    [
      "Who is on the rota",
      (p) =>
        perRotation(p, (r) =>
          (version(r).users ?? [])
            .map((u: Props) => (u.email ? String(u.email) : named(u.id, names)))
            .join(", "),
        ),
    ],
    [
      "Hand-overs",
      (p) =>
        perRotation(
          p,
          (r) =>
            `${(version(r).handovers ?? []).map((h: Props) => `every ${h.interval} ${h.intervalType}`).join(" + ")} from ${version(r).handoverStartAt}`,
        ),
    ],
    [
      "Working hours",
      (p) =>
        perRotation(
          p,
          (r) =>
            (version(r).workingIntervals ?? [])
              .map((w: Props) => `${w.weekday} ${w.startTime}–${w.endTime}`)
              .join(", ") || "around the clock",
        ),
    ],
  ];
}

/**
 * The summary lines of one resource's change, for the kinds that decide who is paged or what
 * opens an incident; undefined for other kinds. A side is undefined for a create / a delete.
 */
export function changeSummary(
  kind: string,
  canonical: Sides,
  declared: Sides,
  d: Describe,
): string[] | undefined {
  if (kind === "AlertRoute") return answered(routeQuestions(d.names), canonical, declared);
  if (kind === "Schedule") return answered(scheduleQuestions(d.names), canonical, declared);
  const { before, after } = canonical;
  if (kind === "EscalationPath") {
    if (!before || !after) {
      const p = (after ?? before)!;
      const lines = pagingChanges([], (p.path ?? []) as PathNode[], d);
      return before ? ["Deleted: nothing pages through it any more"] : lines;
    }
    const lines = pagingChanges((before.path ?? []) as PathNode[], (after.path ?? []) as PathNode[], d);
    if (differs(before.repeatConfig, after.repeatConfig)) lines.push("Repeat settings changed");
    if (differs(before.workingHours, after.workingHours)) lines.push("Working hours changed");
    return lines;
  }
  return undefined;
}
