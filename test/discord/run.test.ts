import { afterEach, describe, expect, it } from 'vitest';
import { py, startWorld, type World } from './harness.js';
import type { FakeMessage } from '../fakes/discord-server.js';
import { routedReplies } from '../helpers/verify-replies.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const PLOT = `import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
plt.plot([1, 2, 3], [1, 4, 9])
plt.savefig("plot.png")
print("saved")`;

describe('/run', () => {
  it('defers, opens a thread, shows code, result and the plot, and marks the first message', async () => {
    world = await startWorld({ replies: [py(PLOT)] });
    const { discord } = world;
    expect(discord.gateway.log.connections[0]).toContain('v=10');
    expect(discord.gateway.log.connections[0]).toContain('encoding=json');
    const i = discord.slash('run', { requirement: 'plot squares' }, world.from());
    const thread = await world.threadOf(i.id);
    const record = discord.interaction(i.id);
    expect(record.callbacks.map((c) => c.type)).toEqual([5]);
    expect(record.callbacks[0]!.at - record.dispatchedAt).toBeLessThan(3000);

    const [final] = await world.waitMessages(thread, /✅ Success · 1 attempt/);
    const messages = discord.messagesIn(thread);
    expect(messages.some((m) => m.content.includes('```py\nimport matplotlib'))).toBe(true);
    const result = messages.find((m) => m.content.startsWith('**Result of attempt 1**'))!;
    expect(result.content).toContain('exit code 0');
    expect(result.content).toContain('saved');
    const files = messages.find((m) => m.content.includes('**Files from attempt 1**'))!;
    expect(files.attachments.map((a) => a.filename)).toContain('plot.png');
    expect(files.files.get('plot.png')!.subarray(1, 4).toString()).toBe('PNG');
    // Re-run and Improve, then 👍/👎 (a run with an answer can be approved) and Save as team program
    expect((final!.components as Array<{ components: Array<{ label: string }> }>).map((r) => r.components.map((b) => b.label))).toEqual([['Re-run', 'Improve'], ['👍', '👎', '💾 Save as team program']]);
    const header = discord.world.messages.get(record.originalMessageId!)!;
    await discord.waitFor(() => header.content.includes('✅ Success'), 10_000, 'header success');
    expect(header.content).toContain('plot squares');
    // progress was one message edited in place
    const progress = messages.find((m) => m.content.startsWith('✅ Finished'))!;
    expect(progress.edits).toBeGreaterThan(0);
  });

  it('shows a failure, the auto-fix with its error, and the fixed result', async () => {
    world = await startWorld({ replies: [py('print(undefined_name)'), py('print("fixed", 6 * 7)')] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'print the answer' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 2 attempts/);
    const texts = discord.messagesIn(thread).map((m) => m.content);
    const failed = texts.find((t) => t.startsWith('**Result of attempt 1**'))!;
    expect(failed).toContain('❌ Failed · exit code 1');
    expect(failed).toContain("NameError: name 'undefined_name' is not defined");
    const fix = texts.find((t) => t.startsWith('🔧 **Auto-fix 1/3**'))!;
    expect(fix).toContain('NameError');
    expect(texts.some((t) => t.startsWith('**Attempt 2** · auto-fix'))).toBe(true);
    expect(texts.find((t) => t.startsWith('**Result of attempt 2**'))).toContain('fixed 42');
    expect(world.llm.requests).toHaveLength(2);
  });

  // the code's message is the one carrying attempt-1.py: when the reply took over a second, the
  // streamed code message before it became "**Attempt 1** · the whole code is below"
  const codeMessage = (messages: FakeMessage[]) => messages.find((m) => m.content.startsWith('**Attempt 1**') && m.attachments.some((a) => a.filename === 'attempt-1.py'));
  const long = Array.from({ length: 100 }, (_, n) => `x${n} = ${n}  # ${'pad'.repeat(6)}`).join('\n');
  const longCode = `${long}\nprint("y" * 3000)`;

  it('attaches 3000 characters of code and of output as files', async () => {
    const code = longCode;
    expect(code.length).toBeGreaterThan(3000);
    world = await startWorld({ replies: [py(code)] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'long' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    const messages = discord.messagesIn(thread);
    const codeMsg = codeMessage(messages)!;
    expect(codeMsg.attachments.map((a) => a.filename)).toEqual(['attempt-1.py']);
    expect(codeMsg.files.get('attempt-1.py')!.toString()).toBe(code);
    const result = messages.find((m) => m.content.startsWith('**Result of attempt 1**'))!;
    expect(result.content.length).toBeLessThanOrEqual(2000);
    expect(result.content).toContain('full text attached');
    expect(result.files.get('attempt-1-stdout.txt')!.toString()).toBe(`${'y'.repeat(3000)}\n`);
    for (const m of discord.world.messages.values()) expect(m.content.length).toBeLessThanOrEqual(2000);
  });

  it('streamed, the code being written becomes "the whole code is below", and the code follows with its file', async () => {
    const reply = py(longCode);
    const lines = reply.split(/(?<=\n)/);
    // six chunks 400 ms apart: the code is written for 2 s, so its message is posted, then edited
    const chunks = Array.from({ length: 6 }, (_, k) => lines.slice(Math.ceil((k * lines.length) / 6), Math.ceil(((k + 1) * lines.length) / 6)).join(''));
    world = await startWorld({ replies: [{ content: reply, chunks, chunkDelayMs: 400 }] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'long, slowly' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    const messages = discord.messagesIn(thread);
    const below = messages.findIndex((m) => m.content === '**Attempt 1** · the whole code is below');
    const codeAt = messages.indexOf(codeMessage(messages)!);
    expect(below).toBeGreaterThanOrEqual(0);
    expect(codeAt).toBeGreaterThan(below);
    expect(messages[codeAt]!.files.get('attempt-1.py')!.toString()).toBe(longCode);
  }, 30_000);

  it('keeps fence breaks and @everyone inert and pings no one', async () => {
    world = await startWorld({ replies: [py('print("```\\n@everyone <@&123> hi\\n```")')] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'say @everyone ``` hi' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    const result = discord.messagesIn(thread).find((m) => m.content.startsWith('**Result of attempt 1**'))!;
    // exactly the two fences we opened and closed around stdout survive as ```
    expect(result.content.match(/```/g)).toHaveLength(2);
    expect(result.content).toContain('@everyone');
    const bodies = discord.calls.filter((c) => c.body && (c.method === 'POST' || c.method === 'PATCH') && c.path.match(/messages|webhooks/) && !c.path.endsWith('/threads'));
    expect(bodies.length).toBeGreaterThan(4);
    for (const call of bodies) expect(call.body!.allowed_mentions).toEqual({ parse: [], replied_user: false });
    const deferral = discord.calls.find((c) => c.path.endsWith('/callback'))!;
    expect(deferral.body).toMatchObject({ type: 5 });
  });

  it('refuses a user without an allowed role, ephemerally and with no LLM request', async () => {
    world = await startWorld({ replies: [py('print(1)')], discord: {} });
    await world.close();
    world = undefined;
    const w = await startWorld({ replies: [py('print(1)')], discord: { allowed_roles: ['000'] } });
    world = w;
    // alice has the coder role, but only role 000 is allowed
    const i = w.discord.slash('run', { requirement: 'print 1' }, w.from(w.bob));
    await w.discord.waitFor(() => w.discord.interaction(i.id).callbacks.length > 0);
    const cb = w.discord.interaction(i.id).callbacks[0]!;
    expect(cb.type).toBe(4);
    expect(cb.data!.flags).toBe(64);
    expect(String(cb.data!.content)).toContain('role');
    await new Promise((r) => setTimeout(r, 300));
    expect(w.llm.requests).toHaveLength(0);
    expect(w.discord.calls.filter((c) => c.path.includes('/threads'))).toHaveLength(0);
  });
});

describe('/run with verification', () => {
  it('refuses a requirement over the agent\'s limit, ephemerally and with no LLM request (as Slack does)', async () => {
    world = await startWorld({ replies: [py('print(1)')], maxRequirementChars: 50 });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'x'.repeat(60) }, world.from());
    await discord.waitFor(() => i.callbacks.length > 0, 10_000, 'the answer');
    expect(i.callbacks[0]!.data?.flags).toBe(64); // ephemeral
    expect(String(i.callbacks[0]!.data?.content)).toContain('Your request is 60 characters long; the limit is 50');
    await new Promise((r) => setTimeout(r, 200));
    expect(world.llm.requests).toHaveLength(0);
  });

  it('shows the checks and marks a run no attempt could confirm with ⚠️, in the thread and the header', async () => {
    world = await startWorld({
      verify: 'checks',
      maxRetries: 0,
      replies: [routedReplies({ code: [py('print("2,3,5,7")')], checks: [py('values = OUTPUT.strip().split(",")\nassert len(values) == 20, "20 numbers"')] })],
    });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'print the first 20 primes, comma-separated' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /⚠️ Ran, but not confirmed · 1 attempt/);
    const messages = discord.messagesIn(thread);
    expect(messages.some((m) => m.content.includes('Checks derived from the request') && m.content.includes('assert len(values) == 20'))).toBe(true);
    const result = messages.find((m) => m.content.startsWith('**Result of attempt 1**'))!;
    expect(result.content).toContain('Checks: 0/1 passed');
    expect(result.content).toContain('got 4, expected == 20');
    expect(result.content.length).toBeLessThanOrEqual(2000);
    const header = discord.world.messages.get(discord.interaction(i.id).originalMessageId!)!;
    await discord.waitFor(() => header.content.includes('⚠️ Ran, but not confirmed'), 10_000, 'header unverified');
    // the checks step (an LLM call as long as writing code) is shown on the progress line like every other step
    const sent = discord.calls.filter((c) => c.method !== 'GET').map((c) => String((c.body as { content?: unknown } | undefined)?.content ?? ''));
    expect(sent).toContain('🧪 Deriving checks from the request…');
  });
});
