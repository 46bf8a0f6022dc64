/**
 * The processes' logger: pino (https://getpino.io) on stderr, as JSON lines (`log.format: json`)
 * or as lines for people through pino-pretty (`pretty`); `auto` is pretty on a terminal, else JSON.
 * Every line written while a run is being worked on carries its `runId` and `channel` (from the
 * usage scope, src/log/scope.ts, which follows every `await`); a line of a chat job before its
 * run exists carries the `channel`.
 */
import { pino, destination, type Logger as PinoLogger, type DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import { currentScope } from './scope.js';

/** `log.format`. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Names the process's part, e.g. `slack`, `worker` (a field of every line). */
  name: string;
  /** pino's level name (`log.level`). */
  level: string;
  format: LogFormat;
  /** Where lines go (tests); default stderr, written synchronously. */
  stream?: DestinationStream;
  /** Whether stderr is a terminal (decides `auto`); default `process.stderr.isTTY`. */
  tty?: boolean;
}

/** The format `auto` stands for here. */
export function resolvedFormat(format: LogFormat, tty = Boolean(process.stderr.isTTY)): 'json' | 'pretty' {
  return format === 'auto' ? (tty ? 'pretty' : 'json') : format;
}

/** A pino logger (see the module comment). */
export function createLogger(options: LoggerOptions): PinoLogger {
  const format = resolvedFormat(options.format, options.tty);
  const sink =
    format === 'pretty'
      ? pretty({
          destination: options.stream ?? 2,
          sync: true,
          colorize: !options.stream && Boolean(process.stderr.isTTY),
          ignore: 'pid,hostname',
          translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
        })
      : (options.stream ?? destination({ dest: 2, sync: true }));
  return pino({ name: options.name, level: options.level, mixin: scopeFields }, sink);
}

/** The run id and channel of the work in progress, for every line. */
export function scopeFields(): Record<string, string> {
  const scope = currentScope();
  if (scope.run) return { runId: scope.run.runId, channel: scope.run.conversationId };
  if (scope.account) return { channel: scope.account.channel };
  return {};
}

/** Where a chat platform and its pipeline log: parts (strings and errors, as the adapters pass them) at three levels. */
export interface PartsLog {
  /** Where given (a pino logger's), lines below `info` (Bolt's debug lines). */
  debug?(...parts: unknown[]): void;
  info(...parts: unknown[]): void;
  warn(...parts: unknown[]): void;
  error(...parts: unknown[]): void;
}

/** A pino logger as a {@link PartsLog} (each call: {@link logParts}). */
export function partsLog(log: PinoLogger): PartsLog {
  return { debug: (...m) => logParts(log, 'debug', m), info: (...m) => logParts(log, 'info', m), warn: (...m) => logParts(log, 'warn', m), error: (...m) => logParts(log, 'error', m) };
}

/** A {@link PartsLog} that drops everything (a bot started without a log: tests). */
export const silentLog: PartsLog = { info() {}, warn() {}, error() {} };

/**
 * Logs `parts` (strings and errors, as the adapters pass them) on one line at `level`: the strings
 * joined as the message, the first error as pino's `err` (message and stack).
 */
export function logParts(log: PinoLogger, level: 'debug' | 'info' | 'warn' | 'error', parts: unknown[]): void {
  const err = parts.find((p): p is Error => p instanceof Error);
  const msg = parts
    .filter((p) => p !== err)
    .map((p) => (typeof p === 'string' ? p : p instanceof Error ? p.message : safeJson(p)))
    .join(' ');
  if (err) log[level]({ err }, msg || err.message);
  else log[level](msg);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
