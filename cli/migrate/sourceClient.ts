/**
 * The source APIs' clients: the provider's API client (retries, rate limits, tracing) with the
 * vendor's authorization, refusing every request but a GET before it is sent (as the export's
 * read-only client does; not even its one POST, a preview of this API's), so a migration can never
 * change the account it leaves. The key and URL come
 * from the environment: `PAGERDUTY_API_KEY` / `PAGERDUTY_BASE_URL` (default
 * `https://api.pagerduty.com`), `OPSGENIE_API_KEY` / `OPSGENIE_BASE_URL` (default
 * `https://api.opsgenie.com`; EU accounts: `https://api.eu.opsgenie.com`).
 */
import { ApiClient, type ApiResponse, type RequestSpec } from "../../provider/client";

/** What a source client refuses: anything but a GET. */
export class SourceWriteRefused extends Error {
  constructor(spec: RequestSpec) {
    super(
      `read-only: refused ${spec.method} ${spec.path} (${spec.operation}); migrate never writes to the source`,
    );
    this.name = "SourceWriteRefused";
  }
}

/** The provider's client, GETs only. */
export class SourceClient extends ApiClient {
  override async request<T>(spec: RequestSpec): Promise<ApiResponse<T>> {
    if (spec.method !== "GET") throw new SourceWriteRefused(spec);
    return super.request<T>(spec);
  }
}

export type SourceName = "pagerduty" | "opsgenie";
export const SOURCES: readonly SourceName[] = ["pagerduty", "opsgenie"];

const VENDOR = {
  pagerduty: {
    key: "PAGERDUTY_API_KEY",
    url: "PAGERDUTY_BASE_URL",
    defaultUrl: "https://api.pagerduty.com",
    authScheme: "Token token=",
    // "The `Accept` header is used as a versioning header" (the document's header_Accept).
    accept: "application/vnd.pagerduty+json;version=2",
    title: "PagerDuty",
  },
  opsgenie: {
    key: "OPSGENIE_API_KEY",
    url: "OPSGENIE_BASE_URL",
    defaultUrl: "https://api.opsgenie.com",
    authScheme: "GenieKey ",
    accept: "application/json",
    title: "Opsgenie",
  },
} as const;

export const sourceTitle = (source: SourceName) => VENDOR[source].title;

/** A GET-only client of the source, from the environment; a missing key is an error naming it. */
export function sourceClient(source: SourceName, env: NodeJS.ProcessEnv): SourceClient {
  const v = VENDOR[source];
  const apiKey = env[v.key];
  if (!apiKey)
    throw new Error(
      `--from ${source}: set ${v.key} to an API key of the ${v.title} account (one that may read it is enough)`,
    );
  return new SourceClient({
    apiKey,
    baseUrl: env[v.url] || v.defaultUrl,
    baseUrlSetting: env[v.url] ? v.url : "default",
    authScheme: v.authScheme,
    accept: v.accept,
    notify: () => {},
  });
}
