/**
 * Discord's jobs, run by the chat queue's processor (in the bot's own process, or in a queue
 * worker: `code-agent worker`): the typed job kinds, each a turn of the one run lifecycle
 * (src/chat/run-job.ts) in a Discord thread (port.ts), posting
 * through Discord REST with the bot token — the interaction's follow-ups and response edits while
 * its token lives, the bot's own messages in the thread after that — and the message in the thread
 * when a job's worker stopped before it finished.
 */
import type { App as Core } from '../../src/app/app.js';
import type { Config } from '../../src/config/schema.js';
import { ConfigError } from '../../src/config/load.js';
import type { ChatJobData, InterruptNotice, JobHooks, PlatformJobs } from '../../src/chat/job-queue.js';
import { dispatchJob, type JobHandlers } from '../../src/chat/job-kinds.js';
import type { ThreadRef } from '../../src/chat/thread-ref.js';
import { FALSE_ALARM, markInterrupted, WORKER_STOPPED_NOTICE } from '../../src/queue/interrupted.js';
import { settingsFrom, type BotContext, type DiscordSettings } from './context.js';
import { placeOf } from './gate.js';
import { actionThread, openRunThread, refreshRunHeader, replyThread } from './port.js';
import { runInThread, type RunJobDeps } from '../../src/chat/run-job.js';
import { headerMessage } from './render.js';
import type { Logger } from './log.js';
import { ChannelSurface, describe, editChannelMessage, Header } from './surface.js';
import { channelById, restOnlyClient, sendableById, startThreadFrom, tokenReplies } from './worker-channels.js';
import type { DiscordJobKinds, DiscordPayload, RunPayload } from './queued.js';
import type { Client } from 'discord.js';

/** The worker's log (adapters/worker/main.ts). */
export interface WorkerLogLike {
  info(...msg: unknown[]): void;
  warn(...msg: unknown[]): void;
  error(...msg: unknown[]): void;
}

/** What the bot's own process lends its jobs: its logged-in client, settings and logger. */
export interface InProcess {
  client: Client;
  settings: DiscordSettings;
  logger: Logger;
}

/**
 * The Discord job runner: of a queue worker (a REST-only client of its own, dropped by `close()`),
 * or of the bot's in-memory queue (`inProcess`: the bot's client, kept open by `close()`).
 * @throws {ConfigError} when `discord.token` is missing (a worker).
 */
export function discordJobs(core: Core, config: Config, log: WorkerLogLike, inProcess?: InProcess): PlatformJobs & { close(): Promise<void> } {
  const token = config.discord?.token;
  if (!inProcess && !token) throw new ConfigError('discord.token is not set: the worker posts Discord jobs with the bot token (DISCORD_TOKEN), as the gateway process has it');
  const client = inProcess?.client ?? restOnlyClient(token!, config.discord?.api_url);
  const logger: Logger = inProcess?.logger ?? {
    info: (m) => log.info(`discord: ${m}`),
    warn: (m) => log.warn(`discord: ${m}`),
    error: (m) => log.error(`discord: ${m}`),
    debug: () => undefined,
  };
  const ctx: BotContext = { app: core, client, logger, settings: inProcess?.settings ?? settingsFrom(config.discord) };
  const ttl = ctx.settings.interactionTokenTtlMs;

  const deps: RunJobDeps = {
    agent: core.agent,
    store: core.store,
    onInternalError: (err) => logger.error(`job failed: ${(err as Error)?.stack ?? String(err)}`),
    onWarning: (what, err) => logger.warn(`${what} failed: ${describe(err)}`),
  };

  async function run(p: RunPayload, job: JobHooks): Promise<void> {
    const replies = tokenReplies(client, p.applicationId, p.token);
    const fetched = await channelById(client, p.place.channelId);
    const { thread, chat } = await openRunThread(ctx, {
      kind: p.kind,
      requirement: p.requirement,
      userId: p.userId,
      place: p.place,
      header: new Header(client, replies, logger, p.receivedAt, ttl),
      replies,
      receivedAt: p.receivedAt,
      channel: fetched?.isSendable() ? fetched : undefined,
      canThread: p.place.canThread || placeOf(p.place.guildId, p.place.channelId, fetched).canThread,
      unseen: Boolean(p.place.guildId) && !fetched,
      startThread: (first, name) => startThreadFrom(client, first, name),
      attachments: p.attachments ?? [],
    });
    await runInThread(deps, thread, { conversation: p.conversation, userId: p.userId, request: { kind: p.kind, requirement: p.requirement, chat }, job });
  }

  const handlers: JobHandlers<DiscordJobKinds, JobHooks> = {
    run,
    action: async (p, job) => {
      const thread = await actionThread(ctx, {
        replies: tokenReplies(client, p.applicationId, p.token),
        receivedAt: p.receivedAt,
        channel: await sendableById(client, p.channelId),
        channelId: p.channelId,
        runId: p.runId,
        userId: p.userId,
        feedback: p.feedback,
      });
      const request = p.feedback === undefined ? ({ kind: 'rerun', runId: p.runId } as const) : ({ kind: 'improve', runId: p.runId, feedback: p.feedback } as const);
      await runInThread(deps, thread, { conversation: p.conversation, userId: p.userId, request, job });
    },
    reply: async (p, job) => {
      const thread = replyThread(ctx, await sendableById(client, p.channelId), p.channelId, p.attachments);
      await runInThread(deps, thread, { conversation: p.conversation, userId: p.userId, request: { kind: 'improve', runId: p.runId, feedback: p.text }, job });
    },
  };

  return {
    run: (data, hooks) => dispatchJob('discord', handlers, data, hooks),

    async interrupted(data: ChatJobData): Promise<InterruptNotice | undefined> {
      const p = data.payload as DiscordPayload;
      const { channel: channelId, runId } = data.thread ?? {};
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
      const runId = data.thread?.runId;
      const run = runId ? await core.store.getRun(p.conversation, runId) : undefined;
      if (run && run.status !== 'running') await refreshRunHeader(ctx, run);
    },

    async close() {
      if (!inProcess) await client.destroy();
    },
  };
}
