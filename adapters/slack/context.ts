/**
 * What every Slack handler shares: the core (for `/usage`), the settings, the poster, the
 * pipeline's entry (src/chat/ingress.ts: admission, the queue in memory or in Redis — the handlers
 * do not know which), a logger.
 */
import type { App as Core } from '../../src/app/app.js';
import type { ChatIngress } from '../../src/chat/incoming-port.js';
import type { SlackPoster } from './poster.js';
import type { SlackSettings } from './settings.js';

/** Minimal logger (Bolt's Logger satisfies it). */
export interface Log {
  info(...msg: unknown[]): void;
  warn(...msg: unknown[]): void;
  error(...msg: unknown[]): void;
}

/** Shared state of the adapter's handlers. */
export interface SlackContext {
  core: Core;
  settings: SlackSettings;
  poster: SlackPoster;
  log: Log;
  /** The pipeline's entry for Slack's requests. */
  ingress: ChatIngress<string>;
}
