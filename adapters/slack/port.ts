/**
 * Slack's side of the chat port (src/chat/port.ts): a run's thread is the thread of a channel
 * message that names who asked, the requirement and the status; messages are mrkdwn sections
 * (views.ts), files are uploaded after the message they belong to, and attached files are
 * downloaded with the bot token (inputs.ts).
 */
import type { Run, RunChat } from '../../src/history/types.js';
import type { RunPayload } from './queued.js';
import type { ChatThread, ThreadMarkup, ThreadOutput } from '../../src/chat/port.js';
import type { JobContext } from './context.js';
import { downloadInputs, type SlackFile } from './inputs.js';
import { inlineText, type SlackButton } from './mrkdwn.js';
import type { Upload } from './poster.js';
import {
  codeView,
  finalStatus,
  finalText,
  improvingText,
  noticeText,
  progressText,
  resultView,
  rootText,
  runButtons,
  streamingCodeView,
} from './views.js';

/** One Slack message of a thread: mrkdwn sections, its notification text, buttons, and files uploaded after it. */
export interface SlackOut {
  text: string | string[];
  /** The notification text (already escaped); default the sections joined. */
  plain?: string;
  buttons?: SlackButton[];
  uploads?: Upload[];
}

/** Slack's markup profile: each neutral view as mrkdwn under Slack's limits (views.ts). */
const slackMarkup: ThreadMarkup<SlackOut> = {
  progress(line) {
    switch (line.step) {
      case 'start':
        return undefined; // the channel message already says it is working
      case 'checks':
        return { text: '⏳ Deriving checks from the request…' };
      case 'writing':
      case 'running':
        return { text: progressText(line.attempt, line.lastAttempt, line.step === 'writing' ? 'generating code…' : 'running…') };
      case 'finished':
        return { text: `Finished: ${finalStatus(line.run)}` };
      case 'stopped':
        return { text: 'Finished: ❌ failed' };
    }
  },
  partialCode: (attempt, lastAttempt, code) => ({ text: streamingCodeView(code, `*Code* (attempt ${attempt}/${lastAttempt}):`) }),
  code(shown) {
    const label = `*Code* (attempt ${shown.attempt}/${shown.lastAttempt}):`;
    if (!shown.code) return { edit: { text: `${label} the reply had no usable code: ${inlineText(shown.error ?? 'no code', 500)}` } };
    const view = codeView(shown.code, label);
    const uploads = view.truncated ? [{ filename: `attempt-${shown.attempt}.py`, content: shown.code, snippetType: 'python' }] : [];
    return { edit: { text: view.text, uploads } };
  },
  result(view) {
    const shown = resultView(view.result, `*Result* (attempt ${view.attempt}/${view.lastAttempt}):`);
    const uploads: Upload[] = [
      ...(shown.stdoutCut ? [{ filename: 'stdout.txt', content: view.result.stdout, snippetType: 'text' }] : []),
      ...(shown.stderrCut ? [{ filename: 'stderr.txt', content: view.result.stderr, snippetType: 'text' }] : []),
      ...view.result.artifacts.map((a) => ({ filename: a.name, path: a.path })),
    ];
    return [{ text: shown.sections, plain: shown.plain, uploads }];
  },
  notice: (notice) => ({ text: noticeText(notice) }),
  improving: (view) => ({ text: improvingText(view.attempt, view.lastAttempt, view.reason) }),
  final: (run, workspace) => ({ text: workspace ? [finalText(run), inlineText(workspace, 600)] : [finalText(run)], buttons: runButtons(run) }),
  failure: (reason) => ({ text: `❌ *Failed*: ${inlineText(reason, 500)}` }),
  note: (text) => ({ text: `⚠️ ${inlineText(text, 600)}` }),
  withdrawn: (notice, correction) => ({ text: `ℹ️ ~${inlineText(notice, 300)}~ ${inlineText(correction, 600)}` }),
};

