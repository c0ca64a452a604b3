/**
 * What a family module is made of (see README.md "Adding a family"): a name (its key in
 * reference.json's `operations`), the roles that may read and write it, the store collections it
 * owns, its routes, optionally seed data and what it lends the emulator's own dashboard. Routes are declared from reference.json by operationId, so the method,
 * path, request body type, query parameters, success status and response type all come from there;
 * the framework validates the body and query string before the handler runs, and checks the
 * handler's response against the response type.
 */
import type { StoredApiKey } from "./auth";
import type { Access, Caller, FamilyRoles } from "./roles";
import type { EmulatorRuntime } from "./runtime";
import { type QueryValues, type RefQueryParam, refOperation, successOf } from "./shapes";
import type { Store } from "./store";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a handler gets. */
export interface HandlerContext {
  /** Decoded path parameters (`{id}` → `params.id`). */
  params: Record<string, string>;
  /** Query parameters parsed and checked against the operation's `query_params`. */
  query: QueryValues;
  /** The raw query string. */
  rawQuery: URLSearchParams;
  /** The parsed JSON body (already valid against the request type when the route has one). */
  body: any;
  caller: Caller;
  store: Store;
  /** Request time (emulator clock), ms and RFC 3339. */
  now: number;
  nowIso: string;
  /** A new ULID-shaped id. */
  newId(): string;
  runtime: EmulatorRuntime;
  requestId: string;
}

export interface HandlerResult {
  /** Defaults to the route's success status. */
  status?: number;
  /** JSON body; omit for 204. */
  body?: unknown;
}

export type Handler = (ctx: HandlerContext) => HandlerResult | Promise<HandlerResult>;

export interface RouteSpec {
  method: HttpMethod;
  /** Path template, `{name}` for parameters. */
  path: string;
  access: Access;
  /** Reference (or local) operationId. */
  operationId?: string;
  /** Type the whole JSON body is validated against (422 on problems). */
  requestType?: string;
  /** Type successful response bodies are checked against (recorded in `responseProblems`). */
  responseType?: string;
  /** Success status. */
  status: number;
  queryParams: readonly RefQueryParam[];
  handler: Handler;
  /** Set when the family is registered. */
  family?: FamilyModule;
}

export interface SeedEnv {
  now: number;
  nowIso: string;
}

/**
 * What a family lends the emulator for things made outside the API ("in the dashboard": the bootstrap
 * key, `createApiKey`, `POST /_emulator/api_keys`), so the emulator needs no family's internals.
 */
export interface DashboardHooks {
  /** The `creator` (`ActorV1`) of what the dashboard makes (users: the account owner). */
  creator?(store: Store): Record<string, unknown> | undefined;
  /** A key as the API answers it (`APIKeyV1`; api_keys). */
  renderApiKey?(store: Store, key: StoredApiKey): Record<string, unknown>;
}

/**
 * A control route (`/_emulator/...`) a family adds for what only the dashboard makes (a call route:
 * a phone number bought in the dashboard, which the API cannot create). Run in a store transaction
 * and persisted, as an API handler is; refuse a bad body with `HttpError` (422 naming the field).
 */
export interface FamilyControlRoute {
  method: HttpMethod;
  /** Under `/_emulator/`, e.g. `/_emulator/call_routes`. */
  path: string;
  description: string;
  handler(ctx: {
    store: Store;
    body: any;
    params: Record<string, string>;
    newId(): string;
    nowIso: string;
  }): HandlerResult;
}

export interface FamilyModule {
  /** e.g. `custom_fields`: the reference.json family and the role table key. */
  name: string;
  /** Who may read and write (the family's row of the role table, roles.ts). */
  roles: FamilyRoles;
  /** Store collections this family owns (documentation, state dumps). */
  collections: readonly string[];
  routes: readonly RouteSpec[];
  /** Fills the store on a fresh start and on reset (only when seeding is on). */
  seed?(store: Store, env: SeedEnv): void;
  dashboard?: DashboardHooks;
  /** Control routes of the family's own (made "in the dashboard"); see `FamilyControlRoute`. */
  control?: readonly FamilyControlRoute[];
}

const FAMILY_MODULE = Symbol.for("pulumi-incident.emulator.family");

/**
 * Declares a family. Exported from a file of `families/`, it is served: families/index.ts finds it
 * there (no list to edit).
 */
export function defineFamily(family: FamilyModule): FamilyModule {
  if (!family.roles) throw new Error(`emulator: family ${family.name} declares no roles`);
  const out: FamilyModule = { ...family };
  Object.defineProperty(out, FAMILY_MODULE, { value: true });
  for (const r of out.routes) r.family = out;
  return out;
}

/** True for a value made by `defineFamily`. */
export function isFamilyModule(value: unknown): value is FamilyModule {
  return typeof value === "object" && value !== null && (value as any)[FAMILY_MODULE] === true;
}

/**
 * A route for a reference operation: method, path, request type, query parameters, success status
 * and response type come from reference.json (`overrides` for the rare exception).
 */
export function operation(
  operationId: string,
  access: Access,
  handler: Handler,
  overrides: Partial<Omit<RouteSpec, "handler" | "access">> = {},
): RouteSpec {
  const op = refOperation(operationId);
  if (!op) throw new Error(`emulator: unknown operation ${operationId}`);
  const success = successOf(op);
  return {
    method: op.method.toUpperCase() as HttpMethod,
    path: op.path,
    access,
    operationId,
    requestType: op.request_body,
    responseType: success.responseType,
    status: success.status,
    queryParams: op.query_params ?? [],
    handler,
    ...overrides,
  };
}

/** The `pagination_meta` of a page. */
export interface PaginationMeta {
  page_size: number;
  after?: string;
}

/** Default page size of paginated lists when `page_size` is not given. */
export const DEFAULT_PAGE_SIZE = 25;

/**
 * One page of `items` (in list order) for `page_size` / `after` (the id of the last record of the
 * previous page). `after` is found by position; if that record is gone, ids sorting after it are
 * used (ids are time-ordered). `pagination_meta.after` is present only when more records follow.
 */
export function paginate<T extends { id: string }>(
  items: readonly T[],
  query: QueryValues,
): { page: T[]; pagination_meta: PaginationMeta } {
  const pageSize = typeof query.page_size === "number" ? query.page_size : DEFAULT_PAGE_SIZE;
  const after = typeof query.after === "string" ? query.after : undefined;
  let rest: readonly T[] = items;
  if (after !== undefined) {
    const i = items.findIndex((x) => x.id === after);
    rest = i >= 0 ? items.slice(i + 1) : items.filter((x) => x.id > after);
  }
  const page = rest.slice(0, pageSize);
  const more = rest.length > pageSize;
  return {
    page,
    pagination_meta: {
      page_size: pageSize,
      ...(more && page.length > 0 ? { after: page[page.length - 1]!.id } : {}),
    },
  };
}
