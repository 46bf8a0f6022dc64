/**
 * How the pipeline answers a Discord requester (src/chat/incoming-port.ts: Requester). An
 * interaction gets one initial response within 3 s
 * (https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction):
 * a refusal is an ephemeral reply; an admitted job defers it before the job can start (its job then
 * edits the response); a slow answer (`/history`, `/show`) defers it too, then edits it. A message
 * in a thread is answered with a reply to it.
 */
import type { ButtonInteraction, ChatInputCommandInteraction, Message, ModalSubmitInteraction } from 'discord.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { Requester } from '../../src/chat/incoming-port.js';
import { ALREADY_HANDLED } from '../../src/chat/messages.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import { discordAnswers, type DiscordAnswer } from './answers.js';
import { NO_MENTIONS, replyEphemeral, toOptions } from './surface.js';
import { errorLine } from '../../src/text/error-line.js';

/** An interaction that can be answered. */
export type Answerable = ChatInputCommandInteraction | ButtonInteraction | ModalSubmitInteraction;

/**
 * How long a repeat recognised only by the store waits before saying "already handled", in ms: the
 * process that took the first delivery defers it meanwhile, and Discord refuses a second initial
 * response, so the first delivery's answer always wins.
 */
export const REPEAT_ANSWER_DELAY_MS = 1000;

/** Answers an interaction: ephemerally before it is deferred, by editing the deferred response after. */
export function interactionRequester(interaction: Answerable, logger: ChatLog): Requester<DiscordAnswer> {
  let deferred = false;
  const defer = async () => {
    await interaction.deferReply();
    deferred = true;
  };
  return {
    async answer(msg) {
      if (!deferred) return replyEphemeral(logger, interaction, msg);
      await interaction.editReply(toOptions(msg)).catch((err: unknown) => logger.warn(`answer failed: ${errorLine(err)}`));
    },
    accepted: defer,
    async working() {
      await defer().catch((err: unknown) => logger.warn(`deferring interaction ${interaction.id} failed: ${errorLine(err)}`));
    },
    async repeated(seenIn) {
      if (seenIn === 'memory') return;
      // a replay after a restart, or a delivery to another gateway process: whichever answered first keeps it
      await delay(REPEAT_ANSWER_DELAY_MS);
      await replyEphemeral(logger, interaction, discordAnswers.text(ALREADY_HANDLED));
    },
  };
}

/** Answers a message with a reply to it. */
export function messageRequester(message: Message, logger: ChatLog): Requester<DiscordAnswer> {
  return {
    async answer(msg) {
      await message.reply({ content: msg.content, allowedMentions: NO_MENTIONS }).catch((err: unknown) => logger.warn(`answering a message failed: ${errorLine(err)}`));
    },
  };
}
