/**
 * Renders one agent call (run, generate or improve) into a Slack thread, in order:
 * a progress message updated in place, each attempt's code, each execution result with its
 * full output and artifacts as files, each auto-fix with the error that caused it, a final
 * message, and the channel message's status.
 */
import type { AgentEvent } from '../../src/agent/events.js';
import type { Run } from '../../src/history/types.js';
import type { Artifact } from '../../src/sandbox/types.js';
import { inlineText } from './mrkdwn.js';
import type { SlackPoster } from './poster.js';
import { codeView, finalStatus, finalText, improvingText, noticeText, progressText, resultView, rootText, runButtons, streamingCodeView } from './views.js';
import { Throttle } from '../../src/chat/code-stream.js';
import { setTimeout as delay } from 'node:timers/promises';
import { EventViews, type EventView } from '../../src/chat/event-view.js';
import { workspaceLine } from '../../src/chat/workspace-view.js';
import type { WorkspaceManifest } from '../../src/history/workspace.js';

/** Where and how a call is rendered. */
export interface ThreadTarget {
  channel: string;
  /** ts of the run's channel message (the thread's parent). */
  threadTs: string;
  /** Index the first attempt of this call will get (run.attempts.length + 1 before the call). */
  firstAttempt: number;
  /** Auto-fix attempts allowed in this call (total attempts = maxRetries + 1). */
  maxRetries: number;
  /** `generate` shows "code generated" instead of running. */
  kind: 'run' | 'generate' | 'improve';
  /** What the channel message shows, for a call that fails before its run exists. */
  root?: Pick<Run, 'requirement' | 'requestedBy' | 'meta'>;
  /** Reads the run's workspace when it ends, for the line of the final message that names it. */
  workspace?: (run: Run) => Promise<WorkspaceManifest>;
}

/** Receives errors of individual posts (a failed post never stops the run). */
export type ErrorSink = (err: unknown, what: string) => void;

/** Turns agent events into thread posts; call {@link ThreadRenderer.finish} when the call returns. */
export class ThreadRenderer {
  private chain: Promise<void> = Promise.resolve();
  private progressTs: string | undefined;
  private ended = false;
  /** The attempt whose code is streaming in: its message (once posted) and the edit throttle. */
  private streaming: { attempt: number; ts?: string; throttle: Throttle<string> } | undefined;
  private readonly views = new EventViews();
  /** The highest attempt this call may reach, as the latest progress or auto-fix view said. */
  private latestLastAttempt: number | undefined;

  constructor(
    private readonly poster: SlackPoster,
    private readonly target: ThreadTarget,
    private readonly onError: ErrorSink = () => undefined,
  ) {}

  /** The agent's event listener (sync; posts are queued in order). */
  readonly listener = (event: AgentEvent): void => {
    for (const view of this.views.of(event)) {
      if ('lastAttempt' in view) this.latestLastAttempt = view.lastAttempt;
      if (view.view === 'code_partial') this.streamCode(view.attempt, view.code);
      else {
        if (view.view === 'code') this.streaming?.throttle.stop(); // no edit after the final code
        this.enqueue(view.view, () => this.show(view));
      }
    }
  };

  /** Posts the code being written, then edits it at most once a second (see `src/chat/code-stream.ts`). */
  private streamCode(attempt: number, code: string): void {
    if (this.streaming?.attempt !== attempt) {
      this.streaming?.throttle.stop();
      const streaming: { attempt: number; ts?: string; throttle: Throttle<string> } = {
        attempt,
        throttle: new Throttle((latest) => this.enqueue('code_delta', () => this.showPartial(streaming, latest)), { delayFirst: true }),
      };
      this.streaming = streaming;
    }
    this.streaming.throttle.push(code);
  }

  private async showPartial(streaming: { attempt: number; ts?: string }, code: string): Promise<void> {
    const { channel, threadTs } = this.target;
    const text = streamingCodeView(code, `*Code* (attempt ${streaming.attempt}/${this.lastAttempt}):`);
    if (streaming.ts) await this.poster.update(channel, streaming.ts, text);
    else streaming.ts = await this.poster.post(channel, text, threadTs);
  }

  /**
   * Waits for every queued post. If the call ended without a done/failed event (it threw),
   * posts `failure` (src/chat/agent-call.ts: already safe to show) as the final message so no run ends silently, ends the progress line, and posts
   * `note` (plain text, e.g. the history could not record the end) after it.
   */
  async finish(run: Run | undefined, failure?: string, note?: string): Promise<void> {
    this.streaming?.throttle.stop();
    await this.chain;
    if (this.ended) return;
    const reason = failure ?? 'the run stopped unexpectedly';
    const failed = run ? { ...run, status: 'failed' as const, error: run.error ?? reason } : undefined;
    this.enqueue('final', async () => {
      if (failed) await this.end(failed);
      else {
        const { channel, threadTs, root, kind } = this.target;
        if (this.progressTs) await this.progress('Finished: ❌ failed').catch((err: unknown) => this.onError(err, 'progress'));
        await this.poster.post(channel, `❌ *Failed*: ${inlineText(reason, 500)}`, threadTs);
        if (root) await this.poster.update(channel, threadTs, rootText(root, `❌ failed: ${inlineText(reason, 300)}`, kind));
      }
      if (note) await this.poster.post(this.target.channel, `⚠️ ${inlineText(note, 600)}`, this.target.threadTs);
    });
    await this.chain;
  }

