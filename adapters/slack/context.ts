/**
 * What every Slack handler shares: the wired core, settings, the poster, the job limiter, a logger.
 */
import type { App as Core } from '../../src/app/app.js';
import type { JobLimiter } from '../../src/chat/job-limiter.js';
import type { SlackPoster } from './poster.js';
import type { SlackSettings } from './settings.js';
import type { RecentDeliveries } from '../../src/chat/recent-deliveries.js';
import type { JobQueue } from '../../src/queue/queue.js';

/** Minimal logger (Bolt's Logger satisfies it). */
export interface Log {
  info(...msg: unknown[]): void;
  warn(...msg: unknown[]): void;
  error(...msg: unknown[]): void;
}

/** Shared state of the adapter. */
export interface SlackContext {
  core: Core;
  settings: SlackSettings;
  poster: SlackPoster;
  limiter: JobLimiter;
  log: Log;
  /** Synchronous, in-memory dedupe in front of the store's. */
  recent: RecentDeliveries;
  /** Jobs started and not yet finished (awaited on shutdown). */
  jobs: Set<Promise<unknown>>;
  /** Queue mode (`queue.url`): jobs go to the queue for workers instead of running here. */
  queue?: JobQueue;
}

/** The conversation id of a Slack channel: `slack:<team>:<channel>`. */
export function conversationId(team: string | undefined, channel: string): string {
  return `slack:${team ?? 'T'}:${channel}`;
}

/** Link to a message, e.g. `https://slack.com/archives/C123/p1700000000000100` (Slack resolves the workspace). */
export function messageLink(channel: string, ts: string): string {
  return `https://slack.com/archives/${encodeURIComponent(channel)}/p${ts.replace('.', '')}`;
}

/** Tracks a background job so shutdown can wait for it; its errors are logged, never unhandled. */
export function track(ctx: SlackContext, job: Promise<unknown>): void {
  const tracked = job.catch((err: unknown) => ctx.log.error('slack job failed', err)).finally(() => ctx.jobs.delete(tracked));
  ctx.jobs.add(tracked);
}
