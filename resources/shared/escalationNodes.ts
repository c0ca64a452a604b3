/**
 * The nodes of an escalation path, shared by escalation paths (`EscalationPathNodeV2`) and escalation
 * path templates (`EscalationPathTemplateNodeV2`): the two trees differ only in their targets (a
 * template's target is a concrete id or a parameter `binding`) and in voicemail (a template refuses
 * it). One zod schema factory, one mapping to the payload, one read-back with the named normalisation
 * rules, one canonical form and one set of tree rules (unique node ids, repeats, working-hours
 * references) for both.
 *
 * The parts both kinds take whole (retry and round-robin settings, repeats, delays, reassignments,
 * the repeat config, working hours, the target type and schedule mode) are exported zod schemas: the
 * generator declares each once in the shared module (`EscalationRepeatArgs`, …). The trees
 * themselves differ (targets), so each kind builds its node schema with `escalationNodeSchemas` and
 * names its node types after its own interfaces, whose parts are `Io<schema, M>`: the schema's input
 * (`M = "in"`, what a program writes) or output (`"out"`) type.
 */
import { z } from "zod";
import {
  knownValues,
  type OrOther,
  passedOn,
  warnIn,
  warnPassedOn,
  warnUnless,
} from "../../provider/checkWarnings";
import { clockEnd, clockTime, idText, nameText } from "../../provider/inputs";
import { caseMappedObject } from "../../provider/naming";
import { dedupe } from "../../provider/normalise";
import type { Problem } from "../../provider/spec";
import { formatPath, type Path } from "../../provider/unknowns";
import {
  type ApiBinding,
  bindingFromApi,
  bindingPayload,
  type Condition,
  canonicalBinding,
  canonicalConditionGroups,
  condition,
  conditionGroupsFromApi,
  conditionGroupsPayload,
  type ParamBinding,
  paramBinding,
} from "./engine";
import { timeZone } from "./timeZone";
import { type Weekday, weekday } from "./weekday";

// Named first (the generator names shared schemas in file order, and this file sorts before
// weekday.ts): a working hour's weekday is the shared `Weekday`.
export { weekday };

export const TARGET_TYPES = ["user", "schedule", "slack_channel", "msteams_channel"] as const;
export const SCHEDULE_MODES = [
  "all_users",
  "all_users_for_rota",
  "currently_on_call",
  "currently_on_call_for_rota",
  "next_on_call",
  "next_on_call_for_rota",
] as const;
const FOR_ROTA: ReadonlySet<string> = new Set([
  "all_users_for_rota",
  "currently_on_call_for_rota",
  "next_on_call_for_rota",
]);
const INTERVAL_CONDITIONS = ["active", "inactive"] as const;

/** Which side of a schema a type is: what a program writes (`in`) or what check answers (`out`). */
export type IoMode = "in" | "out";
/** The input or output type of a zod schema. */
export type Io<S extends z.ZodType, M extends IoMode> = M extends "in" ? z.input<S> : z.output<S>;

// reference: integer fields (EscalationPathNodeLevelV2.time_to_ack_seconds, …); a negative count is our model.
const seconds = z
  .number()
  .int("must be a whole number")
  .superRefine(warnUnless((v: number) => v >= 0, "is negative"));

/** What the id identifies: `user`, `schedule`, `slack_channel` or `msteams_channel`. */
// reference: EscalationPathTargetV2.type enum
export const escalationTargetType = knownValues(TARGET_TYPES);

/** Schedule targets only: which of the schedule's users to page (e.g. `currently_on_call`). */
// reference: EscalationPathTargetV2.schedule_mode enum
export const escalationTargetScheduleMode = knownValues(SCHEDULE_MODES);

/** Page the level again before moving on. */
export const escalationLevelRetryConfig = z.strictObject({
  /** Total pages, the first included: 2 to 10. */
  // seed: Limits 8 ("attempts is at least 2 and at most 10"); reference: EscalationPathRetryConfigV2.attempts
  attempts: z
    .number()
    .int("must be a whole number")
    .min(2, "must be at least 2")
    .max(10, "must be at most 10"),
  /** Seconds between attempts: a whole number of minutes. */
  // reference: EscalationPathRetryConfigV2.interval_seconds ("Must be a whole number of minutes")
  intervalSeconds: z
    .number()
    .int("must be a whole number")
    .refine((v) => v % 60 === 0, "must be a whole number of minutes (divisible by 60)")
    .superRefine(warnUnless((v: number) => v > 0, "is not positive")),
});

/** Page one target at a time, in turn. */
export const escalationLevelRoundRobinConfig = z.strictObject({
  /** Whether round robin is on. */
  enabled: z.boolean(),
  /** Seconds before rotating to the next target; unset = one target per level. */
  rotateAfterSeconds: seconds.optional(),
});

