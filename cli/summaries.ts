/**
 * "Who gets paged / what opens an incident": for alert routes, escalation paths, schedules, schedule
 * overrides (who covers, when) and call routes (what a call pages), the
 * change said in a reviewer's words — each question answered before and after, only where the
 * answer changed. Read from the canonical inputs (form-only differences never show), through the
 * schemas of the parts read (`READERS`: a document whose inputs do not fit is refused, naming the
 * field, before anything reads it).
 */
import { z } from "zod";
import { changesBetween } from "../provider/diff";
import type { Props } from "../provider/spec";
import {
  attributeReference,
  binding,
  bindingText,
  conditionGroup,
  conditionGroupsText,
  items,
  maybe,
  type Names,
  named,
  part,
  pendingText,
  scalar,
  seconds,
  target,
  targetText,
} from "./describe";
import {
  type Describe,
  type PagingChange,
  type PathNode,
  pagingChanges,
  pagingLine,
  pathNode,
} from "./escalation";

const differs = (a: unknown, b: unknown) => changesBetween(a, b).length > 0;

const groups = maybe(z.array(maybe(conditionGroup)));

/** A call route's path, or a menu option's. */
const callRoutePath = maybe(
  z.array(
    maybe(
      z.object({
        level: maybe(z.object({ targets: maybe(z.array(maybe(target))) })),
        voicemail: maybe(z.object({ greetingText: maybe(z.string()) })),
      }),
    ),
  ),
);

/** The parts of each kind's inputs the summaries read (every part optional, unknown or secret). */
export const READERS: Record<string, z.ZodType<Props>> = {
  AlertRoute: z.object({
    enabled: maybe(z.boolean()),
    alertSources: maybe(
      z.array(maybe(z.object({ alertSourceId: maybe(z.string()), conditionGroups: groups }))),
    ),
    conditionGroups: groups,
    incidentConfig: maybe(
      z.object({
        enabled: maybe(z.boolean()),
        conditionGroups: groups,
        autoDeclineEnabled: maybe(z.boolean()),
      }),
    ),
    escalationConfig: maybe(
      z.object({
        escalationTargets: maybe(
          z.array(maybe(z.object({ escalationPaths: maybe(binding), users: maybe(binding) }))),
        ),
      }),
    ),
    groupingConfig: maybe(
      z.object({
        enabled: maybe(z.boolean()),
        groupingKeys: maybe(z.array(maybe(z.string()))),
        windowSeconds: maybe(z.number()),
      }),
    ),
  }),
  Schedule: z.object({
    timezone: maybe(z.string()),
    rotations: maybe(
      z.array(
        maybe(
          z.object({
            id: maybe(z.string()),
            versions: maybe(
              z.array(
                maybe(
                  z.object({
                    users: maybe(
                      z.array(maybe(z.object({ id: maybe(z.string()), email: maybe(z.string()) }))),
                    ),
                    handovers: maybe(
                      z.array(
                        maybe(z.object({ interval: maybe(z.number()), intervalType: maybe(z.string()) })),
                      ),
                    ),
                    handoverStartAt: maybe(z.string()),
                    workingIntervals: maybe(
                      z.array(
                        maybe(
                          z.object({
                            weekday: maybe(z.string()),
                            startTime: maybe(z.string()),
                            endTime: maybe(z.string()),
                          }),
                        ),
                      ),
                    ),
                  }),
                ),
              ),
            ),
          }),
        ),
      ),
    ),
  }),
  EscalationPath: z.object({
    kind: maybe(z.string()),
    templateId: maybe(z.string()),
    paramBindings: maybe(z.record(z.string(), maybe(binding))),
    path: maybe(z.array(maybe(pathNode))),
    repeatConfig: z.unknown(),
    workingHours: z.unknown(),
  }),
  ScheduleOverride: z.object({
    scheduleId: maybe(z.string()),
    rotationId: maybe(z.string()),
    layerId: maybe(z.string()),
    user: maybe(
      z.object({ id: maybe(z.string()), email: maybe(z.string()), slackUserId: maybe(z.string()) }),
    ),
    startAt: maybe(z.string()),
    endAt: maybe(z.string()),
  }),
  CallRoute: z.object({
    useCallerAllowlist: maybe(z.boolean()),
    responderCallerId: maybe(z.string()),
    path: callRoutePath,
    allowedCallers: maybe(
      z.array(maybe(z.object({ phoneNumber: maybe(z.string()), name: maybe(z.string()) }))),
    ),
    options: maybe(
      z.array(maybe(z.object({ digit: maybe(z.string()), prompt: maybe(z.string()), path: callRoutePath }))),
    ),
  }),
  EscalationPathTemplate: z.object({
    path: maybe(z.array(maybe(pathNode))),
    params: z.unknown(),
    repeatConfig: z.unknown(),
    workingHours: z.unknown(),
  }),
};

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

