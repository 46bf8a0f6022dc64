/**
 * Review of a run that succeeded: the LLM reads the request, the program and what it printed, and
 * answers that it meets the request or names one concrete defect, which becomes the feedback of
 * an improve attempt.
 */
import type { LlmProvider, TokenUsage } from '../../llm/types.js';
import type { ExecutionResult } from '../../sandbox/types.js';

/** Characters of the program's stdout shown to the reviewer (its head; the rest is cut). */
export const REVIEW_OUTPUT_CHARS = 3000;

/** A reviewer's answer. */
export interface Review {
  /** True when the reviewer found the output meets the request. */
  ok: boolean;
  /** The one defect named, when not ok. */
  defect?: string;
  usage: TokenUsage;
}

/** Instructions for the reviewer. */
export const REVIEW_PROMPT = `You review the work of a Python programmer. You get a request, the program written for it and what the program printed.
Decide whether the printed output (and the files written) meets the request exactly: the right values, the right count, the right format, the right order.
Reply with exactly one line:
- OK   when it meets the request
- DEFECT: <the one most important concrete defect, with the expected and the actual value>
Do not ask for style changes, comments, error handling or extra features.`;

function head(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n…(${text.length - max} more characters cut)`;
}

/**
 * Asks the LLM to review a successful execution.
 * @throws {LlmError} when the LLM call fails
 */
export async function reviewResult(
  llm: LlmProvider,
  request: string,
  code: string,
  result: ExecutionResult,
  signal?: AbortSignal,
): Promise<Review> {
  const files = result.artifacts.map((a) => `${a.name} (${a.bytes} bytes)`).join(', ') || 'none';
  const content =
    `Request:\n${request}\n\nProgram:\n\`\`\`python\n${code}\n\`\`\`\n\n` +
    `Printed output:\n\`\`\`\n${head(result.stdout, REVIEW_OUTPUT_CHARS)}\n\`\`\`\n\nFiles written: ${files}`;
  const completion = await llm.complete(
    [
      { role: 'system', content: REVIEW_PROMPT },
      { role: 'user', content },
    ],
    { signal },
  );
  return { ...parseReview(completion.content), usage: completion.usage };
}

/**
 * Reads a reviewer's reply: a line starting `DEFECT:` names a defect; anything else that starts
 * with OK (or says nothing concrete) counts as OK, so a rambling reply never starts an attempt.
 */
export function parseReview(reply: string): { ok: boolean; defect?: string } {
  const match = /^\s*[*_`]*DEFECT[*_`]*\s*:[*_`]*\s*(.+)$/im.exec(reply);
  const defect = match?.[1]?.trim().replace(/[*_`]+$/, '').trim();
  if (!defect) return { ok: true };
  return { ok: false, defect: defect.length > 500 ? `${defect.slice(0, 500)}…` : defect };
}
