/**
 * The provider's API client (auth, rate limits, retries, tracing) that refuses every request but a
 * GET before it is sent: what the drift job reads with, so it can never change the account.
 */
import { ApiClient, type ApiResponse, type RequestSpec } from "../provider/client";

export class ReadOnlyRequestError extends Error {
  constructor(spec: RequestSpec) {
    super(
      `read-only: refused ${spec.method} ${spec.path} (${spec.operation}); this tool never writes to the API`,
    );
    this.name = "ReadOnlyRequestError";
  }
}

export class ReadOnlyClient extends ApiClient {
  override async request<T>(spec: RequestSpec): Promise<ApiResponse<T>> {
    if (spec.method !== "GET") throw new ReadOnlyRequestError(spec);
    return super.request<T>(spec);
  }
}
