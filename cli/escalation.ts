/**
 * Escalation paths for reviewers: the tree drawn as a Mermaid flowchart (changed, added and removed
 * nodes marked), and who gets paged, in which order, before and after a change — for each priority
 * the path's branches name, when they branch on `escalation.priority`: only what changes in each
 * step, priorities that change alike said once.
 */
import { z } from "zod";
import { changesBetween } from "../provider/diff";
import {
  condition,
  conditionText,
  items,
  maybe,
  type Names,
  named,
  type Pending,
  type PendingTarget,
  part,
  partsText,
  pendingText,
  scalar,
  seconds,
  type TargetLike,
  type TargetParts,
  target,
  targetParts,
} from "./describe";

const differs = (a: unknown, b: unknown) => changesBetween(a, b).length > 0;

type Maybe<T> = T | Pending | null | undefined;

/** A node as a document holds it (canonical form: every node has an id), each part possibly unknown. */
export interface PathNode {
  id?: Maybe<string | number>;
  level?: Maybe<{
    targets?: Maybe<Maybe<TargetLike>[]>;
    timeToAckSeconds?: Maybe<number>;
    ackMode?: Maybe<string>;
    roundRobinConfig?: unknown;
  }>;
  notifyChannel?: Maybe<{ targets?: Maybe<Maybe<TargetLike>[]>; timeToAckSeconds?: Maybe<number> }>;
  ifElse?: Maybe<{
    conditions?: Maybe<Maybe<z.infer<typeof condition>>[]>;
    thenPath?: Maybe<Maybe<PathNode>[]>;
    elsePath?: Maybe<Maybe<PathNode>[]>;
  }>;
  repeat?: Maybe<{ repeatTimes?: Maybe<number>; toNode?: Maybe<string> }>;
  delay?: Maybe<{ delaySeconds?: Maybe<number> }>;
  voicemail?: unknown;
  /** Reassignment: the escalation is handed over to another path. */
  escalationPath?: Maybe<{ escalationPathId?: Maybe<string> }>;
  /** A node the document does not show (unknown, secret): what it reads as. Never in a document. */
  pending?: string;
}

/** The parts of an escalation path's node the report reads (recursively), as a document may hold them. */
export const pathNode: z.ZodType<PathNode> = z.lazy(() =>
  z.object({
    id: maybe(z.union([z.string(), z.number()])),
    level: maybe(
      z.object({
        targets: maybe(z.array(maybe(target))),
        timeToAckSeconds: maybe(z.number()),
        ackMode: maybe(z.string()),
        roundRobinConfig: z.unknown(),
      }),
    ),
    notifyChannel: maybe(
      z.object({ targets: maybe(z.array(maybe(target))), timeToAckSeconds: maybe(z.number()) }),
    ),
    ifElse: maybe(
      z.object({
        conditions: maybe(z.array(maybe(condition))),
        thenPath: maybe(z.array(maybe(pathNode))),
        elsePath: maybe(z.array(maybe(pathNode))),
      }),
    ),
    repeat: maybe(z.object({ repeatTimes: maybe(z.number()), toNode: maybe(z.string()) })),
    delay: maybe(z.object({ delaySeconds: maybe(z.number()) })),
    voicemail: z.unknown(),
    escalationPath: maybe(z.object({ escalationPathId: maybe(z.string()) })),
  }),
);

/** The nodes of a path; one the document does not show stands as a node saying so. */
export function nodesOf(path: Maybe<Maybe<PathNode>[]>): PathNode[] {
  return items(path).flatMap((n, i): PathNode[] => {
    const node = part(n);
    if (node) return [node];
    const pending = pendingText(n);
    return pending ? [{ id: `${i}: ${pending}`, pending }] : [];
  });
}

const idOf = (n: PathNode) => scalar(n.id);

export type Mark = "added" | "changed" | "removed";

export interface Describe {
  names: Names;
  /** Names a target whose id is known only after apply (a schedule being replaced). */
  pendingTarget?: (t: TargetLike) => PendingTarget | undefined;
}

