/**
 * Slack adapter bench: N concurrent `/run` commands (default 20) against the real adapter (Bolt's
 * HTTPReceiver, real sandbox), with the fake Slack Web API and the fake OpenAI server.
 * Prints p50 / p99 of the time to ack (HTTP response of the slash command) and of the time to the
 * first thread post (chat.postMessage with thread_ts seen at the fake). Target: ack p99 < 200 ms.
 *
 * The adapter runs in a child process (as in production, where Slack and the LLM are remote), so
 * the fakes and the load generator in this process do not compete for its event loop.
 *
 * Run: `npm run build && node dist/bench/slack.js [runs] [channels]`
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseConfig } from '../src/config/load.js';
import { startSlackAdapter } from '../adapters/slack/main.js';
import { createChatApp } from '../src/app/chat-service.js';
import { silentLog } from '../src/log/logger.js';
import { startFakeSlack } from '../test/fakes/slack-api.js';
import { startFakeOpenAi } from '../test/fakes/openai-server.js';
import { sendCommand } from '../test/fakes/slack-signed.js';
import { percentile } from './shared/stats.js';

const RUNS = Number(process.argv[2] === '--serve' ? 0 : (process.argv[2] ?? 20));
const CHANNELS = Number(process.argv[3] ?? RUNS);
const SECRET = 'bench-secret';


/** Child role: start the adapter from the config JSON in argv, report the port, stop on 'stop'. */
async function serve(configJson: string): Promise<void> {
  // per request tagged `x-bench-id`: when the HTTP server got it and when the response was finished
  const started = new WeakMap<IncomingMessage, number>();
  diagnostics.subscribe('http.server.request.start', (message) => {
    started.set((message as { request: IncomingMessage }).request, Date.now());
  });
  diagnostics.subscribe('http.server.response.finish', (message) => {
    const { request } = message as { request: IncomingMessage; response: ServerResponse };
    const id = request.headers['x-bench-id'];
    if (typeof id === 'string') process.send?.({ id, received: started.get(request), acked: Date.now() });
  });
  const app = await createChatApp(parseConfig(JSON.parse(configJson), {}));
  const adapter = await startSlackAdapter(app, silentLog);
  process.send?.({ port: adapter.port });
  process.on('message', (msg) => {
    if (msg === 'stop') void adapter.stop(5000).then(() => app.close()).then(() => process.exit(0));
  });
}

