/**
 * Reads a request body up to a size limit. Past the limit the rest is read and discarded, then the
 * request is answered 413 `payload_too_large` (so the client, still sending, gets a clean answer on
 * a connection that stays usable); past a hard cap (16 × the limit) the connection is dropped.
 */
import type { IncomingMessage } from "node:http";
import { HttpError } from "./errors";

/** The client went away before the body was complete (not an emulator failure: nothing to answer). */
export class ClientClosedError extends Error {
  constructor() {
    super("the client closed the connection before sending the whole body");
    this.name = "ClientClosedError";
  }
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, [
    { code: "payload_too_large", message: `The request body is larger than the limit of ${limit} bytes` },
  ]);
}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  const hardCap = Math.max(limit * 16, 16 * 1024 * 1024);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > hardCap) {
        cleanup();
        req.destroy();
        reject(tooLarge(limit));
        return;
      }
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      if (!over) chunks.push(buf);
    };
    const onEnd = () => {
      cleanup();
      if (over) reject(tooLarge(limit));
      else resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error & { code?: string }) => {
      cleanup();
      reject(error.code === "ECONNRESET" || error.message === "aborted" ? new ClientClosedError() : error);
    };
    const onClose = () => {
      if (!req.readableEnded) {
        cleanup();
        reject(new ClientClosedError());
      }
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}
