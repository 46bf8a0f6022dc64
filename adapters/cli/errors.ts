/**
 * Exit codes of the CLI (README) and how errors map to them.
 */
import { ConfigError } from '../../src/config/load.js';
import { InputError } from '../../src/config/errors.js';
import { HistoryError } from '../../src/history/types.js';
import { LlmError } from '../../src/llm/types.js';
import { SandboxUnavailableError } from '../../src/sandbox/types.js';

/**
 * 0 success, 1 failed after retries (or a runtime failure), 2 usage or config error,
 * 130 cancelled with Ctrl-C (the shell's convention for SIGINT: 128 + 2).
 */
export const EXIT = { success: 0, failed: 1, usage: 2, cancelled: 130 } as const;

/** The exit code for an error that escaped a command. */
export function exitCodeOf(err: unknown): number {
  if (
    err instanceof ConfigError ||
    err instanceof InputError ||
    err instanceof SandboxUnavailableError ||
    (err instanceof Error && /StartupError$/.test(err.name))
  ) {
    return EXIT.usage;
  }
  return EXIT.failed;
}

/** A one-paragraph message for the user, without a stack trace for known errors. */
export function describeError(err: unknown): string {
  // adapters' startup errors (SlackStartupError, DiscordStartupError) and system errors
  // (ENOTFOUND, ECONNREFUSED…) already say what went wrong; a stack would only hide it
  if (err instanceof Error && (/StartupError$/.test(err.name) || typeof (err as NodeJS.ErrnoException).code === 'string')) {
    return err.message;
  }
  if (
    err instanceof ConfigError ||
    err instanceof InputError ||
    err instanceof HistoryError ||
    err instanceof LlmError ||
    err instanceof SandboxUnavailableError
  ) {
    return err.message;
  }
  return (err as Error)?.stack ?? String(err);
}
