/**
 * Renders one job's agent events into its thread, in order: a progress line edited in place, each
 * attempt's code, its result and artifacts, and each auto-fix with the error that caused it.
 * Events arrive synchronously; posting is chained so messages keep their order and a slow or
 * failing REST call never blocks or breaks the agent.
 */
import type { AgentEvent } from '../../src/agent/events.js';
import type { Attempt } from '../../src/history/types.js';
import { EventViews, type EventView } from '../../src/chat/event-view.js';
import {
  artifactMessages,
  codeMessage,
  improvingMessage,
  noticeMessage,
  progressMessage,
  resultMessage,
  streamingCodeMessage,
  type Outgoing,
} from './render.js';
import { Throttle } from '../../src/chat/code-stream.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { Surface } from './surface.js';
import type { Message } from 'discord.js';

/** Renders agent events into a surface. */
export class ProgressRenderer {
  private chain: Promise<void> = Promise.resolve();
  private progress: Message | undefined;
  private progressText = '';
  private readonly views = new EventViews();
  private runIdSeen = false;
  private readonly startedAt = Date.now();
  /** The attempt whose code is streaming in: its message (once posted) and the edit throttle. */
  private streaming: { attempt: number; message?: Message; throttle: Throttle<string> } | undefined;

  /**
   * @param surface where messages go
   * @param onRunId called once with the run id from the first event (e.g. to link the thread)
   */
  constructor(
    private readonly surface: Surface,
    private readonly onRunId?: (runId: string) => Promise<void>,
  ) {}

  /** The agent's listener: never throws, never waits. */
  readonly onEvent = (event: AgentEvent): void => {
    if (!this.runIdSeen && 'runId' in event) {
      this.runIdSeen = true;
      const runId = event.runId;
      this.enqueue(async () => {
        await this.onRunId?.(runId).catch(() => undefined);
      });
    }
    for (const view of this.views.of(event)) {
      if (view.view === 'code_partial') this.streamCode(view.attempt, view.code);
      else {
        if (view.view === 'code' || view.view === 'end') this.streaming?.throttle.stop();
        this.enqueue(() => this.show(view));
      }
    }
  };

  /** Posts the code being written, then edits it at most once a second (see `src/chat/code-stream.ts`). */
  private streamCode(attempt: number, code: string): void {
    if (this.streaming?.attempt !== attempt) {
      this.streaming?.throttle.stop();
      const streaming: { attempt: number; message?: Message; throttle: Throttle<string> } = {
        attempt,
        throttle: new Throttle((latest) =>
          this.enqueue(async () => {
            const msg = streamingCodeMessage(attempt, latest);
            if (streaming.message) await this.surface.edit(streaming.message, msg);
            else streaming.message = await this.surface.post(msg);
          }),
          { delayFirst: true },
        ),
      };
      this.streaming = streaming;
    }
    this.streaming.throttle.push(code);
  }

  /** Resolves when everything queued so far was posted (or failed and was logged). */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Posts a message after everything queued so far. */
  post(msg: Outgoing): Promise<Message | undefined> {
    let result: Message | undefined;
    this.enqueue(async () => {
      result = await this.surface.post(msg);
    });
    return this.chain.then(() => result);
  }

  /** Sets the progress line (posted the first time, edited after). */
  setProgress(text: string): void {
    this.enqueue(() => this.progressNow(text));
  }

  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch(() => undefined);
  }

  private async show(view: Exclude<EventView, { view: 'code_partial' }>): Promise<void> {
    switch (view.view) {
      case 'progress':
        if (view.step === 'checks') return this.progressNow('🧪 Deriving checks from the request…');
        return this.progressNow(view.step === 'writing' ? `⏳ Writing code · attempt ${view.attempt}…` : `⚙️ Running attempt ${view.attempt} in the sandbox…`);
      case 'code': {
        const attempt: Attempt = {
          index: view.attempt,
          trigger: view.trigger,
          code: view.code,
          ...(view.error ? { error: view.error } : {}),
          usage: { promptTokens: 0, completionTokens: 0 },
          createdAt: new Date().toISOString(),
        };
        const final = codeMessage(attempt);
        // the message that showed this attempt's code while it was written becomes the final one
        const streamed = this.streaming?.attempt === view.attempt ? this.streaming.message : undefined;
        if (streamed) await delay(this.streaming!.throttle.waitMs()); // the final edit keeps the pace too
        if (streamed && !final.files?.length) await this.surface.edit(streamed, final);
        else {
          if (streamed) await this.surface.edit(streamed, { content: `**Attempt ${view.attempt}** · the whole code is below` });
          await this.surface.post(final);
        }
        return;
      }
      case 'result':
        await this.surface.post(resultMessage(view.attempt, view.result));
        for (const msg of artifactMessages(view.attempt, view.result)) await this.surface.post(msg);
        return;
      case 'improving':
        await this.surface.post(improvingMessage(view.retry, view.maxRetries, view.reason));
        return;
      case 'notices':
        for (const notice of view.notices) await this.surface.post(noticeMessage(notice));
        return;
      case 'end': {
        const seconds = ((Date.now() - this.startedAt) / 1000).toFixed(1);
        const word = view.failed ? '❌ Finished with a failure' : view.run.status === 'unverified' ? '⚠️ Finished, not confirmed' : '✅ Finished';
        return this.progressNow(`${word} after ${seconds} s`);
      }
      default:
        return unshown(view);
    }
  }

  private async progressNow(text: string): Promise<void> {
    if (text === this.progressText) return;
    this.progressText = text;
    if (this.progress) await this.surface.edit(this.progress, progressMessage(text));
    else this.progress = await this.surface.post(progressMessage(text));
  }
}

/** Compile-time proof that every view has a case in {@link ProgressRenderer}. */
function unshown(view: never): never {
  throw new Error(`view not shown in Discord: ${JSON.stringify(view)}`);
}
