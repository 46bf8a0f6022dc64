/**
 * Matrix test worlds on a real Synapse (test/helpers/synapse.ts): the bot user, two people (alice,
 * bob) with matrix-bot-sdk clients that sync, and a room the bot was invited to. Embedded: the bot
 * runs in this process on a real agent and sandbox, with the fake OpenAI server. Queue mode: a
 * redis-server, a `code-agent matrix` ingress and `code-agent worker` processes built from dist/.
 * A {@link Timeline} keeps what each person's client sees, edits applied (`m.replace`).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { LogLevel, LogService, MatrixClient, MemoryStorageProvider } from 'matrix-bot-sdk';
import { createApp, type App } from '../../src/app/app.js';
import { parseConfig } from '../../src/config/load.js';
import { startMatrixBot, type MatrixBot } from '../../adapters/matrix/main.js';
import { RUN_KEY } from '../../adapters/matrix/markup.js';
import { startSynapse, type MatrixUser, type TestHomeserver } from '../helpers/synapse.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';
import { startRedis, type TestServer } from '../helpers/servers.js';
import { requireBuiltCli } from '../helpers/cli.js';
import { commonConfig, configWithDataDir, spawnCli, stopProc, type Proc } from '../queue/harness.js';

LogService.setLevel(LogLevel.ERROR);
LogService.muteModule('MatrixHttpClient');

/** A room event as a client sees it (content: the latest edit's). */
export interface SeenEvent {
  event_id: string;
  sender: string;
  type: string;
  content: Record<string, any>;
}

/** What one person's client has seen of a room, edits applied. */
export class Timeline {
  readonly events: SeenEvent[] = [];
  private readonly byId = new Map<string, SeenEvent>();

  constructor(readonly client: MatrixClient, readonly roomId: string) {
    client.on('room.event', (roomId: string, e: SeenEvent) => {
      if (roomId !== this.roomId || this.byId.has(e.event_id)) return;
      const rel = e.content?.['m.relates_to'];
      if (rel?.rel_type === 'm.replace') {
        const target = this.byId.get(rel.event_id);
        if (target) target.content = { ...e.content['m.new_content'], 'm.relates_to': target.content['m.relates_to'], [RUN_KEY]: target.content[RUN_KEY] };
        return;
      }
      const copy = { ...e, content: { ...e.content } };
      this.byId.set(e.event_id, copy);
      this.events.push(copy);
    });
  }

  /** The messages in a thread, in order. */
  inThread(root: string): SeenEvent[] {
    return this.events.filter((e) => e.type === 'm.room.message' && e.content['m.relates_to']?.rel_type === 'm.thread' && e.content['m.relates_to'].event_id === root);
  }

  /** The bot's answers to an event outside threads (replies to it). */
  answersTo(eventId: string): SeenEvent[] {
    return this.events.filter((e) => e.content['m.relates_to']?.['m.in_reply_to']?.event_id === eventId && e.content['m.relates_to']?.rel_type !== 'm.thread');
  }

