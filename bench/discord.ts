/**
 * Discord responsiveness: 20 concurrent `/run` interactions (20 users in 20 channels, so none is
 * queued or refused) through the real discord.js Client, the fake Discord (REST + gateway), the fake
 * OpenAI server and the real sandbox. Prints p50 and p99 of:
 * - time to the defer callback (Discord requires a response within 3 s; target p99 < 200 ms),
 * - time to the first message in the run's thread.
 * Times are measured by the fake: from dispatching INTERACTION_CREATE to receiving the REST call.
 *
 * The bot runs in a child process (as in production, where Discord and the LLM are remote), so the
 * fakes and the load generator in this process do not compete for its event loop. The child reports,
 * per interaction, when discord.js emitted it and when the deferral's request was handed to the
 * HTTP client, which splits the defer time into gateway → bot, bot → request, request → fake.
 *
 * Run: `npm run build && node dist/bench/discord.js [runs]`
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { percentile } from './shared/stats.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import diagnostics from 'node:diagnostics_channel';
import { createApp } from '../src/app/app.js';
import { parseConfig } from '../src/config/load.js';
import { DiscordBot } from '../adapters/discord/bot.js';
import { startFakeDiscord, type FakeDiscord, type InteractionRecord } from '../test/fakes/discord-server.js';
import { startFakeOpenAi } from '../test/fakes/openai-server.js';

const SERVE = process.argv[2] === '--serve';
const CONCURRENT = SERVE ? 0 : Number(process.argv[2] ?? 20);

/** Messages from the bot process. */
type FromChild =
  | { ready: true }
  | { idle: true }
  | { received: string; at: number }
  | { deferSent: string; at: number };

/** Child role: the bot on the config in argv; reports timings; answers 'idle?' and 'stop'. */
async function serve(configJson: string): Promise<void> {
  const send = (msg: FromChild) => process.send?.(msg);
  // when the deferral's HTTP request is created by undici (discord.js's REST client)
  diagnostics.subscribe('undici:request:create', (message) => {
    const path = (message as { request: { path: string } }).request.path;
    const m = /\/interactions\/(\d+)\/[^/]+\/callback/.exec(path);
    if (m) send({ deferSent: m[1]!, at: Date.now() });
  });
  const app = await createApp(parseConfig(JSON.parse(configJson), {}));
  const bot = new DiscordBot({ app });
  // runs before the bot's own listener: the moment discord.js emitted the interaction (Date.now(), as the fake)
  bot.client.prependListener('interactionCreate', (i) => send({ received: i.id, at: Date.now() }));
  await bot.start();
  send({ ready: true });
  process.on('message', (msg) => {
    if (msg === 'idle?') {
      const poll = () => (bot.runningJobs === 0 ? send({ idle: true }) : setTimeout(poll, 20));
      poll();
    }
    if (msg === 'stop') {
      void bot
        .stop(10_000)
        .then(() => app.close())
        .then(() => process.exit(0));
    }
  });
}

/** Starts the bot in a child process; resolves once it is connected. */
function startChild(rawConfig: unknown, onMessage: (msg: FromChild) => void): Promise<ChildProcess> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', JSON.stringify(rawConfig)], { stdio: 'inherit' });
  child.on('message', (msg) => onMessage(msg as FromChild));
  return new Promise((resolve, reject) => {
    const onReady = (msg: unknown) => {
      if ((msg as { ready?: boolean }).ready) {
        child.off('message', onReady);
        child.off('exit', onExit);
        resolve(child);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`bot process exited with ${code}`));
    child.on('message', onReady);
    child.once('exit', onExit);
  });
}

/** Resolves when the bot has no job in flight. */
function idle(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const on = (msg: unknown) => {
      if ((msg as { idle?: boolean }).idle) {
        child.off('message', on);
        resolve();
      }
    };
    child.on('message', on);
    child.send('idle?');
  });
}

