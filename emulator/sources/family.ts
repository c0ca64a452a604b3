/**
 * What a family of a source emulator (PagerDuty, Opsgenie) is made of: its name, the published
 * document its operations and shapes come from, and its read-only routes. A vendor (`SourceVendor`,
 * its directory's index.ts) adds how that vendor authenticates, answers errors and pages lists;
 * server.ts serves a vendor's families on the main emulator's HTTP machinery.
 *
 * As for the main emulator (../families/index.ts), a family is one file of the vendor's directory
 * exporting a `defineSourceFamily(...)` value: the vendor finds its files when it loads (no list).
 */
import { familyFiles } from "../families";

/** What a handler gets. */
export interface SourceRequest<Account> {
  /** Decoded path parameters (`{id}` → `params.id`). */
  params: Record<string, string>;
  /** The query string, as sent (`include[]` repeated, …). */
  query: URLSearchParams;
  /** The account the emulator serves (the fixture given at start, as data). */
  account: Account;
  /** Request time (the emulator's clock), ms since the epoch. */
  now: number;
  /** The emulator's base URL (`self` links, next-page URLs). */
  baseUrl: string;
}

/** The type a response's object (or list of objects) has in the vendor's shapes (shapes.json). */
export interface ResponseShape {
  /** The key of the body holding it (`schedule`, `schedules`, `data`). */
  key: string;
  /** The object's name in shapes.json (`Schedule`). */
  type: string;
  list?: boolean;
}

export interface SourceRoute<Account = any> {
  method: "GET";
  /** Path template, `{name}` for parameters. */
  path: string;
  /** The operation in the vendor's document (`getSchedule`). */
  operationId: string;
  /** What the body holds, checked against the shapes in tests (`responseProblems`). */
  response?: ResponseShape;
  handler(request: SourceRequest<Account>): unknown;
}

export interface SourceFamily<Account = any> {
  /** `schedules`, `escalation_policies`, … (unique per vendor). */
  name: string;
  routes: readonly SourceRoute<Account>[];
}

const SOURCE_FAMILY = Symbol.for("pulumi-incident.emulator.source-family");

/** Declares a family: exported from a file of a vendor's directory, it is served. */
export function defineSourceFamily<Account>(family: SourceFamily<Account>): SourceFamily<Account> {
  const out = { ...family };
  Object.defineProperty(out, SOURCE_FAMILY, { value: true });
  return out;
}

const isSourceFamily = (value: unknown): value is SourceFamily =>
  typeof value === "object" && value !== null && (value as any)[SOURCE_FAMILY] === true;

/** Every family the files of `dir` export, in file order (index and sub-directories left out). */
export function discoverSourceFamilies(dir: string): SourceFamily[] {
  const found: SourceFamily[] = [];
  for (const file of familyFiles(dir)) {
    for (const value of Object.values(require(file) as Record<string, unknown>)) {
      if (!isSourceFamily(value) || found.includes(value)) continue;
      if (found.some((f) => f.name === value.name))
        throw new Error(`source emulator: family ${value.name} is defined twice (${file})`);
      found.push(value);
    }
  }
  return found;
}

/** The published document a vendor's operations and shapes come from. */
export interface SourceDocument {
  repository: string;
  path: string;
  commit: string;
}

/** A vendor: its families and how it authenticates, fails and pages. */
export interface SourceVendor<Account = any> {
  name: "pagerduty" | "opsgenie";
  document: SourceDocument;
  families: readonly SourceFamily<Account>[];
  /** The `Authorization` header value that carries `apiKey` (`Token token=…`, `GenieKey …`). */
  authorization(apiKey: string): string;
  /** The vendor's error body for a status and message. */
  errorBody(status: number, message: string, requestId: string): unknown;
}

/** A vendor error: thrown by handlers, answered with the vendor's error body. */
export class SourceError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
