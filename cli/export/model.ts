/**
 * From live objects to the resources of the exported program, with the provider's own rules:
 *
 * - inputs: the kind's `toInputs(live, undefined)` (the form `Xxx.get` gives: templates in their
 *   `{{ }}` form where they can be), plus what the account holds of the inputs a declaration leaves
 *   unmanaged when unset (an input `x` whose live value is the output `currentX`: a severity's rank,
 *   an option's sort key), then every value the schema would default to anyway left out;
 * - references: a string that is the id of another exported object becomes a reference to that
 *   resource's `id` (inside a longer string, a `pulumi.interpolate`; an object keyed by such ids, a
 *   `pulumi.all(…).apply(…)` with computed keys); a user's id becomes the `id` of a `getUser`
 *   lookup by e-mail;
 * - secret inputs (the kind's `secretOutputs` that are inputs) become secret config placeholders;
 * - names: resource and variable names from object names (names.ts), collisions resolved by id order;
 * - order: every resource after the ones it refers to, grouped by kind;
 * - a check per object: the declaration must compare equal to the live object by the diff's own
 *   rules (so the first `up` adopts it without a write), else the export says what differs.
 */
import { inputChanges } from "../../provider/diff";
import { ADOPT_KEY, canonicalInputs, checkInputs, comparedInputs } from "../../provider/factory";
import { lookupArguments } from "../../provider/functions";
import type { Props, ResourceSpec } from "../../provider/spec";
import {
  type BulkOptions,
  bulkEntries,
  catalogOwnership,
  type Draft,
  syncedObject,
  withOwnership,
} from "./catalog";
import { camelCase, kebabCase, safeIdentifier } from "./names";
import type { Account, LiveObject } from "./read";

export { camelCase, kebabCase } from "./names";

/** A value of the program: plain JSON, or one of these nodes. */
export type Value =
  | string
  | number
  | boolean
  | null
  | Value[]
  | { [key: string]: Value }
  | Reference
  | Interpolation
  | SecretConfig
  | KeyedByReference;

/** `<variable>.id`. */
export interface Reference {
  $ref: string;
}
/** `pulumi.interpolate\`…${a.id}…\``: parts are literal text and references. */
export interface Interpolation {
  $interpolate: Array<string | Reference>;
}
/** `config.requireSecret("<key>")`. */
export interface SecretConfig {
  $secret: string;
}
/**
 * An object some of whose keys are ids of exported objects (a catalog entry's attribute values, by
 * attribute): `pulumi.all({ tier: tier.id }).apply((<param>) => ({ [<param>.tier]: … }))`. A key is
 * a reference or literal text, in the object's order.
 */
export interface KeyedByReference {
  $keyed: Array<[Reference | string, Value]>;
  /** The arrow function's parameter: a name no declaration of the program takes. */
  param: string;
}

export interface ExportedResource {
  kind: string;
  id: string;
  /** The object's own name (or what stands for it), for the report and comments. */
  label: string;
  /** The Pulumi resource name (unique per kind). */
  resourceName: string;
  /** The TypeScript variable (unique in the program). */
  variable: string;
  /** The inputs as written, `adoptId` first. */
  args: { [key: string]: Value };
  /** Variables this resource refers to. */
  dependsOn: string[];
  /** What would differ on the first `up` (empty: adopted with no write). */
  differences: string[];
  /** Schema problems of the declaration (should be none). */
  problems: string[];
  /** Comments written above the resource (a migration's approximations); user text, escaped when written. */
  notes?: string[];
}

/**
 * `const <variable> = incident.<fn>(<args>)`: a user by e-mail, a team by name, or an object another
 * project of a fleet declares (`getSeverityOutput({ name })`, …).
 */
export interface Lookup {
  variable: string;
  fn: string;
  args: { [key: string]: Value };
  id: string;
  /** For an object another project declares: its kind, label and that project. */
  declaredIn?: { kind: string; label: string; project: string };
}

export interface SecretPlaceholder {
  key: string;
  resource: ExportedResource;
  input: string;
}

export interface ExportModel {
  resources: ExportedResource[];
  lookups: Lookup[];
  secrets: SecretPlaceholder[];
  /** Objects left out by the name filter or because they could not be represented. */
  leftOut: Array<{ kind: string; id: string; label: string; reason: string }>;
  /** What else the project's README says (user text in it is escaped there). */
  notes: string[];
  /**
   * Objects another project declares that this one refers to by id, which no lookup finds (a
   * kind without a lookup, or a name several objects share): their ids are written as they are.
   */
  unlooked: Array<{ kind: string; id: string; label: string; project: string }>;
}

