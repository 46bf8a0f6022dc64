/**
 * Queue mode's ingress for Discord (the gateway process): instead of running a job, admit it
 * against the global limits, defer the interaction (Discord wants the initial response within 3 s:
 * https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction)
 * and put it on the queue for a worker. Access and deduplication (the store's, atomic across
 * processes) are checked by the caller. A refusal is ephemeral, before any deferral.
 */
import type { ButtonInteraction, ChatInputCommandInteraction, Message, ModalSubmitInteraction } from 'discord.js';
import { jobIdOf } from '../../src/queue/jobs.js';
import type { QueueAdmission } from '../../src/queue/limits.js';
import type { Run } from '../../src/history/types.js';
import { refusalText, type BotContext } from './context.js';
import type { Place } from './gate.js';
import { conversationId } from './ids.js';
import { fromDiscordText } from './incoming-text.js';
import { discordLimitKey, type ActionPayload, type DiscordPayload, type ReplyPayload, type RunPayload, type TokenRef } from './queued.js';
import { headerMessage, workingState, type JobKind } from './render.js';
import { replyEphemeral } from './run-command.js';
import { runExists } from './follow-up.js';
import { Header, NO_MENTIONS, describe } from './surface.js';

type Deferrable = ChatInputCommandInteraction | ButtonInteraction | ModalSubmitInteraction;

/** Enqueues `/run` or `/generate`: admitted → deferred → enqueued; refused → an ephemeral "busy". */
export async function enqueueRunCommand(ctx: BotContext, interaction: ChatInputCommandInteraction, kind: Extract<JobKind, 'run' | 'generate'>, place: Place): Promise<void> {
  const receivedAt = Date.now();
  const requirement = fromDiscordText(interaction.options.getString('requirement', true), interaction.channel);
  const conversation = conversationId(place.guildId, place.channelId, place.parentId);
  const payload: RunPayload = { ...tokenOf(interaction, receivedAt), kind, requirement, userId: interaction.user.id, place, conversation };
  await submitDeferred(ctx, interaction, 'run', conversation, payload, async (ahead) => {
    if (ahead === 0) return;
    const header = new Header(ctx.client, interaction, ctx.logger, receivedAt, ctx.settings.interactionTokenTtlMs);
    await header.set(headerMessage(kind, requirement, payload.userId, workingState(place.canThread, ahead)));
  });
}

/** Enqueues a Re-run (button) or an Improve (modal submit) of a run of this conversation. */
export async function enqueueRunAction(
  ctx: BotContext,
  interaction: ButtonInteraction | ModalSubmitInteraction,
  conversation: string,
  runId: string,
  feedback: string | undefined,
): Promise<void> {
  const receivedAt = Date.now();
  if (!(await runExists(ctx, interaction, conversation, runId))) return;
  const payload: ActionPayload = {
    ...tokenOf(interaction, receivedAt),
    channelId: interaction.channelId ?? '',
    conversation,
    runId,
    userId: interaction.user.id,
    ...(feedback !== undefined ? { feedback } : {}),
  };
  await submitDeferred(ctx, interaction, 'action', conversation, payload);
}

/** Enqueues a reply in a run's thread (access and deduplication passed); a refusal is a reply to it. */
export async function enqueueThreadReply(ctx: BotContext, message: Message, conversation: string, run: Run): Promise<void> {
  const payload: ReplyPayload = {
    channelId: message.channelId,
    conversation,
    runId: run.id,
    userId: message.author.id,
    text: fromDiscordText(message.content, message.channel).trim(),
    attachments: [...message.attachments.values()].map((a) => ({ name: a.name, url: a.url, size: a.size })),
  };
  const admission = await submit(ctx, jobIdOf('discord', 'message', message.id), 'reply', conversation, payload);
  const text = admission instanceof Error ? couldNotQueue(admission) : !admission.accepted ? refusalText(admission.reason, ctx.settings.maxQueuePerChannel) : undefined;
  if (!text) return;
  await message.reply({ content: text, allowedMentions: NO_MENTIONS }).catch((err: unknown) => ctx.logger.warn(`refusal reply failed: ${describe(err)}`));
}

/**
 * Admits, defers, then enqueues; a refusal (busy, full, Redis down before the deferral) is answered
 * ephemerally. After a failed deferral nothing is enqueued.
 */
async function submitDeferred(
  ctx: BotContext,
  interaction: Deferrable,
  kind: string,
  conversation: string,
  payload: RunPayload | ActionPayload,
  afterDefer?: (ahead: number) => Promise<void>,
): Promise<void> {
  let deferred = false;
  const admission = await submit(ctx, jobIdOf('discord', 'interaction', interaction.id), kind, conversation, payload, async (ahead) => {
    await interaction.deferReply();
    deferred = true;
    await afterDefer?.(ahead).catch((err: unknown) => ctx.logger.warn(`saying the queue position failed: ${describe(err)}`));
  });
  if (admission instanceof Error) {
    const text = couldNotQueue(admission);
    if (!deferred) return await replyEphemeral(ctx, interaction, text);
    await interaction.editReply({ content: text, allowedMentions: NO_MENTIONS }).catch((err: unknown) => ctx.logger.warn(`answer failed: ${describe(err)}`));
    return;
  }
  if (!admission.accepted) await replyEphemeral(ctx, interaction, refusalText(admission.reason, ctx.settings.maxQueuePerChannel));
}

async function submit(
  ctx: BotContext,
  jobId: string,
  kind: string,
  conversation: string,
  payload: DiscordPayload,
  beforeAdd?: (ahead: number) => Promise<void>,
): Promise<QueueAdmission | Error> {
  try {
    const limit = discordLimitKey(jobId, conversation, payload.userId);
    return await ctx.queue!.submit(jobId, { platform: 'discord', kind, limit, payload }, beforeAdd);
  } catch (err) {
    ctx.logger.error(`could not enqueue a job: ${describe(err)}`);
    return err as Error;
  }
}

function tokenOf(interaction: Deferrable, receivedAt: number): TokenRef {
  return { applicationId: interaction.applicationId, token: interaction.token, receivedAt };
}

function couldNotQueue(err: Error): string {
  return `Could not queue your job (${err.message}); try again in a minute.`.slice(0, 2000);
}
