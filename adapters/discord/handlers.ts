/**
 * Routes gateway events: slash commands, buttons and modal submits, and messages in a thread, each
 * turned into a request for the pipeline (incoming.ts → src/chat/ingress.ts) with its
 * requester (requesters.ts); the Improve button's modal and `/usage` (admins) are answered here. Nothing
 * thrown here reaches discord.js.
 */
import {
  ActionRowBuilder,
  MessageFlags,
  ModalBuilder,
  SnowflakeUtil,
  TextInputBuilder,
  TextInputStyle,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
  type Message,
} from 'discord.js';
import { actionMeaning } from '../../src/chat/run-actions.js';
import { usageRefusal, usageReply } from '../../src/chat/usage-view.js';
import { budgetLimits } from '../../src/app/app.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import type { IngressContext } from './context.js';
import { discordRequest, fromDiscordText, requestAccess, roleIdsOf, type DiscordDelivery } from './incoming.js';
import { customId, FEEDBACK_ACTION, FEEDBACK_INPUT_ID, interactionEventId, messageEventId, parseCustomId } from './ids.js';
import { IMPROVE_FORM } from '../../src/chat/messages.js';
import { CHAT_COMMANDS, commandLine } from '../../src/chat/command-catalog.js';
import { replyEphemeral, toOptions } from './surface.js';
import { interactionRequester, messageRequester } from './requesters.js';
import { errorLine } from '../../src/text/error-line.js';
import { discordAnswers } from './answers.js';

/**
 * Longest feedback typed in the Improve modal (Discord allows up to 4000 in a text input).
 * Source: https://discord.com/developers/docs/interactions/message-components#text-input-object
 */
export const MAX_FEEDBACK_CHARS = 4000;

/** Handles one interaction; never throws. */
export async function onInteraction(ctx: IngressContext, interaction: Interaction): Promise<void> {
  try {
    if (!interaction.isChatInputCommand() && !interaction.isButton() && !interaction.isModalSubmit()) return;
    const delivery: DiscordDelivery = {
      guildId: interaction.guildId,
      channelId: interaction.channelId ?? '',
      channel: interaction.channel,
      user: interaction.user,
      member: interaction.member,
      deliveryId: interactionEventId(interaction.id),
      token: { applicationId: interaction.applicationId, token: interaction.token },
    };
    const text = (value: unknown) => (typeof value === 'string' ? fromDiscordText(value, interaction.channel) : value);
    if (interaction.isChatInputCommand()) {
      const command = CHAT_COMMANDS.find((c) => c.name === interaction.commandName);
      if (!command) return await replyEphemeral(ctx.logger, interaction, discordAnswers.text(`Unknown command /${interaction.commandName}.`));
      const line = commandLine(command, (o) => text(interaction.options.get(o.name)?.value) as string | number | boolean | undefined);
      if (command.name === 'usage') return await usage(ctx, interaction, roleIdsOf(interaction.member), line);
      const files = command.options.flatMap((o) => (o.kind === 'file' ? [interaction.options.getAttachment(o.name)] : []));
      const request = discordRequest(command.name, delivery, line, { files: files.flatMap((f) => (f ? [{ name: f.name, url: f.url, bytes: f.size }] : [])) });
      return void (await ctx.ingress.receive(request, interactionRequester(interaction, ctx.logger)));
    }
    const parsed = parseCustomId(interaction.customId);
    if (!parsed || interaction.isModalSubmit() !== (parsed.id === FEEDBACK_ACTION)) return;
    const requester = interactionRequester(interaction, ctx.logger);
    if (interaction.isModalSubmit()) {
      const feedback = (text(interaction.fields.getTextInputValue(FEEDBACK_INPUT_ID)) as string).trim();
      return void (await ctx.ingress.receive(discordRequest('improve', delivery, feedback, { runId: parsed.runId }), requester));
    }
    const meaning = actionMeaning(parsed.id);
    if ('answer' in meaning) return await replyEphemeral(ctx.logger, interaction, discordAnswers.text(meaning.answer));
    if ('request' in meaning) return void (await ctx.ingress.receive(discordRequest(meaning.request, delivery, meaning.text, { runId: parsed.runId }), requester));
    const request = discordRequest('improve', delivery, '', { runId: parsed.runId });
    // the modal is the interaction's one answer: access and dedupe first, as for any request
    const refusal = requestAccess(ctx.settings.access, request);
    if (refusal) return await replyEphemeral(ctx.logger, interaction, discordAnswers.text(refusal));
    if (!(await ctx.deliveries.seen(delivery.deliveryId)) && interaction.isButton()) await showImproveModal(ctx.logger, interaction, parsed.runId);
  } catch (err) {
    ctx.logger.error(`interaction ${interaction.id} failed: ${(err as Error)?.stack ?? String(err)}`);
  }
}

