/**
 * Reserving an LLM call's tokens before it is made (`limits.budgets`): a call is held against its
 * channel's and its user's daily budgets in the store at the most it can cost, and settled to what
 * it cost once it ends (src/usage/recorder.ts, the ledger's `reserve`/`settle` in src/history).
 * Calls in progress in any process therefore never take a budget past its limit. A reservation is
 * a lease: it expires {@link RESERVATION_TTL_MS} after it was made or last renewed, and the process
 * renews it every {@link RESERVATION_RENEW_MS} while the call runs, so a crashed process's
 * reservations free their tokens within {@link RESERVATION_TTL_MS}. A call that would fit once the
 * calls in progress settle waits for them; one that cannot fit even then is refused at once.
 */
import type { ChatMessage } from '../llm/types.js';
import type { BudgetName } from '../history/usage.js';

/** How long a reservation holds without renewal, in ms (a crashed process's tokens are free after it). */
export const RESERVATION_TTL_MS = 120_000;

/**
 * The longest a call waits for calls in progress to settle when its reservation would fit after
 * they do, in ms (by then even a dead process's reservations have expired).
 */
export const RESERVATION_WAIT_MS = RESERVATION_TTL_MS;

/** How often a waiting call tries its reservation again, in ms. */
export const RESERVATION_POLL_MS = 1000;

/** How often a call in progress renews its reservation, in ms (a quarter of its life: three renewals may fail in a row). */
export const RESERVATION_RENEW_MS = 30_000;

/**
 * Tokens a chat template may add per message (role markers, separators: OpenAI's format adds 3,
 * Llama 3's about 5; https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken), with room.
 */
const TOKENS_PER_MESSAGE = 8;

/** Tokens a chat template may add once per call (the reply's start, a leading marker), with room. */
const TOKENS_PER_CALL = 16;

/** The longest reply assumed of a call when neither the call nor the provider says (`llm.max_tokens` unset). */
export const DEFAULT_REPLY_TOKENS = 8192;

/**
 * The most tokens a prompt can take: its UTF-8 bytes (a token of a byte-level BPE or a
 * SentencePiece model with byte fallback covers at least one byte), plus the chat template's
 * tokens. English and code take 3 to 4 times fewer; the bound is what makes the budget hold.
 */
export function promptTokensAtMost(messages: readonly ChatMessage[]): number {
  let tokens = TOKENS_PER_CALL;
  for (const m of messages) tokens += Buffer.byteLength(m.content, 'utf8') + Buffer.byteLength(m.role, 'utf8') + TOKENS_PER_MESSAGE;
  return tokens;
}

/**
 * The most tokens a call can cost: its prompt's (see {@link promptTokensAtMost}) plus its longest reply.
 * @param maxTokens the call's longest reply in tokens (its own, else the provider's); undefined: {@link DEFAULT_REPLY_TOKENS}
 */
export function callTokensAtMost(messages: readonly ChatMessage[], maxTokens: number | undefined): number {
  return promptTokensAtMost(messages) + Math.max(1, Math.ceil(maxTokens ?? DEFAULT_REPLY_TOKENS));
}

/**
 * An LLM call was not made: its reservation does not fit in a daily budget. `message` says which
 * budget, what is left, and when it resets (for the run's thread); the run stops with its best
 * answer so far (src/agent/loop/turn.ts).
 */
export class BudgetRefusedError extends Error {
  override name = 'BudgetRefusedError';
  constructor(
    message: string,
    /** The budget the call did not fit in. */
    readonly budget: BudgetName,
  ) {
    super(message);
  }
}
