/**
 * `/show`'s answer as a view, the same on every platform: the run's id and outcome, its
 * requirement, its workspace (one line per file), its latest code and that code's result. Three
 * levels of detail, tried in order until the platform's answer holds it
 * (src/chat/view/answer-markup.ts): `full`, `code` (no result), `head` (the code is in the thread).
 */
import type { ShowView } from '../incoming-port.js';
import type { Attempt } from '../../history/types.js';
import { statusLine } from '../format.js';
import { TRIGGER_WORDS } from '../progress-text.js';
import { outcomeLine, runOutcome } from '../run-outcome.js';
import { workspaceListing } from '../workspace-view.js';
import { boundLine } from '../../text/cut.js';
import type { Block, View } from './blocks.js';
import { noticeBlocks } from './text-view.js';
import type { ShowSpelling } from './show-spelling.js';

/** How much of the run the answer holds: everything, everything but the result, or no code (it is in the thread). */
export type ShowDetail = 'full' | 'code' | 'head';

/** The levels of detail, most first. */
export const SHOW_DETAILS: readonly ShowDetail[] = ['full', 'code', 'head'];

/** Longest requirement shown, in characters (one line, marked when cut). */
const REQUIREMENT_CHARS = 300;

/** Lines of each output stream the answer shows (the thread has the rest). */
const OUTPUT_LINES = 20;

/** The answer at one level of detail. */
export function showView({ run, workspace }: ShowView, spelling: ShowSpelling, detail: ShowDetail = 'full'): View {
  const hint = `\`${spelling.removeFile(run.id)}\` removes one; \`${spelling.deleteRun(run.id)}\` deletes the run`;
  const blocks: Block[] = [
    { kind: 'heading', text: [{ strong: `Run ${run.id}` }, ` · ${outcomeLine(runOutcome(run), boundLine)}`] },
    { kind: 'text', text: [{ emphasis: boundLine(run.requirement, REQUIREMENT_CHARS) }] },
    ...noticeBlocks(workspaceListing(workspace, hint)),
  ];
  const latest = [...run.attempts].reverse().find((a) => a.code) ?? run.attempts.at(-1);
  if (!latest) return { blocks: [...blocks, { kind: 'text', text: ['This run has no code yet.'] }] };
  if (detail === 'head') return { blocks: [...blocks, { kind: 'text', text: [`Latest code: attempt ${latest.index}, in the run's thread (too long to show here).`] }] };
  return { blocks: [...blocks, ...attemptBlocks(run.id, latest, detail === 'full')] };
}

/** An attempt's code (or why it has none), then, with `result`, its status line and output. */
function attemptBlocks(runId: string, attempt: Attempt, result: boolean): Block[] {
  const label = [{ strong: `Attempt ${attempt.index}` }, ` · ${TRIGGER_WORDS[attempt.trigger]}`];
  const code: Block = attempt.code
    ? { kind: 'code', code: attempt.code, language: 'python', label, file: `run-${runId}.py` }
    : { kind: 'text', text: [...label, ` · ⚠️ ${boundLine(attempt.error ?? 'no code in the reply', 500)}`] };
  const r = attempt.result;
  if (!result || !r) return [code];
  const out: Block[] = [code, { kind: 'text', text: [{ strong: `Result of attempt ${attempt.index}` }, ` · ${boundLine(statusLine(r), 600)}`] }];
  for (const stream of ['stdout', 'stderr'] as const) {
    if (r[stream].length > 0) out.push({ kind: 'output', text: r[stream], stream, label: [`${stream}:`], maxLines: OUTPUT_LINES });
  }
  if (!r.stdout && !r.stderr) out.push({ kind: 'text', text: [{ emphasis: '(no output)' }] });
  return out;
}
