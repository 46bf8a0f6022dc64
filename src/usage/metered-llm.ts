/**
 * An {@link LlmProvider} that measures each call: its duration and tokens go to the metrics (by
 * purpose, from the current scope) and to the usage recorder (the run, the ledger, the budgets).
 * Before each call the recorder reserves its most tokens against the budgets; a call that does not
 * fit is not made (a `BudgetRefusedError` is thrown, src/usage/reservations.ts), and a call that ends settles or releases
 * its reservation. Everything else is the wrapped provider's.
 */
import type { ChatMessage, CompleteOptions, Completion, LlmProvider } from '../llm/types.js';
import { currentScope } from '../log/scope.js';
import type { UsageRecorder } from './recorder.js';
import type { Metrics } from '../metrics/metrics.js';

/** See the module comment. */
export class MeteredLlm implements LlmProvider {
  readonly name: string;
  /** `openai` or `local` (a label), from the provider's name. */
  private readonly provider: string;

  /**
   * @param inner the provider that answers
   * @param metrics where durations and tokens are counted; undefined: not counted
   * @param recorder where usage is charged; undefined: not charged
   */
  constructor(
    readonly inner: LlmProvider,
    private readonly metrics: Metrics | undefined,
    private readonly recorder: UsageRecorder | undefined,
  ) {
    this.name = inner.name;
    this.provider = inner.name.startsWith('local') ? 'local' : 'openai';
    if (inner.prepare) this.prepare = (prompts) => inner.prepare!(prompts);
    if (inner.dispose) this.dispose = () => inner.dispose!();
    if (inner.ping) this.ping = (signal) => inner.ping!(signal);
  }

  /** The wrapped provider's, read each time (a model loaded in the background knows it once loaded). */
  get maxTokens(): number | undefined {
    return this.inner.maxTokens;
  }

  prepare?(systemPrompts: readonly string[]): Promise<void>;
  dispose?(): Promise<void>;
  /** The wrapped provider's health check, when it has one. */
  ping?(signal?: AbortSignal): Promise<void>;

  /** @throws BudgetRefusedError (src/usage/reservations.ts) when the call's reservation does not fit in a daily budget (the call is not made) */
  async complete(messages: ChatMessage[], options?: CompleteOptions): Promise<Completion> {
    const purpose = currentScope().purpose ?? 'code';
    const reservation = await this.recorder?.reserve(messages, options?.maxTokens ?? this.inner.maxTokens, options?.signal);
    const started = performance.now();
    let completion: Completion;
    try {
      completion = await this.inner.complete(messages, options);
    } catch (err) {
      this.metrics?.llmDuration.observe({ purpose, provider: this.provider, result: 'error' }, (performance.now() - started) / 1000);
      await this.recorder?.release(reservation);
      throw err;
    }
    const ms = performance.now() - started;
    if (this.metrics) {
      this.metrics.llmDuration.observe({ purpose, provider: this.provider, result: 'ok' }, ms / 1000);
      this.metrics.llmTokens.inc({ purpose, type: 'prompt' }, completion.usage.promptTokens);
      this.metrics.llmTokens.inc({ purpose, type: 'completion' }, completion.usage.completionTokens);
    }
    await this.recorder?.llmCall(completion.usage, ms, reservation);
    return completion;
  }
}
