/**
 * Renders one agent call into a thread, for every platform, in order: the progress line (one
 * message edited in place), each attempt's code (streamed while it is written, edited at most once
 * per {@link STREAM_EDIT_INTERVAL_MS}), each execution result with its files, the notices (the first
 * answer's "not yet confirmed" mark, edited in place by the verdict), each auto-fix with the error
 * that caused it, and the turn's last message. Where the platform has its own signs of work
 * (port.ts: ThreadSigns), the progress line is its thread status or typing, and each attempt is one
 * streamed message with its tasks (attempt-stream.ts), closed with the turn's last message; where
 * it refuses them, today's messages are shown. The views come from
 * event-view.ts; the platform formats them (port.ts: {@link ThreadMarkup}) and posts them
 * ({@link ThreadOutput}). Events arrive synchronously; posts are chained so they keep their order,
 * and a slow or failing post never blocks or breaks the agent.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { AgentEvent } from '../agent/run/index.js';
import type { Run } from '../history/types.js';
import type { WorkspaceManifest } from '../history/workspace.js';
import { STREAM_EDIT_INTERVAL_MS, Throttle } from './stream-edits.js';
import { EventViews, type EventView } from './event-view.js';
import type { ProgressLine, ThreadMarkup, ThreadOutput } from './port.js';
import { workspaceLine } from './workspace-view.js';
import { answerMarkNotice, settledAnswer } from './answer-mark.js';
import { AttemptStreams, STREAM_APPEND_INTERVAL_MS } from './attempt-stream.js';
import { progressText } from './progress-text.js';

/** What the renderer needs besides the thread. */
export interface RendererOptions {
  /** Index the first attempt of this call gets (the run's attempts + 1), for labels before the agent says. */
  firstAttempt: number;
  /** Auto-fix attempts allowed in this call. */
  maxRetries: number;
  /** Reads the run's workspace at the end, for the line of the last message that names it. */
  workspace: (run: Run) => Promise<WorkspaceManifest>;
  /** Told of a post that failed (`what`: which view). */
  onError: (err: unknown, what: string) => void;
}

/** The attempt whose code is streaming in: its message (once posted) and the edit throttle. */
interface Streaming<R> {
  attempt: number;
  ref?: R;
  throttle: Throttle<string>;
}

/** See the module comment. Call {@link ThreadRenderer.finish} once the call returned. */
export class ThreadRenderer<M, R> {
  private chain: Promise<void> = Promise.resolve();
  private readonly views = new EventViews();
  private progressRef: R | undefined;
  private progressShown: string | undefined;
  private streaming: Streaming<R> | undefined;
  /** The highest attempt this call may reach, as the latest view said. */
  private latestLastAttempt: number | undefined;
  private ended = false;
  /** The call's first answer, marked as not yet confirmed: the attempt and the mark's message. */
  private answer: { attempt: number; ref?: R } | undefined;
  private readonly startedAt = Date.now();
  /** The attempts' streamed messages, where the platform streams. */
  private readonly streams: AttemptStreams<M>;
  /** The platform's sign of work replaced the progress message at least once (Slack's thread status). */
  private statusShown = false;
  /** The checks' task is shown in progress in the first attempt's stream. */
  private checksTask = false;

  constructor(
    private readonly output: ThreadOutput<M, R>,
    private readonly markup: ThreadMarkup<M>,
    private readonly options: RendererOptions,
  ) {
    this.streams = new AttemptStreams(output.signs, () => this.lastAttempt);
  }

  /** Shows a progress line now (e.g. the turn's start, before the agent's first event). */
  progress(line: ProgressLine): void {
    this.enqueue('progress', () => this.showProgress(line));
  }

  /** The agent's listener: never throws, never waits. */
  readonly listener = (event: AgentEvent): void => {
    for (const view of this.views.of(event)) {
      if ('lastAttempt' in view) this.latestLastAttempt = view.lastAttempt;
      if (view.view === 'code_partial') this.streamCode(view.attempt, view.code);
      else {
        if (view.view === 'code' || view.view === 'end') this.streaming?.throttle.stop(); // no edit after the final code
        this.enqueue(view.view, () => this.show(view));
      }
    }
  };

