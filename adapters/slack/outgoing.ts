/**
 * Slack's side of the outgoing port (src/chat/port.ts: OutgoingPort): a run's thread is the thread
 * of a channel message that names who asked, the requirement and the status; messages are mrkdwn
 * sections (markup.ts), files are uploaded after the message they belong to, and files given with a
 * request are downloaded with the bot token, from Slack's file hosts only (src/chat/input-downloads.ts). Posts go straight to the Web API with the
 * bot token, from the app's process or a queue worker alike. Where the workspace offers Slack's
 * agent surface, a thread's signs of work are its status and streamed messages (surface.ts).
 */
import { WebClient } from '@slack/web-api';
import type { Config } from '../../src/config/schema.js';
import type { ChatThread, MessageId, OutgoingPort, ThreadOutput } from '../../src/chat/port.js';
import { startsRun, type IncomingRequest } from '../../src/chat/incoming-port.js';
import { newRunChat } from '../../src/chat/run-chat.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import type { SlackOrigin } from './incoming.js';
import { hostDownloads, threadInputs, type InputDownloads } from '../../src/chat/input-downloads.js';
import { slackRenderer, slackThreadMarkup, type SlackOut } from './renderer.js';
import { uploadNoticeView } from '../../src/chat/view/upload-notice.js';
import { slackAnswers } from './answers.js';
import { clientOptions, SlackPoster, type Upload } from './poster.js';
import { ephemeral } from './requesters.js';
import { slackSettings, type SlackSettings } from './settings.js';
import { rootMessage } from './views.js';
import { endedRootSpec, requestRootSpec, runRootSpec, threadTitle, type RootSpec } from '../../src/chat/view/root-view.js';
import { slackSigns, SurfaceSupport } from './surface.js';

/**
 * How a request's files are downloaded: from `url_private` with the bot token
 * (https://docs.slack.dev/messaging/working-with-files#authenticating), only from Slack's file hosts
 * (or the configured API host), every redirect checked the same way.
 */
export function slackDownloads(settings: Pick<SlackSettings, 'botToken' | 'apiUrl' | 'inputLimits'>): InputDownloads {
  return hostDownloads(settings.inputLimits, { origins: ['https://files.slack.com', 'https://slack.com', new URL(settings.apiUrl).origin], headers: { authorization: `Bearer ${settings.botToken}` } });
}

/** Characters of a DM pane thread's title (our limit, kept short). */
const PANE_TITLE_CHARS = 80;

/** What Slack's outgoing side uses. */
interface Out {
  settings: SlackSettings;
  downloads: InputDownloads;
  poster: SlackPoster;
  log: ChatLog;
  /** What this process learnt of each workspace's agent surface. */
  support: SurfaceSupport;
}

/** Posting into one Slack thread; a file that cannot be uploaded is named in the thread with why. */
function slackOutput(out: Out, channel: string, threadTs: string, request: IncomingRequest): ThreadOutput<SlackOut, MessageId> {
  const uploadAll = async (uploads: Upload[] | undefined) => {
    for (const file of uploads ?? []) {
      try {
        await out.poster.upload(channel, threadTs, file);
      } catch (err) {
        out.log.warn(`slack: upload ${file.filename} failed:`, (err as Error).message);
        await out.poster.post(channel, slackRenderer.render(uploadNoticeView([{ name: file.filename }], (err as Error).message))[0]!.text, threadTs);
      }
    }
  };
  const team = (request.origin as SlackOrigin | undefined)?.team ?? '';
  return {
    signs: slackSigns(out.poster.client, { support: out.support, channel, threadTs, user: request.who.userId, team }, uploadAll),
    async post(msg) {
      const ts = await out.poster.post(channel, msg.text, threadTs, msg.plain, msg.buttons);
      await uploadAll(msg.uploads);
      return { channel, id: ts };
    },
    async edit(ref, msg) {
      await out.poster.update(ref.channel, ref.id, msg.text);
      await uploadAll(msg.uploads);
    },
  };
}

/** Edits a run's channel message to show `spec` (an edit notifies no one: its text is the sections'). @throws the poster's errors */
async function updateRoot(poster: SlackPoster, channel: string, ts: string, spec: RootSpec): Promise<void> {
  await poster.update(channel, ts, rootMessage(spec).sections);
}

/**
 * A Slack thread as the chat port's thread (the channel message's ts is the thread's key).
 * `started`: the channel message was posted for this request (it says so when no run came of it);
 * `pane`: the DM pane's thread, with no channel message.
 */
