/** The adapter's logger: pino on stderr, level from `log.level`. */
import { pino, destination } from 'pino';

/** What the adapter logs through; a pino logger fits, and so does a silent test double. */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  debug(msg: string): void;
}

/** A pino logger writing JSON lines to stderr (fd 2). */
export function createLogger(level: string): Logger {
  const log = pino({ name: 'discord', level }, destination(2));
  return {
    info: (m) => log.info(m),
    warn: (m) => log.warn(m),
    error: (m) => log.error(m),
    debug: (m) => log.debug(m),
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {}, debug() {} };
