import { ApiClient, type ClientOptions, LOG_LEVELS, type LogLevel } from "./client";
import { SettingsError } from "./errors";
import { maskUrl } from "./masking";

/**
 * Where the provider finds its settings, in order: stack config, then environment (read at call
 * time), then the default.
 *
 * | stack config              | environment                | meaning                                          |
 * |---------------------------|----------------------------|--------------------------------------------------|
 * | `incident:apiKey`         | `INCIDENT_API_KEY`         | the API key (required)                           |
 * | `incident:baseUrl`        | `INCIDENT_BASE_URL`        | the API's base URL (default https://api.incident.io) |
 * | `incident:endpoint`       | `INCIDENT_ENDPOINT`        | the same, under the official Terraform provider's name |
 * | `incident:requestTimeout` | `INCIDENT_REQUEST_TIMEOUT` | seconds one HTTP attempt may take (default 30)   |
 * | `incident:maxRetryAfter`  | `INCIDENT_MAX_RETRY_AFTER` | the longest Retry-After, in seconds, the provider waits before giving up (default 120) |
 */
export const CONFIG_API_KEY = "incident:apiKey";
export const CONFIG_BASE_URL = "incident:baseUrl";
export const CONFIG_ENDPOINT = "incident:endpoint";
export const CONFIG_REQUEST_TIMEOUT = "incident:requestTimeout";
export const CONFIG_MAX_RETRY_AFTER = "incident:maxRetryAfter";
export const CONFIG_PROXY = "incident:proxy";
export const CONFIG_LOG_LEVEL = "incident:logLevel";
export const CONFIG_LOCK_IN_DASHBOARD = "incident:lockInDashboard";
export const ENV_LOCK_IN_DASHBOARD = "INCIDENT_LOCK_IN_DASHBOARD";
export const ENV_LOG_LEVEL = "INCIDENT_LOG_LEVEL";
/** Set by an account object (`incident.Provider`): its settings are the account's whole story. */
export const CONFIG_ACCOUNT = "incident:account";
export const ENV_API_KEY = "INCIDENT_API_KEY";
export const ENV_BASE_URL = "INCIDENT_BASE_URL";
export const ENV_ENDPOINT = "INCIDENT_ENDPOINT";
export const ENV_REQUEST_TIMEOUT = "INCIDENT_REQUEST_TIMEOUT";
export const ENV_MAX_RETRY_AFTER = "INCIDENT_MAX_RETRY_AFTER";
export const DEFAULT_BASE_URL = "https://api.incident.io";
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;
export const DEFAULT_MAX_RETRY_AFTER_SECONDS = 120;

const SETTINGS = [
  CONFIG_API_KEY,
  CONFIG_BASE_URL,
  CONFIG_ENDPOINT,
  CONFIG_REQUEST_TIMEOUT,
  CONFIG_MAX_RETRY_AFTER,
  CONFIG_PROXY,
  CONFIG_LOG_LEVEL,
  CONFIG_LOCK_IN_DASHBOARD,
];

interface ConfigSource {
  get(key: string): string | undefined;
}

// Module state of the provider process, filled by the host's configure() call. It is never part of
// the serialized provider, so credentials never reach the state file.
const configured: Record<string, string | undefined> = {};
// A host configured by an account object: the environment's INCIDENT_* settings belong to the
// stack's own account, never to this one.
let explicitAccount = false;

/**
 * Called by the dynamic-provider host with the whole stack configuration (secrets decrypted), or
 * with an account object's settings when the resources name one (`{ provider }`).
 */
export function configure(req: { config: ConfigSource }): void {
  for (const key of SETTINGS) {
    const value = req.config.get(key);
    if (value) configured[key] = value;
  }
  explicitAccount = Boolean(req.config.get(CONFIG_ACCOUNT));
}

/** For tools and tests that drive providers without an engine. */
export function setCredentials(values: {
  apiKey?: string;
  baseUrl?: string;
  endpoint?: string;
  requestTimeout?: string;
  maxRetryAfter?: string;
  proxy?: string;
  logLevel?: string;
  lockInDashboard?: string;
}): void {
  explicitAccount = false;
  configured[CONFIG_API_KEY] = values.apiKey;
  configured[CONFIG_BASE_URL] = values.baseUrl;
  configured[CONFIG_ENDPOINT] = values.endpoint;
  configured[CONFIG_REQUEST_TIMEOUT] = values.requestTimeout;
  configured[CONFIG_MAX_RETRY_AFTER] = values.maxRetryAfter;
  configured[CONFIG_PROXY] = values.proxy;
  configured[CONFIG_LOG_LEVEL] = values.logLevel;
  configured[CONFIG_LOCK_IN_DASHBOARD] = values.lockInDashboard;
}

export class MissingCredentialsError extends SettingsError {
  constructor() {
    super(
      CONFIG_API_KEY,
      "No API key for the incident provider. Set it with `pulumi config set --secret incident:apiKey <key>` " +
        "or the INCIDENT_API_KEY environment variable.",
    );
    this.name = "MissingCredentialsError";
  }
}

/** Everything the client needs, with where each value came from (for error messages). */
export interface Settings {
  apiKey: string;
  baseUrl: string;
  /** The setting the base URL came from (`incident:baseUrl`, `INCIDENT_ENDPOINT`, …, or `default`). */
  baseUrlSetting: string;
  timeoutMs: number;
  maxRetryAfterMs: number;
  /** `incident:proxy`: the forward proxy requests go through (else HTTPS_PROXY / HTTP_PROXY). */
  proxy?: string;
  proxySetting?: string;
  /** `incident:logLevel` / `INCIDENT_LOG_LEVEL`: how much the client says (default `warn`). */
  logLevel?: LogLevel;
  /** `incident:lockInDashboard` / `INCIDENT_LOCK_IN_DASHBOARD`: claim created and adopted objects. */
  lockInDashboard?: boolean;
}

