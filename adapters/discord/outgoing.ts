/**
 * Discord's side of the outgoing port (src/chat/port.ts: OutgoingPort): messages are Discord
 * payloads (renderer.ts, render.ts), posted on a {@link Surface} (the bot's messages in the thread,
 * falling back to the interaction's follow-ups); attachments are downloaded from Discord's file
 * hosts only (context.ts: attachmentOrigins; the loop: src/chat/input-downloads.ts). A new run's
 * thread is started from the interaction's answer (its header) where the channel allows it, else
 * the run answers in place and the header says why. Posts go
 * through Discord REST with the bot token — the interaction's follow-ups and response edits while
 * its token lives, the bot's own messages after that — from the bot's process (its logged-in
 * client) or a queue worker (a REST-only client).
 */
import { MessageFlags, type BaseMessageOptions, type Client, type Message, type SendableChannels } from 'discord.js';
import type { ChatThread, OutgoingPort, ThreadOutput } from '../../src/chat/port.js';
import { startsRun, type IncomingFile, type IncomingRequest } from '../../src/chat/incoming-port.js';
import type { Run, RunChat, TurnKind } from '../../src/history/types.js';
import type { Config } from '../../src/config/schema.js';
import { ConfigError } from '../../src/config/load.js';
import type { App } from '../../src/app/app.js';
import { chatOf } from '../../src/chat/run-chat.js';
import { settingsFrom, type BotContext, type DiscordSettings } from './context.js';
import { hostDownloads, threadInputs } from '../../src/chat/input-downloads.js';
import { placeOf, type DiscordOrigin, type Place } from './incoming.js';
import { discordThreadMarkup } from './renderer.js';
import { discordAnswers } from './answers.js';
import { againMessage, rootMessage, threadName, type Outgoing } from './render.js';
import { endedState, requestRootSpec, runRootSpec, type RootSpec } from '../../src/chat/view/root-view.js';
import { ChannelSurface, editChannelMessage, Header, NO_MENTIONS, type InteractionReplies, type Surface } from './surface.js';
import { errorLine } from '../../src/text/error-line.js';
import { channelById, restOnlyClient, sendableById, startThreadFrom, tokenReplies } from './worker-channels.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import { openScheduledThread } from './scheduled-thread.js';
import { discordTyping } from './typing.js';

/** Posting on a surface (it never throws). */
function surfaceOutput(surface: Surface, signs?: ThreadOutput<Outgoing, Message>['signs']): ThreadOutput<Outgoing, Message> {
  return {
    ...(signs ? { signs } : {}),
    post: (msg) => surface.post(msg),
    edit: async (message, msg) => void (await surface.edit(message, msg)),
  };
}

/** A thread on a surface: its reference, its files, and what its end updates outside it. */
function discordThread(
  ctx: BotContext,
  surface: Surface,
  where: { channel: string; key: string | undefined },
  attachments: IncomingFile[],
  ended: (run: Run | undefined, failure: string | undefined) => Promise<void>,
): ChatThread<Outgoing, Message> {
  return {
    ref: { channel: where.channel },
    key: where.key,
    output: surfaceOutput(surface, discordTyping(ctx.client, where.channel, ctx.logger)),
    markup: discordThreadMarkup,
    inputs: () => threadInputs(attachments, hostDownloads(ctx.settings.inputLimits, { origins: ctx.settings.attachmentOrigins }), { post: (msg) => surface.post(msg), note: discordThreadMarkup.note }),
    async ended(run, failure) {
      try {
        await ended(run, failure);
      } catch (err) {
        ctx.logger.warn(`finishing the job failed: ${errorLine(err)}`);
      }
    },
  };
}

const CANNOT_SEE_CHANNEL =
  'ℹ️ I cannot see this channel (the bot needs the View Channel permission here to start threads), so I reply in place.';

/** Where and how a `/run` or `/generate` opens its thread. */
export interface NewRunThreadSpec {
  kind: Extract<TurnKind, 'run' | 'generate'>;
  requirement: string;
  userId: string;
  place: Place;
  /** The interaction's original response (already deferred). */
  header: Header;
  /** Follow-ups while the interaction token lives. */
  replies: InteractionReplies;
  /** `Date.now()` when the interaction arrived (the token's age counts from there). */
  receivedAt: number;
  /** The command's channel, for in-place replies; undefined: follow-ups only. */
  channel: SendableChannels | undefined;
  /** A thread can be started here (guild text or announcement channel). */
  canThread: boolean;
  /** The bot could not look the channel up (says so in the header). */
  unseen: boolean;
  /** Starts a thread from the header message. @throws the REST error when Discord refuses. */
  startThread(first: Message, name: string): Promise<SendableChannels>;
  /** Files given with the command. */
  attachments: IncomingFile[];
}