/** Every node of a path, branches included, by id. */
export function nodesById(path: Maybe<Maybe<PathNode>[]>): Map<string, PathNode> {
  const out = new Map<string, PathNode>();
  const walk = (nodes: PathNode[]) => {
    for (const n of nodes) {
      out.set(idOf(n), n);
      const branch = part(n.ifElse);
      walk(nodesOf(branch?.thenPath));
      walk(nodesOf(branch?.elsePath));
    }
  };
  walk(nodesOf(path));
  return out;
}

/** A node without its branches' nodes: what a change to this node alone is judged on. */
function own(node: PathNode): unknown {
  const branch = part(node.ifElse);
  if (!branch) return node;
  return { ...node, ifElse: { conditions: branch.conditions } };
}

/** Which nodes differ between two paths, by node id: for the before diagram and the after diagram. */
export function pathMarks(
  before: Maybe<Maybe<PathNode>[]>,
  after: Maybe<Maybe<PathNode>[]>,
): { before: Map<string, Mark>; after: Map<string, Mark> } {
  const old = nodesById(before);
  const now = nodesById(after);
  const marksBefore = new Map<string, Mark>();
  const marksAfter = new Map<string, Mark>();
  for (const [id, node] of now) {
    const was = old.get(id);
    if (!was) marksAfter.set(id, "added");
    else if (differs(own(was), own(node))) {
      marksAfter.set(id, "changed");
      marksBefore.set(id, "changed");
    }
  }
  for (const id of old.keys()) if (!now.has(id)) marksBefore.set(id, "removed");
  return { before: marksBefore, after: marksAfter };
}

/** What a level or a channel notification pages, each target in parts. */
function targetsOf(
  n: PathNode,
  d: Describe,
): { verb: "pages" | "notifies"; targets: TargetParts[] } | undefined {
  const level = part(n.level);
  const notify = part(n.notifyChannel);
  const step = level ?? notify;
  if (!step) return undefined;
  const whole = pendingText(step.targets);
  const targets = whole
    ? [{ who: whole, details: [] }]
    : items(step.targets).map((t) => targetParts(t, d.names, d.pendingTarget));
  return { verb: level ? "pages" : "notifies", targets };
}

function ackOf(n: PathNode): unknown {
  return (part(n.level) ?? part(n.notifyChannel))?.timeToAckSeconds;
}

export function nodeText(n: PathNode, d: Describe): string {
  if (n.pending) return n.pending;
  const paging = targetsOf(n, d);
  if (paging) {
    const ack = ackOf(n);
    const who = paging.targets.map(partsText).join(" + ") || "nobody";
    return `${paging.verb} ${who}${ack === undefined || ack === null ? "" : `; ack within ${seconds(ack)}`}`;
  }
  const branch = part(n.ifElse);
  if (n.ifElse !== undefined && n.ifElse !== null)
    return `if ${
      pendingText(n.ifElse) ??
      pendingText(branch?.conditions) ??
      items(branch?.conditions)
        .map((c) => conditionText(c, d.names))
        .join(" and ")
    }`;
  const repeat = part(n.repeat);
  if (n.repeat !== undefined && n.repeat !== null)
    return `repeats from ${scalar(repeat?.toNode)} (${scalar(repeat?.repeatTimes)} times)`;
  if (n.delay !== undefined && n.delay !== null) return `waits ${seconds(part(n.delay)?.delaySeconds)}`;
  if (n.voicemail !== undefined && n.voicemail !== null && n.voicemail !== false) return "sends to voicemail";
  if (isReassign(n)) return `reassigns to ${reassignTarget(n, d)}`;
  return "does nothing";
}

/** A reassignment node (`escalationPath`), whatever the document shows of it. */
const isReassign = (n: PathNode) => n.escalationPath !== undefined && n.escalationPath !== null;

