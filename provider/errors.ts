import { maskUrl } from "./masking";

/** Node's `util.inspect.custom` (by its registered name: the package root's types load no Node module). */
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** One entry of the API's `errors[]` array. */
export interface ApiErrorDetail {
  code: string;
  message: string;
  /** The request payload field at fault (validation errors only), as the API names it. */
  field?: string;
}

/** What the client knows about a failed request; the message is meant to be read by a person. */
export interface ApiErrorInit {
  operation: string;
  status: number;
  type: string;
  requestId?: string;
  details: ApiErrorDetail[];
  retryAfterSeconds?: number;
  /** True when the request may have reached the server and been applied (outcome unknown). */
  outcomeUnknown?: boolean;
  /** How many attempts were made. */
  attempts?: number;
  /** What to check (a setting), when the failure points at one. */
  hint?: string;
}

/**
 * An error a user acts on by reading it: printed as its name and message alone, wherever it is
 * printed (the Pulumi CLI's diagnostics, Node's report of an unhandled rejection in a program): no
 * stack frames of this package's code, no dump of the error's properties.
 */
export class IncidentError extends Error {
  constructor(message: string) {
    super(message);
    // Frames would point into this package, which is not where the user has to look.
    const line = () => `${this.name}: ${this.message}`;
    Object.defineProperty(this, "stack", { get: line, set: () => undefined, configurable: true });
    Object.defineProperty(this, INSPECT, { value: line });
  }
}

/**
 * The single error type every API failure is decoded into. Its message names the operation, the
 * request id to quote to support, and each field the API complained about.
 */
export class ApiError extends IncidentError {
  readonly operation: string;
  readonly status: number;
  readonly type: string;
  readonly requestId?: string;
  readonly details: ApiErrorDetail[];
  readonly retryAfterSeconds?: number;
  readonly outcomeUnknown: boolean;
  readonly attempts?: number;
  readonly hint?: string;

  constructor(init: ApiErrorInit, message?: string) {
    super(message ?? formatApiError(init));
    this.name = "ApiError";
    this.operation = init.operation;
    this.status = init.status;
    this.type = init.type;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.attempts = init.attempts;
    this.hint = init.hint;
  }

  /** Everything to build another error from this one. */
  get init(): ApiErrorInit {
    return {
      operation: this.operation,
      status: this.status,
      type: this.type,
      requestId: this.requestId,
      details: this.details,
      retryAfterSeconds: this.retryAfterSeconds,
      outcomeUnknown: this.outcomeUnknown,
      attempts: this.attempts,
      hint: this.hint,
    };
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }

  /** Fields (API names) the server rejected, in order. */
  get fields(): string[] {
    return this.details.flatMap((d) => (d.field ? [d.field] : []));
  }
}

export function formatApiError(init: ApiErrorInit): string {
  return `${init.operation} failed with ${describeApiError(init)}`;
}

/**
 * What went wrong, without the operation: `422 validation_error: name: must be unique (request_id r1)
 * (1 attempt)`. The one wording of a failure, used by `formatApiError` and by the provider's messages.
 */
export function describeApiError(init: ApiErrorInit): string {
  const head = init.status > 0 ? `${init.status} ${init.type}` : init.type;
  const problems = init.details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join("; ");
  const requestId = init.requestId ? ` (request_id ${init.requestId})` : "";
  return `${head}${problems ? `: ${problems}` : ""}${requestId}${trailer(init)}`;
}

/** A NotFound answer (404): the object does not exist (any more). */
export function isNotFound(error: unknown): error is ApiError {
  return error instanceof ApiError && error.isNotFound;
}

/** The result of a read, or undefined when the object does not exist (a 404). */
export async function unlessNotFound<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** `(3 attempts; check incident:baseUrl)`: the attempts made and the setting to check. */
export function trailer(init: Pick<ApiErrorInit, "attempts" | "hint">): string {
  const parts = [
    ...(init.attempts !== undefined ? [`${init.attempts} attempt${init.attempts === 1 ? "" : "s"}`] : []),
    ...(init.hint ? [init.hint] : []),
  ];
  return parts.length > 0 ? ` (${parts.join("; ")})` : "";
}

/** Decodes an error response body of the shape the API documents; tolerates anything else. */
export function decodeErrorBody(
  operation: string,
  status: number,
  body: unknown,
  requestIdHeader?: string,
): ApiErrorInit {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, any>;
  const details: ApiErrorDetail[] = Array.isArray(b.errors)
    ? b.errors.map((e: any) => ({
        code: String(e?.code ?? "unknown"),
        message: String(e?.message ?? ""),
        ...(typeof e?.source?.field === "string" ? { field: e.source.field } : {}),
      }))
    : [];
  if (details.length === 0 && typeof body === "string" && body.trim() !== "") {
    // A proxy's or a load balancer's page, which may name a URL with its credentials.
    details.push({ code: "unparsed_body", message: maskUrl(body.trim().slice(0, 300)) });
  }
  return {
    operation,
    status,
    type: typeof b.type === "string" ? b.type : `http_${status}`,
    requestId: typeof b.request_id === "string" ? b.request_id : requestIdHeader,
    details,
  };
}

/**
 * A setting the provider or a lookup cannot use (`incident:logLevel must be one of …`): the setting's
 * name and the problem, one line. Raised before any request, by the provider host and by a
 * program's lookups alike. Being an IncidentError matters beyond the wording: the Pulumi SDK prints
 * a program's failure with `util.inspect`, which for a plain Error raised inside an Output's apply
 * walks its stack frames, and Node 20 takes tens of seconds on the frame of @pulumi/pulumi's
 * source-mapped `node_modules/@pulumi/output.ts` (a string grown until a RangeError), twice: a bad
 * setting in a program with a lookup failed after about 90 s.
 */
export class SettingsError extends IncidentError {
  /** The setting at fault (`incident:logLevel`, `INCIDENT_LOG_LEVEL`, …). */
  readonly setting: string;
  constructor(setting: string, message: string) {
    super(message);
    this.name = "SettingsError";
    this.setting = setting;
  }
}

/** Error for a lookup that found nothing (or too much), naming what was searched. */
export class LookupError extends IncidentError {
  constructor(lookup: string, message: string) {
    super(`${lookup}: ${message}`);
    this.name = "LookupError";
  }
}
