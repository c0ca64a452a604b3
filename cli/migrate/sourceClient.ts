/**
 * The source APIs' clients: the provider's API client (retries, rate limits, tracing) with the
 * vendor's authorization, refusing every request but a GET before it is sent (as the export's
 * read-only client does; not even its one POST, a preview of this API's), so a migration can never
 * change the account it leaves. The key and URL come
 * from the environment: `PAGERDUTY_API_KEY` / `PAGERDUTY_BASE_URL` (default
 * `https://api.pagerduty.com`), `OPSGENIE_API_KEY` / `OPSGENIE_BASE_URL` (default
 * `https://api.opsgenie.com`; EU accounts: `https://api.eu.opsgenie.com`).
 */
import { ApiClient, type ApiResponse, type ClientOptions, type RequestSpec } from "../../provider/client";
import { ApiError } from "../../provider/errors";
import { maskUrl } from "../../provider/masking";

/** What a source client refuses: anything but a GET. */
export class SourceWriteRefused extends Error {
  constructor(spec: RequestSpec) {
    super(
      `read-only: refused ${spec.method} ${spec.path} (${spec.operation}); migrate never writes to the source`,
    );
    this.name = "SourceWriteRefused";
  }
}

/** What the source answered when a read failed: its status in words, and the settings to check. */
const STATUS_TEXT: Record<number, string> = {
  401: "the key was refused",
  403: "the key may not read this",
  404: "not found",
  429: "rate limited",
};

/** The provider's client, GETs only; a failure names the source and its settings (not this API's). */
export class SourceClient extends ApiClient {
  constructor(
    options: ClientOptions,
    private readonly source: { title: string; key: string; url: string },
  ) {
    super(options);
  }

  override async request<T>(spec: RequestSpec): Promise<ApiResponse<T>> {
    if (spec.method !== "GET") throw new SourceWriteRefused(spec);
    try {
      return await super.request<T>(spec);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 0) throw error;
      const { title, key, url } = this.source;
      throw new Error(
        `${title}: ${spec.operation} (GET ${spec.path}) failed with ${error.status}${STATUS_TEXT[error.status] ? `, ${STATUS_TEXT[error.status]}` : ""}: check ${key} and ${url} (${maskUrl(this.baseUrl)})`,
      );
    }
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
  return new SourceClient(
    {
      apiKey,
      baseUrl: env[v.url] || v.defaultUrl,
      baseUrlSetting: env[v.url] ? v.url : "default",
      authScheme: v.authScheme,
      accept: v.accept,
      notify: () => {},
    },
    { title: v.title, key: v.key, url: v.url },
  );
}
