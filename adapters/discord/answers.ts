/**
 * Discord's answers to a requester (src/chat/incoming-port.ts: AnswerMarkup): plain text kept out
 * of code blocks and within 2000 characters, `/history` and `/show` as render.ts shows them,
 * `/remember` and `/memory` as a notice (the entries in a code block).
 */
import type { AnswerMarkup } from '../../src/chat/incoming-port.js';
import { neutraliseFences } from '../../src/chat/format.js';
import { workspaceListing } from '../../src/chat/workspace-view.js';
import { cutChars } from '../../src/text/cut.js';
import { historyMessage, MESSAGE_CHARS, noticeMessage, showMessage, type Outgoing } from './render.js';

/** An answer: one Discord message. */
export type DiscordAnswer = Outgoing;

/** Discord's answer markup. */
export const discordAnswers: AnswerMarkup<DiscordAnswer> = {
  text: (plain) => ({ content: cutChars(neutraliseFences(plain), MESSAGE_CHARS) }),
  history: (view) => historyMessage(view.runs),
  show: (view, names) => showMessage(view.run, workspaceListing(view.workspace, `${names.show} run:${view.run.id} remove:<name> removes one; ${names.show} run:${view.run.id} delete_run:True deletes the run`)),
  // the entries are the team's text: in a code block, as every notice's lines
  memory: (reply) => noticeMessage(reply),
};