  /** Resolves when everything queued so far was posted (or failed and was reported). */
  settled(): Promise<void> {
    return this.chain;
  }

  /**
   * Ends the turn in the thread once the call returned: the last message (the outcome with the
   * workspace line and buttons), or, when the call ended without a done/failed event (it threw),
   * the progress line stopped and `failure` (already safe to show) — no turn ends silently; then
   * `note` (plain text, e.g. the history could not record the end).
   */
  async finish(run: Run | undefined, failure: string | undefined, note: string | undefined): Promise<void> {
    this.streaming?.throttle.stop();
    await this.chain;
    this.enqueue('final', async () => {
      if (this.ended && run) await this.last(this.markup.final(run, await this.workspaceLine(run)));
      else {
        await this.settleAnswer(undefined);
        if (this.progressRef !== undefined) await this.showProgress({ step: 'stopped' });
        else await this.output.signs?.working(undefined);
        await this.last(this.markup.failure(failure ?? 'the run stopped unexpectedly'));
      }
      if (note) await this.post(this.markup.note(note));
    });
    await this.chain;
  }

  private enqueue(what: string, step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((err: unknown) => this.options.onError(err, what));
  }

  private async post(msg: M): Promise<R | undefined> {
    return this.output.post(msg);
  }

  /** The turn's last message: closes the open stream with it, else posts it (a stream is never left open). */
  private async last(msg: M): Promise<void> {
    if (!(await this.streams.close(msg))) await this.post(msg);
  }

  /** Shows `msg` in the stream of `attempt` (default: the open one), else posts it. */
  private async showIn(msg: M, attempt?: number): Promise<void> {
    if (!(await this.streams.append(msg, attempt))) await this.post(msg);
  }

  private get lastAttempt(): number {
    return this.latestLastAttempt ?? this.options.firstAttempt + this.options.maxRetries;
  }

  /** Posts the code being written, then edits it at most once per interval (see stream-edits.ts). */
  private streamCode(attempt: number, code: string): void {
    if (this.streaming?.attempt !== attempt) {
      this.streaming?.throttle.stop();
      const streamed = this.streams.usable;
      const streaming: Streaming<R> = {
        attempt,
        throttle: new Throttle(
          (latest) =>
            this.enqueue('code_delta', async () => {
              if (await this.streams.code(attempt, latest, false)) return;
              const msg = this.markup.partialCode(attempt, this.lastAttempt, latest);
              if (streaming.ref !== undefined) await this.output.edit(streaming.ref, msg);
              else streaming.ref = await this.output.post(msg);
            }),
          // a stream shows the first token at once; edits wait one interval (a fast reply shows no partial message)
          streamed ? { intervalMs: STREAM_APPEND_INTERVAL_MS } : { delayFirst: true, intervalMs: STREAM_EDIT_INTERVAL_MS },
        ),
      };
      this.streaming = streaming;
    }
    this.streaming.throttle.push(code);
  }

  private async showProgress(line: ProgressLine): Promise<void> {
    const signs = this.output.signs;
    if (signs) {
      const end = line.step === 'finished' || line.step === 'stopped';
      const replaced = await signs.working(end ? undefined : line);
      this.statusShown ||= replaced;
      await this.showTask(line);
      if (replaced || (end && this.statusShown && this.progressRef === undefined)) return;
    }
    const msg = this.markup.progress(line);
    if (msg === undefined) return;
    const shown = JSON.stringify(msg);
    if (shown === this.progressShown) return;
    this.progressShown = shown;
    if (this.progressRef !== undefined) await this.output.edit(this.progressRef, msg);
    else this.progressRef = await this.output.post(msg);
  }

