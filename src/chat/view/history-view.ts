/**
 * `/history`'s answer as a view, the same on every platform: a heading, then one row per run,
 * newest first — its mark and status, its id, its requirement on one line, when it was asked, who
 * asked (when the platform gave a name) and a link to its thread (where the platform can link one).
 */
import type { HistoryView } from '../incoming-port.js';
import type { Run } from '../../history/types.js';
import { STATUS_ICON } from '../format.js';
import { chatOf } from '../run-chat.js';
import { boundLine } from '../../text/cut.js';
import type { Line, View } from './blocks.js';
import type { ShowSpelling } from './show-spelling.js';

/** Longest requirement of a row, in characters (one line, marked when cut). */
export const ROW_REQUIREMENT_CHARS = 100;

/** A link to a run's thread (an https URL), or undefined where there is none (a run answered in place, a platform without links). */
export type ThreadLink = (run: Run) => string | undefined;

/** One run's row: `✅ success · r-12 · the requirement · <when> · alice · thread`. */
export function historyRow(run: Run, threadLink?: ThreadLink): Line {
  const who = chatOf(run)?.userName;
  const url = threadLink?.(run);
  return [
    `${STATUS_ICON[run.status]} ${run.status} · `,
    { code: run.id },
    ` · ${boundLine(run.requirement, ROW_REQUIREMENT_CHARS)} · `,
    { time: run.createdAt },
    ...(who ? [' · ', { strong: boundLine(who, 80) }] : []),
    ...(url ? [' · ', { link: 'thread', url }] : []),
  ];
}

/**
 * The answer: its heading (naming the command that shows one run) and the first `keep` rows
 * (default all; the renderer's room decides how many fit: src/chat/view/answer-markup.ts).
 * @param view the runs, newest first (never empty: an empty history is answered as text)
 */
export function historyView(view: HistoryView, spelling: ShowSpelling, threadLink?: ThreadLink, keep = view.runs.length): View {
  const rows = view.runs.slice(0, Math.max(1, keep)).flatMap((run, i) => (i === 0 ? historyRow(run, threadLink) : ['\n', ...historyRow(run, threadLink)]));
  return {
    blocks: [
      { kind: 'heading', text: [{ strong: 'Recent runs in this channel' }, ' (newest first; ', { code: spelling.one('<run id>') }, ' shows one)'] },
      { kind: 'text', text: rows },
    ],
  };
}