export interface ModelOptions {
  /** Only objects whose label matches (references to the others stay literal ids). */
  namePattern?: RegExp;
  /** How catalog entries are written (catalog.ts). */
  catalogEntries?: BulkOptions;
}

/** Objects declared in other projects of a fleet: found by lookups, never declared twice. */
export interface Elsewhere {
  /** By object id (entries of a bulk resource included): the draft and its project's name. */
  byId: Map<string, { draft: Draft; project: string }>;
  /** Every draft of the account by kind (whether a lookup finds one object only). */
  byKind: Map<string, Draft[]>;
}

export type { Draft } from "./catalog";

const ID_SHAPE = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const ID_INSIDE = /[0-9A-HJKMNP-TV-Z]{26}/g;

export function buildModel(account: Account, options: ModelOptions = {}): ExportModel {
  const { drafts, leftOut, notes } = draftObjects(account, options);
  return modelOf(account, drafts, { leftOut, notes });
}

/**
 * The account's objects as drafts (inputs and labels; the name filter applied, parts labelled
 * after their whole, a large catalog type's entries as one CatalogEntries), with what was left out.
 */
export function draftObjects(
  account: Account,
  options: ModelOptions = {},
): { drafts: Draft[]; leftOut: ExportModel["leftOut"]; notes: string[] } {
  const leftOut: ExportModel["leftOut"] = [];
  const drafts: Draft[] = [];
  const ownership = catalogOwnership(account);
  // Per synced type and kind (the type, its attributes, its entries): how many were left out.
  const synced = new Map<string, { kind: string; typeId: string; reason: string; count: number }>();
  for (const found of account.objects) {
    const sync = syncedObject(found, ownership);
    if (sync !== undefined) {
      const key = `${sync.typeId} ${found.kind}`;
      const count = (synced.get(key)?.count ?? 0) + 1;
      synced.set(key, { kind: found.kind, typeId: sync.typeId, reason: sync.reason, count });
      continue;
    }
    const object = withOwnership(found, ownership);
    let inputs: Props;
    try {
      inputs = minimalInputs(object.spec, heldInputs(object));
    } catch (error) {
      leftOut.push({
        kind: object.kind,
        id: object.id,
        label: object.id,
        reason: `cannot be written as inputs: ${(error as Error).message}`,
      });
      continue;
    }
    const label = labelOf(object, inputs);
    if (options.namePattern && !options.namePattern.test(label)) {
      leftOut.push({ kind: object.kind, id: object.id, label, reason: "name filter" });
      continue;
    }
    drafts.push({ object, label, inputs });
  }
  for (const { kind, typeId, reason, count } of synced.values()) {
    const name = ownership.get(typeId)?.name ?? typeId;
    const label =
      kind === "CatalogType"
        ? name
        : `${name}: ${count} ${kind === "CatalogEntry" ? (count === 1 ? "entry" : "entries") : count === 1 ? "attribute" : "attributes"}`;
    leftOut.push({ kind, id: typeId, label, reason });
  }
  qualifyParts(drafts);
  const bulk = bulkEntries(drafts, account, ownership, options.catalogEntries ?? {});
  return { drafts: bulk.drafts, leftOut, notes: bulk.notes };
}

/**
 * The program of `drafts`: names, references, lookups (people and teams; with `elsewhere`, the
 * objects other projects declare), secret placeholders, and the check that each adopts without a
 * write.
 */
