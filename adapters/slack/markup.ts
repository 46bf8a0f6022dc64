/**
 * Slack's markup profile (src/chat/port.ts: ThreadMarkup): each neutral view of a run's thread as
 * mrkdwn sections under Slack's limits (views.ts), with the files that go with it (uploaded after
 * the message) and the run's buttons.
 */
import type { ThreadMarkup } from '../../src/chat/port.js';
import { progressText } from '../../src/chat/progress-text.js';
import { candidatesNotice } from '../../src/chat/settle-view.js';
import { inlineText, type SlackButton } from './mrkdwn.js';
import type { Upload } from './poster.js';
import { codeView, finalText, improvingText, memoryOfferView, noticeText, resultView, runButtons, streamingCodeView } from './views.js';

/** One Slack message of a thread: mrkdwn sections, its notification text, buttons, and files uploaded after it. */
export interface SlackOut {
  text: string | string[];
  /** The notification text (already escaped); default the sections joined. */
  plain?: string;
  buttons?: SlackButton[];
  uploads?: Upload[];
}

/** Slack's markup profile. */
export const slackMarkup: ThreadMarkup<SlackOut> = {
  progress: (line) => ({ text: inlineText(progressText(line), 300) }),
  partialCode: (attempt, lastAttempt, code) => ({ text: streamingCodeView(code, `*Code* (attempt ${attempt}/${lastAttempt}):`) }),
  code(shown) {
    const label = `*Code* (attempt ${shown.attempt}/${shown.lastAttempt}):`;
    if (!shown.code) return { edit: { text: `${label} the reply had no usable code: ${inlineText(shown.error ?? 'no code', 500)}` } };
    const view = codeView(shown.code, label);
    const uploads = view.truncated ? [{ filename: `attempt-${shown.attempt}.py`, content: shown.code, snippetType: 'python' }] : [];
    return { edit: { text: view.text, uploads } };
  },
  result(view) {
    const shown = resultView(view.result, `*Result* (attempt ${view.attempt}/${view.lastAttempt}):`);
    const uploads: Upload[] = [
      ...(shown.stdoutCut ? [{ filename: 'stdout.txt', content: view.result.stdout, snippetType: 'text' }] : []),
      ...(shown.stderrCut ? [{ filename: 'stderr.txt', content: view.result.stderr, snippetType: 'text' }] : []),
      ...view.result.artifacts.map((a) => ({ filename: a.name, path: a.path })),
    ];
    return [{ text: shown.sections, plain: shown.plain, uploads }];
  },
  notice: (notice) => ({ text: noticeText(notice) }),
  improving: (view) => ({ text: improvingText(view.attempt, view.lastAttempt, view.reason) }),
  final(run, workspace) {
    const candidates = candidatesNotice(run);
    return { text: [finalText(run), ...(candidates ? [noticeText(candidates)] : []), ...(workspace ? [inlineText(workspace, 600)] : [])], buttons: runButtons(run) };
  },
  failure: (reason) => ({ text: `❌ *Failed*: ${inlineText(reason, 500)}` }),
  note: (text) => ({ text: `⚠️ ${inlineText(text, 600)}` }),
  withdrawn: (notice, correction) => ({ text: `ℹ️ ~${inlineText(notice, 300)}~ ${inlineText(correction, 600)}` }),
  memoryOffer: (offer) => memoryOfferView(offer),
};
