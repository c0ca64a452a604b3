import { z } from "zod";

/**
 * Who a level pages: a user, a schedule (some of its users, by `scheduleMode`) or a channel. Taken by
 * escalation paths (levels, notify-channel nodes) and call routes (levels).
 */

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

/** Who a level (or notify-channel node) pages: a user, a schedule or a channel. */
export const escalationTarget = z
  .strictObject({
    /** What the id identifies: `user`, `schedule`, `slack_channel` or `msteams_channel`. */
    type: z.enum(TARGET_TYPES),
    /** Id of the user, schedule or channel. */
    id: z.string().min(1, "must not be empty"),
    /** Urgency of the page: `high` or `low`. */
    urgency: z.enum(["high", "low"]),
    /** Schedule targets only: which of the schedule's users to page (e.g. `currently_on_call`). */
    scheduleMode: z.enum(SCHEDULE_MODES).optional(),
    /** Schedule targets only: the rotation the `*_for_rota` modes apply to (required for those modes). */
    selectedRotaId: z.string().min(1).optional(),
  })
  .superRefine((t, ctx) => {
    if (t.type !== "schedule" && t.scheduleMode !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["scheduleMode"],
        message: "only schedule targets take a scheduleMode",
      });
    const forRota = t.scheduleMode !== undefined && FOR_ROTA.has(t.scheduleMode);
    if (forRota && t.selectedRotaId === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["selectedRotaId"],
        message: `required when scheduleMode is ${t.scheduleMode}`,
      });
    if (!forRota && t.selectedRotaId !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["selectedRotaId"],
        message: "only allowed with the *_for_rota schedule modes",
      });
  });

/** Who a level (or notify-channel node) pages. */
export type EscalationTarget = z.infer<typeof escalationTarget>;

/** A target given twice in one level (by every field) is refused, naming the repeat. */
export function noDuplicateTargets(targets: EscalationTarget[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  targets.forEach((t, i) => {
    const key = `${t.type}:${t.id}:${t.scheduleMode ?? ""}:${t.selectedRotaId ?? ""}`;
    if (seen.has(key))
      ctx.addIssue({ code: "custom", path: ["targets", i], message: `duplicate target ${t.type} ${t.id}` });
    seen.add(key);
  });
}
