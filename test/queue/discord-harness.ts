/**
 * A Discord queue-mode world made of real processes: a redis-server (queue, limits and the shared
 * history store), the fake Discord (REST + gateway) and the fake OpenAI server in this process, one
 * `code-agent discord` gateway ingress and `code-agent worker` processes built from dist/.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { requireBuiltCli } from '../helpers/cli.js';
import { startRedis, type TestServer } from '../helpers/servers.js';
import { startFakeDiscord, type FakeDiscord, type FakeUser, type From } from '../fakes/discord-server.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { commonConfig, configWithDataDir, spawnCli, stopProc, type Proc } from './harness.js';

export interface DiscordQueueWorld {
  redis: TestServer;
  discord: FakeDiscord;
  llm: FakeOpenAi;
  general: { id: string };
  other: { id: string };
  alice: FakeUser;
  bob: FakeUser;
  ingress: Proc;
  workers: Proc[];
  /** The world's temp dir (config, data dirs), removed on close. */
  dir: string;
  from(user: FakeUser, channelId?: string): From;
  /** Starts one more worker (`dataDir`: its own `store.data_dir`, as on another host); resolves once it takes jobs. */
  addWorker(options?: { dataDir?: string }): Promise<Proc>;
  /** Delivers an interaction's INTERACTION_CREATE again (as after a gateway resume). */
  redeliver(interactionId: string): void;
  close(): Promise<void>;
}

export interface DiscordQueueOptions {
  replies: FakeReply[];
  workers: number;
  sandbox?: Record<string, unknown>;
  /** `log.level` of every process (default `error`; `info` makes workers log each job's start). */
  logLevel?: string;
  /** `agent` keys over the defaults (no auto-fix, no verification). */
  agent?: Record<string, unknown>;
  /** `discord` keys over the defaults, made from the world's people (e.g. access lists naming alice). */
  discord?: (w: { alice: FakeUser; bob: FakeUser }) => Record<string, unknown>;
  /** The config's `tools` section (none by default), or made from the id of the world's `general` channel. */
  tools?: Record<string, unknown> | ((general: string) => Record<string, unknown>);
}

/** Starts redis, the fakes, the gateway ingress and the workers. */
export async function startDiscordQueueWorld(options: DiscordQueueOptions): Promise<DiscordQueueWorld> {
  requireBuiltCli();
  const dir = await mkdtemp(join(tmpdir(), 'discord-queue-test-'));
  const redis = await startRedis();
  const discord = await startFakeDiscord({ heartbeatIntervalMs: 1000 });
  const llm = await startFakeOpenAi({ replies: options.replies });
  const general = discord.world.addChannel('general');
  const other = discord.world.addChannel('other');
  const alice = discord.world.addMember('alice');
  const bob = discord.world.addMember('bob');
  const configFile = join(dir, 'config.yaml');
  await writeFile(
    configFile,
    stringify({
      ...commonConfig(llm.url, redis.url, dir, options.sandbox, options.logLevel, options.agent),
      ...(options.tools ? { tools: typeof options.tools === 'function' ? options.tools(general.id) : options.tools } : {}),
      discord: { token: 'test-token', application_id: discord.world.applicationId, api_url: discord.apiUrl, history_limit: 25, ...options.discord?.({ alice, bob }) },
      queue: { url: redis.url, name: 'discord-test', lock_s: 2, stalled_interval_s: 1 },
    }),
  );
  const procs: Proc[] = [];
  const world: DiscordQueueWorld = {
    redis,
    discord,
    llm,
    general,
    other,
    alice,
    bob,
    ingress: undefined as unknown as Proc,
    workers: [],
    dir,
    from: (user, channelId = general.id) => ({ user, channelId }),
    async addWorker(o = {}) {
      const config = o.dataDir ? await configWithDataDir(configFile, o.dataDir) : configFile;
      const proc = await spawnCli(['worker', '--config', config], dir, /worker running/);
      procs.push(proc);
      world.workers.push(proc);
      return proc;
    },
    redeliver(interactionId) {
      const sent = (discord.gateway as unknown as { sent: Array<{ t: string; d: { id: string } }> }).sent;
      const payload = sent.find((e) => e.t === 'INTERACTION_CREATE' && e.d.id === interactionId);
      if (!payload) throw new Error(`no interaction ${interactionId} was dispatched`);
      discord.gateway.dispatch('INTERACTION_CREATE', { ...payload.d });
    },
    async close() {
      await Promise.all(procs.map((p) => stopProc(p.child)));
      await Promise.all([discord.close(), llm.close()]);
      await redis.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    world.ingress = await spawnCli(['discord', '--config', configFile], dir, /gateway ingress running/);
    procs.push(world.ingress);
    for (let i = 0; i < options.workers; i++) await world.addWorker();
  } catch (err) {
    await world.close();
    throw err;
  }
  return world;
}
