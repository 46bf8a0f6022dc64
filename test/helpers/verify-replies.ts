/**
 * Scripts for the fake OpenAI server that tell the agent's three kinds of request apart: code
 * (attempts), checks (derived from the requirement) and reviews. Each kind gets its own replies,
 * in order; the last one repeats.
 */
import type { FakeReply, FakeRequest } from '../fakes/openai-server.js';

/** True for the agent's request to derive checks (recognised by its system prompt). */
export const isChecksRequest = (r: FakeRequest) => r.messages[0]?.content.startsWith('You write checks') ?? false;
/** True for the agent's request to review a successful run. */
export const isReviewRequest = (r: FakeRequest) => r.messages[0]?.content.startsWith('You review') ?? false;
/** True for a request for code (a first attempt or an improvement). */
export const isCodeRequest = (r: FakeRequest) => !isChecksRequest(r) && !isReviewRequest(r);

/** Replies per kind of request; `checks` defaults to "nothing to check", `review` to OK. */
export interface RoutedScript {
  code: FakeReply[];
  checks?: string[];
  review?: string[];
}

/** One fake-server reply function that answers each kind of request from its own list. */
export function routedReplies(script: RoutedScript): FakeReply {
  const next = { code: 0, checks: 0, review: 0 };
  const pick = <T>(list: T[], kind: keyof typeof next): T => list[Math.min(next[kind]++, list.length - 1)]!;
  return async (req, index) => {
    if (isChecksRequest(req)) return pick(script.checks ?? ['# no checks'], 'checks');
    if (isReviewRequest(req)) return pick(script.review ?? ['OK'], 'review');
    const reply = pick(script.code, 'code');
    return typeof reply === 'function' ? reply(req, index) : reply;
  };
}
