/**
 * The HTTP server around the pipeline: one `RequestContext` per request, the pipeline run, and the
 * response written from what the stages left in the context (`send`). Nothing else writes to sockets.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { newRequestId } from "../ids";
import type { EmulatorRuntime } from "../runtime";
import { HttpError } from "./errors";
import type { RequestContext } from "./pipeline";

const hasBody = (status: number) => status !== 204 && status !== 304;

/** A fresh context for `req`: method upper-cased, path and query string split. */
export function requestContext(runtime: EmulatorRuntime, req: http.IncomingMessage): RequestContext {
  const raw = req.url ?? "/";
  const q = raw.indexOf("?");
  return {
    runtime,
    req,
    requestId: newRequestId(),
    method: (req.method ?? "GET").toUpperCase(),
    path: q >= 0 ? raw.slice(0, q) : raw,
    query: new URLSearchParams(q >= 0 ? raw.slice(q + 1) : ""),
    startedAt: performance.now(),
    params: {},
    queryValues: {},
    responseHeaders: {},
    committed: false,
    changed: false,
    locals: {},
  };
}

/** A 500 `api_error` body. */
function internalError(ctx: RequestContext, message: string) {
  return { status: 500, body: new HttpError(500, [{ code: "api_error", message }]).body(ctx.requestId) };
}

/** Writes what the pipeline produced: the response (or a raw body), or drops the connection. */
export function send(ctx: RequestContext, res: http.ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  if (ctx.dropConnection) {
    ctx.req.socket.destroy();
    return;
  }
  const response = ctx.response ?? internalError(ctx, "No response was produced");
  const headers: Record<string, string> = { ...ctx.responseHeaders, "X-Request-Id": ctx.requestId };
  let payload: string | undefined;
  if (ctx.rawResponseBody && hasBody(response.status)) {
    payload = ctx.rawResponseBody.text;
    headers["Content-Type"] = ctx.rawResponseBody.contentType;
  } else if (response.body !== undefined && hasBody(response.status)) {
    payload = JSON.stringify(response.body);
    headers["Content-Type"] = "application/json; charset=utf-8";
  }
  if (hasBody(response.status)) headers["Content-Length"] = String(payload ? Buffer.byteLength(payload) : 0);
  if (ctx.closeConnection) headers.Connection = "close";
  res.writeHead(response.status, headers);
  res.end(payload);
}

/** Runs the pipeline for one request and answers it; an error escaping the pipeline is a 500. */
export async function handleRequest(
  runtime: EmulatorRuntime,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const ctx = requestContext(runtime, req);
  try {
    await runtime.pipeline.run(ctx);
  } catch (error) {
    console.error(`emulator: unhandled error for ${ctx.method} ${ctx.path}:`, error);
    ctx.response = internalError(ctx, "Internal error in the emulator");
  }
  send(ctx, res);
}

/** An HTTP server answering through the runtime's pipeline; malformed requests get a bare 400. */
export function createServer(runtime: EmulatorRuntime): http.Server {
  const server = http.createServer((req, res) => {
    handleRequest(runtime, req, res).catch((error) => {
      console.error("emulator: failed to answer a request:", error);
      if (!res.headersSent) res.destroy();
    });
  });
  server.on("clientError", (_error, socket) => {
    if (socket.writable)
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    else socket.destroy();
  });
  return server;
}

/** Listens on `port`/`host`; answers the port bound (the one chosen when `port` is 0). */
export async function listen(server: http.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** Stops listening, closes every connection (idle keep-alive ones too). */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
