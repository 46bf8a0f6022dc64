/**
 * Checks written in the same reply as the code (runs on input files): after its ```python block
 * the model adds a ```checks block of asserts on OUTPUT. One LLM call instead of two; the code
 * extractor never runs a block whose info string is not Python, so the checks are never part of
 * the program. They are taken from the first reply of a run and then frozen, like derived checks:
 * a later attempt cannot weaken them.
 */
import type { TokenUsage } from '../llm/types.js';
import { parseChecks, type RunChecks } from './checks.js';

/** The instruction that follows the request and the input profile when checks come with the code. */
export const CHECKS_IN_REPLY_INSTRUCTION =
  'After the program, add a second block tagged ```checks with Python `assert` lines on OUTPUT (a str: everything the program ' +
  'printed) for what the request states for certain (the printed format, counts, values the request gives), one assert per ' +
  'requested value where it can be checked, each with a short message. Parse only what you need from OUTPUT (e.g. ' +
  're.findall numbers). Write `# no checks` in that block when nothing is certain.';

/** The body of the last ```checks block of a reply, if any (fences of three or more backticks or tildes). */
export function checksBlock(reply: string): string | undefined {
  const text = reply.replace(/\r\n?/g, '\n');
  // the block ends at its closing fence, or (a reply cut off) at the end of the reply
  const re = /^[ \t]*(`{3,}|~{3,})[ \t]*checks[ \t]*\n([\s\S]*?)(?:\n[ \t]*\1[ \t]*(?=\n|$)|(?![\s\S]))/gm;
  let body: string | undefined;
  for (const m of text.matchAll(re)) body = m[2]!.replace(/\n+$/, '');
  return body;
}

/**
 * The run's checks from a code reply: the asserts of its ```checks block (cut as derived checks
 * are), or no checks when it has none. `usage` is zero: the reply's tokens are the attempt's.
 */
export function checksFromReply(reply: string): RunChecks {
  const body = checksBlock(reply);
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  if (body === undefined) return { code: '', asserts: [], usage, fromReply: true };
  return { ...parseChecks(`\`\`\`python\n${body}\n\`\`\``), usage, fromReply: true };
}