/** Go back to an earlier node. */
export const escalationRepeat = z.strictObject({
  /** How many times to repeat. */
  repeatTimes: z
    .number()
    .int("must be a whole number")
    .superRefine(warnUnless((v: number) => v >= 1, "is less than 1")),
  /** The `id` of the node to start again from (it must be declared with an explicit id). */
  toNode: idText(),
});

/** Wait before the next node. */
export const escalationDelay = z
  .strictObject({
    /** Seconds to wait. */
    delaySeconds: seconds.optional(),
    /** With `delayWeekdayIntervalConfigId`: advance when the window is `active` or `inactive`. */
    // reference: EscalationPathNodeDelayV2.delay_interval_condition enum
    delayIntervalCondition: knownValues(INTERVAL_CONDITIONS).optional(),
    /** Id of a `workingHours` entry the delay is relative to. */
    delayWeekdayIntervalConfigId: idText().optional(),
  })
  .superRefine(
    warnUnless(
      (d) => d.delaySeconds !== undefined || d.delayWeekdayIntervalConfigId !== undefined,
      "sets neither delaySeconds nor delayWeekdayIntervalConfigId",
    ),
  );

/** Hand the escalation over to another escalation path, which continues from its first node. */
export const escalationReassign = z.strictObject({
  /** Id of the escalation path to reassign to (e.g. another `EscalationPath`'s `id`). */
  escalationPathId: idText(),
});

/** Repeat the whole escalation after a while. */
export const escalationPathRepeatConfig = z.strictObject({
  /** Seconds to wait before repeating the escalation. */
  repeatAfterSeconds: z
    .number()
    .int("must be a whole number")
    .superRefine(warnUnless((v: number) => v > 0, "is not positive")),
  /** When true, incident activity resets the repeat timer. */
  delayRepeatOnActivity: z.boolean().default(false),
});

/** The intervals. */
export const escalationPathWorkingHourWeekdayInterval = z.strictObject({
  /** Day of the week. */
  weekday: weekday,
  /** Start time, 24-hour `HH:MM`. */
  startTime: clockTime(),
  /** End time, 24-hour `HH:MM`. */
  endTime: clockEnd(),
});

/** Named working-hours windows that levels and delays can refer to by id. */
export const escalationPathWorkingHour = z.strictObject({
  /** Id of the window (chosen by you), referred to by `*WeekdayIntervalConfigId`. */
  id: idText(),
  /** Label of the window. */
  name: nameText(),
  /** IANA time zone the intervals are in. */
  timezone: timeZone(),
  /** The intervals. */
  weekdayIntervals: z
    .array(escalationPathWorkingHourWeekdayInterval)
    .superRefine(warnUnless((v: unknown[]) => v.length > 0, "has no interval")),
});
/** Node kinds: each node sets exactly one of these properties (the API's node `type`). */
export const NODE_KINDS = [
  "level",
  "notifyChannel",
  "ifElse",
  "repeat",
  "delay",
  "voicemail",
  "escalationPath",
] as const;
export type NodeKind = (typeof NODE_KINDS)[number];
const NODE_TYPE: Record<NodeKind, string> = {
  level: "level",
  notifyChannel: "notify_channel",
  ifElse: "if_else",
  repeat: "repeat",
  delay: "delay",
  voicemail: "voicemail",
  escalationPath: "escalation_path",
};

// ---------- the node types both trees share ----------

/** Time-to-acknowledge settings shared by level and notify-channel nodes. */
export interface TimeToAck {
  /** Seconds to wait for an acknowledgement before moving on to the next node. */
  timeToAckSeconds?: number;
  /** With `timeToAckWeekdayIntervalConfigId`: move on when the working-hours window is `active` or `inactive`. */
  timeToAckIntervalCondition?: OrOther<"active" | "inactive">;
  /** Id of a `workingHours` entry the time to ack is relative to. */
  timeToAckWeekdayIntervalConfigId?: string;
}

/**
 * A level's settings beside its targets, in both trees (each kind's level interface declares its
 * own `targets` and extends this).
 */
export interface EscalationLevelSettings<M extends IoMode> extends TimeToAck {
  /** `first`: one acknowledgement cancels the other pages of the level; `all`: everyone must ack. */
  ackMode?: OrOther<"all" | "first">;
  /** Page the level again before moving on. */
  retryConfig?: Io<typeof escalationLevelRetryConfig, M>;
  /** Page one target at a time, in turn. */
  roundRobinConfig?: Io<typeof escalationLevelRoundRobinConfig, M>;
}

/** An if-else node's members, in both trees: `Node` is the tree's node interface. */
export interface EscalationBranch<Node, M extends IoMode> {
  /** Conditions that must all hold for `thenPath` (e.g. on `escalation.priority`). */
  conditions: Io<typeof condition, M>[];
  /** Nodes followed when the conditions hold. */
  thenPath: Node[];
  /** Nodes followed otherwise. */
  elsePath: Node[];
}

/**
 * A node's members beside its `id`, in both trees: each kind's node interface declares its own `id`
 * and extends this with its own level, notify-channel and if-else interfaces (a template leaves
 * `voicemail` out).
 */
