/**
 * The channel message of a run ("root": who asked, the requirement, the status) as mrkdwn, every
 * untrusted part escaped (see mrkdwn.ts). The thread's messages are views (src/chat/view/thread.ts)
 * rendered by renderer.ts.
 */
import type { Run } from '../../src/history/types.js';
import { inlineText } from './mrkdwn.js';
import { chatOf } from '../../src/chat/run-chat.js';
import { outcomeLine, runOutcome } from '../../src/chat/run-outcome.js';

/** Who asked, as shown (never a mention: names are escaped text, ids are not wrapped in `<@…>`). */
export function whoAsked(run: Pick<Run, 'requestedBy' | 'chat' | 'meta'>): string {
  return inlineText(chatOf(run)?.userName ?? run.requestedBy ?? 'someone', 80);
}

/** The channel message of a run: who asked, the requirement, and the status (`kind`: default what started the run). */
export function rootText(run: Pick<Run, 'requirement' | 'requestedBy' | 'chat' | 'meta'>, status: string, kind = chatOf(run)?.kind ?? 'run'): string {
  const verb = kind === 'generate' ? 'asked for code' : 'asked';
  return `*${whoAsked(run)}* ${verb}: ${inlineText(run.requirement, 1500)}\n*Status:* ${status}\n_Results are in the thread; reply there to improve._`;
}

/** The final status of a run for its channel message (src/chat/run-outcome.ts; the run's id is shown beside it). */
export function finalStatus(run: Run): string {
  return outcomeLine(runOutcome(run), inlineText);
}
