/**
 * Checks written in the same reply as the code (runs on input files, where no separate checks call
 * is made): a ```checks block of asserts on OUTPUT after the ```python block, or asserts on OUTPUT
 * at the end of the program. The code extractor never runs a block whose info string is not
 * Python, so the checks are never part of the program. They are taken from the first reply of a
 * run and then frozen, like derived checks: a later attempt cannot weaken them.
 */
import type { TokenUsage } from '../../llm/types.js';
import { parseChecks, type RunChecks } from './checks.js';

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
 * are), else of the checks found at the end of its program (`trailing`, see {@link trailingChecks}),
 * or no checks when it has none. `usage` is zero: the reply's tokens are the attempt's.
 */
export function checksFromReply(reply: string, trailing?: string): RunChecks {
  const body = checksBlock(reply) ?? trailing;
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  if (body === undefined) return { code: '', asserts: [], usage, fromReply: true };
  return { ...parseChecks(`\`\`\`python\n${body}\n\`\`\``), usage, fromReply: true };
}

/** A top-level line that belongs to checks written on OUTPUT: an assert, or a setup line, that reads it. */
const READS_OUTPUT = /\bOUTPUT\b/;

/**
 * Checks a model wrote at the end of its program instead of in a ```checks block: the trailing
 * top-level lines from the first that reads `OUTPUT` (which the program does not define, so they
 * would crash it), when every one of them is an assert, an assignment, an import, a comment or
 * blank. Comment and import lines right before them go with them.
 * @returns the program without them, and their source; `checks` is undefined when there are none
 */
export function trailingChecks(code: string): { code: string; checks?: string } {
  const lines = code.split('\n');
  const first = lines.findIndex((l) => /^\S/.test(l) && READS_OUTPUT.test(l));
  if (first < 0) return { code };
  const tail = lines.slice(first);
  const checkLike = (l: string) => l.trim() === '' || /^(?:#|assert\b|import\b|from\s+\S+\s+import\b|[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*=)/.test(l);
  if (!tail.every(checkLike)) return { code };
  // comments and imports right before them belong to them (`# checks`, `import re`)
  let start = first;
  while (start > 0 && /^(?:#|import\b|from\s+\S+\s+import\b|\s*$)/.test(lines[start - 1]!)) start--;
  const checks = lines.slice(start).filter((l) => !l.startsWith('#')).join('\n').trim();
  return { code: lines.slice(0, start).join('\n').trimEnd(), checks };
}
