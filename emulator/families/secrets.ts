/**
 * Emulator family: secrets (API v2). `GET/POST /v2/secrets` (paginated; `team_ids` filters by owning
 * team), `GET/PUT/DELETE /v2/secrets/{id}`, `POST /v2/secrets/{id}/actions/rotate`; flat bodies.
 *
 * Behaviour from the reference: the value is write-only ("stored encrypted and never returned"):
 * answers carry only `last_four_chars` (absent for values of four characters or fewer) and
 * `version` (1 at creation, +1 per rotation); Show adds `versions` (metadata, newest first, with
 * the key that made each as `created_by.api_key`). Update changes metadata only; an update that
 * omits `owning_team_ids` leaves them unchanged. Names are unique among unarchived secrets (422 on
 * `name`). Delete removes the secret, and is refused (409 `conflict`, no code of its own in the reference) while a workflow references
 * it. How a workflow references a secret is not in the reference: here, a live workflow whose
 * stored configuration contains the secret's id anywhere (a literal or a reference) uses it.
 *
 * Only a SHA-256 hash of each value is stored, never the value (state dumps and files hold no
 * secret); `valueHash` lets tests check what was written.
 */
import { createHash } from "node:crypto";
import { defineFamily, operation, paginate } from "../family";
import { conflict, throwIfProblems } from "../http/errors";
import { type Caller, teamOwnedBy } from "../roles";
import type { Store } from "../store";
import { blankProblems, liveRecord } from "./shared/settings";
import { requireTeams } from "./teams";
import { type StoredWorkflow, WORKFLOWS } from "./workflows";

export const SECRETS = "secrets";

interface StoredVersion {
  version: number;
  created_at: string;
  last_four_chars?: string;
  api_key: { id: string; name: string };
}

export interface StoredSecret {
  id: string;
  name: string;
  description?: string;
  owning_team_ids: string[];
  /** SHA-256 of the current value (hex). */
  valueHash: string;
  /** Newest first. */
  versions: StoredVersion[];
  created_at: string;
  updated_at: string;
}

/** SHA-256 (hex) of a secret value: what the emulator keeps instead of the value. */
export const hashSecretValue = (value: string) => createHash("sha256").update(value).digest("hex");

const lastFour = (value: string) => (value.length > 4 ? value.slice(-4) : undefined);

function newVersion(value: string, version: number, nowIso: string, caller: Caller): StoredVersion {
  const four = lastFour(value);
  return {
    version,
    created_at: nowIso,
    ...(four !== undefined ? { last_four_chars: four } : {}),
    api_key: { id: caller.keyId, name: caller.name },
  };
}

