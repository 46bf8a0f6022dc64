/**
 * Discord's side of the chat port (src/chat/port.ts): messages are Discord payloads (render.ts:
 * 2000 characters, code blocks, files attached to the message they belong to, buttons), posted on
 * a {@link Surface} (the bot's messages in the thread, falling back to the interaction's follow-ups);
 * attachments are downloaded from Discord's file hosts (attachments.ts). A new run's thread is
 * started from the interaction's answer (its header) where the channel allows it, else the run
 * answers in place and the header says why.
 */
import type { Message, SendableChannels } from 'discord.js';
import type { ChatThread, ThreadMarkup, ThreadOutput } from '../../src/chat/port.js';
import { neutraliseFences } from '../../src/chat/format.js';
import type { Attempt, Run, RunChat } from '../../src/history/types.js';
import { chatOf } from '../../src/chat/run-chat.js';
import { downloadLimits, type BotContext } from './context.js';
import { inputFiles, type RemoteFile } from './attachments.js';
import type { Place } from './gate.js';
import {
  artifactMessages,
  codeMessage,
  finalMessage,
  finalState,
  headerMessage,
  improvingMessage,
  noticeMessage,
  oneLine,
  progressMessage,
  resultMessage,
  streamingCodeMessage,
  threadName,
  workingState,
  type JobKind,
  type Outgoing,
} from './render.js';
import { ChannelSurface, describe, editChannelMessage, Header, type InteractionReplies, type Surface } from './surface.js';

/** Discord's markup profile: each neutral view as a Discord message (render.ts). */
const discordMarkup: ThreadMarkup<Outgoing> = {
  progress(line) {
    switch (line.step) {
      case 'start':
        return progressMessage(
          line.turn === 'run'
            ? '⏳ Starting…'
            : line.turn === 'generate'
              ? '⏳ Writing code…'
              : line.turn === 'rerun'
                ? `🔁 Re-running for <@${line.userId}>…`
                : `💬 Improving with feedback from <@${line.userId}>…`,
        );
      case 'checks':
        return progressMessage('🧪 Deriving checks from the request…');
      case 'writing':
        return progressMessage(`⏳ Writing code · attempt ${line.attempt}…`);
      case 'running':
        return progressMessage(`⚙️ Running attempt ${line.attempt} in the sandbox…`);
      case 'finished': {
        const word = line.failed ? '❌ Finished with a failure' : line.run.status === 'unverified' ? '⚠️ Finished, not confirmed' : '✅ Finished';
        return progressMessage(`${word} after ${line.seconds.toFixed(1)} s`);
      }
      case 'stopped':
        return progressMessage('❌ Stopped by an error');
    }
  },
  partialCode: (attempt, _lastAttempt, code) => streamingCodeMessage(attempt, code),
  code(shown, streamed) {
    const attempt: Attempt = {
      index: shown.attempt,
      trigger: shown.trigger,
      code: shown.code,
      ...(shown.error ? { error: shown.error } : {}),
      usage: { promptTokens: 0, completionTokens: 0 },
      createdAt: new Date().toISOString(),
    };
    const final = codeMessage(attempt);
    // an edit cannot add files: the streamed message then points to the code posted below it
    if (streamed && final.files?.length) return { edit: { content: `**Attempt ${shown.attempt}** · the whole code is below` }, post: final };
    return { edit: final };
  },
  result: (view) => [resultMessage(view.attempt, view.result), ...artifactMessages(view.attempt, view.result)],
  notice: noticeMessage,
  improving: (view) => improvingMessage(view.retry, view.maxRetries, view.reason),
  final: finalMessage,
  failure: (reason) => ({ content: `⚠️ ${reason}` }),
  note: (text) => ({ content: `⚠️ ${neutraliseFences(text)}` }),
  withdrawn: (notice, correction) => ({ content: `ℹ️ ~~${neutraliseFences(oneLine(notice, 300))}~~ ${neutraliseFences(correction)}` }),
};

