/** The terminal shows an attempt's code line by line while it streams in, each line once. */
import { describe, expect, it } from 'vitest';
import { createRenderer } from '../../adapters/cli/render.js';
import type { AgentEvent } from '../../src/agent/run/index.js';

function render(events: AgentEvent[]): string[] {
  const out: string[] = [];
  const r = createRenderer({ progress: (l) => out.push(l), detail: (t) => out.push(t) });
  for (const e of events) r(e);
  return out;
}

const delta = (code: string): AgentEvent => ({ type: 'code_delta', runId: 'r', attempt: 1, code, delta: '' });

describe('CLI renderer: streamed code', () => {
  it('prints each completed line once as it arrives, then the rest and the "generated" line', () => {
    const out = render([
      { type: 'generating', runId: 'r', attempt: 1, trigger: 'requirement', lastAttempt: 4 },
      delta('import m'),
      delta('import math\nx'),
      delta('import math\nx = 2\n'),
      delta('import math\nx = 2\nprint(math.sqrt'),
      { type: 'generated', runId: 'r', attempt: 1, code: 'import math\nx = 2\nprint(math.sqrt(x))' },
    ]);
    expect(out).toEqual([
      '[Agent] Generating code…',
      ' 1 | import math',
      ' 2 | x = 2',
      ' 3 | print(math.sqrt(x))',
      '[Agent] Code generated (3 lines)',
    ]);
  });

  it('prints the whole final code when it is not what was streamed (another block was chosen)', () => {
    const out = render([delta('a = 1\nb'), { type: 'generated', runId: 'r', attempt: 1, code: 'print(3)' }]);
    expect(out).toEqual([' 1 | a = 1', '(the code that runs:)\n1 | print(3)', '[Agent] Code generated (1 lines)']);
  });

  it('names the streamed lines that are not part of the program instead of printing it again (checks after it)', () => {
    const out = render([
      delta('x = 2\nprint(x)\n# checks\nassert OUTPUT == "2"\n'),
      { type: 'generated', runId: 'r', attempt: 1, code: 'x = 2\nprint(x)' },
    ]);
    expect(out).toEqual([
      ' 1 | x = 2\n 2 | print(x)\n 3 | # checks\n 4 | assert OUTPUT == "2"',
      '(lines 3–4 are not part of the program)',
      '[Agent] Code generated (2 lines)',
    ]);
  });

  it('prints the code as before when nothing streamed', () => {
    const out = render([{ type: 'generated', runId: 'r', attempt: 2, code: 'print(1)' }]);
    expect(out).toEqual(['[Agent] Code generated (1 lines)', '1 | print(1)']);
  });
});

describe('CLI renderer: why an improvement is made', () => {
  const result = (success: boolean, stderr = '') => ({
    success, stdout: '', stderr, exitCode: success ? 0 : 1, signal: null, timedOut: false, limitHit: null, durationMs: 5, artifacts: [],
  });
  const improving = (reason: string): AgentEvent => ({ type: 'improving', runId: 'r', retry: 1, maxRetries: 3, attempt: 2, lastAttempt: 4, reason });
  const quiet = (events: AgentEvent[]) => {
    const out: string[] = [];
    const r = createRenderer({ progress: (l) => out.push(l), detail: () => {} }, { showDetails: false });
    for (const e of events) r(e);
    return out;
  };

  it('says why when the program ran (a missing file, a check): no line before it did', () => {
    const why = 'the request asks for summary.csv, and the program wrote no such file';
    expect(quiet([{ type: 'executed', runId: 'r', attempt: 1, result: result(true) }, improving(why)])).toEqual([
      '[Agent] Execution succeeded in 5 ms',
      `[Agent] Not confirmed: ${why}`,
      '[Agent] --- Improvement attempt 1/3 ---',
    ]);
  });

  it('does not repeat a crash the line before it named', () => {
    const out = quiet([{ type: 'executed', runId: 'r', attempt: 1, result: result(false, 'Traceback (most recent call last):\nNameError: name \'x\' is not defined\n') }]);
    const failure = out[0]!.replace('[Agent] Execution failed: ', '');
    expect(quiet([{ type: 'executed', runId: 'r', attempt: 1, result: result(false, "Traceback (most recent call last):\nNameError: name 'x' is not defined\n") }, improving(failure)])).toEqual([
      out[0],
      '[Agent] --- Improvement attempt 1/3 ---',
    ]);
  });
});