/**
 * Opens a new run's thread: the header says "working", a thread is started from it where possible
 * (else the run answers in place and the header says why). Never throws.
 * @returns the thread, and where the run lives in chat (its thread and header, stored with the run for later turns)
 */
export async function openRunThread(ctx: BotContext, spec: NewRunThreadSpec): Promise<{ thread: ChatThread<Outgoing, Message>; chat: RunChat }> {
  const { kind, requirement, userId, place, header, receivedAt } = spec;
  const ttl = ctx.settings.interactionTokenTtlMs;
  header.fallBackTo(spec.channel);
  const root = (state: RootSpec['state'], inThread: boolean, note?: string) => rootMessage({ kind, requirement, who: { id: userId }, state, inThread, ...(note ? { note } : {}) });
  const first = await header.set(root({ state: 'working' }, spec.canThread));
  let surface: Surface | undefined;
  let threadId: string | undefined;
  let note: string | undefined = spec.unseen ? CANNOT_SEE_CHANNEL : undefined;
  if (spec.canThread && first) {
    try {
      const thread = await spec.startThread(first, threadName(requirement));
      threadId = thread.id;
      // a thread that refuses messages (permissions changed mid-run) falls back to follow-ups
      surface = new ChannelSurface(thread, ctx.logger, spec.replies, receivedAt, ttl);
    } catch (err) {
      ctx.logger.warn(`starting a thread failed: ${errorLine(err)}`);
      note = 'ℹ️ I could not start a thread here, so I reply in place.';
    }
  } else if (spec.canThread) {
    note = 'ℹ️ I could not start a thread here, so I reply in place.';
  } else if (!note) {
    note = place.parentId ? 'ℹ️ Threads cannot be started inside a thread, so I reply in place.' : 'ℹ️ Threads cannot be started here, so I reply in place.';
  }
  if (!surface) {
    surface = new ChannelSurface(spec.channel, ctx.logger, spec.replies, receivedAt, ttl);
    await header.set(root({ state: 'working' }, false, note));
  }
  const chat: RunChat = {
    thread: { channel: threadId ?? place.channelId },
    ...(threadId ? {} : { inPlace: true }),
    kind,
    ...(first ? { header: { channel: first.channelId, message: first.id } } : {}),
  };
  const thread = discordThread(ctx, surface, { channel: threadId ?? place.channelId, key: threadId }, spec.attachments, async (run, failure) => {
    await header.set(root(endedState(run, failure), threadId !== undefined, note));
  });
  return { thread, chat };
}

/** A Re-run or an Improve whose interaction was deferred. */
export interface ActionThreadSpec {
  replies: InteractionReplies;
  receivedAt: number;
  /** The interaction's channel (the run's thread, or the channel for in-place runs); undefined: follow-ups only. */
  channel: SendableChannels | undefined;
  channelId: string;
  runId: string;
  userId: string;
  /** Undefined for a re-run. */
  feedback: string | undefined;
}

/** The thread of a Re-run or an Improve: the interaction's answer says what it was, then how it ended. */
export async function actionThread(ctx: BotContext, spec: ActionThreadSpec): Promise<ChatThread<Outgoing, Message>> {
  const { runId, userId, feedback } = spec;
  const ttl = ctx.settings.interactionTokenTtlMs;
  const header = new Header(ctx.client, spec.replies, ctx.logger, spec.receivedAt, ttl);
  const again = { action: feedback === undefined ? 'rerun' : 'improve', runId, who: { id: userId }, ...(feedback ? { feedback } : {}) } as const;
  await header.set(againMessage(again));
  const surface = new ChannelSurface(spec.channel, ctx.logger, spec.replies, spec.receivedAt, ttl);
  return discordThread(ctx, surface, { channel: spec.channelId, key: undefined }, [], async (run) => {
    if (run) await refreshRunHeader(ctx, run);
    await header.set(againMessage({ ...again, ended: { run } }));
  });
}

/** The thread of a reply in it (its attachments become input files); its end refreshes the run's header. */
export function replyThread(ctx: BotContext, channel: SendableChannels | undefined, channelId: string, attachments: IncomingFile[]): ChatThread<Outgoing, Message> {
  return discordThread(ctx, new ChannelSurface(channel, ctx.logger), { channel: channelId, key: undefined }, attachments, async (run) => {
    if (run) await refreshRunHeader(ctx, run);
  });
}

/**
 * Updates a run's first message (its header, in the channel) as the bot's own message: used after
 * re-runs and improvements, which may come long after the interaction expired.
 */
