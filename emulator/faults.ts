/**
 * Fault injection, controlled from tests (`emulator.faults`) and over HTTP outside the public API's
 * paths (`/_emulator/faults`), so a command line can drive it too:
 *   curl -X POST $URL/_emulator/faults -d '{"method":"POST","path":"^/v2/custom_fields$","kind":"reset-after","count":1}'
 * Kinds: `status` (answer `status`, 500/502/503, without doing anything), `reset-before` (drop the
 * connection before the handler runs: nothing happens), `reset-after` (the handler commits, then the
 * connection drops: the client never sees the answer), `latency` (`latencyMs` before handling),
 * `rate-limit` (a 429 storm: 429 with Retry-After `retryAfterSeconds`).
 */
import type { ControlRoutes } from "./control";
import { HttpError } from "./http/errors";
import type { Pipeline } from "./http/pipeline";
import { CONTROL_PREFIX } from "./http/stages";

export type FaultKind = "status" | "reset-before" | "reset-after" | "latency" | "rate-limit";

export interface FaultRule {
  /** Upper-case method to match; any when absent. */
  method?: string;
  /** Regular expression matched against the request path. */
  path: string;
  kind: FaultKind;
  /** How many matching requests get the fault (default 1). */
  count?: number;
  status?: number;
  latencyMs?: number;
  retryAfterSeconds?: number;
}

interface ActiveRule extends Required<Pick<FaultRule, "path" | "kind">> {
  method?: string;
  remaining: number;
  status: number;
  latencyMs: number;
  retryAfterSeconds: number;
  pattern: RegExp;
  fired: number;
}

export class FaultController {
  private rules: ActiveRule[] = [];

  add(rule: FaultRule): void {
    if (!["status", "reset-before", "reset-after", "latency", "rate-limit"].includes(rule.kind)) {
      throw new Error(`unknown fault kind ${JSON.stringify(rule.kind)}`);
    }
    this.rules.push({
      path: rule.path,
      kind: rule.kind,
      method: rule.method?.toUpperCase(),
      remaining: rule.count ?? 1,
      status: rule.status ?? 503,
      latencyMs: rule.latencyMs ?? 100,
      retryAfterSeconds: rule.retryAfterSeconds ?? 1,
      pattern: new RegExp(rule.path),
      fired: 0,
    });
  }

  clear(): void {
    this.rules = [];
  }

  list(): object[] {
    return this.rules.map(({ pattern: _p, ...r }) => r);
  }

  /** Takes the first rule matching this request (and counts it down). */
  take(method: string, path: string): ActiveRule | undefined {
    const rule = this.rules.find(
      (r) => r.remaining > 0 && (r.method === undefined || r.method === method) && r.pattern.test(path),
    );
    if (rule) {
      rule.remaining--;
      rule.fired++;
    }
    return rule;
  }
}

export function installFaults(pipeline: Pipeline, control: ControlRoutes): FaultController {
  const faults = new FaultController();
  pipeline.use(
    "faults",
    async (ctx, next) => {
      const rule = faults.take(ctx.method, ctx.path);
      if (!rule) return next();
      switch (rule.kind) {
        case "status":
          throw new HttpError(rule.status, [{ code: "injected_fault", message: `injected ${rule.status}` }]);
        case "rate-limit":
          throw new HttpError(429, [{ code: "too_many_requests", message: "injected rate limit" }], {
            headers: { "retry-after": String(rule.retryAfterSeconds) },
          });
        case "reset-before":
          ctx.dropConnection = true;
          return;
        case "latency":
          await new Promise((r) => setTimeout(r, rule.latencyMs));
          return next();
        case "reset-after":
          await next();
          ctx.dropConnection = true;
          return;
      }
    },
    { before: "handler" },
  );
  control
    .add("GET", `${CONTROL_PREFIX}/faults`, "active fault rules", () => ({ body: { faults: faults.list() } }))
    .add(
      "POST",
      `${CONTROL_PREFIX}/faults`,
      "add a fault rule {method,path,kind,count,status,latencyMs}",
      ({ body }) => {
        faults.add(body as FaultRule);
        return { status: 201, body: { faults: faults.list() } };
      },
    )
    .add("DELETE", `${CONTROL_PREFIX}/faults`, "clear every fault rule", () => {
      faults.clear();
      return { status: 204 };
    });
  return faults;
}
