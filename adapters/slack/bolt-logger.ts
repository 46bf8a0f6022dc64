/**
 * Bolt's logger interface (@slack/logger: debug/info/warn/error with any arguments, and a level)
 * on the process's pino logger (src/log/logger.ts): Bolt's own lines and ours share one format,
 * and a run's lines carry its run id and channel.
 */
import { LogLevel, type Logger } from '@slack/bolt';
import type { Logger as PinoLogger } from 'pino';
import { logParts } from '../../src/log/logger.js';

/** Bolt's level of each pino level, and back. */
const TO_PINO: Record<LogLevel, string> = { [LogLevel.DEBUG]: 'debug', [LogLevel.INFO]: 'info', [LogLevel.WARN]: 'warn', [LogLevel.ERROR]: 'error' };

/** Adapts a pino logger to Bolt's interface. */
export function boltLogger(pino: PinoLogger): Logger {
  let log = pino;
  return {
    debug: (...msg: unknown[]) => logParts(log, 'debug', msg),
    info: (...msg: unknown[]) => logParts(log, 'info', msg),
    warn: (...msg: unknown[]) => logParts(log, 'warn', msg),
    error: (...msg: unknown[]) => logParts(log, 'error', msg),
    setLevel: (level: LogLevel) => {
      // pino's level is the config's (log.level); Bolt asks for its own default only
      void level;
    },
    getLevel: () => (Object.entries(TO_PINO).find(([, p]) => p === log.level)?.[0] as LogLevel | undefined) ?? LogLevel.INFO,
    setName: (name: string) => {
      log = pino.child({ component: name });
    },
  };
}
