/**
 * Tracebacks fed back to the model keep the program's frames and the exception, not the frames
 * inside libraries: on real tracebacks from the real sandbox (pandas, a module the program wrote).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { describeResult } from '../../src/agent/failures/index.js';
import { withoutLibraryFrames } from '../../src/agent/failures/traceback.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';

let executor: BubblewrapExecutor;
let keyError: ExecutionResult;

beforeAll(async () => {
  executor = new BubblewrapExecutor({ limits: { wallTimeS: 20 } });
  keyError = await executor.execute("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\nprint(df['amount'].sum())\n");
}, 60_000);

afterAll(async () => {
  await executor.dispose?.();
});

describe('withoutLibraryFrames', () => {
  it("keeps a pandas KeyError's program frame, its source line and both exceptions, and leaves out pandas' frames", () => {
    expect(keyError.stderr).toMatch(/dist-packages\/pandas/);
    const trimmed = withoutLibraryFrames(keyError.stderr);
    expect(trimmed).not.toMatch(/dist-packages|\.pyx|hashtable|get_loc\(/);
    expect(trimmed).toMatch(/File "main\.py", line 3, in <module>\n\s+print\(df\['amount'\]\.sum\(\)\)/);
    expect(trimmed.match(/^KeyError: 'amount'$/gm)).toHaveLength(2);
    expect(trimmed).toContain('The above exception was the direct cause of the following exception:');
    expect(trimmed).toMatch(/^ {2}… \d+ frames in pandas left out$/m);
    expect(trimmed.length).toBeLessThan(keyError.stderr.length / 2);
  });

  it('keeps the frames of a module the program wrote beside main.py', async () => {
    const result = await executor.execute('import helper\nhelper.run()\n', {
      inputFiles: [{ name: 'helper.py', content: Buffer.from('import json\n\ndef run():\n    json.loads("{oops")\n') }],
    });
    const trimmed = withoutLibraryFrames(result.stderr);
    expect(trimmed).toMatch(/File "main\.py", line 2/);
    expect(trimmed).toMatch(/File "[^"]*helper\.py", line 4, in run\n\s+json\.loads\("\{oops"\)/);
    expect(trimmed).toMatch(/… \d+ frames in json left out/);
    expect(trimmed).toMatch(/json\.decoder\.JSONDecodeError: Expecting property name/);
  });

  it('leaves a traceback without library frames, and text that is no traceback, as they were', () => {
    const own = 'Traceback (most recent call last):\n  File "main.py", line 1, in <module>\n    1/0\n    ~^~\nZeroDivisionError: division by zero\n';
    expect(withoutLibraryFrames(own)).toBe(own);
    const text = 'warning: something\n  File "x" is not a frame line without a number\n';
    expect(withoutLibraryFrames(text)).toBe(text);
  });

  it('is what the model is told of a failed execution', () => {
    const report = describeResult(keyError);
    expect(report).toMatch(/^The program failed: KeyError: 'amount'/);
    expect(report).toMatch(/stderr \(tail\):\nTraceback/);
    expect(report).not.toMatch(/dist-packages/);
    expect(report).toMatch(/frames in pandas left out/);
  });
});
