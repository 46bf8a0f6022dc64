/**
 * Slack's signs of work, measured: today's posted and edited messages (a workspace that refuses the
 * agent surface) against the agent surface (thread status, one streamed message per attempt), in
 * both modes (embedded, and queue mode: a `code-agent slack` ingress and a `code-agent worker` on a
 * real Redis), with the fake Slack Web API and a fake model that streams 24 lines of code, one line
 * every 100 ms. Runs one after the other; per run it prints the Slack API calls made (by method),
 * the time from the slash command to the first visible sign of work in the thread (the status, or
 * the progress message), to the first line of code shown in the thread, and to the last message.
 *
 * Run: `npm run build && node dist/bench/slack-surface.js [runs per case]` (default 5).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../src/config/load.js';
import { startSlackAdapter } from '../adapters/slack/main.js';
import { createChatApp } from '../src/app/chat-service.js';
import { silentLog } from '../src/log/logger.js';
import { startFakeSlack, type FakeSlack, type SlackCall } from '../test/fakes/slack-api.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../test/fakes/openai-server.js';
import { sendCommand, type SlashFields } from '../test/fakes/slack-signed.js';
import { startQueueWorld } from '../test/queue/harness.js';
import { median } from './shared/stats.js';

const RUNS = Number(process.argv[2] ?? 5);
const SECRET = 'bench-secret';
const TEAM = 'T0001';
const CODE = Array.from({ length: 24 }, (_, i) => `print("line ${i + 1}")`).join('\n');
const REPLY_TEXT = `Here you go:\n\`\`\`python\n${CODE}\n\`\`\``;
/** The fake model's reply: one line per chunk, 100 ms apart (about 2.7 s of writing). */
const REPLY: FakeReply = { content: REPLY_TEXT, chunks: REPLY_TEXT.split(/(?<=\n)/), chunkDelayMs: 100 };

/** A world to measure in. */
interface World {
  slack: FakeSlack;
  llm: FakeOpenAi;
  send(fields: Partial<SlashFields> & { text: string }): Promise<unknown>;
  close(): Promise<void>;
}