export function modelOf(
  account: Account,
  drafts: Draft[],
  context: { leftOut?: ExportModel["leftOut"]; notes?: string[]; elsewhere?: Elsewhere } = {},
): ExportModel {
  const names = assignNames(drafts.map((d) => ({ kind: d.object.kind, id: d.object.id, label: d.label })));
  const byId = new Map<string, string>();
  for (const [i, d] of drafts.entries()) {
    // A catalog type's entries in bulk share its id: the id names the type.
    if (!byId.has(d.object.id) || !d.parts) byId.set(d.object.id, names[i]!.variable);
  }

  const taken = new Set(names.map((n) => n.variable));
  const used = usedIds(drafts);
  const lookups = lookupsFor(account, used, taken);
  for (const l of lookups) byId.set(l.id, l.variable);
  const unlooked: ExportModel["unlooked"] = [];
  if (context.elsewhere) {
    const found = elsewhereLookups(context.elsewhere, used, byId, taken, unlooked);
    lookups.push(...found);
  }
  // The parameter of `apply` callbacks (computed keys): a name no declaration takes.
  const param = safeIdentifier("ids", "", taken);

  const secrets: SecretPlaceholder[] = [];
  const resources = drafts.map((d, i): ExportedResource => {
    const { object, label, inputs } = d;
    const name = names[i]!;
    const dependsOn = new Set<string>();
    const secretInputs = object.spec.secretOutputs.filter((k) => k in object.spec.inputs.shape);
    const args: { [key: string]: Value } = { [ADOPT_KEY]: object.id };
    for (const [key, value] of Object.entries(inputs)) {
      if (value === undefined) continue;
      if (secretInputs.includes(key)) continue;
      args[key] = withReferences(value, { byId, self: name.variable, uses: dependsOn, param });
    }
    const resource: ExportedResource = {
      kind: object.kind,
      id: object.id,
      label,
      resourceName: name.resourceName,
      variable: name.variable,
      args,
      dependsOn: [...dependsOn].filter((v) => !lookups.some((l) => l.variable === v)),
      differences: [],
      problems: [],
    };
    for (const input of secretInputs) {
      const key = `${name.variable}${input[0]!.toUpperCase()}${input.slice(1)}`;
      args[input] = { $secret: key };
      secrets.push({ key, resource, input });
    }
    check(resource, object, inputs, secretInputs);
    return resource;
  });

  return {
    resources: inDependencyOrder(resources),
    lookups,
    secrets,
    leftOut: context.leftOut ?? [],
    notes: context.notes ?? [],
    unlooked,
  };
}

/**
 * The inputs that declare what the account holds: `toInputs(live, undefined)`, plus each input a
 * declaration leaves unmanaged when unset (`undefined` there) while the kind answers its live value
 * as the output `current<Input>` (a severity's `rank`, an option's `sortKey`, an announcement rule's
 * `templateId`). Such a value is kept only when the declaration holding it reads back equal to the
 * live object by the kind's own rules (so adopting it writes nothing).
 */
export function heldInputs(object: LiveObject): Props {
  const spec = object.spec;
  const inputs = { ...(spec.toInputs(object.live, object.declared as never) as Props), ...object.declared };
  const computed = spec.computed(object.live, undefined) as Props;
  const secretInputs = spec.secretOutputs.filter((k) => k in spec.inputs.shape);
  for (const key of Object.keys(spec.inputs.shape)) {
    const output = `current${key[0]!.toUpperCase()}${key.slice(1)}`;
    if (inputs[key] !== undefined || !spec.computedOutputs.includes(output)) continue;
    const held = computed[output];
    if (held === undefined || held === null) continue;
    const candidate = { ...inputs, [key]: held };
    const failures = checkInputs(spec, { ...candidate, ...secretStandIns(secretInputs) });
    if (failures.length > 0) continue;
    // Another spelling of what other inputs already say (a deprecated alias) changes how they compare.
    const [without, withIt] = [inputs, candidate].map((i) => {
      const parsed = spec.inputs.safeParse({ ...i, ...secretStandIns(secretInputs) });
      return parsed.success ? canonicalInputs(spec, parsed.data as Props) : undefined;
    });
    if (!without || !withIt) continue;
    const others = Object.keys({ ...without, ...withIt }).filter((k) => k !== key);
    if (others.some((k) => canonicalJson(without[k]) !== canonicalJson(withIt[k]))) continue;
    if (readBackDifferences(spec, object, candidate, secretInputs).length === 0) inputs[key] = held;
  }
  return inputs;
}

/**
 * A part's label starts with its whole's (`Impact: High` for an option of the field Impact): a
 * part is an object whose kind extends another's name and whose inputs hold that object's id.
 */
function qualifyParts(drafts: Draft[]): void {
  const byId = new Map(drafts.map((d) => [d.object.id, d]));
  const wholes = drafts.map((d) => {
    const ids = Object.values(d.inputs).filter((v): v is string => typeof v === "string");
    return ids
      .map((id) => byId.get(id))
      .find((w) => w && w.object.kind !== d.object.kind && d.object.kind.startsWith(w.object.kind));
  });
  drafts.forEach((d, i) => {
    const whole = wholes[i];
    if (whole) d.label = `${whole.label}: ${d.label}`;
  });
}

