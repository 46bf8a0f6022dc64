/** The adapter's logger: pino on stderr (src/log/logger.ts), level from `log.level`, format from `log.format`. */
import { createLogger as createPino, type LogFormat } from '../../src/log/logger.js';

/** What the adapter logs through; a pino logger fits, and so does a silent test double. */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  debug(msg: string): void;
}

/** A pino logger writing to stderr (fd 2): JSON lines, or pretty ones. */
export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  const log = createPino({ name: 'discord', level, format });
  return {
    info: (m) => log.info(m),
    warn: (m) => log.warn(m),
    error: (m) => log.error(m),
    debug: (m) => log.debug(m),
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {}, debug() {} };
