/**
 * The files of a throwaway Synapse (test/helpers/synapse.ts): its config, its logging config and
 * its signing key, all inside one dir. YAML is a superset of JSON, so the configs are written as JSON.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/** What {@link synapseConfig} needs. */
export interface SynapseConfigOptions {
  /** The dir that holds everything (the SQLite database, media, keys, pid file). */
  dir: string;
  /** The loopback port of the client listener. */
  port: number;
  /** The server name (`localhost`). */
  serverName: string;
  /** The registration shared secret of the admin API's `/_synapse/admin/v1/register`. */
  registrationSecret: string;
  /** The largest media upload Synapse takes (its `max_upload_size`, e.g. `1K`); default `50M`. */
  maxUploadSize?: string;
}

/** Every rate limit Synapse 1.163 reads (synapse/config/ratelimiting.py), set far out of a test's reach. */
const UNLIMITED = { per_second: 10_000, burst_count: 100_000 };
const RATE_LIMITS = {
  rc_message: UNLIMITED,
  rc_registration: UNLIMITED,
  rc_registration_token_validity: UNLIMITED,
  rc_login: { address: UNLIMITED, account: UNLIMITED, failed_attempts: UNLIMITED },
  rc_admin_redaction: UNLIMITED,
  rc_joins: { local: UNLIMITED, remote: UNLIMITED },
  rc_joins_per_room: UNLIMITED,
  rc_key_requests: UNLIMITED,
  rc_3pid_validation: UNLIMITED,
  rc_invites: { per_room: UNLIMITED, per_user: UNLIMITED, per_issuer: UNLIMITED },
  rc_third_party_invite: UNLIMITED,
  rc_media_create: UNLIMITED,
  rc_presence: { per_user: UNLIMITED },
  rc_delayed_event_mgmt: UNLIMITED,
  rc_room_creation: UNLIMITED,
  rc_reports: UNLIMITED,
  rc_user_directory: UNLIMITED,
  rc_profile: UNLIMITED,
};

/**
 * The file name → text of a Synapse that listens on 127.0.0.1:`port` (client and admin APIs only,
 * no federation listener, no remote server allowed or trusted for keys), keeps everything in
 * `dir` (SQLite), logs warnings and errors to stderr, reports no stats, serves no metrics, and
 * takes uploads up to 50 MB. Authenticated media stays on, as on every current homeserver:
 * downloads go through `/_matrix/client/v1/media/download` with an access token.
 */
export function synapseConfig(options: SynapseConfigOptions): Record<'homeserver.yaml' | 'log.yaml' | 'signing.key', string> {
  const { dir, port, serverName, registrationSecret, maxUploadSize = '50M' } = options;
  const homeserver = {
    server_name: serverName,
    public_baseurl: `http://127.0.0.1:${port}/`,
    pid_file: join(dir, 'homeserver.pid'),
    listeners: [
      { port, bind_addresses: ['127.0.0.1'], type: 'http', tls: false, x_forwarded: false, resources: [{ names: ['client'], compress: false }] },
    ],
    database: { name: 'sqlite3', args: { database: join(dir, 'homeserver.db') } },
    media_store_path: join(dir, 'media'),
    max_upload_size: maxUploadSize,
    url_preview_enabled: false,
    signing_key_path: join(dir, 'signing.key'),
    log_config: join(dir, 'log.yaml'),
    report_stats: false,
    enable_metrics: false,
    enable_registration: false,
    registration_shared_secret: registrationSecret,
    macaroon_secret_key: randomBytes(24).toString('hex'),
    form_secret: randomBytes(24).toString('hex'),
    bcrypt_rounds: 4, // registration hashes a password; the default 12 rounds take ~0.3 s each
    use_presence: false,
    federation_domain_whitelist: [],
    trusted_key_servers: [],
    suppress_key_server_warning: true,
    ...RATE_LIMITS,
  };
  const logging = {
    version: 1,
    formatters: { brief: { format: '%(asctime)s %(name)s %(levelname)s %(message)s' } },
    handlers: { stderr: { class: 'logging.StreamHandler', formatter: 'brief', stream: 'ext://sys.stderr' } },
    root: { level: 'WARNING', handlers: ['stderr'] },
    disable_existing_loggers: false,
  };
  // ed25519 <key id> <unpadded base64 of a 32-byte seed>, as `--generate-keys` writes (and ~3 s faster)
  const seed = randomBytes(32).toString('base64').replace(/=+$/, '');
  return {
    'homeserver.yaml': `${JSON.stringify(homeserver, null, 2)}\n`,
    'log.yaml': `${JSON.stringify(logging, null, 2)}\n`,
    'signing.key': `ed25519 a_${randomBytes(3).toString('hex')} ${seed}\n`,
  };
}