/** The object's name for people: its `name` input, else another naming input, else its id. */
function labelOf(object: LiveObject, inputs: Props): string {
  for (const key of ["name", "title", "value", "externalId", "syncType"]) {
    const value = inputs[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return object.id;
}

/**
 * The inputs without the values the schema gives anyway: each key, depth first, is left out when
 * the checked inputs compare equal without it (by the kind's canonical form).
 */
export function minimalInputs(spec: ResourceSpec, inputs: Props): Props {
  const full = JSON.parse(JSON.stringify(inputs)) as Props;
  const parsed = spec.inputs.safeParse(full);
  if (!parsed.success) return full;
  const target = canonicalJson(canonicalInputs(spec, parsed.data as Props));
  const result = structuredClone(full);
  const tryRemove = (container: Record<string, unknown>, key: string): boolean => {
    const value = container[key];
    delete container[key];
    const again = spec.inputs.safeParse(result);
    if (again.success && canonicalJson(canonicalInputs(spec, again.data as Props)) === target) return true;
    container[key] = value;
    return false;
  };
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      visit(record[key]);
      if (!tryRemove(record, key)) {
        // An empty object or list left behind may itself be a default.
        const value = record[key];
        if (isEmpty(value)) tryRemove(record, key);
      }
    }
  };
  visit(result);
  return result;
}

const isEmpty = (value: unknown) =>
  (Array.isArray(value) && value.length === 0) ||
  (value !== null && typeof value === "object" && Object.keys(value as object).length === 0);

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

interface ReferenceContext {
  byId: Map<string, string>;
  /** The object's own variable (never a reference to itself). */
  self: string;
  /** Variables referred to. */
  uses: Set<string>;
  /** The parameter of `apply` callbacks. */
  param: string;
}

/**
 * Replaces ids of exported objects and users with references (never the object's own id): a value,
 * an id inside a string, and an object's keys.
 */
function withReferences(value: unknown, ctx: ReferenceContext): Value {
  const variableOf = (id: string) => {
    const variable = ctx.byId.get(id);
    return variable !== ctx.self ? variable : undefined;
  };
  if (typeof value === "string") {
    const whole = variableOf(value);
    if (whole) {
      ctx.uses.add(whole);
      return { $ref: whole };
    }
    const parts: Array<string | Reference> = [];
    let last = 0;
    for (const match of value.matchAll(ID_INSIDE)) {
      const variable = variableOf(match[0]);
      if (!variable) continue;
      if (match.index! > last) parts.push(value.slice(last, match.index));
      parts.push({ $ref: variable });
      ctx.uses.add(variable);
      last = match.index! + match[0].length;
    }
    if (parts.length === 0) return value;
    if (last < value.length) parts.push(value.slice(last));
    return { $interpolate: parts };
  }
  if (Array.isArray(value)) return value.map((v) => withReferences(v, ctx));
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.some(([k]) => variableOf(k) !== undefined)) {
      const keyed: KeyedByReference = { $keyed: [], param: ctx.param };
      for (const [k, v] of entries) {
        const variable = variableOf(k);
        if (variable) ctx.uses.add(variable);
        keyed.$keyed.push([variable ? { $ref: variable } : k, withReferences(v, ctx)]);
      }
      return keyed;
    }
    const out: { [key: string]: Value } = {};
    for (const [k, v] of entries) out[k] = withReferences(v, ctx);
    return out;
  }
  return value as Value;
}

/** Every id the drafts' inputs hold: values, ids inside strings, and keys. */
function usedIds(drafts: Draft[]): Set<string> {
  const used = new Set<string>();
  const collect = (value: unknown) => {
    if (typeof value === "string") {
      used.add(value);
      for (const match of value.matchAll(ID_INSIDE)) used.add(match[0]);
    } else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        used.add(k);
        collect(v);
      }
    }
  };
  for (const d of drafts) collect(d.inputs);
  return used;
}

/**
 * A lookup for each user (by e-mail) and team (by name) an exported object refers to by id; a user
 * without an e-mail, or a team whose name is not unique, stays an id.
 */
