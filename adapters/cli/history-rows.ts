/**
 * `/history` in the terminal: runs numbered in the order they were made (run 1 is the oldest and
 * keeps its number, so `/open n` from an earlier listing opens the same run), one row each, at
 * most {@link ROW_COLUMNS} columns wide, the requirement cut with "…".
 */
import type { HistoryStore, Run } from '../../src/history/types.js';
import { madeAttempts } from '../../src/history/attempts.js';
import { OUTCOME_ICON, runOutcome } from './outcome.js';

/** Widest row, in terminal columns. */
export const ROW_COLUMNS = 120;

/** Every run the store keeps for a conversation (at most its index length), oldest first; `number` is 1-based. */
export async function numberedRuns(store: HistoryStore, conversationId: string): Promise<{ number: number; run: Run }[]> {
  const newestFirst = await store.listRuns(conversationId, Number.MAX_SAFE_INTEGER);
  return newestFirst.reverse().map((run, i) => ({ number: i + 1, run }));
}

/** Terminal columns a string takes: wide (emoji, CJK) characters count 2, combining marks and variation selectors 0. */
export function columns(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (/\p{Mn}|\p{Me}|\uFE0F|\u200B|\u200D/u.test(ch)) continue;
    n += cp >= 0x1100 && /\p{Extended_Pictographic}|\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}/u.test(ch) ? 2 : 1;
  }
  return n;
}

/** The first line of `text`, cut to at most `width` columns, ending with "…" when cut. */
export function fitColumns(text: string, width: number): string {
  const line = text.split('\n')[0]!.replace(/\s+/g, ' ').trim();
  const cutMore = line !== text.trim().replace(/\s+/g, ' ');
  if (columns(line) <= width && !cutMore) return line;
  let out = '';
  for (const ch of line) {
    if (columns(out + ch) > width - 1) break;
    out += ch;
  }
  return `${out.trimEnd()}…`;
}

/** One row: `  3. 2026-01-02 10:11:12  ✅ success     2 attempts  plot sin(x)…` */
export function historyRow(number: number, run: Run, width = ROW_COLUMNS): string {
  const n = madeAttempts(run);
  const when = run.createdAt.slice(0, 19).replace('T', ' ');
  const outcome = runOutcome(run);
  const head = `${String(number).padStart(3)}. ${when}  ${OUTCOME_ICON[outcome]} ${outcome.padEnd(10)} ${String(n).padStart(2)} attempt${n === 1 ? ' ' : 's'}  `;
  return head + fitColumns(run.requirement, width - columns(head));
}
