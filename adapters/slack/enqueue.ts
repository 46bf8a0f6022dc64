/**
 * Slack's inbound traffic → admission (src/chat/admission.ts): a slash command or a thread reply
 * becomes a typed job on the chat queue, all before the ack (Slack wants it within 3 s:
 * https://docs.slack.dev/interactivity/implementing-slash-commands#responding_to_commands).
 */
import type { SlashCommand } from '@slack/bolt';
import { jobIdOf } from '../../src/chat/job-queue.js';
import { admit, type AdmissionResult } from '../../src/chat/admission.js';
import type { SlackContext } from './context.js';
import { slackLimitKey, type ReplyPayload, type RerunPayload, type RunPayload } from './queued.js';

/** Admits `/run` or `/generate` (`refusal`: the access decision). */
export async function admitCommand(
  ctx: SlackContext,
  kind: 'run' | 'generate',
  command: SlashCommand,
  requirement: string,
  refusal: string | undefined,
): Promise<AdmissionResult> {
  const jobId = jobIdOf('slack', 'command', command.trigger_id);
  const payload: RunPayload = {
    team: command.team_id,
    channel: command.channel_id,
    user: command.user_id,
    userName: command.user_name,
    requirement,
    responseUrl: command.response_url,
  };
  return admit(ctx.admitter, {
    refusal,
    request: { kind, requirement },
    deliveryId: command.trigger_id ? `slack:command:${command.trigger_id}` : undefined,
    jobId,
    job: { platform: 'slack', kind, limit: slackLimitKey(jobId, command.team_id, command.channel_id, command.user_id), payload },
  });
}

/**
 * Admits a run started by a message: one that mentions the app in a channel, or one sent to the
 * app directly (its files become input files). @param eventId the event's id (dedupe, job id)
 */
export async function admitMessageRun(ctx: SlackContext, eventId: string | undefined, payload: RunPayload, refusal: string | undefined): Promise<AdmissionResult> {
  const jobId = jobIdOf('slack', 'event', eventId ?? `${payload.channel}-${payload.user}-${Date.now()}`);
  return admit(ctx.admitter, {
    refusal,
    request: { kind: 'run', requirement: payload.requirement },
    deliveryId: eventId ? `slack:event:${eventId}` : undefined,
    jobId,
    job: { platform: 'slack', kind: 'run', limit: slackLimitKey(jobId, payload.team, payload.channel, payload.user), payload },
  });
}

/**
 * Admits a reply in a run's thread (or, `kind` `improve`, the Improve modal's feedback): it waits
 * its turn rather than being refused for its user. @param deliveryId the event's id (a modal: `view-<trigger_id>`)
 */
export async function admitReply(
  ctx: SlackContext,
  deliveryId: string | undefined,
  payload: ReplyPayload,
  refusal: string | undefined,
  kind: 'reply-improve' | 'improve' = 'reply-improve',
): Promise<AdmissionResult> {
  const jobId = jobIdOf('slack', 'event', deliveryId ?? `${payload.channel}-${payload.threadTs}-${Date.now()}`);
  return admit(ctx.admitter, {
    refusal,
    request: { kind },
    deliveryId: deliveryId ? `slack:event:${deliveryId}` : undefined,
    jobId,
    job: { platform: 'slack', kind: 'reply', limit: slackLimitKey(jobId, payload.team, payload.channel, payload.user), payload },
  });
}

/** Admits the Re-run button of a run's thread (waits its turn like a reply). */
export async function admitRerun(ctx: SlackContext, triggerId: string, payload: RerunPayload, refusal: string | undefined): Promise<AdmissionResult> {
  const jobId = jobIdOf('slack', 'action', triggerId);
  return admit(ctx.admitter, {
    refusal,
    request: { kind: 're-run' },
    deliveryId: `slack:action:${triggerId}`,
    jobId,
    job: { platform: 'slack', kind: 'rerun', limit: slackLimitKey(jobId, payload.team, payload.channel, payload.user), payload },
  });
}