/** The path a reassignment hands over to: by the name the stack or the account gives it, else its id. */
function reassignTarget(n: PathNode, d: Describe): string {
  const whole = pendingText(n.escalationPath);
  if (whole) return `escalation path ${whole}`;
  const id = part(n.escalationPath)?.escalationPathId;
  const name = typeof id === "string" ? d.names(id) : undefined;
  return name ?? `escalation path ${named(id, d.names)}`;
}

// ---------------------------------------------------------------------------------- Mermaid

const CLASS_STYLES: Record<Mark, string> = {
  added: "fill:#dafbe1,stroke:#1a7f37,stroke-width:3px",
  changed: "fill:#fff8c5,stroke:#9a6700,stroke-width:3px",
  removed: "fill:#ffebe9,stroke:#cf222e,stroke-width:3px,stroke-dasharray:5 3",
};

/**
 * Label text for a quoted Mermaid string. Letters, digits, spaces and punctuation that means nothing
 * to Mermaid inside quotes stay; everything else is an entity code (`#35;`): quotes, `#`, `%` and
 * braces (so no text can end the string, make a directive `%%{…}%%` or a comment), backticks (no
 * Markdown string, no end of the code fence), angle brackets and `&` (no HTML). Line breaks and
 * invisible controls never reach it.
 */
