/**
 * `code-agent slack`: serves the Slack app until SIGINT or SIGTERM.
 */
import type { Config } from '../../src/config/schema.js';
import { startSlackAdapter } from './server.js';
import { keepRunningOnStrayErrors } from '../../src/chat/stray-errors.js';
import { createLogger } from '../../src/log/logger.js';
import { boltLogger } from './bolt-logger.js';
import { untilStopSignal } from '../../src/app/stop-signal.js';

/**
 * Starts the adapter and resolves with exit code 0 after a signal stopped it.
 * @throws what {@link startSlackAdapter} throws (config, LLM, store, port).
 */
export async function runSlack(config: Config): Promise<number> {
  const pino = createLogger({ name: 'slack', level: config.log.level, format: config.log.format });
  const adapter = await startSlackAdapter(config, { logger: boltLogger(pino), warn: (m) => pino.warn(m) });
  keepRunningOnStrayErrors((err) =>
    process.stderr.write(`code-agent: unhandled error (the app keeps running): ${(err as Error)?.stack ?? String(err)}\n`),
  );
  const where = adapter.settings.mode === 'http' ? `HTTP on port ${adapter.port} (/slack/events)` : 'Socket Mode';
  const role = adapter.ingress ? ' as a queue ingress (workers run the jobs: code-agent worker)' : '';
  process.stderr.write(`code-agent: Slack app running in ${where}${role}\n`);
  await untilStopSignal();
  process.stderr.write('code-agent: stopping (waiting for running jobs)…\n');
  await adapter.stop();
  return 0;
}
