/**
 * Starts a process's ops listener when `ops.port` is set (see ops-server.ts), and says where on
 * stderr: `code-agent: ops endpoints on http://127.0.0.1:9464 (/healthz, /readyz, /metrics)`.
 */
import type { Config } from '../config/schema.js';
import { startOpsServer, type OpsServer } from './ops-server.js';
import type { OpsDeps } from './routes.js';

/**
 * @returns the listener, or undefined when `ops.port` is not set
 * @throws when it cannot listen (the message names the address and `ops.port`)
 */
export async function startOpsIfConfigured(config: Config, deps: OpsDeps, say: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<OpsServer | undefined> {
  if (config.ops.port === undefined) return undefined;
  const server = await startOpsServer(config.ops.host, config.ops.port, deps);
  say(`code-agent: ops endpoints on http://${config.ops.host.includes(':') ? `[${config.ops.host}]` : config.ops.host}:${server.port} (/healthz, /readyz, /metrics)`);
  return server;
}
