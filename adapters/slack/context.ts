/**
 * What every Slack handler shares: the wired core, `app` (for `/usage`), the settings, the poster, the
 * pipeline's entry (src/chat/ingress.ts: admission, the queue in memory or in Redis — the handlers
 * do not know which), a logger.
 */
import type { App } from '../../src/app/app.js';
import type { ChatIngress } from '../../src/chat/incoming-port.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import type { SlackPoster } from './poster.js';
import type { SlackSettings } from './settings.js';

/** Shared state of the adapter's handlers. */
export interface SlackContext {
  app: App;
  settings: SlackSettings;
  poster: SlackPoster;
  /** Bolt's logger satisfies it. */
  log: ChatLog;
  /** The pipeline's entry for Slack's requests. */
  ingress: ChatIngress<string>;
}