/** Handles a message: only people's messages in a thread matter (the pipeline keeps those of a run's thread). Never throws. */
export async function onMessage(ctx: IngressContext, message: Message): Promise<void> {
  try {
    if (message.author.bot || message.system || !message.inGuild() || !message.channel.isThread()) return;
    const thread = message.channel;
    const delivery: DiscordDelivery = { guildId: message.guildId, channelId: thread.id, channel: thread, user: { id: message.author.id }, member: message.member, deliveryId: messageEventId(message.id) };
    const request = discordRequest('reply', delivery, fromDiscordText(message.content, thread).trim(), {
      files: [...message.attachments.values()].map((a) => ({ name: a.name, url: a.url, bytes: a.size })),
      // a thread the bot started a moment ago waits for its link: the run's job links it just after Discord shows it
      threadStart: { byApp: thread.ownerId === ctx.client.user?.id, at: SnowflakeUtil.timestampFrom(thread.id) },
    });
    await ctx.ingress.receive(request, messageRequester(message, ctx.logger));
  } catch (err) {
    ctx.logger.error(`message ${message.id} failed: ${(err as Error)?.stack ?? String(err)}`);
  }
}

/** The Improve button: asks for the feedback in a modal (the interaction's one initial response); its submission is an `improve` request. */
async function showImproveModal(logger: ChatLog, interaction: ButtonInteraction, runId: string): Promise<void> {
  const input = new TextInputBuilder().setCustomId(FEEDBACK_INPUT_ID).setLabel(IMPROVE_FORM.question).setStyle(TextInputStyle.Paragraph).setRequired(true).setMaxLength(MAX_FEEDBACK_CHARS);
  const modal = new ModalBuilder().setCustomId(customId(FEEDBACK_ACTION, runId)).setTitle(IMPROVE_FORM.title).addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input));
  await interaction.showModal(modal).catch((err: unknown) => logger.warn(`showing the Improve modal failed: ${errorLine(err)}`));
}

/**
 * Answers `/usage [by] [since]` for an admin (`discord.admin_users`, `discord.admin_roles`), privately;
 * anyone else is told who may. Deduplicated like every interaction.
 */
async function usage(ctx: IngressContext, interaction: ChatInputCommandInteraction, roleIds: string[], text: string): Promise<void> {
  if (await ctx.deliveries.seen(interactionEventId(interaction.id))) return;
  const refused = usageRefusal(ctx.settings.admins, { userId: interaction.user.id, roleIds });
  if (refused) return replyEphemeral(ctx.logger, interaction, discordAnswers.text(refused));
  try {
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  } catch (err) {
    return ctx.logger.warn(`deferring interaction ${interaction.id} failed: ${errorLine(err)}`);
  }
  const reply = await usageReply(ctx.app.usage, budgetLimits(ctx.app.config), text);
  await interaction.editReply(toOptions(discordAnswers.memory(reply))).catch((err: unknown) => ctx.logger.warn(`answer failed: ${errorLine(err)}`));
}
