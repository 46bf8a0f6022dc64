/** The job line a pooled sandbox reads (job.ts), and what the runner makes of it (runner.py's _parse_job). */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { encodeJob } from '../../src/sandbox/job.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { runnerPath } from '../../src/sandbox/runner.js';

/** Runs runner.py's own `_parse_job` on `text` with the sandbox's interpreter. */
function parseWithRunner(text: string): [Record<string, number[]>, string | null] {
  const script = 'import sys, json, runpy; m = runpy.run_path(sys.argv[1]); print(json.dumps(m["_parse_job"](sys.stdin.read())))';
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, runnerPath()], { input: text }).toString());
}

describe('the job of a pooled sandbox', () => {
  it('carries the rlimits and the checks, and the runner reads back the same', () => {
    const checks = 'assert total == 6\nassert "x=1 y=2" in OUTPUT\n';
    const text = encodeJob({ ...DEFAULT_LIMITS, cpuTimeS: 2.5 }, checks, false);
    const [limits, parsed] = parseWithRunner(text);
    expect(limits).toEqual({
      cpu: [3, 4],
      fsize: [DEFAULT_LIMITS.maxFileBytes],
      nofile: [DEFAULT_LIMITS.maxOpenFiles],
      core: [0],
      as: [DEFAULT_LIMITS.memoryBytes],
      nproc: [DEFAULT_LIMITS.maxProcesses],
    });
    expect(parsed).toBe(checks);
  });

  it('sends no per-process memory and process rlimits with a cgroup, and tells no checks from empty ones', () => {
    const [limits, none] = parseWithRunner(encodeJob(DEFAULT_LIMITS, undefined, true));
    expect(Object.keys(limits).sort()).toEqual(['core', 'cpu', 'fsize', 'nofile']);
    expect(none).toBeNull();
    expect(parseWithRunner(encodeJob(DEFAULT_LIMITS, '', true))[1]).toBe('');
  });
});
