/** `/history`, `/show` and `/usage`: read the channel's shared history or the usage ledger (deferred, then one edit). */
import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import { notAdminText, usageAnswer } from '../../src/chat/usage-view.js';
import { budgetLimits } from '../../src/app/app.js';
import type { BotContext } from './context.js';
import { historyMessage, showMessage } from './render.js';
import { describe, toOptions } from './surface.js';
import { removeFileText, workspaceListing } from '../../src/chat/workspace-view.js';
import { neutraliseFences } from '../../src/chat/format.js';
import { cutChars } from '../../src/text/cut.js';

/** Answers `/history [limit]` with the conversation's newest runs. */
export async function handleHistory(ctx: BotContext, interaction: ChatInputCommandInteraction, conversation: string): Promise<void> {
  const limit = interaction.options.getInteger('limit') ?? ctx.settings.historyLimit;
  await answer(ctx, interaction, async () => historyMessage(await ctx.app.store.listRuns(conversation, limit)));
}

/**
 * Answers `/show [run] [remove]` with a run's workspace, latest code and result (default: the newest
 * run); with `remove`, removes that file from the run's workspace (the caller checked access).
 */
export async function handleShow(ctx: BotContext, interaction: ChatInputCommandInteraction, conversation: string): Promise<void> {
  const runId = interaction.options.getString('run')?.trim();
  const remove = interaction.options.getString('remove');
  await answer(ctx, interaction, async () => {
    const run = runId
      ? await ctx.app.store.getRun(conversation, runId)
      : (await ctx.app.store.listRuns(conversation, 1))[0];
    if (!run) return { content: runId ? `Run \`${runId.replace(/`/g, '')}\` is not in this channel's history.` : 'No runs in this channel yet.' };
    if (remove !== null) return { content: neutraliseFences(cutChars(await removeFileText(ctx.app.agent, run, remove), 1900)) };
    return showMessage(run, workspaceListing(await ctx.app.agent.workspace(run), `/show run:${run.id} remove:<name> removes one`));
  });
}

/**
 * Answers `/usage [by] [since]` for an admin (`discord.admin_users`, `discord.admin_roles`), privately;
 * anyone else is told who may. @param roleIds the member's roles
 */
export async function handleUsage(ctx: BotContext, interaction: ChatInputCommandInteraction, roleIds: string[]): Promise<void> {
  const { users, roles } = ctx.settings.admins;
  if (!users.includes(interaction.user.id) && !roleIds.some((r) => roles.includes(r))) {
    await interaction.reply({ content: notAdminText('discord.admin_users or discord.admin_roles'), flags: MessageFlags.Ephemeral }).catch((err: unknown) => ctx.logger.warn(`answer failed: ${describe(err)}`));
    return;
  }
  const text = [interaction.options.getString('by'), interaction.options.getString('since')].filter(Boolean).join(' ');
  try {
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  } catch (err) {
    ctx.logger.warn(`deferring interaction ${interaction.id} failed: ${describe(err)}`);
    return;
  }
  const content = await usageAnswer(ctx.app.usage, budgetLimits(ctx.app.config), text, 1900).catch((err: unknown) => `⚠️ The usage could not be read: ${(err as Error).message}`.slice(0, 2000));
  await interaction.editReply({ content, allowedMentions: { parse: [] } }).catch((err: unknown) => ctx.logger.warn(`answer failed: ${describe(err)}`));
}

async function answer(ctx: BotContext, interaction: ChatInputCommandInteraction, build: () => Promise<ReturnType<typeof historyMessage>>): Promise<void> {
  try {
    await interaction.deferReply();
  } catch (err) {
    ctx.logger.warn(`deferring interaction ${interaction.id} failed: ${describe(err)}`);
    return;
  }
  let msg;
  try {
    msg = await build();
  } catch (err) {
    msg = { content: `⚠️ The history could not be read: ${(err as Error).message}`.slice(0, 2000) };
  }
  await interaction.editReply(toOptions(msg)).catch((err: unknown) => ctx.logger.warn(`answer failed: ${describe(err)}`));
}
