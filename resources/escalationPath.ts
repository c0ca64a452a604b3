/**
 * Manages an **escalation path**: who is paged when an alert or incident escalates, in which order,
 * for how long, and how that changes with conditions (priority, working hours). The path is a real
 * tree: an `ifElse` node holds a `thenPath` and an `elsePath`, each a list of nodes of the same type,
 * to any depth (the Terraform provider had to unroll it to five levels).
 *
 * Every value in a node may be an Input at any depth (`EscalationPathNodeArgs`), so paths can be built
 * by helpers, recursively:
 *
 * ```ts
 * import type * as pulumi from "@pulumi/pulumi";
 * import * as incident from "pulumi-incident";
 *
 * // Page each rota in turn; on a P1, page the rest of the chain at once as well.
 * function chain(rotas: pulumi.Input<string>[]): incident.EscalationPathNodeArgs[] {
 *   const [first, ...rest] = rotas;
 *   if (first === undefined) return [];
 *   return [
 *     { level: { targets: [{ type: "schedule", id: first, urgency: "high", scheduleMode: "currently_on_call" }] } },
 *     ...(rest.length === 0
 *       ? []
 *       : [{ ifElse: { conditions: [{ subject: "escalation.priority", operation: "is_set" }], thenPath: chain(rest), elsePath: [] } }]),
 *   ];
 * }
 *
 * declare const primary: incident.Schedule;
 * declare const secondary: incident.Schedule;
 * new incident.EscalationPath("chain", { name: "Chain", path: chain([primary.id, secondary.id]) });
 * ```
 *
 * ### API version
 *
 * `/v2/escalation_paths` (v2 is the only version; not deprecated). Create `POST`, read `GET /{id}`,
 * update `PUT /{id}` (the whole path is sent), delete `DELETE /{id}` (the API archives it).
 *
 * ### Adoption
 *
 * `pulumi import` does not work for dynamic resources. Set `adoptId` to the path's id (from the
 * dashboard URL or `GET /v2/escalation_paths`): the first `pulumi up` takes the path over and updates
 * it to the declared configuration, with no new object created. Remove `adoptId` afterwards or keep
 * it; it is not compared.
 *
 * ### Lookup: getEscalationPath({ name })
 *
 * `getEscalationPath` / `getEscalationPathOutput` find a path by exact name (`GET /v2/escalation_paths`,
 * every page) and answer `{ id, name, teamIds, path }`. They fail naming the name when there is no
 * such path, and naming the ids when several share it.
 *
 * ### Normalisation rules (read-back that differs in form is not drift)
 *
 * | Rule | What the API does | What the provider does |
 * |---|---|---|
 * | duplicated target users | answers a level's `user` targets twice (Terraform provider v5.44.1) | repeated targets collapse (check rejects declared duplicates, so nothing meaningful is lost) |
 * | empty schedule mode | answers `schedule_mode: ""` on targets that are not schedules | read back as unset |
 * | generated node ids | keeps the position-derived ids sent for nodes without one | a derived id reads back as "no id"; any other id is reported |
 * | labelled conditions, operation aliases, padded bindings, JSON literals | answers subjects/operations/values as labelled objects, `contains_one_of` for `one_of`, trailing empty bindings, re-encoded JSON | the shared engine rules (`resources/shared/engine.ts`) give back the declared spelling |
 * | unordered sets | answers team ids in its own order | compared as a set, read back in the declared order |
 * | omitted vs empty | answers `working_hours: []` when none | read back as omitted when none was declared |
 *
 * ### Schedule targets without a schedule mode
 * `scheduleMode` is optional on a `schedule` target, as in the reference; the API answers `""` for it
 * and it reads back as unset. `selectedRotaId` is still required for the `*_for_rota` modes.
 */
