/**
 * Discord responsiveness: 20 concurrent `/run` interactions (20 users in 20 channels, so none is
 * queued or refused) through the real discord.js Client, the fake Discord (REST + gateway), the fake
 * OpenAI server and the real sandbox. Prints p50 and p99 of:
 * - time to the defer callback (Discord requires a response within 3 s; target p99 < 200 ms),
 * - time to the first message in the run's thread.
 * Times are measured by the fake: from dispatching INTERACTION_CREATE to receiving the REST call.
 *
 * Run: `npm run build && node dist/bench/discord.js`
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app/app.js';
import { parseConfig } from '../src/config/load.js';
import { DiscordBot } from '../adapters/discord/bot.js';
import { startFakeDiscord } from '../test/fakes/discord-server.js';
import { startFakeOpenAi } from '../test/fakes/openai-server.js';

const CONCURRENT = 20;

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

const dir = await mkdtemp(join(tmpdir(), 'bench-discord-'));
const discord = await startFakeDiscord();
const llm = await startFakeOpenAi({ respond: () => '```python\nprint("hello")\n```' });
const channels = Array.from({ length: CONCURRENT }, (_, n) => discord.world.addChannel(`c${n}`));
const users = Array.from({ length: CONCURRENT }, (_, n) => discord.world.addMember(`u${n}`));
const config = parseConfig(
  {
    llm: { provider: 'openai', base_url: llm.url, api_key: 'x', model: 'fake-model', max_retries: 0 },
    store: { url: `sqlite://${join(dir, 'history.sqlite')}`, data_dir: dir },
    discord: { token: 'bench', api_url: discord.apiUrl },
  },
  {},
);
const app = await createApp(config);
const bot = new DiscordBot({ app });
try {
  await bot.start();
  // warm-up: one run end to end (loads modules, opens sqlite, starts python once)
  const warm = discord.slash('run', { requirement: 'warm up' }, { user: users[0]!, channelId: channels[0]!.id });
  await discord.waitFor(() => discord.messagesIn(warm.originalMessageId ?? '').some((m) => m.content.includes('attempt ·')) || discord.messagesIn(discord.interaction(warm.id).originalMessageId ?? '-').some((m) => /✅|❌/.test(m.content) && m.components.length > 0), 60_000, 'warm-up');

  const receivedAt = new Map<string, number>();
  bot.client.on('interactionCreate', (i) => receivedAt.set(i.id, Date.now()));
  const records = channels.map((c, n) => discord.slash('run', { requirement: `say hello ${n}` }, { user: users[n]!, channelId: c.id }));
  const threadFirst = (id: string) => {
    const r = discord.interaction(id);
    const thread = r.originalMessageId;
    return discord.calls.find((c) => c.method === 'POST' && thread && c.path === `/channels/${thread}/messages`);
  };
  await discord.waitFor(() => records.every((r) => threadFirst(r.id)), 120_000, 'first thread messages');
  const defer = records.map((r) => r.callbacks[0]!.at - r.dispatchedAt);
  const first = records.map((r) => threadFirst(r.id)!.at - r.dispatchedAt);
  const line = (name: string, v: number[]) =>
    `${name.padEnd(26)} p50 ${String(percentile(v, 50)).padStart(5)} ms   p99 ${String(percentile(v, 99)).padStart(5)} ms   max ${String(Math.max(...v)).padStart(5)} ms`;
  process.stdout.write(`Discord: ${CONCURRENT} concurrent /run interactions\n`);
  process.stdout.write(`${line('defer callback', defer)}   (target p99 < 200 ms)\n`);
  process.stdout.write(`${line('first thread message', first)}\n`);
  const arrival = records.map((r) => (receivedAt.get(r.id) ?? NaN) - r.dispatchedAt);
  process.stdout.write(`${line('  of which gateway → bot', arrival)}\n`);
  // let the runs finish before shutting down
  await discord.waitFor(
    () => records.every((r) => discord.messagesIn(r.originalMessageId ?? '-').some((m) => m.components.length > 0)),
    120_000,
    'all runs finished',
  );
} finally {
  await bot.stop(10_000);
  await app.close();
  await llm.close();
  await discord.close();
  await rm(dir, { recursive: true, force: true });
}
