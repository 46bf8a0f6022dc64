/**
 * A real Matrix homeserver for tests: Synapse from the virtualenv `npm run setup` installs
 * (scripts/synapse.mjs), started on a free loopback port with SQLite in its own temp dir, no
 * federation, rate limits out of the way, and users registered through the admin API with the
 * registration shared secret. `stop()` ends the process and removes the dir. Running as root is fine.
 */
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedPort } from './net.js';
import { stopChild } from './servers.js';
import { synapsePython } from '../../scripts/synapse.mjs';
import { synapseConfig } from './synapse-config.js';

/** A user made by {@link TestHomeserver.registerUser}. */
export interface MatrixUser {
  /** `@name:<serverName>` */
  userId: string;
  /** A client-server API access token (a fresh device). */
  accessToken: string;
  /** The password it was registered with, for tests that log in. */
  password: string;
}

/** A running Synapse. */
export interface TestHomeserver {
  /** The client-server API base, `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  /** The server name in user ids and `mxc://` URIs: `localhost`. */
  serverName: string;
  /**
   * Registers `name` (a Matrix localpart: lower case, digits, `._=-/`) through
   * `/_synapse/admin/v1/register` with the shared secret's HMAC-SHA1.
   * @param admin a server admin (may call `/_synapse/admin/*`); default false
   * @throws when Synapse refuses (the name is taken or invalid), with its status and errcode
   */
  registerUser(name: string, admin?: boolean): Promise<MatrixUser>;
  /** Synapse's last output (up to 8,000 characters, warnings and errors only), for failure messages. */
  logs(): string;
  /** Stops Synapse (SIGTERM, SIGKILL after 5 s) and removes its dir. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * How long Synapse may take to answer `/_matrix/client/versions` after it is spawned: 3–5 s on a
 * busy 2-core machine, 12 s seen on an overloaded one; under vitest's 60 s hook timeout, so this
 * error, with Synapse's output, is the one reported.
 */
const START_TIMEOUT_MS = 45_000;
const SERVER_NAME = 'localhost';

/**
 * Starts Synapse (`maxUploadSize`: its `max_upload_size`, default 50M) and waits until `/_matrix/client/versions` answers 200.
 * @throws when setup has not installed Synapse (says to run `npm run setup`), or Synapse exits or
 * does not answer within 45 s (with its output); the process and dir are cleaned up first
 */
export async function startSynapse(options: { maxUploadSize?: string } = {}): Promise<TestHomeserver> {
  const python = synapsePython();
  if (!python) throw new Error(`Synapse is not installed for the tests: run "npm run setup" (as root; it installs matrix-synapse into a virtualenv, scripts/synapse.mjs)`);
  const dir = mkdtempSync(join(tmpdir(), 'synapse-test-'));
  const port = await closedPort();
  const secret = randomBytes(24).toString('hex');
  const files = synapseConfig({ dir, port, serverName: SERVER_NAME, registrationSecret: secret, ...options });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text, { mode: 0o600 });
  const child = spawn(python, ['-m', 'synapse.app.homeserver', '--config-path', join(dir, 'homeserver.yaml')], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  // a test worker that ends without calling stop() must not leave a homeserver behind
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', onExit);
    await stopChild(child, 'SIGTERM', 5000);
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForClientApi(url, () => child.exitCode ?? child.signalCode, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    serverName: SERVER_NAME,
    registerUser: (name, admin = false) => register(url, secret, name, admin),
    logs: () => output,
    stop,
  };
}

/** Polls `<url>/_matrix/client/versions` every 100 ms until it answers 200. */
async function waitForClientApi(url: string, exited: () => number | string | null, output: () => string): Promise<void> {
  const until = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < until) {
    const code = exited();
    if (code !== null) throw new Error(`Synapse exited (${code}) before it answered: ${output()}`);
    const ok = await fetch(`${url}/_matrix/client/versions`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Synapse did not answer ${url}/_matrix/client/versions within ${START_TIMEOUT_MS} ms: ${output()}`);
}

/** Shared-secret registration (Synapse's admin API): a nonce, then the user with the nonce's HMAC. */
async function register(url: string, secret: string, name: string, admin: boolean): Promise<MatrixUser> {
  const endpoint = `${url}/_synapse/admin/v1/register`;
  const { nonce } = (await json(await fetch(endpoint), 'nonce')) as { nonce: string };
  const password = randomBytes(12).toString('hex');
  const mac = createHmac('sha1', secret)
    .update([nonce, name, password, admin ? 'admin' : 'notadmin'].join('\0'))
    .digest('hex');
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nonce, username: name, password, admin, mac }),
  });
  const body = (await json(res, `register ${name}`)) as { user_id: string; access_token: string };
  return { userId: body.user_id, accessToken: body.access_token, password };
}

/** The JSON body of a 2xx answer. @throws with the status and Synapse's errcode and error otherwise */
async function json(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (!res.ok) throw new Error(`Synapse refused ${what}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}