/** The adapter in this process, embedded. */
async function embedded(surface: boolean): Promise<World> {
  const dir = await mkdtemp(join(tmpdir(), 'slack-surface-bench-'));
  const slack = await startFakeSlack({ teamId: TEAM, agentSurface: surface });
  const llm = await startFakeOpenAi({ replies: [] });
  const config = parseConfig(
    {
      llm: { provider: 'openai', base_url: llm.url, api_key: 'sk-bench', model: 'fake-model', max_retries: 0 },
      agent: { max_retries: 0, verify: 'off' },
      store: { url: `sqlite://${join(dir, 'history.sqlite')}`, data_dir: join(dir, 'data') },
      log: { level: 'error' },
      slack: { bot_token: 'xoxb-test', signing_secret: SECRET, port: 0, api_url: slack.apiUrl },
    },
    {},
  );
  const app = await createChatApp(config);
  const adapter = await startSlackAdapter(app, silentLog);
  const url = `http://127.0.0.1:${adapter.port}`;
  return {
    slack,
    llm,
    send: (fields) => sendCommand(url, SECRET, { command: '/run', user_id: 'U_B', user_name: 'bench', channel_id: 'C_B', team_id: TEAM, ...fields }),
    async close() {
      await adapter.stop(5000);
      await app.close();
      await Promise.all([slack.close(), llm.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A `code-agent slack` ingress and one `code-agent worker` on a real Redis. */
async function queue(surface: boolean): Promise<World> {
  const w = await startQueueWorld({ replies: [], ingresses: 1, workers: 1, agentSurface: surface, agent: { max_retries: 0, verify: 'off' } });
  return { slack: w.slack, llm: w.llm, send: (fields) => w.command(0, { command: '/run', user_id: 'U_B', user_name: 'bench', channel_id: 'C_B', team_id: TEAM, ...fields }), close: () => w.close() };
}

/** What one run cost and how soon it showed. */
interface RunFigures {
  calls: Record<string, number>;
  firstSignMs: number;
  firstCodeMs: number;
  lastMessageMs: number;
}

const textOf = (c: SlackCall) => JSON.stringify([c.args.text, c.args.markdown_text, c.args.chunks, c.args.blocks]);

/** One run: the command, then every call up to the last message of its thread. */
async function oneRun(w: World, i: number): Promise<RunFigures> {
  const { slack } = w;
  w.llm.enqueue(REPLY);
  const from = slack.calls.length;
  const t0 = Date.now();
  await w.send({ text: `print 24 lines #${i}` });
  const root = await slack.waitFor(() => slack.calls.slice(from).find((c) => c.method === 'chat.postMessage' && !c.args.thread_ts && c.result?.ok)?.result?.ts as string | undefined, 60_000, 'the channel message');
  const inThread = () => {
    const streams = new Set(slack.agent.streams.filter((s) => s.threadTs === root).map((s) => s.ts));
    const posted = new Set(slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === root).map((c) => c.result?.ts));
    return slack.calls.slice(from).filter((c) => c.result?.ok && (c.args.thread_ts === root || streams.has(c.args.ts as string) || (c.method === 'chat.update' && posted.has(c.args.ts as string))));
  };
  const last = await slack.waitFor(() => inThread().find((c) => /\*(Done|Failed)\*/.test(textOf(c)) && c.method !== 'chat.update'), 120_000, `the last message of run ${i}`);
  await new Promise((r) => setTimeout(r, 500)); // the channel message's last update, the status cleared
  const calls: Record<string, number> = {};
  for (const c of slack.calls.slice(from)) {
    const key = c.result?.ok ? c.method : `${c.method} (refused)`;
    calls[key] = (calls[key] ?? 0) + 1;
  }
  const shown = inThread();
  const sign = shown.find((c) => c.method === 'assistant.threads.setStatus' || c.method === 'chat.postMessage' || c.method === 'chat.startStream')!;
  const code = shown.find((c) => textOf(c).includes('print(\\"line'))!;
  return { calls, firstSignMs: sign.at - t0, firstCodeMs: code.at - t0, lastMessageMs: last.at - t0 };
}

/** Runs one case and prints its figures. */
async function measure(name: string, start: () => Promise<World>): Promise<void> {
  const w = await start();
  try {
    await oneRun(w, 0); // warm-up (auth.test, sqlite, the sandbox's first start; the refusal learnt)
    const runs: RunFigures[] = [];
    for (let i = 1; i <= RUNS; i++) runs.push(await oneRun(w, i));
    const methods = [...new Set(runs.flatMap((r) => Object.keys(r.calls)))].sort();
    const perRun = (m: string) => runs.reduce((n, r) => n + (r.calls[m] ?? 0), 0) / runs.length;
    const total = runs.reduce((n, r) => n + Object.values(r.calls).reduce((a, b) => a + b, 0), 0) / runs.length;
    const ms = (f: (r: RunFigures) => number) => `${median(runs.map(f)).toFixed(0)} ms`;
    console.log(`${name}  (median of ${RUNS} runs)`);
    console.log(`  first sign of work        ${ms((r) => r.firstSignMs)}`);
    console.log(`  first line of code shown  ${ms((r) => r.firstCodeMs)}`);
    console.log(`  last message              ${ms((r) => r.lastMessageMs)}`);
    console.log(`  Slack API calls per run   ${total.toFixed(1)}: ${methods.map((m) => `${m} ${perRun(m).toFixed(1)}`).join(', ')}`);
  } finally {
    await w.close();
  }
}

async function main(): Promise<void> {
  console.log(`slack surface bench: fake model streaming 24 lines of code (100 ms a line), real sandbox, ${RUNS} runs per case`);
  await measure('embedded, edits (surface refused)', () => embedded(false));
  await measure('embedded, agent surface', () => embedded(true));
  await measure('queue mode, edits (surface refused)', () => queue(false));
  await measure('queue mode, agent surface', () => queue(true));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
