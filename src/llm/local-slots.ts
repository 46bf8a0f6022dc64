/**
 * The local provider's context sequences ("slots"): each keeps the tokens of the last chat it
 * evaluated, and a request goes to the free slot whose tokens share the longest prefix with its
 * prompt, so that prefix is not evaluated again (llama.cpp's KV cache). A run's next attempt finds
 * its earlier chat (system prompt, requirement, previous program) even when a checks or review call
 * came in between, and a new request finds the system prompt. At most `parallel` slots generate at
 * once (their tokens are decoded together in one batch); the rest of the requests wait in arrival order.
 */
import type { Token } from 'node-llama-cpp';

/** What a slot must offer: its evaluated tokens. */
export interface SlotSequence {
  /** Tokens currently in this sequence's KV cache. */
  readonly contextTokens: readonly Token[];
}

/** A slot handed out by {@link SlotPool.acquire}. */
export interface Lease<T> {
  slot: T;
  /** Leading tokens of the prompt already evaluated in this slot. */
  reusedTokens: number;
}

interface Waiter<T> {
  tokens: readonly Token[];
  resolve: (lease: Lease<T>) => void;
  reject: (err: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * Shortest shared prefix, in tokens, that makes a slot the choice for a prompt. Every chat shares
 * the chat template's opening tokens (`<|im_start|>system\n`…); a prompt sharing no more than that
 * goes to the least recently used slot, so that it does not evict another run's chat for nothing.
 */
export const MIN_REUSE_TOKENS = 32;

/** Length of the common prefix of two token lists. */
export function commonPrefix(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Hands out slots by longest shared prefix, at most `parallel` at a time, first come first served. */
export class SlotPool<T extends SlotSequence> {
  private readonly busy = new Set<T>();
  private readonly lastUsed = new Map<T, number>();
  private readonly waiters: Waiter<T>[] = [];
  private clock = 0;

  /**
   * @param slots the sequences (at least one)
   * @param parallel how many may be leased at the same time (1 ≤ parallel ≤ slots)
   */
  constructor(
    private readonly slots: readonly T[],
    private readonly parallel: number,
  ) {
    if (slots.length === 0) throw new Error('a slot pool needs at least one slot');
    if (parallel < 1 || parallel > slots.length) throw new Error(`parallel must be between 1 and ${slots.length}`);
  }

  /** Slots leased right now. */
  get active(): number {
    return this.busy.size;
  }

  /**
   * Waits for a slot for a prompt of `tokens`.
   * @throws the signal's reason when it aborts while waiting.
   */
  acquire(tokens: readonly Token[], signal?: AbortSignal): Promise<Lease<T>> {
    signal?.throwIfAborted();
    return new Promise<Lease<T>>((resolve, reject) => {
      const waiter: Waiter<T> = { tokens, resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiters.push(waiter);
      this.dispatch();
    });
  }

  /** Gives a slot back (its tokens stay for the next request that shares them). */
  release(slot: T): void {
    this.busy.delete(slot);
    this.lastUsed.set(slot, ++this.clock);
    this.dispatch();
  }

  /** Rejects every waiting request (shutdown). */
  rejectWaiting(err: unknown): void {
    for (const w of this.waiters.splice(0)) {
      if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
      w.reject(err);
    }
  }

  private dispatch(): void {
    while (this.waiters.length > 0 && this.busy.size < this.parallel) {
      const waiter = this.waiters.shift()!;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      const lease = this.best(waiter.tokens);
      this.busy.add(lease.slot);
      waiter.resolve(lease);
    }
  }

  /**
   * The free slot sharing the longest prefix (at least {@link MIN_REUSE_TOKENS}); else the least
   * recently used free slot (a never used one first).
   */
  private best(tokens: readonly Token[]): Lease<T> {
    let longest: Lease<T> | undefined;
    let oldest: Lease<T> | undefined;
    for (const slot of this.slots) {
      if (this.busy.has(slot)) continue;
      const lease = { slot, reusedTokens: commonPrefix(slot.contextTokens, tokens) };
      if (!longest || lease.reusedTokens > longest.reusedTokens) longest = lease;
      if (!oldest || (this.lastUsed.get(slot) ?? 0) < (this.lastUsed.get(oldest.slot) ?? 0)) oldest = lease;
    }
    return longest!.reusedTokens >= MIN_REUSE_TOKENS ? longest! : oldest!;
  }
}
