/**
 * Path templates with parameters (`/v1/api_keys/{id}/actions/rotate`). Matching is by segment; when
 * several templates match a path, the one with the most literal segments wins (so
 * `/v2/escalation_paths/external` beats `/v2/escalation_paths/{id}`). A path that matches some
 * template but not with this method is a 405 with `Allow`.
 */

interface Compiled<R> {
  template: string;
  segments: { literal?: string; param?: string }[];
  literals: number;
  byMethod: Map<string, R>;
}

export type RouteMatch<R> =
  | { kind: "found"; route: R; params: Record<string, string>; template: string }
  | { kind: "method_not_allowed"; allowed: string[] }
  | { kind: "not_found" };

/** Splits a raw path into decoded segments; `undefined` when it cannot be decoded. */
export function splitPath(rawPath: string): string[] | undefined {
  if (!rawPath.startsWith("/")) return undefined;
  const parts = rawPath.slice(1).split("/");
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    return undefined;
  }
}

export class Router<R> {
  private readonly templates = new Map<string, Compiled<R>>();

  /** Adds `method template → route`. Throws when that method and template are taken. */
  add(method: string, template: string, route: R): void {
    let compiled = this.templates.get(template);
    if (!compiled) {
      const segments = template
        .slice(1)
        .split("/")
        .map((s) => {
          const m = /^\{([A-Za-z0-9_]+)\}$/.exec(s);
          return m ? { param: m[1]! } : { literal: s };
        });
      compiled = {
        template,
        segments,
        literals: segments.filter((s) => s.literal !== undefined).length,
        byMethod: new Map(),
      };
      this.templates.set(template, compiled);
    }
    const upper = method.toUpperCase();
    if (compiled.byMethod.has(upper))
      throw new Error(`emulator router: ${upper} ${template} is defined twice`);
    compiled.byMethod.set(upper, route);
  }

  /** Every `[method, template]` pair. */
  list(): [string, string][] {
    return [...this.templates.values()].flatMap((c) =>
      [...c.byMethod.keys()].map((m): [string, string] => [m, c.template]),
    );
  }

  match(method: string, rawPath: string): RouteMatch<R> {
    const segments = splitPath(rawPath);
    if (!segments) return { kind: "not_found" };
    const candidates: { c: Compiled<R>; params: Record<string, string> }[] = [];
    for (const c of this.templates.values()) {
      if (c.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segments.length && ok; i++) {
        const s = c.segments[i]!;
        const value = segments[i]!;
        if (s.literal !== undefined) ok = s.literal === value;
        else if (value === "") ok = false;
        else params[s.param!] = value;
      }
      if (ok) candidates.push({ c, params });
    }
    if (candidates.length === 0) return { kind: "not_found" };
    candidates.sort((a, b) => b.c.literals - a.c.literals);
    const upper = method.toUpperCase();
    for (const { c, params } of candidates) {
      const route = c.byMethod.get(upper);
      if (route !== undefined) return { kind: "found", route, params, template: c.template };
    }
    const allowed = [...new Set(candidates.flatMap(({ c }) => [...c.byMethod.keys()]))].sort();
    return { kind: "method_not_allowed", allowed };
  }
}
