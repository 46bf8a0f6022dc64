import { describe, expect, it } from 'vitest';
import { MAX_REPLY_CHARS, RunawayWatch } from '../../src/agent/replies/runaway.js';

/** Feeds `text` in pieces of `size` characters; the reason, if the reply ran away. */
function watch(text: string, size = 7): string | undefined {
  const w = new RunawayWatch();
  for (let i = 0; i < text.length; i += size) w.push(text.slice(i, i + size));
  return w.reason;
}

const nested = (depth: number, step: string) =>
  '```python\n' + Array.from({ length: depth }, (_, i) => `${step.repeat(i)}for i${i} in range(2):`).join('\n') + '\n';

describe('RunawayWatch', () => {
  it.each([
    ['nested loops, 4 spaces', nested(25, '    '), /nested 20 blocks deep/],
    ['nested loops, 2 spaces', nested(25, '  '), /nested 20 blocks deep/],
    ['nested loops, tabs', nested(25, '\t'), /nested 20 blocks deep/],
    ['the same line', '```python\n' + 'print(total)\n'.repeat(40), /the same line repeated 30 times/],
    ['the same two lines', '```python\n' + 'x = load()\nprint(x)\n'.repeat(20), /the same 2 lines repeated 15 times/],
    ['an endless line', 'print(' + '1, '.repeat(MAX_REPLY_CHARS), /grew past 40000 characters/],
  ])('stops: %s', (_name, text, reason) => {
    expect(watch(text)).toMatch(reason);
  });

  it.each([
    [
      'a deep but real program after an indented prose line',
      ' - a note indented by one space\n```python\nclass A:\n    def run(self):\n        for row in rows:\n            if row:\n                with open(row) as f:\n                    for line in f:\n                        if line:\n                            print(line)\n```\n',
    ],
    ['300 different lines', '```python\n' + Array.from({ length: 300 }, (_, i) => `value_${i} = compute(${i})`).join('\n') + '\n```'],
    ['a table of identical rows of numbers', '```python\ngrid = [\n' + '    [0, 0, 0],\n'.repeat(60) + ']\nprint(len(grid))\n```'],
    ['29 identical lines', '```python\n' + 'print("-")\n'.repeat(29) + '```'],
    [
      'aligned continuation lines',
      '```python\nresult = combine(first,\n                 second,\n                 third)\nprint(result)\n```',
    ],
    ['two programs whose nesting adds up past 20', nested(12, '    ') + '```\nAnd another:\n' + nested(12, '    ')],
  ])('lets through: %s', (_name, text) => {
    expect(watch(text)).toBeUndefined();
  });

  it('says why once, at the piece that crossed the line', () => {
    const w = new RunawayWatch();
    const lines = nested(30, '    ').split(/(?<=\n)/);
    const reasons = lines.map((l) => w.push(l));
    expect(reasons.filter((r) => r !== undefined)).toHaveLength(1);
    expect(reasons.findIndex((r) => r !== undefined)).toBe(21); // piece 0 is the fence, piece k + 1 the loop at depth k
  });
});
