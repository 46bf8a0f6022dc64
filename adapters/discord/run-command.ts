/**
 * The `/run` and `/generate` job (its interaction already deferred): answer in the channel, open a
 * thread from that answer and render the job there. Where no thread can be started (inside a
 * thread, a forum post, a DM), the job replies in place and says so.
 */
import type { ChatInputCommandInteraction, Message, SendableChannels } from 'discord.js';
import { downloadLimits, type BotContext } from './context.js';
import { runJob } from './job.js';
import { finalState, headerMessage, threadName, workingState, type JobKind } from './render.js';
import { ChannelSurface, Header, describe, NO_MENTIONS, type InteractionReplies, type Surface } from './surface.js';
import type { Place } from './gate.js';
import { inputFiles, type RemoteFile } from './attachments.js';
import { withInputFilesNote } from '../../src/chat/input-note.js';

const CANNOT_SEE_CHANNEL =
  'ℹ️ I cannot see this channel (the bot needs the View Channel permission here to start threads), so I reply in place.';

/** Replies ephemerally (only the requester sees it); never throws. */
export async function replyEphemeral(ctx: BotContext, interaction: { reply: ChatInputCommandInteraction['reply'] }, content: string): Promise<void> {
  try {
    await interaction.reply({ content, flags: 'Ephemeral', allowedMentions: NO_MENTIONS });
  } catch (err) {
    ctx.logger.warn(`ephemeral reply failed: ${describe(err)}`);
  }
}

/** Where and how a `/run` or `/generate` job renders; built by its processor (discord/worker-jobs.ts). */
export interface RunJobSpec {
  kind: Extract<JobKind, 'run' | 'generate'>;
  requirement: string;
  userId: string;
  place: Place;
  conversation: string;
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
  /** Called with the id of the thread (or channel) the job renders in, before the agent starts. */
  onThread?: (id: string) => Promise<void>;
  /** Called once with the run id. */
  onRunId?: (runId: string) => Promise<void>;
  /** Files given with the command (downloaded into the sandbox's input files). */
  attachments?: RemoteFile[];
}

/**
 * Runs a `/run` or `/generate` job whose interaction was deferred: the header says "working", a
 * thread is started from it where possible (else the job replies in place and says why), and the
 * agent's progress and result render there. Never throws.
 */
export async function startRunJob(ctx: BotContext, spec: RunJobSpec): Promise<void> {
  const { kind, requirement, userId, place, conversation, header, receivedAt } = spec;
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
    note = place.parentId
      ? 'ℹ️ Threads cannot be started inside a thread, so I reply in place.'
      : 'ℹ️ Threads cannot be started here, so I reply in place.';
  }
  if (!surface) {
    surface = new ChannelSurface(spec.channel, ctx.logger, spec.replies, receivedAt, ttl);
    await header.set(headerMessage(kind, requirement, userId, workingState(false, 0, note)));
  }
  await spec.onThread?.(threadId ?? place.channelId).catch((err: unknown) => ctx.logger.warn(`recording the job's thread failed: ${describe(err)}`));
  const meta: Record<string, string> = {
    kind,
    ...(place.guildId ? { guildId: place.guildId } : {}),
    channelId: place.channelId,
    ...(threadId ? { threadId } : {}),
    ...(first ? { headerChannelId: first.channelId, headerMessageId: first.id } : {}),
  };
  const files = await inputFiles(downloadLimits(ctx.settings), surface, spec.attachments ?? []);
  const asked = withInputFilesNote(requirement, files);
  const options = { requestedBy: userId, meta, ...(files.length ? { inputFiles: files } : {}) };
  await runJob(ctx, {
    surface,
    conversation,
    startText: kind === 'run' ? '⏳ Starting…' : '⏳ Writing code…',
    call: (onEvent) =>
      kind === 'run' ? ctx.app.agent.run(conversation, asked, { ...options, onEvent }) : ctx.app.agent.generate(conversation, asked, { ...options, onEvent }),
    onRunId: async (runId) => {
      if (threadId) await ctx.app.store.linkThread(conversation, threadId, runId);
      await spec.onRunId?.(runId);
    },
    onFinish: async (run, failure) => {
      const state = run ? finalState(run) : `⚠️ ${failure ?? 'failed'}`;
      await header.set(headerMessage(kind, requirement, userId, note ? `${state}\n${note}` : state));
    },
  });
}
