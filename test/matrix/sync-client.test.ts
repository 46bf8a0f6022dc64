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
import { startFakeOpenAi } from '../fakes/openai-server.js';
import { RUN_KEY } from '../../adapters/matrix/markup.js';

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

  // last: its bot process adds to the room's history, which a fresh client's first sync reads
  it('B3: SIGTERM with a message in flight: stopped within 5 s, the message answered once (before the stop or after the restart)', async () => {
    requireBuiltCli();
    const dir = await mkdtemp(join(tmpdir(), 'matrix-b3-'));
    const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;
    // two replies: a second answer of the same message would use the second one
    const llm = await startFakeOpenAi({ replies: [py('print("answered once")'), py('print("answered twice")')] });
    try {
      const config = join(dir, 'config.yaml');
      const base = commonConfig(llm.url, `sqlite://${join(dir, 'history.sqlite')}`, dir);
      await writeFile(config, stringify({ ...base, matrix: { homeserver_url: hs.url, access_token: bot.accessToken } }));
      const first = await spawnCli(['matrix', '--config', config], dir, /Matrix bot .* running/);
      await new Promise((r) => setTimeout(r, 1500)); // a long-poll is open by now
      const exited = new Promise<number | null>((resolve) => first.child.once('exit', (code) => resolve(code)));
      const asked = await alice.sendText(roomId, '!run print the words answered once');
      const started = Date.now();
      first.child.kill('SIGTERM'); // while the message is on its way to the bot's /sync
      expect(await exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
      const second = await spawnCli(['matrix', '--config', config], dir, /Matrix bot .* running/);
      try {
        /** The bot's final messages in the request's thread. */
        const finals = async () => {
          const res = await fetch(`${hs.url}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/messages?dir=b&limit=100`, { headers: { authorization: `Bearer ${alice.accessToken}` } });
          const { chunk } = (await res.json()) as { chunk: { sender: string; content: Record<string, unknown> }[] };
          return chunk.filter((e) => e.sender === bot.userId && typeof e.content[RUN_KEY] === 'string' && JSON.stringify(e.content['m.relates_to'] ?? {}).includes(asked));
        };
        const deadline = Date.now() + 60_000;
        while ((await finals()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
        await new Promise((r) => setTimeout(r, 3000)); // a second answer would come by now
        const answered = await finals();
        expect(answered).toHaveLength(1);
        expect(llm.requests).toHaveLength(1);
      } finally {
        second.child.kill('SIGTERM');
        await new Promise((r) => second.child.once('exit', r));
      }
    } finally {
      await llm.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
