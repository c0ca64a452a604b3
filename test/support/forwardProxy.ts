/**
 * A forward proxy for tests, as a corporate egress proxy is: `CONNECT host:port` tunnels (what
 * undici's proxy agents use) and absolute-form requests (`GET http://host/path`), with its own name
 * resolution (`hosts`: a name only the proxy can resolve proves that a request went through it). It
 * records what it carried.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as net from "node:net";

export interface ForwardProxy {
  url: string;
  /** `host:port` of every CONNECT tunnel opened. */
  tunnels: string[];
  /** `METHOD url` of every absolute-form request forwarded. */
  forwarded: string[];
  close(): Promise<void>;
}

export async function startForwardProxy(hosts: Record<string, string> = {}): Promise<ForwardProxy> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const sockets = new Set<net.Socket>();
  const resolve = (host: string) => hosts[host] ?? host;
  const server: Server = createServer((req: IncomingMessage, res) => {
    forwarded.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? "");
    const upstream = httpRequest(
      {
        host: resolve(target.hostname),
        port: target.port || 80,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.on("connect", (req: IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push(req.url ?? "");
    const [host, port] = (req.url ?? "").split(":");
    const upstream = net.connect(Number(port), resolve(host!), () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  server.on("connection", (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    forwarded,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