/** Posting into one Slack thread; a file that cannot be uploaded is named in the thread with why. */
function slackOutput(ctx: JobContext, channel: string, threadTs: string): ThreadOutput<SlackOut, string> {
  const uploadAll = async (uploads: Upload[] | undefined) => {
    for (const file of uploads ?? []) {
      try {
        await ctx.poster.upload(channel, threadTs, file);
      } catch (err) {
        ctx.log.warn(`slack: upload ${file.filename} failed:`, (err as Error).message);
        await ctx.poster.post(channel, `⚠️ Could not upload \`${inlineText(file.filename, 100)}\`: ${inlineText((err as Error).message, 300)}`, threadTs);
      }
    }
  };
  return {
    async post(msg) {
      const ts = await ctx.poster.post(channel, msg.text, threadTs, msg.plain, msg.buttons);
      await uploadAll(msg.uploads);
      return ts;
    },
    async edit(ts, msg) {
      await ctx.poster.update(channel, ts, Array.isArray(msg.text) ? msg.text.join('\n') : msg.text);
      await uploadAll(msg.uploads);
    },
  };
}

/** Where a Slack run lives: its channel, its thread (the channel message's ts), and who asked. */
export interface SlackThreadSpec {
  channel: string;
  threadTs: string;
  /** Files given with the request (downloaded with the bot token). */
  files: SlackFile[] | undefined;
  /** What the channel message shows when the call fails before its run exists (a new run). */
  root?: Pick<Run, 'requirement' | 'requestedBy' | 'chat'>;
}

/** A Slack thread as the chat port's thread (the channel message's ts is the thread's key). */
export function slackThread(ctx: JobContext, spec: SlackThreadSpec): ChatThread<SlackOut, string> {
  const { channel, threadTs } = spec;
  const output = slackOutput(ctx, channel, threadTs);
  return {
    ref: { channel, thread: threadTs },
    key: threadTs,
    output,
    markup: slackMarkup,
    async inputs() {
      if (!spec.files?.length) return [];
      const inputs = await downloadInputs(spec.files, ctx.settings);
      if (inputs.skipped.length > 0) {
        await output.post({ text: `⚠️ Some attached files were not used:\n${inputs.skipped.map((s) => `• ${inlineText(s, 300)}`).join('\n')}` }).catch(() => undefined);
      }
      return inputs.files;
    },
    async ended(run, failure) {
      const text = run
        ? rootText(run, finalStatus(run))
        : spec.root && rootText(spec.root, `❌ failed: ${inlineText(failure ?? 'failed', 300)}`);
      if (text) await ctx.poster.update(channel, threadTs, text).catch((err: unknown) => ctx.log.warn('slack: updating the channel message failed:', (err as Error).message));
    },
  };
}

/**
 * Opens a new run's thread: the channel message that names who asked, the requirement and the
 * status. When Slack refuses it, the requester is told privately (`tell`, mrkdwn): to invite the
 * app when it is not in the channel (nothing is run, undefined is returned), else Slack's error.
 * @returns the thread, and where the run lives in chat (stored with the run)
 * @throws Slack's error other than "not in channel", after telling the requester
 */
export async function openRunThread(
  ctx: JobContext,
  kind: 'run' | 'generate',
  p: Pick<RunPayload, 'channel' | 'user' | 'userName' | 'requirement' | 'files'>,
  tell: (text: string) => Promise<void>,
): Promise<{ thread: ChatThread<SlackOut, string>; chat: RunChat } | undefined> {
  const chat: RunChat = { thread: { channel: p.channel }, kind, ...(p.userName ? { userName: p.userName } : {}) };
  const root = { requirement: p.requirement.trim(), requestedBy: p.user, chat };
  let threadTs: string;
  try {
    threadTs = await ctx.poster.post(p.channel, rootText(root, '⏳ working…'), undefined, `${inlineText(p.userName ?? 'someone', 80)} asked: ${inlineText(p.requirement, 200)}`);
  } catch (err) {
    if ((err as Error).name === 'NotInChannelError') {
      await tell('I am not in this channel yet: invite me with `/invite @code-agent` (or the app\'s name), then try again.');
      return undefined;
    }
    await tell(`Slack refused the message: ${(err as Error).message}`);
    throw err;
  }
  chat.thread.thread = threadTs;
  return { thread: slackThread(ctx, { channel: p.channel, threadTs, files: p.files, root }), chat };
}
