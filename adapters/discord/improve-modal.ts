/**
 * The Improve button's modal: it asks for the feedback (the interaction's one initial response);
 * its submission is an `improve` request, taken by the pipeline like a thread reply (handlers.ts).
 */
import { ActionRowBuilder, ModalBuilder, TextInputBuilder, TextInputStyle, type ButtonInteraction } from 'discord.js';
import type { BotContext } from './context.js';
import { IMPROVE_FORM } from '../../src/chat/messages.js';
import { FEEDBACK_INPUT_ID, customId } from './ids.js';
import { errorLine } from '../../src/text/error-line.js';

/**
 * Longest feedback typed in the Improve modal (Discord allows up to 4000 in a text input).
 * Source: https://discord.com/developers/docs/interactions/message-components#text-input-object
 */
export const MAX_FEEDBACK_CHARS = 4000;

/** The Improve button: asks for the feedback in a modal (the interaction's one initial response). */
export async function showImproveModal(ctx: BotContext, interaction: ButtonInteraction, runId: string): Promise<void> {
  const input = new TextInputBuilder()
    .setCustomId(FEEDBACK_INPUT_ID)
    .setLabel(IMPROVE_FORM.question)
    .setStyle(TextInputStyle.Paragraph)
    .setRequired(true)
    .setMaxLength(MAX_FEEDBACK_CHARS);
  const modal = new ModalBuilder()
    .setCustomId(customId('feedback', runId))
    .setTitle(IMPROVE_FORM.title)
    .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input));
  try {
    await interaction.showModal(modal);
  } catch (err) {
    ctx.logger.warn(`showing the Improve modal failed: ${errorLine(err)}`);
  }
}