/** A list's entries as text, `empty` for none; what the document does not show said so. */
function listText<T>(value: unknown, each: (v: T) => string, separator: string, empty: string): string {
  const pending = pendingText(value);
  if (pending) return pending;
  // An entry the document holds as null says nothing: shown as such, never read into.
  const texts = items(value as T[]).map(
    (v) => pendingText(v) ?? (v === null || v === undefined ? "none" : each(v)),
  );
  return texts.join(separator) || empty;
}

function routeQuestions(names: Names): Question[] {
  return [
    ["Route enabled", (p) => (p.enabled === false ? "no" : (pendingText(p.enabled) ?? "yes"))],
    [
      "Alerts it takes",
      (p) =>
        listText<Props>(
          p.alertSources,
          (s) =>
            `from ${named(s.alertSourceId, names)} when ${conditionGroupsText(s.conditionGroups, names)}`,
          "; ",
          "none",
        ),
    ],
    ["Route conditions", (p) => conditionGroupsText(p.conditionGroups, names)],
    [
      "Opens an incident",
      (p) => {
        const config = part<Props>(p.incidentConfig);
        if (!config) return pendingText(p.incidentConfig) ?? "no";
        if (!config.enabled) return pendingText(config.enabled) ?? "no";
        return `yes, when ${conditionGroupsText(config.conditionGroups, names)}${config.autoDeclineEnabled === true ? " (auto-declined)" : ""}`;
      },
    ],
    [
      "Escalates to",
      (p) => {
        const config = part<Props>(p.escalationConfig);
        if (!config) return pendingText(p.escalationConfig) ?? "nobody";
        return listText<Props>(
          config.escalationTargets,
          (t) =>
            [
              t.escalationPaths && `escalation path ${bindingText(t.escalationPaths, names)}`,
              t.users && `users ${bindingText(t.users, names)}`,
            ]
              .filter(Boolean)
              .join(" and "),
          "; ",
          "nobody",
        );
      },
    ],
    [
      "Groups alerts",
      (p) => {
        const config = part<Props>(p.groupingConfig);
        if (!config) return pendingText(p.groupingConfig) ?? "no";
        if (!config.enabled) return pendingText(config.enabled) ?? "no";
        const keys = listText<string>(
          config.groupingKeys,
          (k) => attributeReference(k, names),
          ", ",
          "everything",
        );
        return `by ${keys} within ${seconds(config.windowSeconds)}`;
      },
    ],
  ];
}

function scheduleQuestions(names: Names): Question[] {
  const version = (r: Props): Props => {
    const versions = items<Props>(r.versions);
    return part<Props>(versions[versions.length - 1]) ?? {};
  };
  const perRotation = (p: Props, describe: (r: Props) => string) =>
    listText<Props>(p.rotations, (r) => `${scalar(r.id)}: ${describe(r)}`, "; ", "no rotations");
  return [
    ["Time zone", (p) => scalar(p.timezone)],
    [
      "Who is on the rota",
      (p) =>
        perRotation(p, (r) =>
          listText<Props>(
            version(r).users,
            (u) => (u.email !== undefined && u.email !== null ? scalar(u.email) : named(u.id, names)),
            ", ",
            "nobody",
          ),
        ),
    ],
    [
      "Hand-overs",
      (p) =>
        perRotation(
          p,
          (r) =>
            `${listText<Props>(version(r).handovers, (h) => `every ${scalar(h.interval)} ${scalar(h.intervalType)}`, " + ", "none")} from ${scalar(version(r).handoverStartAt)}`,
        ),
    ],
    [
      "Working hours",
      (p) =>
        perRotation(p, (r) =>
          listText<Props>(
            version(r).workingIntervals,
            (w) => `${scalar(w.weekday)} ${scalar(w.startTime)}–${scalar(w.endTime)}`,
            ", ",
            "around the clock",
          ),
        ),
    ],
  ];
}

/** A user reference (`{id}`, `{email}` or `{slackUserId}`) as text. */
function userText(value: unknown, names: Names): string {
  const pending = pendingText(value);
  if (pending) return pending;
  const u = part<Props>(value as Props);
  if (!u) return "?";
  if (u.email !== undefined && u.email !== null) return scalar(u.email);
  if (u.slackUserId !== undefined && u.slackUserId !== null) return `Slack user ${scalar(u.slackUserId)}`;
  return named(u.id, names);
}

function overrideQuestions(names: Names): Question[] {
  return [
    ["Who covers", (p) => userText(p.user, names)],
    ["When", (p) => `from ${scalar(p.startAt)} to ${scalar(p.endAt)}`],
    [
      "On",
      (p) =>
        `schedule ${named(p.scheduleId, names)}, rotation ${scalar(p.rotationId)}, layer ${scalar(p.layerId)}`,
    ],
  ];
}

