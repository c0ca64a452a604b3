/**
 * Objects this account already has under a name the migration gives: `up` would make a second one
 * beside each (or fail, where the service keeps names unique), so the plan names them before any
 * write, with the id to adopt. One list read (by page) per kind the migration declares, GETs only.
 */
import type { ApiClient } from "../../provider/client";
import { ApiError } from "../../provider/errors";
import { type ListSpec, walkList } from "../../provider/pagedReads";
import { ALERT_ROUTES_LIST } from "../../resources/alertRoute";
import { alertSourceSpec } from "../../resources/alertSource";
import { escalationPathSpec } from "../../resources/escalationPath";
import { scheduleSpec } from "../../resources/schedule";
import type { Declaration, DeclaredKind, Migration } from "./model";

/** Each declared kind's list: what it answers is enough (id and name), no object is read whole. */
const LISTS: Record<DeclaredKind, ListSpec | undefined> = {
  Schedule: scheduleSpec.list,
  EscalationPath: escalationPathSpec.list,
  AlertSource: alertSourceSpec.list,
  AlertRoute: ALERT_ROUTES_LIST,
};

/** The name a declaration gives its object here (its `name` input; else the source object's). */
const declaredName = (d: Declaration) => (typeof d.inputs.name === "string" ? d.inputs.name : d.label);

/**
 * Records on each planned object (`namesakes`) the objects of this account that have the name one
 * of its declarations gives, of the same kind.
 */
export async function markNamesakes(migration: Migration, client: ApiClient): Promise<void> {
  const kinds = [...new Set(migration.declarations.map((d) => d.kind))];
  const here = new Map<DeclaredKind, Array<{ id: string; name: string }>>();
  for (const kind of kinds) {
    const list = LISTS[kind];
    if (!list) continue;
    try {
      here.set(kind, await walkList<{ id: string; name: string }>(client, list));
    } catch (error) {
      // A key that may read people and teams but not this kind: the plan says what was not checked.
      if (!(error instanceof ApiError) || (error.status !== 401 && error.status !== 403)) throw error;
      migration.namesakesUnchecked = [
        ...(migration.namesakesUnchecked ?? []),
        { kind, reason: `${error.status} ${error.type}` },
      ];
    }
  }
  for (const d of migration.declarations) {
    const name = declaredName(d);
    for (const existing of here.get(d.kind) ?? []) {
      if (existing.name !== name) continue;
      d.plan.namesakes ??= [];
      d.plan.namesakes.push({ kind: d.kind, key: d.key, id: existing.id, name });
    }
  }
}
