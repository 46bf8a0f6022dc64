/**
 * In-memory first line of deduplication for chat deliveries (Slack events and commands, Discord
 * interactions and messages): answers synchronously, so an ack or deferral never waits for the
 * store. The adapters still record ids in the history store afterwards, which survives restarts.
 */

/** Most ids kept in memory; the oldest are forgotten first (the store still knows them). */
export const RECENT_MAX = 10_000;

/** Remembers delivery ids for `ttlMs` (ms), at most {@link RECENT_MAX} of them. */
export class RecentDeliveries {
  private readonly seen = new Map<string, number>();

  constructor(private readonly ttlMs: number) {}

  /** @returns true the first time `id` is seen (within the TTL), false for a repeat. */
  first(id: string | undefined): boolean {
    if (!id) return true;
    const now = Date.now();
    const until = this.seen.get(id);
    if (until !== undefined && until > now) return false;
    this.seen.delete(id);
    this.seen.set(id, now + this.ttlMs);
    if (this.seen.size > RECENT_MAX) this.seen.delete(this.seen.keys().next().value!);
    return true;
  }
}