function lookupsFor(account: Account, used: Set<string>, taken: Set<string>): Lookup[] {
  const out: Lookup[] = [];
  const users = account.users
    .filter((u) => used.has(u.id) && u.email)
    .sort((a, b) => compare(a.email!, b.email!) || compare(a.id, b.id));
  for (const user of users) {
    const variable = safeIdentifier(camelCase(user.email!.split("@")[0]!, "user"), "User", taken, true);
    out.push({ variable, fn: "getUserOutput", args: { email: user.email! }, id: user.id });
  }
  const named = (name: string) => account.teams.filter((t) => t.name === name).length;
  const teams = account.teams
    .filter((t) => used.has(t.id) && named(t.name) === 1)
    .sort((a, b) => compare(a.name, b.name));
  for (const team of teams) {
    const variable = safeIdentifier(`${camelCase(team.name, "team")}Team`, "", taken);
    out.push({ variable, fn: "getTeamOutput", args: { name: team.name }, id: team.id });
  }
  return out;
}

/**
 * A lookup for each object another project declares that these drafts refer to (`byId` gains its
 * variable): `get<Kind>Output`, its arguments from the object's inputs of the same name when that
 * finds it alone (by name), else by id where the lookup takes one (`id`, or an entry's
 * `identifier`). An argument that is the id of another object (`catalogTypeId`) refers to it in
 * turn. An object no lookup finds keeps its id (`unlooked`).
 */
function elsewhereLookups(
  elsewhere: Elsewhere,
  used: Set<string>,
  byId: Map<string, string>,
  taken: Set<string>,
  unlooked: ExportModel["unlooked"],
): Lookup[] {
  const out: Lookup[] = [];
  const seen = new Set<string>();
  const variableOf = (id: string): string | undefined => {
    if (byId.has(id)) return byId.get(id);
    const other = elsewhere.byId.get(id);
    if (!other || seen.has(id)) return undefined;
    seen.add(id);
    const { draft, project } = other;
    const kind = draft.object.kind;
    const found = lookupArgsFor(draft, elsewhere.byKind.get(kind) ?? [draft]);
    if (!found) {
      unlooked.push({ kind, id, label: draft.label, project });
      return undefined;
    }
    const args: { [key: string]: Value } = {};
    for (const [key, value] of Object.entries(found.args)) {
      // A scope (`catalogTypeId`) is looked up too: a part is declared where its whole is (split.ts),
      // so the whole of an object another project declares is never this project's resource.
      const ref = key.endsWith("Id") && typeof value === "string" ? variableOf(value) : undefined;
      args[key] = ref !== undefined ? { $ref: ref } : (value as Value);
    }
    const base = camelCase(draft.label, camelCase(kind, "object"));
    const variable = safeIdentifier(base, kind, taken, true);
    byId.set(id, variable);
    out.push({
      variable,
      fn: `${found.fn}Output`,
      args,
      id,
      declaredIn: { kind, label: draft.label, project },
    });
    return variable;
  };
  for (const id of [...used].sort()) variableOf(id);
  return out;
}

/** Arguments that make the lookup an id is derived from. */
const ID_ARGUMENTS = ["id", "identifier"];

/**
 * The kind's lookup (`get<Kind>`) and arguments that find `draft` alone: by its inputs of the same
 * names (the lookup's own check passes, and no other object of the kind gives the same), else by id.
 */
function lookupArgsFor(draft: Draft, ofKind: Draft[]): { fn: string; args: Props } | undefined {
  const fn = `get${draft.object.kind}`;
  const schema = lookupArguments(fn);
  if (!schema) return undefined;
  const keys = Object.keys(schema.shape);
  const optional = (k: string) => schema.shape[k].safeParse(undefined).success;
  const named = (d: Draft, without: string | undefined): Props =>
    Object.fromEntries(
      keys
        .filter((k) => k !== without && !ID_ARGUMENTS.includes(k) && d.inputs[k] !== undefined)
        .map((k) => [k, d.inputs[k]]),
    );
  // All the inputs it takes; failing its check, without one optional argument (the last first).
  const candidates = [undefined, ...keys.filter(optional).reverse()];
  for (const without of candidates) {
    const args = named(draft, without);
    if (Object.keys(args).length === 0 || !schema.safeParse(args).success) continue;
    const text = canonicalJson(args);
    const alike = ofKind.filter((d) => canonicalJson(named(d, without)) === text);
    if (alike.length === 1) return { fn, args };
  }
  const byId = keys.find((k) => ID_ARGUMENTS.includes(k));
  if (byId === undefined) return undefined;
  const args = { ...named(draft, byId), [byId]: draft.object.id };
  // The id alone, with the scope a lookup by id still needs (an entry's catalog type).
  const withOnlyId = Object.fromEntries(
    Object.entries(args).filter(([k]) => k === byId || !optional(k) || k.endsWith("Id")),
  );
  return schema.safeParse(withOnlyId).success ? { fn, args: withOnlyId } : undefined;
}

