/**
 * The warm pool (also used for prepared slots, whose launcher waits before the sandbox starts):
 * sandboxes started ahead of time whose runner has already imported numpy, pandas
 * and matplotlib and waits for its job. Each serves exactly one run and is then thrown away (its
 * work dir, cgroup and processes go with it), so nothing is shared between runs. The pool refills
 * in the background, recycles sandboxes older than a max age, and never holds more than its size.
 */
import { atExit } from './exit-cleanup.js';
import type { StartedProcess } from './process.js';
import type { Slot } from './slot.js';
import type { ExecutionLimits } from './types.js';

/** One pre-started sandbox. */
export interface Pooled {
  slot: Slot;
  started: StartedProcess;
  /** The limits it was started with: a job may ask for less, never more (rlimits only go down). */
  limits: ExecutionLimits;
  /** When it was started, in ms (performance.now()). */
  bornAt: number;
  /** Its `ready` arrived. */
  isReady: boolean;
}

/** How the pool makes and throws away sandboxes (the executor's job). */
export interface PoolBackend {
  /** What the pool holds, in warnings (`warm pool`, `prepared slots`). */
  name: string;
  spawn(): Promise<Pooled>;
  discard(p: Pooled): Promise<void>;
  warn(msg: string): void;
}

/** Rlimit-backed limits a pooled sandbox cannot raise for a job. */
const RLIMIT_KEYS = ['cpuTimeS', 'maxFileBytes', 'maxOpenFiles', 'maxProcesses', 'memoryBytes'] as const;

/** A fixed-size pool of warm sandboxes. */
export class WarmPool {
  private readonly entries = new Set<Pooled>();
  private starting = 0;
  private closed = false;
  private failures = 0;
  private readonly sweeper: NodeJS.Timeout;
  private readonly unhookExit: () => void;

  /**
   * @param size sandboxes kept ready (≥ 1)
   * @param maxAgeMs age after which an unused sandbox is recycled, in ms
   */
  constructor(
    private readonly size: number,
    private readonly maxAgeMs: number,
    private readonly backend: PoolBackend,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.min(maxAgeMs / 2, 5000)));
    this.sweeper.unref();
    this.unhookExit = atExit('sandbox', this.onExit);
    this.refill();
  }

  /**
   * A process that exits without close(): the pooled sandboxes' processes are killed (their slots,
   * cgroups and mounts go with every open slot: slot.ts).
   */
  private readonly onExit = () => {
    for (const e of this.entries) e.started.kill();
    this.entries.clear();
  };

  /** Ready sandboxes now (for tests and doctor). */
  get readyCount(): number {
    return [...this.entries].filter((e) => e.isReady).length;
  }

  /**
   * Takes a ready sandbox that can honour `limits`, or null (the caller starts one cold).
   * Refills in the background either way.
   */
  take(limits: ExecutionLimits): Pooled | null {
    this.sweep();
    for (const e of this.entries) {
      if (!e.isReady || e.started.child.exitCode !== null) continue;
      if (RLIMIT_KEYS.some((k) => limits[k] > e.limits[k])) continue;
      this.entries.delete(e);
      this.refill();
      return e;
    }
    return null;
  }

  /** The host pid of the oldest ready sandbox (its process group), or undefined (tests, doctor). */
  async peek(): Promise<number | undefined> {
    return [...this.entries].find((e) => e.isReady)?.started.child.pid;
  }

  /** Resolves once `n` sandboxes are ready (or after `timeoutMs`). */
  async whenReady(n = this.size, timeoutMs = 30_000): Promise<boolean> {
    const until = performance.now() + timeoutMs;
    while (this.readyCount < n) {
      if (performance.now() > until || this.closed) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    return true;
  }

  /** Throws every pooled sandbox away; no refill after this. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    this.unhookExit();
    const all = [...this.entries];
    this.entries.clear();
    await Promise.all(all.map((e) => this.backend.discard(e)));
  }

  /** Recycles sandboxes past their age, or dead ones. */
  private sweep(): void {
    const now = performance.now();
    for (const e of this.entries) {
      const dead = e.started.child.exitCode !== null || e.started.child.signalCode !== null;
      if (dead || (e.isReady && now - e.bornAt > this.maxAgeMs)) {
        this.entries.delete(e);
        void this.backend.discard(e);
      }
    }
    this.refill();
  }

  private refill(): void {
    while (!this.closed && this.entries.size + this.starting < this.size && this.failures < 3) {
      this.starting++;
      void this.backend
        .spawn()
        .then((e) => {
          if (this.closed) return void this.backend.discard(e);
          this.entries.add(e);
          e.started.unref();
          e.started.ready.then(
            () => {
              e.isReady = true;
              this.failures = 0;
            },
            () => {
              this.failures++;
              if (this.failures === 3) this.backend.warn(`sandbox: the ${this.backend.name} failed 3 times in a row; runs start cold`);
            },
          );
        })
        .catch((err: unknown) => {
          this.failures++;
          this.backend.warn(`sandbox: could not fill the ${this.backend.name}: ${(err as Error).message}`);
        })
        .finally(() => {
          this.starting--;
        });
    }
  }
}
