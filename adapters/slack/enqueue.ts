/**
 * Queue mode's ingress for Slack: instead of running a job, dedupe it in the shared store, admit it
 * against the global limits and put it on the queue, all before the ack (Redis answers in about a
 * millisecond; Slack wants the ack within 3 s: https://docs.slack.dev/interactivity/implementing-slash-commands#responding_to_commands).
 */
import type { SlashCommand } from '@slack/bolt';
import { jobIdOf } from '../../src/queue/jobs.js';
import type { QueueAdmission } from '../../src/queue/limits.js';
import { busyText } from './access.js';
import { firstDelivery } from './dedupe.js';
import type { SlackContext } from './context.js';
import { slackLimitKey, type ReplyPayload, type RunPayload } from './queued.js';

/** What to answer the user (ephemerally); undefined = a plain ack (the job starts at once). */
export type QueueAnswer = string | undefined;

/** Enqueues `/run` or `/generate`. @returns the ack's text; a repeat delivery gets a plain ack. */
export async function enqueueCommand(ctx: SlackContext, kind: 'run' | 'generate', command: SlashCommand, requirement: string): Promise<QueueAnswer> {
  if (!ctx.recent.first(`command:${command.trigger_id}`)) return undefined;
  if (!(await firstDelivery(ctx.core.store, 'command', command.trigger_id, ctx.settings.dedupeTtlMs))) return undefined;
  const jobId = jobIdOf('slack', 'command', command.trigger_id);
  const payload: RunPayload = {
    team: command.team_id,
    channel: command.channel_id,
    user: command.user_id,
    userName: command.user_name,
    requirement,
    responseUrl: command.response_url,
  };
  const admission = await submit(ctx, jobId, kind, slackLimitKey(jobId, command.team_id, command.channel_id, command.user_id), payload);
  return answer(admission);
}

/** Enqueues a thread reply (already deduped and allowed). @returns what to tell the user, if anything. */
export async function enqueueReply(ctx: SlackContext, eventId: string | undefined, payload: ReplyPayload): Promise<QueueAnswer> {
  const jobId = jobIdOf('slack', 'event', eventId ?? `${payload.channel}-${payload.threadTs}-${Date.now()}`);
  const admission = await submit(ctx, jobId, 'reply', slackLimitKey(jobId, payload.team, payload.channel, payload.user), payload);
  return answer(admission);
}

async function submit(ctx: SlackContext, jobId: string, kind: string, limit: ReturnType<typeof slackLimitKey>, payload: RunPayload | ReplyPayload): Promise<QueueAdmission | Error> {
  try {
    return await ctx.queue!.submit(jobId, { platform: 'slack', kind, limit, payload });
  } catch (err) {
    ctx.log.error('slack: could not enqueue a job', err);
    return err as Error;
  }
}

function answer(admission: QueueAdmission | Error): QueueAnswer {
  if (admission instanceof Error) return `Could not queue your job (${admission.message}); try again in a minute.`;
  if (!admission.accepted) return busyText(admission.reason);
  return admission.ahead > 0 ? `Queued: ${admission.ahead} job(s) ahead of yours.` : undefined;
}