/** `SecretV2`. */
function render(s: StoredSecret) {
  const current = s.versions[0]!;
  return {
    id: s.id,
    name: s.name,
    ...(s.description !== undefined ? { description: s.description } : {}),
    owning_team_ids: s.owning_team_ids,
    ...(current.last_four_chars !== undefined ? { last_four_chars: current.last_four_chars } : {}),
    version: current.version,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** `SecretVersionV2`. */
const renderVersion = (v: StoredVersion) => ({
  version: v.version,
  created_at: v.created_at,
  ...(v.last_four_chars !== undefined ? { last_four_chars: v.last_four_chars } : {}),
  created_by: { api_key: v.api_key },
});

const find = (store: Store, id: string) => liveRecord<StoredSecret>(store, SECRETS, id, "secret");

function problems(store: Store, body: any, selfId?: string) {
  const taken = store
    .collection<StoredSecret>(SECRETS)
    .all()
    .some((s) => s.id !== selfId && s.name === body.name);
  return [
    ...blankProblems(body, ["name"]),
    ...(taken ? [{ field: "name", message: `a secret named "${body.name}" already exists` }] : []),
  ];
}

/** The live workflows whose configuration mentions the secret's id. */
function workflowsUsing(store: Store, secretId: string): StoredWorkflow[] {
  return store
    .collection<StoredWorkflow>(WORKFLOWS)
    .all()
    .filter((w) => !w.archived && JSON.stringify(w.payload).includes(secretId));
}

export const secrets = defineFamily({
  name: "secrets",
  // Secrets have their own roles: secrets_use reads, secrets_manage writes (both also as team roles).
  roles: {
    read: ["secrets_use"],
    write: ["secrets_manage"],
    teamRead: ["secrets_use"],
    teamWrite: ["secrets_manage"],
    // `owning_team_ids` omitted on update: unchanged.
    teamOwned: teamOwnedBy(
      (store, id) => store.collection<StoredSecret>(SECRETS).get(id),
      (s) => s.owning_team_ids,
      (body) => body.owning_team_ids,
    ),
  },
  collections: [SECRETS],
  routes: [
    operation("SecretsV2List", "read", ({ store, query }) => {
      const teams = Array.isArray(query.team_ids)
        ? query.team_ids
        : query.team_ids
          ? [String(query.team_ids)]
          : [];
      const all = store
        .collection<StoredSecret>(SECRETS)
        .all()
        .filter((s) => teams.length === 0 || s.owning_team_ids.some((t) => teams.includes(t)));
      const { page, pagination_meta } = paginate(all, query);
      return { body: { secrets: page.map(render), pagination_meta } };
    }),
    operation("SecretsV2Create", "write", ({ store, body, newId, nowIso, caller }) => {
      throwIfProblems([
        ...problems(store, body),
        ...(body.value === "" ? [{ field: "value", message: "must not be empty" }] : []),
      ]);
      requireTeams(store, body.owning_team_ids);
      const stored = store.collection<StoredSecret>(SECRETS).set({
        id: newId(),
        name: body.name,
        ...(body.description !== undefined ? { description: body.description } : {}),
        owning_team_ids: [...new Set<string>(body.owning_team_ids ?? [])].sort(),
        valueHash: hashSecretValue(body.value),
        versions: [newVersion(body.value, 1, nowIso, caller)],
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { body: { secret: render(stored) } };
    }),
    operation("SecretsV2Show", "read", ({ store, params }) => {
      const s = find(store, params.id!);
      return { body: { secret: render(s), versions: s.versions.map(renderVersion) } };
    }),
    operation("SecretsV2Update", "write", ({ store, params, body, nowIso }) => {
      const current = find(store, params.id!);
      throwIfProblems(problems(store, body, current.id));
      requireTeams(store, body.owning_team_ids);
      const { description: _d, ...rest } = current;
      const stored = store.collection<StoredSecret>(SECRETS).set({
        ...rest,
        name: body.name,
        ...(body.description !== undefined ? { description: body.description } : {}),
        owning_team_ids:
          body.owning_team_ids === undefined
            ? current.owning_team_ids
            : [...new Set<string>(body.owning_team_ids)].sort(),
        updated_at: nowIso,
      });
      return { body: { secret: render(stored) } };
    }),
    operation("SecretsV2Rotate", "write", ({ store, params, body, nowIso, caller }) => {
      const current = find(store, params.id!);
      throwIfProblems(body.value === "" ? [{ field: "value", message: "must not be empty" }] : []);
      const stored = store.collection<StoredSecret>(SECRETS).set({
        ...current,
        valueHash: hashSecretValue(body.value),
        versions: [
          newVersion(body.value, current.versions[0]!.version + 1, nowIso, caller),
          ...current.versions,
        ],
        updated_at: nowIso,
      });
      return { body: { secret: render(stored) } };
    }),
    operation("SecretsV2Destroy", "write", ({ store, params }) => {
      const s = find(store, params.id!);
      const users = workflowsUsing(store, s.id);
      if (users.length > 0) {
        throw conflict(
          `the secret "${s.name}" is still referenced by ${users.length === 1 ? "a workflow" : `${users.length} workflows`}: ${users.map((w) => `"${w.payload?.name ?? w.id}" (${w.id})`).join(", ")}`,
        );
      }
      store.collection(SECRETS).delete(s.id);
      return {};
    }),
  ],
});
