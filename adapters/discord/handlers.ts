/**
 * Routes gateway events to handlers after the gate (deduplication, then access): slash commands,
 * buttons, modal submits, and messages in a run's thread. Nothing thrown here reaches discord.js.
 */
import type { Interaction, Message } from 'discord.js';
import type { BotContext } from './context.js';
import { handleRunAction, handleThreadReply, showImproveModal } from './follow-up.js';
import { firstDelivery, placeOf, refusalFor, roleIdsOf } from './gate.js';
import { fromDiscordText } from './incoming-text.js';
import { FEEDBACK_INPUT_ID, conversationId, interactionEventId, messageEventId, parseCustomId } from './ids.js';
import { handleHistory, handleShow } from './queries.js';
import { handleRunCommand, replyEphemeral } from './run-command.js';
import { enqueueRunAction, enqueueRunCommand, enqueueThreadReply } from './enqueue.js';
import { NO_MENTIONS, describe } from './surface.js';

/** Handles one interaction; never throws. */
export async function onInteraction(ctx: BotContext, interaction: Interaction): Promise<void> {
  try {
    if (!interaction.isChatInputCommand() && !interaction.isButton() && !interaction.isModalSubmit()) return;
    // Nothing but in-memory checks before the initial response: a repeat delivery in this process is
    // dropped here; the store's record (which survives restarts) is written once /run has deferred.
    const eventId = interactionEventId(interaction.id);
    if (!ctx.recent.first(eventId)) return;
    const isRun = interaction.isChatInputCommand() && (interaction.commandName === 'run' || interaction.commandName === 'generate');
    // queue mode: the store's record first (a few ms on Redis), so that no other ingress enqueues it too
    if ((!isRun || ctx.queue) && !(await firstDelivery(ctx, eventId))) return;
    const place = placeOf(interaction.guildId, interaction.channelId ?? '', interaction.channel);
    const refusal = refusalFor(ctx, interaction.user.id, place, roleIdsOf(interaction.member));
    if (refusal) return await replyEphemeral(ctx, interaction, refusal);
    const conversation = conversationId(place.guildId, place.channelId, place.parentId);

    if (interaction.isChatInputCommand()) {
      switch (interaction.commandName) {
        case 'run':
        case 'generate':
          if (ctx.queue) return await enqueueRunCommand(ctx, interaction, interaction.commandName, place);
          return await handleRunCommand(ctx, interaction, interaction.commandName, place, () => firstDelivery(ctx, eventId));
        case 'history':
          return await handleHistory(ctx, interaction, conversation);
        case 'show':
          return await handleShow(ctx, interaction, conversation);
        default:
          return await replyEphemeral(ctx, interaction, `Unknown command /${interaction.commandName}.`);
      }
    }
    const parsed = parseCustomId(interaction.customId);
    if (!parsed) return;
    if (interaction.isButton()) {
      if (parsed.action === 'improve') return await showImproveModal(ctx, interaction, parsed.runId);
      if (parsed.action === 'rerun' && ctx.queue) return await enqueueRunAction(ctx, interaction, conversation, parsed.runId, undefined);
      if (parsed.action === 'rerun') return await handleRunAction(ctx, interaction, conversation, parsed.runId, undefined);
      return;
    }
    if (parsed.action === 'feedback') {
      const feedback = fromDiscordText(interaction.fields.getTextInputValue(FEEDBACK_INPUT_ID), interaction.channel).trim();
      if (!feedback) return await replyEphemeral(ctx, interaction, 'The feedback was empty: say what should change.');
      if (ctx.queue) return await enqueueRunAction(ctx, interaction, conversation, parsed.runId, feedback);
      return await handleRunAction(ctx, interaction, conversation, parsed.runId, feedback);
    }
  } catch (err) {
    ctx.logger.error(`interaction ${interaction.id} failed: ${(err as Error)?.stack ?? String(err)}`);
  }
}

/** Handles a message: only human messages in a thread linked to a run matter. Never throws. */
export async function onMessage(ctx: BotContext, message: Message): Promise<void> {
  try {
    if (message.author.bot || message.system || !message.inGuild() || !message.channel.isThread()) return;
    const thread = message.channel;
    const conversation = conversationId(message.guildId, thread.id, thread.parentId);
    const run = await ctx.app.store.findRunByThread(conversation, thread.id);
    if (!run) return;
    if (!(await firstDelivery(ctx, messageEventId(message.id)))) return;
    const place = placeOf(message.guildId, thread.id, thread);
    const refusal = refusalFor(ctx, message.author.id, place, roleIdsOf(message.member));
    if (refusal) {
      await message
        .reply({ content: refusal, allowedMentions: NO_MENTIONS })
        .catch((err: unknown) => ctx.logger.warn(`refusal reply failed: ${describe(err)}`));
      return;
    }
    if (ctx.queue) await enqueueThreadReply(ctx, message, conversation, run);
    else await handleThreadReply(ctx, message, conversation, run);
  } catch (err) {
    ctx.logger.error(`message ${message.id} failed: ${(err as Error)?.stack ?? String(err)}`);
  }
}
