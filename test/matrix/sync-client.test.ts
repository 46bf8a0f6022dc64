/**
 * The bot's syncing client against a real Synapse (case B3): a stop does not wait for the 30 s
 * `/sync` long-poll, and a batch's sync token is saved only after the handlers of its events ended,
 * so an event whose handling a stop or a kill interrupted is synced again after a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogLevel, LogService, MatrixClient, MemoryStorageProvider } from 'matrix-bot-sdk';
import { SyncingClient } from '../../adapters/matrix/sync-client.js';
import { startSynapse, type MatrixUser, type TestHomeserver } from '../helpers/synapse.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { requireBuiltCli } from '../helpers/cli.js';
import { commonConfig, spawnCli } from '../queue/harness.js';

LogService.setLevel(LogLevel.ERROR);
LogService.muteModule('MatrixHttpClient');

describe('the syncing client (Synapse)', () => {
  let hs: TestHomeserver;
  let bot: MatrixUser;
  let alice: MatrixClient;
  let roomId: string;

  beforeAll(async () => {
    hs = await startSynapse();
    const [b, a] = await Promise.all([hs.registerUser('syncbot'), hs.registerUser('alice')]);
    bot = b;
    alice = new MatrixClient(hs.url, a.accessToken, new MemoryStorageProvider());
    roomId = await alice.createRoom({ invite: [bot.userId], preset: 'public_chat' });
    await new MatrixClient(hs.url, bot.accessToken).joinRoom(roomId);
  }, 90_000);
  afterAll(async () => {
    await hs?.stop();
  });

  /** A client syncing as the bot whose handler of alice's messages waits for `release` before it ends. */
  async function syncing(storage: MemoryStorageProvider, onMessage: (body: string) => Promise<void>) {
    const client = new SyncingClient(hs.url, bot.accessToken, storage);
    client.on('room.message', (room: string, ev: { sender: string; content?: { body?: string } }) => {
      if (room === roomId && ev.sender !== bot.userId) client.handling(onMessage(String(ev.content?.body)));
    });
    await client.start();
    return client;
  }

  const until = async (ok: () => boolean, ms: number, what: string) => {
    const end = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('code-agent matrix, idle, exits within a few seconds of SIGTERM (a runtime kills what takes 10 s)', async () => {
    requireBuiltCli();
    const dir = await mkdtemp(join(tmpdir(), 'matrix-stop-'));
    try {
      const config = join(dir, 'config.yaml');
      const base = commonConfig('http://127.0.0.1:9/v1', `sqlite://${join(dir, 'history.sqlite')}`, dir);
      await writeFile(config, stringify({ ...base, matrix: { homeserver_url: hs.url, access_token: bot.accessToken } }));
      const { child } = await spawnCli(['matrix', '--config', config], dir, /Matrix bot .* running/);
      await new Promise((r) => setTimeout(r, 2000)); // a long-poll is open by now
      const started = Date.now();
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("saves a batch's token only after its handlers ended: an interrupted event is synced again after a restart", async () => {
    const storage = new MemoryStorageProvider();
    let release!: () => void;
    const seen: string[] = [];
    const first = await syncing(storage, async (body) => {
      seen.push(body);
      await new Promise<void>((r) => (release = r));
    });
    await new Promise((r) => setTimeout(r, 1500));
    const before = storage.getSyncToken();
    await alice.sendText(roomId, 'during shutdown');
    await until(() => seen.includes('during shutdown'), 20_000, 'the handler to start');
    await new Promise((r) => setTimeout(r, 300));
    expect(storage.getSyncToken()).toBe(before); // its batch is not marked seen while it is handled
    first.stop(); // the process stops before the handler ended (as a kill would)

    const again: string[] = [];
    const second = await syncing(storage, async (body) => void again.push(body));
    await until(() => again.includes('during shutdown'), 20_000, 'the event to come again');
    await until(() => storage.getSyncToken() !== before, 5000, 'the token to advance');
    second.stop();
    release();
  });
});