  private enqueue(what: string, step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((err: unknown) => this.onError(err, what));
  }

  /** The highest attempt this call may reach, from the latest progress view ("Attempt 3/5"). */
  private get lastAttempt(): number {
    return this.latestLastAttempt ?? this.target.firstAttempt + this.target.maxRetries;
  }

  private async progress(text: string): Promise<void> {
    const { channel, threadTs } = this.target;
    if (this.progressTs) await this.poster.update(channel, this.progressTs, text);
    else this.progressTs = await this.poster.post(channel, text, threadTs);
  }

  private async show(view: Exclude<EventView, { view: 'code_partial' }>): Promise<void> {
    const { channel, threadTs } = this.target;
    switch (view.view) {
      case 'progress':
        if (view.step === 'checks') return this.progress('⏳ Deriving checks from the request…');
        return this.progress(progressText(view.attempt, view.lastAttempt, view.step === 'writing' ? 'generating code…' : 'running…'));
      case 'code':
        return this.showCode(view.attempt, view.code, view.error);
      case 'result': {
        const label = `*Result* (attempt ${view.attempt}/${view.lastAttempt}):`;
        const shown = resultView(view.result, label);
        await this.poster.post(channel, shown.sections, threadTs, shown.plain);
        if (shown.stdoutCut) await this.attachText('stdout.txt', view.result.stdout);
        if (shown.stderrCut) await this.attachText('stderr.txt', view.result.stderr);
        for (const artifact of view.result.artifacts) await this.attachArtifact(artifact);
        return;
      }
      case 'notices':
        for (const notice of view.notices) await this.poster.post(channel, noticeText(notice), threadTs);
        return;
      case 'improving':
        return void (await this.poster.post(channel, improvingText(view.attempt, view.lastAttempt, view.reason), threadTs));
      case 'end':
        return this.end(view.run);
      default:
        return unshown(view);
    }
  }

  private async showCode(attempt: number, code: string, error: string | undefined): Promise<void> {
    const { channel, threadTs } = this.target;
    const label = `*Code* (attempt ${attempt}/${this.lastAttempt}):`;
    // the message that showed this attempt's code while it was written becomes the final one
    const streamedTs = this.streaming?.attempt === attempt ? this.streaming.ts : undefined;
    if (streamedTs) await delay(this.streaming!.throttle.waitMs()); // the final edit keeps the pace too
    const show = (text: string) => (streamedTs ? this.poster.update(channel, streamedTs, text) : this.poster.post(channel, text, threadTs));
    if (!code) {
      await show(`${label} the reply had no usable code: ${inlineText(error ?? 'no code', 500)}`);
      return;
    }
    const view = codeView(code, label);
    await show(view.text);
    if (view.truncated) {
      await this.poster.upload(channel, threadTs, { filename: `attempt-${attempt}.py`, content: code, snippetType: 'python' });
    }
  }

  private async attachText(filename: string, content: string): Promise<void> {
    await this.poster.upload(this.target.channel, this.target.threadTs, { filename, content, snippetType: 'text' });
  }

  private async attachArtifact(artifact: Artifact): Promise<void> {
    try {
      await this.poster.upload(this.target.channel, this.target.threadTs, { filename: artifact.name, path: artifact.path });
    } catch (err) {
      this.onError(err, `upload ${artifact.name}`);
      await this.poster.post(
        this.target.channel,
        `⚠️ Could not upload \`${inlineText(artifact.name, 100)}\`: ${inlineText((err as Error).message, 300)}`,
        this.target.threadTs,
      );
    }
  }

  /** The final text's sections, with the line naming the run's workspace (none when it is empty or cannot be read). */
  private async withWorkspace(run: Run, text: string): Promise<string[]> {
    const manifest = await this.target.workspace?.(run).catch((err: unknown) => void this.onError(err, 'workspace'));
    const line = manifest && workspaceLine(manifest);
    return line ? [text, inlineText(line, 600)] : [text];
  }

  private async end(run: Run): Promise<void> {
    this.ended = true;
    const { channel, threadTs } = this.target;
    const status = finalStatus(run);
    await this.progress(`Finished: ${status}`).catch((err: unknown) => this.onError(err, 'progress'));
    await this.poster.post(channel, await this.withWorkspace(run, finalText(run)), threadTs, undefined, runButtons(run));
    await this.poster.update(channel, threadTs, rootText(run, status, run.meta?.kind));
  }
}

/** Compile-time proof that every view has a case in {@link ThreadRenderer}. */
function unshown(view: never): never {
  throw new Error(`view not shown in Slack: ${JSON.stringify(view)}`);
}