/** Starts the adapter in a child process; resolves with its port. */
function startChild(rawConfig: unknown): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', JSON.stringify(rawConfig)], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (msg) => resolve({ child, port: (msg as { port: number }).port }));
    child.once('exit', (code) => reject(new Error(`adapter process exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'slack-bench-'));
  const slack = await startFakeSlack();
  const llm = await startFakeOpenAi({ replies: ['```python\nprint("hi")\n```'] });
  const rawConfig = {
    llm: { provider: 'openai', base_url: llm.url, api_key: 'sk-bench', model: 'fake-model', max_retries: 0 },
    store: { url: `sqlite://${join(dir, 'history.sqlite')}`, data_dir: join(dir, 'data') },
    log: { level: 'error' },
    slack: { bot_token: 'xoxb-test', signing_secret: SECRET, port: 0, api_url: slack.apiUrl, max_queue_per_channel: RUNS },
  };
  const { child, port } = await startChild(rawConfig);
  const inChild = new Map<string, { received: number; acked: number }>();
  child.on('message', (msg) => {
    const m = msg as { id?: string; received: number; acked: number };
    if (m.id) inChild.set(m.id, m);
  });
  const appUrl = `http://127.0.0.1:${port}`;
  try {
    // one warm-up command (Bolt's auth.test, sqlite, sandbox probe), not measured
    await sendCommand(appUrl, SECRET, { command: '/run', text: 'warm up', user_id: 'UWARM', channel_id: 'CWARM' });
    await slack.waitFor(() => slack.callsOf('chat.update').some((c) => /Status:\* ✅/.test(String(c.args.text))), 60_000, 'warm-up run');
    // and a few bursts of cheap commands, so the measured burst meets a warm (JIT-compiled) server
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        Array.from({ length: RUNS }, (_, i) => sendCommand(appUrl, SECRET, { command: '/history', text: '', user_id: `UW${i}`, channel_id: `CW${i}` })),
      );
    }

    const started = performance.now();
    const sent = Array.from({ length: RUNS }, (_, i) => {
      const channel = `CB${i % CHANNELS}`;
      const t0 = performance.now();
      const at0 = Date.now();
      return sendCommand(appUrl, SECRET, { command: '/run', text: `print hi #${i}`, user_id: `UB${i}`, channel_id: channel }, { 'x-bench-id': String(i) }).then(
        (res) => ({ i, channel, t0, at0, ack: res.ms, status: res.status, body: res.body }),
      );
    });
    const acks = await Promise.all(sent);
    const refused = acks.filter((a) => a.status !== 200 || (a.body && JSON.stringify(a.body).includes('ephemeral')));
    // time to the first thread post: match each run's channel message (by text), then its first thread post
    const firstPost = await Promise.all(
      acks.map((a) =>
        slack.waitFor(
          () => {
            const root = slack.callsOf('chat.postMessage').find((c) => !c.args.thread_ts && String(c.args.text).endsWith(`#${a.i}`));
            const ts = root?.result?.ts;
            const post = ts ? slack.callsOf('chat.postMessage').find((c) => c.args.thread_ts === ts) : undefined;
            return post ? post.at - a.at0 : undefined;
          },
          120_000,
          `first thread post of run ${a.i}`,
        ),
      ),
    );
    await slack.waitFor(
      () => slack.callsOf('chat.update').filter((c) => /Status:\* (✅|❌)/.test(String(c.args.text))).length >= RUNS + 1,
      180_000,
      'every run to finish',
    );
    const total = performance.now() - started;
    const ackMs = acks.map((a) => a.ack);
    const fmt = (n: number) => `${n.toFixed(1)} ms`;
    console.log(`slack bench: ${RUNS} concurrent /run over ${CHANNELS} channels (fake LLM, real sandbox)`);
    console.log(`  refused:                 ${refused.length}`);
    console.log(`  ack                      p50 ${fmt(percentile(ackMs, 50))}  p99 ${fmt(percentile(ackMs, 99))}  max ${fmt(Math.max(...ackMs))}`);
    const sentToReceived = acks.map((a) => (inChild.get(String(a.i))?.received ?? NaN) - a.at0);
    const inAdapter = acks.map((a) => { const c = inChild.get(String(a.i)); return c ? c.acked - c.received : NaN; });
    const back = acks.map((a) => { const c = inChild.get(String(a.i)); return c ? a.at0 + a.ack - c.acked : NaN; });
    console.log(`    sent → adapter got it   p50 ${fmt(percentile(sentToReceived, 50))}  p99 ${fmt(percentile(sentToReceived, 99))}`);
    console.log(`    in the adapter          p50 ${fmt(percentile(inAdapter, 50))}  p99 ${fmt(percentile(inAdapter, 99))}`);
    console.log(`    ack written → client    p50 ${fmt(percentile(back, 50))}  p99 ${fmt(percentile(back, 99))}`);
    console.log(`  first thread post        p50 ${fmt(percentile(firstPost, 50))}  p99 ${fmt(percentile(firstPost, 99))}`);
    console.log(`  all ${RUNS} runs finished in ${fmt(total)}`);
    console.log(`  ack p99 target < 200 ms: ${percentile(ackMs, 99) < 200 ? 'met' : 'MISSED'}`);
  } finally {
    child.removeAllListeners('exit');
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.send('stop');
    });
    await Promise.all([slack.close(), llm.close()]);
    await rm(dir, { recursive: true, force: true });
  }
}

const role = process.argv[2] === '--serve' ? serve(process.argv[3] ?? '{}') : main();
role.catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
