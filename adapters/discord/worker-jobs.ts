/**
 * Discord's jobs in a queue worker (`code-agent worker`): the same job and rendering code as the
 * gateway process (run-command.ts, follow-up.ts, job.ts), posting through Discord REST with the
 * bot token — the interaction's follow-ups and response edits while its token lives, the bot's
 * own messages in the thread after that — and the message in the thread when a job's worker
 * stopped before it finished.
 */
import type { App as Core } from '../../src/app/app.js';
import type { Config } from '../../src/config/schema.js';
import { ConfigError } from '../../src/config/load.js';
import type { ChatJobData, PlatformJobs } from '../../src/queue/jobs.js';
import { FALSE_ALARM, markInterrupted, WORKER_STOPPED_NOTICE } from '../../src/queue/interrupted.js';
import type { InterruptNotice } from '../../src/queue/job-end.js';
import { createContext, settingsFrom, type BotContext } from './context.js';
import { placeOf } from './gate.js';
import { startRunJob } from './run-command.js';
import { runActionJob, threadReplyJob } from './follow-up.js';
import { refreshRunHeader } from './job.js';
import { headerMessage } from './render.js';
import type { Logger } from './log.js';
import { ChannelSurface, editChannelMessage, Header } from './surface.js';
import { channelById, restOnlyClient, sendableById, startThreadFrom, tokenReplies } from './worker-channels.js';
import { parseThreadField, threadField, type ActionPayload, type DiscordPayload, type ReplyPayload, type RunPayload } from './queued.js';

/** The worker's log (adapters/worker/main.ts). */
export interface WorkerLogLike {
  info(...msg: unknown[]): void;
  warn(...msg: unknown[]): void;
  error(...msg: unknown[]): void;
}

/**
 * The Discord job runner of a worker; `close()` drops its REST client.
 * @throws {ConfigError} when `discord.token` is missing.
 */
export function discordJobs(core: Core, config: Config, log: WorkerLogLike): PlatformJobs & { close(): Promise<void> } {
  const token = config.discord?.token;
  if (!token) throw new ConfigError('discord.token is not set: the worker posts Discord jobs with the bot token (DISCORD_TOKEN), as the gateway process has it');
  const client = restOnlyClient(token, config.discord?.api_url);
  const logger: Logger = { info: (m) => log.info(`discord: ${m}`), warn: (m) => log.warn(`discord: ${m}`), error: (m) => log.error(`discord: ${m}`), debug: () => undefined };
  const ctx: BotContext = createContext(core, client, logger, settingsFrom(config.discord));
  const ttl = ctx.settings.interactionTokenTtlMs;

  async function run(p: RunPayload, setThread: (thread: string) => Promise<void>): Promise<void> {
    const replies = tokenReplies(client, p.applicationId, p.token);
    const fetched = await channelById(client, p.place.channelId);
    let where = p.place.channelId;
    await startRunJob(ctx, {
      kind: p.kind,
      requirement: p.requirement,
      userId: p.userId,
      place: p.place,
      conversation: p.conversation,
      header: new Header(client, replies, logger, p.receivedAt, ttl),
      replies,
      receivedAt: p.receivedAt,
      channel: fetched?.isSendable() ? fetched : undefined,
      canThread: p.place.canThread || placeOf(p.place.guildId, p.place.channelId, fetched).canThread,
      unseen: Boolean(p.place.guildId) && !fetched,
      startThread: (first, name) => startThreadFrom(client, first, name),
      onThread: async (id) => {
        where = id;
        await setThread(threadField(id));
      },
      onRunId: (runId) => setThread(threadField(where, runId)),
    });
  }

  return {
    async run(data: ChatJobData, setThread) {
      if (data.kind === 'run') return run(data.payload as RunPayload, setThread);
      if (data.kind === 'action') {
        const p = data.payload as ActionPayload;
        await setThread(threadField(p.channelId, p.runId));
        return runActionJob(ctx, {
          replies: tokenReplies(client, p.applicationId, p.token),
          receivedAt: p.receivedAt,
          channel: await sendableById(client, p.channelId),
          conversation: p.conversation,
          runId: p.runId,
          userId: p.userId,
          feedback: p.feedback,
        });
      }
      if (data.kind === 'reply') {
        const p = data.payload as ReplyPayload;
        await setThread(threadField(p.channelId, p.runId));
        return threadReplyJob(ctx, { ...p, channel: await sendableById(client, p.channelId) });
      }
      throw new Error(`unknown Discord job kind "${data.kind}"`);
    },

    async interrupted(data: ChatJobData): Promise<InterruptNotice | undefined> {
      const p = data.payload as DiscordPayload;
      const { channelId, runId } = parseThreadField(data.thread);
      const { run, ended } = runId ? await markInterrupted(core.store, await core.store.getRun(p.conversation, runId)) : { run: undefined, ended: false };
      if (ended) return undefined;
      // in the thread (or channel) where it rendered; else, while its token lives, as a follow-up
      const replies = 'token' in p ? tokenReplies(client, p.applicationId, p.token) : undefined;
      const surface = new ChannelSurface(channelId ? await sendableById(client, channelId) : undefined, logger, replies, 'receivedAt' in p ? p.receivedAt : 0, ttl);
      const posted = await surface.post({ content: `❌ **Failed**: ${WORKER_STOPPED_NOTICE}` });
      if (run) await refreshRunHeader(ctx, run);
      else if (data.kind === 'run' && replies) {
        const r = p as RunPayload;
        await new Header(client, replies, logger, r.receivedAt, ttl).set(headerMessage(r.kind, r.requirement, r.userId, '❌ Failed: the worker running it stopped'));
      }
      return { messages: posted ? [{ channel: posted.channelId, id: posted.id }] : [] };
    },

    async falseAlarm(data: ChatJobData, notice: InterruptNotice | undefined) {
      const p = data.payload as DiscordPayload;
      for (const m of notice?.messages ?? []) await editChannelMessage(client, m.channel, m.id, { content: `ℹ️ ~~❌ Failed~~ ${FALSE_ALARM}` }, logger);
      const { runId } = parseThreadField(data.thread);
      const run = runId ? await core.store.getRun(p.conversation, runId) : undefined;
      if (run && run.status !== 'running') await refreshRunHeader(ctx, run);
    },

    async close() {
      await client.destroy();
    },
  };
}