  /** The step as a task of the attempt's stream: the checks, then each attempt writing and running. */
  private async showTask(line: ProgressLine): Promise<void> {
    if (!this.streams.usable) return;
    if (line.step === 'checks') {
      this.checksTask = true;
      return this.streams.task(this.options.firstAttempt, 'checks', progressText(line), 'in_progress');
    }
    if (line.step !== 'writing' && line.step !== 'running') return;
    if (this.checksTask) {
      this.checksTask = false;
      await this.streams.task(line.attempt, 'checks', 'Checks derived from the request', 'complete');
    }
    await this.streams.task(line.attempt, `attempt-${line.attempt}`, progressText(line), 'in_progress');
  }

  private async show(view: Exclude<EventView, { view: 'code_partial' }>): Promise<void> {
    switch (view.view) {
      case 'progress':
        return this.showProgress(view);
      case 'code': {
        // the message that showed this attempt's code while it was written becomes the final one
        const streamed = this.streaming?.attempt === view.attempt ? this.streaming : undefined;
        const shown = this.markup.code({ ...view, lastAttempt: this.lastAttempt }, streamed?.ref !== undefined);
        if (streamed?.ref === undefined && (this.streams.attempt === view.attempt || this.streams.usable)) {
          // the code ends its stream's fence; code that no longer extends what was streamed goes in as a message
          const inStream = (view.code && (await this.streams.code(view.attempt, view.code, true))) || (await this.streams.append(shown.edit, view.attempt));
          if (inStream) {
            if (shown.post) await this.showIn(shown.post, view.attempt);
            return;
          }
        }
        if (streamed?.ref !== undefined) {
          await delay(streamed.throttle.waitMs()); // the final edit keeps the pace too
          await this.output.edit(streamed.ref, shown.edit);
        } else await this.post(shown.edit);
        if (shown.post) await this.post(shown.post);
        return;
      }
      case 'result': {
        const ok = view.result.success;
        const title = `Attempt ${view.attempt}/${view.lastAttempt}: ${ok ? 'ran' : view.result.timedOut ? 'timed out' : `failed (exit code ${view.result.exitCode})`}`;
        await this.streams.task(view.attempt, `attempt-${view.attempt}`, title, ok ? 'complete' : 'error');
        for (const msg of this.markup.result(view)) await this.showIn(msg, this.streams.attempt === view.attempt ? view.attempt : undefined);
        return;
      }
      case 'notices':
        for (const notice of view.notices) await this.showIn(this.markup.notice(notice));
        return;
      case 'improving':
        // the fix's reason ends the failed attempt's message; the next attempt opens its own
        await this.showIn(this.markup.improving(view));
        return void (await this.streams.close());
      case 'answer': {
        const answer: { attempt: number; ref?: R } = { attempt: view.attempt };
        this.answer = answer;
        answer.ref = await this.post(this.markup.notice(answerMarkNotice(view.attempt, { state: 'checking' })));
        return;
      }
      case 'end':
        this.ended = true;
        await this.settleAnswer(view.run);
        return this.showProgress({ step: 'finished', run: view.run, failed: view.failed, seconds: (Date.now() - this.startedAt) / 1000 });
      default:
        return unshown(view);
    }
  }

  /** Edits the first answer's mark (if one was shown) to say how the run's end settled it. */
  private async settleAnswer(run: Run | undefined): Promise<void> {
    const answer = this.answer;
    this.answer = undefined;
    if (answer?.ref === undefined) return;
    await this.output.edit(answer.ref, this.markup.notice(answerMarkNotice(answer.attempt, settledAnswer(answer.attempt, run))));
  }

  /** The line naming the run's workspace (none when it is empty or cannot be read: reported). */
  private async workspaceLine(run: Run): Promise<string | undefined> {
    try {
      return workspaceLine(await this.options.workspace(run));
    } catch (err) {
      this.options.onError(err, 'workspace');
      return undefined;
    }
  }
}

/** Compile-time proof that every view has a case in {@link ThreadRenderer}. */
function unshown(view: never): never {
  throw new Error(`view not shown in chat: ${JSON.stringify(view)}`);
}
