/**
 * The provider's API client (auth, rate limits, retries, tracing) that refuses, before sending it,
 * every request but a GET and one POST: `POST /v2/schedules/{id}/actions/preview_entries`, which
 * computes a proposed configuration's schedule entries and stores nothing (the reference: "so you
 * can send the configuration you intend to save without persisting it"). What the review tools
 * (plan-report, drift, export) read with, so they can never change the account.
 */
import * as fs from "node:fs";
import { ApiClient, type ApiResponse, type RequestSpec } from "../provider/client";
import { resolveSettings, type Settings } from "../provider/credentials";
import { maskUrl } from "../provider/masking";

export class ReadOnlyRequestError extends Error {
  constructor(spec: RequestSpec) {
    super(
      `read-only: refused ${spec.method} ${spec.path} (${spec.operation}); this tool never writes to the API (it sends GETs, and POSTs only to preview a schedule's entries)`,
    );
    this.name = "ReadOnlyRequestError";
  }
}

/** `/v2/schedules/{id}/actions/preview_entries`, the id one path segment. */
const PREVIEW_ENTRIES = /^\/v2\/schedules\/([^/?#\\]+)\/actions\/preview_entries$/;

/**
 * True for what the read-only client sends: a GET, or a POST of a schedule's entries preview to
 * exactly that path (one schedule id that is not a dot segment, nothing after it, no query).
 */
export function isReadOnlyRequest(spec: Pick<RequestSpec, "method" | "path" | "query">): boolean {
  if (spec.method === "GET") return true;
  if (spec.method !== "POST") return false;
  if (Object.values(spec.query ?? {}).some((v) => v !== undefined)) return false;
  const id = PREVIEW_ENTRIES.exec(spec.path)?.[1];
  if (id === undefined) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(id);
  } catch {
    return false;
  }
  return decoded !== "." && decoded !== ".." && !/[/\\?#]/.test(decoded);
}

export class ReadOnlyClient extends ApiClient {
  override async request<T>(spec: RequestSpec): Promise<ApiResponse<T>> {
    if (!isReadOnlyRequest(spec)) throw new ReadOnlyRequestError(spec);
    return super.request<T>(spec);
  }
}

/**
 * `GET /v1/identity` (retried once): a wrong URL or key, or an API out of reach, becomes one clear
 * error, prefixed with what the tool did not do (`nothing compared`), before any other request.
 */
export async function checkAccount(client: ReadOnlyClient, prefix: string): Promise<void> {
  try {
    await client.get("/v1/identity", "check the API key and URL", undefined, { maxRetries: 1 });
  } catch (error) {
    throw new Error(
      `${prefix}: the API at ${maskUrl(client.baseUrl)} did not answer as the incident API ` +
        `(GET /v1/identity: ${(error as Error).message}); check incident:baseUrl and incident:apiKey`,
    );
  }
}

/** The settings: the `--config` file's `incident:*` values first, then the environment (as the provider). */
export function settingsFrom(configFile: string | undefined, env: NodeJS.ProcessEnv): Settings {
  let config: Record<string, { value?: unknown; secret?: boolean }> = {};
  if (configFile !== undefined) {
    try {
      config = JSON.parse(fs.readFileSync(configFile, "utf8"));
    } catch (error) {
      throw new Error(
        `--config ${configFile}: not the JSON of \`pulumi config --json --show-secrets\` (${(error as Error).message})`,
      );
    }
  }
  return resolveSettings((key) => {
    const entry = config[key];
    if (entry === undefined) return undefined;
    if (entry.value === undefined && entry.secret)
      throw new Error(
        `--config ${configFile}: ${key} is a secret without its value: run \`pulumi config --json --show-secrets\``,
      );
    return entry.value === undefined ? undefined : String(entry.value);
  }, env);
}
