/**
 * Which of the agent's LLM calls a chat is, read off its messages (the bench sees only what the
 * provider sees): `code` a run's first program, `improve` a later one (the chat carries earlier
 * attempts), `independent` a program that computes the answer again for agreement, `checks` the
 * check writer, `review` the reviewer.
 */
import type { ChatMessage } from '../../src/llm/types.js';
import { CHECKS_PROMPT, REVIEW_PROMPT, INDEPENDENT_INSTRUCTION } from '../../src/agent/verification/index.js';

/** The kinds of LLM call a run makes. */
export type CallKind = 'code' | 'improve' | 'independent' | 'checks' | 'review';

/** Every kind, in report order. */
export const CALL_KINDS: readonly CallKind[] = ['code', 'improve', 'independent', 'checks', 'review'];

/** The kind of one chat completion, from its messages. */
export function callKind(messages: readonly ChatMessage[]): CallKind {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  if (system.startsWith(CHECKS_PROMPT.slice(0, 60))) return 'checks';
  if (system.startsWith(REVIEW_PROMPT.slice(0, 60))) return 'review';
  const last = messages.at(-1)?.content ?? '';
  if (last.includes(INDEPENDENT_INSTRUCTION)) return 'independent';
  return messages.some((m) => m.role === 'assistant') ? 'improve' : 'code';
}
