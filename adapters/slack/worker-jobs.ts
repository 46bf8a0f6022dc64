/**
 * Slack's jobs, run by the chat queue's processor (in the app's own process, or in a queue worker:
 * `code-agent worker`): the typed job kinds (jobs.ts, thread.ts), posting straight to the Web API
 * with the bot token; and the message in the thread when a job's worker stopped before it finished.
 */
import { WebClient } from '@slack/web-api';
import type { App as Core } from '../../src/app/app.js';
import type { Config } from '../../src/config/schema.js';
import type { ChatJobData, InterruptNotice, PlatformJobs } from '../../src/chat/job-queue.js';
import { dispatchJob, type JobHandlers } from '../../src/chat/job-kinds.js';
import type { ThreadRef } from '../../src/chat/thread-ref.js';
import { clientOptions, SlackPoster } from './poster.js';
import { slackSettings } from './settings.js';
import { conversationId, type Log } from './context.js';
import { newRunJob, replyJob, rerunJob, type JobContext } from './jobs.js';
import type { ReplyPayload, RerunPayload, RunPayload, SlackJobKinds } from './queued.js';
import { finalStatus, rootText } from './views.js';
import { ephemeral } from './commands.js';
import { escapeMrkdwn } from './mrkdwn.js';
import { FALSE_ALARM, markInterrupted, WORKER_STOPPED_NOTICE } from '../../src/queue/interrupted.js';

/**
 * The Slack job runner (of the app's in-memory queue, or of a queue worker).
 * @throws {ConfigError} when `slack.bot_token` is missing.
 */
export function slackJobs(core: Core, config: Config, log: Log): PlatformJobs {
  const settings = slackSettings(config, 'worker');
  const poster = new SlackPoster(new WebClient(settings.botToken, clientOptions(settings.apiUrl)));
  const ctx: JobContext = { core, settings, poster, log };
  /** Tells the requester of a new run something only they see (`text`: mrkdwn). */
  const tell = async (p: RunPayload, text: string) => {
    if (!p.responseUrl) return poster.ephemeral(p.channel, p.user, text, undefined, true);
    // the slash command's response_url: https://docs.slack.dev/interactivity/handling-user-interaction#message_responses
    const res = await fetch(p.responseUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ephemeral(text)) }).catch(
      (err: unknown) => err as Error,
    );
    if (res instanceof Error || !res.ok) log.warn('slack: response_url failed', res instanceof Error ? res.message : res.status);
  };

  const newRun = (kind: 'run' | 'generate') => async (p: RunPayload, setThread: (thread: ThreadRef) => Promise<void>) =>
    newRunJob(ctx, {
      kind,
      team: p.team,
      channel: p.channel,
      user: p.user,
      userName: p.userName,
      requirement: p.requirement,
      ...(p.files?.length ? { files: p.files } : {}),
      tell: (text) => tell(p, text),
      onThread: (threadTs) => setThread({ channel: p.channel, thread: threadTs }),
    });
  const handlers: JobHandlers<SlackJobKinds, (thread: ThreadRef) => Promise<void>> = {
    run: newRun('run'),
    generate: newRun('generate'),
    reply: async (p, setThread) => {
      await setThread({ channel: p.channel, thread: p.threadTs });
      await replyJob(ctx, p);
    },
    rerun: async (p, setThread) => {
      await setThread({ channel: p.channel, thread: p.threadTs });
      await rerunJob(ctx, p);
    },
  };

  return {
    run: (data, setThread) => dispatchJob('slack', handlers, data, setThread),

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
      const root = run ?? { requirement: 'requirement' in p ? p.requirement : '', requestedBy: p.user, meta: { ...('userName' in p && p.userName ? { userName: p.userName } : {}) } };
      await poster.update(p.channel, threadTs, rootText(root, '❌ failed: the worker running it stopped', run?.meta?.kind ?? data.kind));
      return { messages: [{ channel: p.channel, id: ts }] };
    },

    async falseAlarm(data: ChatJobData, notice: InterruptNotice | undefined) {
      const p = data.payload as RunPayload | ReplyPayload | RerunPayload;
      for (const m of notice?.messages ?? []) await poster.update(m.channel, m.id, `ℹ️ ~❌ Failed~ ${escapeMrkdwn(FALSE_ALARM)}`);
      const threadTs = data.thread?.thread;
      if (!threadTs) return;
      const run = await core.store.findRunByThread(conversationId(p.team, p.channel), threadTs);
      if (run && run.status !== 'running') await poster.update(p.channel, threadTs, rootText(run, finalStatus(run), run.meta?.kind ?? data.kind));
    },
  };
}
