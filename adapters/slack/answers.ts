/**
 * Slack's answers to a requester (src/chat/incoming-port.ts: AnswerMarkup): the views of
 * src/chat/view/answer-markup.ts rendered by Slack's renderer (renderer.ts), as the mrkdwn of one
 * ephemeral section (requesters.ts): an answer holds no file and at most {@link ANSWER_MAX_CHARS}
 * characters, and a `/history` row links its run's thread.
 */
import type { AnswerMarkup } from '../../src/chat/incoming-port.js';
import { answerMarkup } from '../../src/chat/view/answer-markup.js';
import { chatOf } from '../../src/chat/run-chat.js';
import type { Run } from '../../src/history/types.js';
import { slackRenderer, type SlackOut } from './renderer.js';

/** Most characters of an answer (one section holds 3000). */
export const ANSWER_MAX_CHARS = 2900;

/** An answer's mrkdwn: the message's sections, one under the other. */
const mrkdwn = (msg: SlackOut) => (Array.isArray(msg.text) ? msg.text.join('\n') : msg.text);

/** Link to a run's thread, e.g. `https://slack.com/archives/C123/p1700000000000100` (Slack resolves the workspace). */
export function threadLink(run: Run): string | undefined {
  const place = chatOf(run)?.thread;
  return place?.thread ? `https://slack.com/archives/${encodeURIComponent(place.channel)}/p${place.thread.replace('.', '')}` : undefined;
}

/** Slack's answer markup. */
export const slackAnswers: AnswerMarkup<string> = answerMarkup(slackRenderer, {
  fits: (messages) => messages.length === 1 && !messages[0]!.uploads?.length && mrkdwn(messages[0]!).length <= ANSWER_MAX_CHARS,
  answer: mrkdwn,
  threadLink,
});