import { z } from "zod";
import { makeProvider } from "../provider/factory";
import { defineLookup, LookupError } from "../provider/functions";
import { clockEnd, clockTime, nameText } from "../provider/inputs";
import { caseMappedObject } from "../provider/naming";
import { dedupe, keepDeclaredOrder, unorderedSet } from "../provider/normalise";
import { restApi } from "../provider/restApi";
import type { Problem, Props, ResourceSpec } from "../provider/spec";
import { formatPath, type Path } from "../provider/unknowns";
import {
  type Condition,
  canonicalConditionGroups,
  condition,
  conditionGroupsFromApi,
  conditionGroupsPayload,
} from "./shared/engine";
import {
  type EscalationTarget,
  escalationTarget,
  noDuplicateTargets,
  SCHEDULE_MODES,
  TARGET_TYPES,
} from "./shared/escalationTarget";
import { timeZone } from "./shared/timeZone";
import { type Weekday, weekday } from "./shared/weekday";

// ---------- the recursive path, as TypeScript types ----------

export { type EscalationTarget, SCHEDULE_MODES, TARGET_TYPES };

const INTERVAL_CONDITIONS = ["active", "inactive"] as const;
/** Node kinds: each node sets exactly one of these properties (the API's node `type`). */
export const NODE_KINDS = ["level", "notifyChannel", "ifElse", "repeat", "delay", "voicemail"] as const;
const NODE_TYPE: Record<(typeof NODE_KINDS)[number], string> = {
  level: "level",
  notifyChannel: "notify_channel",
  ifElse: "if_else",
  repeat: "repeat",
  delay: "delay",
  voicemail: "voicemail",
};

/** Time-to-acknowledge settings shared by level and notify-channel nodes. */
export interface TimeToAck {
  /** Seconds to wait for an acknowledgement before moving on to the next node. */
  timeToAckSeconds?: number;
  /** With `timeToAckWeekdayIntervalConfigId`: move on when the working-hours window is `active` or `inactive`. */
  timeToAckIntervalCondition?: "active" | "inactive";
  /** Id of a `workingHours` entry the time to ack is relative to. */
  timeToAckWeekdayIntervalConfigId?: string;
}

/** A level: targets paged together (or in turn, with round robin). */
export interface EscalationLevel<T = EscalationTarget> extends TimeToAck {
  /** Users and schedules to page. */
  targets: T[];
  /** `first`: one acknowledgement cancels the other pages of the level; `all`: everyone must ack. */
  ackMode?: "all" | "first";
  /** Page the level again before moving on. */
  retryConfig?: {
    /** Total pages, the first included: 2 to 10. */
    attempts: number;
    /** Seconds between attempts: a whole number of minutes. */
    intervalSeconds: number;
  };
  /** Page one target at a time, in turn. */
  roundRobinConfig?: {
    /** Whether round robin is on. */
    enabled: boolean;
    /** Seconds before rotating to the next target; unset = one target per level. */
    rotateAfterSeconds?: number;
  };
}

/** Notify channels (Slack or Microsoft Teams). */
export interface EscalationNotifyChannel<T = EscalationTarget> extends TimeToAck {
  /** The channels (`slack_channel` / `msteams_channel` targets). */
  targets: T[];
}

/** A branch: the conditions choose `thenPath` or `elsePath`, each a path of any depth. */
export interface EscalationIfElse<C = Condition, T = EscalationTarget> {
  /** Conditions that must all hold for `thenPath` (e.g. on `escalation.priority`). */
  conditions: C[];
  /** Nodes followed when the conditions hold. */
  thenPath: EscalationPathNode<C, T>[];
  /** Nodes followed otherwise. */
  elsePath: EscalationPathNode<C, T>[];
}

/** Go back to an earlier node. */
export interface EscalationRepeat {
  /** How many times to repeat. */
  repeatTimes: number;
  /** The `id` of the node to start again from (it must be declared with an explicit id). */
  toNode: string;
}

/** Wait before the next node. */
export interface EscalationDelay {
  /** Seconds to wait. */
  delaySeconds?: number;
  /** With `delayWeekdayIntervalConfigId`: advance when the window is `active` or `inactive`. */
  delayIntervalCondition?: "active" | "inactive";
  /** Id of a `workingHours` entry the delay is relative to. */
  delayWeekdayIntervalConfigId?: string;
}

/**
 * One node of an escalation path: set exactly one of `level`, `notifyChannel`, `ifElse`, `repeat`,
 * `delay` or `voicemail`. `ifElse` holds further paths, to any depth.
 */
