/**
 * Routes gateway events: slash commands, buttons and modal submits, and messages in a thread, each
 * turned into a request for the pipeline (incoming.ts → src/chat/ingress.ts); the Improve button's
 * modal and `/usage` (admins) are answered here. Nothing thrown here reaches discord.js.
 */
import { MessageFlags, SnowflakeUtil, type ChatInputCommandInteraction, type Interaction, type Message } from 'discord.js';
import type { RequestKind } from '../../src/chat/incoming-port.js';
import { notAdminText, usageReply, usageUnreadable } from '../../src/chat/usage-view.js';
import { budgetLimits } from '../../src/app/app.js';
import type { IngressContext } from './context.js';
import { showImproveModal } from './improve-modal.js';
import { discordRequest, placeOf, roleIdsOf, type DiscordDelivery } from './incoming.js';
import { fromDiscordText } from './incoming-text.js';
import { FEEDBACK_INPUT_ID, interactionEventId, messageEventId, parseCustomId } from './ids.js';
import { NOT_REMEMBERED } from '../../src/chat/messages.js';
import { CHAT_COMMANDS, commandLine, type ChatCommand } from '../../src/chat/command-catalog.js';
import { interactionRequester, messageRequester } from './requesters.js';
import { replyEphemeral, toOptions } from './surface.js';
import { errorLine } from '../../src/text/error-line.js';
import { discordAnswers } from './answers.js';
import { checkAccess } from './incoming.js';

/** Handles one interaction; never throws. */
export async function onInteraction(ctx: IngressContext, interaction: Interaction): Promise<void> {
  try {
    if (!interaction.isChatInputCommand() && !interaction.isButton() && !interaction.isModalSubmit()) return;
    const place = placeOf(interaction.guildId, interaction.channelId ?? '', interaction.channel);
    const roleIds = roleIdsOf(interaction.member);
    const base: DiscordDelivery = {
      place,
      userId: interaction.user.id,
      ...(interaction.user.username ? { userName: interaction.user.username } : {}),
      roleIds,
      text: '',
      deliveryId: interactionEventId(interaction.id),
      token: { applicationId: interaction.applicationId, token: interaction.token },
    };
    const take = (kind: RequestKind, more: Partial<DiscordDelivery>) =>
      ctx.ingress.receive(discordRequest(kind, { ...base, ...more }), interactionRequester(interaction, ctx.logger));
    if (interaction.isChatInputCommand()) {
      const name = interaction.commandName;
      const command = CHAT_COMMANDS.find((c) => c.name === name);
      if (!command) return await replyEphemeral(ctx.logger, interaction, discordAnswers.text(`Unknown command /${name}.`));
      const fields = commandFields(interaction, command);
      if (command.name === 'usage') return await handleUsage(ctx, interaction, roleIds, fields.text ?? '');
      await take(command.name, fields);
      return;
    }
    const parsed = parseCustomId(interaction.customId);
    if (!parsed) return;
    if (interaction.isModalSubmit() && parsed.action === 'feedback') {
      await take('improve', { runId: parsed.runId, text: fromDiscordText(interaction.fields.getTextInputValue(FEEDBACK_INPUT_ID), interaction.channel).trim() });
      return;
    }
    if (interaction.isButton() && parsed.action === 'choice') {
      await take('settle', { runId: parsed.runId, text: parsed.choice ?? '' });
      return;
    }
    if (interaction.isButton() && parsed.action === 'remember') {
      await take('remember', { runId: parsed.runId });
      return;
    }
    if (interaction.isButton() && parsed.action === 'just-this-time') {
      return await replyEphemeral(ctx.logger, interaction, discordAnswers.text(NOT_REMEMBERED));
    }
    if (interaction.isButton() && parsed.action === 'rerun') {
      await take('rerun', { runId: parsed.runId });
      return;
    }
    if (interaction.isButton() && parsed.action === 'improve') {
      // the modal is the interaction's one answer: access and dedupe first, as for any request
      const refusal = checkAccess(ctx.settings.access, { userId: interaction.user.id, roleIds }, place);
      if (refusal) return await replyEphemeral(ctx.logger, interaction, discordAnswers.text(refusal));
      if (await ctx.deliveries.seen(interactionEventId(interaction.id))) return;
      await showImproveModal(ctx, interaction, parsed.runId);
    }
  } catch (err) {
    ctx.logger.error(`interaction ${interaction.id} failed: ${(err as Error)?.stack ?? String(err)}`);
  }
}

/**
 * A command's options as a request's text (its line: src/chat/command-catalog.ts, text options read
 * as plain text: incoming-text.ts) and files.
 */
function commandFields(interaction: ChatInputCommandInteraction, command: ChatCommand): Partial<DiscordDelivery> {
  const text = commandLine(command, (o) => {
    const value = interaction.options.get(o.name)?.value;
    return typeof value === 'string' ? fromDiscordText(value, interaction.channel) : value;
  });
  const files = command.options.flatMap((o) => (o.kind === 'file' ? [interaction.options.getAttachment(o.name)] : []));
  return { text, files: files.flatMap((f) => (f ? [{ name: f.name, url: f.url, bytes: f.size }] : [])) };
}

/** Handles a message: only people's messages in a thread matter (the pipeline keeps those of a run's thread). Never throws. */
export async function onMessage(ctx: IngressContext, message: Message): Promise<void> {
  try {
    if (message.author.bot || message.system || !message.inGuild() || !message.channel.isThread()) return;
    const thread = message.channel;
    const request = discordRequest('reply', {
      place: placeOf(message.guildId, thread.id, thread),
      userId: message.author.id,
      roleIds: roleIdsOf(message.member),
      text: fromDiscordText(message.content, message.channel).trim(),
      deliveryId: messageEventId(message.id),
      files: [...message.attachments.values()].map((a) => ({ name: a.name, url: a.url, bytes: a.size })),
      // a thread the bot started a moment ago waits for its link: the run's job links it just after Discord shows it
      threadStart: { byApp: thread.ownerId === ctx.client.user?.id, at: SnowflakeUtil.timestampFrom(thread.id) },
    });
    await ctx.ingress.receive(request, messageRequester(message, ctx.logger));
  } catch (err) {
    ctx.logger.error(`message ${message.id} failed: ${(err as Error)?.stack ?? String(err)}`);
  }
}

/**
 * Answers `/usage [by] [since]` for an admin (`discord.admin_users`, `discord.admin_roles`), privately;
 * anyone else is told who may. Deduplicated like every interaction.
 */
async function handleUsage(ctx: IngressContext, interaction: ChatInputCommandInteraction, roleIds: string[], text: string): Promise<void> {
  if (await ctx.deliveries.seen(interactionEventId(interaction.id))) return;
  const { users, roles } = ctx.settings.admins;
  if (!users.includes(interaction.user.id) && !roleIds.some((r) => roles.includes(r))) {
    return replyEphemeral(ctx.logger, interaction, discordAnswers.text(notAdminText('discord.admin_users or discord.admin_roles')));
  }
  try {
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  } catch (err) {
    ctx.logger.warn(`deferring interaction ${interaction.id} failed: ${errorLine(err)}`);
    return;
  }
  const reply = await usageReply(ctx.app.usage, budgetLimits(ctx.app.config), text).catch(usageUnreadable);
  await interaction.editReply(toOptions(discordAnswers.memory(reply))).catch((err: unknown) => ctx.logger.warn(`answer failed: ${errorLine(err)}`));
}