function esc(text: string): string {
  return text
    .replace(/\r\n|[\n\r\v\f\u0085\u2028\u2029\t]/g, " ")
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}]/gu, "\uFFFD")
    .replace(/[^\p{L}\p{N}\p{M} ,.:;()\-_/+'?!@=*→–—…·]/gu, (c) => `#${c.codePointAt(0)};`);
}

function label(lines: string[]): string {
  return `"${lines.map(esc).join("<br>")}"`;
}

/**
 * A flowchart of the path: levels as boxes, branches as diamonds (yes / no), repeats as dotted
 * edges back; nodes in `marks` carry their class (and say so in their label, for readers without colour).
 */
export function escalationFlowchart(
  path: Maybe<Maybe<PathNode>[]>,
  marks: Map<string, Mark>,
  d: Describe,
): string {
  // Mermaid node keys: letters, digits and underscores, never a keyword (`end`), one per node id.
  const keys = new Map<string, string>();
  const used = new Set<string>(["alert", "finish"]);
  const key = (id: string) => {
    let k = keys.get(id);
    if (k) return k;
    const base = `n_${id.replace(/[^A-Za-z0-9_]/g, "_")}`;
    k = base;
    for (let i = 2; used.has(k); i++) k = `${base}_${i}`;
    keys.set(id, k);
    used.add(k);
    return k;
  };
  const lines = ["flowchart TD", `  alert(["alert escalated"])`];
  const edges: string[] = [];
  interface Exit {
    from: string;
    label?: string;
  }
  const connect = (exits: Exit[], to: string) => {
    for (const e of exits) edges.push(`  ${e.from} -->${e.label ? `|${e.label}|` : ""} ${to}`);
  };
  const walk = (nodes: PathNode[]): { entry?: string; exits: Exit[] } => {
    let entry: string | undefined;
    let pending: Exit[] = [];
    for (const n of nodes) {
      const id = idOf(n);
      const k = key(id);
      const mark = marks.get(id);
      const text = [`${kindTitle(n)} ${id}`, nodeText(n, d), ...(mark ? [`(${mark})`] : [])];
      const branch = part(n.ifElse);
      const repeat = part(n.repeat);
      lines.push(`  ${k}${branch ? `{${label(text)}}` : repeat ? `[[${label(text)}]]` : `[${label(text)}]`}`);
      connect(pending, k);
      entry ??= k;
      if (branch) {
        pending = [];
        for (const [sub, word] of [
          [nodesOf(branch.thenPath), "yes"],
          [nodesOf(branch.elsePath), "no"],
        ] as const) {
          const inner = walk(sub);
          if (inner.entry) {
            edges.push(`  ${k} -->|${word}| ${inner.entry}`);
            pending.push(...inner.exits);
          } else pending.push({ from: k, label: word });
        }
      } else if (repeat) {
        edges.push(`  ${k} -.->|again| ${key(scalar(repeat.toNode))}`);
        pending = [{ from: k, label: "after the repeats" }];
      } else if (isReassign(n)) {
        // The other path takes the escalation over: nothing of this path follows.
        pending = [];
      } else pending = [{ from: k }];
    }
    return { entry, exits: pending };
  };
  const { entry, exits } = walk(nodesOf(path));
  if (entry) edges.unshift(`  alert --> ${entry}`);
  lines.push(`  finish(["nobody acknowledged: escalation ends"])`);
  connect(entry ? exits : [{ from: "alert" }], "finish");
  lines.push(...edges);
  for (const mark of ["added", "changed", "removed"] as const) {
    const ids = [...marks].filter(([, m]) => m === mark).map(([id]) => key(id));
    if (ids.length === 0) continue;
    lines.push(`  classDef ${mark} ${CLASS_STYLES[mark]}`);
    lines.push(`  class ${ids.join(",")} ${mark}`);
  }
  return lines.join("\n");
}

function kindTitle(n: PathNode): string {
  if (part(n.level) ?? pendingText(n.level)) return "Level";
  if (part(n.notifyChannel) ?? pendingText(n.notifyChannel)) return "Notify";
  if (part(n.ifElse) ?? pendingText(n.ifElse)) return "Branch";
  if (part(n.repeat) ?? pendingText(n.repeat)) return "Repeat";
  if (part(n.delay) ?? pendingText(n.delay)) return "Delay";
  if (n.voicemail !== undefined && n.voicemail !== null && n.voicemail !== false) return "Voicemail";
  if (isReassign(n)) return "Reassign";
  return "Node";
}

// ---------------------------------------------------------------------------------- who gets paged

const PRIORITY = "escalation.priority";

function literalsOf(c: z.infer<typeof condition>): string[] {
  return items(c.paramBindings).flatMap((b) => {
    const binding = part(b);
    if (!binding) return [];
    const values =
      binding.arrayValue !== undefined && binding.arrayValue !== null
        ? items(binding.arrayValue)
        : [binding.value];
    return values.flatMap((v) => {
      const value = part(v);
      return value && typeof value.literal === "string" ? [value.literal] : [];
    });
  });
}

/** The priorities the path's branches name (only conditions `escalation.priority one_of …`). */
export function priorities(path: Maybe<Maybe<PathNode>[]>): string[] | undefined {
  const found = new Set<string>();
  let other = false;
  for (const n of nodesById(path).values()) {
    if (n.ifElse === undefined || n.ifElse === null) continue;
    const branch = part(n.ifElse);
    if (!branch || pendingText(branch.conditions)) other = true;
    for (const c of items(branch?.conditions)) {
      const cond = part(c);
      if (!cond || cond.subject !== PRIORITY || cond.operation !== "one_of") other = true;
      else for (const literal of literalsOf(cond)) found.add(literal);
    }
  }
  return other ? undefined : [...found].sort();
}

/** The nodes an escalation of `priority` (undefined: none of the named ones) goes through, in order. */
function sequence(path: Maybe<Maybe<PathNode>[]>, priority: string | undefined): PathNode[] {
  const out: PathNode[] = [];
  // A reassignment ends this path's steps: the other path takes the escalation over.
  let handedOver = false;
  const follow = (nodes: PathNode[]) => {
    for (const n of nodes) {
      if (handedOver) return;
      const branch = part(n.ifElse);
      if (branch) {
        const holds = items(branch.conditions).every((c) => {
          const cond = part(c);
          return cond !== undefined && priority !== undefined && literalsOf(cond).includes(priority);
        });
        follow(nodesOf(holds ? branch.thenPath : branch.elsePath));
      } else {
        out.push(n);
        if (isReassign(n)) handedOver = true;
      }
    }
  };
  follow(nodesOf(path));
  return out;
}

/** `escalation.working_hours["UK"]`: a branch on whether a working-hours window of the path is active. */
const WORKING_HOURS = /^escalation\.working_hours\["([^"]+)"\]$/;

