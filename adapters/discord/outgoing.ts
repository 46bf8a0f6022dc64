/**
 * Discord's side of the outgoing port (src/chat/port.ts: OutgoingPort): messages are Discord
 * payloads (renderer.ts), posted on a {@link ChannelSurface} (the bot's messages in the
 * thread, falling back to the interaction's follow-ups); attachments are downloaded from Discord's
 * file hosts only (context.ts: attachmentOrigins; the loop: src/chat/input-downloads.ts). A new
 * run's thread is started from its root message (its {@link Header}: the interaction's answer, or
 * the bot's own message for a schedule's tick) where the channel allows it, else the run answers
 * in place and the root says why. Posts go through Discord REST with the bot token — the
 * interaction's follow-ups and response edits while its token lives, the bot's own messages after
 * that — from the bot's process (its logged-in client) or a queue worker (a REST-only client).
 */
import { MessageFlags, type BaseMessageOptions, type Message, type SendableChannels } from 'discord.js';
import type { ChatThread, OpenedThread, OutgoingPort } from '../../src/chat/port.js';
import { startsRun, type IncomingFile, type IncomingRequest } from '../../src/chat/incoming-port.js';
import type { Run } from '../../src/history/types.js';
import type { Config } from '../../src/config/schema.js';
import { ConfigError } from '../../src/config/load.js';
import { chatOf, newRunChat } from '../../src/chat/run-chat.js';
import { settingsFrom, type BotContext } from './context.js';
import { hostDownloads, threadInputs } from '../../src/chat/input-downloads.js';
import { canThreadIn, type DiscordOrigin } from './incoming.js';
import { discordAnswers } from './answers.js';
import { againMessage, discordThreadMarkup, rootMessage, threadName, type Outgoing } from './renderer.js';
import { endedState, requestRootSpec, runRootSpec, type AgainSpec, type RootState } from '../../src/chat/view/root-view.js';
import { ChannelSurface, editChannelMessage, Header, liveToken, toOptions, type LiveToken } from './surface.js';
import { errorLine } from '../../src/text/error-line.js';
import { channelById, restOnlyClient, sendableById, startThreadFrom, tokenReplies } from './worker-channels.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import { discordTyping } from './typing.js';

/** Why a run answers in place, under its root. */
const IN_PLACE = {
  unseen: 'ℹ️ I cannot see this channel (the bot needs the View Channel permission here to start threads), so I reply in place.',
  refused: 'ℹ️ I could not start a thread here, so I reply in place.',
  inThread: 'ℹ️ Threads cannot be started inside a thread, so I reply in place.',
  noThreads: 'ℹ️ Threads cannot be started here, so I reply in place.',
} as const;

/**
 * Discord's outgoing port: of a queue worker (a REST-only client of its own, dropped by `close()`),
 * or of the bot's in-memory queue (`inProcess`: what the bot's process lends its jobs, its logged-in
 * client kept open by `close()`).
 * @throws {ConfigError} when `discord.token` is missing (a worker).
 */
export function discordOutgoing(config: Config, log: ChatLog, inProcess?: BotContext): OutgoingPort<Outgoing, Message> {
  const token = config.discord?.token;
  if (!inProcess && !token) throw new ConfigError('discord.token is not set: the worker posts Discord jobs with the bot token (DISCORD_TOKEN), as the gateway process has it');
  const ctx: BotContext = inProcess ?? {
    client: restOnlyClient(token!, config.discord?.api_url),
    logger: { info: (...m) => log.info('discord:', ...m), warn: (...m) => log.warn('discord:', ...m), error: (...m) => log.error('discord:', ...m) },
    settings: settingsFrom(config.discord),
  };
  const { client, logger } = ctx;
  /** The interaction's follow-ups and response edits while its token lives (none for a message or a tick). */
  const tokenOf = (request: IncomingRequest): LiveToken | undefined => {
    const origin = request.origin as Partial<DiscordOrigin>;
    if (!origin.token || !origin.applicationId) return undefined;
    return liveToken(tokenReplies(client, origin.applicationId, origin.token), request.receivedAt, ctx.settings.interactionTokenTtlMs);
  };

  return {
    platform: 'discord',
    openThread: (request) => openRunThread(ctx, request, tokenOf(request)),
    runThread: async (request) => laterTurnThread(ctx, request, tokenOf(request)),

    async reopenThread(request, ref) {
      const token = tokenOf(request);
      // in the thread (or channel) where it rendered; else, while its token lives, as a follow-up
      const surface = new ChannelSurface(await sendableById(client, ref.channel), logger, token);
      return discordThread(ctx, surface, ref.channel, undefined, [], async (run, failure) => {
        if (run) return refreshRunHeader(ctx, run);
        if (startsRun(request.kind) && token) await new Header(client, logger, token).set(rootMessage(requestRootSpec(request, endedState(undefined, failure), false)));
      });
    },

    async tell(request, text) {
      const replies = tokenOf(request)?.();
      if (replies) {
        await replies.followUp({ ...toOptions(discordAnswers.text(text)), flags: MessageFlags.Ephemeral } as BaseMessageOptions).catch((err: unknown) => logger.warn(`telling the requester failed: ${errorLine(err)}`));
        return;
      }
      await new ChannelSurface(await sendableById(client, request.where.channel), logger).post(discordAnswers.text(`<@${request.who.userId}> ${text}`));
    },

    messageId: (message) => ({ channel: message.channelId, id: message.id }),
    async editMessage(id, msg) {
      await editChannelMessage(client, id.channel, id.id, msg, logger);
    },

    async close() {
      if (!inProcess) await client.destroy();
    },
  };
}