export interface EscalationPathNode<C = Condition, T = EscalationTarget> {
  /**
   * Id of the node, unique within the path; needed only when a `repeat` node points at it. When
   * omitted, a stable id is derived from the node's position (`node-0`, `node-0-else-1`, …).
   */
  id?: string;
  /** Page users and schedules. */
  level?: EscalationLevel<T>;
  /** Notify channels. */
  notifyChannel?: EscalationNotifyChannel<T>;
  /** Branch on conditions. */
  ifElse?: EscalationIfElse<C, T>;
  /** Repeat from an earlier node. */
  repeat?: EscalationRepeat;
  /** Wait. */
  delay?: EscalationDelay;
  /** Send to voicemail (no settings): `voicemail: true`. */
  voicemail?: true;
}
/** A node as zod parses it (condition parameter bindings may be omitted). */
type EscalationPathNodeInput = EscalationPathNode<
  z.input<typeof condition>,
  z.input<typeof escalationTarget>
>;

// ---------- zod: the same tree, validated recursively ----------

const seconds = z.number().int("must be a whole number").min(0, "must not be negative");

const timeToAck = {
  timeToAckSeconds: seconds.optional(),
  timeToAckIntervalCondition: z.enum(INTERVAL_CONDITIONS).optional(),
  timeToAckWeekdayIntervalConfigId: z.string().min(1).optional(),
};

const level = z
  .strictObject({
    targets: z.array(escalationTarget).min(1, "a level needs at least one target"),
    ackMode: z.enum(["all", "first"]).optional(),
    retryConfig: z
      .strictObject({
        attempts: z
          .number()
          .int("must be a whole number")
          .min(2, "must be at least 2")
          .max(10, "must be at most 10"),
        intervalSeconds: z
          .number()
          .int("must be a whole number")
          .positive("must be positive")
          .refine((v) => v % 60 === 0, "must be a whole number of minutes (divisible by 60)"),
      })
      .optional(),
    roundRobinConfig: z
      .strictObject({ enabled: z.boolean(), rotateAfterSeconds: seconds.optional() })
      .optional(),
    ...timeToAck,
  })
  .superRefine((l, ctx) => noDuplicateTargets(l.targets, ctx));

const notifyChannel = z
  .strictObject({
    targets: z
      .array(
        escalationTarget.refine((t) => t.type === "slack_channel" || t.type === "msteams_channel", {
          message: "a notifyChannel target must be a slack_channel or msteams_channel",
          path: ["type"],
        }),
      )
      .min(1, "needs at least one channel"),
    ...timeToAck,
  })
  .superRefine((n, ctx) => noDuplicateTargets(n.targets, ctx));

const repeat = z.strictObject({
  repeatTimes: z.number().int("must be a whole number").min(1, "must be at least 1"),
  toNode: z.string().min(1, "must not be empty"),
});

const delay = z
  .strictObject({
    delaySeconds: seconds.optional(),
    delayIntervalCondition: z.enum(INTERVAL_CONDITIONS).optional(),
    delayWeekdayIntervalConfigId: z.string().min(1).optional(),
  })
  .refine(
    (d) => d.delaySeconds !== undefined || d.delayWeekdayIntervalConfigId !== undefined,
    "set delaySeconds or delayWeekdayIntervalConfigId",
  );

/** One node, recursively: if-else branches hold further paths of the same schema. */
export const escalationPathNode: z.ZodType<EscalationPathNode, EscalationPathNodeInput> = z.lazy(() =>
  z
    .strictObject({
      id: z.string().min(1, "must not be empty").optional(),
      level: level.optional(),
      notifyChannel: notifyChannel.optional(),
      ifElse: z
        .strictObject({
          conditions: z.array(condition).min(1, "an ifElse node needs at least one condition"),
          thenPath: z.array(escalationPathNode),
          elsePath: z.array(escalationPathNode),
        })
        .optional(),
      repeat: repeat.optional(),
      delay: delay.optional(),
      voicemail: z.literal(true).optional(),
    })
    .superRefine((n, ctx) => {
      const set = NODE_KINDS.filter((k) => n[k] !== undefined);
      if (set.length !== 1)
        ctx.addIssue({
          code: "custom",
          path: [],
          message:
            set.length === 0
              ? `a node needs one of ${NODE_KINDS.join(", ")}`
              : `a node takes exactly one of ${NODE_KINDS.join(", ")} (got ${set.join(", ")})`,
        });
    }),
);