/**
 * The first node an escalation of `priority` (undefined: none of the named ones) pages through —
 * a level or a channel notification, or a reassignment — at a moment when `active(id)` says
 * whether the path's working-hours window `id` is active. Branches on the priority (`one_of`) and
 * on working hours (`is_active`, as the Terraform provider's examples write them:
 * `escalation.working_hours["UK"]`) are followed; a branch on anything else cannot be decided
 * here: `undecided` names its condition.
 */
export function firstPagingNode(
  path: Maybe<Maybe<PathNode>[]>,
  priority: string | undefined,
  active: (windowId: string) => boolean | undefined,
  names: Names,
): { node?: PathNode; undecided?: string } {
  const follow = (nodes: PathNode[]): { node?: PathNode; undecided?: string } | undefined => {
    for (const n of nodes) {
      const branch = part(n.ifElse);
      if (n.ifElse !== undefined && n.ifElse !== null && !branch)
        return { undecided: nodeText(n, { names }) };
      if (branch) {
        let holds = true;
        for (const c of items(branch.conditions)) {
          const cond = part(c);
          const windowId =
            cond && typeof cond.subject === "string" ? WORKING_HOURS.exec(cond.subject)?.[1] : undefined;
          let verdict: boolean | undefined;
          if (cond?.subject === PRIORITY && cond.operation === "one_of")
            verdict = priority !== undefined && literalsOf(cond).includes(priority);
          else if (windowId !== undefined && cond?.operation === "is_active") verdict = active(windowId);
          if (verdict === undefined) return { undecided: conditionText(c, names) };
          holds &&= verdict;
        }
        const inner = follow(nodesOf(holds ? branch.thenPath : branch.elsePath));
        if (inner) return inner;
        continue;
      }
      if (targetsOf(n, { names }) || isReassign(n) || n.pending) return { node: n };
    }
    return undefined;
  };
  return follow(nodesOf(path)) ?? {};
}

/**
 * What changes in one step, in a reviewer's words: targets added (`+ pages …`) and removed
 * (`− notifies …`), a target paged otherwise, the time to acknowledge or to wait; the whole step
 * before → after when it becomes another kind of step. Empty when nothing a reviewer sees changes
 * (a node id).
 */
function stepChanges(was: PathNode | undefined, now: PathNode | undefined, d: Describe): string[] {
  if (!was) return now ? [`new: ${nodeText(now, d)}`] : [];
  if (!now) return [`removed (it ${nodeText(was, d)})`];
  const a = targetsOf(was, d);
  const b = targetsOf(now, d);
  if (!a || !b) {
    const [delayBefore, delayAfter] = [part(was.delay), part(now.delay)];
    if (delayBefore && delayAfter)
      return differs(delayBefore.delaySeconds ?? null, delayAfter.delaySeconds ?? null)
        ? [`waits ${seconds(delayBefore.delaySeconds)} → ${seconds(delayAfter.delaySeconds)}`]
        : [];
    const before = nodeText(was, d);
    const after = nodeText(now, d);
    return before === after ? [] : [`${before} → ${after}`];
  }
  const out: string[] = [];
  const byWho = (ts: TargetParts[]) => new Map(ts.map((t) => [t.who, t]));
  const old = byWho(a.targets);
  const neu = byWho(b.targets);
  for (const [who, t] of neu) {
    const o = old.get(who);
    if (!o) {
      out.push(`+ ${b.verb} ${partsText(t)}`);
      continue;
    }
    if (a.verb !== b.verb) out.push(`${who}: ${a.verb} → ${b.verb}`);
    if (o.note !== t.note) out.push(`${who} → ${t.note ?? "known"}`);
    const [od, nd] = [o.details.join(", "), t.details.join(", ")];
    if (od !== nd) out.push(`${who}: ${od || "—"} → ${nd || "—"}`);
  }
  for (const [who, t] of old) if (!neu.has(who)) out.push(`− ${a.verb} ${partsText(t)}`);
  const [ackBefore, ackAfter] = [ackOf(was), ackOf(now)];
  if (differs(ackBefore ?? null, ackAfter ?? null))
    out.push(
      `ack within ${ackBefore === undefined || ackBefore === null ? "—" : seconds(ackBefore)} → ${ackAfter === undefined || ackAfter === null ? "—" : seconds(ackAfter)}`,
    );
  const [modeBefore, modeAfter] = [part(was.level)?.ackMode, part(now.level)?.ackMode];
  if (differs(modeBefore ?? null, modeAfter ?? null))
    out.push(`acknowledged by ${scalar(modeBefore, "all")} → ${scalar(modeAfter, "all")}`);
  if (differs(part(was.level)?.roundRobinConfig ?? null, part(now.level)?.roundRobinConfig ?? null))
    out.push(
      `round robin ${scalar(part(was.level)?.roundRobinConfig, "off")} → ${scalar(part(now.level)?.roundRobinConfig, "off")}`,
    );
  return out;
}