/** A thread on a surface: its channel, its key, its files, and what its end updates outside it. */
function discordThread(
  ctx: BotContext,
  surface: ChannelSurface,
  channel: string,
  key: string | undefined,
  attachments: IncomingFile[],
  ended: (run: Run | undefined, failure: string | undefined) => Promise<void>,
): ChatThread<Outgoing, Message> {
  const post = (msg: Outgoing) => surface.post(msg);
  return {
    ref: { channel },
    key,
    output: { post, edit: async (m, msg) => void (await editChannelMessage(m.client, m.channelId, m.id, msg, ctx.logger)), signs: discordTyping(ctx.client, channel, ctx.logger) },
    markup: discordThreadMarkup,
    inputs: () => threadInputs(attachments, hostDownloads(ctx.settings.inputLimits, { origins: ctx.settings.attachmentOrigins }), { post, note: discordThreadMarkup.note }),
    async ended(run, failure) {
      await ended(run, failure).catch((err: unknown) => ctx.logger.warn(`finishing the job failed: ${errorLine(err)}`));
    },
  };
}

/**
 * Opens a new run's thread (a `/run`, a `/generate`, a team program's run, a schedule's tick): its
 * root says "working" (the interaction's deferred answer, or the bot's own message in the channel
 * for a tick), a thread is started from it where possible, else the run answers in place and the
 * root says why. Never throws.
 * @returns the thread, and where the run lives in chat (its thread and root, stored with the run for
 *   later turns); undefined when a tick's root could not be posted (logged): nothing runs
 */
async function openRunThread(ctx: BotContext, request: IncomingRequest, token: LiveToken | undefined): Promise<OpenedThread<Outgoing, Message> | undefined> {
  const origin = request.origin as Partial<DiscordOrigin>;
  const channelId = request.where.channel;
  const fetched = await channelById(ctx.client, channelId);
  const channel = fetched?.isSendable() ? fetched : undefined;
  const canThread = Boolean(origin.canThread) || canThreadIn(fetched);
  const root = (state: RootState, inThread: boolean, note: string | undefined) => rootMessage({ ...requestRootSpec(request, state, inThread), ...(note ? { note } : {}) });
  const header = new Header(ctx.client, ctx.logger, token, channel);
  const first = await header.set(root({ state: 'working' }, canThread, undefined));
  if (!first && !token) return void ctx.logger.warn(`schedule ${request.scheduled?.id}: cannot post in channel ${channelId}`);
  let thread: SendableChannels | undefined;
  let note: string | undefined = origin.guildId && !fetched ? IN_PLACE.unseen : undefined;
  if (canThread && first) {
    thread = await startThreadFrom(ctx.client, first, threadName(request.text)).catch((err: unknown) => void ctx.logger.warn(`starting a thread failed: ${errorLine(err)}`));
    if (!thread) note = IN_PLACE.refused;
  } else note = canThread ? IN_PLACE.refused : (note ?? (origin.parentId ? IN_PLACE.inThread : IN_PLACE.noThreads));
  if (!thread) await header.set(root({ state: 'working' }, false, note));
  const where = thread?.id ?? channelId;
  const chat = { ...newRunChat(request), thread: { channel: where }, ...(thread ? {} : { inPlace: true }), ...(first ? { header: { channel: first.channelId, message: first.id } } : {}) };
  // a thread that refuses messages (permissions changed mid-run) falls back to follow-ups
  const surface = new ChannelSurface(thread ?? channel, ctx.logger, token);
  const opened = discordThread(ctx, surface, where, thread?.id, request.files, async (run, failure) => {
    await header.set(root(endedState(run, failure), thread !== undefined, note));
  });
  return { thread: opened, chat };
}

/**
 * The thread of a later turn on a run (a reply in its thread, a Re-run, an Improve): where the
 * request came from. A Re-run's or an Improve's interaction answer says what it was, then how it
 * ended; the turn's end refreshes the run's root.
 */
async function laterTurnThread(ctx: BotContext, request: IncomingRequest, token: LiveToken | undefined): Promise<ChatThread<Outgoing, Message>> {
  const channel = request.where.channel;
  const surface = new ChannelSurface(await sendableById(ctx.client, channel), ctx.logger, token);
  const action = request.kind === 'rerun' ? 'rerun' : request.kind === 'improve' ? 'improve' : undefined;
  const again: AgainSpec | undefined = action && { action, runId: request.runId ?? '', who: { id: request.who.userId }, ...(action === 'improve' && request.text ? { feedback: request.text } : {}) };
  const header = again && token ? new Header(ctx.client, ctx.logger, token) : undefined;
  if (again) await header?.set(againMessage(again));
  return discordThread(ctx, surface, channel, undefined, request.kind === 'reply' ? request.files : [], async (run) => {
    if (run) await refreshRunHeader(ctx, run);
    if (again) await header?.set(againMessage({ ...again, ended: { run } }));
  });
}

/**
 * Updates a run's root (its header, in the channel) as the bot's own message: after later turns,
 * which may come long after the interaction expired.
 */
async function refreshRunHeader(ctx: BotContext, run: Run): Promise<void> {
  const header = chatOf(run)?.header;
  if (header) await editChannelMessage(ctx.client, header.channel, header.message, rootMessage(runRootSpec(run, { state: 'ended', run })), ctx.logger);
}
