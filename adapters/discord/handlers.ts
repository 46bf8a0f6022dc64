/**
 * Routes gateway events: slash commands, buttons, modal submits, and messages in a run's thread.
 * Jobs go through admission (adapters/discord/enqueue.ts → src/chat/admission.ts); `/history`,
 * `/show` and the Improve modal are answered here, after the same access and dedupe. Nothing
 * thrown here reaches discord.js.
 */
import { SnowflakeUtil, type Interaction, type Message } from 'discord.js';
import { linkedRunId } from '../../src/chat/thread-link.js';
import type { IngressContext } from './context.js';
import { showImproveModal } from './improve-modal.js';
import { placeOf, refusalFor, roleIdsOf } from './gate.js';
import { fromDiscordText } from './incoming-text.js';
import { FEEDBACK_INPUT_ID, conversationId, interactionEventId, parseCustomId } from './ids.js';
import { handleHistory, handleShow, handleUsage } from './queries.js';
import { replyEphemeral } from './surface.js';
import { admitRunAction, admitRunCommand, admitThreadReply } from './enqueue.js';
import type { ReplyPayload } from './queued.js';

/** Handles one interaction; never throws. */
export async function onInteraction(ctx: IngressContext, interaction: Interaction): Promise<void> {
  try {
    if (!interaction.isChatInputCommand() && !interaction.isButton() && !interaction.isModalSubmit()) return;
    const place = placeOf(interaction.guildId, interaction.channelId ?? '', interaction.channel);
    const refusal = refusalFor(ctx, interaction.user.id, place, roleIdsOf(interaction.member));
    const conversation = conversationId(place.guildId, place.channelId, place.parentId);
    if (interaction.isChatInputCommand() && (interaction.commandName === 'run' || interaction.commandName === 'generate')) {
      return await admitRunCommand(ctx, interaction, interaction.commandName, place, refusal);
    }
    const parsed = interaction.isChatInputCommand() ? undefined : parseCustomId(interaction.customId);
    if (interaction.isModalSubmit() && parsed?.action === 'feedback') {
      const feedback = fromDiscordText(interaction.fields.getTextInputValue(FEEDBACK_INPUT_ID), interaction.channel).trim();
      if (!refusal && !feedback) return await replyEphemeral(ctx.logger, interaction, 'The feedback was empty: say what should change.');
      return await admitRunAction(ctx, interaction, conversation, parsed.runId, feedback, refusal);
    }
    if (interaction.isButton() && parsed?.action === 'rerun') return await admitRunAction(ctx, interaction, conversation, parsed.runId, undefined, refusal);
    // /usage: an access list of its own (admins), then dedupe
    if (interaction.isChatInputCommand() && interaction.commandName === 'usage') {
      if (await ctx.admitter.deliveries.seen(interactionEventId(interaction.id))) return;
      return await handleUsage(ctx, interaction, roleIdsOf(interaction.member));
    }
    // no job: access, then dedupe, then the answer
    if (refusal) return await replyEphemeral(ctx.logger, interaction, refusal);
    if (await ctx.admitter.deliveries.seen(interactionEventId(interaction.id))) return;
    if (interaction.isButton() && parsed?.action === 'improve') return await showImproveModal(ctx, interaction, parsed.runId);
    if (!interaction.isChatInputCommand()) return;
    if (interaction.commandName === 'history') return await handleHistory(ctx, interaction, conversation);
    if (interaction.commandName === 'show') return await handleShow(ctx, interaction, conversation);
    return await replyEphemeral(ctx.logger, interaction, `Unknown command /${interaction.commandName}.`);
  } catch (err) {
    ctx.logger.error(`interaction ${interaction.id} failed: ${(err as Error)?.stack ?? String(err)}`);
  }
}

/** Handles a message: only human messages in a thread linked to a run matter. Never throws. */
export async function onMessage(ctx: IngressContext, message: Message): Promise<void> {
  try {
    if (message.author.bot || message.system || !message.inGuild() || !message.channel.isThread()) return;
    const thread = message.channel;
    const conversation = conversationId(message.guildId, thread.id, thread.parentId);
    // a thread the bot started a moment ago waits for its link: the run's job links it just after
    // Discord shows it
    const origin = { madeByApp: thread.ownerId === ctx.client.user?.id, madeAt: SnowflakeUtil.timestampFrom(thread.id) };
    const runId = await linkedRunId(ctx.app.store, conversation, thread.id, origin);
    if (!runId) return;
    const place = placeOf(message.guildId, thread.id, thread);
    const payload: ReplyPayload = {
      channelId: message.channelId,
      conversation,
      runId,
      userId: message.author.id,
      text: fromDiscordText(message.content, message.channel).trim(),
      attachments: [...message.attachments.values()].map((a) => ({ name: a.name, url: a.url, size: a.size })),
    };
    await admitThreadReply(ctx, message, payload, refusalFor(ctx, message.author.id, place, roleIdsOf(message.member)));
  } catch (err) {
    ctx.logger.error(`message ${message.id} failed: ${(err as Error)?.stack ?? String(err)}`);
  }
}
