/**
 * Discord's inbound traffic → admission (src/chat/admission.ts): `/run`, `/generate`, Re-run,
 * Improve and thread replies become typed jobs on the chat queue (in memory, or Redis in queue
 * mode). An interaction is deferred once admitted, before its job can start (Discord wants the
 * initial response within 3 s:
 * https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction);
 * a refusal is ephemeral, before any deferral.
 */
import type { ButtonInteraction, ChatInputCommandInteraction, Message, ModalSubmitInteraction } from 'discord.js';
import { setTimeout as delay } from 'node:timers/promises';
import { jobIdOf } from '../../src/chat/job-queue.js';
import { admit, type AdmissionResult } from '../../src/chat/admission.js';
import { ALREADY_HANDLED } from '../../src/chat/messages.js';
import type { ChatRequest } from '../../src/chat/request.js';
import type { IngressContext } from './context.js';
import type { Place } from './gate.js';
import { conversationId, interactionEventId, messageEventId } from './ids.js';
import { fromDiscordText } from './incoming-text.js';
import { discordLimitKey, type ActionPayload, type DiscordJobKinds, type ReplyPayload, type RunPayload, type TokenRef } from './queued.js';
import { headerMessage, workingState, type JobKind } from './render.js';
import { Header, NO_MENTIONS, describe, replyEphemeral } from './surface.js';
import { FILE_OPTION } from './commands.js';

type Deferrable = ChatInputCommandInteraction | ButtonInteraction | ModalSubmitInteraction;

/**
 * How long a repeat recognised only by the store waits before saying "already handled", in ms: the
 * process that took the first delivery defers it meanwhile, and Discord refuses a second initial
 * response, so the first delivery's answer always wins.
 */
export const REPEAT_ANSWER_DELAY_MS = 1000;

/** Admits `/run` or `/generate`: admitted → deferred → queued; refused → an ephemeral answer. */
export async function admitRunCommand(
  ctx: IngressContext,
  interaction: ChatInputCommandInteraction,
  kind: Extract<JobKind, 'run' | 'generate'>,
  place: Place,
  refusal: string | undefined,
): Promise<void> {
  const receivedAt = Date.now();
  const requirement = fromDiscordText(interaction.options.getString('requirement', true), interaction.channel);
  const conversation = conversationId(place.guildId, place.channelId, place.parentId);
  const file = interaction.options.getAttachment(FILE_OPTION);
  const attachments = file ? [{ name: file.name, url: file.url, size: file.size }] : [];
  const payload: RunPayload = { ...tokenOf(interaction, receivedAt), kind, requirement, userId: interaction.user.id, place, conversation, ...(attachments.length ? { attachments } : {}) };
  await admitDeferred(ctx, interaction, 'run', refusal, payload, { request: { kind, requirement } }, async (ahead) => {
    if (ahead === 0) return;
    const header = new Header(ctx.client, interaction, ctx.logger, receivedAt, ctx.settings.interactionTokenTtlMs);
    await header.set(headerMessage(kind, requirement, payload.userId, workingState(place.canThread, ahead)));
  });
}

/** Admits a Re-run (button) or an Improve (modal submit) of a run of this conversation. */
export async function admitRunAction(
  ctx: IngressContext,
  interaction: ButtonInteraction | ModalSubmitInteraction,
  conversation: string,
  runId: string,
  feedback: string | undefined,
  refusal: string | undefined,
): Promise<void> {
  const receivedAt = Date.now();
  const payload: ActionPayload = {
    ...tokenOf(interaction, receivedAt),
    channelId: interaction.channelId ?? '',
    conversation,
    runId,
    userId: interaction.user.id,
    ...(feedback !== undefined ? { feedback } : {}),
  };
  const check = async () =>
    (await ctx.app.store.getRun(conversation, runId).catch(() => undefined)) ? undefined : `Run \`${runId}\` was not found in this channel's history.`;
  await admitDeferred(ctx, interaction, 'action', refusal, payload, { request: { kind: feedback === undefined ? 're-run' : 'improve' }, check });
}

/** Admits a reply in a run's thread; a refusal, or the queue position, is a reply to it. */
export async function admitThreadReply(ctx: IngressContext, message: Message, payload: ReplyPayload, refusal: string | undefined): Promise<void> {
  const jobId = jobIdOf('discord', 'message', message.id);
  const result = await admit(ctx.admitter, {
    refusal,
    request: { kind: 'reply-improve' },
    deliveryId: messageEventId(message.id),
    jobId,
    job: { platform: 'discord', kind: 'reply', limit: discordLimitKey(jobId, payload.conversation, payload.userId), payload },
  });
  if (result.outcome === 'duplicate' || !result.text) return;
  await message.reply({ content: result.text.slice(0, 2000), allowedMentions: NO_MENTIONS }).catch((err: unknown) => ctx.logger.warn(`answering a reply failed: ${describe(err)}`));
}

/**
 * Admits, defers, then queues; a refusal (access, busy, full, the queue down before the deferral)
 * is answered ephemerally. After a failed deferral nothing is queued.
 */
async function admitDeferred<K extends 'run' | 'action'>(
  ctx: IngressContext,
  interaction: Deferrable,
  kind: K,
  refusal: string | undefined,
  payload: DiscordJobKinds[K],
  request: { request: ChatRequest; check?: () => Promise<string | undefined> },
  afterDefer?: (ahead: number) => Promise<void>,
): Promise<void> {
  let deferred = false;
  const jobId = jobIdOf('discord', 'interaction', interaction.id);
  const limit = discordLimitKey(jobId, payload.conversation, payload.userId);
  const result: AdmissionResult = await admit(ctx.admitter, {
    refusal,
    request: request.request,
    ...(request.check ? { check: request.check } : {}),
    deliveryId: interactionEventId(interaction.id),
    jobId,
    job: { platform: 'discord', kind, limit, payload },
    beforeAdd: async (ahead) => {
      await interaction.deferReply();
      deferred = true;
      await afterDefer?.(ahead).catch((err: unknown) => ctx.logger.warn(`saying the queue position failed: ${describe(err)}`));
    },
  });
  if (result.outcome === 'queued') return;
  if (result.outcome === 'duplicate') {
    if (result.seenIn === 'memory') return;
    // a replay after a restart, or a delivery to another gateway process: whichever answered first keeps it
    await delay(REPEAT_ANSWER_DELAY_MS);
    return replyEphemeral(ctx.logger, interaction, ALREADY_HANDLED);
  }
  const text = result.text.slice(0, 2000);
  if (!deferred) return replyEphemeral(ctx.logger, interaction, text);
  await interaction.editReply({ content: text, allowedMentions: NO_MENTIONS }).catch((err: unknown) => ctx.logger.warn(`answer failed: ${describe(err)}`));
}

function tokenOf(interaction: Deferrable, receivedAt: number): TokenRef {
  return { applicationId: interaction.applicationId, token: interaction.token, receivedAt };
}
