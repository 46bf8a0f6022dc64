/**
 * The ops listener (`ops.port`): `/healthz`, `/readyz` and `/metrics` for processes that have no
 * HTTP server of their own (the Discord bot, the worker). Off unless `ops.port` is set.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { opsRoutes, serveOps, type OpsDeps } from './routes.js';

/** A listening ops server. */
export interface OpsServer {
  /** The bound port (useful with `ops.port: 0`). */
  port: number;
  close(): Promise<void>;
}

/**
 * Listens on `host:port`.
 * @throws the listen error (port in use, address not available), with the address in its message
 */
export async function startOpsServer(host: string, port: number, deps: OpsDeps): Promise<OpsServer> {
  const routes = opsRoutes(deps);
  const server: Server = createServer((req, res) => {
    serveOps(routes, req, res)
      .then((served) => {
        if (!served) res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: try /healthz, /readyz or /metrics\n');
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new Error(`cannot listen on ${host}:${port} (ops.port): ${err.message}`)));
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