const weekdayInterval = z.strictObject({
  /** Day of the week. */
  weekday: weekday,
  /** Start time, 24-hour `HH:MM`. */
  startTime: clockTime(),
  /** End time, 24-hour `HH:MM`. */
  endTime: clockEnd(),
});

/** Inputs of an escalation path (API v2, the only version). */
export const escalationPathInputs = z.strictObject({
  /** Name of the escalation path, unique in the account. */
  name: nameText(),
  /** The nodes of the path, in order: levels, channel notifications, branches (to any depth), repeats, delays. */
  path: z.array(escalationPathNode).min(1, "a path needs at least one node"),
  /** Repeat the whole escalation after a while. */
  repeatConfig: z
    .strictObject({
      /** Seconds to wait before repeating the escalation. */
      repeatAfterSeconds: z.number().int("must be a whole number").positive("must be positive"),
      /** When true, incident activity resets the repeat timer. */
      delayRepeatOnActivity: z.boolean().default(false),
    })
    .optional(),
  /** Named working-hours windows that levels and delays can refer to by id. */
  workingHours: z
    .array(
      z.strictObject({
        /** Id of the window (chosen by you), referred to by `*WeekdayIntervalConfigId`. */
        id: z.string().min(1, "must not be empty"),
        /** Label of the window. */
        name: nameText(),
        /** IANA time zone the intervals are in. */
        timezone: timeZone(),
        /** The intervals. */
        weekdayIntervals: z.array(weekdayInterval).min(1, "needs at least one interval"),
      }),
    )
    .optional(),
  /** Teams owning the path. Order does not matter. */
  teamIds: z.array(z.string().min(1)).default([]),
  /** Id of an existing escalation path to take over instead of creating one. */
  adoptId: z.string().min(1).optional(),
});

export type EscalationPathInputs = z.infer<typeof escalationPathInputs>;
export interface EscalationPathComputed {
  /** Users on call for this path right now. */
  currentResponders: { id: string; name: string; email?: string }[];
}

// ---------- node ids ----------

/** The id a node without an explicit id gets: derived from its position, so it is stable across runs. */
export function generatedNodeId(position: readonly (string | number)[]): string {
  // position: [0] → node-0; [0, "else", 1] → node-0-else-1
  return `node-${position.join("-")}`;
}

interface NodeVisit {
  node: EscalationPathNode<unknown>;
  /** Input path, e.g. ["path", 0, "ifElse", "elsePath", 1]. */
  path: Path;
  id: string;
}

/** Every node of a path, depth first, with its effective id and input path. */
export function walkNodes(nodes: readonly EscalationPathNode<unknown>[], root: Path = ["path"]): NodeVisit[] {
  const out: NodeVisit[] = [];
  const visit = (list: readonly EscalationPathNode<unknown>[], at: Path, position: (string | number)[]) => {
    list.forEach((node, i) => {
      const here = [...position, i];
      out.push({ node, path: [...at, i], id: node.id ?? generatedNodeId(here) });
      if (node.ifElse) {
        visit(node.ifElse.thenPath, [...at, i, "ifElse", "thenPath"], [...here, "then"]);
        visit(node.ifElse.elsePath, [...at, i, "ifElse", "elsePath"], [...here, "else"]);
      }
    });
  };
  visit(nodes, root, []);
  return out;
}

// ---------- the API shapes ----------

export interface ApiTarget {
  id: string;
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
}
interface ApiWorkingHours {
  id: string;
  name: string;
  timezone: string;
  weekday_intervals: { weekday: string; start_time: string; end_time: string }[];
}
export interface ApiEscalationPath {
  id: string;
  name: string;
  path: ApiNode[];
  repeat_config?: { repeat_after_seconds: number; delay_repeat_on_activity: boolean };
  working_hours?: ApiWorkingHours[];
  team_ids: string[];
  current_responders?: { id: string; name: string; email?: string }[];
}

