/**
 * Escalation paths for reviewers: the tree drawn as a Mermaid flowchart (changed, added and removed
 * nodes marked), and who gets paged, in which order, before and after a change — for each priority
 * the path's branches name, when they branch on `escalation.priority`.
 */
import { changesBetween } from "../provider/diff";

const differs = (a: unknown, b: unknown) => changesBetween(a, b).length > 0;

import { conditionText, type Names, seconds, type TargetLike, targetText } from "./describe";

/** A node in the canonical form (every node has an id), loosely typed: it comes from a document. */
export interface PathNode {
  id: string;
  level?: {
    targets?: TargetLike[];
    timeToAckSeconds?: unknown;
    ackMode?: string;
    roundRobinConfig?: unknown;
  };
  notifyChannel?: { targets?: TargetLike[]; timeToAckSeconds?: unknown };
  ifElse?: {
    conditions?: Parameters<typeof conditionText>[0][];
    thenPath?: PathNode[];
    elsePath?: PathNode[];
  };
  repeat?: { repeatTimes?: number; toNode?: string };
  delay?: { delaySeconds?: unknown };
  voicemail?: boolean;
}

export type Mark = "added" | "changed" | "removed";

export interface Describe {
  names: Names;
  /** Names a target whose id is known only after apply (a schedule being replaced). */
  pendingTarget?: (t: TargetLike) => string | undefined;
}

/** Every node of a path, branches included, by id. */
export function nodesById(path: PathNode[]): Map<string, PathNode> {
  const out = new Map<string, PathNode>();
  const walk = (nodes: PathNode[]) => {
    for (const n of nodes) {
      out.set(String(n.id), n);
      walk(n.ifElse?.thenPath ?? []);
      walk(n.ifElse?.elsePath ?? []);
    }
  };
  walk(path);
  return out;
}

/** A node without its branches' nodes: what a change to this node alone is judged on. */
function own(node: PathNode): unknown {
  if (!node.ifElse) return node;
  return { ...node, ifElse: { conditions: node.ifElse.conditions } };
}

/** Which nodes differ between two paths, by node id: for the before diagram and the after diagram. */
export function pathMarks(
  before: PathNode[],
  after: PathNode[],
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

export function nodeText(n: PathNode, d: Describe): string {
  const targets = (ts: TargetLike[] | undefined) =>
    (ts ?? []).map((t) => targetText(t, d.names, d.pendingTarget));
  if (n.level) {
    const ack =
      n.level.timeToAckSeconds === undefined ? "" : `; ack within ${seconds(n.level.timeToAckSeconds)}`;
    return `pages ${targets(n.level.targets).join(" + ") || "nobody"}${ack}`;
  }
  if (n.notifyChannel) {
    const ack =
      n.notifyChannel.timeToAckSeconds === undefined
        ? ""
        : `; ack within ${seconds(n.notifyChannel.timeToAckSeconds)}`;
    return `notifies ${targets(n.notifyChannel.targets).join(" + ")}${ack}`;
  }
  if (n.ifElse)
    return `if ${(n.ifElse.conditions ?? []).map((c) => conditionText(c, d.names)).join(" and ")}`;
  if (n.repeat) return `repeats from ${n.repeat.toNode} (${n.repeat.repeatTimes ?? "?"} times)`;
  if (n.delay) return `waits ${seconds(n.delay.delaySeconds)}`;
  if (n.voicemail) return "sends to voicemail";
  return "does nothing";
}

// ---------------------------------------------------------------------------------- Mermaid

const CLASS_STYLES: Record<Mark, string> = {
  added: "fill:#dafbe1,stroke:#1a7f37,stroke-width:3px",
  changed: "fill:#fff8c5,stroke:#9a6700,stroke-width:3px",
  removed: "fill:#ffebe9,stroke:#cf222e,stroke-width:3px,stroke-dasharray:5 3",
};

/** Mermaid node ids: letters, digits and underscores, never a keyword (`end`). */
const key = (id: string) => `n_${id.replace(/[^A-Za-z0-9_]/g, "_")}`;

/** Label text in a quoted Mermaid string: quotes and angle brackets as entity codes, lines as <br>. */
function label(lines: string[]): string {
  const esc = (t: string) =>
    t.replace(/&/g, "#amp;").replace(/"/g, "#quot;").replace(/</g, "#lt;").replace(/>/g, "#gt;");
  return `"${lines.map(esc).join("<br>")}"`;
}

/**
 * A flowchart of the path: levels as boxes, branches as diamonds (yes / no), repeats as dotted
 * edges back; nodes in `marks` carry their class (and say so in their label, for readers without colour).
 */
export function escalationFlowchart(path: PathNode[], marks: Map<string, Mark>, d: Describe): string {
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
      const k = key(String(n.id));
      const mark = marks.get(String(n.id));
      const text = [`${kindTitle(n)} ${n.id}`, nodeText(n, d), ...(mark ? [`(${mark})`] : [])];
      lines.push(
        `  ${k}${n.ifElse ? `{${label(text)}}` : n.repeat ? `[[${label(text)}]]` : `[${label(text)}]`}`,
      );
      connect(pending, k);
      entry ??= k;
      if (n.ifElse) {
        pending = [];
        for (const [branch, word] of [
          [n.ifElse.thenPath ?? [], "yes"],
          [n.ifElse.elsePath ?? [], "no"],
        ] as const) {
          const sub = walk(branch);
          if (sub.entry) {
            edges.push(`  ${k} -->|${word}| ${sub.entry}`);
            pending.push(...sub.exits);
          } else pending.push({ from: k, label: word });
        }
      } else if (n.repeat) {
        edges.push(`  ${k} -.->|again| ${key(String(n.repeat.toNode))}`);
        pending = [{ from: k, label: "after the repeats" }];
      } else pending = [{ from: k }];
    }
    return { entry, exits: pending };
  };
  const { entry, exits } = walk(path);
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
  if (n.level) return "Level";
  if (n.notifyChannel) return "Notify";
  if (n.ifElse) return "Branch";
  if (n.repeat) return "Repeat";
  if (n.delay) return "Delay";
  if (n.voicemail) return "Voicemail";
  return "Node";
}

