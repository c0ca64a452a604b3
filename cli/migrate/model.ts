/**
 * What a migration is, whichever the source: the declarations to write (this API's kinds, their
 * inputs with references to people, teams and each other), and the plan: per source object, what
 * maps exactly, what approximately (and how), what not at all (and why). The source modules
 * (pagerduty.ts, opsgenie.ts) build one; program.ts writes it as code, plan.ts as a report,
 * verify.ts checks it.
 */

export type Fidelity = "exact" | "approximate" | "unmapped";

/** One thing about one source object: how it maps, and what it becomes or why it cannot. */
export interface PlanItem {
  fidelity: Fidelity;
  /** The source's part, as people name it (`layer "Weekends"`, `restriction Sat 00:00–Mon 00:00`). */
  what: string;
  /** Exact: what it becomes; approximate: how it is approximated; unmapped: why it is left out. */
  how: string;
}

export interface PlannedObject {
  /** `schedule`, `escalation policy`, `service`, `integration`, `user`, `team`. */
  sourceKind: string;
  sourceId: string;
  name: string;
  items: PlanItem[];
  /** The declarations written for it (their kind and key); none when nothing could be. */
  written: Array<{ kind: DeclaredKind; key: string }>;
  /** Why it is in the migration though the filters left it out (another object needs it). */
  neededBy?: string;
  /**
   * Objects this account already has, of a kind and name one of its declarations gives: `up` makes
   * another beside each (or fails, where the service keeps names unique) unless it adopts one.
   */
  namesakes?: Array<{ kind: DeclaredKind; key: string; id: string; name: string }>;
}

/** The worst fidelity of an object's items (`exact` when it has none). */
export function fidelityOf(object: Pick<PlannedObject, "items" | "written">): Fidelity {
  if (object.written.length === 0 && object.items.some((i) => i.fidelity === "unmapped")) return "unmapped";
  if (object.items.some((i) => i.fidelity !== "exact")) return "approximate";
  return "exact";
}

/** A reference a declaration's inputs hold, resolved when the program is written. */
export type Reference =
  | { $user: string } // a person here, by e-mail: `getUserOutput({ email }).id`
  | { $team: string } // a team here, by name: `getTeamOutput({ name }).id`
  | { $object: string }; // another declaration, by key: `<variable>.id`

export const userRef = (email: string): Reference => ({ $user: email });
export const teamRef = (name: string): Reference => ({ $team: name });
export const objectRef = (key: string): Reference => ({ $object: key });

export type DeclaredKind = "Schedule" | "EscalationPath" | "AlertSource" | "AlertRoute";

/** One resource of the program. */
export interface Declaration {
  /** Unique in the migration: `<kind>:<source id>[:<part>]`. */
  key: string;
  kind: DeclaredKind;
  sourceId: string;
  /** The object's name (resource and variable names come from it). */
  label: string;
  /** The inputs in the provider's form, references as `Reference` markers. */
  inputs: Record<string, unknown>;
  /** The source object's plan: its approximations are written above the resource, as comments. */
  plan: PlannedObject;
  /** The plan items about this resource, when it is one of several for its object (default: all). */
  noteItems?: PlanItem[];
}

/** A person a migrated object refers to, and whether this account has them (matched by e-mail). */
export interface Person {
  sourceId: string;
  name: string;
  email: string;
  /** This account's user id, when one has the e-mail address. */
  hereId?: string;
}

/** A migrated schedule or escalation policy, for `--verify`. */
export interface Migrated {
  sourceId: string;
  name: string;
  /** The declaration's key (the program's output names it by the source id). */
  key: string;
}

export interface Migration {
  source: "pagerduty" | "opsgenie";
  declarations: Declaration[];
  plan: PlannedObject[];
  people: Person[];
  schedules: Migrated[];
  escalations: Migrated[];
  /** Objects the filters left out. */
  filteredOut: number;
  /** Kinds whose names here could not be listed (the key may not), so namesakes were not looked for. */
  namesakesUnchecked?: Array<{ kind: DeclaredKind; reason: string }>;
}

/** This account's people and teams, read to match the source's by e-mail and name. */
export interface HereAccount {
  users: Array<{ id: string; email?: string; name?: string }>;
  teams: Array<{ id: string; name: string }>;
}

export interface MigrateOptions {
  /** The migration's "now": what has ended is left out, what starts later becomes a version. */
  now: number;
  /** Only objects of this source team (name or id), and what they need. */
  team?: string;
  /** Only objects whose name matches, and what they need. */
  namePattern?: RegExp;
}