// ---------- mapping to the payload ----------

// Sub-objects whose API form differs only in key case: mapped both ways from one field list.
const retryConfigFields = caseMappedObject<NonNullable<EscalationLevel["retryConfig"]>>([
  "attempts",
  "intervalSeconds",
]);
const roundRobinFields = caseMappedObject<NonNullable<EscalationLevel["roundRobinConfig"]>>([
  "enabled",
  "rotateAfterSeconds",
]);
const repeatConfigFields = caseMappedObject<NonNullable<EscalationPathInputs["repeatConfig"]>>([
  "repeatAfterSeconds",
  "delayRepeatOnActivity",
]);

export function targetPayload(t: EscalationTarget): ApiTarget {
  return {
    id: t.id,
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

function nodesPayload(nodes: readonly EscalationPathNode[], position: (string | number)[]): ApiNode[] {
  return nodes.map((n, i) => {
    const here = [...position, i];
    const kind = NODE_KINDS.find((k) => n[k] !== undefined) ?? "level";
    const node: ApiNode = { id: n.id ?? generatedNodeId(here), type: NODE_TYPE[kind] };
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
    return node;
  });
}

/** The create/update payload (EscalationsCreatePathPayloadV2 / EscalationsUpdatePathPayloadV2). */
export function escalationPathPayload(args: EscalationPathInputs): Props {
  return JSON.parse(
    JSON.stringify({
      name: args.name,
      path: nodesPayload(args.path, []),
      repeat_config: repeatConfigFields.toApi(args.repeatConfig),
      working_hours: args.workingHours?.map((w) => ({
        id: w.id,
        name: w.name,
        timezone: w.timezone,
        weekday_intervals: w.weekdayIntervals.map((i) => ({
          weekday: i.weekday,
          start_time: i.startTime,
          end_time: i.endTime,
        })),
      })),
      team_ids: args.teamIds,
    }),
  );
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
export function targetsFromApi(live: readonly ApiTarget[]): EscalationTarget[] {
  const mapped = live.map(
    (t): EscalationTarget => ({
      type: t.type as EscalationTarget["type"],
      id: t.id,
      urgency: t.urgency as EscalationTarget["urgency"],
      ...(t.schedule_mode ? { scheduleMode: t.schedule_mode as EscalationTarget["scheduleMode"] } : {}),
      ...(t.selected_rota_id ? { selectedRotaId: t.selected_rota_id } : {}),
    }),
  );
  return dedupe(mapped) ?? [];
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
function nodesFromApi(
  live: readonly ApiNode[],
  declared: readonly EscalationPathNode[] | undefined,
  position: (string | number)[],
): EscalationPathNode[] {
  return live.map((n, i) => {
    const here = [...position, i];
    const mine = declared?.[i];
    const id = mine?.id === undefined && n.id === generatedNodeId(here) ? undefined : n.id;
    const node: EscalationPathNode = id === undefined ? {} : { id };
    switch (n.type) {
      case "level":
        if (n.level) {
          node.level = {
            targets: targetsFromApi(n.level.targets),
            ackMode: n.level.ack_mode as EscalationLevel["ackMode"],
            retryConfig: retryConfigFields.fromApi(n.level.retry_config),
            roundRobinConfig: roundRobinFields.fromApi(n.level.round_robin_config),
            ...timeToAckFromApi(n.level),
          };
        }
        break;
      case "notify_channel":
        if (n.notify_channel) {
          node.notifyChannel = {
            targets: targetsFromApi(n.notify_channel.targets),
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
    }
    return node;
  });
}

export function escalationPathFromApi(
  live: ApiEscalationPath,
  declared: EscalationPathInputs | undefined,
): EscalationPathInputs {
  return {
    name: live.name,
    path: nodesFromApi(live.path ?? [], declared?.path, []),
    repeatConfig: repeatConfigFields.fromApi(live.repeat_config),
    // Rule "omitted vs empty": no working hours declared and none live reads back as omitted.
    workingHours:
      declared?.workingHours === undefined && (live.working_hours ?? []).length === 0
        ? undefined
        : (live.working_hours ?? []).map((w) => ({
            id: w.id,
            name: w.name,
            timezone: w.timezone,
            weekdayIntervals: w.weekday_intervals.map((i) => ({
              weekday: i.weekday as Weekday,
              startTime: i.start_time,
              endTime: i.end_time,
            })),
          })),
    // Rule "unordered sets": team ids compare as a set and read back in the declared order.
    teamIds: keepDeclaredOrder(live.team_ids ?? [], declared?.teamIds) ?? [],
  };
}

/** Canonical form for diffs: explicit ids everywhere, conditions by meaning, team ids as a set. */
function canonicalNodes(nodes: readonly EscalationPathNode[], position: (string | number)[]): unknown[] {
  return nodes.map((n, i) => {
    const here = [...position, i];
    return {
      ...n,
      id: n.id ?? generatedNodeId(here),
      level: n.level && { ...n.level, targets: dedupe(n.level.targets) },
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

export function canonicalEscalationPath(args: EscalationPathInputs): Props {
  return {
    ...args,
    path: canonicalNodes(args.path ?? [], []),
    repeatConfig: args.repeatConfig && {
      ...args.repeatConfig,
      delayRepeatOnActivity: args.repeatConfig.delayRepeatOnActivity ?? false,
    },
    workingHours: args.workingHours?.length ? args.workingHours : undefined,
    teamIds: unorderedSet(args.teamIds ?? []),
  };
}

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

/** Rules over the whole tree: unique node ids, repeat targets that exist, working-hours references. */
export function validateEscalationPath(args: EscalationPathInputs): Problem[] {
  const problems: Problem[] = [];
  const nodes = walkNodes(args.path);
  const firstWithId = new Map<string, Path>();
  for (const v of nodes) {
    const prior = firstWithId.get(v.id);
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
  (args.workingHours ?? []).forEach((w, i) => {
    if ((args.workingHours ?? []).findIndex((o) => o.id === w.id) !== i)
      problems.push({
        path: ["workingHours", i, "id"],
        message: `duplicate working hours id ${JSON.stringify(w.id)}`,
      });
  });
  const windowRef = (ref: string | undefined, path: Path) => {
    if (ref !== undefined && !windows.has(ref))
      problems.push({
        path,
        message: `no workingHours entry has id ${JSON.stringify(ref)}`,
        dependsOn: [["workingHours", "*", "id"]],
      });
  };
  for (const v of nodes) {
    const n = v.node;
    if (n.repeat) {
      const to = n.repeat.toNode;
      if (!firstWithId.has(to)) {
        problems.push({
          path: [...v.path, "repeat", "toNode"],
          message: `no node has id ${JSON.stringify(to)}`,
          dependsOn: NODE_IDS,
        });
      } else if (!explicit.has(to)) {
        problems.push({
          path: [...v.path, "repeat", "toNode"],
          message: `${JSON.stringify(to)} is a generated id; give the node an explicit id to repeat from it`,
          dependsOn: NODE_IDS,
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

function formatPathText(path: Path): string {
  return path.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}

// ---------- the API calls ----------

/**
 * An escalation path (API v2, the only version the API has): who is paged, in which order, with
 * branches on conditions to any depth. The path is a real tree: `ifElse.thenPath` / `elsePath` hold
 * nodes of the same type.
 *
 * Adopt an existing path: set `adoptId` to its id (from the dashboard URL or
 * `GET /v2/escalation_paths`); the first `pulumi up` takes it over and updates it to the declared
 * configuration.
 *
 * @example
 * ```ts
 * import * as incident from "pulumi-incident";
 *
 * const ada = incident.getUserOutput({ email: "ada@example.com" });
 * declare const primary: incident.Schedule; // see Schedule
 *
 * new incident.EscalationPath("payments", {
 *   name: "Payments on-call",
 *   teamIds: ["01TEAMPAYMENTS"],
 *   workingHours: [
 *     {
 *       id: "office",
 *       name: "Office hours",
 *       timezone: "Europe/London",
 *       weekdayIntervals: [{ weekday: "monday", startTime: "09:00", endTime: "17:30" }],
 *     },
 *   ],
 *   path: [
 *     {
 *       id: "start", // only needed because the repeat node below points at it
 *       level: {
 *         targets: [
 *           { type: "schedule", id: primary.id, urgency: "high", scheduleMode: "currently_on_call" },
 *         ],
 *         timeToAckSeconds: 300,
 *         retryConfig: { attempts: 3, intervalSeconds: 120 },
 *       },
 *     },
 *     {
 *       ifElse: {
 *         conditions: [
 *           { subject: "escalation.priority", operation: "one_of", paramBindings: [{ arrayValue: [{ literal: "P1" }] }] },
 *         ],
 *         thenPath: [{ level: { targets: [{ type: "user", id: ada.id, urgency: "high" }] } }],
 *         elsePath: [
 *           { delay: { delayWeekdayIntervalConfigId: "office", delayIntervalCondition: "active" } },
 *           { notifyChannel: { targets: [{ type: "slack_channel", id: "C0123", urgency: "low" }] } },
 *         ],
 *       },
 *     },
 *     { repeat: { repeatTimes: 2, toNode: "start" } },
 *   ],
 * });
 * ```
 */
export const escalationPathSpec: ResourceSpec<EscalationPathInputs, ApiEscalationPath> = {
  kind: "EscalationPath",
  title: "escalation path",
  schemaVersion: 1,
  claimAs: "escalation_path",
  inputs: escalationPathInputs,
  // Every field is updatable in place (PUT sends the whole path).
  replaceOnChanges: [],
  secretOutputs: [],
  computedOutputs: ["currentResponders"],
  validate: validateEscalationPath,
  canonical: canonicalEscalationPath,
  idOf: (live) => live.id,
  // EscalationsV2ListPaths answers EscalationPathV2, as show does (paginated).
  list: {
    path: "/v2/escalation_paths",
    itemsKey: "escalation_paths",
    operation: "list escalation paths",
    pageSize: 250,
  },
  toInputs: escalationPathFromApi,
  computed: (live) => ({
    currentResponders: (live.current_responders ?? []).map((u) => ({
      id: u.id,
      name: u.name,
      email: u.email,
    })),
  }),
  api: {
    ...restApi({
      collection: "/v2/escalation_paths",
      key: "escalation_path",
      noun: "escalation path",
      payload: escalationPathPayload,
    }),
    async findCreated(ctx, args) {
      const all = await ctx.client.listAll<ApiEscalationPath>(
        "/v2/escalation_paths",
        "escalation_paths",
        "list escalation paths",
      );
      return all.find((p) => p.name === args.name);
    },
  },
};

export const escalationPathProvider = makeProvider(escalationPathSpec);

// ---------- lookup ----------

/** What `getEscalationPath` answers. */
export interface EscalationPathResult {
  id: string;
  name: string;
  teamIds: string[];
  path: EscalationPathNode[];
}

const escalationPathLookup = defineLookup({
  name: "getEscalationPath",
  args: z.strictObject({
    /** Exact name of the escalation path. */
    name: nameText(),
  }),
  async run(client, args): Promise<EscalationPathResult> {
    const all = await client.listAll<ApiEscalationPath>(
      "/v2/escalation_paths",
      "escalation_paths",
      "list escalation paths",
    );
    const found = all.filter((p) => p.name === args.name);
    if (found.length === 0)
      throw new LookupError("getEscalationPath", `no escalation path is named ${JSON.stringify(args.name)}`);
    if (found.length > 1)
      throw new LookupError(
        "getEscalationPath",
        `${found.length} escalation paths are named ${JSON.stringify(args.name)}: ${found.map((p) => p.id).join(", ")}`,
      );
    const p = found[0] as ApiEscalationPath;
    const inputs = escalationPathFromApi(p, undefined);
    return { id: p.id, name: p.name, teamIds: inputs.teamIds, path: inputs.path };
  },
});
/** Finds an escalation path by its exact name (read-only; uses the stack's credentials). */
export const getEscalationPath = escalationPathLookup.get;
/** `getEscalationPath` as an Output. */
export const getEscalationPathOutput = escalationPathLookup.getOutput;