export async function refreshRunHeader(ctx: BotContext, run: Run): Promise<void> {
  const chat = chatOf(run);
  if (!chat?.header) return;
  const msg = rootMessage(runRootSpec(run, { state: 'ended', run }));
  await editChannelMessage(ctx.client, chat.header.channel, chat.header.message, msg, ctx.logger);
}

/** What the bot's own process lends its jobs: its logged-in client, settings and logger. */
export interface InProcess {
  client: Client;
  settings: DiscordSettings;
  logger: ChatLog;
}

/** The parts of a Discord request the outgoing side reads. */
function partsOf(request: IncomingRequest): { origin: DiscordOrigin; place: Place; kind: Extract<TurnKind, 'run' | 'generate'> } {
  const origin = request.origin as DiscordOrigin;
  const place: Place = { guildId: origin.guildId, channelId: request.where.channel, parentId: origin.parentId, canThread: origin.canThread };
  return { origin, place, kind: request.kind === 'generate' ? 'generate' : 'run' };
}

/**
 * Discord's outgoing port: of a queue worker (a REST-only client of its own, dropped by `close()`),
 * or of the bot's in-memory queue (`inProcess`: the bot's client, kept open by `close()`).
 * @throws {ConfigError} when `discord.token` is missing (a worker).
 */
export function discordOutgoing(app: App, config: Config, log: ChatLog, inProcess?: InProcess): OutgoingPort<Outgoing, Message> {
  const token = config.discord?.token;
  if (!inProcess && !token) throw new ConfigError('discord.token is not set: the worker posts Discord jobs with the bot token (DISCORD_TOKEN), as the gateway process has it');
  const client = inProcess?.client ?? restOnlyClient(token!, config.discord?.api_url);
  const logger: ChatLog = inProcess?.logger ?? { info: (...m) => log.info('discord:', ...m), warn: (...m) => log.warn('discord:', ...m), error: (...m) => log.error('discord:', ...m) };
  const ctx: BotContext = { app, client, logger, settings: inProcess?.settings ?? settingsFrom(config.discord) };
  const ttl = ctx.settings.interactionTokenTtlMs;
  /** The interaction's follow-ups and response edits (undefined for a message: it has no token). */
  const repliesOf = (origin: DiscordOrigin) => (origin.token && origin.applicationId ? tokenReplies(client, origin.applicationId, origin.token) : undefined);

  return {
    platform: 'discord',

    async openThread(request) {
      if (request.scheduled) return openScheduledThread(ctx, client, request);
      const { origin, place, kind } = partsOf(request);
      const replies = repliesOf(origin)!;
      const fetched = await channelById(client, place.channelId);
      return openRunThread(ctx, {
        kind,
        requirement: request.text,
        userId: request.who.userId,
        place,
        header: new Header(client, replies, logger, request.receivedAt, ttl),
        replies,
        receivedAt: request.receivedAt,
        channel: fetched?.isSendable() ? fetched : undefined,
        canThread: place.canThread || placeOf(place.guildId, place.channelId, fetched).canThread,
        unseen: Boolean(place.guildId) && !fetched,
        startThread: (first, name) => startThreadFrom(client, first, name),
        attachments: request.files,
      });
    },

    async runThread(request) {
      const channel = await sendableById(client, request.where.channel);
      if (request.kind === 'reply') return replyThread(ctx, channel, request.where.channel, request.files);
      return actionThread(ctx, {
        replies: repliesOf(partsOf(request).origin)!,
        receivedAt: request.receivedAt,
        channel,
        channelId: request.where.channel,
        runId: request.runId ?? '',
        userId: request.who.userId,
        feedback: request.kind === 'improve' ? request.text : undefined,
      });
    },

    async reopenThread(request, ref) {
      const replies = repliesOf(partsOf(request).origin);
      // in the thread (or channel) where it rendered; else, while its token lives, as a follow-up
      const surface = new ChannelSurface(await sendableById(client, ref.channel), logger, replies, request.receivedAt, ttl);
      return discordThread(ctx, surface, { channel: ref.channel, key: undefined }, [], async (run, failure) => {
        if (run) return refreshRunHeader(ctx, run);
        const failed = requestRootSpec(request, endedState(undefined, failure), false);
        if (startsRun(request.kind) && replies) await new Header(client, replies, logger, request.receivedAt, ttl).set(rootMessage(failed));
      });
    },

    async tell(request, text) {
      const replies = repliesOf(partsOf(request).origin);
      const { content } = discordAnswers.text(text);
      if (replies && Date.now() - request.receivedAt < ttl) {
        await replies.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS } as BaseMessageOptions).catch((err: unknown) => logger.warn(`telling the requester failed: ${errorLine(err)}`));
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
