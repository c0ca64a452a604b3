/**
 * Error responses, exactly as the API documents them:
 * `{type, status, request_id, errors: [{code, message, source?: {field}}]}` (+ `rate_limit` on 429).
 * Anything in the pipeline or a handler throws an `HttpError`; the `errors` stage renders it.
 */

/** One entry of `errors[]`. */
export interface ErrorDetail {
  code: string;
  message: string;
  /** The request payload field at fault (validation errors). */
  field?: string;
}

/** The `rate_limit` object of a 429 body. */
export interface RateLimitBody {
  name: string;
  limit: number;
  remaining: number;
  /** RFC 3339 */
  retry_after: string;
}

/** The error types of the API (HTTP status → `type`). */
export const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "resource_forbidden",
  404: "not_found",
  405: "method_not_allowed",
  406: "not_acceptable",
  408: "request_timeout",
  409: "conflict",
  412: "precondition_failed",
  413: "payload_too_large",
  422: "validation_error",
  429: "too_many_requests",
  500: "api_error",
};

export class HttpError extends Error {
  readonly status: number;
  readonly type: string;
  readonly details: ErrorDetail[];
  /** Extra response headers (e.g. `Allow`, `Retry-After`). */
  readonly headers: Record<string, string>;
  readonly rateLimit?: RateLimitBody;
  /** Close the connection after answering (e.g. a body that was not read to the end). */
  readonly closeConnection: boolean;

  constructor(
    status: number,
    details: ErrorDetail[],
    options: {
      type?: string;
      headers?: Record<string, string>;
      rateLimit?: RateLimitBody;
      closeConnection?: boolean;
    } = {},
  ) {
    super(
      details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join("; ") || `HTTP ${status}`,
    );
    this.name = "HttpError";
    this.status = status;
    this.type = options.type ?? ERROR_TYPES[status] ?? "api_error";
    this.details = details;
    this.headers = options.headers ?? {};
    this.rateLimit = options.rateLimit;
    this.closeConnection = options.closeConnection ?? false;
  }

  /** The documented error body. */
  body(requestId: string): Record<string, unknown> {
    return {
      type: this.type,
      status: this.status,
      request_id: requestId,
      errors: this.details.map((d) => ({
        code: d.code,
        message: d.message,
        ...(d.field !== undefined && d.field !== "" ? { source: { field: d.field } } : {}),
      })),
      ...(this.rateLimit ? { rate_limit: this.rateLimit } : {}),
    };
  }
}

/** 400 invalid_request_error (a bad request, or a reference to something that does not exist). */
export function badRequest(message: string, code = "invalid_request_error"): HttpError {
  return new HttpError(400, [{ code, message }]);
}

/** 404 not_found. */
export function notFound(message = "The requested resource could not be found"): HttpError {
  return new HttpError(404, [{ code: "not_found", message }]);
}

/** 403 resource_forbidden. */
export function forbidden(message: string, code = "resource_forbidden"): HttpError {
  return new HttpError(403, [{ code, message }]);
}

/** 409 conflict. */
export function conflict(message: string, code = "conflict"): HttpError {
  return new HttpError(409, [{ code, message }]);
}

/** A 422 problem: the payload field (API name, dotted path) and what is wrong with it. */
export interface FieldProblem {
  field?: string;
  message: string;
  /** `is_required`, `invalid_value` (default), `invalid_type`, … */
  code?: string;
}

/** 422 validation_error with one entry per problem, each naming its `source.field`. */
export function validationFailed(problems: readonly FieldProblem[]): HttpError {
  return new HttpError(
    422,
    problems.map((p) => ({ code: p.code ?? "invalid_value", message: p.message, field: p.field })),
  );
}

/** Throws a 422 when there is any problem. */
export function throwIfProblems(problems: readonly FieldProblem[]): void {
  if (problems.length > 0) throw validationFailed(problems);
}