/** Posting on a surface (it never throws). */
function surfaceOutput(surface: Surface): ThreadOutput<Outgoing, Message> {
  return {
    post: (msg) => surface.post(msg),
    edit: async (message, msg) => void (await surface.edit(message, msg)),
  };
}

/** A thread on a surface: its reference, its files, and what its end updates outside it. */
function discordThread(
  ctx: BotContext,
  surface: Surface,
  where: { channel: string; key: string | undefined },
  attachments: RemoteFile[],
  ended: (run: Run | undefined, failure: string | undefined) => Promise<void>,
): ChatThread<Outgoing, Message> {
  return {
    ref: { channel: where.channel },
    key: where.key,
    output: surfaceOutput(surface),
    markup: discordMarkup,
    inputs: () => inputFiles(downloadLimits(ctx.settings), surface, attachments),
    async ended(run, failure) {
      try {
        await ended(run, failure);
      } catch (err) {
        ctx.logger.warn(`finishing the job failed: ${describe(err)}`);
      }
    },
  };
}

const CANNOT_SEE_CHANNEL =
  'ℹ️ I cannot see this channel (the bot needs the View Channel permission here to start threads), so I reply in place.';

/** Where and how a `/run` or `/generate` opens its thread; built by its processor (worker-jobs.ts). */
export interface NewRunThreadSpec {
  kind: Extract<JobKind, 'run' | 'generate'>;
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
  attachments: RemoteFile[];
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
  const first = await header.set(headerMessage(kind, requirement, userId, workingState(place.canThread, 0)));
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
      ctx.logger.warn(`starting a thread failed: ${describe(err)}`);
      note = 'ℹ️ I could not start a thread here, so I reply in place.';
    }
  } else if (spec.canThread) {
    note = 'ℹ️ I could not start a thread here, so I reply in place.';
  } else if (!note) {
    note = place.parentId ? 'ℹ️ Threads cannot be started inside a thread, so I reply in place.' : 'ℹ️ Threads cannot be started here, so I reply in place.';
  }
  if (!surface) {
    surface = new ChannelSurface(spec.channel, ctx.logger, spec.replies, receivedAt, ttl);
    await header.set(headerMessage(kind, requirement, userId, workingState(false, 0, note)));
  }
  const chat: RunChat = {
    thread: { channel: threadId ?? place.channelId },
    ...(threadId ? {} : { inPlace: true }),
    kind,
    ...(first ? { header: { channel: first.channelId, message: first.id } } : {}),
  };
  const thread = discordThread(ctx, surface, { channel: threadId ?? place.channelId, key: threadId }, spec.attachments, async (run, failure) => {
    const state = run ? finalState(run) : `⚠️ ${failure ?? 'failed'}`;
    await header.set(headerMessage(kind, requirement, userId, note ? `${state}\n${note}` : state));
  });
  return { thread, chat };
}

/** A Re-run or an Improve whose interaction was deferred; built by its processor (worker-jobs.ts). */
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
  const what = feedback === undefined ? '🔁 Re-run' : '💬 Improve';
  const quote = feedback ? `\n> ${oneLine(feedback, 300)}` : '';
  await header.set({ content: `${what} of run \`${runId}\` requested by <@${userId}>${quote}` });
  const surface = new ChannelSurface(spec.channel, ctx.logger, spec.replies, spec.receivedAt, ttl);
  return discordThread(ctx, surface, { channel: spec.channelId, key: undefined }, [], async (run) => {
    if (run) await refreshRunHeader(ctx, run);
    await header.set({ content: `${what} of run \`${runId}\` by <@${userId}>: ${run ? finalState(run) : 'failed'}${quote}` });
  });
}

/** The thread of a reply in it (its attachments become input files); its end refreshes the run's header. */
export function replyThread(ctx: BotContext, channel: SendableChannels | undefined, channelId: string, attachments: RemoteFile[]): ChatThread<Outgoing, Message> {
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
  const msg = headerMessage(chat.kind, run.requirement, run.requestedBy ?? 'unknown', finalState(run));
  await editChannelMessage(ctx.client, chat.header.channel, chat.header.message, msg, ctx.logger);
}
