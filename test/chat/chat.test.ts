import { describe, expect, it } from 'vitest';
import { capText, codeBlock, neutraliseFences, statusLine } from '../../src/chat/format.js';
import { MemoryJobQueue } from '../../src/chat/memory-queue.js';
import type { ChatJobData, PlatformJobs } from '../../src/chat/job-queue.js';
import { requestJobs } from '../../src/chat/request-jobs.js';
import type { OutgoingPort } from '../../src/chat/port.js';
import type { HistoryStore } from '../../src/history/types.js';
import { type Agent, InputError } from '../../src/agent/loop/index.js';
import { RecentDeliveries } from '../../src/chat/recent-deliveries.js';
import { thrownReason } from '../../src/chat/agent-call.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';

const result = (over: Partial<ExecutionResult>): ExecutionResult => ({
  success: false, stdout: '', stderr: '', exitCode: 1, signal: null, timedOut: false, limitHit: null, durationMs: 1234, artifacts: [], ...over,
});

describe('chat output shaping', () => {
  it('leaves no fence that could close a code block', () => {
    const block = codeBlock('a\n```\n@everyone ````` b');
    const inner = block.slice(4, -4);
    expect(inner).not.toContain('```');
    expect(block.startsWith('```\n') && block.endsWith('\n```')).toBe(true);
    expect(neutraliseFences('no fences')).toBe('no fences');
  });

  it('caps lines and characters and says so', () => {
    const many = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const byLines = capText(many, 10_000, 40);
    expect(byLines.truncated).toBe(true);
    expect(byLines.text.split('\n')).toHaveLength(41);
    const byChars = capText('x'.repeat(5000), 1000);
    expect(byChars.truncated).toBe(true);
    expect(byChars.text.length).toBeLessThanOrEqual(1000);
    expect(byChars.text).toMatch(/more characters; full text attached/);
    expect(capText('short', 100)).toEqual({ text: 'short', truncated: false });
  });

  it('names the meaning of an exit in the status line', () => {
    expect(statusLine(result({ success: true, exitCode: 0 }))).toBe('✅ Success · exit code 0 · 1.23 s');
    expect(statusLine(result({ timedOut: true, limitHit: 'wall_time', signal: 'SIGKILL', exitCode: null }))).toContain('timed out');
    expect(statusLine(result({ limitHit: 'memory', stderr: 'MemoryError' }))).toContain('out of memory');
    expect(statusLine(result({ signal: 'SIGSEGV', exitCode: null }))).toContain('killed by signal 11 (SIGSEGV)');
    expect(statusLine(result({ stderr: 'Traceback…\nZeroDivisionError: division by zero\n' }))).toContain('ZeroDivisionError: division by zero');
  });
});

/** A platform whose job of kind `k` runs `jobs[k]` (the test's own work), recording the order jobs ran in. */
function platform(jobs: Record<string, () => Promise<void>>, ran: string[]): PlatformJobs {
  const handlers = Object.fromEntries(Object.entries(jobs).map(([kind, work]) => [kind, async () => { await work(); ran.push(kind); }]));
  return {
    run: async (data: ChatJobData) => {
      const handler = handlers[data.kind];
      if (!handler) throw new Error(`no job of kind ${data.kind}`);
      await handler();
    },
    interrupted: async () => undefined,
    falseAlarm: async () => undefined,
  };
}
const job = (kind: string, channel: string, user: string, waitsForUser = false) => ({
  platform: 'test',
  kind,
  limit: { jobId: `${kind}-${user}`, channel, user, ...(waitsForUser ? { waitsForUser } : {}) },
  payload: {},
});

