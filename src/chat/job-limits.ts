/**
 * Chat job limits, one interface for both homes: in memory (one process: `code-agent slack` or
 * `code-agent discord` without `queue.url`) and in Redis (queue mode, global across processes:
 * src/queue/redis-job-limits.ts). The rules are the same: one job per user at a time, at most
 * `maxPerChannel` jobs waiting or running per channel. A reply to an existing run is never
 * refused because its user has a job: it waits its turn (the channel's cap still applies).
 */

/** Why a job was not admitted. */
export type Refusal = 'user_busy' | 'queue_full';

/** An admission: accepted with the number of jobs that will start before it, or refused with why. */
export type Admission = { accepted: true; ahead: number } | { accepted: false; reason: Refusal };

/** Who and where a job counts against. `channel` and `user` include the platform (e.g. `slack:T1:C1`). */
export interface LimitKey {
  jobId: string;
  channel: string;
  user: string;
  /** A reply to an existing run: exempt from the one-job-per-user rule (it waits its turn instead). */
  waitsForUser?: boolean;
}

/** The limits' store. */
export interface JobLimits {
  /** Admits a job or says why not; nothing is recorded for a refused job. @throws the store's errors. */
  admit(key: LimitKey): Promise<Admission>;
  /** A worker started the job: it no longer counts as ahead of others. */
  started(jobId: string): Promise<void>;
  /** The job ended (or was never enqueued): frees its user and its channel slot. */
  release(key: LimitKey): Promise<void>;
}

/**
 * The limits of one process. Jobs of a channel run one after another there (src/chat/memory-queue.ts),
 * so `ahead` counts every admitted job of the channel that has not ended, the running one included.
 */
export class MemoryJobLimits implements JobLimits {
  private readonly users = new Map<string, string>();
  private readonly channels = new Map<string, Set<string>>();

  /** @param maxPerChannel jobs waiting or running in one channel, at most */
  constructor(private readonly maxPerChannel: number) {}

  async admit(key: LimitKey): Promise<Admission> {
    if (!key.waitsForUser && this.users.has(key.user)) return { accepted: false, reason: 'user_busy' };
    const jobs = this.channels.get(key.channel) ?? new Set<string>();
    if (jobs.size >= this.maxPerChannel) return { accepted: false, reason: 'queue_full' };
    const ahead = jobs.size;
    jobs.add(key.jobId);
    this.channels.set(key.channel, jobs);
    if (!key.waitsForUser) this.users.set(key.user, key.jobId);
    return { accepted: true, ahead };
  }

  async started(_jobId: string): Promise<void> {
    /* `ahead` counts the running job too: nothing changes when it starts */
  }

  async release(key: LimitKey): Promise<void> {
    if (this.users.get(key.user) === key.jobId) this.users.delete(key.user);
    const jobs = this.channels.get(key.channel);
    jobs?.delete(key.jobId);
    if (jobs?.size === 0) this.channels.delete(key.channel);
  }
}
