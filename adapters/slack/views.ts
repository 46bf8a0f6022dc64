/**
 * The channel message of a run ("root"), composed once (src/chat/view/root-view.ts) and rendered as
 * mrkdwn sections with a short notification text. The thread's messages are views too
 * (src/chat/view/thread.ts), rendered by renderer.ts.
 */
import { plainText } from '../../src/chat/view/blocks.js';
import { rootHeadline, rootView, type RootSpec } from '../../src/chat/view/root-view.js';
import { inlineText } from './mrkdwn.js';
import { slackRenderer } from './renderer.js';

/** Characters of the root message's notification text. */
const NOTIFICATION_CHARS = 200;

/** A run's channel message: its mrkdwn sections, and its notification text (`<who> asked: <request>`, escaped). */
export function rootMessage(spec: RootSpec): { sections: string[]; plain: string } {
  const [first] = slackRenderer.render(rootView(spec));
  const sections = ([] as string[]).concat(first!.text);
  return { sections, plain: inlineText(plainText(rootHeadline(spec)), NOTIFICATION_CHARS) };
}