describe('MemoryJobQueue (the in-memory chat queue and its limits)', () => {
  it('refuses a second job of a busy user and a full channel queue, runs a channel in order, and frees them after', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ran: string[] = [];
    const errors: unknown[] = [];
    const queue = new MemoryJobQueue({ test: platform({ a: () => gate, b: async () => undefined, again: async () => undefined }, ran) }, 2, (_m, e) => errors.push(e));
    expect(await queue.submit('a', job('a', 'C1', 'alice'))).toEqual({ accepted: true, ahead: 0 });
    expect(await queue.submit('x', job('x', 'C2', 'alice'))).toEqual({ accepted: false, reason: 'user_busy' });
    expect(await queue.submit('b', job('b', 'C1', 'bob'))).toEqual({ accepted: true, ahead: 1 });
    expect(await queue.submit('c', job('c', 'C1', 'carol'))).toEqual({ accepted: false, reason: 'queue_full' });
    release();
    await queue.close();
    expect(ran).toEqual(['a', 'b']);
    expect(errors).toEqual([]);
    const again = new MemoryJobQueue({ test: platform({ again: async () => undefined }, ran) }, 2, () => undefined);
    expect(await again.submit('again', job('again', 'C1', 'alice'))).toEqual({ accepted: true, ahead: 0 });
  });

  it('frees the user when a job throws, and reports the error', async () => {
    const errors: unknown[] = [];
    const queue = new MemoryJobQueue({ test: platform({ boom: async () => { throw new Error('boom'); }, ok: async () => undefined }, []) }, 5, (_m, e) => errors.push(e));
    expect(await queue.submit('boom', job('boom', 'C', 'dave'))).toMatchObject({ accepted: true });
    while (queue.size > 0) await new Promise((r) => setTimeout(r, 5));
    expect(String(errors[0])).toContain('boom');
    expect(await queue.submit('ok', job('ok', 'C', 'dave'))).toEqual({ accepted: true, ahead: 0 });
    await queue.close();
  });

  it('a reply to an existing run is never refused for its busy user: it waits its turn behind the run', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ran: string[] = [];
    const queue = new MemoryJobQueue({ test: platform({ run: () => gate, reply: async () => undefined }, ran) }, 5, () => undefined);
    expect(await queue.submit('run', job('run', 'C1', 'alice'))).toEqual({ accepted: true, ahead: 0 });
    expect(await queue.submit('reply', job('reply', 'C1', 'alice', true))).toEqual({ accepted: true, ahead: 1 });
    release();
    await queue.close();
    expect(ran).toEqual(['run', 'reply']);
  });

  it('a job of an unknown request kind is an error, reported, never run as another kind', async () => {
    const errors: unknown[] = [];
    const called: string[] = [];
    // every method of the port records its call: none may be reached for an unknown kind
    const port = new Proxy({ platform: 'test' } as OutgoingPort<string, string>, {
      get: (target, name) => (name === 'platform' ? target.platform : (...args: unknown[]) => void called.push(String(name), ...args.map(String))),
    });
    const store = { threadRunId: async () => undefined, getRun: async () => undefined } as unknown as HistoryStore;
    const jobs = requestJobs({ agent: {} as Agent, store, onInternalError: () => undefined, onWarning: () => undefined }, port);
    const queue = new MemoryJobQueue({ test: jobs }, 5, (_m, e) => errors.push(e));
    await queue.submit('odd', { ...job('odd', 'C', 'erin'), payload: { platform: 'test', kind: 'odd', where: { conversation: 'C', channel: 'C' }, who: { userId: 'erin' }, text: '', files: [] } });
    await queue.close();
    expect(String(errors[0])).toContain('unknown request kind: "odd"');
    expect(called).toEqual([]);
  });
});

describe('RecentDeliveries', () => {
  it('answers true once per id within the TTL', async () => {
    const recent = new RecentDeliveries(50);
    expect(recent.first('e1')).toBe(true);
    expect(recent.first('e1')).toBe(false);
    expect(recent.first('e2')).toBe(true);
    await new Promise((r) => setTimeout(r, 80));
    expect(recent.first('e1')).toBe(true);
  });
});

describe('thrownReason (one wording for a chat job whose agent call threw)', () => {
  it('keeps a refused request\'s own words, names anything else an internal error, and shows no credentials, fence or long text', () => {
    expect(thrownReason(new InputError('The requirement is empty.'))).toBe('The requirement is empty.');
    const leaked = thrownReason(new Error('connect to https://user:s3cret@db.example.org/x failed ``` then\nmore'));
    expect(leaked.startsWith('internal error: connect to')).toBe(true);
    expect(leaked).not.toContain('s3cret');
    expect(leaked).not.toContain('```');
    expect(leaked).not.toContain('\n');
    expect(thrownReason(new Error('x'.repeat(5000))).length).toBeLessThanOrEqual(500);
  });
});
