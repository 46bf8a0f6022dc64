/**
 * `code-agent worker` (docs/deploy.md): the queue worker of every platform whose token the config
 * sets. Each platform gives its outgoing port here; the worker itself is src/app/worker-process.ts.
 */
import type { Config } from '../../src/config/schema.js';
import { runWorker as runQueueWorker, type OutgoingFactory } from '../../src/app/worker-process.js';
import { slackOutgoing } from '../slack/outgoing.js';
import { discordOutgoing } from '../discord/outgoing.js';
import { matrixPort } from '../matrix/main.js';
import { matrixSettings } from '../matrix/settings.js';

/** The platforms a worker can post to, by name (the `platform` of their jobs). */
export const OUTGOING: Record<string, OutgoingFactory> = {
  slack: (config, _core, log) => (config.slack?.bot_token ? slackOutgoing(config, log) : undefined),
  discord: (config, _app, log) => (config.discord?.token ? discordOutgoing(config, log) : undefined),
  matrix: (config, _app, log) => (config.matrix?.access_token ? matrixPort(matrixSettings(config), log) : undefined),
};

/**
 * Starts a worker and resolves with exit code 0 after a signal stopped it.
 * @throws what src/app/worker-process.ts's runWorker throws (no `queue.url`, no platform token, the sandbox).
 */
export function runWorker(config: Config): Promise<number> {
  return runQueueWorker(config, OUTGOING);
}
