/** snake_case ↔ camelCase for API payload keys. */
export function camelCase(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function snakeCase(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Maps an API `source.field` (`path.0.if_else.else_path.0.notify_channel`) to the user's input path
 * (`path[0].ifElse.elsePath[0].notifyChannel`). `renames` maps API names that differ beyond case
 * (e.g. `role_names` → `roles`).
 */
export function inputPathForApiField(field: string, renames: Record<string, string> = {}): string {
  const direct = renames[field];
  if (direct) return direct;
  const segments = field.split(/[.[\]/]+/).filter((s) => s !== "");
  let out = "";
  for (const seg of segments) {
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else {
      const name = renames[seg] ?? camelCase(seg);
      out += out === "" ? name : `.${name}`;
    }
  }
  return out;
}

/** Drops keys whose value is undefined, so payloads carry only what the user set. */
export function compact<T extends Record<string, unknown>>(obj: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return out as Partial<T>;
}
