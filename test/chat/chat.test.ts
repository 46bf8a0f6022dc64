import { describe, expect, it } from 'vitest';
import { capText, codeBlock, neutraliseFences, statusLine } from '../../src/chat/format.js';
import { JobLimiter } from '../../src/chat/job-limiter.js';
import { RecentDeliveries } from '../../src/chat/recent-deliveries.js';
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

describe('JobLimiter', () => {
  it('refuses a second job of a busy user and a full channel queue, and frees them after', async () => {
    const limiter = new JobLimiter(2);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = limiter.submit('C1', 'alice', () => gate.then(() => 'a'));
    expect(first).toMatchObject({ accepted: true, position: 0 });
    expect(limiter.submit('C2', 'alice', async () => 'x')).toEqual({ accepted: false, reason: 'user_busy' });
    const second = limiter.submit('C1', 'bob', async () => 'b');
    expect(second).toMatchObject({ accepted: true, position: 1 });
    expect(limiter.submit('C1', 'carol', async () => 'c')).toEqual({ accepted: false, reason: 'queue_full' });
    release();
    expect(await (first as { done: Promise<string> }).done).toBe('a');
    expect(await (second as { done: Promise<string> }).done).toBe('b');
    expect(limiter.submit('C1', 'alice', async () => 'again')).toMatchObject({ accepted: true, position: 0 });
  });

  it('frees the user when a job throws', async () => {
    const limiter = new JobLimiter(5);
    const failing = limiter.submit('C', 'dave', async () => {
      throw new Error('boom');
    });
    await expect((failing as { done: Promise<unknown> }).done).rejects.toThrow('boom');
    expect(limiter.submit('C', 'dave', async () => 1)).toMatchObject({ accepted: true });
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
