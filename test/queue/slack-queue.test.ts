/**
 * Slack in queue mode, with real processes: two ingress processes and two workers on one Redis.
 * Every command is delivered twice (the second time as Slack's retry, to the other ingress).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET, startQueueWorld, stopProc, TEAM, type QueueWorld } from './harness.js';
import { sendEvent } from '../fakes/slack-signed.js';
import { allText } from '../slack/harness.js';
import type { SlackCall } from '../fakes/slack-api.js';

const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;
const BUSY = /already have a job running|too many jobs queued/;

let world: QueueWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The text of an ack (ephemeral JSON, or '' for a plain ack). */
const ackText = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));

describe('Slack in queue mode', () => {
  it('runs each of 100 /run (each delivered twice, to both ingresses) exactly once, or says busy; thread replies likewise; /history lists exactly each channel\'s runs', async () => {
    world = await startQueueWorld({
      // the requirement's number comes back in the program's output
      replies: [(req) => py(`print("ran", ${JSON.stringify(String(req.messages.at(-1)?.content).match(/job \d+/)?.[0] ?? 'none')})`)],
      ingresses: 2,
      workers: 2,
      slack: { max_queue_per_channel: 1 },
    });
    const w = world;
    const users = Array.from({ length: 20 }, (_, u) => ({ user: `U${String(u).padStart(2, '0')}`, channel: `C${u % 10}` }));
    const answers = new Map<number, string>();
    for (let round = 0; round < 5; round++) {
      await Promise.all(
        users.map(async ({ user, channel }, u) => {
          const i = round * 20 + u;
          const fields = { text: `job ${i}`, user_id: user, user_name: user.toLowerCase(), channel_id: channel, trigger_id: `trigger.${i}`, response_url: w.slack.responseUrl(`r${i}`) };
          const [first, retry] = await Promise.all([
            w.command(i % 2, fields),
            w.command((i + 1) % 2, fields, { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' }),
          ]);
          expect(first.status).toBe(200);
          expect(retry.status).toBe(200);
          // one of the two deliveries is answered, the other (the repeat) is acked plainly
          const texts = [ackText(first.body), ackText(retry.body)].filter(Boolean);
          expect(texts.length).toBeLessThanOrEqual(1);
          answers.set(i, texts[0] ?? '');
        }),
      );
      await new Promise((r) => setTimeout(r, 300));
    }
    const accepted = [...answers].filter(([, text]) => !BUSY.test(text)).map(([i]) => i);
    const refused = [...answers].filter(([, text]) => BUSY.test(text)).map(([i]) => i);
    expect(accepted.length + refused.length).toBe(100);
    // in the first round every channel is empty: exactly one of its two users is accepted
    // (later rounds depend on how fast the workers are, so only the sum is asserted for them)
    const firstRound = accepted.filter((i) => i < 20);
    expect(firstRound).toHaveLength(10);
    expect(new Set(firstRound.map((i) => users[i]!.channel)).size).toBe(10);
    // two users per channel ask at the same moment and a channel holds one job: some are refused
    expect(refused.length).toBeGreaterThanOrEqual(50);
    for (const i of accepted) if (answers.get(i)) expect(answers.get(i)).toMatch(/^.*Queued: \d+ job\(s\) ahead of yours/);

    const roots = () => w.slack.callsOf('chat.postMessage').filter((c) => !c.args.thread_ts && c.result?.ok);
    const jobOf = (c: SlackCall) => Number(allText([c]).match(/job (\d+)/)?.[1]);
    await w.slack.waitFor(() => roots().length >= accepted.length, 90_000, `${accepted.length} channel messages`);
    const finals = () => w.slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts && /Reply in this thread to|❌ \*Failed\*/.test(String(c.args.text)));
    await w.slack.waitFor(() => finals().length >= accepted.length, 90_000, `${accepted.length} final messages`);
    await new Promise((r) => setTimeout(r, 500)); // anything run twice would post now

    // each accepted command ran once: one channel message, one final message, one LLM call
    expect(roots().map(jobOf).sort((a, b) => a - b)).toEqual([...accepted].sort((a, b) => a - b));
    expect(finals()).toHaveLength(accepted.length);
    for (const root of roots()) {
      const thread = w.slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === root.result!.ts);
      expect(allText(thread)).toContain(`ran job ${jobOf(root)}`);
      expect(allText(thread)).toMatch(/Reply in this thread to/);
    }
    expect(w.llm.requests).toHaveLength(accepted.length);

    // thread replies are jobs too: each delivered to one ingress and retried to the other, each improves once
    const improved = roots().slice(0, 5);
    await Promise.all(
      improved.map((root, k) => {
        const reply = { type: 'message', channel: String(root.args.channel), channel_type: 'channel', user: `UR${k}`, text: 'print more', ts: `1700001000.00000${k}`, thread_ts: String(root.result!.ts) };
        return Promise.all([
          sendEvent(w.ingress[k % 2]!, SECRET, reply, { eventId: `Ev-improve-${k}`, teamId: TEAM }),
          sendEvent(w.ingress[(k + 1) % 2]!, SECRET, reply, { eventId: `Ev-improve-${k}`, teamId: TEAM, retryNum: 1 }),
        ]);
      }),
    );
    await w.slack.waitFor(() => finals().length >= accepted.length + improved.length, 60_000, 'the improvements');
    await new Promise((r) => setTimeout(r, 500));
    expect(finals()).toHaveLength(accepted.length + improved.length);
    expect(w.llm.requests).toHaveLength(accepted.length + improved.length);
    for (const root of improved) {
      expect(finals().filter((c) => c.args.thread_ts === root.result!.ts)).toHaveLength(2);
    }

    // every channel's /history lists exactly its runs
    for (let c = 0; c < 10; c++) {
      const res = await w.command(c % 2, { command: '/history', text: '', channel_id: `C${c}`, user_id: 'U00', team_id: TEAM });
      const listed = [...String((res.body as { text?: string }).text).matchAll(/job (\d+)/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
      const expected = accepted.filter((i) => users[i % 20]!.channel === `C${c}`).sort((a, b) => a - b);
      expect(listed).toEqual(expected);
    }
  }, 240_000);

  it('tells the thread within the stalled-job interval when the worker running a job is killed (kill -9), frees the user; a thread reply is a job too', async () => {
    world = await startQueueWorld({
      replies: [py('import time\nprint("started", flush=True)\ntime.sleep(60)'), py('print("second run")'), py('print("improved run")')],
      ingresses: 1,
      workers: 1,
      sandbox: { timeout_s: 90, cpu_time_s: 90 },
    });
    const w = world;
    const first = w.workers[0]!;
    expect((await w.command(0, { text: 'sleep for a minute', trigger_id: 'kill.1' })).status).toBe(200);
    const root = await w.slack.waitFor(() => w.slack.callsOf('chat.postMessage').find((c) => !c.args.thread_ts && c.result?.ok), 20_000, 'the channel message');
    const ts = String(root.result!.ts);
    // the program is running in the sandbox
    await w.slack.waitFor(() => w.slack.calls.some((c) => /Running attempt 1/.test(allText([c])) && (c.args.thread_ts === ts || c.method === 'chat.update')), 20_000, 'running…');
    const second = await w.addWorker();
    const killedAt = Date.now();
    await stopProc(first.child, 'SIGKILL');

    const notice = await w.slack.waitFor(
      () => w.slack.callsOf('chat.postMessage').find((c) => c.args.thread_ts === ts && /worker running it stopped/.test(allText([c]))),
      20_000,
      'the interruption notice',
    );
    // lock_s 2 + stalled_interval_s 1: the notice comes within a few seconds, not after the 60 s program
    expect(notice.at - killedAt).toBeLessThan(10_000);
    expect(allText([notice])).toContain('❌ *Failed*');
    await w.slack.waitFor(
      () => w.slack.callsOf('chat.update').some((c) => c.args.ts === ts && /Failed.*the worker running it stopped/.test(allText([c]))),
      10_000,
      'the channel message says failed',
    );
    // the run is failed in the history, not left running
    const history = await w.command(0, { command: '/history', text: '' });
    expect(ackText(history.body)).toContain('sleep for a minute');
    expect(ackText(history.body)).not.toMatch(/running/i);
    // the user's slot was freed: a new /run is taken and runs on the surviving worker
    const again = await w.command(0, { text: 'print a line', trigger_id: 'kill.2' });
    expect(ackText(again.body)).not.toMatch(BUSY);
    const secondRoot = await w.slack.waitFor(
      () => w.slack.callsOf('chat.postMessage').find((c) => !c.args.thread_ts && c.result?.ok && /print a line/.test(allText([c]))),
      30_000,
      'the second run',
    );
    const secondTs = String(secondRoot.result!.ts);
    await w.slack.waitFor(() => w.slack.callsOf('chat.postMessage').some((c) => c.args.thread_ts === secondTs && /Reply in this thread to/.test(allText([c]))), 30_000, 'the second run\'s end');

    // a reply in the thread is a job too (improve), delivered twice: it runs once on a worker
    const reply = { type: 'message', channel: 'C_MAIN', channel_type: 'channel', user: 'U_ALICE', text: 'print it differently', ts: '1700009999.000001', thread_ts: secondTs };
    const options = { eventId: 'Ev-reply-1', teamId: TEAM };
    await Promise.all([sendEvent(w.ingress[0]!, SECRET, reply, options), sendEvent(w.ingress[0]!, SECRET, reply, { ...options, retryNum: 1 })]);
    await w.slack.waitFor(() => w.slack.callsOf('chat.postMessage').some((c) => c.args.thread_ts === secondTs && /improved run/.test(allText([c]))), 30_000, 'the improved run');
    await w.slack.waitFor(() => w.slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === secondTs && /Reply in this thread to/.test(allText([c]))).length >= 2, 30_000, 'the improvement\'s end');
    await new Promise((r) => setTimeout(r, 500));
    expect(w.llm.requests).toHaveLength(3);
    expect(second.stderr()).not.toMatch(/unhandled/);
  }, 120_000);

  it('takes jobs from a Socket Mode ingress too; the same command delivered twice runs once', async () => {
    world = await startQueueWorld({ replies: [py('print("from the socket")')], ingresses: 1, workers: 1, socketMode: true });
    const w = world;
    const fields = { command: '/run', text: 'socket job', user_id: 'U_S', user_name: 's', channel_id: 'C_S', team_id: TEAM, trigger_id: 'sock.1', response_url: w.slack.responseUrl('sock') };
    const acks = await Promise.all([w.slack.socket.slashCommand(fields), w.slack.socket.slashCommand(fields)]);
    expect(acks).toHaveLength(2);
    const root = await w.slack.waitFor(() => w.slack.callsOf('chat.postMessage').find((c) => !c.args.thread_ts && c.result?.ok), 20_000, 'the channel message');
    await w.slack.waitFor(
      () => w.slack.callsOf('chat.postMessage').some((c) => c.args.thread_ts === root.result!.ts && /Reply in this thread to/.test(allText([c]))),
      30_000,
      'the run\'s end',
    );
    expect(allText(w.slack.callsOf('chat.postMessage'))).toContain('from the socket');
    await new Promise((r) => setTimeout(r, 500));
    expect(w.slack.callsOf('chat.postMessage').filter((c) => !c.args.thread_ts)).toHaveLength(1);
    expect(w.llm.requests).toHaveLength(1);
  }, 60_000);

  it('a worker stopped with SIGTERM finishes its running job, then exits 0', async () => {
    world = await startQueueWorld({ replies: [py('import time\ntime.sleep(2)\nprint("finished anyway")')], ingresses: 1, workers: 1 });
    const w = world;
    const worker = w.workers[0]!.child;
    await w.command(0, { text: 'sleep two seconds', trigger_id: 'term.1' });
    const root = await w.slack.waitFor(() => w.slack.callsOf('chat.postMessage').find((c) => !c.args.thread_ts && c.result?.ok), 20_000, 'the channel message');
    await w.slack.waitFor(() => w.slack.calls.some((c) => /Running attempt 1/.test(allText([c]))), 20_000, 'running…');
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    const thread = allText(w.slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === root.result!.ts));
    expect(thread).toContain('finished anyway');
    expect(thread).toMatch(/Reply in this thread to/);
  }, 60_000);
});
