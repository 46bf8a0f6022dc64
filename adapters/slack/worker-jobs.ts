/**
 * Slack's jobs, run by the chat queue's processor (in the app's own process, or in a queue worker:
 * `code-agent worker`): the typed job kinds, each a turn of the one run lifecycle (src/chat/run-job.ts)
 * in a Slack thread (port.ts), posting straight to the Web API with the bot token; and the message in the thread when a job's worker stopped before it finished.
 */
import { WebClient } from '@slack/web-api';
import type { App as Core } from '../../src/app/app.js';
import type { Config } from '../../src/config/schema.js';
import type { ChatJobData, InterruptNotice, JobHooks, PlatformJobs } from '../../src/chat/job-queue.js';
import { dispatchJob, type JobHandlers } from '../../src/chat/job-kinds.js';
import type { ThreadRef } from '../../src/chat/thread-ref.js';
import { runInThread, type RunJobDeps, type TurnRequest } from '../../src/chat/run-job.js';
import { clientOptions, SlackPoster } from './poster.js';
import { slackSettings } from './settings.js';
import { conversationId, type JobContext, type Log } from './context.js';
import type { ReplyPayload, RerunPayload, RunPayload, SlackJobKinds, ThreadRequest } from './queued.js';
import { finalStatus, rootText } from './views.js';
import { ephemeral } from './commands.js';
import { escapeMrkdwn, inlineText } from './mrkdwn.js';
import { openRunThread, slackThread } from './port.js';
import { FALSE_ALARM, markInterrupted, WORKER_STOPPED_NOTICE } from '../../src/queue/interrupted.js';

/**
 * The Slack job runner (of the app's in-memory queue, or of a queue worker).
 * @throws {ConfigError} when `slack.bot_token` is missing.
 */
export function slackJobs(core: Core, config: Config, log: Log): PlatformJobs {
  const settings = slackSettings(config, 'worker');
  const poster = new SlackPoster(new WebClient(settings.botToken, clientOptions(settings.apiUrl)));
  const ctx: JobContext = { core, settings, poster, log };
  const deps: RunJobDeps = {
    agent: core.agent,
    store: core.store,
    onInternalError: (err) => log.error('slack: a job failed', err),
    onWarning: (what, err) => log.warn(`slack: ${what} failed:`, (err as Error)?.message ?? String(err)),
  };
  /** Tells the requester of a new run something only they see (`text`: mrkdwn). */
  const tell = async (p: RunPayload, text: string) => {
    if (!p.responseUrl) return poster.ephemeral(p.channel, p.user, text, undefined, true);
    // the slash command's response_url: https://docs.slack.dev/interactivity/handling-user-interaction#message_responses
    const res = await fetch(p.responseUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ephemeral(text)) }).catch(
      (err: unknown) => err as Error,
    );
    if (res instanceof Error || !res.ok) log.warn('slack: response_url failed', res instanceof Error ? res.message : res.status);
  };

  /** A new run: its thread (the channel message's), then the one lifecycle. */
  const newRun = (kind: 'run' | 'generate') => async (p: RunPayload, job: JobHooks) => {
    const opened = await openRunThread(ctx, kind, p, (text) => tell(p, text));
    if (!opened) return;
    const request = { kind, requirement: p.requirement, chat: opened.chat };
    await runInThread(deps, opened.thread, { conversation: conversationId(p.team, p.channel), userId: p.user, request, job });
  };

  /** A turn on the run of a thread: its id from the payload, else the store's thread index. */
  const onRun = async (p: ThreadRequest, status: string, turn: (runId: string) => TurnRequest, files: ReplyPayload['files'], job: JobHooks) => {
    const conv = conversationId(p.team, p.channel);
    const runId = p.runId ?? (await core.store.threadRunId(conv, p.threadTs));
    if (!runId) return;
    const run = await core.store.getRun(conv, runId).catch(() => undefined);
    if (run) await poster.update(p.channel, p.threadTs, rootText(run, status)).catch(() => undefined);
    const thread = slackThread(ctx, { channel: p.channel, threadTs: p.threadTs, files });
    await runInThread(deps, thread, { conversation: conv, userId: p.user, request: turn(runId), job });
  };

  const handlers: JobHandlers<SlackJobKinds, JobHooks> = {
    run: newRun('run'),
    generate: newRun('generate'),
    reply: (p, job) => onRun(p, `⏳ improving (reply by ${inlineText(p.user, 40)})…`, (runId) => ({ kind: 'improve', runId, feedback: p.text }), p.files, job),
    rerun: (p, job) => onRun(p, `⏳ re-running (for ${inlineText(p.user, 40)})…`, (runId) => ({ kind: 'rerun', runId }), undefined, job),
  };

  return {
    run: (data, hooks) => dispatchJob('slack', handlers, data, hooks),

    async interrupted(data: ChatJobData): Promise<InterruptNotice | undefined> {
      const p = data.payload as RunPayload | ReplyPayload | RerunPayload;
      const notice = WORKER_STOPPED_NOTICE;
      const threadTs = data.thread?.thread;
      if (!threadTs) {
        // it stopped before the channel message was posted: only the user can be told
        if ('requirement' in p) await tell(p, `Your request was ${escapeMrkdwn(notice)}`);
        else await poster.ephemeral(p.channel, p.user, `Your reply was ${notice}`, p.threadTs);
        return { messages: [] };
      }
      const conv = conversationId(p.team, p.channel);
      const { run, ended } = await markInterrupted(core.store, await core.store.findRunByThread(conv, threadTs));
      if (ended) return undefined;
      const ts = await poster.post(p.channel, `❌ *Failed*: ${escapeMrkdwn(notice)}`, threadTs);
      const kind = data.kind === 'generate' ? 'generate' : 'run';
      const root = run ?? { requirement: 'requirement' in p ? p.requirement : '', requestedBy: p.user, chat: { thread: { channel: p.channel, thread: threadTs }, kind, ...('userName' in p && p.userName ? { userName: p.userName } : {}) } };
      await poster.update(p.channel, threadTs, rootText(root, '❌ failed: the worker running it stopped'));
      return { messages: [{ channel: p.channel, id: ts }] };
    },

    async falseAlarm(data: ChatJobData, notice: InterruptNotice | undefined) {
      const p = data.payload as RunPayload | ReplyPayload | RerunPayload;
      for (const m of notice?.messages ?? []) await poster.update(m.channel, m.id, `ℹ️ ~❌ Failed~ ${escapeMrkdwn(FALSE_ALARM)}`);
      const threadTs = data.thread?.thread;
      if (!threadTs) return;
      const run = await core.store.findRunByThread(conversationId(p.team, p.channel), threadTs);
      if (run && run.status !== 'running') await poster.update(p.channel, threadTs, rootText(run, finalStatus(run)));
    },
  };
}