function slackThread(out: Out, channel: string, threadTs: string, request: IncomingRequest, where: { started?: boolean; pane?: boolean } = {}): ChatThread<SlackOut, MessageId> {
  const output = slackOutput(out, channel, threadTs, request);
  return {
    ref: { channel, thread: threadTs },
    key: threadTs,
    output,
    markup: slackThreadMarkup,
    inputs: () => threadInputs(request.files, out.downloads, { post: (msg) => output.post(msg), note: slackThreadMarkup.note }),
    async ended(run, failure) {
      if (where.pane) return; // the DM pane's thread has no channel message of ours to update
      const spec = endedRootSpec(run, failure, where.started ? request : undefined);
      if (spec) await updateRoot(out.poster, channel, threadTs, spec).catch((err: unknown) => out.log.warn('slack: updating the channel message failed:', (err as Error).message));
    },
  };
}

/**
 * Slack's outgoing port (of the app's in-memory queue, or of a queue worker).
 * @throws {ConfigError} when `slack.bot_token` is missing.
 */
export function slackOutgoing(config: Config, log: ChatLog): OutgoingPort<SlackOut, MessageId> {
  const settings = slackSettings(config, 'worker');
  const poster = new SlackPoster(new WebClient(settings.botToken, clientOptions(settings.apiUrl)));
  const out: Out = { settings, downloads: slackDownloads(settings), poster, log, support: new SurfaceSupport() };

  /** Tells the requester something only they see (plain text): through the command's response_url, else an ephemeral message. */
  async function tell(request: IncomingRequest, text: string): Promise<void> {
    const { responseUrl } = request.origin as SlackOrigin;
    const mrkdwn = slackAnswers.text(text);
    if (!responseUrl) return poster.ephemeral(request.where.channel, request.who.userId, mrkdwn, request.where.thread, true);
    // https://docs.slack.dev/interactivity/handling-user-interaction#message_responses
    const res = await fetch(responseUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ephemeral(mrkdwn)) }).catch((err: unknown) => err as Error);
    if (res instanceof Error || !res.ok) log.warn('slack: response_url failed', res instanceof Error ? res.message : res.status);
  }

  return {
    platform: 'slack',
    tell,

    async openThread(request) {
      const chat = newRunChat(request);
      const channel = request.where.channel;
      const pane = request.where.thread;
      if (pane !== undefined && channel.startsWith('D')) {
        // the DM pane's thread (assistant.ts): the run lives there, no channel message; titled from its request
        chat.thread.thread = pane;
        await poster.client.assistant.threads
          .setTitle({ channel_id: channel, thread_ts: pane, title: threadTitle(request.text, PANE_TITLE_CHARS, 'files') })
          .catch((err: unknown) => log.warn('slack: titling the thread failed:', (err as Error).message));
        return { thread: slackThread(out, channel, pane, request, { pane: true }), chat };
      }
      let threadTs: string;
      try {
        const { sections, plain } = rootMessage(requestRootSpec(request, { state: 'working' }));
        threadTs = await poster.post(channel, sections, undefined, plain);
      } catch (err) {
        if ((err as Error).name === 'NotInChannelError') await tell(request, 'I am not in this channel yet: invite me with `/invite @code-agent` (or the app\'s name), then try again.');
        else await tell(request, `Slack refused the message: ${(err as Error).message}`);
        log.warn('slack: opening a thread failed:', (err as Error).message);
        return undefined;
      }
      chat.thread.thread = threadTs;
      return { thread: slackThread(out, channel, threadTs, request, { started: true }), chat };
    },

    async runThread(request, run) {
      const channel = request.where.channel;
      const threadTs = request.where.thread ?? '';
      const who = { id: request.who.userId, ...(request.who.userName ? { name: request.who.userName } : {}) };
      const state = { state: 'again', action: request.kind === 'rerun' ? 'rerun' : 'improve', who } as const;
      if (run) await updateRoot(poster, channel, threadTs, runRootSpec(run, state)).catch(() => undefined);
      return slackThread(out, channel, threadTs, request);
    },

    async reopenThread(request, ref) {
      return slackThread(out, ref.channel, ref.thread ?? request.where.thread ?? '', request, { started: startsRun(request.kind) });
    },

    messageId: (ref) => ref,
    async editMessage(id, msg) {
      await poster.update(id.channel, id.id, msg.text).catch((err: unknown) => log.warn('slack: editing a message failed:', (err as Error).message));
    },
  };
}
