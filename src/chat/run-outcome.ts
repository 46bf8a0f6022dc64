/**
 * A run's outcome, the words of its status line, once for every platform: `✅ Success · 2 attempts`,
 * `⚠️ Ran, but not confirmed · 2 attempts · <why>`, `❌ Failed · 4 attempts · <why>`, a team
 * program's own mark. The views compose it as a line (src/chat/view/final-view.ts `statusLineOf`,
 * with the run's id); a renderer escapes and cuts it.
 */
import { madeAttempts } from '../history/attempts.js';
import type { Run } from '../history/types.js';
import { programMark } from '../programs/text.js';
import { confirmedBy } from './settle-view.js';

/** The parts of a status line; `head` and `detail` are our words (with a person's name), `why` is untrusted text. */
export interface RunOutcome {
  /** The mark and the outcome, e.g. `✅ Success`, or a team program's mark (up to 400 characters of it). */
  head: string;
  /** What qualifies it: `2 attempts`, `confirmed by Alice (candidate 1)`. */
  detail?: string;
  /** Why it failed or was not confirmed: the run's error (the program's or the model's text). */
  why?: string;
}

/** Longest part of each kind, in characters, before a platform's own escaping. */
export const OUTCOME_MAX = { head: 400, detail: 200, why: 300 } as const;

/** The outcome of a finished (or stopped) run. */
export function runOutcome(run: Run): RunOutcome {
  const mark = programMark(run);
  if (mark) return { head: mark.text };
  const n = madeAttempts(run);
  const attempts = `${n} attempt${n === 1 ? '' : 's'}`;
  if (run.status === 'success') return { head: '✅ Success', detail: confirmedBy(run) ?? attempts };
  if (run.status === 'generated') return { head: '📝 Code generated (not run)' };
  if (run.status === 'unverified') return { head: '⚠️ Ran, but not confirmed', detail: attempts, why: run.error ?? 'not confirmed' };
  return { head: '❌ Failed', detail: attempts, why: run.error ?? 'failed' };
}

/** The status line as text: the parts joined by ` · `, each through `text` (cutting to `max` characters). */
export function outcomeLine(outcome: RunOutcome, text: (part: string, max: number) => string): string {
  const parts = [text(outcome.head, OUTCOME_MAX.head), outcome.detail && text(outcome.detail, OUTCOME_MAX.detail), outcome.why && text(outcome.why, OUTCOME_MAX.why)];
  return parts.filter(Boolean).join(' · ');
}
