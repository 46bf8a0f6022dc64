/**
 * The ops endpoints, served the same on the Slack HTTP server (Bolt's custom routes) and on the
 * ops listener (ops-server.ts):
 * - `GET /healthz`: 200 `{"status":"ok"}` while the process answers (liveness);
 * - `GET /readyz`: 200 when every part answered within its deadline, else 503; the JSON body names
 *   each part (`store`, `queue`, `llm`, `sandbox`) with `ok`, `ms` and, when it failed, `error`;
 * - `GET /metrics`: the Prometheus text format (404 with `ops.metrics: false`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from '../metrics/metrics.js';
import { checkReadiness, type PartCheck, type PartName } from './readiness.js';

/** What the endpoints read. */
export interface OpsDeps {
  /** The parts `/readyz` checks. */
  parts: Partial<Record<PartName, PartCheck>>;
  /** Each part's deadline, in ms. */
  readyTimeoutMs: number;
  metrics: Metrics | undefined;
}

/** The paths served. */
export const OPS_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

/** A request handler for one of {@link OPS_PATHS}. */
export type OpsHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The handler of each path. */
export function opsRoutes(deps: OpsDeps): Record<(typeof OPS_PATHS)[number], OpsHandler> {
  return {
    '/healthz': async (_req, res) => json(res, 200, { status: 'ok' }),
    '/readyz': async (_req, res) => {
      const r = await checkReadiness(deps.parts, deps.readyTimeoutMs);
      json(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'unready', parts: r.parts });
    },
    '/metrics': async (_req, res) => {
      if (!deps.metrics) return json(res, 404, { error: 'metrics are off (ops.metrics: false)' });
      try {
        const { contentType, body } = await deps.metrics.scrape();
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
      } catch (err) {
        json(res, 500, { error: `could not collect the metrics: ${(err as Error).message}` });
      }
    },
  };
}

/**
 * Serves a request when it is `GET` (or `HEAD`) on one of {@link OPS_PATHS}.
 * @returns false when it is not one of them (the caller answers it)
 */
export async function serveOps(routes: Record<string, OpsHandler>, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const path = (req.url ?? '/').split('?', 1)[0]!;
  const handler = Object.hasOwn(routes, path) ? routes[path] : undefined;
  if (!handler) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    json(res, 405, { error: 'use GET' }, { allow: 'GET, HEAD' });
    return true;
  }
  await handler(req, res);
  return true;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(`${JSON.stringify(body)}\n`);
}