export interface EscalationNodeMembers<Level, NotifyChannel, IfElse, M extends IoMode> {
  /** Page users and schedules. */
  level?: Level;
  /** Notify channels. */
  notifyChannel?: NotifyChannel;
  /** Branch on conditions. */
  ifElse?: IfElse;
  /** Repeat from an earlier node. */
  repeat?: Io<typeof escalationRepeat, M>;
  /** Wait. */
  delay?: Io<typeof escalationDelay, M>;
  /** Send to voicemail (no settings): `voicemail: true`. */
  voicemail?: true;
  /** Reassign: hand the escalation over to another escalation path (nodes after it are not reached). */
  escalationPath?: Io<typeof escalationReassign, M>;
}

export type EscalationRepeat = z.output<typeof escalationRepeat>;
export type EscalationDelay = z.output<typeof escalationDelay>;
export type EscalationReassign = z.output<typeof escalationReassign>;

/**
 * A target as the shared mapping handles it: a concrete `id` (escalation paths, templates) or a
 * parameter `binding` (templates only).
 */
export interface AnyTarget {
  type: OrOther<(typeof TARGET_TYPES)[number]>;
  id?: string;
  binding?: ParamBinding;
  urgency: OrOther<"high" | "low">;
  scheduleMode?: OrOther<(typeof SCHEDULE_MODES)[number]>;
  selectedRotaId?: string;
}

/** A node as the shared mapping handles it (both kinds' node interfaces fit it). */
export interface AnyNode {
  id?: string;
  level?: TimeToAck & {
    targets: AnyTarget[];
    ackMode?: OrOther<"all" | "first">;
    retryConfig?: { attempts: number; intervalSeconds: number };
    roundRobinConfig?: { enabled: boolean; rotateAfterSeconds?: number };
  };
  notifyChannel?: TimeToAck & { targets: AnyTarget[] };
  ifElse?: { conditions: Condition[]; thenPath: AnyNode[]; elsePath: AnyNode[] };
  repeat?: EscalationRepeat;
  delay?: EscalationDelay;
  voicemail?: true;
  escalationPath?: EscalationReassign;
}

/** A working-hours window, as both kinds declare it. */
export type WorkingHours = z.output<typeof escalationPathWorkingHour>;

// ---------- zod: the tree, validated recursively ----------

/**
 * Rules on a target's schedule mode and rota. `rota`: how the rota rule applies: `refuse` for an
 * escalation path's target (EscalationPathTargetV2.selected_rota_id: "Required when schedule_mode is
 * all_users_for_rota, currently_on_call_for_rota, or next_on_call_for_rota; must be omitted for other
 * schedule_mode values"); `warn` for a template's concrete target (its reference,
 * EscalationPathTargetWithBindingV2, states no such rule); `none` for a bound target (the binding
 * decides who is paged; the Terraform provider's own template example binds a rota target without one).
 */
function refineTarget(
  t: { type: string; scheduleMode?: string; selectedRotaId?: string },
  ctx: z.RefinementCtx,
  rota: "refuse" | "warn" | "none",
) {
  // reference: EscalationPathTargetV2.schedule_mode ("Only set for schedule targets"); a type the
  // reference does not name may take one.
  const knownType = (TARGET_TYPES as readonly string[]).includes(t.type);
  if (knownType && t.type !== "schedule" && t.scheduleMode !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["scheduleMode"],
      message: "only schedule targets take a scheduleMode",
    });
  if (rota === "none") return;
  const say = (message: string) =>
    rota === "refuse"
      ? ctx.addIssue({ code: "custom", path: ["selectedRotaId"], message })
      : warnIn(
          ctx,
          `${message} in an escalation path (EscalationPathTargetV2); a template's reference states no such rule: it is sent as written`,
          ["selectedRotaId"],
        );
  const mode = t.scheduleMode;
  if (mode !== undefined && FOR_ROTA.has(mode) && t.selectedRotaId === undefined)
    say(`required when scheduleMode is ${mode}`);
  // A mode the reference does not name may take a rota.
  const modeKnown = mode === undefined || (SCHEDULE_MODES as readonly string[]).includes(mode);
  if (modeKnown && !(mode !== undefined && FOR_ROTA.has(mode)) && t.selectedRotaId !== undefined)
    say("only allowed with the *_for_rota schedule modes");
}

const targetFields = {
  /** What the id identifies: `user`, `schedule`, `slack_channel` or `msteams_channel`. */
  type: escalationTargetType,
  /** Urgency of the page: `high` or `low`. */
  // reference: EscalationPathTargetV2.urgency enum
  urgency: knownValues(["high", "low"]),
  /** Schedule targets only: which of the schedule's users to page (e.g. `currently_on_call`). */
  scheduleMode: escalationTargetScheduleMode.optional(),
  /**
   * Schedule targets only: the rotation the `*_for_rota` modes apply to (an escalation path requires
   * it for those modes; a template's bound target needs none: the binding decides who is paged).
   */
  selectedRotaId: idText().optional(),
};