  /** Resolves with `get()`'s value once it is truthy; rejects after `ms`. */
  async waitFor<T>(get: () => T | undefined | false, ms: number, what: string): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const value = get();
      if (value) return value;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** A person: their user and a syncing client with its timeline of the world's room. */
export interface Person {
  user: MatrixUser;
  client: MatrixClient;
  timeline: Timeline;
}

/** A Matrix world (see the module comment). */
export interface MatrixWorld {
  hs: TestHomeserver;
  llm: FakeOpenAi;
  dir: string;
  roomId: string;
  botUser: MatrixUser;
  alice: Person;
  bob: Person;
  /** Embedded: the bot and its core. */
  bot?: MatrixBot;
  app?: App;
  /** Queue mode: the processes, and a worker started on demand. */
  workers?: Proc[];
  addWorker?(o?: { dataDir?: string }): Promise<Proc>;
  /** Creates a room as alice (with `initial_state`, e.g. encryption), invites the bot and waits until it joined; its timeline is alice's from the start. */
  room(initialState?: Array<{ type: string; state_key?: string; content: unknown }>): Promise<{ id: string; timeline: Timeline }>;
  close(): Promise<void>;
}

/** Options of {@link startMatrixWorld}. */
export interface MatrixWorldOptions {
  maxRetries?: number;
  /** `agent` keys over the defaults (e.g. `verify: 'checks'`). */
  agent?: Record<string, unknown>;
  /** `matrix` keys over the defaults. */
  matrix?: (w: { hs: TestHomeserver; bot: MatrixUser; alice: MatrixUser; bob: MatrixUser; roomId: string }) => Record<string, unknown>;
  /** Queue mode: how many workers, and ingresses (each with a data dir of its own: its sync token). */
  queue?: { workers: number; ingresses?: number };
}

/** Starts a world (see the module comment). */
export async function startMatrixWorld(options: MatrixWorldOptions = {}): Promise<MatrixWorld> {
  if (options.queue) requireBuiltCli();
  const dir = await mkdtemp(join(tmpdir(), 'matrix-test-'));
  const hs = await startSynapse();
  const llm = await startFakeOpenAi({ replies: [] });
  const [botUser, aliceUser, bobUser] = await Promise.all([hs.registerUser('codebot'), hs.registerUser('alice'), hs.registerUser('bob')]);
  const person = (user: MatrixUser): Person => {
    const client = new MatrixClient(hs.url, user.accessToken, new MemoryStorageProvider());
    return { user, client, timeline: undefined as unknown as Timeline };
  };
  const alice = person(aliceUser);
  const bob = person(bobUser);
  const roomId = await alice.client.createRoom({ name: 'code', invite: [botUser.userId, bobUser.userId], preset: 'public_chat' });
  await bob.client.joinRoom(roomId);
  alice.timeline = new Timeline(alice.client, roomId);
  bob.timeline = new Timeline(bob.client, roomId);
  await Promise.all([alice.client.start(), bob.client.start()]);
  const matrix = { homeserver_url: hs.url, access_token: botUser.accessToken, user_id: botUser.userId, history_limit: 25, ...options.matrix?.({ hs, bot: botUser, alice: aliceUser, bob: bobUser, roomId }) };
  const procs: Proc[] = [];
  let redis: TestServer | undefined;
  const world: MatrixWorld = {
    hs, llm, dir, roomId, botUser, alice, bob,
    async room(initialState: Array<{ type: string; state_key?: string; content: unknown }> = []) {
      const id = await alice.client.createRoom({ invite: [botUser.userId], initial_state: initialState });
      const joined = new Timeline(alice.client, id);
      await joined.waitFor(() => joined.events.some((e) => e.type === 'm.room.member' && e.content.membership === 'join' && e.sender === botUser.userId), 20_000, 'the bot to join');
      return { id, timeline: joined };
    },
    async close() {
      alice.client.stop();
      bob.client.stop();
      await world.bot?.stop(5000).catch(() => undefined);
      await world.app?.close();
      await Promise.all(procs.map((p) => stopProc(p.child)));
      await redis?.stop();
      await llm.close();
      await hs.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    if (!options.queue) {
      const config = parseConfig({
        llm: { provider: 'openai', base_url: llm.url, api_key: 'test', model: 'fake-model', max_retries: 0 },
        agent: { max_retries: options.maxRetries ?? 2, verify: 'off', ...options.agent },
        sandbox: { timeout_s: 10 },
        store: { url: `sqlite://${join(dir, 'history.sqlite')}`, data_dir: dir },
        matrix,
      }, {});
      world.app = await createApp(config);
      world.bot = await startMatrixBot(world.app, { info: () => undefined, warn: () => undefined, error: (...m) => console.error(...m) });
    } else {
      redis = await startRedis();
      const configFile = join(dir, 'config.yaml');
      await writeFile(configFile, stringify({ ...commonConfig(llm.url, redis.url, dir, {}, 'error', { max_retries: options.maxRetries ?? 2, ...options.agent }), matrix, queue: { url: redis.url, name: 'matrix-test', lock_s: 2, stalled_interval_s: 1 } }));
      world.workers = [];
      world.addWorker = async (o = {}) => {
        const proc = await spawnCli(['worker', '--config', o.dataDir ? await configWithDataDir(configFile, o.dataDir) : configFile], dir, /worker running/);
        procs.push(proc);
        world.workers!.push(proc);
        return proc;
      };
      for (let i = 0; i < (options.queue.ingresses ?? 1); i++) {
        procs.push(await spawnCli(['matrix', '--config', await configWithDataDir(configFile, join(dir, `ingress-${i}`))], dir, /Matrix bot .* running/));
      }
      for (let i = 0; i < options.queue.workers; i++) await world.addWorker();
    }
    await alice.timeline.waitFor(() => alice.timeline.events.some((e) => e.type === 'm.room.member' && e.sender === botUser.userId && e.content.membership === 'join'), 20_000, 'the bot to join');
  } catch (err) {
    await world.close();
    throw err;
  }
  return world;
}