/**
 * Resource names (kebab-case, unique per kind) and variables (camelCase, unique in the program)
 * from labels. Deterministic: objects with the same name are numbered in id order, and a variable
 * taken by several kinds carries its kind.
 */
export function assignNames(
  items: Array<{ kind: string; id: string; label: string }>,
): Array<{ resourceName: string; variable: string }> {
  const order = items.map((_, i) => i).sort((a, b) => compare(items[a]!.id, items[b]!.id));
  const resourceNames = new Map<number, string>();
  const perKind = new Map<string, Set<string>>();
  for (const i of order) {
    const item = items[i]!;
    const taken = perKind.get(item.kind) ?? new Set<string>();
    perKind.set(item.kind, taken);
    resourceNames.set(i, uniqueDashed(kebabCase(item.label, item.kind), taken));
  }
  const baseCount = new Map<string, number>();
  const base = (i: number) => camelCase(resourceNames.get(i)!, "object");
  for (const i of order) baseCount.set(base(i), (baseCount.get(base(i)) ?? 0) + 1);
  const variables = new Set<string>();
  const out: Array<{ resourceName: string; variable: string }> = new Array(items.length);
  for (const i of order) {
    const b = base(i);
    const kind = items[i]!.kind;
    // A name two kinds share, or one a declaration may not take (names.ts), carries its kind.
    const wanted = baseCount.get(b)! > 1 ? `${b}${kind}` : b;
    out[i] = { resourceName: resourceNames.get(i)!, variable: safeIdentifier(wanted, kind, variables) };
  }
  return out;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function uniqueDashed(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let n = 2; taken.has(name); n++) name = `${wanted}-${n}`;
  taken.add(name);
  return name;
}

/**
 * Every resource after those it refers to; otherwise by kind (in the order kinds first appear as
 * dependencies) and name. A reference that would close a cycle stays a literal id.
 */
export function inDependencyOrder(resources: ExportedResource[]): ExportedResource[] {
  const byVariable = new Map(resources.map((r) => [r.variable, r]));
  const kindRank = kindOrder(resources);
  const sorted = [...resources].sort(
    (a, b) => kindRank.get(a.kind)! - kindRank.get(b.kind)! || compare(a.resourceName, b.resourceName),
  );
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const out: ExportedResource[] = [];
  const place = (r: ExportedResource) => {
    if (placed.has(r.variable)) return;
    visiting.add(r.variable);
    for (const dep of r.dependsOn) {
      const target = byVariable.get(dep);
      if (!target) continue;
      if (visiting.has(dep)) {
        breakReference(r, dep, target.id);
        continue;
      }
      place(target);
    }
    visiting.delete(r.variable);
    placed.add(r.variable);
    out.push(r);
  };
  for (const r of sorted) place(r);
  return underParents(out, byVariable);
}

/**
 * Parts written under their whole: a resource whose kind extends another's name (CustomFieldOption
 * of CustomField, CatalogTypeAttribute of CatalogType) and that refers to one object of that kind
 * comes right after it (and its earlier parts), when everything else it refers to is declared before.
 */
function underParents(
  ordered: ExportedResource[],
  byVariable: Map<string, ExportedResource>,
): ExportedResource[] {
  const parentOf = (r: ExportedResource) => {
    const parents = r.dependsOn
      .map((d) => byVariable.get(d))
      .filter((p): p is ExportedResource => !!p && p.kind !== r.kind && r.kind.startsWith(p.kind));
    return parents.length === 1 ? parents[0] : undefined;
  };
  const children = new Map<ExportedResource, ExportedResource[]>();
  for (const r of ordered) {
    const parent = parentOf(r);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), r]);
  }
  const out: ExportedResource[] = [];
  const emitted = new Set<string>();
  const emit = (r: ExportedResource) => {
    out.push(r);
    emitted.add(r.variable);
    for (const child of children.get(r) ?? []) {
      const ready = child.dependsOn.every((d) => emitted.has(d) || !byVariable.has(d));
      if (!emitted.has(child.variable) && ready) emit(child);
    }
  };
  for (const r of ordered) if (!emitted.has(r.variable)) emit(r);
  return out;
}