/** Fails with what the bot answered when an interaction was not deferred (e.g. refused). */
function assertDeferred(discord: FakeDiscord, records: InteractionRecord[]): void {
  const wrong = records.filter((r) => r.callbacks[0] && r.callbacks[0].type !== 5);
  if (wrong.length === 0) return;
  const why = wrong.map((r) => `type ${r.callbacks[0]!.type}: ${String(r.callbacks[0]!.data?.content ?? '')}`);
  throw new Error(`${wrong.length} interaction(s) were not deferred: ${why.join(' | ')}`);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-discord-'));
  const discord = await startFakeDiscord();
  const llm = await startFakeOpenAi({ respond: () => '```python\nprint("hello")\n```' });
  const channels = Array.from({ length: CONCURRENT }, (_, n) => discord.world.addChannel(`c${n}`));
  const users = Array.from({ length: CONCURRENT }, (_, n) => discord.world.addMember(`u${n}`));
  // the warm-up has its own user and channel: its job must not make a measured user busy
  const warmChannel = discord.world.addChannel('warm');
  const warmUser = discord.world.addMember('warm');
  const rawConfig = {
    llm: { provider: 'openai', base_url: llm.url, api_key: 'x', model: 'fake-model', max_retries: 0 },
    store: { url: `sqlite://${join(dir, 'history.sqlite')}`, data_dir: dir },
    log: { level: 'error' },
    discord: { token: 'bench', api_url: discord.apiUrl },
  };
  const receivedAt = new Map<string, number>();
  const deferSentAt = new Map<string, number>();
  const child = await startChild(rawConfig, (msg) => {
    if ('received' in msg) receivedAt.set(msg.received, msg.at);
    if ('deferSent' in msg && !deferSentAt.has(msg.deferSent)) deferSentAt.set(msg.deferSent, msg.at);
  });
  try {
    // warm-up: one run end to end (loads modules, opens sqlite, starts python once), then bursts of
    // /history so the measured burst meets a warm (JIT-compiled) bot with open connections
    const warm = discord.slash('run', { requirement: 'warm up' }, { user: warmUser, channelId: warmChannel.id });
    await discord.waitFor(
      () => discord.messagesIn(warm.originalMessageId ?? '-').some((m) => /✅|❌/.test(m.content) && m.components.length > 0),
      60_000,
      'warm-up',
    );
    assertDeferred(discord, [warm]);
    for (let round = 0; round < 3; round++) {
      const burst = channels.map((c, n) => discord.slash('history', {}, { user: users[n]!, channelId: c.id }));
      await discord.waitFor(() => burst.every((r) => discord.calls.some((c) => c.method === 'PATCH' && c.path.includes(r.token))), 30_000, 'warm-up /history');
    }
    await idle(child);

    const records = channels.map((c, n) => discord.slash('run', { requirement: `say hello ${n}` }, { user: users[n]!, channelId: c.id }));
    const threadFirst = (r: InteractionRecord) => {
      const thread = r.originalMessageId;
      return discord.calls.find((c) => c.method === 'POST' && thread && c.path === `/channels/${thread}/messages`);
    };
    await discord.waitFor(() => records.every((r) => r.callbacks.length > 0), 30_000, 'every interaction answered');
    assertDeferred(discord, records);
    await discord.waitFor(() => records.every((r) => threadFirst(r)), 120_000, 'first thread messages');
    const defer = records.map((r) => r.callbacks[0]!.at - r.dispatchedAt);
    const first = records.map((r) => threadFirst(r)!.at - r.dispatchedAt);
    const arrival = records.map((r) => (receivedAt.get(r.id) ?? NaN) - r.dispatchedAt);
    const handler = records.map((r) => (deferSentAt.get(r.id) ?? NaN) - (receivedAt.get(r.id) ?? NaN));
    const wire = records.map((r) => r.callbacks[0]!.at - (deferSentAt.get(r.id) ?? NaN));
    const line = (name: string, v: number[]) =>
      `${name.padEnd(30)} p50 ${String(percentile(v, 50)).padStart(5)} ms   p99 ${String(percentile(v, 99)).padStart(5)} ms   max ${String(Math.max(...v)).padStart(5)} ms`;
    process.stdout.write(`Discord: ${CONCURRENT} concurrent /run interactions (bot in its own process)\n`);
    process.stdout.write(`${line('defer callback', defer)}   (target p99 < 200 ms: ${percentile(defer, 99) < 200 ? 'met' : 'MISSED'})\n`);
    process.stdout.write(`${line('  gateway → discord.js event', arrival)}\n`);
    process.stdout.write(`${line('  event → defer request', handler)}\n`);
    process.stdout.write(`${line('  defer request → fake', wire)}\n`);
    process.stdout.write(`${line('first thread message', first)}\n`);
    // let the runs finish before shutting down
    await discord.waitFor(
      () => records.every((r) => discord.messagesIn(r.originalMessageId ?? '-').some((m) => m.components.length > 0)),
      120_000,
      'all runs finished',
    );
  } finally {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.send('stop');
    });
    await llm.close();
    await discord.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const role = SERVE ? serve(process.argv[3] ?? '{}') : main();
role.catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
