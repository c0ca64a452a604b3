/**
 * Reads a whole account for the exporter: every object of every kind the provider manages (each
 * kind's `listAll`, by page; provider/pagedReads.ts) and the account's users (for `getUser`
 * lookups by e-mail). Read-only: the client refuses anything but a GET.
 */
import type { ApiClient } from "../../provider/client";
import type { IncidentProvider } from "../../provider/factory";
import { listEveryObject, walkList } from "../../provider/pagedReads";
import type { Props, ResourceSpec } from "../../provider/spec";
import { providers } from "../../resources";
import { type ApiCatalogType, CATALOG_TYPES_LIST } from "../../resources/catalogType";

/** One live object of the account, as its kind's read answers it. */
export interface LiveObject {
  kind: string;
  spec: ResourceSpec;
  id: string;
  live: unknown;
  /**
   * Inputs the export declares that the live object cannot say (a local input: the attributes a
   * catalog entry manages), given to the kind's read-back as the declaration would be.
   */
  declared?: Props;
}

export interface AccountUser {
  id: string;
  email?: string;
  name?: string;
}

export interface AccountTeam {
  id: string;
  name: string;
}

export interface Account {
  objects: LiveObject[];
  users: AccountUser[];
  teams: AccountTeam[];
  /**
   * The catalog types, as listed, when catalog entries are read: whose attributes (their `mode`)
   * and which sync (annotations) own what (cli/export/catalog.ts).
   */
  catalogTypes?: ApiCatalogType[];
  /** Kinds left out, with the reason (their `notExported`, or the filters). */
  skippedKinds: Array<{ kind: string; reason: string }>;
}

/** Every kind the provider manages, in the providers' (alphabetical) order. */
export function exportableKinds(): Array<{ kind: string; provider: IncidentProvider }> {
  return Object.entries(providers).map(([kind, provider]) => ({ kind, provider }));
}

export interface ReadOptions {
  /** Kinds to read (default: every exportable kind). */
  kinds: readonly string[];
  /** Called after each kind is read (for a progress bar). */
  onKind?(done: number, total: number, kind: string, count: number): void;
}

export async function readAccount(client: ApiClient, options: ReadOptions): Promise<Account> {
  const ctx = { client };
  const objects: LiveObject[] = [];
  const skippedKinds: Account["skippedKinds"] = [];
  const kinds = options.kinds;
  let done = 0;
  for (const kind of kinds) {
    const spec = providers[kind]!.spec;
    const lives = spec.notExported ? undefined : await listEveryObject(spec, ctx);
    if (lives === undefined) {
      skippedKinds.push({ kind, reason: spec.notExported ?? "its objects cannot be listed" });
    } else {
      for (const live of lives) objects.push({ kind, spec, id: spec.idOf(live), live });
    }
    options.onKind?.(++done, kinds.length, kind, lives?.length ?? 0);
  }
  const { users, teams } = await readPeopleAndTeams(client);
  const catalogTypes = kinds.includes("CatalogEntry")
    ? await walkList<ApiCatalogType>(client, CATALOG_TYPES_LIST)
    : undefined;
  return { objects, users, teams, catalogTypes, skippedKinds };
}

/**
 * The account's users (deactivated ones too: an escalation path or a rota may still name someone who
 * left) and teams: what objects refer to through lookups, and what `migrate` matches people and teams with.
 */
export async function readPeopleAndTeams(
  client: ApiClient,
): Promise<{ users: AccountUser[]; teams: AccountTeam[] }> {
  const users = (await walkList<AccountUser>(client, USERS_LIST, { include_inactive: "true" })).map((u) => ({
    id: u.id,
    email: u.email,
    name: u.name,
  }));
  const teams = (await walkList<AccountTeam>(client, TEAMS_LIST)).map((t) => ({ id: t.id, name: t.name }));
  return { users, teams };
}

// Users and teams are not managed by the provider: objects refer to them through lookups.
const USERS_LIST = { path: "/v2/users", itemsKey: "users", operation: "list users", pageSize: 250 };
const TEAMS_LIST = { path: "/v3/teams", itemsKey: "teams", operation: "list teams", pageSize: 250 };
