/**
 * Jobs on an existing run: Re-run (button), Improve (button → modal → feedback) and a reply in the
 * run's thread (its text is the feedback, its attachments become input files).
 */
import { ActionRowBuilder, ModalBuilder, TextInputBuilder, TextInputStyle, type ButtonInteraction, type SendableChannels } from 'discord.js';
import type { InputFile } from '../../src/sandbox/types.js';
import type { Run } from '../../src/history/types.js';
import { inputFiles, type RemoteFile } from './attachments.js';
import { withInputFilesNote } from '../../src/chat/input-note.js';
import { downloadLimits, type BotContext } from './context.js';
import { FEEDBACK_INPUT_ID, customId } from './ids.js';
import { refreshRunHeader, runJob } from './job.js';
import { finalState, oneLine } from './render.js';
import { ChannelSurface, Header, describe, type InteractionReplies } from './surface.js';

/**
 * Longest feedback typed in the Improve modal (Discord allows up to 4000 in a text input).
 * Source: https://discord.com/developers/docs/interactions/message-components#text-input-object
 */
export const MAX_FEEDBACK_CHARS = 4000;

/** The Improve button: asks for the feedback in a modal (the interaction's one initial response). */
export async function showImproveModal(ctx: BotContext, interaction: ButtonInteraction, runId: string): Promise<void> {
  const input = new TextInputBuilder()
    .setCustomId(FEEDBACK_INPUT_ID)
    .setLabel('What should change?')
    .setStyle(TextInputStyle.Paragraph)
    .setRequired(true)
    .setMaxLength(MAX_FEEDBACK_CHARS);
  const modal = new ModalBuilder()
    .setCustomId(customId('feedback', runId))
    .setTitle('Improve the code')
    .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input));
  try {
    await interaction.showModal(modal);
  } catch (err) {
    ctx.logger.warn(`showing the Improve modal failed: ${describe(err)}`);
  }
}

/** A Re-run or an Improve whose interaction was deferred; built by its processor (discord/worker-jobs.ts). */
export interface ActionJobSpec {
  /** The interaction's token: the original response and follow-ups. */
  replies: InteractionReplies;
  /** `Date.now()` when the interaction arrived. */
  receivedAt: number;
  /** The interaction's channel (the run's thread, or the channel for in-place runs); undefined: follow-ups only. */
  channel: SendableChannels | undefined;
  conversation: string;
  runId: string;
  userId: string;
  /** Undefined for a re-run. */
  feedback: string | undefined;
}

/** Runs a Re-run or an Improve job, saying in the interaction's response what it was and how it ended. Never throws. */
export async function runActionJob(ctx: BotContext, spec: ActionJobSpec): Promise<void> {
  const { runId, userId, feedback } = spec;
  const ttl = ctx.settings.interactionTokenTtlMs;
  const header = new Header(ctx.client, spec.replies, ctx.logger, spec.receivedAt, ttl);
  const what = feedback === undefined ? '🔁 Re-run' : '💬 Improve';
  const quote = feedback ? `\n> ${oneLine(feedback, 300)}` : '';
  await header.set({ content: `${what} of run \`${runId}\` requested by <@${userId}>${quote}` });
  const surface = new ChannelSurface(spec.channel, ctx.logger, spec.replies, spec.receivedAt, ttl);
  await continueRun(ctx, spec.conversation, runId, surface, userId, feedback, [], async (run) => {
    await header.set({ content: `${what} of run \`${runId}\` by <@${userId}>: ${run ? finalState(run) : 'failed'}${quote}` });
  });
}

/** A reply in a run's thread as a job; built by its processor (discord/worker-jobs.ts). */
export interface ThreadReplySpec {
  /** The thread; undefined when it cannot be posted in (nothing is shown then). */
  channel: SendableChannels | undefined;
  conversation: string;
  runId: string;
  userId: string;
  /** The reply's text, mentions already in plain words. */
  text: string;
  /** The reply's attachments (downloaded into the sandbox's input files, within the settings' limits). */
  attachments: RemoteFile[];
}

/** Improves the run with the reply's text and attachments. Never throws (the thread says what happened). */
export async function threadReplyJob(ctx: BotContext, spec: ThreadReplySpec): Promise<void> {
  const surface = new ChannelSurface(spec.channel, ctx.logger);
  const files = await inputFiles(downloadLimits(ctx.settings), surface, spec.attachments);
  // the LLM is told the names the program will find, whether or not the reply has text
  const feedback = withInputFilesNote(spec.text || (files.length ? 'Use the attached input files.' : ''), files) || undefined;
  await continueRun(ctx, spec.conversation, spec.runId, surface, spec.userId, feedback, files);
}

/**
 * Loads the run fresh from the store (another job may have changed it) and re-runs it (no
 * feedback) or improves it; then refreshes the run's first message. A turn of the run still at work
 * elsewhere is waited for by the agent (its turn lease); its `queued` event tells the thread.
 */
async function continueRun(
  ctx: BotContext,
  conversation: string,
  runId: string,
  surface: ChannelSurface,
  userId: string,
  feedback: string | undefined,
  inputFiles: InputFile[],
  onFinish?: (run: Run | undefined) => Promise<void>,
): Promise<void> {
  const rerun = feedback === undefined;
  await runJob(ctx, {
    surface,
    conversation,
    runId,
    startText: rerun ? `🔁 Re-running for <@${userId}>…` : `💬 Improving with feedback from <@${userId}>…`,
    call: async (onEvent) => {
      const run = await ctx.app.store.getRun(conversation, runId);
      if (!run) throw new Error(`run ${runId} is no longer in the history`);
      const options = { requestedBy: userId, onEvent, ...(inputFiles.length ? { inputFiles } : {}) };
      return rerun ? ctx.app.agent.execute(run, options) : ctx.app.agent.improve(run, feedback, options);
    },
    onFinish: async (run) => {
      if (run) await refreshRunHeader(ctx, run);
      await onFinish?.(run);
    },
  });
}