// ---------------------------------------------------------------------------------- who gets paged

const PRIORITY = "escalation.priority";

/** The priorities the path's branches name (only conditions `escalation.priority one_of …`). */
function priorities(path: PathNode[]): string[] | undefined {
  const found = new Set<string>();
  let other = false;
  for (const n of nodesById(path).values()) {
    for (const c of n.ifElse?.conditions ?? []) {
      if (c.subject !== PRIORITY || c.operation !== "one_of") other = true;
      for (const b of c.paramBindings ?? [])
        for (const v of b.arrayValue ?? (b.value ? [b.value] : [])) if (v.literal) found.add(v.literal);
    }
  }
  return other ? undefined : [...found].sort();
}

/** What an escalation of `priority` (undefined: none of the named ones) goes through, in order. */
function sequence(path: PathNode[], priority: string | undefined, d: Describe): string[] {
  const out: string[] = [];
  const follow = (nodes: PathNode[]) => {
    for (const n of nodes) {
      if (n.ifElse) {
        const holds = (n.ifElse.conditions ?? []).every((c) =>
          (c.paramBindings ?? []).some((b) =>
            (b.arrayValue ?? (b.value ? [b.value] : [])).some((v) => v.literal === priority),
          ),
        );
        follow(holds ? (n.ifElse.thenPath ?? []) : (n.ifElse.elsePath ?? []));
      } else out.push(`${n.id}: ${nodeText(n, d)}`);
    }
  };
  follow(path);
  return out;
}

/**
 * Who gets paged differently: per priority the branches name (and "any other priority"), the
 * sequence before and after when it changed; else, when branches test something else, one line per
 * changed, added or removed node.
 */
export function pagingChanges(before: PathNode[], after: PathNode[], d: Describe): string[] {
  const named = [...new Set([...(priorities(before) ?? []), ...(priorities(after) ?? [])])].sort();
  const simulable = priorities(before) !== undefined && priorities(after) !== undefined;
  if (simulable) {
    const out: string[] = [];
    for (const p of [...named, undefined]) {
      const was = sequence(before, p, d);
      const now = sequence(after, p, d);
      if (!differs(was, now)) continue;
      const who =
        p === undefined ? (named.length ? "Any other priority" : "Every escalation") : `Priority ${p}`;
      const steps: string[] = [];
      for (let i = 0; i < Math.max(was.length, now.length); i++) {
        if (was[i] === now[i]) continue;
        steps.push(`step ${i + 1}: ${was[i] ?? "(none)"} → ${now[i] ?? "(none)"}`);
      }
      out.push(`${who} — ${steps.join("; ")}`);
    }
    return out;
  }
  const marks = pathMarks(before, after);
  const old = nodesById(before);
  const now = nodesById(after);
  const out: string[] = [];
  for (const [id, mark] of marks.after) {
    const n = now.get(id)!;
    out.push(
      mark === "added"
        ? `New node ${id}: ${nodeText(n, d)}`
        : `Node ${id} — before: ${nodeText(old.get(id)!, d)}; after: ${nodeText(n, d)}`,
    );
  }
  for (const [id, mark] of marks.before)
    if (mark === "removed") out.push(`Node ${id} removed (it ${nodeText(old.get(id)!, d)})`);
  return out;
}
