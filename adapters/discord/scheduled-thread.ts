/**
 * A thread for a schedule's tick on Discord (src/schedules): no interaction asked for it,
 * so the bot posts its own header message in the schedule's channel and starts a thread from it
 * (a channel where threads cannot be started gets the run in place, under the header). The header
 * is edited to the run's final status when the tick ends.
 */
import type { Client, Message } from 'discord.js';
import type { ChatThread } from '../../src/chat/port.js';
import type { IncomingRequest } from '../../src/chat/incoming-port.js';
import type { Run, RunChat } from '../../src/history/types.js';
import type { BotContext } from './context.js';
import { discordThreadMarkup } from './renderer.js';
import { rootMessage, threadName, type Outgoing } from './render.js';
import type { RootState } from '../../src/chat/view/root-view.js';
import { ChannelSurface, editChannelMessage, NO_MENTIONS, toOptions } from './surface.js';
import { errorLine } from '../../src/text/error-line.js';
import { sendableById, startThreadFrom } from './worker-channels.js';

/** The header of a scheduled run: what runs, who scheduled it (never a ping), and its state. */
export function scheduledHeader(request: IncomingRequest, state: RootState, inThread: boolean): Outgoing {
  return rootMessage({ kind: 'scheduled', requirement: request.text, who: { id: request.who.userId, ...(request.who.userName ? { name: request.who.userName } : {}) }, state, inThread });
}

/**
 * Opens a tick's thread (see the module comment). Never throws.
 * @returns undefined when the bot cannot post in the channel (logged)
 */
export async function openScheduledThread(ctx: BotContext, client: Client, request: IncomingRequest): Promise<{ thread: ChatThread<Outgoing, Message>; chat: RunChat } | undefined> {
  const channel = await sendableById(client, request.where.channel);
  if (!channel) {
    ctx.logger.warn(`schedule ${request.scheduled?.id}: cannot post in channel ${request.where.channel}`);
    return undefined;
  }
  let first: Message;
  try {
    first = await channel.send({ ...toOptions(scheduledHeader(request, { state: 'working' }, true)), allowedMentions: NO_MENTIONS });
  } catch (err) {
    ctx.logger.warn(`schedule ${request.scheduled?.id}: posting in channel ${request.where.channel} failed: ${errorLine(err)}`);
    return undefined;
  }
  let threadId: string | undefined;
  let surface = new ChannelSurface(channel, ctx.logger);
  try {
    const thread = await startThreadFrom(client, first, threadName(request.text));
    threadId = thread.id;
    surface = new ChannelSurface(thread, ctx.logger);
  } catch (err) {
    ctx.logger.warn(`schedule ${request.scheduled?.id}: starting a thread failed (the run is posted in place): ${errorLine(err)}`);
  }
  const where = threadId ?? request.where.channel;
  const chat: RunChat = { thread: { channel: where }, ...(threadId ? {} : { inPlace: true }), kind: 'run', header: { channel: first.channelId, message: first.id } };
  const thread: ChatThread<Outgoing, Message> = {
    ref: { channel: where },
    key: threadId,
    output: { post: (msg) => surface.post(msg), edit: async (m, msg) => void (await surface.edit(m, msg)) },
    markup: discordThreadMarkup,
    inputs: async () => [],
    async ended(run: Run | undefined, failure: string | undefined) {
      const state: RootState = run ? { state: 'ended', run } : { state: 'failed', reason: failure ?? 'failed' };
      await editChannelMessage(client, first.channelId, first.id, scheduledHeader(request, state, threadId !== undefined), ctx.logger).catch(() => undefined);
    },
  };
  return { thread, chat };
}
