/**
 * Emulator family: API keys (API v1). `GET/POST /v1/api_keys`, `GET/PUT/DELETE /v1/api_keys/{id}`,
 * `POST /v1/api_keys/{id}/actions/rotate`. Every endpoint needs `api_keys_manage` (account or team
 * level) or `global_access`.
 *
 * Rules (reference.json docs):
 * - `api_keys_manage` cannot be assigned via the API: 422 on `role_names` / `team_role_names`;
 * - a caller can only assign roles it holds (unless it has `global_access`): 403;
 * - `team_ids` and `team_role_names` go together (one non-empty needs the other): 422;
 * - a key cannot edit (PUT) itself: 403; update is a full PUT (`comments` omitted = cleared);
 * - at most `maxApiKeys` (5000) keys: 422 `api_key_limit_reached`;
 * - a caller holding `api_keys_manage` only as a team role sees and manages only keys of its teams
 *   (others answer 404), and can only create keys scoped to its teams;
 * - rotate: `grace_period_minutes` 0–60; the old token keeps working that long (0: stops at once);
 *   the caller must hold every role of the key it rotates (403).
 * `roles` / `team_roles` come back as `{name, description}` sorted by name; `token` only in the
 * create and rotate responses; `creator` is the calling key (`{api_key: {id, name}}`).
 */
import {
  API_KEYS,
  type StoredApiKey,
  type StoredToken,
  storeApiKey,
  uniqueInOrder,
  uniqueSorted,
} from "../auth";
import { defineFamily, type HandlerContext, operation, paginate } from "../family";
import { type FieldProblem, forbidden, notFound, throwIfProblems, validationFailed } from "../http/errors";
import { hashToken, newToken } from "../ids";
import { type Caller, ROLE_DESCRIPTIONS, TEAM_ROLE_DESCRIPTIONS } from "../roles";
import type { Store } from "../store";
import { requireTeams } from "./teams";

export { API_KEYS, type StoredApiKey } from "../auth";

/** The longest grace period a rotation accepts (minutes). */
export const MAX_GRACE_MINUTES = 60;

/** `APIKeyV1`. */
export function renderApiKey(store: Store, k: StoredApiKey): Record<string, unknown> {
  const lastUsed = (store.meta.last_used_at as Record<string, string> | undefined)?.[k.id];
  return {
    id: k.id,
    name: k.name,
    ...(k.comments !== undefined ? { comments: k.comments } : {}),
    created_at: k.created_at,
    creator: structuredClone(k.creator),
    ...(lastUsed !== undefined ? { last_used_at: lastUsed } : {}),
    roles: k.role_names.map((name) => ({ name, description: ROLE_DESCRIPTIONS[name] ?? name })),
    team_ids: [...k.team_ids],
    team_roles: k.team_role_names.map((name) => ({
      name,
      description: TEAM_ROLE_DESCRIPTIONS[name] ?? name,
    })),
    token_last_issued_at: k.token_last_issued_at,
  };
}

function isAccountManager(caller: Caller): boolean {
  return caller.roles.has("global_access") || caller.roles.has("api_keys_manage");
}

/** Keys the caller may see: all for account-level managers, otherwise keys sharing a team. */
function visible(caller: Caller, key: StoredApiKey): boolean {
  if (isAccountManager(caller)) return true;
  return key.team_ids.some((t) => caller.teamIds.includes(t));
}

function findVisible(ctx: HandlerContext): StoredApiKey {
  const key = ctx.store.collection<StoredApiKey>(API_KEYS).get(ctx.params.id!);
  if (!key || !visible(ctx.caller, key)) throw notFound(`No API key with id ${ctx.params.id}`);
  return key;
}

interface KeyPayload {
  name: string;
  role_names: string[];
  team_ids: string[];
  team_role_names: string[];
  comments?: string;
}

/** Checks a create/update payload (already of the reference shape) against the API key rules. */
function checkPayload(ctx: HandlerContext, body: KeyPayload): void {
  const problems: FieldProblem[] = [];
  if (body.name.trim() === "") problems.push({ field: "name", message: "must not be empty" });
  if (body.role_names.includes("api_keys_manage")) {
    problems.push({
      field: "role_names",
      message: "the api_keys_manage role cannot be assigned via the API",
    });
  }
  if (body.team_role_names.includes("api_keys_manage")) {
    problems.push({
      field: "team_role_names",
      message: "the api_keys_manage role cannot be assigned via the API",
    });
  }
  if (body.team_ids.length > 0 && body.team_role_names.length === 0) {
    problems.push({ field: "team_role_names", message: "must not be empty when team_ids is set" });
  }
  if (body.team_role_names.length > 0 && body.team_ids.length === 0) {
    problems.push({ field: "team_ids", message: "must not be empty when team_role_names is set" });
  }
  throwIfProblems(problems);

  requireTeams(ctx.store, body.team_ids);

  const caller = ctx.caller;
  if (caller.roles.has("global_access")) return;
  if (!isAccountManager(caller)) {
    const outside = body.team_ids.filter((t) => !caller.teamIds.includes(t));
    if (body.team_ids.length === 0 || outside.length > 0) {
      throw forbidden(
        "This API key manages API keys only for its teams: the key must be scoped to some of them (team_ids)",
        "team_scope_exceeded",
      );
    }
  }
  const missing = [
    ...body.role_names.filter((r) => !caller.roles.has(r)),
    ...body.team_role_names
      .filter(
        (r) =>
          !caller.roles.has(r) &&
          !(caller.teamRoles.has(r) && body.team_ids.every((t) => caller.teamIds.includes(t))),
      )
      .map((r) => `${r} (team)`),
  ];
  if (missing.length > 0) {
    throw forbidden(
      `This API key can only assign roles it holds itself; it does not hold ${missing.join(", ")}`,
      "role_not_held",
    );
  }
}

