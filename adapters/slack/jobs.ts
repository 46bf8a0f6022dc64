/**
 * The jobs behind `/run`, `/generate` and a thread reply: post the channel message (new runs),
 * call the agent with a {@link ThreadRenderer} as listener, and always end with a final message.
 */
import type { Run } from '../../src/history/types.js';
import type { InputFile } from '../../src/sandbox/types.js';
import type { AgentEvent } from '../../src/agent/events.js';
import { conversationId, type SlackContext } from './context.js';
import { ThreadRenderer, type ThreadTarget } from './thread.js';
import { rootText } from './views.js';
import { downloadInputs, type SlackFile } from './inputs.js';
import { withInputFilesNote } from '../../src/chat/input-note.js';
import { inlineText } from './mrkdwn.js';
import { callAgent } from '../../src/chat/agent-call.js';

/** A new run asked for with a slash command. */
export interface NewRunRequest {
  kind: 'run' | 'generate';
  team: string | undefined;
  channel: string;
  user: string;
  userName: string | undefined;
  requirement: string;
  /** Files attached to the message that started the run (downloaded as input files). */
  files?: SlackFile[];
  /** Tells the user something only they see (the slash command's response_url, or an ephemeral message). */
  tell: (text: string) => Promise<void>;
  /** Called with the thread's ts once the channel message is posted (queue mode records it on the job). */
  onThread?: (threadTs: string) => Promise<void>;
}

/** What the jobs use of the adapter's context (a worker has no receiver, limiter or dedupe). */
export type JobContext = Pick<SlackContext, 'core' | 'poster' | 'settings' | 'log'>;

/**
 * Posts the channel message, links its thread to the run, runs or generates, renders into the thread.
 * `NotInChannelError` on the first post is reported to the user (invite the app); nothing is run.
 */
export async function newRunJob(ctx: JobContext, req: NewRunRequest): Promise<void> {
  const { core, poster } = ctx;
  const conv = conversationId(req.team, req.channel);
  const meta: Record<string, string> = { channel: req.channel, kind: req.kind, ...(req.userName ? { userName: req.userName } : {}) };
  const draft = { requirement: req.requirement.trim(), requestedBy: req.user, meta };
  let threadTs: string;
  try {
    threadTs = await poster.post(req.channel, rootText(draft, '⏳ working…', req.kind), undefined, `${inlineText(req.userName ?? 'someone', 80)} asked: ${inlineText(req.requirement, 200)}`);
  } catch (err) {
    if ((err as Error).name === 'NotInChannelError') {
      await req.tell('I am not in this channel yet: invite me with `/invite @code-agent` (or the app\'s name), then try again.');
      return;
    }
    await req.tell(`Slack refused the message: ${(err as Error).message}`);
    throw err;
  }
  meta.threadTs = threadTs;
  await req.onThread?.(threadTs);
  const inputs = await inputsOf(ctx, req.channel, threadTs, req.files);
  const requirement = withInputFilesNote(req.requirement, inputs);
  const options = { requestedBy: req.user, meta, ...(inputs.length ? { inputFiles: inputs } : {}) };
  const target: ThreadTarget = { channel: req.channel, threadTs, firstAttempt: 1, maxRetries: core.agent.maxRetries, kind: req.kind, root: draft };
  await render(ctx, conv, target, (onEvent) =>
    req.kind === 'generate' ? core.agent.generate(conv, requirement, { ...options, onEvent }) : core.agent.run(conv, requirement, { ...options, onEvent }),
  );
}

/** A request on the run of a thread: a reply (or the Improve button's feedback), or a Re-run. */
export interface ThreadRequest {
  team: string | undefined;
  channel: string;
  threadTs: string;
  user: string;
}

/** A reply in a run's thread, or the feedback typed after the Improve button. */
export interface ReplyRequest extends ThreadRequest {
  text: string;
  files: SlackFile[] | undefined;
}

