/**
 * A provider whose model is loaded in the background: built at once (its name is known from the
 * config), it starts loading on {@link DeferredLlmProvider.prepare} (which the agent calls when it
 * is built) or on the first {@link DeferredLlmProvider.complete}, whichever comes first. The
 * interactive terminal uses it so that commands needing no model (`/help`, `/history`, `/exit`)
 * answer while a local model (seconds to load) is still loading, and the first request waits no
 * longer than when the model was loaded before the session started.
 */
import { LlmError, type ChatMessage, type CompleteOptions, type Completion, type LlmProvider } from './types.js';

/** Loads the real provider (e.g. `LocalLlamaProvider.load`); may reject with an {@link LlmError}. */
export type ProviderLoader = () => Promise<LlmProvider>;

/** An {@link LlmProvider} that loads the real one in the background, once. */
export class DeferredLlmProvider implements LlmProvider {
  private loading: Promise<LlmProvider> | undefined;
  private loaded: LlmProvider | undefined;
  private disposed = false;

  /** The loaded provider's longest reply, once it is loaded. */
  get maxTokens(): number | undefined {
    return this.loaded?.maxTokens;
  }

  /**
   * @param name the real provider's name (e.g. `local:qwen2.5-coder-1.5b-instruct-q4_k_m`), shown
   *   before it is loaded.
   * @param loader builds the real provider; called again after a failed load (on the next request).
   * @param loadOnPrepare false: {@link prepare} does not start the load, only a request does (a
   *   command that will most likely make none, e.g. `run --program`). Default true.
   */
  constructor(
    readonly name: string,
    private readonly loader: ProviderLoader,
    private readonly loadOnPrepare = true,
  ) {}

  /**
   * Starts loading when it has not started (or when the last load failed).
   * @returns the loaded provider.
   * @throws {LlmError} when the load fails (the next call tries again) or after {@link dispose}.
   */
  load(): Promise<LlmProvider> {
    if (this.disposed) return Promise.reject(new LlmError('the local model was shut down'));
    this.loading ??= this.loader().then((p) => (this.loaded = p)).catch((err: unknown) => {
      this.loading = undefined; // a later request tries again (e.g. after the file was fixed)
      throw err;
    });
    return this.loading;
  }

  /**
   * Resolves once the model is loaded (and answers its own check); before, starts the load when
   * none is going and throws.
   * @throws {LlmError} while the model is loading or after a failed load.
   */
  async ping(signal?: AbortSignal): Promise<void> {
    if (this.loaded) return this.loaded.ping?.(signal);
    this.load().catch(() => undefined);
    throw new LlmError(`the local model ${this.name} is still loading`);
  }

  /**
   * Completes a chat with the loaded provider, waiting for the load first. A cancelled `signal`
   * ends the wait at once (the load goes on, for the next request).
   * @throws {LlmError} when the model cannot be loaded, or the real provider's errors.
   */
  async complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<Completion> {
    const provider = await untilAborted(this.load(), options.signal);
    return provider.complete(messages, options);
  }

  /** Starts the load now (unless `loadOnPrepare` is false and none started) and then lets the real provider read the prompts ahead. Never rejects. */
  async prepare(systemPrompts: readonly string[]): Promise<void> {
    if (!this.loadOnPrepare && !this.loading) return;
    try {
      const provider = await this.load();
      if (!this.disposed) await provider.prepare?.(systemPrompts);
    } catch {
      /* a failed load is reported by the request that needs the model */
    }
  }

  /** Stops further work: waits for a load in progress, then disposes the real provider. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const provider = await this.loading?.catch(() => undefined);
    await provider?.dispose?.();
  }
}

/** `promise`, or a rejection with the signal's reason as soon as `signal` is aborted. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
