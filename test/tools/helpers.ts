/** Shared helpers of the tools tests: real HTTP servers on 127.0.0.1 that record what reached them. */
import http from 'node:http';
import https from 'node:https';
import { selfSignedFor } from '../fakes/self-signed.js';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { httpToolSchema } from '../../src/config/tools-schema.js';
import { HttpPolicy, type HttpPolicyOptions } from '../../src/tools/http/policy.js';
import { ToolBroker } from '../../src/tools/broker.js';

/** A request as the server saw it. */
export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** A loopback server that records every request. */
export interface TargetServer {
  port: number;
  /** `127.0.0.1:<port>` */
  host: string;
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

const servers: TargetServer[] = [];
afterAll(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Starts a server on a free loopback port; `handle` answers (default: `hello from <port>`). */
export async function targetServer(handle?: (req: http.IncomingMessage, res: http.ServerResponse, port: number) => void): Promise<TargetServer> {
  const seen: Seen[] = [];
  let port = 0;
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (handle) handle(req, res, port);
    else res.end(`hello from ${port}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  const target: TargetServer = {
    port,
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
  servers.push(target);
  return target;
}

/** A broker with the HTTP tool configured as `http` (the `tools.http` section, validated). */
export function httpBroker(http: Record<string, unknown>, options: HttpPolicyOptions = {}): ToolBroker {
  return new ToolBroker({ http: new HttpPolicy(httpToolSchema.parse(http), options) });
}

/** An https server on a free loopback port with a self-signed certificate; `cert` is what to trust. */
export async function httpsTargetServer(handle?: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<TargetServer & { cert: string }> {
  const seen: Seen[] = [];
  const pair = selfSignedFor('127.0.0.1');
  const server = https.createServer(pair, (req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (handle) handle(req, res);
    else res.end('hello over tls');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const target = {
    port,
    host: `127.0.0.1:${port}`,
    url: `https://127.0.0.1:${port}`,
    seen,
    cert: pair.cert,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
  servers.push(target);
  return target;
}
