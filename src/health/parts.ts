/**
 * The parts `/readyz` checks in a process, from its wired core: its store always; its queue in
 * queue mode (Redis answers a PING); its LLM and its sandbox when it runs code (not a queue-mode
 * ingress, which never does).
 */
import type { HistoryStore } from '../history/types.js';
import type { LlmProvider } from '../llm/types.js';
import type { Executor } from '../sandbox/types.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Config } from '../config/schema.js';
import type { OpsDeps } from './routes.js';
import type { PartCheck, PartName } from './readiness.js';

/** Something that answers a ping (a queue's Redis connection). */
export interface Pingable {
  /** @throws when it does not answer */
  ping(): Promise<void>;
}

/** What a process is. */
export interface ProcessRole {
  /** The queue it uses in queue mode (undefined: in-memory queue, nothing to check). */
  queue?: Pingable;
  /** True when it calls the LLM and runs the sandbox (embedded chat, worker, terminal). */
  runsCode: boolean;
}

/** The endpoints' dependencies for a process (see routes.ts). */
export function opsDeps(config: Config, app: { store: HistoryStore; llm: LlmProvider; executor: Executor; metrics: Metrics | undefined }, role: ProcessRole): OpsDeps {
  const parts: Partial<Record<PartName, PartCheck>> = {
    store: async () => {
      await app.store.ping?.();
    },
  };
  if (role.queue) parts.queue = () => role.queue!.ping();
  if (role.runsCode) {
    parts.llm = async (signal) => {
      await app.llm.ping?.(signal);
    };
    parts.sandbox = () => app.executor.check();
  }
  return { parts, readyTimeoutMs: config.ops.ready_timeout_s * 1000, metrics: app.metrics };
}