/** One group of escalations that change alike: who (`Priorities P1, P2`) and each step's change. */
export interface PagingChange {
  who: string;
  /** `step 2: + pages bob@example.com (high urgency)`. */
  steps: string[];
}

/** A paging change as one line of the JSON report's summary. */
export const pagingLine = (p: PagingChange) => `${p.who} — ${p.steps.join("; ")}`;

export function groupName(members: (string | undefined)[], named: string[]): string {
  const listed = members.filter((m): m is string => m !== undefined);
  const other = members.includes(undefined);
  if (named.length === 0) return "Every escalation";
  if (other && listed.length === named.length) return "Every priority";
  if (listed.length === 0) return "Any other priority";
  const head = listed.length === 1 ? `Priority ${listed[0]}` : `Priorities ${listed.join(", ")}`;
  return other ? `${head} and any other priority` : head;
}

/**
 * Who gets paged differently: per priority the branches name (and "any other priority"), each step
 * whose paging changes, and only what changes in it; priorities that change alike are one group.
 * When branches test something else: one entry per changed, added or removed node.
 */
export function pagingChanges(
  before: Maybe<Maybe<PathNode>[]>,
  after: Maybe<Maybe<PathNode>[]>,
  d: Describe,
): PagingChange[] {
  const oldPriorities = priorities(before);
  const newPriorities = priorities(after);
  if (oldPriorities !== undefined && newPriorities !== undefined) {
    const named = [...new Set([...oldPriorities, ...newPriorities])].sort();
    const groups = new Map<string, { members: (string | undefined)[]; steps: string[] }>();
    for (const p of [...named, undefined]) {
      const was = sequence(before, p);
      const now = sequence(after, p);
      const steps: string[] = [];
      for (let i = 0; i < Math.max(was.length, now.length); i++) {
        const change = stepChanges(was[i], now[i], d);
        if (change.length) steps.push(`step ${i + 1}: ${change.join(", ")}`);
      }
      if (steps.length === 0) continue;
      const key = JSON.stringify(steps);
      const group = groups.get(key) ?? { members: [], steps };
      group.members.push(p);
      groups.set(key, group);
    }
    return [...groups.values()].map((g) => ({ who: groupName(g.members, named), steps: g.steps }));
  }
  const marks = pathMarks(before, after);
  const old = nodesById(before);
  const now = nodesById(after);
  const out: PagingChange[] = [];
  for (const [id, mark] of marks.after) {
    const n = now.get(id)!;
    if (mark === "added") {
      out.push({ who: `New node ${id}`, steps: [nodeText(n, d)] });
      continue;
    }
    const was = old.get(id)!;
    const change = targetsOf(was, d) && targetsOf(n, d) ? stepChanges(was, n, d) : [];
    out.push({
      who: `Node ${id}`,
      steps: change.length ? change : [`before: ${nodeText(was, d)}`, `after: ${nodeText(n, d)}`],
    });
  }
  for (const [id, mark] of marks.before)
    if (mark === "removed")
      out.push({ who: `Node ${id} removed`, steps: [`it ${nodeText(old.get(id)!, d)}`] });
  return out;
}