/**
 * Who a level (or notify-channel node) pages: a user, schedule or channel by id
 * (EscalationPathTargetV2). Escalation paths' levels and call routes' levels take it.
 */
export const escalationTarget = z
  .strictObject({
    ...targetFields,
    /** Id of the user, schedule or channel. */
    id: idText(),
  })
  .superRefine((t, ctx) => refineTarget(t, ctx, "refuse"));

/** A target naming its user, schedule or channel by id (EscalationPathTargetV2). */
function concreteTarget() {
  return escalationTarget;
}

/** A template's target: a concrete id or a parameter binding, not both (EscalationPathTargetWithBindingV2). */
function bindingTarget() {
  return z
    .strictObject({
      ...targetFields,
      id: idText().optional(),
      binding: paramBinding.optional(),
    })
    .superRefine((t, ctx) => {
      refineTarget(t, ctx, t.binding !== undefined ? "none" : "warn");
      // reference-newer: EscalationPathTargetWithBindingV2.id ("omitted when binding is set"); the
      // Terraform provider's template docs: "Set exactly one of id and binding".
      if ((t.id === undefined) === (t.binding === undefined))
        ctx.addIssue({
          code: "custom",
          path: t.id === undefined ? ["id"] : ["binding"],
          message: "set exactly one of id (a concrete target) or binding (a template parameter)",
        });
    });
}

/** A target's identity, for duplicates: its id, or its binding by meaning. */
const targetKey = (t: AnyTarget) =>
  `${t.type}:${t.id ?? JSON.stringify(t.binding && canonicalBinding(t.binding))}:${t.scheduleMode ?? ""}:${t.selectedRotaId ?? ""}`;

/**
 * A target given twice in one level (by id or binding, mode and rota) is warned about, naming the
 * repeat: no published rule forbids it (the API keeps each once: rule "duplicated target users").
 */
