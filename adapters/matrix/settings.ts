/** The `matrix` config section in the units the adapter uses, and what it cannot start without. */
import { ConfigError } from '../../src/config/errors.js';
import type { Config } from '../../src/config/schema.js';

/** Settings of the Matrix adapter. */
export interface MatrixSettings {
  homeserverUrl: string;
  accessToken: string;
  /** The bot's user id; undefined: asked of the homeserver (`/account/whoami`). */
  userId: string | undefined;
  allowedRooms: string[];
  allowedUsers: string[];
  maxQueuePerChannel: number;
  /** Most files one request takes, and the largest, in bytes. */
  limits: { maxFiles: number; maxBytes: number };
  /** How long event ids are remembered for deduplication, in ms. */
  dedupeTtlMs: number;
  historyLimit: number;
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
    maxQueuePerChannel: m.max_queue_per_channel,
    limits: { maxFiles: m.max_input_files, maxBytes: Math.round(m.max_input_file_mb * 1024 * 1024) },
    dedupeTtlMs: m.dedupe_ttl_s * 1000,
    historyLimit: m.history_limit,
    dataDir: config.store.data_dir,
  };
}
