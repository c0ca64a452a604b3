/** snake_case ↔ camelCase for API payload keys. */
export function camelCase(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function snakeCase(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;
/** An object type with its keys in snake_case (the API's spelling of a camelCase input). */
export type SnakeKeys<T> = { [K in keyof T as K extends string ? SnakeCase<K> : K]: T[K] };

/**
 * A flat input object whose API form differs only in its keys' case, its fields listed once and
 * mapped both ways. Only the listed fields are read back, so a field the API adds never reaches
 * the outputs; `undefined` and `null` pass through as they are.
 */
export function caseMappedObject<T extends object>(fields: readonly (keyof T & string)[]) {
  const pairs = fields.map((field) => [field, snakeCase(field)] as const);
  return {
    toApi<V extends T | null | undefined>(value: V): V extends T ? SnakeKeys<T> : V {
      if (value === null || value === undefined) return value as never;
      return Object.fromEntries(pairs.map(([field, api]) => [api, (value as T)[field]])) as never;
    },
    fromApi<V extends SnakeKeys<T> | null | undefined>(value: V): V extends SnakeKeys<T> ? T : V {
      if (value === null || value === undefined) return value as never;
      const live = value as Record<string, unknown>;
      return Object.fromEntries(pairs.map(([field, api]) => [field, live[api]])) as never;
    },
  };
}

/**
 * API field paths → input paths, where they differ beyond snake_case → camelCase. A key is an API
 * path prefix, a value the input path that replaces it (dotted, indices as numbers): `role_names` →
 * `roles` turns `role_names.2` into `roles.2`. A key ending in `.*` folds everything under it into
 * that one input (an input the payload spreads over several API fields, e.g. a template sent as a
 * rich-text binding). The longest matching key wins; an empty value drops the prefix (a wrapper).
 */
export type FieldRenames = Record<string, string>;

const FOLD = ".*";

/** Applies `renames` to an API field path (`schedule.config.rotations.3.id` style); the result stays dotted. */
export function renameFieldPath(field: string, renames: FieldRenames = {}): string {
  const segments = field.split(/[.[\]/]+/).filter((s) => s !== "");
  for (let length = segments.length; length > 0; length--) {
    const prefix = segments.slice(0, length).join(".");
    const rest = segments.slice(length);
    const folded = renames[prefix + FOLD];
    const renamed = renames[prefix];
    if (renamed !== undefined && (rest.length === 0 || folded === undefined)) {
      return [...(renamed === "" ? [] : [renamed]), ...rest].join(".");
    }
    if (folded !== undefined) return folded;
  }
  return segments.join(".");
}

/**
 * Maps an API `source.field` (`path.0.if_else.else_path.0.notify_channel`) to the user's input path
 * (`path[0].ifElse.elsePath[0].notifyChannel`), applying `renames` first.
 */
export function inputPathForApiField(field: string, renames: FieldRenames = {}): string {
  let out = "";
  for (const seg of renameFieldPath(field, renames)
    .split(".")
    .filter((s) => s !== "")) {
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += out === "" ? camelCase(seg) : `.${camelCase(seg)}`;
  }
  return out;
}

/** Drops keys whose value is undefined, so payloads carry only what the user set. */
export function compact<T extends Record<string, unknown>>(obj: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return out as Partial<T>;
}

/** The keys of `props` that are set, among `keys`. */
export function pick(props: Record<string, any>, keys: readonly string[]): Record<string, any> {
  const out: Record<string, any> = {};
  for (const key of keys) if (props[key] !== undefined) out[key] = props[key];
  return out;
}
