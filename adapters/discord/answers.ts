/**
 * Discord's answers to a requester (src/chat/incoming-port.ts: AnswerMarkup): the views of
 * src/chat/view/answer-markup.ts rendered by Discord's renderer (renderer.ts) as one message,
 * `/show` spelled with its command's options, a `/history` row linking its run's thread.
 */
import type { AnswerMarkup } from '../../src/chat/incoming-port.js';
import { answerMarkup } from '../../src/chat/view/answer-markup.js';
import type { ShowSpelling } from '../../src/chat/view/show-spelling.js';
import { chatOf } from '../../src/chat/run-chat.js';
import type { Run } from '../../src/history/types.js';
import { discordRenderer, type Outgoing } from './renderer.js';

/** An answer: one Discord message. */
export type DiscordAnswer = Outgoing;

/** `/show`'s options as the answers name them (src/chat/command-catalog.ts: `run`, `remove`, `delete_run`). */
export function discordSpelling(names: { show: string }): ShowSpelling {
  return {
    one: (id) => `${names.show} run:${id}`,
    removeFile: (id) => `${names.show} run:${id} remove:<name>`,
    deleteRun: (id) => `${names.show} run:${id} delete_run:True`,
  };
}

/** Link to a run's thread (`https://discord.com/channels/<guild>/<thread>`); none for a run answered in place. */
export function threadLink(run: Run): string | undefined {
  const place = chatOf(run);
  if (!place || place.inPlace) return undefined;
  const guild = /^discord:([^:]+):/.exec(run.conversationId)?.[1];
  return guild ? `https://discord.com/channels/${guild === 'dm' ? '@me' : guild}/${place.thread.channel}` : undefined;
}

/** Discord's answer markup. */
export const discordAnswers: AnswerMarkup<DiscordAnswer> = answerMarkup(discordRenderer, { spelling: discordSpelling, threadLink });
