/**
 * A queue-mode world made of real processes: a redis-server (queue, limits and the shared history
 * store), the fake Slack Web API and fake OpenAI server in this process, and `code-agent slack`
 * ingress processes and `code-agent worker` processes built from dist/, all on one config file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { CLI_BIN, requireBuiltCli } from '../helpers/cli.js';
import { startRedis, stopChild, type TestServer } from '../helpers/servers.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { sendCommand, type AppResponse, type SlashFields } from '../fakes/slack-signed.js';

export const SECRET = 'test-signing-secret';
export const TEAM = 'T0001';

/** A started `code-agent` child process. */
export interface Proc {
  child: ChildProcess;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
}

export interface QueueWorld {
  redis: TestServer;
  slack: FakeSlack;
  llm: FakeOpenAi;
  dir: string;
  configFile: string;
  /** Base URLs of the ingress processes, `http://127.0.0.1:<port>`. */
  ingress: string[];
  ingressProcs: Proc[];
  workers: Proc[];
  /** Starts one more worker (`dataDir`: its own `store.data_dir`, as on another host); resolves once it takes jobs. */
  addWorker(options?: { dataDir?: string }): Promise<Proc>;
  /** A signed slash command to one ingress. */
  command(ingress: number, fields: Partial<SlashFields> & { text: string }, headers?: Record<string, string>): Promise<AppResponse>;
  close(): Promise<void>;
}

export interface QueueWorldOptions {
  replies: FakeReply[];
  ingresses: number;
  workers: number;
  slack?: Record<string, unknown>;
  queue?: Record<string, unknown>;
  sandbox?: Record<string, unknown>;
  /** Ingress in Socket Mode (`slack.app_token` set; no HTTP port, `ingress` stays empty). */
  socketMode?: boolean;
  /** `log.level` of every process (default `error`; `info` makes workers log each job's start). */
  logLevel?: string;
  /** `agent` keys over the defaults (no auto-fix, no verification). */
  agent?: Record<string, unknown>;
  /** The config's `tools` section (none by default). */
  tools?: Record<string, unknown>;
  /** More top-level config sections (`ops`, `limits`, …). */
  config?: Record<string, unknown>;
  /** `store.url` of every process (default: the world's Redis, which also holds the queue). */
  store?: string;
  /** Whether the fake workspace offers Slack's agent surface (status, streams); default false (today's messages). */
  agentSurface?: boolean;
}

/**
 * Spawns `code-agent <args>` and resolves once a stderr line matches `ready` (or rejects when it exits first).
 * `timeoutMs`: 60 s by default, since a process that loads every platform's library can take half a minute to start
 * on a 2-core machine busy with other test files' sandboxes.
 */
export async function spawnCli(args: string[], cwd: string, ready: RegExp, timeoutMs = 60_000): Promise<Proc & { match: RegExpMatchArray }> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-agent ${args[0]} did not start within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    child.stderr!.on('data', (d) => {
      stderr += d;
      const m = stderr.match(ready);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-agent ${args[0]} exited with ${code}: ${stderr}`));
    });
  });
  return { child, match, stderr: () => stderr };
}

/** Stops a child (SIGTERM, then SIGKILL after 10 s: a worker finishes its running job first) and waits for its exit. */
export function stopProc(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return stopChild(child, signal, 10_000);
}

/**
 * A copy of a world's config whose `store.data_dir` is `dataDir`: a process started with it shares
 * the store (Redis) and the queue but not the disk, as a process on another host would.
 * @returns the copy's path (next to the config)
 */
export async function configWithDataDir(configFile: string, dataDir: string): Promise<string> {
  const config = parse(await readFile(configFile, 'utf8')) as { store: Record<string, unknown> };
  config.store.data_dir = dataDir;
  const copy = `${configFile.replace(/\.yaml$/, '')}-${randomUUID()}.yaml`;
  await writeFile(copy, stringify(config));
  return copy;
}

/** The config keys every queue-mode test world shares: the fake LLM, the sandbox, the store (on Redis, unless another URL is given), the log level. */
export function commonConfig(
  llmUrl: string,
  storeUrl: string,
  dir: string,
  sandbox: Record<string, unknown> = {},
  logLevel = 'error',
  agent: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    llm: { provider: 'openai', base_url: llmUrl, api_key: 'sk-test', model: 'fake-model', max_retries: 0, timeout_s: 20 },
    agent: { max_retries: 0, verify: 'off', ...agent },
    // no warm pool: every worker refilling one per job would load the 2-core CI machine for nothing
    // these tests look at (the pool has its own tests)
    sandbox: { timeout_s: 20, cpu_time_s: 20, memory_mb: 1024, warm_pool: 0, ...sandbox },
    store: { url: storeUrl, data_dir: join(dir, 'data') },
    log: { level: logLevel },
  };
}

/** Starts redis, the fakes, the ingress processes and the workers. */
export async function startQueueWorld(options: QueueWorldOptions): Promise<QueueWorld> {
  requireBuiltCli();
  const dir = await mkdtemp(join(tmpdir(), 'queue-test-'));
  const redis = await startRedis();
  const slack = await startFakeSlack({ teamId: TEAM, agentSurface: options.agentSurface ?? false });
  const llm = await startFakeOpenAi({ replies: options.replies });
  const procs: Proc[] = [];
  const configFile = join(dir, 'config.yaml');
  await writeFile(
    configFile,
    stringify({
      ...commonConfig(llm.url, options.store ?? redis.url, dir, options.sandbox, options.logLevel, options.agent),
      ...(options.tools ? { tools: options.tools } : {}),
      ...options.config,
      slack: {
        bot_token: 'xoxb-test',
        signing_secret: SECRET,
        port: 0,
        api_url: slack.apiUrl,
        history_limit: 100,
        ...(options.socketMode ? { app_token: 'xapp-test' } : {}),
        ...options.slack,
      },
      queue: { url: redis.url, name: 'test', lock_s: 2, stalled_interval_s: 1, ...options.queue },
    }),
  );
  const world: QueueWorld = {
    redis,
    slack,
    llm,
    dir,
    configFile,
    ingress: [],
    ingressProcs: [],
    workers: [],
    async addWorker(o = {}) {
      const config = o.dataDir ? await configWithDataDir(configFile, o.dataDir) : configFile;
      const proc = await spawnCli(['worker', '--config', config], dir, /worker running/);
      procs.push(proc);
      world.workers.push(proc);
      return proc;
    },
    command: (i, fields, headers) =>
      sendCommand(world.ingress[i]!, SECRET, { command: '/run', user_id: 'U_ALICE', user_name: 'alice', channel_id: 'C_MAIN', team_id: TEAM, ...fields }, headers),
    async close() {
      await Promise.all(procs.map((p) => stopProc(p.child)));
      await Promise.all([slack.close(), llm.close()]);
      await redis.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    for (let i = 0; i < options.ingresses; i++) {
      const proc = await spawnCli(['slack', '--config', configFile], dir, /HTTP on port (\d+)|Socket Mode/);
      procs.push(proc);
      world.ingressProcs.push(proc);
      if (proc.match[1]) world.ingress.push(`http://127.0.0.1:${proc.match[1]}`);
    }
    for (let i = 0; i < options.workers; i++) await world.addWorker();
  } catch (err) {
    await world.close();
    throw err;
  }
  return world;
}
