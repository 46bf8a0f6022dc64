/**
 * The chat contract: the same scenarios against Slack and Discord, each embedded and in queue mode
 * (test/contract/drivers.ts). Each world runs the scenarios in order on one channel; every scenario
 * scripts the LLM replies it uses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLDS, type ChatDriver } from './drivers.js';

const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;

describe.each(Object.keys(WORLDS))('%s', (name) => {
  let chat: ChatDriver;
  let thread: string;
  beforeAll(async () => {
    chat = await WORLDS[name]!();
  }, 120_000);
  afterAll(async () => {
    await chat?.close();
  });

  it('a run with a failed attempt and its fix shows both, and ends in success', async () => {
    chat.llm.enqueue(py('print(undefined_name)'), py('print("fixed")'));
    const started = await chat.run('print the word fixed');
    thread = await started.thread();
    const [final] = await chat.finals(thread, 1);
    expect(final).toMatch(/success|Success/);
    expect(final).toMatch(/2 attempt/);
    const text = chat.text(thread);
    expect(text).toContain('NameError');
    expect(text).toContain('fixed');
  });

  it('a reply in the thread improves the run, its file placed in the sandbox', async () => {
    chat.llm.enqueue(py('print(open("data.csv").read().strip().upper())'));
    await chat.reply(thread, 'read data.csv and print it in capitals', { file: { name: 'data.csv', data: Buffer.from('a,b\n') } });
    await chat.finals(thread, 2);
    expect(chat.text(thread)).toContain('A,B');
    expect(JSON.stringify(chat.llm.requests.at(-1)!.messages)).toContain('read data.csv and print it in capitals');
  });

  it('Re-run runs the latest code again without the LLM; Improve takes feedback', async () => {
    const asked = chat.llm.requests.length;
    await chat.rerun(thread);
    await chat.finals(thread, 3);
    expect(chat.llm.requests.length).toBe(asked);
    chat.llm.enqueue(py('print("better")'));
    await chat.improve(thread, 'print better instead');
    await chat.finals(thread, 4);
    expect(JSON.stringify(chat.llm.requests.at(-1)!.messages)).toContain('print better instead');
    expect(chat.text(thread)).toContain('better');
  });

  it('a run delivered twice runs once', async () => {
    const asked = chat.llm.requests.length;
    chat.llm.enqueue(py('print("once")'));
    const started = await chat.run('print once', { twice: true });
    await chat.finals(await started.thread(), 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(chat.llm.requests.length).toBe(asked + 1);
  });

  it('a second run of a user whose job runs is refused as busy; the first finishes', async () => {
    chat.llm.enqueue(py('import time; time.sleep(2); print("slow")'));
    const first = await chat.run('print slow, slowly');
    const slow = await first.thread();
    const second = await chat.run('another one');
    expect(await second.answer()).toContain('already have a job running');
    expect(await chat.finals(slow, 1)).toHaveLength(1);
  });

  it('a run can start with a file', async () => {
    chat.llm.enqueue(py('print(open("nums.txt").read().split()[0])'));
    const started = await chat.run('print the first number in nums.txt', { file: { name: 'nums.txt', data: Buffer.from('7 8 9\n') } });
    const t = await started.thread();
    await chat.finals(t, 1);
    expect(chat.text(t)).toMatch(/\b7\b/);
    expect(JSON.stringify(chat.llm.requests.at(-1)!.messages)).toContain('nums.txt');
  });

  it('history lists the runs, and show the newest one\'s code', async () => {
    const history = await chat.history();
    expect(history).toContain('print the word fixed');
    expect(history).toContain('print the first number in nums.txt');
    expect(await chat.show()).toContain('nums.txt');
  });

  // queue mode only: an embedded app's jobs die with it (its runs are ended when next read, test/history)
  if (name.includes('queue')) it('a worker killed mid-run: the thread says so and the run ends failed', async () => {
    chat.llm.enqueue(py('import time; time.sleep(30); print("never")'));
    const asked = chat.llm.requests.length;
    const started = await chat.run('sleep for a long time');
    const t = await started.thread();
    await new Promise<void>((resolve) => {
      const poll = () => (chat.llm.requests.length > asked ? setTimeout(resolve, 1500) : setTimeout(poll, 50));
      poll();
    });
    await chat.killWorkers!();
    const deadline = Date.now() + 30_000;
    while (!/interrupted/.test(chat.text(t)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(chat.text(t)).toMatch(/interrupted: the worker running it stopped/);
    const shown = await chat.show(); // the newest run
    expect(shown).toContain('sleep for a long time');
    expect(shown).toMatch(/failed/i);
  }, 90_000);
});
