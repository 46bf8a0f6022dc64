/**
 * Slack's side of the outgoing port (src/chat/port.ts: OutgoingPort): a run's thread is the thread
 * of a channel message (its "root": who asked, the requirement and the status, edited when a turn
 * starts again and when it ends), or the DM pane's thread (messages.ts); messages are mrkdwn
 * sections (renderer.ts), files are uploaded after the message they belong to, and files given with
 * a request are downloaded with the bot token, from Slack's file hosts only
 * (src/chat/input-downloads.ts). Posts go straight to the Web API with the bot token, from the
 * app's process or a queue worker alike. Where the workspace offers Slack's agent surface, a
 * thread's signs of work are its status and streamed messages (surface.ts).
 */
import { WebClient } from '@slack/web-api';
import type { Config } from '../../src/config/schema.js';
import type { ChatThread, MessageId, OutgoingPort } from '../../src/chat/port.js';
import { startsRun, type IncomingRequest } from '../../src/chat/incoming-port.js';
import { newRunChat } from '../../src/chat/run-chat.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import { hostDownloads, threadInputs, type InputDownloads } from '../../src/chat/input-downloads.js';
import { uploadNoticeView } from '../../src/chat/view/upload-notice.js';
import { endedRootSpec, requestRootSpec, runRootSpec, threadTitle } from '../../src/chat/view/root-view.js';
import type { SlackOrigin } from './incoming.js';
import { rootMessage, slackRenderer, slackThreadMarkup, type SlackOut, type Upload } from './renderer.js';
import { ephemeral, slackAnswers } from './requesters.js';
import { clientOptions, SlackPoster } from './poster.js';
import { slackSettings, type SlackSettings } from './settings.js';
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

/**
 * Slack's outgoing port (of the app's in-memory queue, or of a queue worker).
 * @throws {ConfigError} when `slack.bot_token` is missing.
 */
export function slackOutgoing(config: Config, log: ChatLog): OutgoingPort<SlackOut, MessageId> {
  const settings = slackSettings(config, 'worker');
  const poster = new SlackPoster(new WebClient(settings.botToken, clientOptions(settings.apiUrl)));
  const downloads = slackDownloads(settings);
  /** What this process learnt of each workspace's agent surface. */
  const support = new SurfaceSupport();
  const warn = (what: string) => (err: unknown) => log.warn(`slack: ${what} failed:`, (err as Error).message);

  /** Tells the requester something only they see (plain text): through the command's response_url, else an ephemeral message. */
  async function tell(request: IncomingRequest, text: string): Promise<void> {
    const { responseUrl } = request.origin as SlackOrigin;
    const mrkdwn = slackAnswers.text(text);
    if (!responseUrl) return poster.ephemeral(request.where.channel, request.who.userId, mrkdwn, request.where.thread);
    // https://docs.slack.dev/interactivity/handling-user-interaction#message_responses
    const res = await fetch(responseUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ephemeral(mrkdwn)) }).catch((err: unknown) => err as Error);
    if (res instanceof Error || !res.ok) log.warn('slack: response_url failed', res instanceof Error ? res.message : res.status);
  }

  /**
   * A Slack thread as the chat port's thread (the channel message's ts is the thread's key); a file
   * that cannot be uploaded is named in the thread with why. `started`: the channel message was posted
   * for this request (it says so when no run came of it); `pane`: the DM pane's thread, with no channel message.
   */
  function slackThread(channel: string, threadTs: string, request: IncomingRequest, where: { started?: boolean; pane?: boolean } = {}): ChatThread<SlackOut, MessageId> {
    const uploadAll = async (uploads: Upload[] | undefined) => {
      for (const file of uploads ?? []) {
        await poster.upload(channel, threadTs, file).catch(async (err: unknown) => {
          warn(`upload ${file.filename}`)(err);
          await poster.post(channel, slackRenderer.render(uploadNoticeView([{ name: file.filename }], (err as Error).message))[0]!, threadTs);
        });
      }
    };
    const team = (request.origin as SlackOrigin | undefined)?.team ?? '';
    const output = {
      signs: slackSigns(poster.client, { support, channel, threadTs, user: request.who.userId, team }, uploadAll),
      async post(msg: SlackOut) {
        const ts = await poster.post(channel, msg, threadTs);
        await uploadAll(msg.uploads);
        return { channel, id: ts };
      },
      async edit(ref: MessageId, msg: SlackOut) {
        await poster.update(ref.channel, ref.id, msg);
        await uploadAll(msg.uploads);
      },
    };
    return {
      ref: { channel, thread: threadTs },
      key: threadTs,
      output,
      markup: slackThreadMarkup,
      inputs: () => threadInputs(request.files, downloads, { post: output.post, note: slackThreadMarkup.note }),
      async ended(run, failure) {
        const spec = where.pane ? undefined : endedRootSpec(run, failure, where.started ? request : undefined);
        if (spec) await poster.update(channel, threadTs, { text: rootMessage(spec).sections }).catch(warn('updating the channel message'));
      },
    };
  }

  return {
    platform: 'slack',
    tell,

    async openThread(request) {
      const chat = newRunChat(request);
      const channel = request.where.channel;
      const pane = request.where.thread;
      if (pane !== undefined && channel.startsWith('D')) {
        // the DM pane's thread: the run lives there, no channel message; titled from its request
        chat.thread.thread = pane;
        const title = threadTitle(request.text, PANE_TITLE_CHARS, 'files');
        await poster.client.assistant.threads.setTitle({ channel_id: channel, thread_ts: pane, title }).catch(warn('titling the thread'));
        return { thread: slackThread(channel, pane, request, { pane: true }), chat };
      }
      const { sections, plain } = rootMessage(requestRootSpec(request, { state: 'working' }));
      const threadTs = await poster.post(channel, { text: sections, plain }).catch(async (err: unknown) => {
        if ((err as Error).name === 'NotInChannelError') await tell(request, 'I am not in this channel yet: invite me with `/invite @code-agent` (or the app\'s name), then try again.');
        else await tell(request, `Slack refused the message: ${(err as Error).message}`);
        warn('opening a thread')(err);
      });
      if (threadTs === undefined) return undefined;
      chat.thread.thread = threadTs;
      return { thread: slackThread(channel, threadTs, request, { started: true }), chat };
    },

    async runThread(request, run) {
      const channel = request.where.channel;
      const threadTs = request.where.thread ?? '';
      const who = { id: request.who.userId, ...(request.who.userName ? { name: request.who.userName } : {}) };
      const state = { state: 'again', action: request.kind === 'rerun' ? 'rerun' : 'improve', who } as const;
      if (run) await poster.update(channel, threadTs, { text: rootMessage(runRootSpec(run, state)).sections }).catch(() => undefined);
      return slackThread(channel, threadTs, request);
    },

    reopenThread: async (request, ref) => slackThread(ref.channel, ref.thread ?? request.where.thread ?? '', request, { started: startsRun(request.kind) }),
    messageId: (ref) => ref,
    async editMessage(id, msg) {
      await poster.update(id.channel, id.id, msg).catch(warn('editing a message'));
    },
  };
}
