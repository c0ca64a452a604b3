/**
 * Emulator family: severities (API v1). `GET/POST /v1/severities`, `GET/PUT/DELETE /v1/severities/{id}`;
 * flat bodies.
 *
 * Behaviour beyond the reference shapes: `name` must not be blank. A create without `rank` is ranked
 * after every existing severity (highest rank + 1: "lower numbers are less severe"); an update
 * without `rank` keeps the current rank. The list answers in rank order. Delete is a hard delete.
 * Names are not unique (the reference states no such rule). Not seeded: a fresh account here has
 * no severities.
 */
import { defineFamily, operation } from "../family";
import { throwIfProblems } from "../http/errors";
import { SETTINGS_ROLES } from "../roles";
import type { Store } from "../store";
import { blankProblems, liveRecord } from "./shared/settings";

export const SEVERITIES = "severities";

/** `SeverityV1` as stored (rendered as is). */
export interface StoredSeverity {
  id: string;
  name: string;
  description: string;
  rank: number;
  created_at: string;
  updated_at: string;
}

const find = (store: Store, id: string) => liveRecord<StoredSeverity>(store, SEVERITIES, id, "severity");

export const severities = defineFamily({
  name: "severities",
  roles: SETTINGS_ROLES,
  collections: [SEVERITIES],
  routes: [
    operation("SeveritiesV1List", "read", ({ store }) => ({
      body: {
        severities: store
          .collection<StoredSeverity>(SEVERITIES)
          .all()
          .sort((a, b) => a.rank - b.rank),
      },
    })),
    operation("SeveritiesV1Create", "write", ({ store, body, newId, nowIso }) => {
      throwIfProblems(blankProblems(body, ["name"]));
      const col = store.collection<StoredSeverity>(SEVERITIES);
      const next = Math.max(0, ...col.all().map((s) => s.rank)) + 1;
      const severity = col.set({
        id: newId(),
        name: body.name,
        description: body.description,
        rank: body.rank ?? next,
        created_at: nowIso,
        updated_at: nowIso,
      });
      return { body: { severity } };
    }),
    operation("SeveritiesV1Show", "read", ({ store, params }) => ({
      body: { severity: find(store, params.id!) },
    })),
    operation("SeveritiesV1Update", "write", ({ store, params, body, nowIso }) => {
      const current = find(store, params.id!);
      throwIfProblems(blankProblems(body, ["name"]));
      const severity = store.collection<StoredSeverity>(SEVERITIES).set({
        ...current,
        name: body.name,
        description: body.description,
        rank: body.rank ?? current.rank,
        updated_at: nowIso,
      });
      return { body: { severity } };
    }),
    operation("SeveritiesV1Delete", "write", ({ store, params }) => {
      find(store, params.id!);
      store.collection(SEVERITIES).delete(params.id!);
      return {};
    }),
  ],
});
