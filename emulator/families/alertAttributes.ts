/**
 * Emulator family: alert attributes (API v2). `GET/POST /v2/alert_attributes`,
 * `GET/PUT/DELETE /v2/alert_attributes/{id}`.
 *
 * Read-back reproduces what the real API does: emoji are stored without colons (`:fire:` → `fire`),
 * an update that omits `required` keeps the current setting, names are unique (422 on `name`), the
 * list answers in name order (not creation order). Delete is a hard delete. Writes to the account's
 * alert configuration (attributes and sources) must not overlap: see `installAlertConfigGate` in
 * alertSources.ts.
 */

import { defineFamily, operation } from "../family";
import { notFound, throwIfProblems } from "../http/errors";
import { SETTINGS_ROLES } from "../roles";
import type { Store } from "../store";

type Json = any;

/** A 422 problem: the API field path and a message. */
export interface FieldProblem {
  field: string;
  message: string;
}

export interface StoredAlertAttribute {
  id: string;
  name: string;
  type: string;
  array: boolean;
  required: boolean;
  emoji?: string;
  deleted: boolean;
}

/** Behaviour checks beyond the reference shapes (AlertAttributesCreatePayloadV2 is validated first). */
export function alertAttributeProblems(
  body: Json,
  existing: Iterable<StoredAlertAttribute>,
  selfId?: string,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (typeof body?.name === "string") {
    if (body.name.trim() === "") problems.push({ field: "name", message: "must not be empty" });
    for (const a of existing) {
      if (!a.deleted && a.id !== selfId && a.name === body.name) {
        problems.push({ field: "name", message: `an alert attribute named "${body.name}" already exists` });
      }
    }
  }
  if (typeof body?.type === "string" && body.type.trim() === "") {
    problems.push({ field: "type", message: "must not be empty" });
  }
  if (typeof body?.emoji === "string" && stripColons(body.emoji) === "") {
    problems.push({ field: "emoji", message: "must name an emoji" });
  }
  return problems;
}

function stripColons(emoji: string): string {
  return emoji.trim().replace(/^:+|:+$/g, "");
}

export function createAlertAttribute(id: string, body: Json): StoredAlertAttribute {
  return {
    id,
    name: body.name,
    type: body.type,
    array: body.array,
    required: body.required ?? false,
    ...(typeof body.emoji === "string" && body.emoji !== "" ? { emoji: stripColons(body.emoji) } : {}),
    deleted: false,
  };
}

export function updateAlertAttribute(stored: StoredAlertAttribute, body: Json): StoredAlertAttribute {
  const next: StoredAlertAttribute = {
    ...stored,
    name: body.name,
    type: body.type,
    array: body.array,
    // "If this field is not set, the existing setting will be preserved."
    required: body.required ?? stored.required,
  };
  if (typeof body.emoji === "string" && body.emoji !== "") next.emoji = stripColons(body.emoji);
  else delete next.emoji;
  return next;
}

/** AlertAttributeV2. */
export function renderAlertAttribute(a: StoredAlertAttribute): Json {
  return {
    id: a.id,
    name: a.name,
    type: a.type,
    array: a.array,
    required: a.required,
    ...(a.emoji !== undefined ? { emoji: a.emoji } : {}),
  };
}

export function showAlertAttribute(a: StoredAlertAttribute): Json {
  return { alert_attribute: renderAlertAttribute(a) };
}

/** AlertAttributesListResultV2: name order, deleted ones left out. */
export function listAlertAttributes(all: Iterable<StoredAlertAttribute>): Json {
  return {
    alert_attributes: [...all]
      .filter((a) => !a.deleted)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(renderAlertAttribute),
  };
}

// ---------- the emulator family ----------

export const ALERT_ATTRIBUTES = "alert_attributes";

function findAlertAttribute(store: Store, id: string): StoredAlertAttribute | undefined {
  const a = store.collection<StoredAlertAttribute>(ALERT_ATTRIBUTES).get(id);
  return a && !a.deleted ? a : undefined;
}

export const alertAttributes = defineFamily({
  name: "alert_attributes",
  roles: SETTINGS_ROLES,
  collections: [ALERT_ATTRIBUTES],
  routes: [
    operation("AlertAttributesV2List", "read", ({ store }) => ({
      body: listAlertAttributes(store.collection<StoredAlertAttribute>(ALERT_ATTRIBUTES).all()),
    })),

    operation("AlertAttributesV2Create", "write", ({ store, body, newId }) => {
      const col = store.collection<StoredAlertAttribute>(ALERT_ATTRIBUTES);
      throwIfProblems(alertAttributeProblems(body, col.all()));
      const stored = col.set(createAlertAttribute(newId(), body));
      return { body: showAlertAttribute(stored) };
    }),

    operation("AlertAttributesV2Show", "read", ({ store, params }) => {
      const a = findAlertAttribute(store, params.id!);
      if (!a) throw notFound(`No alert attribute with id ${params.id}`);
      return { body: showAlertAttribute(a) };
    }),

    operation("AlertAttributesV2Update", "write", ({ store, params, body }) => {
      const col = store.collection<StoredAlertAttribute>(ALERT_ATTRIBUTES);
      const a = findAlertAttribute(store, params.id!);
      if (!a) throw notFound(`No alert attribute with id ${params.id}`);
      throwIfProblems(alertAttributeProblems(body, col.all(), a.id));
      const stored = col.set(updateAlertAttribute(a, body));
      return { body: showAlertAttribute(stored) };
    }),

    operation("AlertAttributesV2Destroy", "write", ({ store, params }) => {
      if (!findAlertAttribute(store, params.id!)) throw notFound(`No alert attribute with id ${params.id}`);
      store.collection(ALERT_ATTRIBUTES).delete(params.id!);
      return {};
    }),
  ],
});