export function noDuplicateTargets(targets: AnyTarget[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  targets.forEach((t, i) => {
    const key = targetKey(t);
    if (seen.has(key)) warnPassedOn(ctx, `duplicate target ${t.type} ${t.id ?? "binding"}`, ["targets", i]);
    seen.add(key);
  });
}

const timeToAck = {
  timeToAckSeconds: seconds.optional(),
  // reference: EscalationPathNodeLevelV2.time_to_ack_interval_condition enum
  timeToAckIntervalCondition: knownValues(INTERVAL_CONDITIONS).optional(),
  timeToAckWeekdayIntervalConfigId: idText().optional(),
};

/** A level's or notify-channel node's targets: required (reference), warned about when none. */
export const targetList = <T extends z.ZodType>(target: T, what: string) =>
  z.array(target).superRefine(warnUnless((v: unknown[]) => v.length > 0, `has no ${what}`));

/**
 * Our input model, not a rule of the API's: a node's `type` is the one property it sets, so none or
 * two cannot be sent (reference: EscalationPathNodeV2.type, CallRoutePathNodeV2.type: required, one
 * value). `kinds`: the properties a node of the tree may set.
 */
export function oneNodeKind<K extends string>(
  kinds: readonly K[],
  node: { [P in K]?: unknown },
  ctx: z.RefinementCtx,
): void {
  const set = kinds.filter((k) => node[k] !== undefined);
  if (set.length !== 1)
    ctx.addIssue({
      code: "custom",
      path: [],
      message:
        set.length === 0
          ? `a node needs one of ${kinds.join(", ")}`
          : `a node takes exactly one of ${kinds.join(", ")} (got ${set.join(", ")})`,
    });
}

export interface EscalationNodeOptions {
  /** `concrete`: targets by id (escalation paths); `binding`: an id or a parameter binding (templates). */
  targets: "concrete" | "binding";
  /** Why a `voicemail` node is refused, or undefined when it is allowed. */
  refuseVoicemail?: string;
}

/**
 * The zod schemas of one kind's tree. Each kind casts `node` to its own node interface (so the
 * generated types carry its names).
 */
export function escalationNodeSchemas(options: EscalationNodeOptions) {
  const target = options.targets === "concrete" ? concreteTarget() : bindingTarget();
  const level = z
    .strictObject({
      targets: targetList(target, "target"),
      // reference: EscalationPathNodeLevelV2.ack_mode enum
      ackMode: knownValues(["all", "first"]).optional(),
      retryConfig: escalationLevelRetryConfig.optional(),
      roundRobinConfig: escalationLevelRoundRobinConfig.optional(),
      ...timeToAck,
    })
    .superRefine((l, ctx) => noDuplicateTargets(l.targets as AnyTarget[], ctx));

  const notifyChannel = z
    .strictObject({
      // reference: EscalationPathNodeNotifyChannelV2.targets ("The targets (Slack channels)"): a
      // description, not a rule (a template's target type lists users and schedules too).
      targets: targetList(
        target.superRefine(
          warnUnless(
            (t: { type: string }) => t.type === "slack_channel" || t.type === "msteams_channel",
            "a notifyChannel target is a slack_channel or msteams_channel",
          ),
        ),
        "channel",
      ),
      ...timeToAck,
    })
    .superRefine((n, ctx) => noDuplicateTargets(n.targets as AnyTarget[], ctx));

  const node: z.ZodType<AnyNode, unknown> = z.lazy(() =>
    z
      .strictObject({
        id: idText().optional(),
        level: level.optional(),
        notifyChannel: notifyChannel.optional(),
        ifElse: z
          .strictObject({
            conditions: z
              .array(condition)
              .superRefine(warnUnless((v: unknown[]) => v.length > 0, "an ifElse node has no condition")),
            thenPath: z.array(node),
            elsePath: z.array(node),
          })
          .optional(),
        repeat: escalationRepeat.optional(),
        delay: escalationDelay.optional(),
        voicemail: z.literal(true).optional(),
        escalationPath: escalationReassign.optional(),
      })
      .superRefine((n, ctx) => {
        oneNodeKind(NODE_KINDS, n, ctx);
        // reference-newer: EscalationPathTemplateNodeV2.type ("voicemail" only valid inside a call route's path)
        if (n.voicemail !== undefined && options.refuseVoicemail !== undefined)
          ctx.addIssue({ code: "custom", path: ["voicemail"], message: options.refuseVoicemail });
      }),
  ) as z.ZodType<AnyNode, unknown>;

  const repeatConfig = escalationPathRepeatConfig;
  const workingHours = z.array(escalationPathWorkingHour);

  return { node, repeatConfig, workingHours };
}

// ---------- node ids ----------

/** The id a node without an explicit id gets: derived from its position, so it is stable across runs. */
export function generatedNodeId(position: readonly (string | number)[]): string {
  // position: [0] → node-0; [0, "else", 1] → node-0-else-1
  return `node-${position.join("-")}`;
}

export interface NodeVisit {
  node: AnyNode;
  /** Input path, e.g. ["path", 0, "ifElse", "elsePath", 1]. */
  path: Path;
  id: string;
}

/** Every node of a path, depth first, with its effective id and input path. */
export function walkNodes(nodes: readonly AnyNode[], root: Path = ["path"]): NodeVisit[] {
  const out: NodeVisit[] = [];
  const visit = (list: readonly AnyNode[], at: Path, position: (string | number)[]) => {
    list.forEach((node, i) => {
      const here = [...position, i];
      out.push({ node, path: [...at, i], id: node.id ?? generatedNodeId(here) });
      if (node.ifElse) {
        visit(node.ifElse.thenPath ?? [], [...at, i, "ifElse", "thenPath"], [...here, "then"]);
        visit(node.ifElse.elsePath ?? [], [...at, i, "ifElse", "elsePath"], [...here, "else"]);
      }
    });
  };
  visit(nodes ?? [], root, []);
  return out;
}

// ---------- the API shapes ----------

export interface ApiTarget {
  id?: string;
  binding?: ApiBinding;
  type: string;
  urgency: string;
  schedule_mode?: string;
  selected_rota_id?: string;
}
interface ApiTimeToAck {
  time_to_ack_seconds?: number;
  time_to_ack_interval_condition?: string;
  time_to_ack_weekday_interval_config_id?: string;
}
export interface ApiNode {
  id: string;
  type: string;
  level?: ApiTimeToAck & {
    targets: ApiTarget[];
    ack_mode?: string;
    retry_config?: { attempts: number; interval_seconds: number };
    round_robin_config?: { enabled: boolean; rotate_after_seconds?: number };
  };
  notify_channel?: ApiTimeToAck & { targets: ApiTarget[] };
  if_else?: { conditions: any[]; then_path: ApiNode[]; else_path: ApiNode[] };
  repeat?: { repeat_times: number; to_node: string };
  delay?: {
    delay_seconds?: number;
    delay_interval_condition?: string;
    delay_weekday_interval_config_id?: string;
  };
  escalation_path?: { escalation_path_id: string };
}
export interface ApiWorkingHours {
  id: string;
  name: string;
  timezone: string;
  weekday_intervals: { weekday: string; start_time: string; end_time: string }[];
}
export interface ApiRepeatConfig {
  repeat_after_seconds: number;
  delay_repeat_on_activity: boolean;
}

// ---------- mapping to the payload ----------

// Sub-objects whose API form differs only in key case: mapped both ways from one field list.
const retryConfigFields = caseMappedObject<{ attempts: number; intervalSeconds: number }>([
  "attempts",
  "intervalSeconds",
]);
const roundRobinFields = caseMappedObject<{ enabled: boolean; rotateAfterSeconds?: number }>([
  "enabled",
  "rotateAfterSeconds",
]);
export const repeatConfigFields = caseMappedObject<{
  repeatAfterSeconds: number;
  delayRepeatOnActivity: boolean;
}>(["repeatAfterSeconds", "delayRepeatOnActivity"]);

/** EscalationPathTargetV2 (or its binding form) of a target. */
export function targetPayload(t: AnyTarget): ApiTarget {
  return {
    ...(t.id !== undefined ? { id: t.id } : {}),
    ...(t.binding !== undefined ? { binding: bindingPayload(t.binding) } : {}),
    type: t.type,
    urgency: t.urgency,
    ...(t.scheduleMode !== undefined ? { schedule_mode: t.scheduleMode } : {}),
    ...(t.selectedRotaId !== undefined ? { selected_rota_id: t.selectedRotaId } : {}),
  };
}

function timeToAckPayload(t: TimeToAck): ApiTimeToAck {
  return {
    time_to_ack_seconds: t.timeToAckSeconds,
    time_to_ack_interval_condition: t.timeToAckIntervalCondition,
    time_to_ack_weekday_interval_config_id: t.timeToAckWeekdayIntervalConfigId,
  };
}

/** The kind a node sets (the first set, when check has not run). */
export function nodeKind(n: AnyNode): NodeKind {
  return NODE_KINDS.find((k) => n[k] !== undefined) ?? "level";
}

/** EscalationPathNodePayloadV2 / EscalationPathTemplateNodePayloadV2 for a list of nodes. */
export function nodesPayload(nodes: readonly AnyNode[], position: (string | number)[] = []): ApiNode[] {
  return nodes.map((n, i) => {
    const here = [...position, i];
    const node: ApiNode = { id: n.id ?? generatedNodeId(here), type: NODE_TYPE[nodeKind(n)] };
    if (n.level) {
      node.level = {
        targets: n.level.targets.map(targetPayload),
        ack_mode: n.level.ackMode,
        retry_config: retryConfigFields.toApi(n.level.retryConfig),
        round_robin_config: roundRobinFields.toApi(n.level.roundRobinConfig),
        ...timeToAckPayload(n.level),
      };
    }
    if (n.notifyChannel) {
      node.notify_channel = {
        targets: n.notifyChannel.targets.map(targetPayload),
        ...timeToAckPayload(n.notifyChannel),
      };
    }
    if (n.ifElse) {
      node.if_else = {
        conditions: conditionGroupsPayload([{ conditions: n.ifElse.conditions }])[0]?.conditions ?? [],
        then_path: nodesPayload(n.ifElse.thenPath, [...here, "then"]),
        else_path: nodesPayload(n.ifElse.elsePath, [...here, "else"]),
      };
    }
    if (n.repeat) node.repeat = { repeat_times: n.repeat.repeatTimes, to_node: n.repeat.toNode };
    if (n.delay) {
      node.delay = {
        delay_seconds: n.delay.delaySeconds,
        delay_interval_condition: n.delay.delayIntervalCondition,
        delay_weekday_interval_config_id: n.delay.delayWeekdayIntervalConfigId,
      };
    }
    if (n.escalationPath) node.escalation_path = { escalation_path_id: n.escalationPath.escalationPathId };
    return node;
  });
}

/** WeekdayIntervalConfigV2 for each window. */
export function workingHoursPayload(
  windows: readonly WorkingHours[] | undefined,
): ApiWorkingHours[] | undefined {
  return windows?.map((w) => ({
    id: w.id,
    name: w.name,
    timezone: w.timezone,
    weekday_intervals: w.weekdayIntervals.map((i) => ({
      weekday: i.weekday,
      start_time: i.startTime,
      end_time: i.endTime,
    })),
  }));
}

// ---------- read-back, with the named normalisation rules ----------

/**
 * Rule "duplicated target users": the API answers a level's targets with the `user` targets
 * repeated (TF provider v5.44.1). Repeated entries carry no meaning (check rejects a declared
 * duplicate), so they are dropped, keeping the first occurrence.
 *
 * Rule "empty schedule mode": the API answers `schedule_mode: ""` for targets that are not
 * schedules, and for schedule targets written without one (it is optional in the reference); it
 * reads back as unset.
 */
export function targetsFromApi(live: readonly ApiTarget[], declared?: readonly AnyTarget[]): AnyTarget[] {
  const mapped = live.map(
    (t, i): AnyTarget => ({
      type: t.type as AnyTarget["type"],
      ...(t.id !== undefined && t.id !== "" ? { id: t.id } : {}),
      ...(t.binding ? { binding: bindingFromApi(t.binding, declared?.[i]?.binding) } : {}),
      urgency: t.urgency as AnyTarget["urgency"],
      ...(t.schedule_mode ? { scheduleMode: t.schedule_mode as AnyTarget["scheduleMode"] } : {}),
      ...(t.selected_rota_id ? { selectedRotaId: t.selected_rota_id } : {}),
    }),
  );
  // Duplicates compare by their meaning (a binding's labels aside).
  const seen = new Set<string>();
  return (
    dedupe(mapped)?.filter((t) => {
      const key = targetKey(t);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }) ?? []
  );
}

function timeToAckFromApi(t: ApiTimeToAck): TimeToAck {
  return {
    timeToAckSeconds: t.time_to_ack_seconds,
    timeToAckIntervalCondition: t.time_to_ack_interval_condition as TimeToAck["timeToAckIntervalCondition"],
    timeToAckWeekdayIntervalConfigId: t.time_to_ack_weekday_interval_config_id || undefined,
  };
}

/**
 * Rule "generated node ids": a node the user wrote without an id was sent with the id derived from
 * its position; reading that id back gives "no id", so the program's spelling stays diff-free.
 */
export function nodesFromApi(
  live: readonly ApiNode[],
  declared: readonly AnyNode[] | undefined,
  position: (string | number)[] = [],
): AnyNode[] {
  return live.map((n, i) => {
    const here = [...position, i];
    const mine = declared?.[i];
    const id = mine?.id === undefined && n.id === generatedNodeId(here) ? undefined : n.id;
    const node: AnyNode = id === undefined ? {} : { id };
    switch (n.type) {
      case "level":
        if (n.level) {
          node.level = {
            targets: targetsFromApi(n.level.targets, mine?.level?.targets),
            ackMode: n.level.ack_mode as "all" | "first" | undefined,
            retryConfig: retryConfigFields.fromApi(n.level.retry_config),
            roundRobinConfig: roundRobinFields.fromApi(n.level.round_robin_config),
            ...timeToAckFromApi(n.level),
          };
        }
        break;
      case "notify_channel":
        if (n.notify_channel) {
          node.notifyChannel = {
            targets: targetsFromApi(n.notify_channel.targets, mine?.notifyChannel?.targets),
            ...timeToAckFromApi(n.notify_channel),
          };
        }
        break;
      case "if_else":
        if (n.if_else) {
          node.ifElse = {
            // Engine rules (labelled subjects/operations, operation aliases, padded bindings, JSON literals).
            conditions:
              conditionGroupsFromApi(
                [{ conditions: n.if_else.conditions ?? [] }],
                mine?.ifElse ? [{ conditions: mine.ifElse.conditions }] : undefined,
              )[0]?.conditions ?? [],
            thenPath: nodesFromApi(n.if_else.then_path ?? [], mine?.ifElse?.thenPath, [...here, "then"]),
            elsePath: nodesFromApi(n.if_else.else_path ?? [], mine?.ifElse?.elsePath, [...here, "else"]),
          };
        }
        break;
      case "repeat":
        if (n.repeat) node.repeat = { repeatTimes: n.repeat.repeat_times, toNode: n.repeat.to_node };
        break;
      case "delay":
        node.delay = {
          delaySeconds: n.delay?.delay_seconds,
          delayIntervalCondition: n.delay
            ?.delay_interval_condition as EscalationDelay["delayIntervalCondition"],
          delayWeekdayIntervalConfigId: n.delay?.delay_weekday_interval_config_id || undefined,
        };
        break;
      case "voicemail":
        node.voicemail = true;
        break;
      case "escalation_path":
        if (n.escalation_path)
          node.escalationPath = { escalationPathId: n.escalation_path.escalation_path_id };
        break;
    }
    return node;
  });
}

/** Rule "omitted vs empty": no working hours declared and none live reads back as omitted. */
export function workingHoursFromApi(
  live: readonly ApiWorkingHours[] | undefined,
  declared: readonly WorkingHours[] | undefined,
): WorkingHours[] | undefined {
  if (declared === undefined && (live ?? []).length === 0) return undefined;
  return (live ?? []).map((w) => ({
    id: w.id,
    name: w.name,
    timezone: w.timezone,
    weekdayIntervals: w.weekday_intervals.map((i) => ({
      weekday: i.weekday as Weekday,
      startTime: i.start_time,
      endTime: i.end_time,
    })),
  }));
}

// ---------- canonical form ----------

/**
 * A level's targets by meaning: each with its keys in one order and unset ones left out (a read-back
 * builds them in another), bindings canonical, repeats once.
 */
export function canonicalTargets(targets: readonly AnyTarget[] | undefined): AnyTarget[] {
  return (
    dedupe(
      (targets ?? []).map(
        (t): AnyTarget => ({
          type: t.type,
          ...(t.id !== undefined ? { id: t.id } : {}),
          ...(t.binding !== undefined
            ? { binding: canonicalBinding(t.binding) as AnyTarget["binding"] }
            : {}),
          urgency: t.urgency,
          ...(t.scheduleMode !== undefined ? { scheduleMode: t.scheduleMode } : {}),
          ...(t.selectedRotaId !== undefined ? { selectedRotaId: t.selectedRotaId } : {}),
        }),
      ),
    ) ?? []
  );
}

/** Canonical form for diffs: explicit ids everywhere, conditions and bindings by meaning. */
export function canonicalNodes(nodes: readonly AnyNode[], position: (string | number)[] = []): unknown[] {
  return nodes.map((n, i) => {
    const here = [...position, i];
    return {
      ...n,
      id: n.id ?? generatedNodeId(here),
      level: n.level && { ...n.level, targets: canonicalTargets(n.level.targets) },
      notifyChannel: n.notifyChannel && {
        ...n.notifyChannel,
        targets: canonicalTargets(n.notifyChannel.targets),
      },
      ifElse: n.ifElse && {
        conditions: (
          canonicalConditionGroups([{ conditions: n.ifElse.conditions }]) as { conditions: unknown }[]
        )[0]?.conditions,
        thenPath: canonicalNodes(n.ifElse.thenPath ?? [], [...here, "then"]),
        elsePath: canonicalNodes(n.ifElse.elsePath ?? [], [...here, "else"]),
      },
    };
  });
}

/** A repeat config by meaning (`delayRepeatOnActivity` defaults to false). */
export function canonicalRepeatConfig(
  c: { repeatAfterSeconds: number; delayRepeatOnActivity?: boolean } | undefined,
): unknown {
  return c && { ...c, delayRepeatOnActivity: c.delayRepeatOnActivity ?? false };
}

// ---------- rules over the whole tree ----------

/** A list of nodes: `path`, or a branch's `path[1].ifElse.thenPath` (at any depth). */
const NODE_LIST = String.raw`path(\[\d+\]\.ifElse\.(thenPath|elsePath))*`;
const READS_NODE_IDS = new RegExp(
  // A node list or a node (its shape and place), a branch, a node's id, a repeat and its target.
  String.raw`^${NODE_LIST}(\[\d+\](\.ifElse|\.id|\.repeat(\.toNode)?)?)?$`,
);

/**
 * What the tree rules read: every node's id (explicit, or generated from its place in the tree) and
 * every repeat. Not what a node pages (its targets' ids, unknown while a schedule is being made).
 */
const NODE_IDS = [(leftOut: Path) => READS_NODE_IDS.test(formatPath(leftOut))];

function formatPathText(path: Path): string {
  return path.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}

/** Rules over the whole tree: unique node ids, repeat targets that exist, working-hours references. */
export function validateNodes(args: {
  path?: readonly AnyNode[];
  workingHours?: readonly { id: string }[];
}): Problem[] {
  const problems: Problem[] = [];
  const nodes = walkNodes(args.path ?? []);
  const firstWithId = new Map<string, Path>();
  for (const v of nodes) {
    const prior = firstWithId.get(v.id);
    // reference: EscalationPathNodeV2.id ("An ID for this node, unique within the escalation path")
    if (prior) {
      problems.push({
        path: v.node.id !== undefined ? [...v.path, "id"] : v.path,
        message: `duplicate node id ${JSON.stringify(v.id)} (also used by ${formatPathText(prior)})`,
        dependsOn: NODE_IDS,
      });
    } else firstWithId.set(v.id, v.path);
  }
  const explicit = new Set(nodes.filter((v) => v.node.id !== undefined).map((v) => v.id));
  const windows = new Set((args.workingHours ?? []).map((w) => w.id));
  // reference: WeekdayIntervalConfigV2.id ("The unique identifier for this set of working intervals")
  (args.workingHours ?? []).forEach((w, i) => {
    if ((args.workingHours ?? []).findIndex((o) => o.id === w.id) !== i)
      problems.push({
        path: ["workingHours", i, "id"],
        message: `duplicate working hours id ${JSON.stringify(w.id)}`,
      });
  });
  // A reference to nothing, and a repeat to a generated id: our model, no published rule (the API decides).
  const windowRef = (ref: string | undefined, path: Path) => {
    if (ref !== undefined && !windows.has(ref))
      problems.push({
        path,
        message: passedOn(`no workingHours entry has id ${JSON.stringify(ref)}`),
        dependsOn: [["workingHours", "*", "id"]],
        severity: "warning",
      });
  };
  for (const v of nodes) {
    const n = v.node;
    if (n.repeat) {
      const to = n.repeat.toNode;
      if (!firstWithId.has(to)) {
        problems.push({
          path: [...v.path, "repeat", "toNode"],
          message: passedOn(`no node has id ${JSON.stringify(to)}`),
          dependsOn: NODE_IDS,
          severity: "warning",
        });
      } else if (!explicit.has(to)) {
        problems.push({
          path: [...v.path, "repeat", "toNode"],
          message: passedOn(
            `${JSON.stringify(to)} is a generated id; give the node an explicit id to repeat from it`,
          ),
          dependsOn: NODE_IDS,
          severity: "warning",
        });
      }
    }
    for (const kind of ["level", "notifyChannel"] as const) {
      const body = n[kind];
      if (body)
        windowRef(body.timeToAckWeekdayIntervalConfigId, [
          ...v.path,
          kind,
          "timeToAckWeekdayIntervalConfigId",
        ]);
    }
    if (n.delay)
      windowRef(n.delay.delayWeekdayIntervalConfigId, [...v.path, "delay", "delayWeekdayIntervalConfigId"]);
  }
  return problems;
}