/** The Re-run button: runs the latest code of the thread's run again. */
export async function rerunJob(ctx: JobContext, req: ThreadRequest): Promise<void> {
  const { core, poster } = ctx;
  const conv = conversationId(req.team, req.channel);
  const run = await turnOf(ctx, conv, req);
  if (!run) return;
  await poster.update(req.channel, req.threadTs, rootText(run, `⏳ re-running (for ${inlineText(req.user, 40)})…`, run.meta?.kind));
  const target: ThreadTarget = { channel: req.channel, threadTs: req.threadTs, firstAttempt: run.attempts.length + 1, maxRetries: core.agent.maxRetries, kind: 'improve' };
  await render(ctx, conv, target, (onEvent) => core.agent.execute(run, { requestedBy: req.user, onEvent }), run);
}

/** Improves the thread's run with the reply as feedback (attached files become input files). */
export async function replyJob(ctx: JobContext, req: ReplyRequest): Promise<void> {
  const { core, poster } = ctx;
  const conv = conversationId(req.team, req.channel);
  const run = await turnOf(ctx, conv, req);
  if (!run) return;
  const files = await inputsOf(ctx, req.channel, req.threadTs, req.files);
  const feedback = withInputFilesNote(req.text.trim() || (files.length ? 'Use the attached input files.' : ''), files);
  const status = `⏳ improving (reply by ${inlineText(req.user, 40)})…`;
  await poster.update(req.channel, req.threadTs, rootText(run, status, run.meta?.kind));
  const target: ThreadTarget = {
    channel: req.channel,
    threadTs: req.threadTs,
    firstAttempt: run.attempts.length + 1,
    maxRetries: core.agent.maxRetries,
    kind: 'improve',
  };
  await render(ctx, conv, target, (onEvent) => core.agent.improve(run, feedback || undefined, { requestedBy: req.user, ...(files.length ? { inputFiles: files } : {}), onEvent }), run);
}

/**
 * The thread's run. A turn of it still at work elsewhere is waited for by the agent (its turn lease),
 * which then reads the run again; its `queued` event tells the thread.
 */
function turnOf(ctx: JobContext, conv: string, req: ThreadRequest): Promise<Run | undefined> {
  return ctx.core.store.findRunByThread(conv, req.threadTs);
}

/** Downloads a message's attached files as input files; says in the thread which were not used. */
async function inputsOf(ctx: JobContext, channel: string, threadTs: string, attached: SlackFile[] | undefined): Promise<InputFile[]> {
  if (!attached?.length) return [];
  const inputs = await downloadInputs(attached, ctx.settings);
  if (inputs.skipped.length > 0) {
    await ctx.poster.post(channel, `⚠️ Some attached files were not used:\n${inputs.skipped.map((s) => `• ${inlineText(s, 300)}`).join('\n')}`, threadTs);
  }
  return inputs.files;
}

/**
 * Runs an agent call with a renderer; links the thread on the first event; never ends silently: a
 * call that throws ends its run as failed in the history (or the thread says the history refused).
 */
async function render(
  ctx: JobContext,
  conv: string,
  target: ThreadTarget,
  call: (onEvent: (e: AgentEvent) => void) => Promise<Run>,
  known?: Run,
): Promise<void> {
  const renderer = new ThreadRenderer(ctx.poster, { ...target, workspace: (run) => ctx.core.agent.workspace(run) }, (err, what) => ctx.log.warn(`slack: ${what} failed:`, (err as Error).message));
  let linked: Promise<void> | undefined;
  let runId = known?.id;
  const onEvent = (event: AgentEvent) => {
    if ('runId' in event) runId ??= event.runId;
    if (!linked && !known && 'runId' in event) {
      linked = ctx.core.store.linkThread(conv, target.threadTs, event.runId).catch((err: unknown) => ctx.log.error('slack: linkThread failed', err));
    }
    renderer.listener(event);
  };
  const outcome = await callAgent({
    store: ctx.core.store,
    conversation: conv,
    call: () => call(onEvent),
    runId: () => runId,
    settle: async () => linked,
    onInternalError: (err) => ctx.log.error('slack: a job failed', err),
  });
  await linked;
  await renderer.finish(outcome.run ?? known, outcome.failure, outcome.note);
}
