import { z } from "zod";
import { warnUnless } from "../../provider/checkWarnings";
import { idText } from "../../provider/inputs";

/**
 * A user named by id, e-mail address or Slack user id (the API's `UserReferencePayloadV2`, whose
 * three keys are each optional): a maintenance window's lead, a schedule override's user. One key
 * is what the user means; none or several are warned about and sent as written (the API decides).
 */
export const userReference = z
  .strictObject({
    /** The user's id. */
    id: idText().optional(),
    /** The user's e-mail address (compared case-insensitively). */
    email: z
      .string()
      .superRefine(warnUnless((v: string) => v.includes("@"), "is not an e-mail address"))
      .optional(),
    /** The user's Slack user id, e.g. `U02ABCDEF`. */
    slackUserId: idText().optional(),
  })
  .superRefine(
    warnUnless(
      (r: { id?: string; email?: string; slackUserId?: string }) =>
        [r.id, r.email, r.slackUserId].filter((v) => v !== undefined).length === 1,
      "names the user by none or several of id, email and slackUserId",
    ),
  );
export type UserReference = z.infer<typeof userReference>;

/** The user as the API answers it (`UserV2`, the parts a reference can name). */
export interface ApiUserRef {
  id: string;
  email?: string;
  slack_user_id?: string;
}

/** `UserReferencePayloadV2`: the keys the reference names the user by (one, as a rule). */
export function userReferencePayload(ref: UserReference): Record<string, string> {
  return {
    ...(ref.id !== undefined ? { id: ref.id } : {}),
    ...(ref.email !== undefined ? { email: ref.email } : {}),
    ...(ref.slackUserId !== undefined ? { slack_user_id: ref.slackUserId } : {}),
  };
}

/**
 * Rule "user reference by any key": the API answers the user in full; a declared reference by id,
 * e-mail (any case) or Slack user id that names that user reads back as declared. Another user
 * reads back by id (drift).
 */
export function userReferenceFromApi(
  live: ApiUserRef | undefined,
  declared: UserReference | undefined,
): UserReference {
  if (!live) return declared ?? {};
  const same =
    declared !== undefined &&
    ((declared.id !== undefined && declared.id === live.id) ||
      (declared.email !== undefined && declared.email.toLowerCase() === (live.email ?? "").toLowerCase()) ||
      (declared.slackUserId !== undefined && declared.slackUserId === live.slack_user_id));
  return same ? declared : { id: live.id };
}

/** Canonical form for diffs: an e-mail address in any case is the same reference. */
export function canonicalUserReference(ref: UserReference | undefined): UserReference | undefined {
  return ref?.email !== undefined ? { email: ref.email.toLowerCase() } : ref;
}