function callRouteQuestions(names: Names): Question[] {
  const pathText = (path: unknown) =>
    listText<Props>(
      path,
      (n) => {
        const level = part<Props>(n.level);
        if (level) return listText<Props>(level.targets, (t) => targetText(t, names), " + ", "nobody");
        return n.voicemail !== undefined && n.voicemail !== null ? "voicemail" : "?";
      },
      ", then ",
      "nothing",
    );
  const menu = (p: Props) => part<unknown[]>(p.options as unknown[]);
  return [
    [
      "A call pages",
      (p) => {
        const options = menu(p);
        // A menu replaces the path: each digit pages its own.
        if (options && options.length > 0)
          return `a menu: ${listText<Props>(options, (o) => `${scalar(o.digit)} (${scalar(o.prompt)}): ${pathText(o.path)}`, "; ", "")}`;
        return p.path === undefined || p.path === null
          ? "as the route has it (its menu or its path)"
          : pathText(p.path);
      },
    ],
    [
      "Callers",
      (p) => {
        if (p.useCallerAllowlist !== true) return pendingText(p.useCallerAllowlist) ?? "anyone";
        if (p.allowedCallers === undefined || p.allowedCallers === null) return "allowlisted only";
        const numbers = listText<Props>(
          p.allowedCallers,
          (c) => `${scalar(c.phoneNumber)}${c.name ? ` (${scalar(c.name)})` : ""}`,
          ", ",
          "none",
        );
        return `allowlisted only: ${numbers}`;
      },
    ],
    ["Responders see the call from", (p) => scalar(p.responderCallerId).replace(/_/g, " ")],
  ];
}

/**
 * A templated escalation path pages as its template says: which template, and what its parameters
 * are bound to, when that changes (or on create).
 */
function templateLines(before: Props | undefined, after: Props, d: Describe): string[] {
  const describe = (p: Props | undefined) => {
    if (!p || scalar(p.kind, "standalone") !== "templated") return undefined;
    const bindings = part<Record<string, unknown>>(p.paramBindings as Record<string, unknown>);
    const bound = bindings
      ? Object.entries(bindings)
          .map(
            ([name, b]) => `${name} = ${bindingText(b as Parameters<typeof bindingText>[0], d.names) || "?"}`,
          )
          .join(", ")
      : pendingText(p.paramBindings);
    return `as template ${named(p.templateId, d.names)} says${bound ? ` (${bound})` : ""}`;
  };
  const was = describe(before);
  const now = describe(after);
  if (was === now || now === undefined)
    return was !== undefined && now === undefined ? ["Who gets paged: no longer from a template"] : [];
  return [`Who gets paged: ${before ? `${was ?? "its own nodes"} → ` : ""}${now}`];
}

/** A resource's summary: lines in words, and for escalation paths the paging changes they come from. */
export interface Summary {
  lines: string[];
  paging?: PagingChange[];
}

/**
 * The summary of one resource's change, for the kinds that decide who is paged or what opens an
 * incident; undefined for other kinds. A side is undefined for a create / a delete. The sides have
 * passed `READERS[kind]`.
 */
export function changeSummary(
  kind: string,
  canonical: Sides,
  declared: Sides,
  d: Describe,
): Summary | undefined {
  if (kind === "AlertRoute") return { lines: answered(routeQuestions(d.names), canonical, declared) };
  if (kind === "Schedule") return { lines: answered(scheduleQuestions(d.names), canonical, declared) };
  if (kind === "ScheduleOverride")
    return { lines: answered(overrideQuestions(d.names), canonical, declared) };
  if (kind === "CallRoute") {
    // The API cannot delete a call route: the resource's delete puts back what the route held.
    if (canonical.before && !canonical.after)
      return {
        lines: [
          "Taken out of the stack: the call route stays, put back to what it held before the stack took it over",
        ],
      };
    return { lines: answered(callRouteQuestions(d.names), canonical, declared) };
  }
  const { before, after } = canonical;
  if (kind === "EscalationPath" || kind === "EscalationPathTemplate") {
    if (!before && !after) return undefined;
    if (before && !after)
      return {
        lines: [
          kind === "EscalationPath"
            ? "Deleted: nothing pages through it any more"
            : "Deleted (archived): no path can be built from it any more",
        ],
      };
    const template = templateLines(before, after!, d);
    // A path the document does not show (unknown in a preview, or secret): said, not guessed at.
    const hidden = [before?.path, after!.path].map(pendingText);
    if (hidden.some((h) => h !== undefined))
      return {
        lines: [
          `Who gets paged: ${before ? (hidden[0] ?? "as declared") : "—"} → ${hidden[1] ?? "as declared"}`,
        ],
      };
    const paging = pagingChanges(before?.path as PathNode[] | undefined, after!.path as PathNode[], d);
    const lines = [...template, ...paging.map(pagingLine)];
    if (before && differs(before.repeatConfig, after!.repeatConfig)) lines.push("Repeat settings changed");
    if (before && differs(before.workingHours, after!.workingHours)) lines.push("Working hours changed");
    return { lines, paging };
  }
  return undefined;
}
