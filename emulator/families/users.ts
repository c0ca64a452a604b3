/**
 * Emulator family: users (API v2, read-only). `GET /v2/users` (paginated; `email` filters by e-mail,
 * case-insensitively; `slack_user_id` by chat user id; deactivated users only with
 * `include_inactive=true`), `GET /v2/users/{id}` (any user). Users carry `is_active`.
 *
 * Not in reference.json beyond the operation names: shapes are modelled on its `UserV2` type (see
 * ../localTypes.ts). Seeded with a handful of users for lookups by e-mail.
 */
import { defineFamily, operation, paginate } from "../family";
import { notFound } from "../http/errors";
import { registerLocalShapes } from "../localTypes";
import { ANY_KEY_READS } from "../roles";
import type { Store } from "../store";

registerLocalShapes();

export const USERS = "users";

/** `UserV2` as stored (rendered as is). */
export interface StoredUser {
  id: string;
  name: string;
  email?: string;
  /** `administrator` | `owner` | `responder` | `unset` | `viewer` (deprecated in the API). */
  role: string;
  slack_user_id?: string;
  /** False for a deactivated user (someone who left): listed only with `include_inactive`. */
  is_active?: boolean;
}

/** The seeded users (stable ids, so tests and examples can name them). The first is the owner. */
export const SEED_USERS: readonly StoredUser[] = [
  {
    id: "01USEROWNER",
    name: "Olive Owner",
    email: "owner@example.com",
    role: "owner",
    slack_user_id: "U0OWNER",
  },
  {
    id: "01USERADA",
    name: "Ada Lovelace",
    email: "ada@example.com",
    role: "responder",
    slack_user_id: "U0ADA",
  },
  { id: "01USERBOB", name: "Bob Barker", email: "bob@example.com", role: "responder" },
  { id: "01USERCAT", name: "Cat Stevens", email: "cat@example.com", role: "viewer" },
  {
    id: "01USEREVE",
    name: "Eve Adams",
    email: "eve@example.com",
    role: "administrator",
    slack_user_id: "U0EVE",
  },
  // Left the company: deactivated, still named by old schedules and escalation paths.
  { id: "01USERFAY", name: "Fay Former", email: "fay@example.com", role: "responder", is_active: false },
];

/** `UserV2` / `UserV1` of a stored user. */
export function renderUser(u: StoredUser): Record<string, unknown> {
  return {
    id: u.id,
    name: u.name,
    ...(u.email !== undefined ? { email: u.email } : {}),
    role: u.role,
    ...(u.slack_user_id !== undefined ? { slack_user_id: u.slack_user_id } : {}),
  };
}

/** What the users endpoints answer: `UserV2` and whether the user is active. */
function renderListedUser(u: StoredUser): Record<string, unknown> {
  return { ...renderUser(u), is_active: u.is_active !== false };
}

/** `UserV3` (no role). */
export function renderUserV3(u: StoredUser): Record<string, unknown> {
  const { role: _role, ...rest } = renderUser(u);
  return rest;
}

/** The account owner (seeded), used as the creator of keys made outside the API. */
export function accountOwner(store: Store): StoredUser | undefined {
  return store.collection<StoredUser>(USERS).all()[0];
}

export const users = defineFamily({
  name: "users",
  roles: ANY_KEY_READS,
  collections: [USERS],
  dashboard: {
    creator(store) {
      const owner = accountOwner(store);
      return owner ? { user: renderUser(owner) } : undefined;
    },
  },
  seed(store) {
    const c = store.collection<StoredUser>(USERS);
    for (const u of SEED_USERS) c.set(u);
  },
  routes: [
    operation("UsersV2List", "read", ({ store, query }) => {
      let all = store.collection<StoredUser>(USERS).all();
      const inactiveToo = query.include_inactive === true || query.include_inactive === "true";
      if (!inactiveToo) all = all.filter((u) => u.is_active !== false);
      if (typeof query.email === "string") {
        const wanted = query.email.trim().toLowerCase();
        all = all.filter((u) => (u.email ?? "").toLowerCase() === wanted);
      }
      if (typeof query.slack_user_id === "string")
        all = all.filter((u) => u.slack_user_id === query.slack_user_id);
      const { page, pagination_meta } = paginate(all, query);
      return { body: { users: page.map(renderListedUser), pagination_meta } };
    }),
    operation("UsersV2Show", "read", ({ store, params }) => {
      const u = store.collection<StoredUser>(USERS).get(params.id!);
      if (!u) throw notFound(`No user with id ${params.id}`);
      return { body: { user: renderListedUser(u) } };
    }),
  ],
});
