/** Code shown while a reply streams in: partial extraction, the agent's `code_delta` events, the throttle. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { codeStreamer, partialCode, programClosed } from '../../src/agent/replies/partial-code.js';
import { codeTail, Throttle } from '../../src/chat/stream-edits.js';

describe('partialCode', () => {
  it.each([
    ['', ''],
    ['Here is the program:', ''],
    ['```python\nimport math\nprint(ma', 'import math\nprint(ma'],
    ['```python\nx = 1\n``', 'x = 1'],
    ['```python\nx = 1\n```\nThis prints one.', 'x = 1'],
    ['Sure!\n```py\nprint(1)\n', 'print(1)\n'],
    ['```\nprint(2)', 'print(2)'],
    ['```bash\npip install x\n```', ''],
  ])('%j → %j', (reply, code) => {
    expect(partialCode(reply)).toBe(code);
  });
});

describe('programClosed (a reply may end there)', () => {
  it.each([
    ['', false],
    ['```python\nprint(1)\n', false],
    // the closing line must be whole: a fourth backtick may still come
    ['```python\nprint(1)\n```', false],
    ['```python\nprint(1)\n```\n', true],
    ['Here:\n```python\nprint(1)\n```\nThis prints 1.', true],
    ['```py\nx = 1\n  ```  \n', true],
    ['````python\ns = "```"\n```\n', false],
    ['````python\ns = "```"\n````\n', true],
    ['~~~python\nx = 1\n~~~\n', true],
    ['```python\r\nx = 1\r\n```\r\n', true],
    // untagged blocks and other languages never end a reply early
    ['```\nprint(2)\n```\n', false],
    ['```bash\npip install x\n```\n', false],
    ['```bash\npip install x\n```\n```python\nprint(3)\n', false],
    ['```bash\npip install x\n```\n```python\nprint(3)\n```\n', true],
  ])('%j → %j', (reply, closed) => {
    expect(programClosed(reply)).toBe(closed);
  });
});

describe('codeStreamer', () => {
  it('reports each growth of the code once, with what was added, whatever the pieces', () => {
    const seen: [string, string][] = [];
    const feed = codeStreamer((code, delta) => seen.push([code, delta]));
    for (const piece of ['Here', ' it is:\n``', '`python\nimp', 'ort os\n', 'print(os.sep)\n`', '``\nDone.']) feed(piece);
    expect(seen.map(([c]) => c)).toEqual(['imp', 'import os\n', 'import os\nprint(os.sep)']);
    expect(seen.map(([, d]) => d).join('')).toBe('import os\nprint(os.sep)');
  });
});

describe('Throttle', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('flushes the first value at once, then the latest at most once per interval, nothing after stop', () => {
    vi.useFakeTimers();
    const flushed: [number, string][] = [];
    const t = new Throttle<string>((v) => flushed.push([Date.now(), v]), { intervalMs: 1000 });
    const start = Date.now();
    t.push('a');
    for (let i = 0; i < 25; i++) {
      vi.advanceTimersByTime(100);
      t.push(`b${i}`);
    }
    vi.advanceTimersByTime(1000);
    t.push('c');
    t.stop();
    vi.advanceTimersByTime(5000);
    expect(flushed[0]).toEqual([start, 'a']);
    const times = flushed.map(([at]) => at);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000);
    expect(flushed.map(([, v]) => v)).toEqual(['a', 'b8', 'b18', 'b24']);
  });
});

describe('Throttle with delayFirst', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows nothing for a stream shorter than the interval, and the first value one interval in', () => {
    vi.useFakeTimers();
    const flushed: string[] = [];
    const short = new Throttle<string>((v) => flushed.push(v), { intervalMs: 1000, delayFirst: true });
    short.push('a');
    vi.advanceTimersByTime(500);
    short.stop(); // the reply ended: the final message is posted instead
    vi.advanceTimersByTime(2000);
    expect(flushed).toEqual([]);
    const long = new Throttle<string>((v) => flushed.push(v), { intervalMs: 1000, delayFirst: true });
    long.push('b');
    vi.advanceTimersByTime(999);
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual(['b']);
  });
});

describe('codeTail', () => {
  it('keeps the last whole lines that fit', () => {
    expect(codeTail('aaaa\nbb\ncc', 6)).toEqual({ text: 'bb\ncc', omittedLines: 1 });
    expect(codeTail('x\n' + 'y'.repeat(10), 4)).toEqual({ text: 'yyyy', omittedLines: 1 });
  });
});
