/**
 * The Slack adapter's settings, resolved from the `slack` config section: which transport
 * (HTTP or Socket Mode), which port, who may run code, and the limits of attached files.
 */
import type { Config } from '../../src/config/schema.js';
import { slackSchema } from '../../src/config/schema.js';
import { ConfigError } from '../../src/config/load.js';
import { chatSettings, type ChatSettings } from '../../src/chat/chat-settings.js';
import type { CommandNames } from '../../src/chat/incoming-port.js';
import type { UsageAdmins } from '../../src/chat/usage-view.js';

/** Slack's documented `slackApiUrl` default (https://docs.slack.dev/tools/node-slack-sdk/web-api). */
export const SLACK_API_URL = 'https://slack.com/api/';

/** Everything the adapter needs from the config, with defaults applied (the shared chat keys: {@link ChatSettings}). */
export interface SlackSettings extends ChatSettings {
  botToken: string;
  /** `http` serves Bolt's `/slack/events` on `port`; `socket` connects out with `appToken`. */
  mode: 'http' | 'socket';
  /** Required in HTTP mode (request signatures); unused in Socket Mode. */
  signingSecret?: string;
  appToken?: string;
  /** TCP port in HTTP mode; 0 picks a free one. */
  port: number;
  /** Web API base URL, ending in `/`. */
  apiUrl: string;
  /** Channel ids allowed to run code; empty = every channel. */
  allowedChannels: string[];
  /** User ids allowed to run code; empty = everyone. */
  allowedUsers: string[];
  /** Who may use `/usage` (`slack.admin_users`; empty: nobody). */
  admins: UsageAdmins;
  /** Slash command names (`slack.commands`; defaults `/run`, `/generate`, `/history`, `/show`, `/usage`, `/remember`, `/memory`, `/programs`, `/program`). */
  commands: SlackCommandNames;
}

/** The names the slash commands answer to: the chat commands', and `/usage` (`slack.commands`). */
export type SlackCommandNames = CommandNames & { usage: string };

/**
 * Resolves the settings. The port is `slack.port` (whose default is `$PORT`), else 3000.
 * @param role `worker` (queue mode's `code-agent worker`) does not require the signing secret.
 * @throws {ConfigError} when `slack.bot_token` is missing, `slack.signing_secret` is missing in HTTP
 *   mode, or `slack.app_token` is not an app-level token (`xapp-…`).
 */
export function slackSettings(config: Config, role: 'receiver' | 'worker' = 'receiver'): SlackSettings {
  const s = config.slack ?? slackSchema.parse({});
  if (!s.bot_token) throw new ConfigError('slack.bot_token is not set: set SLACK_BOT_TOKEN (xoxb-…) or slack.bot_token (docs/slack.md)');
  const mode = s.app_token ? 'socket' : 'http';
  // Slack answers apps.connections.open with any other token type by `not_allowed_token_type`, which
  // @slack/socket-mode retries forever (5 s, 10 s, 15 s…): the app would hang at start, so refuse here
  if (s.app_token && !s.app_token.startsWith('xapp-')) {
    throw new ConfigError(
      'slack.app_token is not an app-level token (those start with xapp-): ' +
        'generate one under Basic Information → App-Level Tokens with the connections:write scope (SLACK_APP_TOKEN); ' +
        'the bot token (xoxb-…) goes in slack.bot_token (docs/slack.md)',
    );
  }
  // a queue worker only calls the Web API: it receives nothing, so it needs no signing secret
  if (mode === 'http' && !s.signing_secret && role === 'receiver') {
    throw new ConfigError('slack.signing_secret is not set: HTTP mode verifies every request with it (set SLACK_SIGNING_SECRET), or set slack.app_token (xapp-…) for Socket Mode');
  }
  return {
    botToken: s.bot_token,
    mode,
    signingSecret: s.signing_secret,
    appToken: s.app_token,
    port: s.port ?? 3000, // $PORT is read by the config loader (slack.port defaults to it)
    apiUrl: s.api_url ? s.api_url.replace(/\/?$/, '/') : SLACK_API_URL,
    allowedChannels: s.allowed_channels,
    allowedUsers: s.allowed_users,
    admins: { users: s.admin_users, keys: 'slack.admin_users' },
    ...chatSettings(s),
    commands: s.commands,
  };
}