/** Kinds ranked so that a kind comes after the kinds its objects refer to (cycles: alphabetical). */
function kindOrder(resources: ExportedResource[]): Map<string, number> {
  const kindOf = new Map(resources.map((r) => [r.variable, r.kind]));
  const deps = new Map<string, Set<string>>();
  for (const r of resources) {
    const set = deps.get(r.kind) ?? new Set<string>();
    deps.set(r.kind, set);
    for (const d of r.dependsOn) {
      const k = kindOf.get(d);
      if (k && k !== r.kind) set.add(k);
    }
  }
  const rank = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (kind: string) => {
    if (rank.has(kind) || visiting.has(kind)) return;
    visiting.add(kind);
    for (const d of [...(deps.get(kind) ?? [])].sort()) visit(d);
    visiting.delete(kind);
    rank.set(kind, rank.size);
  };
  for (const kind of [...deps.keys()].sort()) visit(kind);
  return rank;
}

/** Turns references to `variable` back into the literal id (a cycle cannot be declared). */
function breakReference(resource: ExportedResource, variable: string, id: string): void {
  const replace = (value: Value): Value => {
    if (Array.isArray(value)) return value.map(replace);
    if (value !== null && typeof value === "object") {
      if ("$ref" in value) return value.$ref === variable ? id : value;
      if ("$interpolate" in value) {
        const parts = (value as Interpolation).$interpolate.map((p) =>
          typeof p !== "string" && p.$ref === variable ? id : p,
        );
        return parts.every((p) => typeof p === "string") ? parts.join("") : { $interpolate: parts };
      }
      if ("$secret" in value) return value;
      if ("$keyed" in value) {
        const node = value as KeyedByReference;
        const entries = node.$keyed.map(([k, v]): [Reference | string, Value] => [
          typeof k !== "string" && k.$ref === variable ? id : k,
          replace(v),
        ]);
        return entries.some(([k]) => typeof k !== "string")
          ? { $keyed: entries, param: node.param }
          : Object.fromEntries(entries as Array<[string, Value]>);
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v as Value)]));
    }
    return value;
  };
  resource.args = replace(resource.args) as ExportedResource["args"];
  resource.dependsOn = resource.dependsOn.filter((d) => d !== variable);
}

/**
 * The first `up` adopts the object without a write only if the declaration compares equal to it by
 * the diff's own rules (secret inputs, unknown until the stack's config is set, are left out).
 */
function check(resource: ExportedResource, object: LiveObject, inputs: Props, secretInputs: string[]): void {
  const declared = { ...inputs, [ADOPT_KEY]: object.id };
  for (const failure of checkInputs(object.spec, declared)) {
    if (!secretInputs.includes(failure.property)) resource.problems.push(failure.reason);
  }
  if (resource.problems.length > 0) return;
  resource.differences = readBackDifferences(object.spec, object, inputs, secretInputs);
}

/**
 * The input paths where the live object, read back against the declaration `inputs`, differs from
 * it by the diff's rules (["<problems>"] when the declaration does not pass the schema).
 */
function readBackDifferences(
  spec: ResourceSpec,
  object: LiveObject,
  inputs: Props,
  secretInputs: string[],
): string[] {
  const declared = { ...inputs, [ADOPT_KEY]: object.id };
  const result = spec.inputs.safeParse({ ...declared, ...secretStandIns(secretInputs) });
  if (!result.success) return ["<problems>"];
  const parsed = result.data as Props;
  // Local inputs (the provider's own settings) are kept as declared, as the provider's read does.
  const local = Object.fromEntries((spec.localInputs ?? []).map((k) => [k, parsed[k]]));
  const readBack = { ...(spec.toInputs(object.live, parsed) as Props), ...local };
  const keys = Object.keys(comparedInputs(spec, parsed)).filter((k) => !secretInputs.includes(k));
  const changes = inputChanges(
    [...new Set([...keys, ...Object.keys(readBack)])].filter(
      (k) => k !== ADOPT_KEY && !secretInputs.includes(k) && k in spec.inputs.shape,
    ),
    canonicalInputs(spec, readBack),
    canonicalInputs(spec, parsed),
  );
  return changes.map((c) => c.path.join("."));
}

const secretStandIns = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, "secret-value-not-read"]));

export { ID_SHAPE };