/** Resolves the settings from a config lookup (`incident:…` keys) and the environment. */
export function resolveSettings(
  config: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Settings {
  const pick = (configKey: string, envKey: string): { value: string; setting: string } | undefined => {
    const fromConfig = config(configKey);
    if (fromConfig) return { value: fromConfig, setting: configKey };
    const fromEnv = env[envKey];
    return fromEnv ? { value: fromEnv, setting: envKey } : undefined;
  };
  const apiKey = pick(CONFIG_API_KEY, ENV_API_KEY)?.value;
  if (!apiKey) throw new MissingCredentialsError();

  const baseUrl = pick(CONFIG_BASE_URL, ENV_BASE_URL);
  const endpoint = pick(CONFIG_ENDPOINT, ENV_ENDPOINT);
  if (baseUrl && endpoint && trimSlash(baseUrl.value) !== trimSlash(endpoint.value)) {
    throw new SettingsError(
      endpoint.setting,
      `${baseUrl.setting} (${JSON.stringify(maskUrl(baseUrl.value))}) and ${endpoint.setting} ` +
        `(${JSON.stringify(maskUrl(endpoint.value))}) name different APIs: set only one (${CONFIG_ENDPOINT} is an alias of ${CONFIG_BASE_URL})`,
    );
  }
  const url = baseUrl ?? endpoint ?? { value: DEFAULT_BASE_URL, setting: "default" };
  if (!isHttpUrl(url.value))
    throw new SettingsError(
      url.setting,
      `${url.setting} is not an http(s) URL: ${JSON.stringify(maskUrl(url.value))}`,
    );
  const proxy = config(CONFIG_PROXY);
  if (proxy !== undefined && proxy !== "" && !isHttpUrl(proxy))
    throw new SettingsError(
      CONFIG_PROXY,
      `${CONFIG_PROXY} is not an http(s) URL: ${JSON.stringify(maskUrl(proxy))}`,
    );
  const level = pick(CONFIG_LOG_LEVEL, ENV_LOG_LEVEL);
  if (level && !(LOG_LEVELS as readonly string[]).includes(level.value.trim().toLowerCase())) {
    throw new SettingsError(
      level.setting,
      `${level.setting} must be one of ${LOG_LEVELS.join(", ")} (got ${JSON.stringify(level.value)})`,
    );
  }
  const lock = pick(CONFIG_LOCK_IN_DASHBOARD, ENV_LOCK_IN_DASHBOARD);
  const lockText = lock?.value.trim().toLowerCase();
  if (lock && lockText !== "true" && lockText !== "false") {
    throw new SettingsError(
      lock.setting,
      `${lock.setting} must be true or false (got ${JSON.stringify(lock.value)})`,
    );
  }
  return {
    apiKey,
    baseUrl: url.value,
    ...(lockText === "true" ? { lockInDashboard: true } : {}),
    baseUrlSetting: url.setting,
    ...(proxy ? { proxy, proxySetting: CONFIG_PROXY } : {}),
    ...(level ? { logLevel: level.value.trim().toLowerCase() as LogLevel } : {}),
    timeoutMs: seconds(
      pick(CONFIG_REQUEST_TIMEOUT, ENV_REQUEST_TIMEOUT),
      DEFAULT_REQUEST_TIMEOUT_SECONDS,
      0.1,
      3600,
    ),
    maxRetryAfterMs: seconds(
      pick(CONFIG_MAX_RETRY_AFTER, ENV_MAX_RETRY_AFTER),
      DEFAULT_MAX_RETRY_AFTER_SECONDS,
      0,
      86_400,
    ),
  };
}

/** A number of seconds from a setting, as milliseconds; a clear error names the setting when it is not one. */
function seconds(
  from: { value: string; setting: string } | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (from === undefined) return fallback * 1000;
  const text = from.value.trim().replace(/s$/, "");
  const n = Number(text);
  if (text === "" || !Number.isFinite(n) || n < min || n > max) {
    throw new SettingsError(
      from.setting,
      `${from.setting} must be a number of seconds from ${min} to ${max} (got ${JSON.stringify(from.value)})`,
    );
  }
  return Math.round(n * 1000);
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** Whether a text is an absolute http: or https: URL. */
function isHttpUrl(text: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** The provider's settings: configured (stack config) first, then the environment, read now. */
export function resolveCredentials(env: NodeJS.ProcessEnv = process.env): Settings {
  return resolveSettings((key) => configured[key], explicitAccount ? {} : env);
}

const clients = new Map<string, ApiClient>();

/** A client for settings; one per distinct settings so pools and buckets are shared. */
export function clientFor(settings: Settings, extra: Partial<ClientOptions> = {}): ApiClient {
  const cacheKey = JSON.stringify(settings);
  let client = clients.get(cacheKey);
  if (!client) {
    client = new ApiClient({ ...settings, ...extra });
    clients.set(cacheKey, client);
  }
  return client;
}

/** The client for the current credentials (the provider host's). */
export function currentClient(extra: Partial<ClientOptions> = {}): ApiClient {
  return clientFor(resolveCredentials(), extra);
}

/**
 * The client for a Pulumi program's own lookups: its stack config (`pulumi.Config("incident")`,
 * keys without the `incident:` prefix), then the environment, resolved and checked as the provider's.
 */
export function programClient(config: ConfigSource, env: NodeJS.ProcessEnv = process.env): ApiClient {
  return clientFor(resolveSettings((key) => config.get(key.replace(/^incident:/, "")), env));
}
