/** `/history` and `/show`: read the channel's shared history (deferred, then one edit). */
import type { ChatInputCommandInteraction } from 'discord.js';
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
