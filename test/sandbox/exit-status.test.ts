/** The host's read of the kernel's exit record (exit-status.ts), on real processes. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exitingStatus, programPid } from '../../src/sandbox/exit-status.js';
import { makeExecutor, sleep } from './helpers.js';

/** A python process that forks children which end as `codes` say and are never reaped (zombies keep the record). */
async function zombies(codes: string[]): Promise<{ pids: number[]; stop: () => void }> {
  const script = [
    'import os, signal, sys, time',
    'pids = []',
    'for how in sys.argv[1:]:',
    '    pid = os.fork()',
    '    if pid == 0:',
    '        if how.startswith("sig"):',
    '            os.kill(os.getpid(), int(how[3:]))',
    '        os._exit(int(how))',
    '    pids.append(pid)',
    'print(" ".join(map(str, pids)), flush=True)',
    'time.sleep(30)',
  ].join('\n');
  const child = spawn('/usr/bin/python3', ['-c', script, ...codes], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => child.stdout.once('data', (c: Buffer) => resolve(c.toString())));
  await sleep(100); // the children have ended (zombies)
  return { pids: line.trim().split(' ').map(Number), stop: () => child.kill('SIGKILL') };
}

describe('the exit status from the kernel', () => {
  it('reads exit codes and signals of processes that ended, and nothing of a live one', async () => {
    const z = await zombies(['0', '3', '137', 'sig15']);
    try {
      expect(z.pids.map(exitingStatus)).toEqual([{ exit: 0 }, { exit: 3 }, { exit: 137 }, { signal: 15 }]);
      expect(exitingStatus(process.pid)).toBeUndefined(); // running
      expect(exitingStatus(2 ** 22 + 1)).toBeUndefined(); // no such process
    } finally {
      z.stop();
    }
  });

  it("finds a warm sandbox's program process: the only child of the supervisor (pid 2 inside)", async () => {
    const ex = makeExecutor({ warmPool: 1 });
    const pool = (await ex.warmPool())!;
    expect(await pool.whenReady(1, 30_000)).toBe(true);
    const outer = (await pool.peek())!;
    const program = programPid(outer)!;
    expect(program).toBeGreaterThan(0);
    const parent = /^PPid:\s*(\d+)$/m.exec(readFileSync(`/proc/${program}/status`, 'utf8'))![1];
    expect(/^NSpid:\s*\d+\s+(\d+)$/m.exec(readFileSync(`/proc/${parent}/status`, 'utf8'))?.[1]).toBe('2'); // the supervisor
    expect(readFileSync(`/proc/${program}/cmdline`, 'utf8')).toContain('runner.pyc');
    expect(exitingStatus(program)).toBeUndefined(); // waiting for its job
  });
});
