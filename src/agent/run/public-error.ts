/**
 * What a run's `error` says when a call failed with an exception: plain words for the channel,
 * details (URLs stripped of credentials and queries) for the operator's log.
 */
import { LlmError } from '../../llm/types.js';
import { redactUrls } from '../../text/redact.js';

/** Writes to stderr, the operator's log when no other is given. */
export const stderrLog = (message: string): void => void process.stderr.write(`warning: ${message}\n`);

/**
 * @returns the reason to store and show: an {@link LlmError}'s `publicMessage` (its details go to
 *   `log`), or any other error's message with every URL redacted.
 */
export function publicReason(err: unknown, log: (message: string) => void = stderrLog): string {
  if (err instanceof LlmError) {
    log(`LLM call failed: ${err.message}`);
    return err.publicMessage;
  }
  return redactUrls(err instanceof Error ? err.message : String(err));
}
