/**
 * A chat platform's process (`code-agent discord`, `code-agent matrix`), the same for each: its log
 * (pino on stderr, `log.level` and `log.format`), the core built for chat (src/app/chat-service.ts:
 * `createChatApp`), stray errors logged while the process keeps running, the platform's bot started
 * on the core and run until SIGINT or SIGTERM, then the bot stopped and the core closed.
 */
import type { Config } from '../config/schema.js';
import type { App } from './app.js';
import { createChatApp, type ChatLog } from './chat-service.js';
import { untilStopSignal } from './stop-signal.js';
import { keepRunningOnStrayErrors } from '../chat/stray-errors.js';
import { createLogger, partsLog } from '../log/logger.js';

/** What the process says of its bot (on its log or stderr). */
export interface ChatProcessHooks<B> {
  /** The bot is running. */
  started(bot: B, log: ChatLog): void;
  /** A signal came: the bot is about to stop. */
  stopping?(log: ChatLog): void;
}

/**
 * Runs a platform's bot as the process (see the module comment).
 * @param name the process's part in every log line (`discord`, `matrix`)
 * @param start starts the bot on the core; what it throws is thrown here, after the core is closed
 * @returns exit code 0 after a signal stopped the bot
 */
export async function runChatProcess<B extends { stop(): Promise<void> }>(
  config: Config,
  name: string,
  start: (app: App, log: ChatLog) => Promise<B>,
  hooks: ChatProcessHooks<B>,
): Promise<number> {
  const log = partsLog(createLogger({ name, level: config.log.level, format: config.log.format }));
  // queue mode (`queue.url`): this process only receives and enqueues; workers call the LLM and run the sandbox
  const app = await createChatApp(config, { warn: (m) => log.warn(m) });
  keepRunningOnStrayErrors((err) => log.error(`unhandled error (the bot keeps running): ${(err as Error)?.stack ?? String(err)}`));
  const bot = await start(app, log).catch(async (err: unknown) => {
    await app.close();
    throw err;
  });
  hooks.started(bot, log);
  await untilStopSignal();
  hooks.stopping?.(log);
  await bot.stop();
  await app.close();
  return 0;
}
