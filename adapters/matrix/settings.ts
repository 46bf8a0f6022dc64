/** The `matrix` config section in the units the adapter uses, and what it cannot start without. */
import { ConfigError } from '../../src/config/errors.js';
import type { Config } from '../../src/config/schema.js';
import { chatSettings, type ChatSettings } from '../../src/chat/chat-settings.js';

/** Settings of the Matrix adapter (the shared chat keys: {@link ChatSettings}). */
export interface MatrixSettings extends ChatSettings {
  homeserverUrl: string;
  accessToken: string;
  /** The bot's user id; undefined: asked of the homeserver (`/account/whoami`). */
  userId: string | undefined;
  allowedRooms: string[];
  allowedUsers: string[];
  /** Where the sync token is kept between restarts (so no event is handled twice or missed). */
  dataDir: string;
}

/**
 * Reads the settings.
 * @throws {ConfigError} when `matrix.homeserver_url` or `matrix.access_token` is not set
 */
export function matrixSettings(config: Config): MatrixSettings {
  const m = config.matrix;
  if (!m?.homeserver_url) throw new ConfigError('matrix.homeserver_url is not set: set MATRIX_HOMESERVER_URL to the homeserver\'s client API URL, e.g. https://matrix.example.org (docs/matrix.md)');
  if (!m.access_token) throw new ConfigError('matrix.access_token is not set: set MATRIX_ACCESS_TOKEN to the bot user\'s access token (docs/matrix.md: "Get a token")');
  return {
    homeserverUrl: m.homeserver_url.replace(/\/+$/, ''),
    accessToken: m.access_token,
    userId: m.user_id,
    allowedRooms: m.allowed_rooms,
    allowedUsers: m.allowed_users,
    ...chatSettings(m),
    dataDir: config.store.data_dir,
  };
}
