/**
 * Teardown after the result: a run's result is returned as soon as its program ended and its
 * artifacts were copied out; the sandbox's processes are SIGKILLed at once, and the kernel's
 * reaping, the cgroup's removal and the work dir's unmount finish in the background. Nothing is
 * left: {@link Teardowns.settled} waits for them, and a process that exits first removes them
 * synchronously (slot.ts tracks every open slot).
 */
import { closeSlot, type Slot } from './slot.js';

/** The slots of finished runs still being torn down. */
export class Teardowns {
  private readonly pending = new Map<Slot, Promise<void>>();

  constructor(private readonly logger: { warn(msg: string): void }) {}

  /** Starts tearing `slot` down (its processes must already be killed, or be in its cgroup). Never throws. */
  add(slot: Slot): void {
    // on the next turn of the event loop: the caller gets its result first
    const done = new Promise((resolve) => setImmediate(resolve)).then(() => closeSlot(slot, this.logger)).finally(() => {
      this.pending.delete(slot);
    });
    this.pending.set(slot, done);
  }

  /** Resolves once every slot added so far is gone from the host. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending.values()]);
  }
}
