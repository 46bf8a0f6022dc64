/**
 * How the pipeline answers a Slack requester (src/chat/incoming-port.ts: Requester, AnswerMarkup).
 * An answer is the mrkdwn of one ephemeral section: the views of src/chat/view/answer-markup.ts
 * rendered by Slack's renderer, holding no file and at most {@link ANSWER_MAX_CHARS} characters (a
 * `/history` row links its run's thread). Where it goes depends on where the request came from: a
 * slash command is answered in its ack when the answer is ready within {@link ANSWER_WITHIN_MS}
 * (Slack wants the ack within 3 s:
 * https://docs.slack.dev/interactivity/implementing-slash-commands#responding_to_commands), else
 * acked empty and answered through its `response_url`; an event or a click is answered with an
 * ephemeral message (only the requester sees it).
 */
import type { AckFn, RespondArguments, RespondFn } from '@slack/bolt';
import type { AnswerMarkup, Requester } from '../../src/chat/incoming-port.js';
import { answerMarkup } from '../../src/chat/view/answer-markup.js';
import { chatOf } from '../../src/chat/run-chat.js';
import type { Run } from '../../src/history/types.js';
import type { SlackPoster } from './poster.js';
import { section, sectionsOf, slackRenderer } from './renderer.js';

/** Most characters of an answer (one section holds 3000). */
export const ANSWER_MAX_CHARS = 2900;

/** Longest a command waits for its answer before acking empty and answering via response_url, in ms. */
export const ANSWER_WITHIN_MS = 2000;

/** Link to a run's thread, e.g. `https://slack.com/archives/C123/p1700000000000100` (Slack resolves the workspace). */
export function threadLink(run: Run): string | undefined {
  const place = chatOf(run)?.thread;
  return place?.thread ? `https://slack.com/archives/${encodeURIComponent(place.channel)}/p${place.thread.replace('.', '')}` : undefined;
}

/** Slack's answer markup: a message's sections, one under the other. */
export const slackAnswers: AnswerMarkup<string> = answerMarkup(slackRenderer, {
  fits: (messages) => messages.length === 1 && !messages[0]!.uploads?.length && sectionsOf(messages[0]!).join('\n').length <= ANSWER_MAX_CHARS,
  answer: (msg) => sectionsOf(msg).join('\n'),
  threadLink,
});

/** An ephemeral response; `text` is mrkdwn (already safe). */
export function ephemeral(text: string): RespondArguments {
  return { response_type: 'ephemeral', text, blocks: [section(text)] };
}

/**
 * Takes a slash command's request: acks it exactly once, with the answer when it comes in time.
 * @param take hands the request and the requester to the pipeline
 */
export async function answerCommand(ack: AckFn<string | RespondArguments>, respond: RespondFn, take: (requester: Requester<string>) => Promise<unknown>): Promise<void> {
  let acked = false;
  const ackOnce = async (msg?: RespondArguments): Promise<boolean> => {
    if (acked) return false;
    acked = true;
    await ack(msg);
    return true;
  };
  const requester: Requester<string> = {
    async answer(text) {
      if (await ackOnce(ephemeral(text))) return;
      await respond(ephemeral(text)).catch(() => undefined);
    },
  };
  const timer = setTimeout(() => void ackOnce().catch(() => undefined), ANSWER_WITHIN_MS);
  try {
    await take(requester);
  } finally {
    clearTimeout(timer);
    await ackOnce();
  }
}

/** Answers with an ephemeral message in `channel` (in `threadTs` when given). */
export function ephemeralRequester(poster: SlackPoster, channel: string, user: string, threadTs?: string): Requester<string> {
  return { answer: (text) => poster.ephemeral(channel, user, text, threadTs) };
}
