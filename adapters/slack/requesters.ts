/**
 * How the pipeline answers a Slack requester (src/chat/incoming-port.ts: Requester), by where the
 * request came from: a slash command is answered in its ack when the answer is ready within
 * {@link ANSWER_WITHIN_MS} (Slack wants the ack within 3 s:
 * https://docs.slack.dev/interactivity/implementing-slash-commands#responding_to_commands), else
 * acked empty and answered through its `response_url`; an event or a click is answered with an
 * ephemeral message (only the requester sees it).
 */
import type { AckFn, RespondArguments, RespondFn } from '@slack/bolt';
import type { Requester } from '../../src/chat/incoming-port.js';
import type { SlackPoster } from './poster.js';
import { section } from './mrkdwn.js';

/** Longest a command waits for its answer before acking empty and answering via response_url, in ms. */
export const ANSWER_WITHIN_MS = 2000;

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
  return { answer: (text) => poster.ephemeral(channel, user, text, threadTs, true) };
}