/** True when the caller holds every role of `key` (needed to rotate it). */
function holdsAllRolesOf(caller: Caller, key: StoredApiKey): boolean {
  if (caller.roles.has("global_access")) return true;
  return (
    key.role_names.every((r) => caller.roles.has(r)) &&
    key.team_role_names.every(
      (r) =>
        caller.roles.has(r) ||
        (caller.teamRoles.has(r) && key.team_ids.every((t) => caller.teamIds.includes(t))),
    )
  );
}

export const apiKeys = defineFamily({
  name: "api_keys",
  roles: { read: [], write: ["api_keys_manage"], teamWrite: ["api_keys_manage"] },
  collections: [API_KEYS],
  dashboard: { renderApiKey },
  routes: [
    operation("APIKeysV1List", "read", (ctx) => {
      const all = ctx.store.collection<StoredApiKey>(API_KEYS).filter((k) => visible(ctx.caller, k));
      const { page, pagination_meta } = paginate(all, ctx.query);
      return { body: { api_keys: page.map((k) => renderApiKey(ctx.store, k)), pagination_meta } };
    }),

    operation("APIKeysV1Create", "write", (ctx) => {
      const body = ctx.body as KeyPayload;
      checkPayload(ctx, body);
      const keys = ctx.store.collection<StoredApiKey>(API_KEYS);
      const max = ctx.runtime.options.maxApiKeys;
      if (keys.size >= max) {
        throw validationFailed([
          {
            code: "api_key_limit_reached",
            message: `An organisation can have at most ${max} active API keys`,
          },
        ]);
      }
      const { key, token } = storeApiKey(
        ctx.store,
        {
          name: body.name,
          role_names: body.role_names,
          team_role_names: body.team_role_names,
          team_ids: body.team_ids,
          comments: body.comments,
          creator: { api_key: { id: ctx.caller.keyId, name: ctx.caller.name } },
        },
        ctx.nowIso,
      );
      return { body: { api_key: renderApiKey(ctx.store, key), token } };
    }),

    operation("APIKeysV1Show", "read", (ctx) => ({
      body: { api_key: renderApiKey(ctx.store, findVisible(ctx)) },
    })),

    operation("APIKeysV1Update", "write", (ctx) => {
      const key = findVisible(ctx);
      if (key.id === ctx.caller.keyId) throw forbidden("An API key cannot edit itself", "cannot_edit_self");
      const body = ctx.body as KeyPayload;
      checkPayload(ctx, body);
      const { comments: _old, ...rest } = key;
      const next: StoredApiKey = {
        ...rest,
        name: body.name,
        ...(body.comments !== undefined ? { comments: body.comments } : {}),
        role_names: uniqueSorted(body.role_names),
        team_role_names: uniqueSorted(body.team_role_names),
        team_ids: uniqueInOrder(body.team_ids),
      };
      const stored = ctx.store.collection<StoredApiKey>(API_KEYS).set(next);
      return { body: { api_key: renderApiKey(ctx.store, stored) } };
    }),

    operation("APIKeysV1Delete", "write", (ctx) => {
      const key = findVisible(ctx);
      ctx.store.collection<StoredApiKey>(API_KEYS).delete(key.id);
      return {};
    }),

    operation("APIKeysV1Rotate", "write", (ctx) => {
      const key = findVisible(ctx);
      const grace = (ctx.body as { grace_period_minutes: number }).grace_period_minutes;
      if (grace < 0 || grace > MAX_GRACE_MINUTES) {
        throw validationFailed([
          { field: "grace_period_minutes", message: `must be between 0 and ${MAX_GRACE_MINUTES}` },
        ]);
      }
      if (!holdsAllRolesOf(ctx.caller, key)) {
        throw forbidden(
          "To rotate an API key, the calling key must hold every role of that key",
          "role_not_held",
        );
      }
      const graceEnds = ctx.now + grace * 60_000;
      const tokens: StoredToken[] = key.tokens
        .filter((t) => t.expires_at === undefined || t.expires_at > ctx.now)
        .map((t) => (t.expires_at === undefined ? { hash: t.hash, expires_at: graceEnds } : t))
        .filter((t) => t.expires_at! > ctx.now);
      const token = newToken();
      tokens.push({ hash: hashToken(token) });
      const stored = ctx.store
        .collection<StoredApiKey>(API_KEYS)
        .set({ ...key, tokens, token_last_issued_at: ctx.nowIso });
      return { body: { api_key: renderApiKey(ctx.store, stored), token } };
    }),
  ],
});
