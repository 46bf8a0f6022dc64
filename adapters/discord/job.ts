/**
 * One job (run, generate, re-run, improve) from the first progress line to the final message.
 * Whatever happens (LLM down, store error, REST errors), the job ends with a final message in its
 * thread and the header updated: a run is never left without an outcome.
 */
import type { AgentEventListener } from '../../src/agent/events.js';
import type { Run } from '../../src/history/types.js';
import type { BotContext } from './context.js';
import { ProgressRenderer } from './progress.js';
import { finalMessage, finalState, headerMessage, type JobKind } from './render.js';
import { editChannelMessage, type Surface } from './surface.js';
import { neutraliseFences } from '../../src/chat/format.js';
import { callAgent } from '../../src/chat/agent-call.js';
import { workspaceLine } from '../../src/chat/workspace-view.js';

/** What a job needs. */
export interface JobSpec {
  surface: Surface;
  /** The first progress line, e.g. `💬 Improving with feedback from <@1>…`. */
  startText: string;
  /** The run's conversation (to end a run whose call threw). */
  conversation: string;
  /** The run's id when it exists before the call (re-run, improve). */
  runId?: string;
  /** Calls the agent with the renderer's listener. */
  call: (onEvent: AgentEventListener) => Promise<Run>;
  /** Called once with the run id, as soon as the agent has stored the run. */
  onRunId?: (runId: string) => Promise<void>;
  /** Called at the end with the run (or undefined and the reason when there is no run). */
  onFinish?: (run: Run | undefined, failure?: string) => Promise<void>;
}

/**
 * Runs a job; never throws.
 * @returns the finished run, or undefined when the agent refused or failed before a run existed.
 */
export async function runJob(ctx: BotContext, spec: JobSpec): Promise<Run | undefined> {
  let runId = spec.runId;
  const renderer = new ProgressRenderer(spec.surface, async (id) => {
    runId = id;
    await spec.onRunId?.(id);
  });
  renderer.setProgress(spec.startText);
  const { run, failure, note } = await callAgent({
    store: ctx.app.store,
    conversation: spec.conversation,
    call: () => spec.call(renderer.onEvent),
    runId: () => runId,
    settle: () => renderer.settled(), // the run id arrives with the first rendered event
    onInternalError: (err) => ctx.logger.error(`job failed: ${(err as Error)?.stack ?? String(err)}`),
  });
  if (!run) renderer.setProgress('❌ Stopped by an error');
  await renderer.settled();
  if (run) await renderer.post(finalMessage(run, await workspaceLineOf(ctx, run)));
  else await renderer.post({ content: `⚠️ ${failure ?? 'the job ended without a result'}` });
  if (note) await renderer.post({ content: `⚠️ ${neutraliseFences(note)}` });
  try {
    await spec.onFinish?.(run, failure);
  } catch (err) {
    ctx.logger.warn(`finishing the job failed: ${(err as Error)?.message ?? String(err)}`);
  }
  return run;
}

/** The line naming a run's workspace (undefined when empty, or when it cannot be read: logged). */
async function workspaceLineOf(ctx: BotContext, run: Run): Promise<string | undefined> {
  try {
    return workspaceLine(await ctx.app.agent.workspace(run));
  } catch (err) {
    ctx.logger.warn(`reading the workspace of run ${run.id} failed: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
}

/**
 * Updates a run's first message (its header, in the channel) from the run's meta, as the bot's own
 * message: used after re-runs and improvements, which may come long after the interaction expired.
 */
export async function refreshRunHeader(ctx: BotContext, run: Run): Promise<void> {
  const channelId = run.meta?.headerChannelId;
  const messageId = run.meta?.headerMessageId;
  if (!channelId || !messageId) return;
  const kind = (run.meta?.kind as JobKind | undefined) ?? 'run';
  const msg = headerMessage(kind, run.requirement, run.requestedBy ?? 'unknown', finalState(run));
  await editChannelMessage(ctx.client, channelId, messageId, msg, ctx.logger);
}
