/**
 * What every Slack handler shares: the wired core, settings, the poster, admission (dedupe and the
 * job queue, in memory or in Redis: the handlers do not know which), a logger.
 */
import type { App as Core } from '../../src/app/app.js';
import type { SlackPoster } from './poster.js';
import type { SlackSettings } from './settings.js';
import type { Admitter } from '../../src/chat/admission.js';

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
  log: Log;
  /** Dedupe and the job queue (src/chat/admission.ts). */
  admitter: Admitter;
}

/** What the jobs use of the adapter's context (a worker has no receiver, limiter or dedupe). */
export type JobContext = Pick<SlackContext, 'core' | 'poster' | 'settings' | 'log'>;

/** The conversation id of a Slack channel: `slack:<team>:<channel>`. */
export function conversationId(team: string | undefined, channel: string): string {
  return `slack:${team ?? 'T'}:${channel}`;
}

/** Link to a message, e.g. `https://slack.com/archives/C123/p1700000000000100` (Slack resolves the workspace). */
export function messageLink(channel: string, ts: string): string {
  return `https://slack.com/archives/${encodeURIComponent(channel)}/p${ts.replace('.', '')}`;
}
