import { ApiClient, type ClientOptions } from "./client";

/** Where the provider finds its credentials, in order: stack config, then environment, read at call time. */
export const CONFIG_API_KEY = "incident:apiKey";
export const CONFIG_BASE_URL = "incident:baseUrl";
export const ENV_API_KEY = "INCIDENT_API_KEY";
export const ENV_BASE_URL = "INCIDENT_BASE_URL";
export const DEFAULT_BASE_URL = "https://api.incident.io";

interface ConfigSource {
  get(key: string): string | undefined;
}

// Module state of the provider process, filled by the host's configure() call. It is never part of
// the serialized provider, so credentials never reach the state file.
const configured: { apiKey?: string; baseUrl?: string } = {};

/** Called by the dynamic-provider host with the whole stack configuration (secrets decrypted). */
export function configure(req: { config: ConfigSource }): void {
  const apiKey = req.config.get(CONFIG_API_KEY);
  const baseUrl = req.config.get(CONFIG_BASE_URL);
  if (apiKey) configured.apiKey = apiKey;
  if (baseUrl) configured.baseUrl = baseUrl;
}

/** For tools and tests that drive providers without an engine. */
export function setCredentials(values: { apiKey?: string; baseUrl?: string }): void {
  configured.apiKey = values.apiKey;
  configured.baseUrl = values.baseUrl;
}

export class MissingCredentialsError extends Error {
  constructor() {
    super(
      "No API key for the incident provider. Set it with `pulumi config set --secret incident:apiKey <key>` " +
        "or the INCIDENT_API_KEY environment variable.",
    );
    this.name = "MissingCredentialsError";
  }
}

export function resolveCredentials(env: NodeJS.ProcessEnv = process.env): {
  apiKey: string;
  baseUrl: string;
} {
  const apiKey = configured.apiKey || env[ENV_API_KEY];
  if (!apiKey) throw new MissingCredentialsError();
  const baseUrl = configured.baseUrl || env[ENV_BASE_URL] || DEFAULT_BASE_URL;
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw new Error(`incident:baseUrl / INCIDENT_BASE_URL is not an http(s) URL: ${JSON.stringify(baseUrl)}`);
  }
  return { apiKey, baseUrl };
}

const clients = new Map<string, ApiClient>();

/** The client for the current credentials; one per key and base URL so pools and buckets are shared. */
export function currentClient(extra: Partial<ClientOptions> = {}): ApiClient {
  const { apiKey, baseUrl } = resolveCredentials();
  const cacheKey = `${baseUrl}\n${apiKey}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = new ApiClient({ apiKey, baseUrl, ...extra });
    clients.set(cacheKey, client);
  }
  return client;
}
