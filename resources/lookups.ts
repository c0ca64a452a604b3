/**
 * Read-only lookups ("data sources") run in the Pulumi program, for what is no resource of this
 * provider: find an existing user, to use its id in resources (every other lookup lives with its
 * resource). Each comes as `getX(args)` (a Promise) and `getXOutput(args)` (an Output).
 */
import { z } from "zod";
import type { ApiClient } from "../provider/client";
import { unlessNotFound } from "../provider/errors";
import { defineLookup, LookupError } from "../provider/functions";

// ---------- getUser ----------

/** Arguments of `getUser`. */
export const getUserArgs = z
  .strictObject({
    /** E-mail address of the user (compared case-insensitively). */
    email: z
      .string()
      .min(1, "must not be empty")
      .includes("@", { message: "must be an e-mail address" })
      .optional(),
    /** The user's id in the connected chat product (Slack), e.g. `U02ABCDEF`. */
    slackUserId: z.string().min(1, "must not be empty").optional(),
    /** The user's id in this API. */
    id: z.string().min(1, "must not be empty").optional(),
  })
  .refine(
    (a) => [a.email, a.slackUserId, a.id].filter((v) => v !== undefined).length === 1,
    "give exactly one of email, slackUserId or id",
  );
export type GetUserArgs = z.input<typeof getUserArgs>;

/** A user of the account. */
export interface GetUserResult {
  /** The user's id: use it in schedules, escalation paths and workflow bindings. */
  id: string;
  /** Display name. */
  name: string;
  /** E-mail address, as the API holds it. */
  email: string;
  /** DEPRECATED in the API (no longer updated since March 2023): the user's base role. */
  role: string;
  /** The user's id in the connected chat product, when there is one. */
  slackUserId: string | undefined;
}

interface ApiUser {
  id: string;
  name: string;
  email?: string;
  role: string;
  slack_user_id?: string;
}

/**
 * Finds a user by e-mail: `GET /v2/users?email=…` (API v2, the only version of the users list),
 * following pagination. The match is made again here, case-insensitively, so the result is exactly
 * the user asked for whatever the server's filter does.
 */
export async function findUserByEmail(client: ApiClient, email: string): Promise<GetUserResult> {
  const users = await client.listAll<ApiUser>("/v2/users", "users", "list users", { email });
  const wanted = email.trim().toLowerCase();
  const matches = users.filter((u) => (u.email ?? "").trim().toLowerCase() === wanted);
  if (matches.length === 0) throw new LookupError("getUser", `no user with e-mail ${JSON.stringify(email)}`);
  if (matches.length > 1) {
    throw new LookupError(
      "getUser",
      `${matches.length} users have e-mail ${JSON.stringify(email)}: ${matches.map((u) => u.id).join(", ")}`,
    );
  }
  const u = matches[0]!;
  return { id: u.id, name: u.name, email: u.email ?? email, role: u.role, slackUserId: u.slack_user_id };
}

/** Finds a user by chat (Slack) user id: `GET /v2/users?slack_user_id=…`, matched again here. */
export async function findUserBySlackId(client: ApiClient, slackUserId: string): Promise<GetUserResult> {
  const users = await client.listAll<ApiUser>("/v2/users", "users", "list users", {
    slack_user_id: slackUserId,
  });
  const matches = users.filter((u) => u.slack_user_id === slackUserId);
  if (matches.length !== 1) {
    throw new LookupError(
      "getUser",
      matches.length === 0
        ? `no user with Slack user id ${JSON.stringify(slackUserId)}`
        : `${matches.length} users have Slack user id ${JSON.stringify(slackUserId)}: ${matches.map((u) => u.id).join(", ")}`,
    );
  }
  return userResult(matches[0]!);
}

/** Finds a user by id: `GET /v2/users/{id}`. */
export async function findUserById(client: ApiClient, id: string): Promise<GetUserResult> {
  const body = await unlessNotFound(
    client.get<{ user: ApiUser }>(`/v2/users/${encodeURIComponent(id)}`, "show user"),
  );
  if (!body) throw new LookupError("getUser", `no user with id ${JSON.stringify(id)}`);
  return userResult(body.user);
}

const userResult = (u: ApiUser): GetUserResult => ({
  id: u.id,
  name: u.name,
  email: u.email ?? "",
  role: u.role,
  slackUserId: u.slack_user_id,
});

const userLookup = defineLookup({
  name: "getUser",
  args: getUserArgs,
  run: (client, args) =>
    args.email !== undefined
      ? findUserByEmail(client, args.email)
      : args.slackUserId !== undefined
        ? findUserBySlackId(client, args.slackUserId)
        : findUserById(client, args.id!),
});

/** Finds a user of the account by e-mail address, Slack user id or id; fails when there is none. */
export const getUser = userLookup.get;
/** `getUser` taking Inputs and answering an Output. */
export const getUserOutput = userLookup.getOutput;
