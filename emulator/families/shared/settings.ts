/**
 * What the account-settings families (severities, incident statuses, incident roles, maintenance
 * windows, secrets, schedule sync targets) share: finding a record that is still live (not deleted
 * or archived) or answering the 404 the API gives, and the rule "must not be only whitespace".
 */
import { notFound } from "../../http/errors";
import type { Store } from "../../store";
import { type StoredUser, USERS } from "../users";

/** A stored record that may have been archived (archived records answer 404 like deleted ones). */
export interface Archivable {
  id: string;
  archived_at?: string;
}

/** The live record `id` of `collection`, or a 404 naming `title` ("severity"). */
export function liveRecord<T extends Archivable>(
  store: Store,
  collection: string,
  id: string,
  title: string,
): T {
  const found = store.collection<T>(collection).get(id);
  if (!found || found.archived_at !== undefined) throw notFound(`No ${title} with id ${id}`);
  return found;
}

/** The live records of `collection`, in creation order. */
export function liveRecords<T extends Archivable>(store: Store, collection: string): T[] {
  return store
    .collection<T>(collection)
    .all()
    .filter((r) => r.archived_at === undefined);
}

/** A 422 problem when a text field of the body is set but only whitespace. */
export function blankProblems(body: Record<string, unknown>, fields: readonly string[]) {
  return fields
    .filter((f) => typeof body[f] === "string" && (body[f] as string).trim() === "")
    .map((field) => ({ field, message: "must not be empty" }));
}

/**
 * The user a `UserReferencePayloadV2` names (`id`, `email` case-insensitively, or `slack_user_id`;
 * every key given must name the same user), or undefined.
 */
export function findUserByRef(store: Store, ref: any): StoredUser | undefined {
  const keys = ["id", "email", "slack_user_id"].filter((k) => typeof ref?.[k] === "string");
  if (keys.length === 0) return undefined;
  return store
    .collection<StoredUser>(USERS)
    .all()
    .find(
      (u) =>
        (ref.id === undefined || u.id === ref.id) &&
        (ref.email === undefined || (u.email ?? "").toLowerCase() === String(ref.email).toLowerCase()) &&
        (ref.slack_user_id === undefined || u.slack_user_id === ref.slack_user_id),
    );
}
