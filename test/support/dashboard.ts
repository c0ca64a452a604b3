/**
 * On-call objects as someone makes them in the dashboard, outside any stack: the API create payloads
 * (snake_case) the tests send with a second key, for what a program refers to by id and for adoption.
 */

/** A schedule (`SchedulesCreatePayloadV2`): one rotation `primary` of `users` (ids), handed over weekly, one layer. */
export function dashboardSchedule(o: {
  name: string;
  timezone: string;
  handoverStartAt: string;
  users: string[];
}): unknown {
  return {
    schedule: {
      name: o.name,
      timezone: o.timezone,
      config: {
        rotations: [
          {
            id: "primary",
            name: "Primary",
            handover_start_at: o.handoverStartAt,
            handovers: [{ interval: 1, interval_type: "weekly" }],
            users: o.users.map((id) => ({ id })),
            layers: [{ name: "Layer 1" }],
          },
        ],
      },
    },
  };
}

/**
 * An escalation path (`EscalationsCreatePathPayloadV2`): one level (node `start` unless `nodeId`)
 * paging one user, high urgency and 300 s to acknowledge unless said otherwise.
 */
export function dashboardEscalationPath(
  name: string,
  o: { userId: string; nodeId?: string; urgency?: "high" | "low"; timeToAckSeconds?: number },
): unknown {
  return {
    name,
    path: [
      {
        id: o.nodeId ?? "start",
        type: "level",
        level: {
          targets: [{ id: o.userId, type: "user", urgency: o.urgency ?? "high" }],
          time_to_ack_seconds: o.timeToAckSeconds ?? 300,
        },
      },
    ],
  };
}

/**
 * A call route, as buying a number in the dashboard makes one: the API cannot create call routes, so
 * the emulator's control route `POST /_emulator/call_routes` does (emulator/families/callRoutes.ts).
 * `allowed_callers` (numbers, or `{phone_number, name?}`) and `options` (a phone-tree menu: `{digit,
 * prompt, path}`) are made with it, as the dashboard does. Answers the route as the API shows it
 * (`CallRouteV2`).
 */
export async function dashboardCallRoute(
  emu: { ok(method: string, path: string, options?: { body?: unknown }): Promise<any> },
  o: {
    name: string;
    custom_language?: string;
    responder_caller_id?: "route_number" | "oncall_number";
    use_caller_allowlist?: boolean;
    path?: unknown[];
    allowed_callers?: (string | { phone_number: string; name?: string })[];
    options?: { digit: string; prompt: string; path: unknown[] }[];
  },
): Promise<any> {
  return (await emu.ok("POST", "/_emulator/call_routes", { body: o })).call_route;
}
