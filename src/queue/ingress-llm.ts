/**
 * The LLM provider of a queue-mode ingress process: there is none. An ingress only receives,
 * dedupes and enqueues; workers call the LLM. Any call is a bug and says so.
 */
import { LlmError, type Completion, type LlmProvider } from '../llm/types.js';

/** Refuses every completion (see the module comment). */
export class IngressOnlyLlm implements LlmProvider {
  readonly name = 'none (queue ingress: workers call the LLM)';

  /** @throws {LlmError} always. */
  async complete(): Promise<Completion> {
    throw new LlmError('this process is a queue-mode ingress: it never calls the LLM (code-agent worker does)', undefined, {
      publicMessage: 'this process does not run code',
    });
  }
}
