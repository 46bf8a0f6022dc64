/**
 * A turn's last message in the thread, composed once for every platform: the run's status line
 * (its outcome in one wording, src/chat/run-outcome.ts, with the run's id), the candidates when a
 * person must pick one, how to go on, the line naming the run's workspace, and the run's choices
 * (buttons; reaction keys where a platform has none).
 */
import type { Run } from '../../history/types.js';
import { programMark } from '../../programs/text.js';
import { boundLine } from '../../text/cut.js';
import { OUTCOME_MAX, runOutcome } from '../run-outcome.js';
import { candidatesNotice, choicesOf, NEW_PROGRAM_CHOICE, SAVE_PROGRAM_CHOICE } from '../settle-view.js';
import type { Action, Block, Line, View } from './blocks.js';
import { noticeBlocks } from './thread.js';

/** Characters of the line naming the run's workspace. */
const WORKSPACE_MAX = 300;

/**
 * A run's status line, e.g. `✅ Success · 2 attempts · run r-1` or `⚠️ Ran, but not confirmed ·
 * 2 attempts · run r-1 · <why>` (each part bounded, src/chat/run-outcome.ts), the id inline code.
 */
export function statusLineOf(run: Run): Line {
  const outcome = runOutcome(run);
  const parts: Line[] = [[boundLine(outcome.head, OUTCOME_MAX.head)]];
  if (outcome.detail) parts.push([boundLine(outcome.detail, OUTCOME_MAX.detail)]);
  parts.push(['run ', { code: run.id }]);
  if (outcome.why) parts.push([boundLine(outcome.why, OUTCOME_MAX.why)]);
  return parts.flatMap((part, i) => (i === 0 ? part : [' · ', ...part]));
}

/** The run's choices, a row each: the candidates, then Re-run (`Run` for generated code) and Improve, then 👍/👎, saving and a new program. */
export function runActions(run: Run): Block[] {
  const choices = choicesOf(run);
  const action = (id: string, label: string, primary?: boolean): Action => ({ id, runId: run.id, label, ...(primary ? { style: 'primary' as const } : {}) });
  const settle = choices.filter((c) => c.id.startsWith('settle:'));
  const more = choices.filter((c) => c.id.startsWith('approve:') || c.id === SAVE_PROGRAM_CHOICE || c.id === NEW_PROGRAM_CHOICE);
  const rows: Action[][] = [
    settle.map((c) => ({ ...action(c.id, c.label, c.primary), ...(c.id === 'settle:neither' ? { style: 'danger' as const } : {}) })),
    [action('rerun', run.status === 'generated' ? 'Run' : 'Re-run', settle.length === 0), action('improve', 'Improve')],
    more.map((c) => action(c.id, c.label)),
  ];
  return rows.filter((r) => r.length > 0).map((actions) => ({ kind: 'actions', actions }));
}

/** How to go on from the run (a team program that failed is adapted, everything else improved). */
function nextStep(run: Run): string {
  return programMark(run)?.ok === false
    ? 'Reply in this thread to adapt it (attached files go to the sandbox).'
    : 'Reply in this thread to improve it with your feedback (attached files go to the sandbox).';
}

/** The thread's last message of a turn (`workspace`: the line naming the run's workspace, plain). */
export function finalView(run: Run, workspace?: string): View {
  const candidates = candidatesNotice(run);
  return {
    blocks: [
      { kind: 'heading', text: statusLineOf(run) },
      { kind: 'text', text: [nextStep(run)] },
      ...(workspace ? [{ kind: 'text' as const, text: [boundLine(workspace, WORKSPACE_MAX)] }] : []),
      ...(candidates ? noticeBlocks(candidates) : []),
      ...runActions(run),
    ],
  };
}
